"""Merging Quake 1 (BSP 29, BSP2, 2PSB), GoldSrc and Quake 2 maps whose bounds do not overlap
into one map (bspguy's merge, scriptable).

The trees are joined under new root nodes (hull 0) and clipnodes (hulls 1-3) whose axial
planes lie between the maps' bounds (`tree`); every record lump is concatenated with its
indices moved (`remap`); planes equal to the byte are shared, textures shared by name
(`textures`); each map's world faces and leafs come first so model 0's ranges are contiguous,
then every map's brush models in turn. Visibility keeps each map's rows, seeing only its own
leafs or clusters (`vis`); lighting offsets move with the lump. One worldspawn holds every
map's keys (`entities`). Engine limits are checked before anything is written. BSPX lumps are
not carried over (they index the first map's faces only).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy

from ...errors import BspError
from ...format.bspx import bspx_directory
from . import remap, tree
from .entities import EntityReport, merge_entities
from .remap import Array, offset_where, put, wide
from .textures import merge_miptex

if TYPE_CHECKING:
    from ...bsp import Bsp


@dataclass(frozen=True)
class Shape:
    """What differs between the families a merge handles."""

    leaf_faces: str                 # the lump of the leafs' face lists
    leaf_face_field: str            # the leaf's first index into it
    clip_hulls: tuple[int, ...]     # model headnode[] entries joined through CLIPNODES
    visibility: str                 # "leafs": rows per leaf; "clusters": Quake 2's dvis_t
    miptex: bool                    # a TEXTURES lump (else texinfo holds the names)


SHAPES = {"quake1": Shape("MARKSURFACES", "firstmarksurface", (1, 2), "leafs", True),
          "goldsrc": Shape("MARKSURFACES", "firstmarksurface", (1, 2, 3), "leafs", True),
          "quake2": Shape("LEAFFACES", "firstleafface", (), "clusters", False)}
SOLID = {"quake1": -2, "goldsrc": -2, "quake2": 1}      # leaf 0's contents, shared by all


@dataclass
class MergeReport:
    """What `merge` did."""

    maps: list[str]
    splits: list[dict[str, Any]] = field(default_factory=list)   # axis, dist, front, back
    counts: dict[str, int] = field(default_factory=dict)          # merged records per lump
    shared_planes: int = 0
    shared_textures: int = 0
    shared_texinfo: int = 0
    visibility: str = "merged"            # merged | dropped (--no-vis) | dropped: reason
    unreadable_rows: int = 0              # visibility rows that could not be read (see all)
    dropped_bspx: list[str] = field(default_factory=list)
    entities: EntityReport = field(default_factory=EntityReport)

    def to_dict(self) -> dict[str, Any]:
        return {"maps": self.maps, "splits": self.splits, "counts": self.counts,
                "shared_planes": self.shared_planes, "shared_textures": self.shared_textures,
                "shared_texinfo": self.shared_texinfo,
                "visibility": self.visibility, "unreadable_rows": self.unreadable_rows,
                "dropped_bspx": self.dropped_bspx,
                "worldspawn_conflicts": self.entities.conflicts,
                "targetname_clashes": self.entities.clashes,
                "renamed": self.entities.renamed}


@dataclass
class Merged:
    """The merged map's lumps (name -> bytes) and what was done."""

    lumps: dict[str, bytes]
    report: MergeReport
    entity_count: int


def bounds(bsp: Bsp) -> tree.Box:
    """The world's bounds, after any shift: its root node's (model 0's own bounds are not
    always the tree's: Quake 2 compilers write +-99999 or the first brush's)."""
    head = int(bsp.records("MODELS", writable=True)[0]["headnode"].flat[0])
    nodes = bsp.records("NODES", writable=True)
    if not 0 <= head < len(nodes):
        raise BspError(f"model 0's head node {head} is not one of its {len(nodes)} nodes",
                       path=bsp.path)
    mins, maxs = nodes[head]["mins"], nodes[head]["maxs"]
    return ((float(mins["x"]), float(mins["y"]), float(mins["z"])),
            (float(maxs["x"]), float(maxs["y"]), float(maxs["z"])))


def bspx_lumps(bsp: Bsp) -> list[str]:
    """The names of the BSPX lumps after the map's last lump."""
    tail = bsp.layout.tail
    directory = bspx_directory(bsp.read_range(tail.start, tail.end)) if tail else None
    return [entry.name.rstrip(b"\0").decode("latin-1") for entry in directory.lumps] \
        if directory else []


