"""Lightmap atlases (issue 33): a map's light as one picture per light style, every lit face
(Quake 3: surface) at one rectangle, the same in every style's page, and the mapping from a
face's world points to atlas pixels (used by `render --color lightmap`).

- Quake 1, BSP2, 2PSB, GoldSrc, Quake 2 and Source: each face's luxel block (`lightmap_faces`)
  is placed by a shelf packer (tallest first, deterministic) and copied from the lighting lump.
  Quake 1 light is grey (RGB with a BSPX RGBLIGHTING lump); BSPX LMSHIFT and DECOUPLED_LM
  are followed (in Quake 1 maps: bspedit reads no BSPX trailer of GoldSrc or Quake 2 maps).
- Source: LIGHTING (LDR) and LIGHTING_HDR, ColorRGBExp32 made linear (c * 2^exp / 255), shown
  with gamma 1/2.2 and clamped; `hdr` keeps the linear values. A map with HDR light only
  shows its HDR light in `pages`. Bumpmapped faces show their flat lightmap.
- Quake 3 (IBSP 46/47, RBSP, FBSP): the LIGHTMAPS pages as stored (raw bytes, as q3map2
  `-export` writes them; engines show them with `overbright` 2), laid out side by side in
  rows. RBSP/FBSP styles after the first are copied into the first style's rectangle. A map
  compiled with deluxemaps (q3map2 `-deluxe`: pages in pairs, light then light direction,
  `deluxe`) shows its light pages in `pages` and its direction pages in `directions`.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy

from ...errors import BspError
from . import lightmap_faces
from .geometry import claimed, once
from .lightmap_faces import LUXELS, NO_STYLE, FaceLight, Lighting

if TYPE_CHECKING:
    from ...bsp import Bsp

Array = numpy.ndarray[Any, Any]
Rect = tuple[int, int, int, int]

#: Quake 3 lightmap page side by family (qfusion's FBSP: QF_LIGHTMAP_WIDTH 512)
Q3_PAGE = {"q3": 128, "rbsp": 128, "fbsp": 512}
#: the factor engines show a Quake 3 lightmap by (r_overBrightBits 1 with r_mapOverBrightBits 2)
Q3_OVERBRIGHT = 2.0
#: Source display: linear light to sRGB-ish bytes as the engine's gamma
GAMMA = 2.2
#: what `render --color lightmap` and `lightmaps` say (exit 1) of a map without light data
NO_LIGHT = "no light data in the map (unlit, vertex-lit or external lightmaps)"
#: the largest atlas made (pixels): more means damaged faces (blocks claimed many times over)
MAX_ATLAS = 1 << 26
#: the largest coefficient of a polygon's world -> atlas mapping believed: times a world
#: coordinate it stays far inside float32
LARGEST = 1e30


@dataclass
class Atlases:
    """The light of a map as atlases. `pages[style]` is an (H, W, 3) uint8 picture; `rects`
    gives each lit face its (x, y, w, h); `face_styles` its styles in storage order."""

    styles: list[int]
    pages: dict[int, Array]
    rects: dict[int, Rect]
    face_styles: dict[int, list[int]]
    hdr: dict[int, Array] = field(default_factory=dict)     # Source: linear float32 (H, W, 3)
    hdr_pages: dict[int, Array] = field(default_factory=dict)   # hdr shown (gamma, clamped)
    stored_pages: list[Array] = field(default_factory=list)  # Quake 3: LIGHTMAPS as stored
    directions: dict[int, Array] = field(default_factory=dict)  # Quake 3 deluxemaps: the
    #                       first style's light direction pages, each where its light page is
    overbright: float = 1.0     # the factor engines multiply the shown light by
    skipped: int = 0            # lit faces whose light is damaged (`FaceLight.skipped`)
    _mapping: dict[str, Array] = field(default_factory=dict, repr=False)
    _row: dict[int, int] = field(default_factory=dict, repr=False)

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of every page."""
        height, width = next(iter(self.pages.values())).shape[:2]
        return width, height

    def uv(self, face: int, points: Array, lightmap_st: Array | None = None) -> Array:
        """Atlas pixel coordinates (x right, y down, pixel centres at +0.5) of `points` (N, 3)
        on `face`. Quake 3: from `lightmap_st` (N, 2), the vertices' DRAWVERTS `lightmap`
        coordinates (fractions of their page); points are ignored there."""
        x, y, _w, _h = self.rects[face]
        if "page_origin" in self._mapping:
            if lightmap_st is None:
                raise ValueError("Quake 3 surfaces map to the atlas by their lightmap_st")
            origin = self._mapping["page_origin"][self._row[face]]
            texel: Array = numpy.asarray(lightmap_st, numpy.float64) * self._mapping["page"][0]
            at: Array = texel + origin
            return at
        row = self._row[face]
        vecs = self._mapping["vecs"][row]
        st = numpy.asarray(points, numpy.float64) @ vecs[:, :3].T + vecs[:, 3]
        luxel: Array = st / self._mapping["scale"][row] - self._mapping["mins"][row]
        place: Array = luxel + numpy.array([x + 0.5, y + 0.5])
        return place


    def uv_affine(self, faces: Array, plane: Array,
                  st: Array | None = None) -> tuple[Array, Array]:
        """`uv` for many polygons at once, as affine functions of world x, y: for polygons on
        `faces` (P,) whose height is z = plane . (x, y, 1) (`plane` (P, 3)), (P, 3, 2)
        coefficients k with atlas (u, v) = k[0] * x + k[1] * y + k[2]; Quake 3: from `st`
        (P, 3, 2), the polygons' lightmap coordinates as such functions. Also (P,) bool: the
        polygons whose face has a rectangle (the others' coefficients are 0)."""
        faces = numpy.asarray(faces, numpy.int64)
        rows = numpy.full(max(int(faces.max(initial=-1)), max(self._row, default=-1)) + 1, -1,
                          numpy.int64)
        rows[list(self._row)] = list(self._row.values())
        row = numpy.where(faces >= 0, rows[numpy.maximum(faces, 0)], -1)
        lit = row >= 0
        out = numpy.zeros((len(faces), 3, 2))
        at = row[lit]
        with numpy.errstate(invalid="ignore", over="ignore"):     # damaged vecs, st
            if "page_origin" in self._mapping:
                if st is None:
                    raise ValueError("Quake 3 surfaces map to the atlas by their lightmap_st")
                out[lit] = st[lit] * self._mapping["page"][0]
                out[lit, 2] += self._mapping["page_origin"][at]
            else:
                vecs = self._mapping["vecs"][at]                      # (L, 2, 4)
                scale = self._mapping["scale"][at]                    # (L, 1)
                # s = vx*x + vy*y + vz*(a*x + b*y + c) + vw, per axis, then to luxels and
                # the rect
                a, b, c = (plane[lit, i][:, None] for i in range(3))
                vx, vy, vz, vw = (vecs[:, :, i] for i in range(4))
                corner = numpy.array([[self.rects[int(f)][0], self.rects[int(f)][1]]
                                      for f in faces[lit]], numpy.float64).reshape(-1, 2) + 0.5
                out[lit, 0] = (vx + vz * a) / scale
                out[lit, 1] = (vy + vz * b) / scale
                out[lit, 2] = (vw + vz * c) / scale - self._mapping["mins"][at] + corner
        # a mapping that is not a number or too large for float32 sampling (damaged
        # texinfo, lightmap coordinates): unlit
        with numpy.errstate(invalid="ignore"):
            lit &= (numpy.abs(out) < LARGEST).all(axis=(1, 2))
        out[~lit] = 0
        return out, lit


