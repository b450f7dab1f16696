"""q3map2's `-minimap` for every family (issue 33): a square greyscale picture of the world
model's bounds, each pixel the share of its vertical column inside solid, non-sky brushes.

What q3map2 (tools/quake3/q3map2/minimap.cpp, game defaults of `quake3`) does, and so this:
* bounds: the world model's (MODELS 0) mins and maxs; keep-aspect letterboxing widens the
  shorter of x and y on both sides to the longer one (border 0);
* the brushes: the world model's brushes with a solid side (content flag CONTENTS_SOLID) and no
  sky side (surface flag SURF_SKY), as `SetupBrushesFlags(C_SOLID | C_SKY, C_SOLID, 0, 0)`;
* one sample per pixel, at its centre: the line x = cx, y = cy crosses each brush between the
  heights where it enters the last entering side and leaves by the first leaving one (a side
  with a vertical plane only says whether the line is inside); the lengths are summed, brush by
  brush (two brushes overlapping count twice), and divided by the bounds' height;
* a sharpen filter of 1: 9 times the pixel minus its 8 neighbours (those inside the picture);
* clamped to [0, 255/256] and truncated to a byte; 512 x 512 pixels;
* written as an uncompressed greyscale Targa (type 3, 8 bits, origin bottom left): the first
  row is the one at the lowest y, so the picture shows north up.

Families differ in where the brushes and their flags are (`BRUSH_SCHEMES`): Quake 3 lists the
world's brushes in its model and flags them through SHADERS; Quake 2 and Source give brushes a
`contents` field and sky through TEXINFO flags, and the world's brushes are the ones its leaves
list. Quake 1 and GoldSrc keep no brushes: their columns are traced through the world's BSP tree
(hull 0), solid where a leaf's contents are CONTENTS_SOLID (-2); the tree fills the void
outside the map with solid too, so a column that never enters an open leaf is void (black).

Damaged records are left out and counted (`Minimap.broken`): brushes with a side outside
BRUSHSIDES or on a plane that is not sound, tree nodes on such a plane or pointing outside
NODES or LEAFS, and the nodes of a cycle (`bsptree`). A map with no world model or no
sound box for it has nothing to draw: `CheckFailed`. (A minimap all black is q3map2's too:
small maps whose vertex box holds no solid give one.)
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...errors import BspError, CheckFailed

if TYPE_CHECKING:
    import numpy

    from ...bsp import Bsp

#: q3map2's defaults for `-game quake3`: size, sharpen, border, keep aspect.
SIZE = 512
SHARPEN = 1.0
#: Work per numpy step (pairs of a brush and a pixel, times the brush's sides).
_CHUNK = 1 << 20


@dataclass(frozen=True, slots=True)
class BrushScheme:
    """Where one engine keeps brushes and what makes one solid and not sky."""

    model_brushes: tuple[str, str] | None   # MODELS fields (first, count); None: leaves list them
    brush: tuple[str, str]                  # BRUSHES fields: first side, side count
    side: tuple[str, str]                   # BRUSHSIDES fields: plane, shader or texinfo
    flags_lump: str                         # SHADERS or TEXINFO
    contents: str                           # field with content flags (BRUSHES' for Quake 2)
    surface: str                            # field with surface flags
    sky: int                                # surface flags meaning sky


_QUAKE2 = BrushScheme(None, ("firstside", "numsides"), ("planenum", "texinfo"), "TEXINFO",
                      "BRUSHES.contents", "flags", 0x4)
BRUSH_SCHEMES: dict[str, BrushScheme] = {       # by Family.key, then Family.engine
    "quake3": BrushScheme(("first_brush", "num_brushes"), ("first_side", "num_sides"),
                          ("plane_num", "shader_num"), "SHADERS", "content_flags",
                          "surface_flags", 0x4),
    "rbsp": BrushScheme(("first_brush", "num_brushes"), ("first_side", "num_sides"),
                        ("plane_num", "shader_num"), "SHADERS", "content_flags",
                        "surface_flags", 0x2000),
    "quake2": _QUAKE2,
    "source": BrushScheme(None, ("firstside", "numsides"), ("planenum", "texinfo"), "TEXINFO",
                          "BRUSHES.contents", "flags", 0x4 | 0x2),     # SURF_SKY, SURF_SKY2D
}
CONTENTS_SOLID = 1          # brush content flag (Quake 2, Quake 3, Source)


@dataclass(frozen=True, slots=True)
class Grid:
    """The pixel centres: `xs` west to east, `ys` south to north (row 0 is the lowest y)."""

    mins: tuple[float, float, float]        # letterboxed bounds
    maxs: tuple[float, float, float]
    size: int

    @property
    def xs(self) -> numpy.ndarray[Any, Any]:
        return self._centres(0)

    @property
    def ys(self) -> numpy.ndarray[Any, Any]:
        return self._centres(1)

    def _centres(self, axis: int) -> numpy.ndarray[Any, Any]:
        import numpy as np

        extent = self.maxs[axis] - self.mins[axis]
        centres: numpy.ndarray[Any, Any] = \
            self.mins[axis] + extent * ((np.arange(self.size) + 0.5) / self.size)
        return centres


@dataclass(frozen=True, slots=True)
class Columns:
    """Solid pieces of the pixel columns: pixel `pix` (row * size + column, row 0 south) is
    solid from `bottom` to `top`; `void` marks columns that are outside the map altogether."""

    grid: Grid
    pix: numpy.ndarray[Any, Any]
    bottom: numpy.ndarray[Any, Any]
    top: numpy.ndarray[Any, Any]
    void: numpy.ndarray[Any, Any] | None
    broken: int = 0                         # damaged brushes or tree nodes left out

    def reaching(self, low: float, high: float) -> Columns:
        """The pieces that reach the heights `low`..`high` (touching counts: the slab under
        the lowest floor stays); those wholly above or below dropped."""
        keep = (self.top >= low) & (self.bottom <= high)
        return Columns(self.grid, self.pix[keep], self.bottom[keep], self.top[keep], self.void,
                       self.broken)


@dataclass(frozen=True, slots=True)
class Minimap:
    """The minimap's bytes and the facts the JSON result reports."""

    pixels: numpy.ndarray[Any, Any]         # (size, size) uint8, row 0 south
    bounds: tuple[tuple[float, float, float], tuple[float, float, float]]   # model 0's
    letterboxed: tuple[tuple[float, float, float], tuple[float, float, float]]
    method: str                             # "brushes" or "bsp tree"
    skybox: dict[str, Any]                  # `playable.Skybox.to_json()`
    broken: int = 0                         # damaged brushes or tree nodes left out

    def tga(self) -> bytes:
        """q3map2's WriteTGAGray: 18-byte header (type 3, 8 bits, origin bottom left), rows
        from the south."""
        height, width = self.pixels.shape
        header = struct.pack("<BBBHHBHHHHBB", 0, 0, 3, 0, 0, 0, 0, 0, width, height, 8, 0)
        return header + self.pixels.tobytes()


