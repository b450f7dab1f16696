"""The map file: layout facts, the planner, the executor (the only writer), checksums from the
plan, the output guard and atomic writers."""
