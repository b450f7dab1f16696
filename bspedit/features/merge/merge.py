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

from typing import TYPE_CHECKING

import numpy

from ...errors import BspError
from . import remap, tree
from .entities import merge_entities
from .remap import Array, offset_where, put, wide
from .report import SHAPES, SOLID, Merged, MergeReport
from .textures import merge_miptex
from .transform import bspx_names

if TYPE_CHECKING:
    from ...bsp import Bsp


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


def check_apart(boxes: list[tree.Box], names: list[str]) -> None:
    """BspError naming the first two maps whose bounds overlap, and where."""
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            shared = tree.overlap(boxes[i], boxes[j])
            if shared is not None:
                lo, hi = (" ".join(f"{v:g}" for v in corner) for corner in shared)
                raise BspError(f"{names[i]} and {names[j]} overlap from ({lo}) to ({hi}): "
                               f"move one with --shift MAP=X,Y,Z")


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
    report = MergeReport(list(names))
    report.dropped_bspx = [f"{lump} ({name})" for bsp, name in zip(bsps, names)
                           for lump in bspx_names(bsp)]
    boxes = [bounds(bsp) for bsp in bsps]
    check_apart(boxes, names)
    job = _Merge(bsps, names, tree.splits(tree.split(dict(enumerate(boxes)))), report)
    job.planes()
    job.texinfo()
    job.geometry()
    job.faces()
    job.leafs(keep_vis)
    job.nodes()
    job.clipnodes()
    job.models(tree.union(boxes))
    lumps = [bsp.entities(lenient=True) for bsp in bsps]
    text, entity_count, report.entities = merge_entities(lumps, list(names), job.model_starts,
                                                          rename)
    job.out["ENTITIES"] = text
    report.splits = [{"axis": "xyz"[j.axis], "dist": j.dist} for j in job.joins]
    report.counts = {name: len(value) for name, value in job.out.items()
                     if not isinstance(value, bytes)}
    return Merged({name: value if isinstance(value, bytes) else value.tobytes()
                   for name, value in job.out.items()}, report, entity_count)


