"""Which BSP leaves a box touches (Source), the way vbsp finds a static prop's leaves (issue 30).

vbsp (utils/vbsp/staticprop.cpp, ComputeStaticPropLeaves) takes the axis-aligned box of the
prop's collision hull placed at its origin and angles, and walks the BSP tree from the world's
head node. At a node it picks, per axis, the box corner furthest along the plane's normal
(`corner max`) and the one furthest against it (`corner min`): `normal . corner max <= dist`
sends the box to the back child (children[1]) only, `normal . corner min >= dist` to the front
child (children[0]) only, anything else to both, back first. Leaves with CONTENTS_SOLID are
never listed. It then keeps the leaves whose convex cell the hull itself enters (a trace of
the hull against the cell); a box can only stand in for that hull, so this search lists every
open leaf the box reaches, a superset of vbsp's list for the same prop when the box holds the
hull. The leaves come in vbsp's order: depth first, back child first.

The walk runs on every box at once with numpy: the frontier of (box, node) pairs is expanded a
level at a time, each pair replaced in place by its children, which keeps vbsp's order.

The hull's box needs the model's bounds, which the map does not hold (see `prop_box`):
`model_bounds` reads them from a model file (`studiohdr_t` hull box, or every vertex of a `.vvd`),
and `reach` gives a small box around a prop's origin that still reaches every leaf of its stored
list: the bounds the map itself implies, a lower bound on the hull's box. `relink` puts them to
use when `props set` moves a prop.
"""
from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import BspError, CheckFailed

if TYPE_CHECKING:
    import numpy

    from ..bsp import Bsp

CONTENTS_SOLID = 1
AXES = ("x", "y", "z")


@dataclass(frozen=True, slots=True)
class Tree:
    """The world's BSP tree as arrays: per plane its normal and distance, per node its plane
    and children (a child < 0 is leaf -1 - child), per leaf its contents and bounds."""

    normals: numpy.ndarray[Any, Any]        # (planes, 3) float64 of the stored float32
    dists: numpy.ndarray[Any, Any]          # (planes,)
    planes: numpy.ndarray[Any, Any]         # (nodes,) plane of each node
    children: numpy.ndarray[Any, Any]       # (nodes, 2)
    contents: numpy.ndarray[Any, Any]       # (leaves,)
    leaf_mins: numpy.ndarray[Any, Any]      # (leaves, 3)
    leaf_maxs: numpy.ndarray[Any, Any]      # (leaves, 3)
    head: int                               # the world model's head node

    @property
    def open(self) -> numpy.ndarray[Any, Any]:
        """Per leaf: True when static props may be listed in it (not solid)."""
        solid: numpy.ndarray[Any, Any] = (self.contents & CONTENTS_SOLID) != 0
        return ~solid


def _vec(column: numpy.ndarray[Any, Any]) -> numpy.ndarray[Any, Any]:
    import numpy as np

    stacked: numpy.ndarray[Any, Any] = np.stack([column[a].astype(np.float64) for a in AXES],
                                                axis=-1)
    return stacked


def tree(bsp: Bsp) -> Tree:
    """The map's BSP tree (NODES, PLANES, LEAFS, the world model's head node). BspError when
    the map has none to walk."""
    import numpy as np

    if bsp.family.engine != "source":
        raise BspError("static prop leaves are a Source thing; this map is "
                       f"{bsp.family.key}", path=bsp.path)
    nodes, planes, leafs = bsp.records("NODES"), bsp.records("PLANES"), bsp.records("LEAFS")
    models = bsp.records("MODELS")
    if not len(nodes) or not len(leafs) or not len(models):
        raise BspError("the map has no BSP tree (NODES, LEAFS or MODELS is empty)", path=bsp.path)
    head = int(models[0]["headnode"])
    plane = nodes["planenum"].astype(np.int64)
    children = nodes["children"].astype(np.int64)
    bad = (plane < 0) | (plane >= len(planes)) | \
        ((children >= len(nodes)) | (children < -len(leafs))).any(axis=1)
    if not 0 <= head < len(nodes) or bad.any():
        where = int(np.flatnonzero(bad)[0]) if bad.any() else head
        raise BspError(f"NODES {where}: a plane or child index outside the map", path=bsp.path)
    return Tree(_vec(planes["normal"]), planes["dist"].astype(np.float64), plane, children,
                leafs["contents"].astype(np.int64), _vec(leafs["mins"]), _vec(leafs["maxs"]),
                head)


