"""Pack a file into a Source map and rename a targetname with every output aimed at it:
python rename_target.py MAP FILE PAK_PATH OLD NEW [OUT] (no OUT: in place)."""
import sys
from pathlib import Path

import bspedit

map_path, file, pak_path, old, new, *out = sys.argv[1:]
with bspedit.open(map_path) as bsp:
    bsp.pakfile.add(pak_path, Path(file).read_bytes(), update=True)
    renamed = bsp.entities().rename_target(old, new)
    if not renamed:
        sys.exit(f"{map_path}: nothing is named {old!r}")
    result = bsp.save(*out)
    print(f"{result.target}: {renamed} keyvalues renamed, {pak_path} packed")
