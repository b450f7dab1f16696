"""Where each face's light is (issue 33): its luxel block's size and place in the lighting
lump, and the world -> luxel mapping, for the families that light faces (Quake 1, BSP2, 2PSB,
GoldSrc, Quake 2, Source). Vectorised over faces with numpy; `lightmap` packs and fills the
atlases from these tables. Quake 3's light is pages of its own (see `lightmap`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy

from ..lookups import face_lump
from .geometry import claimed, once

if TYPE_CHECKING:
    from ...bsp import Bsp

Array = numpy.ndarray[Any, Any]

#: Quake 1 / GoldSrc / Quake 2: world units per luxel (a BSPX LMSHIFT lump changes it per face)
QUAKE_LUXEL = 16
NO_STYLE = 255
#: Source texinfo flag: the face stores 1 flat + 3 bumped lightmaps per style
SURF_BUMPLIGHT = 0x800
#: the widest luxel block believed: a larger one is damage (engines cap far lower: Quake 18,
#: GoldSrc 16, Source 32 or so luxels a side at default scales)
MAX_SIDE = 4096
#: texinfo flags of faces that store no light although their lightofs may say otherwise
#: (Quake 1 / GoldSrc TEX_SPECIAL; Quake 2 SURF_SKY | SURF_WARP; Source SURF_NOLIGHT)
UNLIT_FLAGS = {"quake1": 0x1, "goldsrc": 0x1, "quake2": 0x4 | 0x8, "source": 0x400}
BUMP_LIGHTMAPS = 4


@dataclass(frozen=True, slots=True)
class FaceLight:
    """The lit faces of a map, one row each (arrays of equal length)."""

    face: Array         # face numbers
    width: Array        # luxels across (s)
    height: Array       # luxels down (t)
    first: Array        # byte offset in the lighting data of the first style's block
    stride: Array       # bytes from one style's block to the next
    styles: Array       # (n, 4) uint8 light styles, 255: none
    vecs: Array         # (n, 2, 4) float64: s, t = dot(p, vec[:3]) + vec[3]
    scale: Array        # world -> luxel: s / scale - mins
    mins: Array         # (n, 2) luxel coordinates of the block's first luxel
    skipped: int        # faces with light whose block is damaged: outside the lighting
    #                     data, or claiming it many times over


@dataclass(frozen=True, slots=True)
class Lighting:
    """One lighting lump's bytes, how a luxel is stored there, and the faces pointing in."""

    data: Array         # uint8, the lump
    luxel: str          # a key of LUXELS
    faces: FaceLight

    def luxels(self, offsets: Array) -> Array:
        """The luxels stored at byte `offsets`: (N, 3) uint8, or float32 linear (Source)."""
        size = LUXELS[self.luxel]
        raw = self.data[offsets[:, None] + numpy.arange(size)]
        if self.luxel == "grey":
            return numpy.repeat(raw, 3, axis=1)
        if self.luxel == "rgb":
            return raw
        exponent = raw[:, 3].view(numpy.int8).astype(numpy.float32)
        linear: Array = raw[:, :3] * (numpy.exp2(exponent) / numpy.float32(255))[:, None]
        return linear


#: bytes of one luxel: Quake 1 grey, RGB, Source ColorRGBExp32 (r, g, b, int8 exponent:
#: c * 2^exponent / 255, linear)
LUXELS = {"grey": 1, "rgb": 3, "rgbexp32": 4}


def ranges(first: Array, count: Array) -> tuple[Array, Array]:
    """Concatenated ranges first[i] .. first[i] + count[i], and each element's row."""
    total = int(count.sum())
    rows = numpy.repeat(numpy.arange(len(count)), count)
    starts = numpy.cumsum(count) - count
    return numpy.repeat(first, count) + numpy.arange(total) - numpy.repeat(starts, count), rows


