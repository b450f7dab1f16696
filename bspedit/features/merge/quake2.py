"""Quake 2 records of merged maps that Quake 1 does not have: brushes and their sides and leaf
lists, areas and area portals (area 0 and portal 0 are the shared dummies; each map's
`func_areaportal` `style` keys follow its portal numbers), and clusters (visibility)."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy

from . import vis
from .remap import Array, LeafOrder, Ranges, offset_where, put, wide

if TYPE_CHECKING:
    from ...bsp import Bsp
    from .report import MergeReport


def _offsets(sizes: list[int]) -> list[int]:
    return [sum(sizes[:i]) for i in range(len(sizes))]


def merge_quake2(bsps: list[Bsp], names: list[str], rec: Callable[[str], list[Array]],
                 leafs: list[Array], plane_maps: list[Array], texinfo_maps: list[Array],
                 keep_vis: bool, out: dict[str, Array | bytes], report: MergeReport,
                 ) -> tuple[LeafOrder, bytes]:
    """Put BRUSHES, BRUSHSIDES, LEAFBRUSHES, AREAS, AREAPORTALS and POP into `out`; edit the
    maps' `leafs` and entities; return the leaf order and the VISIBILITY lump."""
    k = len(bsps)
    brushes, sides, leafbrushes = rec("BRUSHES"), rec("BRUSHSIDES"), rec("LEAFBRUSHES")
    side_offs = _offsets([len(s) for s in sides])
    brush_offs = _offsets([len(b) for b in brushes])
    leafbrush_offs = _offsets([len(lb) for lb in leafbrushes])
    for i in range(k):
        put(brushes[i], "firstside", wide(brushes[i], "firstside") + side_offs[i], "BRUSHES")
        put(sides[i], "planenum", plane_maps[i][wide(sides[i], "planenum")], "BRUSHSIDES")
        texinfo = wide(sides[i], "texinfo")
        valid = (texinfo >= 0) & (texinfo < len(texinfo_maps[i]))
        put(sides[i], "texinfo", numpy.where(valid, texinfo_maps[i][numpy.where(valid, texinfo, 0)]
                                             if len(texinfo_maps[i]) else texinfo, texinfo),
            "BRUSHSIDES")
        put(leafbrushes[i], "brush", wide(leafbrushes[i], "brush") + brush_offs[i], "LEAFBRUSHES")
        put(leafs[i], "firstleafbrush", wide(leafs[i], "firstleafbrush") + leafbrush_offs[i],
            "LEAFS")
    out.update(BRUSHES=numpy.concatenate(brushes), BRUSHSIDES=numpy.concatenate(sides),
               LEAFBRUSHES=numpy.concatenate(leafbrushes), POP=bsps[0].content("POP"))
    _areas(bsps, rec, leafs, out)
    order = Ranges.build([len(r) for r in leafs],
                         [[(0, 0, 1)] + [(i, 1, len(leafs[i]) - 1) for i in range(k)]],
                         [(i, 0, 0) for i in range(1, k)])
    lumps = [bsp.content("VISIBILITY") for bsp in bsps]
    counts = [vis.cluster_table(data)[0] for data in lumps]
    for i, records in enumerate(leafs):    # a map without visibility still numbers clusters
        clusters = wide(records, "cluster")
        counts[i] = max(counts[i], int(clusters.max()) + 1 if len(clusters) else 0)
    data = b""
    missing = [name for name, lump in zip(names, lumps) if len(lump) < 4]
    if not keep_vis:
        report.visibility = "dropped (--no-vis)"
    elif missing:
        report.visibility = f"dropped: {', '.join(missing)} has none"
    if keep_vis and not missing:
        data, starts = vis.merge_clusters(lumps, counts)
    else:
        starts = _offsets(counts)
    for i, records in enumerate(leafs):
        put(records, "cluster", offset_where(wide(records, "cluster"), starts[i]), "LEAFS")
    return LeafOrder(order, [], 0), data


def _areas(bsps: list[Bsp], rec: Callable[[str], list[Array]], leafs: list[Array],
           out: dict[str, Array | bytes]) -> None:
    """AREAS and AREAPORTALS of every map after the first's (without their dummy 0), portal
    numbers after the maps' before, and the leafs' areas and portal entities to match."""
    areas, portals = rec("AREAS"), rec("AREAPORTALS")
    kept_areas, kept_portals = [areas[0]], [portals[0]]
    area_count, portal_count = len(areas[0]), len(portals[0])
    numbers = wide(portals[0], "portalnum")
    top = int(numbers.max()) if len(numbers) else 0
    for i in range(1, len(bsps)):
        area_off, portal_off, number_off = area_count - 1, portal_count - 1, top
        own_areas, own_portals = areas[i][1:].copy(), portals[i][1:].copy()
        put(own_areas, "firstareaportal",
            wide(own_areas, "firstareaportal") + portal_off, "AREAS")
        put(own_portals, "portalnum", wide(own_portals, "portalnum") + number_off, "AREAPORTALS")
        put(own_portals, "otherarea",
            offset_where(wide(own_portals, "otherarea"), area_off, 1), "AREAPORTALS")
        put(leafs[i], "area", offset_where(wide(leafs[i], "area"), area_off, 1), "LEAFS")
        for entity in bsps[i].entities(lenient=True).find(classname="func_areaportal"):
            style = entity.get("style", "")
            if style.lstrip("-").isdigit() and int(style) > 0:
                entity["style"] = str(int(style) + number_off)
        kept_areas.append(own_areas)
        kept_portals.append(own_portals)
        area_count += len(own_areas)
        portal_count += len(own_portals)
        if len(own_portals):
            top = max(top, int(wide(own_portals, "portalnum").max()))
    out.update(AREAS=numpy.concatenate(kept_areas), AREAPORTALS=numpy.concatenate(kept_portals))
