"""Moving, merging and converting Quake-family maps (issue 35)."""
