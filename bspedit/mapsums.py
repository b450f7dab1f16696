"""The checksums each engine computes for a map file, read from the map's stored bytes."""
from __future__ import annotations

from .bsp import Bsp
from .checksum import block_checksum, quakeworld_checksums, source_crc

# What an engine's clients compare, by engine: the first name is the one servers check.
COMPARED = {"source": "crc32", "goldsrc": "crc32", "quake1": "map_checksum",
            "quake2": "block_checksum", "quake3": "block_checksum"}
WHOLE_FILE = {"quake2", "quake3"}


def map_checksums(bsp: Bsp) -> dict[str, int]:
    """Name -> unsigned 32-bit value, for every checksum the family's engines compute."""
    engine = bsp.family.engine
    view = bsp.view()
    lumps: list = []
    try:
        lumps = [view[l.offset:l.end] if l.length > 0 else b"" for l in bsp.lumps]
        sums: dict[str, int] = {}
        if engine in ("source", "goldsrc"):
            sums["crc32"] = source_crc(lumps, bsp.family.entities)
        if engine in ("quake1", "goldsrc"):
            sums["map_checksum"], sums["map_checksum2"] = quakeworld_checksums(lumps)
        if engine in WHOLE_FILE:
            sums["block_checksum"] = block_checksum(view)
        return sums
    finally:
        del lumps
        view.release()