def _face_st(bsp: Bsp, faces: Array, vecs: Array) -> tuple[Array, Array]:
    """Per face: the (min, max) of s, t over its vertices (float64, shape (n, 2) each), with
    `vecs` (n, 2, 4) the face's mapping; NaN for a face without edges or with an edge or
    vertex outside its lump."""
    surfedges = bsp.records("SURFEDGES")["edge"].astype(numpy.int64)
    edges = bsp.records("EDGES")["v"].astype(numpy.int64)
    vertexes = bsp.records("VERTEXES")["point"]
    points = numpy.stack([vertexes[c] for c in ("x", "y", "z")], axis=1).astype(numpy.float64)
    first = faces["firstedge"].astype(numpy.int64)
    count = faces["numedges"].astype(numpy.int64)
    good = (count > 0) & (first >= 0) & (first + count <= len(surfedges))
    count = numpy.where(good, count, 0)
    claimed(bsp, "FACES' surfedges", int(count.sum()), once(len(surfedges)))
    position, rows = ranges(first, count)
    edge = surfedges[position]
    index = numpy.abs(edge)
    known = index < len(edges)
    index = numpy.where(known, index, 0)
    vertex = numpy.where(edge >= 0, edges[index, 0], edges[index, 1])
    known &= (vertex >= 0) & (vertex < len(points))
    # float32 inputs, the sum in double precision, the result rounded to float32: the x87
    # engines' arithmetic (float64 or float32 term by term move some extents by one luxel;
    # this one makes every lit face's block end where the next one starts in the corpus)
    v = vecs[rows].astype(numpy.float32).astype(numpy.float64)
    p = points[numpy.where(known, vertex, 0)].astype(numpy.float32).astype(numpy.float64)
    p = p[:, None, :]
    st = (p[..., 0] * v[..., 0] + p[..., 1] * v[..., 1] + p[..., 2] * v[..., 2]
          + v[..., 3]).astype(numpy.float32).astype(numpy.float64)
    st[~known] = numpy.nan          # an edge or vertex outside its lump: the face is damaged
    low = numpy.full((len(faces), 2), numpy.nan)
    high = numpy.full((len(faces), 2), numpy.nan)
    used = numpy.flatnonzero(count)
    if len(used):
        starts = (numpy.cumsum(count) - count)[used]
        low[used] = numpy.minimum.reduceat(st, starts, axis=0)
        high[used] = numpy.maximum.reduceat(st, starts, axis=0)
    return low, high


def _style_slots(styles: Array) -> Array:
    """How many styles each face stores: slots up to the first 255."""
    slots: Array = numpy.argmax(numpy.hstack([styles, numpy.full((len(styles), 1), NO_STYLE)])
                                == NO_STYLE, axis=1)
    return slots


def _finish(face: Array, width: Array, height: Array, first: Array, stride: Array,
            styles: Array, vecs: Array, scale: Array, mins: Array, data: int,
            lit: Array) -> FaceLight:
    """Keep the lit faces whose every style block lies inside `data` bytes. In a sound map
    each face's blocks hold light of its own (the corpus: at most the lump's bytes all
    together); blocks claiming it many times over (`geometry.once`) are damage, the largest
    left out until they do not."""
    slots = _style_slots(styles)
    lit = lit & (slots > 0) & (width > 0) & (height > 0) & (width <= MAX_SIDE) & \
        (height <= MAX_SIDE)
    fits = lit & (first >= 0) & (first + slots * stride <= data)
    size = numpy.where(fits, slots * stride, 0)
    excess = int(size.sum()) - once(data)
    if excess > 0:
        largest = numpy.argsort(-size, kind="stable")
        fits[largest[:int(numpy.searchsorted(numpy.cumsum(size[largest]), excess)) + 1]] = False
    keep = numpy.flatnonzero(fits)
    styles = styles.copy()
    styles[numpy.arange(4)[None, :] >= slots[:, None]] = NO_STYLE
    return FaceLight(face[keep], width[keep], height[keep], first[keep], stride[keep],
                     styles[keep], vecs[keep], scale[keep], mins[keep],
                     int(lit.sum() - fits.sum()))


#: BSPX DECOUPLED_LM, one per face (ericw-tools' bspx_decoupled_lm_perface): the luxel block's
#: size, its offset (in lightofs' units) and world -> luxel rows (luxel centres at integers)
DECOUPLED_LM = numpy.dtype([("lmwidth", "<u2"), ("lmheight", "<u2"), ("offset", "<i4"),
                            ("world_to_lm_space", "<f4", (8,))])


