"""Engine limits (`bspedit.format.enginelimits`) checked on a merged map before it is written."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...errors import BspError
from ...format import enginelimits
from ..stats import count, engine_of

if TYPE_CHECKING:
    from ...bsp import Bsp
    from .report import Merged


def merged_count(bsp: Bsp, merged: Merged, lump: str, unit: str) -> int | None:
    """What the merged map holds of `lump` in `unit` (None: not countable)."""
    data = merged.lumps.get(lump)
    if data is None:
        return None
    if unit == "entities":
        return merged.entity_count
    if unit == "textures":
        return int.from_bytes(data[:4], "little", signed=True) if len(data) >= 4 else 0
    if unit == "bytes":
        return len(data)
    index = bsp.family.index_of(lump)
    size = bsp.family.record_size(index, bsp.lumps[index].version, bsp.header.version) \
        if index is not None else None
    return len(data) // size if size else None


def _input_count(bsp: Bsp, lump: str, unit: str) -> int | None:
    """What the input file holds (its entity view may hold the merged entities by now)."""
    if unit == "entities":
        from ...lumps.entities import EntityLump

        stored = bsp.original_bytes(bsp.lumps[bsp.lump_index(lump)])
        return len(EntityLump.parse(stored, lenient=True))
    return count(bsp, lump, unit)


def check_limits(bsps: list[Bsp], names: list[str], merged: Merged, *,
                 ignore: bool = False) -> list[str]:
    """BspError naming the first engine limit the merged map passes, with its count and each
    input map's; with `ignore`, every such message instead (the caller warns)."""
    first = bsps[0]
    engine = engine_of(first.family, first.header.version)
    passed = []
    for limit in enginelimits.LIMITS[engine]:
        total = merged_count(first, merged, limit.lump, limit.unit)
        if total is None or total <= limit.limit:
            continue
        each = ", ".join(f"{name} {_input_count(bsp, limit.lump, limit.unit)}"
                         for bsp, name in zip(bsps, names))
        message = (f"the merged map would hold {total} {limit.unit} of {limit.lump}, past "
                   f"{limit.constant} = {limit.limit} ({enginelimits.HEADERS[engine]}); "
                   f"the maps hold {each}")
        if not ignore:
            raise BspError(f"{message}; nothing written (--ignore-limits writes it anyway)")
        passed.append(message)
    return passed
