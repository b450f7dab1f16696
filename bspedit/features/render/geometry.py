"""A map's drawable surfaces as numpy arrays, the same for every family (issue 33).

`geometry(bsp)` gives polygons in world coordinates: the faces of Quake 1, BSP2, GoldSrc,
Quake 2 and Source (FACES -> SURFEDGES -> EDGES -> VERTEXES), the triangles of Quake 3
surfaces (planar and triangle soups through DRAWINDEXES, patches tessellated: `patches`) and
of Source displacements (drawn instead of their base face: `displacements`); `shapes.geometry`
picks them per family. Brush entities'
models are moved to their entity's `origin`, as the engines draw them.

Which faces the player never sees is data: `HIDDEN`, one row per engine (texture flags,
content flags, texture names), each hit named by its reason (sky, nodraw, clip, ...).
Damaged records are left out as "broken": a face whose indices point outside their lumps,
whose plane normal is not a unit vector, or with a corner that is not a number or lies
beyond `WORLD`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy

from ...errors import BspError
from .. import lookups

if TYPE_CHECKING:
    from ...bsp import Bsp

Array = numpy.ndarray[Any, Any]

#: Why a face is not drawn; `Geometry.face_hidden` holds indices into this tuple (0: shown).
REASONS = ("", "sky", "nodraw", "clip", "trigger", "hint", "skip", "origin", "flare",
           "broken")
#: the farthest from the origin a real map reaches on any axis: Quake 3's MAX_WORLD_COORD
#: (128 * 1024), the largest of the engines' (Source: 16384, Quake: 4096 to 32768); a
#: coordinate beyond it is damage, which would otherwise frame the map as a dot
WORLD = 128 * 1024


def nothing_drawn(skipped: dict[str, int]) -> str:
    """Why a picture has nothing drawn, in one line, from its faces skipped by reason
    (`picture.Picture.faces_skipped`)."""
    counts = f" ({', '.join(f'{n} {reason}' for reason, n in skipped.items())})"
    reasons = set(skipped) - {"light_broken"}
    if not reasons:
        why, counts = "the map has no faces", ""
    elif reasons <= {"broken", "not_world"}:
        why = "every face is damaged"
    elif reasons <= set(REASONS[1:]) | {"not_world"}:
        why = "every face is one the player never sees"
    elif "altitude" in reasons:
        why = "no upward face in the height range"
    else:
        why = "no face the player sees faces up"
    return f"nothing drawn: {why}{counts}; nothing written"


@dataclass(frozen=True, slots=True)
class Hidden:
    """One engine's rule for faces the player never sees."""

    surface_flags: tuple[tuple[int, str], ...] = ()   # (bit, reason) of the texture's flags
    content_flags: tuple[tuple[int, str], ...] = ()   # (bit, reason) of its contents (Quake 3)
    names: tuple[tuple[str, str], ...] = ()           # (regex on the lowercased name, reason)


_QUAKE1_NAMES = ((r"sky", "sky"), (r"(aaa)?trigger$", "trigger"), (r"clip$", "clip"),
                 (r"origin$", "origin"), (r"(null|nodraw)$", "nodraw"), (r"hint", "hint"),
                 (r"skip$", "skip"))
_QUAKE2_FLAGS = ((0x4, "sky"), (0x80, "nodraw"), (0x100, "hint"), (0x200, "skip"))
HIDDEN: dict[str, Hidden] = {      # by Family.engine
    "quake1": Hidden(names=_QUAKE1_NAMES),
    "goldsrc": Hidden(names=_QUAKE1_NAMES),
    # names: the part after the last "/" (e1u1/trigger, e1u1/clip)
    "quake2": Hidden(_QUAKE2_FLAGS, names=((r"(.*/)?trigger$", "trigger"),
                                           (r"(.*/)?clip$", "clip"),
                                           (r"(.*/)?origin$", "origin"))),
    "quake3": Hidden(_QUAKE2_FLAGS,
                     ((0x40000000, "trigger"), (0x10000, "clip"), (0x20000, "clip"),
                      (0x1000000, "origin")),
                     ((r"textures/common/(caulk|nodraw|nodrawnonsolid)$", "nodraw"),
                      (r"textures/common/\w*clip$", "clip"),
                      (r"textures/common/trigger$", "trigger"),
                      (r"textures/common/hint$", "hint"), (r"textures/common/skip$", "skip"),
                      (r"textures/common/origin$", "origin"))),
    "source": Hidden(((0x2, "sky"), (0x4, "sky"), (0x40, "trigger"), (0x80, "nodraw"),
                      (0x100, "hint"), (0x200, "skip")),
                     names=(((r"tools/tools(nodraw|invisible\w*|areaportal|occluder\w*|"
                              r"blocklight|fog\w*|blockbullets\w*)$"), "nodraw"),
                            (r"tools/tools(player|npc|control)?clip$", "clip"),
                            (r"tools/toolstrigger$", "trigger"),
                            (r"tools/toolssky(box|box2d)?$", "sky"),
                            (r"tools/toolshint$", "hint"), (r"tools/toolsskip$", "skip"),
                            (r"tools/toolsorigin$", "origin"))),
}