def atlases(bsp: Bsp) -> Atlases | None:
    """The map's lightmap atlases, or None when it has no light data. Damaged records give
    NaN or huge values quietly: such faces get no rectangle."""
    with numpy.errstate(all="ignore"):
        return _atlases(bsp)


def _atlases(bsp: Bsp) -> Atlases | None:
    engine = bsp.family.engine
    if engine == "quake3":
        return _quake3(bsp)
    if engine == "source":
        ldr, hdr = lightmap_faces.source_lightings(bsp)
        main = ldr or hdr
        if main is None or not len(main.faces.face):
            return None
        result = _atlas(main, _display)
        if hdr is not None and hdr is not main and _same_blocks(hdr.faces, main.faces):
            linear = _fill(hdr, result.rects, result.size, numpy.float32)
            result.hdr = linear
            result.hdr_pages = {style: _display(page) for style, page in linear.items()}
        elif hdr is main:
            result.hdr = _fill(hdr, result.rects, result.size, numpy.float32)
            result.hdr_pages = result.pages
        return result
    lighting = lightmap_faces.quake(bsp, bspx_lumps(bsp))
    if lighting is None or not len(lighting.faces.face):
        return None
    return _atlas(lighting, None)


def bspx_lumps(bsp: Bsp) -> dict[str, bytes]:
    """The lumps of a Quake 1 BSPX trailer by name ({} without one)."""
    from ...format.bspx import bspx_directory

    tail = bsp.layout.tail
    if bsp.family.trailer != "bspx" or tail is None:
        return {}
    data = bsp.read_range(tail.start, tail.end)
    directory = bspx_directory(data)
    lumps: dict[str, bytes] = {}
    for entry in directory.lumps if directory else ():
        at = entry.offset - tail.start
        if 0 <= at and at + entry.length <= len(data):
            lumps[entry.name.rstrip(b"\0").decode("latin-1")] = bytes(data[at:at + entry.length])
    return lumps


