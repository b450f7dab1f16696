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

from .colors import LEGEND_BAR, LEGEND_FROM, LEGEND_TEXT, RAMP, label

if TYPE_CHECKING:

    from .picture import Picture

FRAME_KEY = "bspedit:frame"
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
    low, high = label(picture.legend["min_z"]), label(picture.legend["max_z"])
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