#: how far a plane normal's length may be from 1 (float32 rounding is far below)
UNIT = 1e-2
#: the most edges a face has: more is damage (compilers split faces long before; the
#: corpus's largest has 33)
MAX_EDGES = 256

#: Where each engine keeps a texture's flags: (lump, surface flags field, contents field),
#: indexed by the texture slot faces point to (TEXINFO or SHADERS); None: names only.
_FLAGS: dict[str, tuple[str, str, str | None] | None] = {
    "quake1": None, "goldsrc": None, "quake2": ("TEXINFO", "flags", None),
    "quake3": ("SHADERS", "surface_flags", "content_flags"),
    "source": ("TEXINFO", "flags", None)}


@dataclass(slots=True)
class Geometry:
    """Polygons in world coordinates, and per face (Quake 3: surface) record its facts."""

    corners: Array              # (C, 3) float64: each polygon's corners in order
    starts: Array               # (P+1,) int64: polygon p is corners[starts[p]:starts[p+1]]
    face: Array                 # (P,) int64: the face (surface) record each polygon draws
    normal: Array               # (P, 3) float64: unit normal of its front side
    face_model: Array           # (F,) int64: model number per face record (-1: none)
    face_texture: Array         # (F,) int64: index into `names` (-1: none)
    face_hidden: Array          # (F,) uint8: index into REASONS (0: the player sees it)
    names: list[str]
    lightmap_st: Array | None = None    # (C, 2) Quake 3 DRAWVERTS lightmap coordinates
    displaced: Array = field(default_factory=lambda: numpy.zeros(0, numpy.int64))
    #                                     base faces drawn as their displacement (Source)

    @property
    def count(self) -> int:
        return len(self.face)


def xyz(records: Array) -> Array:
    """(N, 3) float64 from records with x, y, z fields (or a `point` of them)."""
    if records.dtype.names and "point" in records.dtype.names:
        records = records["point"]
    with numpy.errstate(invalid="ignore"):      # signalling NaNs in damaged records
        stacked: Array = numpy.stack([records["x"], records["y"], records["z"]],
                                     axis=-1).astype(numpy.float64)
    return stacked


def outside_world(points: Array) -> Array:
    """Per point (the last axis: x, y, z): whether a coordinate is not a number or lies
    beyond `WORLD` (a damaged record)."""
    with numpy.errstate(invalid="ignore"):
        outside: Array = numpy.asarray(~(numpy.abs(points) <= WORLD).all(axis=-1))
    return outside


def unit(normals: Array) -> Array:
    """Per vector (N, 3): whether it is a unit vector, as compilers store plane normals (a
    damaged one is not)."""
    with numpy.errstate(invalid="ignore", over="ignore"):
        length = numpy.linalg.norm(normals, axis=-1)
        found: Array = numpy.asarray(numpy.abs(length - 1) < UNIT)
    return found


def claimed(bsp: Bsp, what: str, count: int, bound: int) -> None:
    """Refuse (BspError) records claiming `count` of `what` where a sound map has at most
    `bound`: damage on a scale that would fill the memory (checked before it is spent)."""
    if count > bound:
        raise BspError(f"{count} {what} claimed, more than a sound map's {bound}: damaged",
                       path=bsp.path)


def once(length: int) -> int:
    """`claimed`'s bound for records each using a lump's `length` entries about once."""
    return 4 * length + 1024


def entity_origins(bsp: Bsp, models: int) -> Array:
    """(models, 3): the `origin` of the entity using each brush model `*N` (0 when none)."""
    offsets = numpy.zeros((models, 3))
    try:
        entities = list(bsp.entities(lenient=True))
    except BspError:
        return offsets
    for entity in entities:
        model, origin = str(entity.get("model", "")), str(entity.get("origin", ""))
        if not model.startswith("*") or not origin:
            continue
        try:
            number, point = int(model[1:]), [float(v) for v in origin.split()]
        except ValueError:
            continue
        if 0 < number < models and len(point) == 3 and not outside_world(numpy.array(point)):
            offsets[number] = point
    return offsets


def face_models(bsp: Bsp, faces: int) -> Array:
    """(faces,) the model each face record belongs to (-1: none), from MODELS."""
    first, count = lookups.scheme(bsp).model_faces
    records = bsp.records("MODELS")
    owner = numpy.full(faces, -1, numpy.int64)
    for number in range(len(records) - 1, -1, -1):    # the world model wins an overlap
        start, n = int(records[number][first]), int(records[number][count])
        if n > 0 and 0 <= start < faces:
            owner[start:min(start + n, faces)] = number
    return owner


