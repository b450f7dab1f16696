"""Pictures of a map (issue 33): top-down renders, game radars, q3map2 minimaps and lightmap
atlases, for every family."""
