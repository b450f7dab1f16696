"""The checksums each engine computes for a map: of the stored file, or of a save not yet made."""
from __future__ import annotations

from collections.abc import Sequence

from .bsp import Bsp
from .checksum import (block_checksum, checksum_from_digest, new_md4, quakeworld_checksums,
                       source_crc)
from .families import Family
from .planner import Piece

# What an engine's clients compare, by engine.
COMPARED = {"source": "crc32", "goldsrc": "crc32", "quake1": "map_checksum",
            "quake2": "block_checksum", "quake3": "block_checksum"}
WHOLE_FILE = {"quake2", "quake3"}


def _lump_sums(family: Family, lumps: Sequence) -> dict[str, int]:
    sums: dict[str, int] = {}
    if family.engine in ("source", "goldsrc"):
        sums["crc32"] = source_crc(lumps, family.entities)
    if family.engine in ("quake1", "goldsrc"):
        sums["map_checksum"], sums["map_checksum2"] = quakeworld_checksums(lumps)
    return sums


def map_checksums(bsp: Bsp) -> dict[str, int]:
    """Name -> unsigned 32-bit value, for every checksum the family's engines compute."""
    view = bsp.view()
    lumps: list = []
    try:
        if bsp.family.engine in WHOLE_FILE:
            return {"block_checksum": block_checksum(view)}
        lumps = [view[l.offset:l.end] if l.length > 0 else b"" for l in bsp.lumps]
        return _lump_sums(bsp.family, lumps)
    finally:
        del lumps
        view.release()


def checksums_after(bsp: Bsp, layout: str) -> dict[str, int]:
    """What `map_checksums` would give for the map saved with `layout`; nothing is written."""
    if bsp.family.engine in WHOLE_FILE:
        md4 = new_md4()
        for chunk in bsp.render(layout):
            md4.update(chunk)
        return {"block_checksum": checksum_from_digest(md4.digest())}
    header, _ = bsp.plan(layout)
    view = bsp.view()
    lumps: list = []
    try:
        for old, new in zip(bsp.lumps, header.lumps):
            if new.offset == old.offset and new.length == old.length and not bsp.is_replaced(old.index):
                lumps.append(view[old.offset:old.end] if old.length > 0 else b"")
            elif new.length:
                lumps.append(bsp.materialise(Piece("lump", new.length, index=old.index), new.offset))
            else:
                lumps.append(b"")
        return _lump_sums(bsp.family, lumps)
    finally:
        del lumps
        view.release()
