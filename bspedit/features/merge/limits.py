"""The limits of the engines that load a format (`bspedit.format.loadlimits`), checked on a
merged map before it is written: refused past a limit every such engine has, unless an input
already passes it on its own (that map loads where it loads: the merge is not worse); warned
otherwise, naming the engines."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...errors import BspError
from ...format import loadlimits
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
    """The warnings for the limits the merged map passes; BspError for the first one every
    engine of the format has that no input passes on its own (`ignore`: a warning too)."""
    first = bsps[0]
    engine = engine_of(first.family, first.header.version)
    warnings = []
    for limit in loadlimits.LIMITS[engine]:
        total = merged_count(first, merged, limit.lump, limit.unit)
        if total is None or total <= limit.limit:
            continue
        counts = [_input_count(bsp, limit.lump, limit.unit) for bsp in bsps]
        each = ", ".join(f"{name} {found}" for name, found in zip(names, counts))
        message = (f"the merged map holds {total} {limit.unit} of {limit.lump}, past "
                   f"{limit.name} = {limit.limit} of {limit.engines}; the maps hold {each}")
        over = [name for name, found in zip(names, counts)
                if found is not None and found > limit.limit]
        if over:
            warnings.append(f"{message}: written, {' and '.join(over)} already past it")
        elif not limit.every:
            warnings.append(f"{message}: written, engines without this limit load it")
        elif ignore:
            warnings.append(f"{message}: written anyway (--ignore-limits)")
        else:
            raise BspError(f"{message}: no engine that loads it ({loadlimits.LOADERS[engine]}) "
                           f"would; nothing written (--ignore-limits writes it anyway)")
    return warnings
