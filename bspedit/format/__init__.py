"""Format descriptions: family tables, engine limits, record types, headers and the directories
that hold file offsets (game lump, BSPX), the generated readers."""