def world_bounds(bsp: Bsp) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """MODELS 0's mins and maxs (q3map2's minimap bounds); outside Quake 3, cut down to the
    box of the VERTEXES lump, as some compilers store a huge box (qbsp: +-99999 for a map
    without vis, vbsp: the whole +-16384 world). A damaged box (not numbers, beyond
    `geometry.WORLD`, inverted) is replaced by the box of the vertices (Quake 3: DRAWVERTS);
    vertices that are not numbers or beyond the world are left out of that box."""
    import numpy as np

    from .geometry import outside_world, xyz

    models = bsp.records("MODELS")
    if not len(models):
        raise CheckFailed("nothing drawn: the map has no world model (MODELS is empty); "
                          "nothing written", path=bsp.path)
    box = np.array([[float(models[0][end][a]) for a in "xyz"] for end in ("mins", "maxs")])
    damaged = bool(outside_world(box).any()) or bool((box[0] > box[1]).any())
    if bsp.family.engine != "quake3" or damaged:
        vertexes = bsp.records("DRAWVERTS" if bsp.family.engine == "quake3" else "VERTEXES")
        points = xyz(vertexes["xyz"] if "xyz" in (vertexes.dtype.names or ()) else vertexes)
        points = points[~outside_world(points)]
        if len(points):
            found = np.array([points.min(axis=0), points.max(axis=0)])
            box = found if damaged else np.array([np.maximum(box[0], found[0]),
                                                   np.minimum(box[1], found[1])])
    low, high = tuple(box[0].tolist()), tuple(box[1].tolist())
    if outside_world(box).any() or not all(lo <= hi for lo, hi in zip(low, high)):
        raise CheckFailed(f"nothing drawn: the world's box is empty or damaged ({low} to "
                          f"{high}) and no vertex is sound; nothing written", path=bsp.path)
    return (low[0], low[1], low[2]), (high[0], high[1], high[2])