class _Merge:
    """One merge, lump group by lump group (each step uses the index maps of the ones before):
    `out` gathers the merged lumps, `*_maps` map each map's old indices to merged ones."""

    def __init__(self, bsps: list[Bsp], names: list[str], joins: list[tree.Split],
                 report: MergeReport) -> None:
        self.bsps, self.names, self.joins, self.report = bsps, names, joins, report
        self.family = bsps[0].family
        self.shape = SHAPES[self.family.engine]
        self.k = len(bsps)
        self.out: dict[str, Array | bytes] = {}
        self.world_models = self.rec("MODELS")
        for records, name in zip(self.world_models, names):
            if not len(records):
                raise BspError("the map has no models (no world)", path=name)

    def rec(self, lump: str) -> list[Array]:
        """The maps' records of `lump`, copies to edit (a shifted map's own edited ones)."""
        return [bsp.records(lump, writable=True).copy() for bsp in self.bsps]

    def planes(self) -> None:
        """Every map's planes, then the splits'; equal ones (to the byte) shared. Quake 2
        planes stay in pairs (a plane and its flipped twin: shared as one, splits written
        as two) when every map keeps them so."""
        planes = self.rec("PLANES")
        group = 2 if self.shape.plane_pairs and all(len(p) % 2 == 0 for p in planes) else 1
        splits: Array = numpy.zeros(len(self.joins) * group, planes[0].dtype)
        for n, join in enumerate(self.joins):
            for twin, sign in enumerate((1.0, -1.0)[:group]):
                splits["normal"]["xyz"[join.axis]][n * group + twin] = sign
                splits["dist"][n * group + twin] = sign * join.dist
                splits["type"][n * group + twin] = join.axis
        merged, index = remap.dedupe(numpy.concatenate([*planes, splits]), group)
        starts = _offsets([len(p) for p in planes])
        self.plane_maps = [index[s:s + len(p)] for s, p in zip(starts, planes)]
        self.split_planes = index[sum(len(p) for p in planes)::group]
        self.report.shared_planes = sum(len(p) for p in planes) + len(splits) - len(merged)
        self.out["PLANES"] = merged

    def texinfo(self) -> None:
        """Textures shared by name (Quake 1, GoldSrc), texinfo concatenated, equal ones shared."""
        texinfo = self.rec("TEXINFO")
        starts = _offsets([len(t) for t in texinfo])
        if self.shape.miptex:
            data, slot_maps, self.report.shared_textures = merge_miptex(
                [bsp.content("TEXTURES") for bsp in self.bsps], list(self.names),
                self.family.engine == "goldsrc")
            self.out["TEXTURES"] = data
            for records, slots in zip(texinfo, slot_maps):
                put(records, "miptex", _through(slots, wide(records, "miptex")), "TEXINFO")
        else:                   # animation chains: the next frame's texinfo number
            for records, start in zip(texinfo, starts):
                put(records, "nexttexinfo", offset_where(wide(records, "nexttexinfo"), start),
                    "TEXINFO")
        merged, index = remap.dedupe(numpy.concatenate(texinfo))
        if not self.shape.miptex:
            put(merged, "nexttexinfo", _through(index, wide(merged, "nexttexinfo")), "TEXINFO")
        self.texinfo_maps = [index[s:s + len(t)] for s, t in zip(starts, texinfo)]
        self.report.shared_texinfo = sum(len(t) for t in texinfo) - len(merged)
        self.out["TEXINFO"] = merged

    def geometry(self) -> None:
        """Vertices, edges and surfedges concatenated, lighting too."""
        vertexes, edges, surfedges = self.rec("VERTEXES"), self.rec("EDGES"), self.rec("SURFEDGES")
        vert_offs = _offsets([len(v) for v in vertexes])
        edge_offs = _offsets([len(e) for e in edges])
        self.surf_offs = _offsets([len(s) for s in surfedges])
        for i in range(self.k):
            put(edges[i], "v", wide(edges[i], "v") + vert_offs[i], "EDGES")
            put(surfedges[i], "edge", remap.surfedges(wide(surfedges[i], "edge"), edge_offs[i]),
                "SURFEDGES")
        self.out.update(VERTEXES=numpy.concatenate(vertexes), EDGES=numpy.concatenate(edges),
                        SURFEDGES=numpy.concatenate(surfedges))
        lighting = [bsp.content("LIGHTING") for bsp in self.bsps]
        self.light_offs = _offsets([len(data) for data in lighting])
        self.out["LIGHTING"] = b"".join(lighting)

    def faces(self) -> None:
        """Every world's faces, then each map's brush models' faces; the leafs' face lists."""
        faces, models = self.rec("FACES"), self.world_models
        for i, records in enumerate(faces):
            put(records, "planenum", self.plane_maps[i][wide(records, "planenum")], "FACES")
            put(records, "firstedge", wide(records, "firstedge") + self.surf_offs[i], "FACES")
            put(records, "texinfo", _through(self.texinfo_maps[i], wide(records, "texinfo")),
                "FACES")
            put(records, "lightofs", offset_where(wide(records, "lightofs"), self.light_offs[i]),
                "FACES")
        order = remap.Ranges.build(
            [len(f) for f in faces],
            [[(i, int(m[0]["firstface"]), int(m[0]["numfaces"])) for i, m in enumerate(models)],
             [(i, int(sub["firstface"]), int(sub["numfaces"]))
              for i, m in enumerate(models) for sub in m[1:]]])
        self.out["FACES"] = order.take(faces)
        self.face_maps = order.maps
        lump = self.shape.leaf_faces
        leaf_faces = self.rec(lump)
        for i, records in enumerate(leaf_faces):
            name = records.dtype.names[0]
            values = wide(records, name)
            if len(values) and (values.min() < 0 or values.max() >= len(self.face_maps[i])):
                raise BspError(f"{lump} names a face past the map's {len(self.face_maps[i])}",
                               path=self.names[i])
            put(records, name, self.face_maps[i][values], lump)
        self.leaf_face_offs = _offsets([len(r) for r in leaf_faces])
        self.out[lump] = numpy.concatenate(leaf_faces)

    def leafs(self, keep_vis: bool) -> None:
        """Leaf 0 shared, each map's leafs in the order its family's visibility wants."""
        from .quake1 import merge_quake1_leafs
        from .quake2 import merge_quake2

        leafs, solid = self.rec("LEAFS"), SOLID[self.family.engine]
        first = self.shape.leaf_face_field
        for i, records in enumerate(leafs):
            if not len(records) or int(records[0]["contents"]) != solid:
                raise BspError(f"leaf 0 is not the shared solid leaf (contents {solid})",
                               path=self.names[i])
            put(records, first, wide(records, first) + self.leaf_face_offs[i], "LEAFS")
            records[0] = leafs[0][0]
        if self.shape.visibility == "clusters":
            order, data = merge_quake2(self.bsps, self.names, self.rec, leafs, self.plane_maps,
                                       self.texinfo_maps, keep_vis, self.out, self.report)
        else:
            order, data = merge_quake1_leafs(self.bsps, self.world_models, leafs, keep_vis,
                                             self.report)
        self.out["VISIBILITY"] = data
        self.out["LEAFS"] = order.ranges.take(leafs + order.extra)
        self.leaf_maps = order.ranges.maps
        self.visleafs = order.visleafs

    def nodes(self) -> None:
        """The splits first (node 0 is the world's root: renderers and servers start there),
        then every map's nodes."""
        nodes = self.rec("NODES")
        self.node_offs = _offsets([len(n) for n in nodes], len(self.joins))
        for i, records in enumerate(nodes):
            put(records, "planenum", self.plane_maps[i][wide(records, "planenum")], "NODES")
            put(records, "children", remap.children(wide(records, "children"), self.node_offs[i],
                                                    self.leaf_maps[i]), "NODES")
            put(records, "firstface", remap.first_of(wide(records, "firstface"),
                                                     wide(records, "numfaces"), self.face_maps[i]),
                "NODES")
        heads = [int(m[0]["headnode"].flat[0]) + off
                 for m, off in zip(self.world_models, self.node_offs)]
        joined = _join_nodes(self.joins, nodes[0].dtype, self.split_planes, heads)
        self.out["NODES"] = numpy.concatenate([joined, *nodes])

    def clipnodes(self) -> None:
        """The splits of each clip hull first (mvdsv checks that a hull's clipnodes come after
        its head: "bad node number"), then every map's clipnodes."""
        self.clip_heads: dict[int, int] = {}
        self.clip_offs = [0] * self.k
        hulls, count = self.shape.clip_hulls, len(self.joins)
        if not hulls:
            return
        clipnodes = self.rec("CLIPNODES")
        self.clip_offs = _offsets([len(c) for c in clipnodes], count * len(hulls))
        for i, records in enumerate(clipnodes):
            put(records, "planenum", self.plane_maps[i][wide(records, "planenum")], "CLIPNODES")
            put(records, "children", offset_where(wide(records, "children"), self.clip_offs[i]),
                "CLIPNODES")
        pieces = []
        for n, hull in enumerate(hulls):
            heads = [int(m[0]["headnode"][hull]) for m in self.world_models]
            tops = [head + off if head >= 0 else head for head, off in zip(heads, self.clip_offs)]
            pieces.append(_join_clipnodes(self.joins, clipnodes[0].dtype, self.split_planes,
                                          tops, n * count))
            self.clip_heads[hull] = n * count
        self.out["CLIPNODES"] = numpy.concatenate([*pieces, *clipnodes])

    def models(self, box: tree.Box) -> None:
        """One world (model 0), then every map's brush models in map order."""
        models = self.world_models
        world = models[0][:1].copy()
        world["mins"], world["maxs"] = _xyz_box(box, world.dtype["mins"])
        if world.dtype["headnode"].shape == ():
            world["headnode"] = 0
        else:
            world["headnode"][0, 0] = 0
            for hull, head in self.clip_heads.items():
                world["headnode"][0, hull] = head
        world["firstface"] = 0
        world["numfaces"] = sum(int(m[0]["numfaces"]) for m in models)
        if "visleafs" in (world.dtype.names or ()):
            world["visleafs"] = self.visleafs
        subs = []
        for i, records in enumerate(models):
            sub = records[1:].copy()
            heads = wide(sub, "headnode")
            if heads.ndim == 1:         # a model may be a single leaf (-1 - leaf)
                heads = remap.children(heads, self.node_offs[i], self.leaf_maps[i])
            else:
                heads[:, 0] = remap.children(heads[:, 0], self.node_offs[i], self.leaf_maps[i])
                for hull in self.shape.clip_hulls:
                    heads[:, hull] = offset_where(heads[:, hull], self.clip_offs[i])
            put(sub, "headnode", heads, "MODELS")
            put(sub, "firstface", remap.first_of(wide(sub, "firstface"), wide(sub, "numfaces"),
                                                 self.face_maps[i]), "MODELS")
            subs.append(sub)
        self.out["MODELS"] = numpy.concatenate([world, *subs])
        self.model_starts = _offsets([len(m) - 1 for m in models], 1)


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


def _ref(subtree: tree.Tree, joins: list[tree.Split], maps: list[int], base: int) -> int:
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
        nodes["children"][n] = (_ref(join.front, joins, heads, 0),
                                _ref(join.back, joins, heads, 0))
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
        clipnodes["children"][n] = (_ref(join.front, joins, tops, base),
                                    _ref(join.back, joins, tops, base))
    return clipnodes
