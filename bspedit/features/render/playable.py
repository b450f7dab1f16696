"""What the playable map is (issue 41): a mask over a map's face records, the frame, height
ramp, radar and minimap bounds come from, and the two rules that leave things out of it.

**The 3D skybox** (Source): the area of the leaf holding a `sky_camera` (its origin walked
down the world's tree, NODES and PLANES from model 0's head node, as the engine's
point-in-leaf does: `d >= 0` goes to the front child; the area is LEAFS' `area`). What only
it sees: the world faces that every leaf listing them (LEAFFACES) is in such an area, and
the displacements and brush entities whose box reaches open leaves (`leaves.leaves_in_boxes`,
vbsp's walk) of such areas only; the engine links both to leaves by their boxes, and
displacements are in no leaf's face list. Nothing is left out when the map has one area
(every open leaf in one area, or all in area 0, as vbsp numbers a map without areaportals),
when the camera is in solid or in area 0, or when a player spawn (`info_player_*`) stands in
its area: `Skybox.reason` says which.

**Overhead covers**: a brush entity is no part of the floor plan when its lowest drawn point
is above the world's highest floor (model 0's shown faces a player can stand on: unit
normal z >= `FLOOR`) and above every player spawn, and its box covers at least `COVERS` of
the world floors' box seen from above (a Quake 1 hub's `func_illusionary` in `black`, z
2241..3903, over the whole map). A real floor is either under the world's highest floor or
holds a spawn, or does not hide half the map.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy

from ...errors import BspError
from .geometry import Array, Geometry, outside_world, select

if TYPE_CHECKING:
    from ...bsp import Bsp

#: a surface a player can stand on has a unit normal z of at least this (Quake's and
#: Source's walkable slope)
FLOOR = 0.7
#: an overhead cover's box hides at least this share of the world floors' box
COVERS = 0.5
#: the classname prefix of player spawn points in every family
SPAWN = "info_player_"
_SOLID = 1                      # CONTENTS_SOLID
_NOT_SOURCE = "no sky_camera (a Source thing)"


@dataclass(slots=True)
class Skybox:
    """The 3D skybox the rule found: its areas, its face records (`faces`, (F,) bool) and
    brush models, and whether they are left out (`reason`: why not, when not)."""

    areas: list[int]
    faces: Array
    models: list[int]
    left_out: bool
    reason: str | None

    def to_json(self) -> dict[str, Any]:
        return {"areas": self.areas, "faces": int(self.faces.sum()), "models": self.models,
                "left_out": self.left_out, "reason": self.reason}


@dataclass(slots=True)
class Playable:
    """Per face record whether it belongs to the playable map (`keep`), and what was left
    out: the skybox and the overhead covers (brush model numbers)."""

    keep: Array
    skybox: Skybox
    overhead: list[int] = field(default_factory=list)

    def skipped(self, chosen: Array) -> dict[str, int]:
        """Face records among `chosen` ((F,) bool) left out, by rule (for `faces_skipped`)."""
        left = chosen & ~self.keep
        counts = {"skybox": int((left & self.skybox.faces).sum()),
                  "overhead": int((left & ~self.skybox.faces).sum())}
        return {k: v for k, v in counts.items() if v}

    def summary(self) -> dict[str, Any]:
        return {"skybox": self.skybox.to_json(), "overhead_models": self.overhead}

    def bounds(self, geo: Geometry, world: bool = False) -> tuple[Array, Array] | None:
        """(mins, maxs) of the kept polygons' sound corners (`world`: model 0's only; none
        that is not a number or lies beyond the world, `geometry.outside_world`); None when
        there are none."""
        wanted = self.keep & ((geo.face_model == 0) if world else (geo.face_model >= 0))
        corners = select(geo, numpy.flatnonzero(wanted[geo.face])).corners
        corners = corners[~outside_world(corners)]
        if not len(corners):
            return None
        return corners.min(axis=0), corners.max(axis=0)


def playable(bsp: Bsp, geo: Geometry, *, skybox: bool = False,
             overhead: bool = False) -> Playable:
    """The playable map of `bsp` (its polygons `geo`, `shapes.geometry`): everything but the
    3D skybox (unless `skybox`) and the overhead covers (unless `overhead`)."""
    found = find_skybox(bsp, geo)
    if found.left_out and skybox:
        found.left_out, found.reason = False, "drawn (--skybox)"
    keep = numpy.ones(len(geo.face_model), bool)
    if found.left_out:
        keep &= ~found.faces
    covers = overhead_models(bsp, geo, keep)
    if overhead:
        covers = []
    keep &= ~numpy.isin(geo.face_model, covers)
    return Playable(keep, found, covers)


def world_box(bsp: Bsp, skybox: bool = False) -> tuple[dict[str, Any],
                                                      tuple[Array, Array] | None]:
    """For pictures of the world's brushes (minimaps): the skybox rule's finding (JSON) and,
    when a skybox is left out, the box of the playable world faces (None: nothing to cut)."""
    if bsp.family.engine != "source":        # no geometry needed to say so
        return Skybox([], numpy.zeros(0, bool), [], False, _NOT_SOURCE).to_json(), None
    from .shapes import geometry

    geo = geometry(bsp)
    plan = playable(bsp, geo, skybox=skybox, overhead=True)
    box = plan.bounds(geo, world=True) if plan.skybox.left_out else None
    return plan.skybox.to_json(), box


def spawn_points(bsp: Bsp) -> Array:
    """(N, 3) the origins of the map's player spawn points (`info_player_*`)."""
    points = []
    for entity in _entities(bsp):
        if str(entity.get("classname", "")).lower().startswith(SPAWN):
            point = _origin(entity)
            if point is not None:
                points.append(point)
    return numpy.array(points, numpy.float64).reshape(-1, 3)


