"""A map's counts per lump against its engine's limits (what `bspedit stats` reports; bspguy's
`info -limit`, ripent's `-chart`). The limits are data in `bspedit.format.enginelimits`."""
from __future__ import annotations

from typing import Any

from ..bsp import Bsp
from ..format.families import Family

WARN_AT = 0.9       # a count at this share of its limit or more is warned about


def engine_of(family: Family, version: int | None) -> str:
    """The key of the limits table (`enginelimits.LIMITS`) for a map of `family`."""
    if family.key in ("bsp2", "2psb"):
        return "bsp2"
    if family.engine == "source" and version == 25:
        return "strata"
    return family.engine


def lump_length(bsp: Bsp, index: int) -> int:
    """A lump's length; for a Source LZMA lump, the uncompressed size its header states."""
    from ..format.lzma_lump import HEADER_SIZE, lzma_header

    lump = bsp.lumps[index]
    if bsp.family.header == "vbsp" and lump.length:
        header = lzma_header(bsp.read_range(lump.offset, lump.offset + HEADER_SIZE))
        if header is not None:
            return int(header.actual_size)
    return lump.length


def count(bsp: Bsp, lump: str, unit: str) -> int | None:
    """What `bsp` holds of `lump` in `unit` (None: not countable, no record size known)."""
    index = bsp.family.index_of(lump)
    if index is None:
        return None
    if unit == "entities":
        return bsp.entities(lenient=True).census().entities
    if unit == "textures":          # Quake 1 / GoldSrc miptex lump: int32 count first
        stored = bsp.lumps[index]
        head = bsp.read_range(stored.offset, stored.offset + min(4, stored.length))
        return int.from_bytes(head, "little", signed=True) if len(head) == 4 else 0
    length = lump_length(bsp, index)
    if unit == "bytes":
        return length
    size = bsp.family.record_size(index, bsp.lumps[index].version, bsp.header.version)
    return length // size if size else None


def stats(bsp: Bsp) -> dict[str, Any]:
    """The `stats` result: the engine's key and a row per limit the map can be counted against."""
    from ..format import enginelimits

    engine = engine_of(bsp.family, bsp.header.version)
    rows = []
    for limit in enginelimits.LIMITS[engine]:
        found = count(bsp, limit.lump, limit.unit)
        if found is None:
            continue
        rows.append({"lump": limit.lump, "count": found, "limit": limit.limit,
                     "unit": limit.unit, "percent": round(100 * found / limit.limit, 1)})
    return {"engine": engine, "rows": rows}