def leaves_in_boxes(bsp_tree: Tree, mins: Any, maxs: Any,
                    with_solid: bool = False) -> list[numpy.ndarray[Any, Any]]:
    """For each box (rows of `mins`, `maxs`), the leaves vbsp's walk reaches, in its order;
    open leaves only unless `with_solid`."""
    import numpy as np

    mins = np.asarray(mins, dtype=np.float64).reshape(-1, 3)
    maxs = np.asarray(maxs, dtype=np.float64).reshape(-1, 3)
    box = np.arange(len(mins))
    node = np.full(len(mins), bsp_tree.head, dtype=np.int64)
    for _ in range(len(bsp_tree.planes) + 1):      # a walk never visits a node twice
        inner = node >= 0
        if not inner.any():
            break
        at = node[inner]
        normal = bsp_tree.normals[bsp_tree.planes[at]]
        dist = bsp_tree.dists[bsp_tree.planes[at]]
        lo, hi = mins[box[inner]], maxs[box[inner]]
        ahead = normal >= 0
        corner_max = np.einsum("ij,ij->i", normal, np.where(ahead, hi, lo))
        corner_min = np.einsum("ij,ij->i", normal, np.where(ahead, lo, hi))
        back = corner_max <= dist
        front = ~back & (corner_min >= dist)
        split = ~back & ~front
        kids = bsp_tree.children[at]
        first = np.where(front, kids[:, 0], kids[:, 1])    # back first when split
        # each pair becomes 1 or 2 pairs, in place
        count = np.ones(len(node), dtype=np.int64)
        count[np.flatnonzero(inner)[split]] = 2
        new_box = np.repeat(box, count)
        new_node = np.repeat(node, count)
        starts = np.cumsum(count) - count
        inner_starts = starts[inner]
        new_node[inner_starts] = first
        new_node[inner_starts[split] + 1] = kids[split, 0]
        box, node = new_box, new_node
    else:
        raise BspError("the BSP tree has a cycle")
    leaf = -1 - node
    if not with_solid:
        keep = bsp_tree.open[leaf]
        box, leaf = box[keep], leaf[keep]
    cuts = np.searchsorted(box, np.arange(1, len(mins)))
    return np.split(leaf, cuts)


def leaves_in_box(bsp_tree: Tree, mins: Any, maxs: Any) -> list[int]:
    """The open leaves vbsp's walk reaches for one box, in its order."""
    found: list[int] = leaves_in_boxes(bsp_tree, mins, maxs)[0].tolist()
    return found


# -- a prop's box ------------------------------------------------------------------------------
def angle_matrix(angles: Any) -> numpy.ndarray[Any, Any]:
    """The rotation of Source's QAngle (pitch, yaw, roll in degrees) as mathlib's AngleMatrix
    builds it: model axes (forward, left, up) as columns; rows of many angles at once."""
    import numpy as np

    pitch, yaw, roll = np.radians(np.asarray(angles, dtype=np.float64).reshape(-1, 3)).T
    sp, cp, sy, cy, sr, cr = (np.sin(pitch), np.cos(pitch), np.sin(yaw), np.cos(yaw),
                              np.sin(roll), np.cos(roll))
    return np.stack([np.stack([cp * cy, sr * sp * cy - cr * sy, cr * sp * cy + sr * sy], -1),
                     np.stack([cp * sy, sr * sp * sy + cr * cy, cr * sp * sy - sr * cy], -1),
                     np.stack([-sp, sr * cp, cr * cp], -1)], axis=1)