def letterbox(mins: tuple[float, float, float], maxs: tuple[float, float, float],
              size: int) -> Grid:
    """q3map2's MiniMapMakeMinsMaxs with keep-aspect and no border: the shorter of x and y
    widened on both sides to the longer."""
    low, high = list(mins), list(maxs)
    dx, dy = high[0] - low[0], high[1] - low[1]
    if dy > dx:
        low[0] -= (dy - dx) * 0.5
        high[0] += (dy - dx) * 0.5
    else:
        low[1] -= (dx - dy) * 0.5
        high[1] += (dx - dy) * 0.5
    return Grid((low[0], low[1], low[2]), (high[0], high[1], high[2]), size)


def minimap(bsp: Bsp, size: int = SIZE, sharpen: float = SHARPEN,
            skybox: bool = False) -> Minimap:
    """q3map2 -minimap's picture of `bsp` (any family), `size` pixels square; a 3D skybox
    (`playable`) is left out, unless `skybox`: x and y are cut to the playable world faces'
    box, the solids to those that reach its heights; the height is theirs and the faces'."""
    import numpy as np

    from .playable import world_box

    if not 1 <= size <= 8192:
        raise BspError(f"minimap size {size} is outside 1..8192 (q3map2's range)")
    mins, maxs = world_bounds(bsp)
    found, box = world_box(bsp, skybox)
    if box is not None:         # x, y cut to the playable world faces
        mins = (max(mins[0], box[0][0]), max(mins[1], box[0][1]), mins[2])
        maxs = (min(maxs[0], box[1][0]), min(maxs[1], box[1][1]), maxs[2])
    grid = letterbox(mins, maxs, size)
    columns = solid_columns(bsp, grid)
    if box is not None:         # z: the playable faces and the solids that reach them
        columns = columns.reaching(box[0][2], box[1][2])
        heights = [float(box[0][2]), float(box[1][2])]
        if len(columns.pix):
            heights += [float(columns.bottom.min()), float(columns.top.max())]
        mins = (mins[0], mins[1], max(mins[2], min(heights)))
        maxs = (maxs[0], maxs[1], min(maxs[2], max(heights)))
        grid = letterbox(mins, maxs, size)
    height = grid.maxs[2] - grid.mins[2]
    total = np.bincount(columns.pix, weights=columns.top - columns.bottom,
                        minlength=size * size)
    value = (total / height if height > 0 else np.zeros_like(total)).reshape(size, size)
    if columns.void is not None:
        value[columns.void.reshape(size, size)] = 0.0
    if sharpen >= 0:
        value = _sharpen(value, sharpen)
    pixels = (np.clip(value, 0.0, 255.0 / 256.0) * 256).astype(np.uint8)
    method = "brushes" if _scheme(bsp) is not None else "bsp tree"
    return Minimap(pixels, (mins, maxs), (grid.mins, grid.maxs), method, found, columns.broken)


def _sharpen(value: numpy.ndarray[Any, Any], amount: float) -> numpy.ndarray[Any, Any]:
    """(8a + 1) times each pixel minus a times each of its neighbours inside the picture."""
    import numpy as np

    padded = np.pad(value, 1)
    height, width = value.shape
    neighbours = sum(padded[1 + dy:1 + dy + height, 1 + dx:1 + dx + width]
                     for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx)
    sharpened: numpy.ndarray[Any, Any] = value * (8 * amount + 1) - amount * neighbours
    return sharpened


def _scheme(bsp: Bsp) -> BrushScheme | None:
    return BRUSH_SCHEMES.get(bsp.family.key) or BRUSH_SCHEMES.get(bsp.family.engine)