def check_apart(boxes: list[tree.Box], names: list[str]) -> None:
    """BspError naming the first two maps whose bounds overlap, and where."""
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            shared = tree.overlap(boxes[i], boxes[j])
            if shared is not None:
                lo, hi = (" ".join(f"{v:g}" for v in corner) for corner in shared)
                raise BspError(f"{names[i]} and {names[j]} overlap from ({lo}) to ({hi}): "
                               f"move one with --shift MAP=X,Y,Z")


class _Maps:
    """The maps' record arrays, read once (writable: the shifted maps' own copies)."""

    def __init__(self, bsps: list[Bsp]) -> None:
        self.bsps = bsps

    def __call__(self, lump: str) -> list[Array]:
        return [bsp.records(lump, writable=True).copy() for bsp in self.bsps]


def _offsets(sizes: list[int], start: int = 0) -> list[int]:
    out, at = [], start
    for size in sizes:
        out.append(at)
        at += size
    return out


def merge(bsps: list[Bsp], names: list[str], *, keep_vis: bool = True,
          rename: bool = False) -> Merged:
    """Merge open maps of one family (shifted already, as they should lie). BspError when
    they overlap, cannot be split by axial planes or are of other families."""
    family = bsps[0].family
    shape = SHAPES[family.engine]
    report = MergeReport(list(names))
    report.dropped_bspx = [f"{lump} ({name})" for bsp, name in zip(bsps, names)
                           for lump in bspx_lumps(bsp)]
    boxes = [bounds(bsp) for bsp in bsps]
    check_apart(boxes, names)
    joins = tree.splits(tree.split(dict(enumerate(boxes))))
    rec = _Maps(bsps)
    k = len(bsps)
    models = rec("MODELS")
    for model, name in zip(models, names):
        if not len(model):
            raise BspError("the map has no models (no world)", path=name)

    # planes: every map's, then the splits; equal ones shared
    planes = rec("PLANES")
    split_planes: Array = numpy.zeros(len(joins), planes[0].dtype)
    for n, join in enumerate(joins):
        split_planes["normal"][["x", "y", "z"][join.axis]][n] = 1.0
        split_planes["dist"][n] = join.dist
        split_planes["type"][n] = join.axis
    merged_planes, plane_index = remap.dedupe(numpy.concatenate([*planes, split_planes]))
    plane_starts = _offsets([len(p) for p in planes])
    plane_maps = [plane_index[s:s + len(p)] for s, p in zip(plane_starts, planes)]
    split_plane = plane_index[sum(len(p) for p in planes):]
    report.shared_planes = sum(len(p) for p in planes) + len(joins) - len(merged_planes)
    out: dict[str, Array | bytes] = {"PLANES": merged_planes}

    # textures and texinfo
    texinfo = rec("TEXINFO")
    texinfo_offs = _offsets([len(t) for t in texinfo])
    for i, records in enumerate(texinfo):
        if shape.miptex:
            continue
        put(records, "nexttexinfo", offset_where(wide(records, "nexttexinfo"), texinfo_offs[i]),
            "TEXINFO")
    if shape.miptex:
        data, slot_maps, report.shared_textures = merge_miptex(
            [bsp.content("TEXTURES") for bsp in bsps], list(names), family.engine == "goldsrc")
        out["TEXTURES"] = data
        for records, slots in zip(texinfo, slot_maps):
            put(records, "miptex", _through(slots, wide(records, "miptex")), "TEXINFO")
    merged_texinfo, texinfo_index = remap.dedupe(numpy.concatenate(texinfo))
    if not shape.miptex:      # animation chains point at the records as concatenated
        put(merged_texinfo, "nexttexinfo", _through(texinfo_index,
                                                    wide(merged_texinfo, "nexttexinfo")), "TEXINFO")
    texinfo_maps = [texinfo_index[s:s + len(t)] for s, t in zip(texinfo_offs, texinfo)]
    report.shared_texinfo = sum(len(t) for t in texinfo) - len(merged_texinfo)
    out["TEXINFO"] = merged_texinfo

    # vertices, edges, surfedges, lighting
    vertexes, edges, surfedges = rec("VERTEXES"), rec("EDGES"), rec("SURFEDGES")
    vert_offs = _offsets([len(v) for v in vertexes])
    edge_offs = _offsets([len(e) for e in edges])
    surf_offs = _offsets([len(s) for s in surfedges])
    for i in range(k):
        put(edges[i], "v", wide(edges[i], "v") + vert_offs[i], "EDGES")
        put(surfedges[i], "edge", remap.surfedges(wide(surfedges[i], "edge"), edge_offs[i]),
            "SURFEDGES")
    out.update(VERTEXES=numpy.concatenate(vertexes), EDGES=numpy.concatenate(edges),
               SURFEDGES=numpy.concatenate(surfedges))
    lighting = [bsp.content("LIGHTING") for bsp in bsps]
    light_offs = _offsets([len(data) for data in lighting])
    out["LIGHTING"] = b"".join(lighting)

    # faces: every world's faces, then each map's brush models' faces
    faces = rec("FACES")
    for i, records in enumerate(faces):
        put(records, "planenum", plane_maps[i][wide(records, "planenum")], "FACES")
        put(records, "firstedge", wide(records, "firstedge") + surf_offs[i], "FACES")
        put(records, "texinfo", _through(texinfo_maps[i], wide(records, "texinfo")), "FACES")
        put(records, "lightofs", offset_where(wide(records, "lightofs"), light_offs[i]), "FACES")
    face_order = remap.Ranges.build(
        [len(f) for f in faces],
        [[(i, int(models[i][0]["firstface"]), int(models[i][0]["numfaces"])) for i in range(k)],
         [(i, int(m["firstface"]), int(m["numfaces"])) for i in range(k) for m in models[i][1:]]])
    out["FACES"] = face_order.take(faces)
    face_maps = face_order.maps

    leaf_faces = rec(shape.leaf_faces)
    for i, records in enumerate(leaf_faces):
        name = records.dtype.names[0]
        values = wide(records, name)
        if len(values) and (values.min() < 0 or values.max() >= len(face_maps[i])):
            raise BspError(f"{shape.leaf_faces} names a face past the map's {len(face_maps[i])}",
                           path=names[i])
        put(records, name, face_maps[i][values], shape.leaf_faces)
    leaf_face_offs = _offsets([len(r) for r in leaf_faces])
    out[shape.leaf_faces] = numpy.concatenate(leaf_faces)

    leafs = rec("LEAFS")
    for i, records in enumerate(leafs):
        if not len(records) or int(records[0]["contents"]) != SOLID[family.engine]:
            raise BspError(f"leaf 0 is not the shared solid leaf (contents "
                           f"{SOLID[family.engine]})", path=names[i])
        field_name = shape.leaf_face_field
        put(records, field_name, wide(records, field_name) + leaf_face_offs[i], "LEAFS")
        records[0] = leafs[0][0]
    from .quake1 import merge_quake1_leafs  # leaf order, visibility rows
    from .quake2 import merge_quake2  # brushes, areas, clusters
    if shape.visibility == "clusters":
        leaf_order, vis_data = merge_quake2(bsps, names, rec, leafs, plane_maps, texinfo_maps,
                                            keep_vis, out, report)
    else:
        leaf_order, vis_data = merge_quake1_leafs(bsps, models, leafs, keep_vis, report)
    out["VISIBILITY"] = vis_data
    leaf_sources = leafs + leaf_order.extra
    out["LEAFS"] = leaf_order.ranges.take(leaf_sources)
    leaf_maps = leaf_order.ranges.maps

    # nodes: the splits first (node 0 is the world's root), then every map's
    nodes = rec("NODES")
    node_offs = _offsets([len(n) for n in nodes], len(joins))
    for i, records in enumerate(nodes):
        put(records, "planenum", plane_maps[i][wide(records, "planenum")], "NODES")
        put(records, "children", remap.children(wide(records, "children"), node_offs[i],
                                                leaf_maps[i]), "NODES")
        put(records, "firstface", remap.first_of(wide(records, "firstface"),
                                                 wide(records, "numfaces"), face_maps[i]), "NODES")
    heads = [int(models[i][0]["headnode"].flat[0]) + node_offs[i] for i in range(k)]
    out["NODES"] = numpy.concatenate([_join_nodes(joins, nodes[0].dtype, split_plane, heads),
                                      *nodes])

    # clipnodes: the splits of each hull first (an engine checks that a hull's clipnodes
    # come after its head: mvdsv's "bad node number"), then every map's
    clip_heads: dict[int, int] = {}
    clip_offs = [0] * k
    if shape.clip_hulls:
        clipnodes = rec("CLIPNODES")
        clip_offs = _offsets([len(c) for c in clipnodes], len(joins) * len(shape.clip_hulls))
        for i, records in enumerate(clipnodes):
            put(records, "planenum", plane_maps[i][wide(records, "planenum")], "CLIPNODES")
            put(records, "children", offset_where(wide(records, "children"), clip_offs[i]),
                "CLIPNODES")
        pieces = []
        for n, hull in enumerate(shape.clip_hulls):
            tops = [head + clip_offs[i] if head >= 0 else head
                    for i, head in enumerate(int(m[0]["headnode"][hull]) for m in models)]
            pieces.append(_join_clipnodes(joins, clipnodes[0].dtype, split_plane, tops,
                                          n * len(joins)))
            clip_heads[hull] = n * len(joins)
        out["CLIPNODES"] = numpy.concatenate([*pieces, *clipnodes])

    # models: one world, then every map's brush models
    world = models[0][:1].copy()
    world["mins"], world["maxs"] = _xyz_box(tree.union(boxes), world.dtype["mins"])
    world["headnode"] = 0 if world.dtype["headnode"].shape == () else world["headnode"]
    if clip_heads:
        for hull, head in clip_heads.items():
            world["headnode"][0, hull] = head
        world["headnode"][0, 0] = 0
    world["firstface"] = 0
    world["numfaces"] = sum(int(m[0]["numfaces"]) for m in models)
    if "visleafs" in world.dtype.names:
        world["visleafs"] = leaf_order.visleafs
    subs = []
    for i, records in enumerate(models):
        sub = records[1:].copy()
        heads_i = wide(sub, "headnode")
        if heads_i.ndim == 1:       # a model may be a single leaf (-1 - leaf)
            put(sub, "headnode", remap.children(heads_i, node_offs[i], leaf_maps[i]), "MODELS")
        else:
            heads_i[:, 0] = remap.children(heads_i[:, 0], node_offs[i], leaf_maps[i])
            for hull in shape.clip_hulls:
                heads_i[:, hull] = offset_where(heads_i[:, hull], clip_offs[i])
            put(sub, "headnode", heads_i, "MODELS")
        put(sub, "firstface", remap.first_of(wide(sub, "firstface"), wide(sub, "numfaces"),
                                             face_maps[i]), "MODELS")
        subs.append(sub)
    out["MODELS"] = numpy.concatenate([world, *subs])
    model_starts = _offsets([len(m) - 1 for m in models], 1)

    # entities
    lumps = [bsp.entities(lenient=True) for bsp in bsps]
    text, entity_count, report.entities = merge_entities(lumps, list(names), model_starts,
                                                          rename)
    out["ENTITIES"] = text
    report.splits = [{"axis": "xyz"[j.axis], "dist": j.dist} for j in joins]
    lumps_out = {name: value if isinstance(value, bytes) else value.tobytes()
                 for name, value in out.items()}
    report.counts = {name: len(value) for name, value in out.items()
                     if not isinstance(value, bytes)}
    return Merged(lumps_out, report, entity_count)


