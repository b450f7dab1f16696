"""Colours of a top-down picture: the height ramp, each texture's colour, the map's light.

Texture colours: the average of the embedded miptex pixels through their palette (GoldSrc
textures carry it; Quake 1 maps do not, so a palette is needed there), Source TEXDATA
`reflectivity` (linear, shown with gamma 2.2); otherwise a stable colour hashed from the
name, so that one texture keeps one colour in every picture.
"""
from __future__ import annotations

import colorsys
import hashlib
from typing import TYPE_CHECKING

import numpy

from ...errors import BspError
from .geometry import Array

if TYPE_CHECKING:
    from PIL import Image

    from ...bsp import Bsp
    from .lightmap import Atlases

#: the height ramp, low to high: deep blue, teal, green, sand, orange
RAMP = numpy.array([(38, 42, 110), (36, 120, 170), (70, 170, 110), (215, 200, 90),
                    (225, 110, 60)], numpy.float64)
GAMMA = 2.2


def ramp(t: Array) -> Array:
    """(N, 3) float colours of heights `t` in 0..1."""
    at = numpy.clip(t, 0.0, 1.0) * (len(RAMP) - 1)
    low = numpy.minimum(at.astype(numpy.int64), len(RAMP) - 2)
    frac = (at - low)[..., None]
    return RAMP[low] * (1 - frac) + RAMP[low + 1] * frac


def hashed(name: str) -> tuple[float, float, float]:
    """A stable colour for a texture name (any ASCII case)."""
    digest = hashlib.md5(name.lower().encode("latin-1", "replace")).digest()
    hue = digest[0] / 255
    saturation = 0.30 + 0.35 * digest[1] / 255
    value = 0.55 + 0.35 * digest[2] / 255
    r, g, b = colorsys.hsv_to_rgb(hue, saturation, value)
    return r * 255, g * 255, b * 255


def _miptex_colours(bsp: Bsp, palette: bytes | None) -> dict[str, tuple[float, float, float]]:
    """Average colour of each embedded miptex (GoldSrc palette, else `palette`), by name."""
    from ..texwad import textures

    try:
        model = textures(bsp)
    except BspError:
        return {}
    out = {}
    for entry in model.entries:
        pixels = entry.pixels(0) if not entry.external else None
        colours = entry.colours if model.GOLDSRC else palette
        if not pixels or colours is None or len(colours) < 3:
            continue
        table = numpy.frombuffer(bytes(colours[:768]).ljust(768, b"\0"),
                                 numpy.uint8).reshape(256, 3)
        counts = numpy.bincount(numpy.frombuffer(pixels, numpy.uint8), minlength=256)
        mean = counts @ table.astype(numpy.float64) / max(counts.sum(), 1)
        out[entry.text.lower()] = (float(mean[0]), float(mean[1]), float(mean[2]))
    return out


def _reflectivity(bsp: Bsp) -> dict[str, tuple[float, float, float]]:
    """Source: each material's TEXDATA reflectivity as display colour, by name."""
    from ..textures import list_textures

    try:
        rows = list_textures(bsp)
    except BspError:
        return {}
    out = {}
    for row in rows:
        linear = numpy.clip(numpy.array(row.details.get("reflectivity", (0.5,) * 3)), 0, 1)
        shown = 255 * linear ** (1 / GAMMA)
        out[row.name.lower()] = (float(shown[0]), float(shown[1]), float(shown[2]))
    return out


def texture_colours(bsp: Bsp, names: list[str], palette: bytes | None = None) -> Array:
    """(len(names), 3) float: each texture name's colour."""
    engine = bsp.family.engine
    known = {}
    if engine in ("quake1", "goldsrc"):
        known = _miptex_colours(bsp, palette)
    elif engine == "source":
        known = _reflectivity(bsp)
    return numpy.array([known.get(name.lower()) or hashed(name) for name in names],
                       numpy.float64).reshape(-1, 3)


def style_page(atlases: Atlases) -> Array:
    """The page of the normal light (style 0, else the first style) as float RGB, brightened
    as the engines show it."""
    style = 0 if 0 in atlases.pages else atlases.styles[0]
    return numpy.clip(atlases.pages[style].astype(numpy.float32) * atlases.overbright, 0, 255)


def sample(page: Array, uv: Array) -> Array:
    """(N, 3) float32 bilinear samples of `page` (H, W, 3) at atlas pixel coordinates `uv`."""
    height, width = page.shape[:2]
    half = numpy.float32(0.5)
    x = numpy.clip(uv[:, 0].astype(numpy.float32) - half, 0, width - 1)
    y = numpy.clip(uv[:, 1].astype(numpy.float32) - half, 0, height - 1)
    x0, y0 = x.astype(numpy.int32), y.astype(numpy.int32)
    fx = (x - x0.astype(numpy.float32))[:, None]
    fy = (y - y0.astype(numpy.float32))[:, None]
    flat = numpy.ascontiguousarray(page, numpy.float32).reshape(-1, 3)
    at = y0 * width + x0
    right = (x0 < width - 1).astype(numpy.int32)               # the last column: itself
    down = numpy.where(y0 < height - 1, width, 0).astype(numpy.int32)
    top_left, top_right = flat.take(at, axis=0), flat.take(at + right, axis=0)
    low_left, low_right = flat.take(at + down, axis=0), flat.take(at + down + right, axis=0)
    top = top_left + (top_right - top_left) * fx
    bottom = low_left + (low_right - low_left) * fx
    return top + (bottom - top) * fy


#: the legend's size in pixels, and the smallest picture side that gets one
LEGEND_BAR, LEGEND_TEXT, LEGEND_FROM = (120, 8), 11, 160
#: the legend's box (w, h): the bar and its two labels
LEGEND_BOX = (LEGEND_BAR[0] + 8, LEGEND_BAR[1] + LEGEND_TEXT + 10)


def legend_places(width: int, height: int) -> list[tuple[int, int]]:
    """The top-left corners where a picture of `width` x `height` may hold the legend (its
    four corners; none when it is too small for one)."""
    if min(width, height) < LEGEND_FROM:
        return []
    w, h = LEGEND_BOX
    return [(2, 2), (width - w - 2, 2), (2, height - h - 2), (width - w - 2, height - h - 2)]


def label(value: float) -> str:
    return f"{value:.0f}"


def draw_legend(image: Image.Image, z_range: tuple[float, float], at: tuple[int, int]) -> None:
    """Draw the height ramp and its range with the box's top-left at `at`, in pixels of
    `image`, which may hold a band of the picture's rows only: what lies outside it is
    clipped, and each band draws its part."""
    from PIL import ImageDraw

    bar_w, bar_h = LEGEND_BAR
    x, y = at
    draw = ImageDraw.Draw(image)
    draw.rectangle([x, y, x + LEGEND_BOX[0] - 1, y + LEGEND_BOX[1] - 1], fill=(0, 0, 0, 160))
    steps = len(RAMP) - 1
    for i in range(bar_w):
        t = i / max(bar_w - 1, 1) * steps
        low = min(int(t), steps - 1)
        c = RAMP[low] * (1 - (t - low)) + RAMP[low + 1] * (t - low)
        draw.line([x + 4 + i, y + 4, x + 4 + i, y + 3 + bar_h],
                  fill=(int(c[0]), int(c[1]), int(c[2]), 255))
    text_y = y + bar_h + 6
    draw.text((x + 4, text_y), f"z {label(z_range[0])}", fill=(255, 255, 255, 255))
    high = label(z_range[1])
    draw.text((x + 4 + bar_w - 6 * len(high), text_y), high, fill=(255, 255, 255, 255))