def solid_columns(bsp: Bsp, grid: Grid) -> Columns:
    """The solid pieces of every pixel column of `grid`: the world's solid non-sky brushes, or
    (families without brushes) the solid leaves of its BSP tree within the grid's heights."""
    scheme = _scheme(bsp)
    if scheme is None:
        from .bsptree import trace_columns

        pix, bottom, top, void, broken = trace_columns(bsp, grid.xs, grid.ys, grid.mins[2],
                                                       grid.maxs[2])
        return Columns(grid, pix, bottom, top, void, broken)
    normals, dists, first, count, broken = _solid_brushes(bsp, scheme)
    columns = _brush_columns(grid, normals, dists, first, count)
    return Columns(grid, columns.pix, columns.bottom, columns.top, None, broken)


def _solid_brushes(bsp: Bsp, scheme: BrushScheme) -> tuple[Any, Any, Any, Any, int]:
    """The world's solid, non-sky brushes: plane normals and distances of all sides, per
    brush its first side (into those) and side count; and how many of the world's brushes
    are damaged (sides outside BRUSHSIDES, a side on a plane that is not sound)."""
    import numpy as np

    from .bsptree import sound_planes
    from .geometry import claimed, once

    brushes, sides = bsp.records("BRUSHES"), bsp.records("BRUSHSIDES")
    normals, dists, sound = sound_planes(bsp)
    chosen = _world_brushes(bsp, scheme, len(brushes))
    first = brushes[scheme.brush[0]].astype(np.int64)[chosen]
    count = brushes[scheme.brush[1]].astype(np.int64)[chosen]
    good = (first >= 0) & (count > 0) & (first + count <= len(sides))
    broken = int((~good).sum())
    chosen, first, count = chosen[good], first[good], count[good]
    claimed(bsp, "brush sides", int(count.sum()), once(len(sides)))
    side_index = np.repeat(first - np.cumsum(count) + count, count) + np.arange(count.sum())
    owner = np.repeat(np.arange(len(chosen)), count)
    flags = bsp.records(scheme.flags_lump)
    ref = sides[scheme.side[1]].astype(np.int64)[side_index]
    known = (ref >= 0) & (ref < len(flags))
    surface = np.zeros(len(side_index), dtype=np.int64)
    surface[known] = flags[scheme.surface].astype(np.int64)[ref[known]]
    sky = np.zeros(len(chosen), dtype=bool)
    np.logical_or.at(sky, owner, (surface & scheme.sky) != 0)
    if scheme.contents.startswith("BRUSHES."):
        solid = (brushes[scheme.contents.split(".")[1]].astype(np.int64)[chosen]
                 & CONTENTS_SOLID) != 0
    else:
        contents = np.zeros(len(side_index), dtype=np.int64)
        contents[known] = flags[scheme.contents].astype(np.int64)[ref[known]]
        solid = np.zeros(len(chosen), dtype=bool)
        np.logical_or.at(solid, owner, (contents & CONTENTS_SOLID) != 0)
    plane = sides[scheme.side[0]].astype(np.int64)[side_index]
    plane = np.where((plane >= 0) & (plane < len(sound)), plane, -1)
    damaged = np.zeros(len(chosen), dtype=bool)
    np.logical_or.at(damaged, owner, (plane < 0) | ~sound[plane])
    broken += int(damaged.sum())
    keep = solid & ~sky & ~damaged
    kept_sides = keep[owner]
    count = count[keep]
    plane = plane[kept_sides]
    return normals[plane], dists[plane], np.cumsum(count) - count, count, broken


def _world_brushes(bsp: Bsp, scheme: BrushScheme, total: int) -> numpy.ndarray[Any, Any]:
    """Indices of the world model's brushes: from MODELS 0 (Quake 3), else every brush a leaf
    under the world's head node lists."""
    import numpy as np

    from .bsptree import world_leaves
    from .geometry import claimed, once

    models = bsp.records("MODELS")
    if scheme.model_brushes is not None:
        start = int(models[0][scheme.model_brushes[0]])
        stop = min(total, start + max(0, int(models[0][scheme.model_brushes[1]])))
        return np.arange(max(0, start), stop)
    leaves = world_leaves(bsp, int(models[0]["headnode"]))
    leafs, listed = bsp.records("LEAFS"), bsp.records("LEAFBRUSHES")
    first = leafs["firstleafbrush"].astype(np.int64)[leaves]
    count = leafs["numleafbrushes"].astype(np.int64)[leaves]
    count = np.where((first >= 0) & (count >= 0) & (first + count <= len(listed)), count, 0)
    claimed(bsp, "leaf brushes", int(count.sum()), once(len(listed)))
    index = np.repeat(first - np.cumsum(count) + count, count) + np.arange(count.sum())
    brushes = np.unique(listed["brush"].astype(np.int64)[index])
    return brushes[brushes < total]