def shelf_pack(widths: Array, heights: Array) -> tuple[Array, Array, int, int]:
    """Places for rectangles: tallest first (then widest, then first), left to right on shelves
    of an atlas as wide as the square root of the total area (at least the widest). Returns x,
    y and the atlas width and height."""
    count = len(widths)
    width = max(int(widths.max(initial=1)),
                math.ceil(math.sqrt(float((widths * heights).sum()) * 1.1)))
    order = numpy.lexsort((numpy.arange(count), -widths, -heights))
    xs = numpy.zeros(count, numpy.int64)
    ys = numpy.zeros(count, numpy.int64)
    x = y = shelf = 0
    for i in order.tolist():
        w, h = int(widths[i]), int(heights[i])
        if x + w > width:
            x, y, shelf = 0, y + shelf, 0
        xs[i], ys[i] = x, y
        x += w
        shelf = max(shelf, h)
    return xs, ys, width, max(y + shelf, 1)


def _display(linear: Array) -> Array:
    """Linear light as bytes to look at: gamma 1/2.2, clamped."""
    shown: Array = numpy.power(numpy.clip(linear, 0.0, 1.0), 1.0 / GAMMA) * 255.0 + 0.5
    return shown.astype(numpy.uint8)


def _same_blocks(a: FaceLight, b: FaceLight) -> bool:
    return (numpy.array_equal(a.face, b.face) and numpy.array_equal(a.width, b.width)
            and numpy.array_equal(a.height, b.height))


def _atlas(lighting: Lighting, convert: Callable[[Array], Array] | None) -> Atlases:
    """Pack `lighting`'s faces and fill one page per style (`convert`: float pages to bytes)."""
    faces = lighting.faces
    xs, ys, width, height = shelf_pack(faces.width, faces.height)
    if width * height > MAX_ATLAS:
        raise BspError(f"the lit faces' blocks would make a {width} x {height} atlas: the faces "
                       "are damaged")
    rects = {int(f): (int(x), int(y), int(w), int(h))
             for f, x, y, w, h in zip(faces.face, xs, ys, faces.width, faces.height)}
    dtype = numpy.float32 if convert is not None else numpy.uint8
    pages = _fill(lighting, rects, (width, height), dtype)
    if convert is not None:
        pages = {style: convert(page) for style, page in pages.items()}
    return Atlases(
        styles=sorted(pages), pages=pages, rects=rects,
        face_styles={int(f): [int(s) for s in row if s != NO_STYLE]
                     for f, row in zip(faces.face, faces.styles)},
        skipped=faces.skipped,
        _mapping={"vecs": faces.vecs, "scale": faces.scale[:, None], "mins": faces.mins},
        _row={int(f): i for i, f in enumerate(faces.face)})


