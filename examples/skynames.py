"""Print the sky every map under a folder names: python skynames.py FOLDER."""
import sys
from pathlib import Path
import bspedit

for path in sorted(Path(sys.argv[1]).rglob("*.bsp")):
    with bspedit.open(path) as bsp:
        print(f"{path}: {bspedit.skyname(bsp) or '(none: the engine default)'}")
