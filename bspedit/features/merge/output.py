"""Writing a merged map: a new file of the first map's family and version holding the merged
lumps, saved by the project's writer (compact layout, atomic, never over an input)."""
from __future__ import annotations

import os
import tempfile
from typing import TYPE_CHECKING

from ...bsp import Bsp
from ...container.outputs import guard
from ...container.saving import SaveResult, save
from ...format.header import Header, Lump

if TYPE_CHECKING:
    from .report import Merged


def write_merged(first: Bsp, merged: Merged, target: str, inputs: list[str], *,
                 dry_run: bool = False) -> SaveResult:
    """Save `merged` to `target` (`dry_run`: plan and report only)."""
    guard(target, inputs)
    family = first.family
    empty = [Lump(i, name, family.header_size, 0) for i, name in enumerate(family.lump_names)]
    header = Header(family, first.header.ident, first.header.version, empty)
    with tempfile.TemporaryDirectory(prefix="bspedit-merge-") as folder:
        skeleton = os.path.join(folder, "skeleton.bsp")
        with open(skeleton, "wb") as out:
            out.write(header.to_bytes())
        with Bsp.open(skeleton) as bsp:
            for name, data in merged.lumps.items():
                bsp.replace_lump(name, data)
            return save(bsp, target, layout="compact", dry_run=dry_run)