def _brush_xy_bounds(normals: Any, dists: Any, owner: Any, brushes: int,
                     grid: Grid) -> tuple[Any, Any, Any, Any]:
    """Per brush its x and y extent from its axial sides (q3map2's brushes always have them;
    a brush without one on some side extends to the grid's edge there)."""
    import numpy as np

    low = np.tile(np.array(grid.mins[:2]), (brushes, 1))
    high = np.tile(np.array(grid.maxs[:2]), (brushes, 1))
    for axis in (0, 1):
        other = [a for a in range(3) if a != axis]
        axial = (normals[:, other] == 0).all(axis=1)
        up = axial & (normals[:, axis] > 0)
        down = axial & (normals[:, axis] < 0)
        np.minimum.at(high[:, axis], owner[up], dists[up] / normals[up, axis])
        np.maximum.at(low[:, axis], owner[down], dists[down] / normals[down, axis])
    return low[:, 0], high[:, 0], low[:, 1], high[:, 1]


def _brush_columns(grid: Grid, normals: Any, dists: Any, first: Any, count: Any) -> Columns:
    """Where each pixel's vertical line crosses each brush, as q3map2's
    BrushIntersectionWithLine: numpy over (brush, pixel) pairs, brushes grouped by side count."""
    import numpy as np

    xs, ys, size = grid.xs, grid.ys, grid.size
    owner = np.repeat(np.arange(len(count)), count)
    x0, x1, y0, y1 = _brush_xy_bounds(normals, dists, owner, len(count), grid)
    i0, i1 = np.searchsorted(xs, x0, "left"), np.searchsorted(xs, x1, "right")
    j0, j1 = np.searchsorted(ys, y0, "left"), np.searchsorted(ys, y1, "right")
    nx, ny = np.maximum(i1 - i0, 0), np.maximum(j1 - j0, 0)
    pairs = nx * ny
    pieces: list[tuple[Any, Any, Any]] = []
    for sides in np.unique(count[pairs > 0]):
        group = np.flatnonzero((count == sides) & (pairs > 0))
        cumulative = np.cumsum(pairs[group]) * int(sides)
        cuts = np.searchsorted(cumulative, np.arange(_CHUNK, cumulative[-1], _CHUNK))
        for part in np.split(group, np.unique(cuts)):
            if len(part):
                pieces.append(_cross(part, int(sides), pairs, i0, j0, nx, xs, ys, size,
                                     normals, dists, first))
    if not pieces:
        empty = np.zeros(0)
        return Columns(grid, empty.astype(np.int64), empty, empty, None)
    pix, bottom, top = (np.concatenate(p) for p in zip(*pieces))
    return Columns(grid, pix, bottom, top, None)


def _cross(part: Any, sides: int, pairs: Any, i0: Any, j0: Any, nx: Any, xs: Any, ys: Any,
           size: int, normals: Any, dists: Any, first: Any) -> tuple[Any, Any, Any]:
    """The crossings of brushes `part` (all with `sides` sides) with the lines of their
    pixels: (pixel, enter height, leave height) of the lines that cross."""
    import numpy as np

    n = pairs[part]
    brush = np.repeat(part, n)
    k = np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)
    px = i0[brush] + k % nx[brush]
    py = j0[brush] + k // nx[brush]
    side = first[brush][:, None] + np.arange(sides)
    normal, dist = normals[side], dists[side]
    along = normal[..., 0] * xs[px][:, None] + normal[..., 1] * ys[py][:, None]
    dn = normal[..., 2]
    flat = dn == 0
    outside = (flat & (along > dist)).any(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (dist - along) / np.where(flat, 1.0, dn)
    enter = np.where(dn < 0, t, -np.inf).max(axis=1)
    leave = np.where(dn > 0, t, np.inf).min(axis=1)
    hit = ~outside & np.isfinite(enter) & np.isfinite(leave) & (enter < leave)
    return (py * size + px)[hit], enter[hit], leave[hit]


