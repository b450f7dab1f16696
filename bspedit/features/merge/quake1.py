"""Quake 1 / GoldSrc leafs of merged maps: leaf 0 shared, every map's world leafs (1 to its
visleafs) next, padded to whole bytes of the visibility rows, then the brush models' leafs;
each leaf's visibility row rewritten for the merged width."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from ...errors import BspError
from . import vis
from .remap import Array, LeafOrder, Ranges, put, wide

if TYPE_CHECKING:
    from ...bsp import Bsp
    from .report import MergeReport


def merge_quake1_leafs(bsps: list[Bsp], models: list[Array], leafs: list[Array], keep_vis: bool,
                       report: MergeReport) -> tuple[LeafOrder, bytes]:
    """The merged leaf order and VISIBILITY lump; edits the maps' `leafs` visofs."""
    k = len(bsps)
    world = [int(m[0]["visleafs"]) for m in models]
    for count, records, bsp in zip(world, leafs, bsps):
        if not 0 <= count < len(records):
            raise BspError(f"model 0 has {count} visleafs, the map {len(records)} leafs",
                           path=bsp.path)
    starts = vis.padded(world) if keep_vis else [sum(world[:i]) for i in range(k)]
    visleafs = starts[-1] + world[-1]
    pads = [starts[i + 1] - starts[i] - world[i] for i in range(k - 1)] + [0]
    padding = numpy.repeat(leafs[0][:1], sum(pads))
    padding["visofs"] = -1
    groups = [[(0, 0, 1)]]
    at = 0
    for i in range(k):
        groups[0] += [(i, 1, world[i]), (k, at, pads[i])]
        at += pads[i]
    groups.append([(i, world[i] + 1, len(leafs[i]) - 1 - world[i]) for i in range(k)])
    order = Ranges.build([len(r) for r in leafs] + [len(padding)], groups,
                         [(i, 0, 0) for i in range(1, k)])
    if not keep_vis:
        for records in leafs:
            records["visofs"] = -1
        report.visibility = "dropped (--no-vis)"
        return LeafOrder(order, [padding], visleafs), b""
    rows = vis.RowWriter((visleafs + 7) // 8)
    for i, (bsp, records) in enumerate(zip(bsps, leafs)):
        data = bsp.content("VISIBILITY")
        visofs = wide(records, "visofs")
        moved = rows.add(data, visofs.tolist(), (world[i] + 7) // 8, starts[i] // 8)
        report.unreadable_rows += len({o for o in visofs.tolist() if o >= 0} - set(moved))
        put(records, "visofs", numpy.array([moved.get(o, -1) for o in visofs.tolist()]),
            "LEAFS")
    return LeafOrder(order, [padding], visleafs), bytes(rows.data)