def find_skybox(bsp: Bsp, geo: Geometry) -> Skybox:
    """The skybox rule of this module's docstring (Source maps; elsewhere none)."""
    faces = numpy.zeros(len(geo.face_model), bool)

    def none(reason: str, areas: list[int] | None = None) -> Skybox:
        return Skybox(areas or [], faces, [], False, reason)

    if bsp.family.engine != "source":
        return none(_NOT_SOURCE)
    cameras = [p for p in (_origin(e) for e in _entities(bsp)
                           if str(e.get("classname", "")).lower() == "sky_camera")
               if p is not None]
    if not cameras:
        return none("no sky_camera")
    from ..leaves import tree

    try:
        world = tree(bsp)
        area = _leaf_areas(bsp)
        spawns = spawn_points(bsp)
        leaf = point_leaves(world, numpy.array(cameras + spawns.tolist()))
    except BspError as exc:
        return none(f"the BSP tree cannot be walked ({exc.message})")
    camera, spawn = leaf[:len(cameras)], leaf[len(cameras):]
    if len(set(area[world.open].tolist()) - {0}) <= 1:     # area 0: solid, or every leaf
        return none("the map has one area")
    if (world.contents[camera] & _SOLID).all():
        return none("the sky_camera is in solid")
    areas = sorted({int(area[c]) for c in camera if not world.contents[c] & _SOLID} - {0})
    if not areas:
        return none("the sky_camera's leaf is in no area")
    played = set(area[spawn].tolist()) & set(areas)
    if played:
        return none(f"a player spawn stands in the sky_camera's area {min(played)}", areas)
    try:
        faces, models = _skybox_faces(bsp, geo, world, numpy.isin(area, areas))
    except BspError as exc:
        return none(f"the BSP tree cannot be walked ({exc.message})", areas)
    return Skybox(areas, faces, models, True, None)


def _skybox_faces(bsp: Bsp, geo: Geometry, world: Any, in_sky: Array) -> tuple[Array, list[int]]:
    """The face records and brush models only leaves with `in_sky` see (the module's
    docstring)."""
    from ..leaves import leaves_in_boxes

    faces = numpy.zeros(len(geo.face_model), bool)
    # world faces: every leaf of the world's tree listing them is in the skybox
    world_leaves = leaves_in_boxes(world, numpy.full(3, -1e9), numpy.full(3, 1e9), True)[0]
    leafs, listed = bsp.records("LEAFS"), bsp.records("LEAFFACES")["face"].astype(numpy.int64)
    first = leafs["firstleafface"].astype(numpy.int64)[world_leaves]
    count = leafs["numleaffaces"].astype(numpy.int64)[world_leaves]
    good = (first >= 0) & (first + count <= len(listed))
    first, count, owner = first[good], count[good], world_leaves[good]
    at = numpy.repeat(first - numpy.cumsum(count) + count, count) + numpy.arange(count.sum())
    face, sky = listed[at], in_sky[numpy.repeat(owner, count)]
    valid = (face >= 0) & (face < len(faces))
    seen_sky, seen_else = numpy.zeros(len(faces), bool), numpy.zeros(len(faces), bool)
    seen_sky[face[valid & sky]] = True
    seen_else[face[valid & ~sky]] = True
    faces |= seen_sky & ~seen_else & (geo.face_model == 0)
    # displacements (their base face + 1) and brush entities (-model): by their boxes
    units = numpy.where(geo.face_model > 0, -geo.face_model, 0)
    world_disp = geo.displaced[geo.face_model[geo.displaced] == 0]
    units[world_disp] = world_disp + 1
    unit_of = units[geo.face]
    picked = numpy.flatnonzero(unit_of != 0)
    if not len(picked):
        return faces, []
    key, mins, maxs = _group_boxes(geo, picked, unit_of[picked])
    finite = numpy.isfinite(mins).all(axis=1) & numpy.isfinite(maxs).all(axis=1)
    reached = leaves_in_boxes(world, numpy.where(finite[:, None], mins, 0),
                              numpy.where(finite[:, None], maxs, 0))
    inside = numpy.array([bool(finite[n]) and len(r) > 0 and bool(in_sky[r].all())
                          for n, r in enumerate(reached)], bool)
    models = sorted((-key[inside & (key < 0)]).tolist())
    faces[key[inside & (key > 0)] - 1] = True
    faces |= numpy.isin(geo.face_model, models)
    return faces, models