def prop_box(model_mins: Any, model_maxs: Any, origin: Any,
             angles: Any) -> tuple[numpy.ndarray[Any, Any], numpy.ndarray[Any, Any]]:
    """The world box of a model box (model space) placed at `origin` with `angles`: the box
    around its eight rotated corners (rows: many props at once)."""
    import numpy as np

    lo = np.asarray(model_mins, dtype=np.float64).reshape(-1, 3)
    hi = np.asarray(model_maxs, dtype=np.float64).reshape(-1, 3)
    matrix = angle_matrix(angles)
    centre = np.einsum("nij,nj->ni", matrix, (lo + hi) / 2)
    half = np.einsum("nij,nj->ni", np.abs(matrix), (hi - lo) / 2)
    origin = np.asarray(origin, dtype=np.float64).reshape(-1, 3)
    return origin + centre - half, origin + centre + half


def points_box(points: Any, origin: Any,
               angles: Any) -> tuple[numpy.ndarray[Any, Any], numpy.ndarray[Any, Any]]:
    """The world box of model-space points (a model's vertices) placed at one `origin` with
    `angles`: what vbsp's collision box is when the points are the hull's."""
    import numpy as np

    matrix = angle_matrix(angles)[0]
    world = np.asarray(points, dtype=np.float64).reshape(-1, 3) @ matrix.T + \
        np.asarray(origin, dtype=np.float64)
    return world.min(axis=0, keepdims=True), world.max(axis=0, keepdims=True)


def _paths(bsp_tree: Tree, leaves: Any) -> tuple[Any, Any, Any]:
    """The planes on the way from the head node to each of `leaves`: (normals, dists, sides),
    side 0 for the front child, 1 for the back one."""
    import numpy as np

    nodes = len(bsp_tree.planes)
    parent = np.full(nodes, -1, dtype=np.int64)
    side = np.zeros(nodes, dtype=np.int64)
    leaf_parent = np.full(len(bsp_tree.contents), -1, dtype=np.int64)
    leaf_side = np.zeros(len(bsp_tree.contents), dtype=np.int64)
    for child_side in (0, 1):
        child = bsp_tree.children[:, child_side]
        inner = child >= 0
        parent[child[inner]], side[child[inner]] = np.flatnonzero(inner), child_side
        leaf_parent[-1 - child[~inner]] = np.flatnonzero(~inner)
        leaf_side[-1 - child[~inner]] = child_side
    rows: list[tuple[int, int]] = []
    for leaf in np.asarray(leaves, dtype=np.int64).tolist():
        node, way = int(leaf_parent[leaf]), int(leaf_side[leaf])
        for _ in range(nodes):
            if node < 0:
                break
            rows.append((node, way))
            node, way = int(parent[node]), int(side[node])
    table = np.asarray(rows, dtype=np.int64).reshape(-1, 2)
    plane = bsp_tree.planes[table[:, 0]]
    return bsp_tree.normals[plane], bsp_tree.dists[plane], table[:, 1]


GROWTH = 1 / 64     # how far past a plane a derived box reaches (vbsp's tests are strict)


def reach(bsp_tree: Tree, origin: Any, leaves: Any) -> numpy.ndarray[Any, Any]:
    """How far a box around `origin` must reach (below, above: six numbers) for vbsp's walk to
    come to every one of `leaves`: the front child needs `normal . corner max > dist`, the back
    one `normal . corner min < dist`, on every plane of the way. Grown from the point, each
    unmet plane pushing the box's face along its normal's largest axis: small, not always the
    smallest (planes that are not axial)."""
    import numpy as np

    normal, dist, side = _paths(bsp_tree, leaves)
    origin = np.asarray(origin, dtype=np.float64).reshape(3)
    size = np.abs(normal)
    ahead = normal >= 0
    axis = np.argmax(size, axis=1)
    rows = np.arange(len(normal))
    # the face each plane pushes: above (3 + axis) when the box must pass the plane along a
    # positive normal component (front) or pass back along a negative one
    face = np.where(ahead[rows, axis] == (side == 0), 3 + axis, axis)
    extent = np.zeros(6)
    base = normal @ origin
    for _ in range(4 * len(normal) + 1):
        below, above = extent[:3], extent[3:]
        out = (size * np.where(ahead, above, below)).sum(axis=1)     # towards the normal
        back = (size * np.where(ahead, below, above)).sum(axis=1)    # against it
        short = np.where(side == 0, dist - base - out, base - dist - back)
        unmet = short >= 0
        if not unmet.any():
            return extent
        grow = np.zeros(6)
        np.maximum.at(grow, face[unmet], short[unmet] / size[rows[unmet], axis[unmet]] + GROWTH)
        extent = extent + grow
    raise BspError("no box reaches the prop's leaves (a leaf list that does not fit the tree)")


