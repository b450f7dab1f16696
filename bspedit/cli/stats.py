"""`stats`: the map's counts per lump against its engine's limits (bspguy's `info -limit`,
ripent's `-chart`). Read-only: exit 0, with a warning for each count at 90% of its limit or more.
The limits are data in `bspedit.enginelimits`."""
from __future__ import annotations

import argparse
from typing import Any

from ..bsp import Bsp
from ..families import Family
from .common import add_verb, set_result

WARN_AT = 0.9       # a count at this share of its limit or more is warned about


def register(commands: argparse._SubParsersAction) -> None:
    add_verb(commands, run_stats, "stats",
             help="counts per lump against the engine's limits (MAX_MAP_*)")


def engine_of(family: Family, version: int | None) -> str:
    """The key of the limits table (`enginelimits.LIMITS`) for a map of `family`."""
    if family.key in ("bsp2", "2psb"):
        return "bsp2"
    if family.engine == "source" and version == 25:
        return "strata"
    return family.engine


def lump_length(bsp: Bsp, index: int) -> int:
    """A lump's length; for a Source LZMA lump, the uncompressed size its header states."""
    from ..lzma_lump import HEADER_SIZE, lzma_header

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
    from .. import enginelimits

    engine = engine_of(bsp.family, bsp.header.version)
    rows = []
    for limit in enginelimits.LIMITS[engine]:
        found = count(bsp, limit.lump, limit.unit)
        if found is None:
            continue
        rows.append({"lump": limit.lump, "count": found, "limit": limit.limit,
                     "unit": limit.unit, "percent": round(100 * found / limit.limit, 1)})
    return {"engine": engine, "rows": rows}


def run_stats(args: argparse.Namespace) -> int:
    from .. import enginelimits

    with Bsp.open(args.map) as bsp:
        result = stats(bsp)
    set_result(args, result)
    report = args.report
    engine = result["engine"]
    report.say(f"engine: {engine} (limits: {enginelimits.HEADERS[engine]})")
    if not result["rows"]:
        report.say("no known limits for this engine")
    else:
        report.say(f"{'lump':<22} {'count':>10} {'limit':>10} {'unit':<9} {'used':>7}")
        for row in result["rows"]:
            report.say(f"{row['lump']:<22} {row['count']:>10} {row['limit']:>10} "
                       f"{row['unit']:<9} {row['percent']:>6.1f}%")
    for row in result["rows"]:
        if row["count"] >= WARN_AT * row["limit"]:
            report.warn(f"{row['lump']}: {row['count']} of {row['limit']} {row['unit']} "
                        f"({row['percent']}% of the {engine} limit)")
    return 0
