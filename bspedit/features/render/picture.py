"""`topdown(bsp)`: an orthographic picture of a map seen from above, north (+y) up.

Only faces the player sees (`geometry.HIDDEN`) that face up (their normal, after the side
flag, has z > 0) are drawn. Polygons are drawn lowest first into a supersampled integer
image (`raster.Bands`), so the surface nearest the viewer wins; each pixel then gets its
polygon's height from the polygon's plane and its colour from the mode:

- `height`: a ramp from the lowest to the highest drawn point (the legend gives the range);
- `texture`: each texture's colour (`colors.texture_colours`);
- `lightmap`: the map's light, sampled from the lightmap atlases at the pixel's world point.

Slopes are shaded by a light from the north-west, and pixels where the height jumps (walls,
steps, ledges) are darkened, so that floors at one height stay readable. The supersampled
picture is averaged down (antialiasing). The pixels are made on demand, one band of rows at
a time (`paint.Painter`): `Picture.rows()` streams them (`writers.png_chunks`), `image` holds
them whole, and the SVG (`Picture.outlines()`) needs none.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy

from ...errors import BspError, CheckFailed
from . import colors
from .geometry import REASONS, Array, Geometry, nothing_drawn
from .paint import Light, Painter
from .playable import playable
from .raster import Frame, corner_indices
from .shapes import geometry

if TYPE_CHECKING:
    from PIL import Image

    from ...bsp import Bsp

COLORS = ("height", "texture", "lightmap")
MODELS = ("all", "world")
#: a polygon faces up when its unit normal's z is above this
UP = 1e-3
#: the light that shades slopes: from the north-west, high
LIGHT = numpy.array([-0.45, 0.55, 1.0]) / numpy.linalg.norm([-0.45, 0.55, 1.0])
#: the colour of upward sky faces (pale blue)
SKY = (172, 198, 222)
#: largest picture side drawn at 2x2 samples per pixel (larger ones: 1 sample)
SUPERSAMPLED_UP_TO = 2048


@dataclass
class Picture:
    """A rendered picture: its frame, its pixels on demand (`rows()`, `image`: RGBA, alpha 0
    where nothing is drawn), and what the writers and reports need."""

    frame: Frame
    color: str
    legend: dict[str, float] | None          # height mode: {"min_z", "max_z"} of the ramp
    faces_drawn: int
    faces_skipped: dict[str, int]
    geometry: Geometry = field(repr=False)
    order: Array = field(repr=False)          # the drawn polygons, in paint order
    key: Array = field(repr=False)            # (len(order),) their paint order key
    colours: Array = field(repr=False)        # (len(order), 3) flat colour of each
    painter: Painter = field(repr=False)
    playable: dict[str, Any] = field(default_factory=dict)     # `Playable.summary()`

    def rows(self) -> Iterator[Array]:
        """The RGBA pixels, top to bottom, in bands of rows ((rows, width, 4) uint8 arrays):
        the whole picture is never in memory."""
        return self.painter.rows()

    @cached_property
    def image(self) -> Image.Image:
        """The whole picture as a Pillow RGBA image, made on first use (width x height x 4
        bytes: for big pictures, `rows()`)."""
        return self.painter.image()

    def outlines(self) -> list[tuple[int, tuple[int, int, int], list[Array]]]:
        """Per drawn face, in paint order (sky, then lowest first): (face, RGB, its polygons
        as (K, 2) pixel coordinates)."""
        geo = self.geometry
        faces = geo.face[self.order]
        centre = self.key
        unique, inverse = numpy.unique(faces, return_inverse=True)
        height = numpy.bincount(inverse, centre) / numpy.bincount(inverse)
        colour = numpy.stack([numpy.bincount(inverse, self.colours[:, k]) for k in range(3)],
                             axis=1) / numpy.bincount(inverse)[:, None]
        pixels = self.frame.to_pixels(geo.corners)
        members: list[list[Array]] = [[] for _ in unique]
        for n, polygon in zip(inverse.tolist(), self.order.tolist()):
            members[n].append(pixels[geo.starts[polygon]:geo.starts[polygon + 1]])
        rgb = numpy.clip(numpy.rint(colour), 0, 255).astype(int).tolist()
        return [(int(unique[n]), (rgb[n][0], rgb[n][1], rgb[n][2]), members[n])
                for n in numpy.argsort(height, kind="stable").tolist()]

    def summary(self) -> dict[str, Any]:
        return {"frame": self.frame.to_json(), "color": self.color,
                "faces_drawn": self.faces_drawn, "faces_skipped": dict(self.faces_skipped),
                "legend": self.legend, "playable": self.playable}


def _centroid_z(geo: Geometry) -> Array:
    sizes = numpy.diff(geo.starts)
    if not len(sizes):
        return numpy.zeros(0)
    return numpy.add.reduceat(geo.corners[:, 2], geo.starts[:-1]) / sizes


def _finite(geo: Geometry) -> Array:
    bad = ~numpy.isfinite(geo.corners).all(axis=1)
    if not len(geo.face):
        return numpy.zeros(0, bool)
    return ~numpy.logical_or.reduceat(bad, geo.starts[:-1]) & numpy.isfinite(geo.normal).all(1)


def topdown(bsp: Bsp, *, size: int = 1024, color: str = "height", models: str = "all",
            frame: Frame | None = None, altitude: tuple[float, float] | None = None,
            palette: bytes | None = None, legend: bool = True, sky: bool = True,
            skybox: bool = False, overhead: bool = False) -> Picture:
    """The map seen from above (see the module's docstring). `models`: "all" draws brush
    entities too, "world" model 0 only; `altitude` (lo, hi) draws only polygons whose centre
    lies in that height range; `frame` fixes the world rectangle and pixel grid (default:
    the drawn faces' bounds, sky left out unless nothing else is drawn, `size` pixels on the
    longer side); `palette`: Quake 1's 256 RGB
    triples for texture colours; `legend`: draw the height legend into the image; `sky`:
    draw upward sky faces (the floor of a sky box around the map: what is seen from above,
    and what bsputil --svg draws) in `SKY`, never counted in the height range; `skybox`,
    `overhead`: draw the 3D skybox and the overhead covers `playable` leaves out (a drawn
    skybox's sky walls are part of the frame). CheckFailed when nothing would be drawn
    (`geometry.nothing_drawn` says why) and for lightmap colours of a map without light
    data."""
    if color not in COLORS:
        raise BspError(f"unknown colour mode {color!r} (one of {', '.join(COLORS)})")
    if models not in MODELS:
        raise BspError(f"unknown models {models!r} (all or world)")
    if frame is None and not 1 <= size <= 16384:
        raise BspError(f"picture size {size} is outside 1..16384 pixels")
    atlases = None
    if color == "lightmap":
        from .lightmap import NO_LIGHT
        from .lightmap import atlases as load_atlases

        atlases = load_atlases(bsp)
        if atlases is None or not atlases.pages:
            raise CheckFailed(f"{NO_LIGHT}: no lightmap colours (try --color height or "
                              "texture); nothing written", path=bsp.path)
    geo = geometry(bsp)
    plan = playable(bsp, geo, skybox=skybox, overhead=overhead)
    face_model = geo.face_model
    chosen = face_model >= 0 if models == "all" else face_model == 0
    wanted_face = chosen & plan.keep
    centre = _centroid_z(geo)
    poly_face = geo.face
    hidden = geo.face_hidden[poly_face]
    is_sky = hidden == REASONS.index("sky")
    drawable = wanted_face[poly_face] & ((hidden == 0) | (is_sky & sky)) & _finite(geo)
    up = drawable & (geo.normal[:, 2] > UP)
    in_range = up if altitude is None else \
        up & (centre >= altitude[0]) & (centre <= altitude[1])
    selected = numpy.flatnonzero(in_range)
    drawn_faces = numpy.zeros(len(face_model), bool)
    drawn_faces[poly_face[selected]] = True
    skipped = _skipped(geo, wanted_face, drawn_faces, poly_face[up], models)
    skipped.update(plan.skipped(chosen))
    if atlases is not None and atlases.skipped:     # drawn grey, as unlit faces are
        skipped["light_broken"] = atlases.skipped
    if not len(selected):
        raise CheckFailed(nothing_drawn(skipped), path=bsp.path)

    corners = _selected_corners(geo, selected)
    ground = _selected_corners(geo, selected[~is_sky[selected]])
    if frame is None:
        # the map's own faces set the frame; sky only when there is nothing else (a sky box
        # around a small map would otherwise shrink the map to a dot); a drawn 3D skybox is
        # framed whole, its sky walls included
        own = _selected_corners(geo, selected[~is_sky[selected] |
                                              plan.skybox.faces[poly_face[selected]]])
        framed = own if len(own) else corners
        if len(framed):
            mins, maxs = framed[:, :2].min(axis=0), framed[:, :2].max(axis=0)
        else:
            mins = maxs = numpy.zeros(2)
        frame = Frame.fit((float(mins[0]), float(mins[1])), (float(maxs[0]), float(maxs[1])),
                          size)
    z_range = (float(ground[:, 2].min()), float(ground[:, 2].max())) if len(ground) \
        else (0.0, 0.0)
    # paint order: lowest first; sky is the backdrop, under everything whatever its height
    key = numpy.where(is_sky, -numpy.inf, centre)
    order = selected[numpy.argsort(key[selected], kind="stable")]
    factor = 2 if max(frame.width, frame.height) <= SUPERSAMPLED_UP_TO else 1
    light = None if atlases is None else Light.of(geo, atlases)
    flat = _flat_colours(bsp, geo, order, color, z_range, light, palette)
    flat[is_sky[order]] = SKY
    textures = colors.texture_colours(bsp, geo.names, palette) if color == "texture" else None
    shade = _slope_shade(geo.normal)
    painter = Painter.of(geo, order, frame, factor, color, z_range, is_sky, shade, SKY,
                         textures, light, legend and color == "height" and len(selected) > 0)
    legend_range = {"min_z": z_range[0], "max_z": z_range[1]} if color == "height" else None
    return Picture(frame, color, legend_range, int(drawn_faces.sum()), skipped, geo, order,
                   key[order], flat * shade[order][:, None], painter, plan.summary())


def _selected_corners(geo: Geometry, selected: Array) -> Array:
    return geo.corners[corner_indices(geo.starts, selected)]


def _skipped(geo: Geometry, wanted: Array, drawn: Array, facing_up: Array,
             models: str) -> dict[str, int]:
    """Faces of the wanted models not drawn, by reason; and with `world`, the others."""
    counts: dict[str, int] = {}
    hidden = geo.face_hidden
    for code, count in zip(*numpy.unique(hidden[wanted & ~drawn], return_counts=True)):
        if code:
            counts[REASONS[int(code)]] = int(count)
    up = numpy.zeros(len(hidden), bool)
    up[facing_up] = True
    shown = wanted & (hidden == 0) & ~drawn
    counts["not_facing_up"] = int((shown & ~up).sum())
    if (shown & up).any():
        counts["altitude"] = int((shown & up).sum())
    if models == "world":
        counts["not_world"] = int((geo.face_model > 0).sum())
    return {k: v for k, v in sorted(counts.items()) if v}


def _slope_shade(normal: Array) -> Array:
    """Brightness of each normal under `LIGHT`, 1 for a flat floor."""
    lit = numpy.clip(normal @ LIGHT, 0.0, 1.0)
    return numpy.clip((0.45 + 0.55 * lit) / (0.45 + 0.55 * LIGHT[2]), 0.35, 1.2)


def _flat_colours(bsp: Bsp, geo: Geometry, order: Array, color: str,
                  z_range: tuple[float, float], light: Light | None,
                  palette: bytes | None) -> Array:
    """(len(order), 3): one colour per drawn polygon, for vector output."""
    if color == "height":
        span = max(z_range[1] - z_range[0], 1e-6)
        return colors.ramp((_centroid_z(geo)[order] - z_range[0]) / span)
    faces = geo.face[order]
    if color == "texture":
        table = colors.texture_colours(bsp, geo.names, palette)
        return table[numpy.maximum(geo.face_texture[faces], 0)]
    assert light is not None            # the light at each polygon's centre
    sizes = numpy.diff(geo.starts)[order]
    centre = numpy.add.reduceat(geo.corners[:, :2], geo.starts[:-1], axis=0)[order] / \
        sizes[:, None]
    return light.at(order, centre[:, 0], centre[:, 1]).astype(numpy.float64)