def overhead_models(bsp: Bsp, geo: Geometry, keep: Array) -> list[int]:
    """The brush models the overhead rule of this module's docstring leaves out, among the
    face records `keep`."""
    shown = keep[geo.face] & (geo.face_hidden[geo.face] == 0)
    model = geo.face_model[geo.face]
    floors = numpy.flatnonzero(shown & (model == 0) & (geo.normal[:, 2] >= FLOOR))
    candidates = numpy.flatnonzero(shown & (model > 0))
    if not len(floors) or not len(candidates):
        return []
    low, high = _polygon_boxes(geo, floors)
    floor_lo, floor_hi = low.min(axis=0), high.max(axis=0)
    spawns = spawn_points(bsp)
    top = max([float(floor_hi[2])] + spawns[:, 2].tolist())
    area = float(numpy.prod(floor_hi[:2] - floor_lo[:2]))
    numbers, mins, maxs = _group_boxes(geo, candidates, model[candidates])
    overlap = numpy.clip(numpy.minimum(maxs[:, :2], floor_hi[:2]) -
                         numpy.maximum(mins[:, :2], floor_lo[:2]), 0, None).prod(axis=1)
    above = (mins[:, 2] > top) & (overlap >= COVERS * area) & (area > 0)
    return [int(n) for n in numbers[above]]


def point_leaves(world: Any, points: Array) -> Array:
    """The leaf holding each point (rows of `points`), walked from the world's head node as
    the engine does (`d >= 0`: the front child)."""
    node = numpy.full(len(points), world.head, numpy.int64)
    for _ in range(len(world.planes) + 1):
        inner = node >= 0
        if not inner.any():
            return -1 - node
        at = node[inner]
        plane = world.planes[at]
        d = numpy.einsum("ij,ij->i", world.normals[plane], points[inner]) - world.dists[plane]
        node[inner] = world.children[at, numpy.where(d >= 0, 0, 1)]
    raise BspError("the BSP tree has a cycle")


def _leaf_areas(bsp: Bsp) -> Array:
    """Each leaf's area: the low 9 bits of `area_and_flags` (Strata's 32-bit field: 17)."""
    value = bsp.records("LEAFS")["area_and_flags"]
    mask = 0x1FFFF if value.dtype.itemsize == 4 else 0x1FF
    result: Array = value.astype(numpy.int64) & mask
    return result


def _entities(bsp: Bsp) -> list[Any]:
    try:
        return list(bsp.entities(lenient=True))
    except BspError:
        return []


def _origin(entity: Any) -> list[float] | None:
    try:
        point = [float(v) for v in str(entity.get("origin", "")).split()]
    except ValueError:
        return None
    return point if len(point) == 3 and all(map(numpy.isfinite, point)) else None


def _group_boxes(geo: Geometry, polygons: Array, groups: Array) -> tuple[Array, Array, Array]:
    """The distinct `groups` (one value per polygon of `polygons`), sorted, and each group's
    box: (G, 3) mins and maxs over its polygons' corners."""
    key, inverse = numpy.unique(groups, return_inverse=True)
    lows, highs = _polygon_boxes(geo, polygons)
    mins = numpy.full((len(key), 3), numpy.inf)
    maxs = numpy.full((len(key), 3), -numpy.inf)
    numpy.minimum.at(mins, inverse, lows)
    numpy.maximum.at(maxs, inverse, highs)
    return key, mins, maxs


def _polygon_boxes(geo: Geometry, polygons: Array) -> tuple[Array, Array]:
    """(len(polygons), 3) each polygon's lowest and highest corner coordinates."""
    if not len(polygons):
        return numpy.zeros((0, 3)), numpy.zeros((0, 3))
    chosen = select(geo, polygons)
    return (numpy.minimum.reduceat(chosen.corners, chosen.starts[:-1], axis=0),
            numpy.maximum.reduceat(chosen.corners, chosen.starts[:-1], axis=0))