# -- model files -------------------------------------------------------------------------------
_STUDIO = struct.Struct("<4si")
_HULL_AT = 104          # studiohdr_t: id, version, checksum, name[64], length, eye, illum: 104


def model_bounds(data: bytes, vertices: bytes | None = None) -> tuple[tuple[float, ...],
                                                                       tuple[float, ...]]:
    """Model-space bounds of a compiled model: from its `.vvd` (every vertex, what vbsp's hull
    is built from) when given, else the `.mdl` header's hull box (studiohdr_t hull_min/max).
    BspError for data that is neither."""
    if vertices is not None:
        points = vvd_points(vertices)
        if len(points):
            return tuple(points.min(axis=0).tolist()), tuple(points.max(axis=0).tolist())
    if len(data) < _HULL_AT + 24 or data[:4] not in (b"IDST", b"IDAG"):
        raise BspError("not a compiled model (.mdl: IDST)")
    values = struct.unpack_from("<6f", data, _HULL_AT)
    if not all(math.isfinite(v) for v in values) or any(
            a > b for a, b in zip(values[:3], values[3:])):
        raise BspError("the model's hull box is not a box")
    return values[:3], values[3:]


def vvd_points(data: bytes) -> numpy.ndarray[Any, Any]:
    """The positions of a `.vvd`'s level-of-detail 0 vertices (model space). Layout
    (vertexFileHeader_t): IDSV, version 4, checksum, LOD count, 8 LOD vertex counts, fixup
    count and offset, vertex and tangent data offsets; 48-byte vertices whose position follows
    16 bytes of bone weights."""
    import numpy as np

    if len(data) < 64 or data[:4] != b"IDSV":
        raise BspError("not a model's vertex file (.vvd: IDSV)")
    counts = struct.unpack_from("<8i", data, 16)
    fixups, fixup_at, vertex_at = struct.unpack_from("<3i", data, 48)
    total = (len(data) - vertex_at) // 48 if vertex_at > 0 else 0
    count = counts[0] if not fixups else total
    count = max(0, min(count, total))
    raw = np.frombuffer(data, dtype=np.float32, count=count * 12, offset=vertex_at) \
        if count else np.zeros(0, dtype=np.float32)
    return raw.reshape(-1, 12)[:, 4:7].astype(np.float64)


# -- a static prop's leaves --------------------------------------------------------------------
PLACEMENT = ("origin", "angles", "model", "scale")     # the fields that decide a prop's leaves


@dataclass(frozen=True, slots=True)
class Relinked:
    """A prop's leaf list before and after, and where the bounds came from."""

    index: int
    before: list[int]
    after: list[int]
    bounds: str

    def to_change(self) -> dict[str, Any]:
        """As a `props set` change entry."""
        return {"field": "leaves", "before": self.before, "after": self.after,
                "model_added": None}


def placement(props: Any, index: int) -> dict[str, Any]:
    """The fields of prop `index` that decide its leaves (those its layout has)."""
    return {field: props.get(index, field) for field in PLACEMENT
            if field in props.layout.fields}