def quake(bsp: Bsp, bspx: dict[str, bytes]) -> Lighting | None:
    """Quake 1 (grey; BSPX RGBLIGHTING: RGB), GoldSrc and Quake 2 (RGB): extents from the
    texinfo vecs, floor(min / 16) .. ceil(max / 16); BSPX LMSHIFT sets a face's luxel size
    (2^shift units), BSPX DECOUPLED_LM each face's block and mapping."""
    engine = bsp.family.engine
    rgb = bspx.get("RGBLIGHTING") if engine == "quake1" else None
    data = numpy.frombuffer(rgb or bsp.content("LIGHTING"), numpy.uint8)
    luxel = "grey" if engine == "quake1" and not rgb else "rgb"
    if not len(data):
        return None
    faces = bsp.records("FACES")
    texinfo = bsp.records("TEXINFO")
    number = faces["texinfo"].astype(numpy.int64)
    known = (number >= 0) & (number < len(texinfo))
    info = texinfo[numpy.where(known, number, 0)]
    decoupled = bspx.get("DECOUPLED_LM", b"")
    if len(decoupled) >= DECOUPLED_LM.itemsize * len(faces) > 0:
        table = numpy.frombuffer(decoupled, DECOUPLED_LM, count=len(faces))
        vecs = table["world_to_lm_space"].reshape(-1, 2, 4).astype(numpy.float64)
        size = numpy.stack([table["lmwidth"], table["lmheight"]], axis=1).astype(numpy.int64)
        scale, mins = numpy.ones(len(faces)), numpy.zeros((len(faces), 2))
        lightofs = table["offset"].astype(numpy.int64)
    else:
        vecs = info["vecs"].reshape(-1, 2, 4).astype(numpy.float64)
        scale = numpy.full(len(faces), float(QUAKE_LUXEL))
        shifts = bspx.get("LMSHIFT", b"")
        if len(shifts) >= len(faces):
            scale = numpy.ldexp(1.0, numpy.frombuffer(shifts, numpy.uint8, count=len(faces))
                                .astype(numpy.int64))
        low, high = _face_st(bsp, faces, vecs)
        with numpy.errstate(invalid="ignore"):
            mins = numpy.floor(low / scale[:, None])
            maxs = numpy.ceil(high / scale[:, None])
        size = numpy.nan_to_num(numpy.clip(maxs - mins + 1, 0, MAX_SIDE + 1)).astype(numpy.int64)
        mins = numpy.nan_to_num(numpy.clip(mins, -2.0 ** 40, 2.0 ** 40))
        lightofs = faces["lightofs"].astype(numpy.int64)
    # lightofs counts bytes of LIGHTING: Quake 1's grey luxels (RGBLIGHTING: three times as many)
    first = lightofs * 3 if rgb else lightofs
    per = LUXELS[luxel]
    unlit = (info["flags"] & UNLIT_FLAGS[engine]) != 0
    return Lighting(data, luxel, _finish(
        numpy.arange(len(faces)), size[:, 0], size[:, 1], first, size[:, 0] * size[:, 1] * per,
        faces["styles"], vecs, scale, mins, len(data), known & ~unlit & (lightofs >= 0)))


def source(bsp: Bsp, lump: str, faces_lump: str) -> Lighting | None:
    """Source: `lump` (LIGHTING or LIGHTING_HDR) through the faces of `faces_lump`: blocks of
    (size + 1) luxels each way, 4 per style on bumpmapped faces (the flat one first)."""
    data = numpy.frombuffer(bsp.content(lump), numpy.uint8)
    if not len(data):
        return None
    faces = bsp.records(faces_lump)
    texinfo = bsp.records("TEXINFO")
    number = faces["texinfo"].astype(numpy.int64)
    known = (number >= 0) & (number < len(texinfo))
    info = texinfo[numpy.where(known, number, 0)]
    vecs = info["lightmap_vecs"].reshape(-1, 2, 4).astype(numpy.float64)
    size = numpy.clip(faces["lightmap_texture_size_in_luxels"].astype(numpy.int64) + 1, 0,
                      MAX_SIDE + 1)
    bumped = (info["flags"] & SURF_BUMPLIGHT) != 0
    known &= (info["flags"] & UNLIT_FLAGS["source"]) == 0
    area = size[:, 0] * size[:, 1]
    lightofs = faces["lightofs"].astype(numpy.int64)
    # CS:GO stores one more byte per luxel after a face's blocks, so its lightofs are not
    # multiples of 4: the blocks start at lightofs all the same
    return Lighting(data, "rgbexp32", _finish(
        numpy.arange(len(faces)), size[:, 0], size[:, 1], lightofs,
        area * numpy.where(bumped, BUMP_LIGHTMAPS, 1) * LUXELS["rgbexp32"], faces["styles"],
        vecs, numpy.ones(len(faces)),
        faces["lightmap_texture_mins_in_luxels"].astype(numpy.float64), len(data),
        known & (lightofs >= 0)))


def source_lightings(bsp: Bsp) -> tuple[Lighting | None, Lighting | None]:
    """Source's (LDR, HDR) lighting; HDR through FACES_HDR when that lump has faces."""
    faces = face_lump(bsp, "FACES")
    hdr_faces = "FACES_HDR" if bsp.lumps[bsp.lump_index("FACES_HDR")].length > 0 else faces
    ldr = source(bsp, "LIGHTING", faces) if faces == "FACES" else None
    return ldr, source(bsp, "LIGHTING_HDR", hdr_faces)