def _through(index_map: Array, values: Array) -> Array:
    """Indices renumbered through `index_map`; negative ones (none) and ones past it kept."""
    valid = (values >= 0) & (values < len(index_map))
    if not len(index_map):
        return values
    return numpy.where(valid, index_map[numpy.clip(values, 0, len(index_map) - 1)], values)


def _xyz_box(box: tree.Box, dtype: numpy.dtype) -> tuple[Array, Array]:
    mins = numpy.array([box[0]], dtype=dtype)
    maxs = numpy.array([box[1]], dtype=dtype)
    return mins, maxs


def _ref(subtree: tree.Tree, joins: list[tree.Split], maps: list[int], base: int,
         leaf: bool) -> int:
    """A child pointing at a split (its index from `base`) or at a map's own head."""
    if isinstance(subtree, int):
        return maps[subtree]
    return base + joins.index(subtree)


def _join_nodes(joins: list[tree.Split], dtype: numpy.dtype, planes: Array,
                heads: list[int]) -> Array:
    """Hull 0's splitting nodes (node 0 the root), bounds rounded outward for int16 fields."""
    nodes = numpy.zeros(len(joins), dtype)
    integer = dtype["mins"][0].kind in "iu"
    for n, join in enumerate(joins):
        nodes["planenum"][n] = planes[n]
        nodes["children"][n] = (_ref(join.front, joins, heads, 0, False),
                                _ref(join.back, joins, heads, 0, False))
        for corner, values in (("mins", join.box[0]), ("maxs", join.box[1])):
            for axis, value in zip("xyz", values):
                if integer:
                    value = numpy.floor(value) if corner == "mins" else numpy.ceil(value)
                    value = numpy.clip(value, -32768, 32767)
                nodes[corner][axis][n] = value
    return nodes


def _join_clipnodes(joins: list[tree.Split], dtype: numpy.dtype, planes: Array,
                    tops: list[int], base: int) -> Array:
    """One hull's splitting clipnodes, numbered from `base`."""
    clipnodes = numpy.zeros(len(joins), dtype)
    for n, join in enumerate(joins):
        clipnodes["planenum"][n] = planes[n]
        clipnodes["children"][n] = (_ref(join.front, joins, tops, base, True),
                                    _ref(join.back, joins, tops, base, True))
    return clipnodes
