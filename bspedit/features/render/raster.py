"""The picture grid (`Frame`) and the top-down rasteriser: polygons drawn as numbers into an
integer image with Pillow (C speed), lowest first so that the surface nearest the viewer
wins, one band of rows at a time (`Bands`: memory flat whatever the picture's size), then
per-pixel facts in numpy: which polygon, its height there (from its plane), and any
attribute that is affine over it (Quake 3 lightmap coordinates).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy

from .geometry import Array, Geometry

if TYPE_CHECKING:
    from PIL import Image


@dataclass(frozen=True, slots=True)
class Frame:
    """A world rectangle seen from above and its pixel grid, north (+y) up: pixel (px, py)
    covers world x in [min_x + px*scale, min_x + (px+1)*scale) and y in
    (max_y - (py+1)*scale, max_y - py*scale]."""

    min_x: float
    max_y: float
    scale: float            # world units per pixel
    width: int
    height: int

    @property
    def max_x(self) -> float:
        return self.min_x + self.width * self.scale

    @property
    def min_y(self) -> float:
        return self.max_y - self.height * self.scale

    @classmethod
    def fit(cls, mins: tuple[float, float], maxs: tuple[float, float], size: int,
            margin: float = 0.02) -> Frame:
        """The frame around the xy bounds `mins`..`maxs` whose longer side is `size` pixels,
        `margin` (a fraction of `size`, at least one pixel) left free on every side."""
        pad = max(1, round(size * margin))
        inner = max(size - 2 * pad, 1)
        span_x, span_y = maxs[0] - mins[0], maxs[1] - mins[1]
        if max(span_x, span_y) < 1.0:           # a point or nothing: a unit square
            span_x = span_y = 1.0
        scale = max(span_x, span_y) / inner
        width = max(1, min(size, math.ceil(span_x / scale - 1e-9) + 2 * pad))
        height = max(1, min(size, math.ceil(span_y / scale - 1e-9) + 2 * pad))
        centre_x, centre_y = (mins[0] + maxs[0]) / 2, (mins[1] + maxs[1]) / 2
        return cls(centre_x - width * scale / 2, centre_y + height * scale / 2, scale,
                   width, height)

    @classmethod
    def square(cls, mins: tuple[float, float], maxs: tuple[float, float], size: int,
               margin: float = 0.0) -> Frame:
        """A size x size frame around the bounds, the shorter side centred (letterboxed)."""
        frame = cls.fit(mins, maxs, size, margin)
        centre_x, centre_y = frame.min_x + frame.width * frame.scale / 2, \
            frame.max_y - frame.height * frame.scale / 2
        half = size * frame.scale / 2
        return cls(centre_x - half, centre_y + half, frame.scale, size, size)

    def to_pixels(self, points: Array) -> Array:
        """(N, 2) continuous pixel coordinates of world points (N, 2+)."""
        return numpy.stack([(points[:, 0] - self.min_x) / self.scale,
                            (self.max_y - points[:, 1]) / self.scale], axis=1)

    def to_world(self, px: Array, py: Array) -> tuple[Array, Array]:
        """World x, y of pixel centres."""
        return (self.min_x + (numpy.asarray(px) + 0.5) * self.scale,
                self.max_y - (numpy.asarray(py) + 0.5) * self.scale)

    def finer(self, factor: int) -> Frame:
        """The same rectangle with `factor` x `factor` pixels for each pixel."""
        return Frame(self.min_x, self.max_y, self.scale / factor, self.width * factor,
                     self.height * factor)

    def to_json(self) -> dict[str, Any]:
        return {"min_x": self.min_x, "min_y": self.min_y, "max_x": self.max_x,
                "max_y": self.max_y, "units_per_pixel": self.scale,
                "width": self.width, "height": self.height}


def planes(geometry: Geometry) -> Array:
    """(P, 3): each polygon's height as a*x + b*y + c (its plane; upward polygons only)."""
    normal = geometry.normal
    point = geometry.corners[geometry.starts[:-1]]
    nz = numpy.where(numpy.abs(normal[:, 2]) > 1e-9, normal[:, 2], 1e-9)
    a, b = -normal[:, 0] / nz, -normal[:, 1] / nz
    return numpy.stack([a, b, point[:, 2] - a * point[:, 0] - b * point[:, 1]], axis=1)