def _model_file_bounds(bsp: Bsp, name: str | None) -> tuple[Any, Any, str] | None:
    """The model's bounds from its files in the map's pakfile: (vertices, None, source) from
    its .vvd, else (mins, maxs, source) from the .mdl hull box; None when the pakfile does not
    hold the model."""
    if not name:
        return None
    try:
        pakfile = bsp.pakfile
        found = pakfile.find(name)
    except BspError:
        return None
    if found is None:
        return None
    stem = name[:-4] if name.lower().endswith(".mdl") else name
    vvd = pakfile.find(stem + ".vvd")
    if vvd is not None:
        points = vvd_points(pakfile.read(vvd))
        if len(points):
            return points, None, f"{vvd.key} in the pakfile (its vertices)"
    lo, hi = model_bounds(pakfile.read(found))
    return lo, hi, f"{found.key} in the pakfile (its hull box)"


def relink(bsp: Bsp, index: int, before: dict[str, Any],
           bounds: tuple[Any, Any] | None = None) -> Relinked | None:
    """List static prop `index` again in the leaves its box reaches, after its placement
    changed from `before` (see `placement`); None when it did not change. The box is the
    model's bounds placed at the prop's origin and angles: `bounds` when given (model space),
    else the model's files in the pakfile, else the box the map's own leaf lists imply
    (`reach`) for props of its model, angles and scale: the prop's own list at its old place
    when only its origin changed, together with every other such prop's. BspError, nothing
    changed, when none applies (its angles, model or scale changed, no bounds given, no other
    prop to learn from): CheckFailed (exit 1)."""
    import numpy as np

    props = bsp.static_props
    now = placement(props, index)
    if now == before:
        return None
    old = props.prop_leaves(index)
    try:
        bsp_tree = tree(bsp)
    except BspError as exc:
        raise CheckFailed(f"static prop {index}: its leaf list can't be recomputed: "
                          f"{exc.message}; --keep-leaves keeps the old list; nothing written",
                          path=bsp.path) from None
    scale = np.asarray(now.get("scale", 1.0), dtype=np.float64)
    found = None
    if bounds is not None:
        found = (*bounds, "the bounds given")
    else:
        found = _model_file_bounds(bsp, props.model(index))
    if found is not None:
        if found[1] is None:        # a model's vertices: their box, turned as vbsp does
            lo, hi = points_box(np.asarray(found[0]) * scale, now["origin"], now["angles"])
        else:
            lo, hi = prop_box(np.asarray(found[0]) * scale, np.asarray(found[1]) * scale,
                              now["origin"], now["angles"])
        source = found[2]
    else:
        same = {k: v for k, v in now.items() if k != "origin"}
        moved_only = same == {k: v for k, v in before.items() if k != "origin"}
        others = [i for i in range(len(props)) if i != index and
                  {k: v for k, v in placement(props, i).items() if k != "origin"} == same]
        if not moved_only and not others:
            changed = ", ".join(k for k in same if now[k] != before[k])
            raise CheckFailed(
                f"static prop {index}: its leaf list can't be recomputed: its {changed} changed "
                f"and the map holds no bounds for {props.model(index) or 'its model'} (no model "
                "file in the pakfile, no other prop with its model, angles and scale to learn "
                "them from); give --model-bounds, or --keep-leaves to keep the old list (the "
                "engine then culls the prop by the leaves it used to be in); nothing written")
        extent = np.zeros(6)
        for other in others:
            extent = np.maximum(extent, reach(bsp_tree, props.get(other, "origin"),
                                              props.prop_leaves(other)))
        if moved_only:
            extent = np.maximum(extent, reach(bsp_tree, before["origin"], old))
        origin = np.asarray(now["origin"], dtype=np.float64)
        lo, hi = (origin - extent[:3])[None], (origin + extent[3:])[None]
        source = ("the leaf lists of " + ("this prop" if moved_only else "") +
                  (" and " if moved_only and others else "") +
                  (f"{len(others)} other prop(s) with its model and angles" if others else ""))
    new = leaves_in_box(bsp_tree, lo, hi)
    if new != old:
        props.set_prop_leaves(index, new)
    return Relinked(index, old, new, source)
