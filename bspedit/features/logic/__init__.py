"""A map's entity logic (issue 34): what targets what, what is left dangling, and its graph."""