def textures(bsp: Bsp, slots: Array) -> tuple[Array, list[str], Array]:
    """Per face its texture slot's name index, the names, and each name's hidden reason.
    `slots`: each face's first hop (TEXINFO or SHADERS index)."""
    engine = bsp.family.engine
    unique, first_face, inverse = numpy.unique(slots, return_index=True, return_inverse=True)
    names: list[str] = []
    for face in first_face:
        try:
            names.append(lookups.face_texture(bsp, int(face)))
        except BspError:
            names.append("")
    hidden = numpy.array([_name_reason(engine, n) for n in names], numpy.uint8)
    flags = _FLAGS[engine]
    if flags is not None:
        records = bsp.records(flags[0])
        valid = (unique >= 0) & (unique < len(records))
        picked = records[numpy.where(valid, unique, 0)]
        rule = HIDDEN[engine]
        for column, table in ((flags[1], rule.surface_flags), (flags[2], rule.content_flags)):
            if column is None:
                continue
            values = picked[column].astype(numpy.int64) & 0xFFFFFFFF
            for bit, reason in reversed(table):
                hit = valid & ((values & bit) != 0) & (hidden == 0)
                hidden[hit] = REASONS.index(reason)
    return inverse.reshape(-1).astype(numpy.int64), names, hidden


def _name_reason(engine: str, name: str) -> int:
    lowered = name.lower()
    for pattern, reason in HIDDEN[engine].names:
        if re.match(pattern, lowered):
            return REASONS.index(reason)
    return 0


def _planes(bsp: Bsp, faces: Array) -> tuple[Array, Array]:
    """Each face's plane normal turned by its side flag, and whether its plane exists and
    its normal is a unit vector (compilers store them so)."""
    planes = bsp.records("PLANES")
    normals = xyz(planes["normal"])
    number = faces["planenum"].astype(numpy.int64)
    ok = (number >= 0) & (number < len(planes))
    normal = normals[numpy.where(ok, number, 0)]
    ok &= unit(normal)
    side = faces["side"].astype(numpy.int64) != 0
    normal[side] *= -1
    return normal, ok


def edge_faces(bsp: Bsp) -> Geometry:
    """The faces of the families with edges (Quake 1, BSP2, GoldSrc, Quake 2, Source)."""
    faces = bsp.records(lookups.face_lump(bsp, "FACES"))
    vertexes = xyz(bsp.records("VERTEXES"))
    edges = bsp.records("EDGES")["v"].astype(numpy.int64)
    surfedges = bsp.records("SURFEDGES")["edge"].astype(numpy.int64)
    count = len(faces)
    first = faces["firstedge"].astype(numpy.int64)
    numedges = faces["numedges"].astype(numpy.int64)
    normal, ok = _planes(bsp, faces)
    ok &= (numedges >= 3) & (numedges <= MAX_EDGES) & (first >= 0) & \
        (first + numedges <= len(surfedges))
    sizes = numpy.where(ok, numedges, 0)
    claimed(bsp, "FACES' surfedges", int(sizes.sum()), once(len(surfedges)))
    starts = numpy.zeros(count + 1, numpy.int64)
    numpy.cumsum(sizes, out=starts[1:])
    at = numpy.repeat(first - starts[:-1], sizes) + numpy.arange(starts[-1])
    edge = surfedges[at]
    index = numpy.abs(edge)
    good_edge = index < len(edges)
    index = numpy.where(good_edge, index, 0)
    vertex = numpy.where(edge >= 0, edges[index, 0], edges[index, 1])
    good = good_edge & (vertex >= 0) & (vertex < len(vertexes))
    corners = vertexes[numpy.where(good, vertex, 0)]
    good &= ~outside_world(corners)
    bad_face = numpy.zeros(count, bool)
    numpy.logical_or.at(bad_face, numpy.repeat(numpy.arange(count), sizes), ~good)

    model = face_models(bsp, count)
    offsets = entity_origins(bsp, len(bsp.records("MODELS")))
    corners += numpy.repeat(offsets[numpy.maximum(model, 0)], sizes, axis=0)
    slot_field = lookups.scheme(bsp).texture_hops[0][1]
    texture, names, name_hidden = textures(bsp, faces[slot_field].astype(numpy.int64))
    hidden = name_hidden[texture]
    hidden[~ok | bad_face] = REASONS.index("broken")
    return select(Geometry(corners, starts, numpy.arange(count), normal, model, texture,
                           hidden, names), numpy.flatnonzero(ok & ~bad_face))


def select(geometry: Geometry, indices: Array, corners: Array | None = None) -> Geometry:
    """The polygons `indices` of `geometry` (face facts kept whole)."""
    sizes = numpy.diff(geometry.starts)[indices]
    starts = numpy.zeros(len(indices) + 1, numpy.int64)
    numpy.cumsum(sizes, out=starts[1:])
    at = numpy.repeat(geometry.starts[:-1][indices] - starts[:-1], sizes) + \
        numpy.arange(starts[-1])
    st = None if geometry.lightmap_st is None else geometry.lightmap_st[at]
    return Geometry(geometry.corners[at] if corners is None else corners, starts,
                    geometry.face[indices], geometry.normal[indices], geometry.face_model,
                    geometry.face_texture, geometry.face_hidden, geometry.names, st,
                    geometry.displaced)