def _fill(lighting: Lighting, rects: dict[int, Rect], size: tuple[int, int],
          dtype: Any) -> dict[int, Array]:
    """One page per style: every face's block of that style copied to its rectangle, all
    luxels of a style slot at once."""
    faces = lighting.faces
    width, height = size
    place = numpy.array([rects[int(f)][:2] for f in faces.face], numpy.int64).reshape(-1, 2)
    pages: dict[int, Array] = {}
    for slot in range(4):
        styles = faces.styles[:, slot]
        for style in numpy.unique(styles[styles != NO_STYLE]).tolist():
            rows = numpy.flatnonzero(styles == style)
            w, h = faces.width[rows], faces.height[rows]
            count = w * h
            luxel, member = lightmap_faces.ranges(numpy.zeros(len(rows), numpy.int64), count)
            row = rows[member]
            page = pages.setdefault(style, numpy.zeros((height, width, 3), dtype))
            page[place[row, 1] + luxel // w[member], place[row, 0] + luxel % w[member]] = \
                lighting.luxels(faces.first[row] + slot * faces.stride[row]
                                + luxel * LUXELS[lighting.luxel])
    return pages


def _quake3(bsp: Bsp) -> Atlases | None:
    """Quake 3 LIGHTMAPS pages side by side; None when the map stores none (external
    lightmaps, vertex light only). Deluxemaps (`deluxe`): the light pages side by side, the
    direction pages apart in the same places."""
    side = Q3_PAGE[bsp.family.key]
    data = bsp.content("LIGHTMAPS")
    count = len(data) // (side * side * 3)
    surfaces = bsp.records("SURFACES")
    if not count or not len(surfaces):
        return None
    stored = numpy.frombuffer(data, numpy.uint8)[:count * side * side * 3]
    stored = stored.reshape(count, side, side, 3)
    raven = surfaces.dtype["lightmap_num"].shape != ()
    number = surfaces["lightmap_num"].reshape(len(surfaces), -1).astype(numpy.int64)
    pairs = deluxe(stored, number)
    light = stored[::2] if pairs else stored
    columns = math.ceil(math.sqrt(len(light)))
    origins = numpy.array([((i % columns) * side, (i // columns) * side)
                           for i in range(len(light))])
    grid = _side_by_side(light, origins, columns)
    shown = number // 2 if pairs else number           # a surface's light page, as shown
    corner_x = surfaces["lightmap_x"].reshape(len(surfaces), -1).astype(numpy.int64)
    corner_y = surfaces["lightmap_y"].reshape(len(surfaces), -1).astype(numpy.int64)
    width = surfaces["lightmap_width"].astype(numpy.int64)
    height = surfaces["lightmap_height"].astype(numpy.int64)
    unset = ~((width > 0) & (height > 0))
    if unset.any():         # newer q3map2 leaves the corners 0: the vertices' texels bound it
        low, high = _vertex_texels(bsp, surfaces, side)
        corner_x[unset, 0], corner_y[unset, 0] = low[unset, 0], low[unset, 1]
        width[unset], height[unset] = (high - low)[unset, 0], (high - low)[unset, 1]
    styles = surfaces["lightmap_styles"] if raven else numpy.zeros((len(surfaces), 1), numpy.uint8)

    def inside(slot: int) -> Array:
        return ((number[:, slot] >= 0) & (number[:, slot] < count) & (width > 0) & (height > 0)
                & (corner_x[:, slot] >= 0) & (corner_y[:, slot] >= 0)
                & (corner_x[:, slot] + width <= side) & (corner_y[:, slot] + height <= side))

    lit = numpy.flatnonzero(inside(0) & (styles[:, 0] != NO_STYLE))
    if not len(lit):
        return None
    x = origins[shown[lit, 0], 0] + corner_x[lit, 0]
    y = origins[shown[lit, 0], 1] + corner_y[lit, 0]
    rects = {int(s): (int(a), int(b), int(w), int(h))
             for s, a, b, w, h in zip(lit, x, y, width[lit], height[lit])}
    first_style = int(styles[lit[0], 0])
    pages = {first_style: grid}
    face_styles = {int(s): [int(styles[s, 0])] for s in lit}
    for slot in range(1, number.shape[1]):
        extra = lit[inside(slot)[lit] & (styles[lit, slot] != NO_STYLE)]
        for s in extra.tolist():       # styles beyond the first: rare, a copy per surface
            style = int(styles[s, slot])
            page = pages.setdefault(style, numpy.zeros_like(grid))
            sx, sy, w, h = int(corner_x[s, slot]), int(corner_y[s, slot]), int(width[s]), \
                int(height[s])
            rx, ry = rects[s][:2]
            page[ry:ry + h, rx:rx + w] = stored[number[s, slot], sy:sy + h, sx:sx + w]
            face_styles[s].append(style)
    skipped = int((number[:, 0] >= count).sum())
    directions = {first_style: _side_by_side(stored[1::2], origins, columns)} if pairs else {}
    return Atlases(
        styles=sorted(pages), pages=pages, rects=rects, face_styles=face_styles,
        stored_pages=list(stored), overbright=Q3_OVERBRIGHT, skipped=skipped,
        directions=directions,
        _mapping={"page_origin": origins[shown[lit, 0]].astype(numpy.float64),
                  "page": numpy.array([side], numpy.float64)},
        _row={int(s): i for i, s in enumerate(lit)})


def deluxe(stored: Array, number: Array) -> bool:
    """Whether Quake 3's stored pages (`stored` (N, side, side, 3)) come in pairs, light then
    light direction, as q3map2 `-deluxe` writes them (lightmaps_ydnar.cpp SetupOutLightmap:
    "lightmaps are interleaved with light direction maps"; the direction page follows its
    light page). The engines' rule (ioquake3 renderergl2 tr_bsp.c R_LoadLightmaps: more than
    one page and no surface's lightmap number (`number`, every style's) odd), with two more
    facts of q3map2's output: an even count, and the page after each light page in use not
    all black (q3map2 may also store an unused black page, as the corpus's mp_lobby and
    am_galmevish end with one: after a light page, that is no direction page)."""
    count = len(stored)
    used = numpy.unique(number[(number >= 0) & (number < count)])
    return bool(count >= 2 and count % 2 == 0 and len(used) and not (used % 2).any()
                and not (number[number >= count] % 2).any()
                and stored[used + 1].reshape(len(used), -1).any(axis=1).all())


def _side_by_side(pages: Array, origins: Array, columns: int) -> Array:
    """Pages (N, side, side, 3) laid out in rows of `columns`, page i at `origins[i]`."""
    count, side = len(pages), pages.shape[1]
    grid = numpy.zeros((math.ceil(count / columns) * side, columns * side, 3), numpy.uint8)
    for i in range(count):
        grid[origins[i, 1]:origins[i, 1] + side, origins[i, 0]:origins[i, 0] + side] = pages[i]
    return grid


def _vertex_texels(bsp: Bsp, surfaces: Array, side: int) -> tuple[Array, Array]:
    """Per surface, the texels (first, past the last; (n, 2) each) its vertices' first
    lightmap coordinates fall in, with the half texel around them, clipped to the page."""
    st = bsp.records("DRAWVERTS")["lightmap"]
    st = st[:, :2].astype(numpy.float64) * side
    first = surfaces["first_vert"].astype(numpy.int64)
    count = surfaces["num_verts"].astype(numpy.int64)
    count = numpy.where((count > 0) & (first >= 0) & (first + count <= len(st)), count, 0)
    claimed(bsp, "SURFACES' vertices", int(count.sum()), once(len(st)))
    low = numpy.zeros((len(surfaces), 2), numpy.int64)
    high = numpy.zeros((len(surfaces), 2), numpy.int64)
    used = numpy.flatnonzero(count)
    if len(used):
        index, _rows = lightmap_faces.ranges(first, count)
        starts = (numpy.cumsum(count) - count)[used]
        values = numpy.where(numpy.isfinite(st[index]), st[index], numpy.nan)
        least = numpy.floor(numpy.fmin.reduceat(values, starts, axis=0) - 0.5)
        most = numpy.ceil(numpy.fmax.reduceat(values, starts, axis=0) + 0.5)
        low[used] = numpy.nan_to_num(numpy.clip(least, 0, side)).astype(numpy.int64)
        high[used] = numpy.nan_to_num(numpy.clip(most, 0, side)).astype(numpy.int64)
    return low, high


def radiance_hdr(linear: Array) -> bytes:
    """An (H, W, 3) float picture as a Radiance .hdr file (RGBE, flat scanlines, top down)."""
    height, width = linear.shape[:2]
    top = numpy.ldexp(255 / 256, 127)       # the largest value RGBE holds (exponent 255)
    values = numpy.nan_to_num(numpy.clip(numpy.asarray(linear, numpy.float64), 0.0, top))
    brightest = values.max(axis=2)
    mantissa, exponent = numpy.frexp(brightest)
    scale = numpy.where(brightest > 1e-32, mantissa * 256.0 / numpy.where(brightest > 0,
                                                                            brightest, 1), 0)
    rgbe = numpy.zeros((height, width, 4), numpy.uint8)
    rgbe[..., :3] = numpy.minimum(values * scale[..., None], 255).astype(numpy.uint8)
    rgbe[..., 3] = numpy.where(brightest > 1e-32, exponent + 128, 0)
    head = f"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y {height} +X {width}\n".encode("ascii")
    return head + rgbe.tobytes()
