"""A `Picture` as PNG (antialiased raster, the frame in tEXt chunks) or SVG (one path per
face, the frame in `<metadata>` and attributes, viewBox in pixels), and the height legend.

The frame's JSON (`Frame.to_json`: world bounds, units per pixel, pixel size) is the tEXt
chunk `bspedit:frame` of the PNG and the `<metadata id="bspedit-frame">` of the SVG: with it
a pixel maps back to world coordinates.

The PNG is written as its rows are made (`png_chunks`): Pillow writes a PNG from a whole
image only, which at 16384 px is a gigabyte, so the chunks are written here (signature, IHDR,
tEXt, IDAT from one `zlib.compressobj`, IEND), each band of rows filtered (`_scanlines`) and
deflated as it comes.
"""
from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

import numpy

from .colors import LEGEND_BAR, LEGEND_FROM, LEGEND_TEXT, RAMP, label
from .geometry import Array

if TYPE_CHECKING:
    from .picture import Picture

FRAME_KEY = "bspedit:frame"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: compressed bytes gathered into one IDAT chunk
IDAT_SIZE = 1 << 18
#: the PNG filter type of every row: Up
UP = 2


def png_chunks(picture: Picture, advance: Callable[[int], None] | None = None
               ) -> Iterator[bytes]:
    """The picture as PNG, in pieces, its pixels made band by band as they are written
    (RGBA, 8 bits; the frame in the tEXt chunk `bspedit:frame`). `advance(rows)` is called
    after each band."""
    frame = picture.frame
    yield PNG_SIGNATURE + _chunk(b"IHDR", struct.pack(">IIBBBBB", frame.width, frame.height,
                                                       8, 6, 0, 0, 0))
    for key, text in ((FRAME_KEY, json.dumps(frame.to_json())), ("Software", "bspedit render")):
        yield _chunk(b"tEXt", key.encode("latin-1") + b"\0" + text.encode("latin-1"))
    deflate = zlib.compressobj()
    above = numpy.zeros(frame.width * 4, numpy.uint8)
    pending = bytearray()
    for band in picture.rows():
        rows = band.reshape(len(band), -1)
        pending += deflate.compress(_scanlines(rows, above))
        above = rows[-1]
        if len(pending) >= IDAT_SIZE:
            yield _chunk(b"IDAT", bytes(pending))
            pending.clear()
        if advance is not None:
            advance(len(band))
    pending += deflate.flush()
    yield _chunk(b"IDAT", bytes(pending)) + _chunk(b"IEND", b"")


def png_bytes(picture: Picture) -> bytes:
    """The picture as PNG (`png_chunks`), whole."""
    return b"".join(png_chunks(picture))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + \
        struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def _scanlines(rows: Array, above: Array) -> bytes:
    """PNG scanlines of `rows` ((n, stride) uint8; `above`: the row before the first), each
    with filter Up (the difference from the row above): one subtraction, and on these
    pictures' large flat areas files as small as Pillow's choice per row (within 12% at
    1024 px, smaller at 4096 px and above), which costs as much as all the drawing."""
    out = numpy.empty((len(rows), rows.shape[1] + 1), numpy.uint8)
    out[:, 0] = UP
    numpy.subtract(rows[1:], rows[:-1], out=out[1:, 1:])
    numpy.subtract(rows[0], above, out=out[0, 1:])
    return out.tobytes()


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