def affine(geometry: Geometry, values: Array) -> Array:
    """(P, 3, D): per triangle, `values` (C, D) at its corners as a*x + b*y + c (exact for
    triangles; a degenerate one gets its mean)."""
    corner = geometry.corners.reshape(-1, 3, 3)
    value = values.reshape(len(corner), 3, -1)
    m = numpy.concatenate([corner[:, :, :2], numpy.ones((len(corner), 3, 1))], axis=2)
    det = numpy.linalg.det(m)
    good = numpy.abs(det) > 1e-9
    out = numpy.zeros((len(corner), 3, value.shape[2]))
    out[:, 2] = value.mean(axis=1)
    if good.any():
        out[good] = numpy.linalg.solve(m[good], value[good])
    return out


class Bands:
    """Polygons drawn as numbers into any band of rows of `frame`, in paint order `order`
    (later ones cover earlier ones): each band draws only the polygons whose rows it holds,
    so a band costs its own pixels, never the whole picture's."""

    def __init__(self, geometry: Geometry, order: Array, frame: Frame) -> None:
        # Pillow puts pixel centres at integers and truncates a corner to whole pixels (a C
        # cast): truncated here, a band's corners are whole numbers shifted by its top row,
        # and each band draws exactly the pixels the whole picture would
        pixels = numpy.trunc(frame.to_pixels(geometry.corners) - 0.5)
        self.width, self.height = frame.width, frame.height
        self.order = order
        self.pixels = pixels
        self.starts = geometry.starts
        rows = pixels[:, 1]
        ordered = corner_indices(geometry.starts, order)
        first = numpy.concatenate([[0], numpy.cumsum(numpy.diff(geometry.starts)[order])[:-1]])
        if len(order):
            self.low = numpy.minimum.reduceat(rows[ordered], first)
            self.high = numpy.maximum.reduceat(rows[ordered], first)
        else:
            self.low = self.high = numpy.zeros(0)

    def ids(self, top: int, count: int) -> Array:
        """(count, width) int32: 1 + the polygon drawn at each pixel of rows top..top+count
        (0: none)."""
        from PIL import Image, ImageDraw

        image = Image.new("I", (self.width, count), 0)
        draw = ImageDraw.Draw(image)
        inside = (self.high >= top) & (self.low < top + count)
        drawn = self.order[inside]
        at = corner_indices(self.starts, drawn)
        corners = self.pixels[at] - (0.0, float(top))
        flat = corners.reshape(-1).tolist()
        ends = (2 * numpy.cumsum(numpy.diff(self.starts)[drawn])).tolist()
        begin = 0
        for polygon, end in zip((drawn + 1).tolist(), ends):
            draw.polygon(flat[begin:end], fill=polygon)
            begin = end
        return numpy.asarray(image, dtype=numpy.int32)


def corner_indices(starts: Array, polygons: Array) -> Array:
    """The indices of the corners of `polygons`, one polygon after another (`starts`:
    polygon p's corners are starts[p]:starts[p + 1])."""
    sizes = numpy.diff(starts)[polygons]
    offsets = starts[:-1][polygons] - numpy.concatenate([[0], numpy.cumsum(sizes)[:-1]])
    return numpy.repeat(offsets, sizes) + numpy.arange(sizes.sum(), dtype=numpy.int64)


def reduce(rgba: Array, factor: int) -> Image.Image:
    """The RGBA picture of (H, W, 4) uint8 `rgba` averaged over `factor` x `factor` blocks,
    colours weighted by alpha (no dark fringes at the edges)."""
    from PIL import Image

    image = Image.fromarray(rgba, "RGBA")
    if factor == 1:
        return image
    return image.convert("RGBa").reduce(factor).convert("RGBA")
