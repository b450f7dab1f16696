"""A `Picture` as PNG (antialiased raster, the frame in tEXt chunks) or SVG (one path per
face, the frame in `<metadata>` and attributes, viewBox in pixels), and the height legend.

The frame's JSON (`Frame.to_json`: world bounds, units per pixel, pixel size) is the tEXt
chunk `bspedit:frame` of the PNG and the `<metadata id="bspedit-frame">` of the SVG: with it
a pixel maps back to world coordinates.
"""
from __future__ import annotations

import io
import json
from collections.abc import Iterable
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from .colors import RAMP

if TYPE_CHECKING:
    from PIL import Image

    from .picture import Picture

FRAME_KEY = "bspedit:frame"
#: the legend's size in pixels, and the smallest picture side that gets one
LEGEND_BAR, LEGEND_TEXT, LEGEND_FROM = (120, 8), 11, 160


def _corner(image: Image.Image, box: tuple[int, int]) -> tuple[int, int]:
    """The top-left of the picture corner where a `box` (w, h) covers the fewest drawn
    pixels (the legend hides as little of the map as it can)."""
    import numpy

    alpha = numpy.asarray(image.getchannel("A"))
    w, h = box
    width, height = image.size
    places = [(2, 2), (width - w - 2, 2), (2, height - h - 2), (width - w - 2, height - h - 2)]
    return min(places, key=lambda p: int(alpha[p[1]:p[1] + h, p[0]:p[0] + w].sum()))


def _label(value: float) -> str:
    return f"{value:.0f}"


def draw_legend(image: Image.Image, z_range: tuple[float, float]) -> None:
    """Draw the height ramp and its range into a corner of `image` (when it is large
    enough)."""
    from PIL import ImageDraw

    if min(image.size) < LEGEND_FROM:
        return
    bar_w, bar_h = LEGEND_BAR
    box = (bar_w + 8, bar_h + LEGEND_TEXT + 10)
    x, y = _corner(image, box)
    draw = ImageDraw.Draw(image)
    draw.rectangle([x, y, x + box[0] - 1, y + box[1] - 1], fill=(0, 0, 0, 160))
    steps = len(RAMP) - 1
    for i in range(bar_w):
        t = i / max(bar_w - 1, 1) * steps
        low = min(int(t), steps - 1)
        c = RAMP[low] * (1 - (t - low)) + RAMP[low + 1] * (t - low)
        draw.line([x + 4 + i, y + 4, x + 4 + i, y + 3 + bar_h],
                  fill=(int(c[0]), int(c[1]), int(c[2]), 255))
    text_y = y + bar_h + 6
    draw.text((x + 4, text_y), f"z {_label(z_range[0])}", fill=(255, 255, 255, 255))
    high = _label(z_range[1])
    draw.text((x + 4 + bar_w - 6 * len(high), text_y), high, fill=(255, 255, 255, 255))


def png_bytes(picture: Picture) -> bytes:
    """The picture as PNG, the frame in the tEXt chunk `bspedit:frame`."""
    from PIL.PngImagePlugin import PngInfo

    info = PngInfo()
    info.add_text(FRAME_KEY, json.dumps(picture.frame.to_json()))
    info.add_text("Software", "bspedit render")
    out = io.BytesIO()
    picture.image.save(out, format="PNG", pnginfo=info)
    return out.getvalue()


def _svg_legend(picture: Picture) -> list[str]:
    if picture.legend is None or min(picture.frame.width, picture.frame.height) < LEGEND_FROM:
        return []
    stops = "".join(f'<stop offset="{n / (len(RAMP) - 1):.2f}" stop-color="{_hex(c)}"/>'
                    for n, c in enumerate(RAMP))
    bar_w, bar_h = LEGEND_BAR
    low, high = _label(picture.legend["min_z"]), _label(picture.legend["max_z"])
    return [f'<defs><linearGradient id="ramp">{stops}</linearGradient></defs>',
            '<g id="legend" font-family="sans-serif" font-size="10" fill="#fff">',
            (f'<rect x="2" y="2" width="{bar_w + 8}" height="{bar_h + LEGEND_TEXT + 10}" '
             'fill="#000" fill-opacity="0.63"/>'),
            f'<rect x="6" y="6" width="{bar_w}" height="{bar_h}" fill="url(#ramp)"/>',
            f'<text x="6" y="{bar_h + 18}">z {low}</text>',
            f'<text x="{6 + bar_w}" y="{bar_h + 18}" text-anchor="end">{high}</text>',
            "</g>"]


def _hex(colour: Iterable[float]) -> str:
    r, g, b = (max(0, min(255, round(float(v)))) for v in colour)
    return f"#{r:02x}{g:02x}{b:02x}"


def svg_bytes(picture: Picture) -> bytes:
    """The picture as SVG: one `<path>` per face (its polygons as subpaths), lowest first,
    stroked with its own colour so that neighbours leave no hairline gaps."""
    frame = picture.frame
    meta = json.dumps(frame.to_json())
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             (f'<svg xmlns="http://www.w3.org/2000/svg" width="{frame.width}" '
              f'height="{frame.height}" viewBox="0 0 {frame.width} {frame.height}" '
              f'data-min-x="{frame.min_x!r}" data-max-y="{frame.max_y!r}" '
              f'data-units-per-pixel="{frame.scale!r}">'),
             f'<metadata id="bspedit-frame">{escape(meta)}</metadata>',
             '<g id="faces" stroke-width="0.6" stroke-linejoin="round">']
    for face, rgb, polygons in picture.outlines():
        d = " ".join("M" + " L".join(f"{x:.2f} {y:.2f}" for x, y in polygon.tolist()) + "Z"
                     for polygon in polygons)
        colour = _hex(rgb)
        lines.append(f'<path data-face="{face}" fill="{colour}" stroke="{colour}" d="{d}"/>')
    lines.append("</g>")
    lines.extend(_svg_legend(picture))
    lines.append("</svg>\n")
    return "\n".join(lines).encode("utf-8")
