"""A BSPX BRUSHLIST (ericw-tools: each model's brushes, for engines' collision; the layout is
`bspedit.lumps.brushlist`) moved by a translation, as `shift` moves the other lumps: each
brush's bounds by the offset, each of its planes' distance by normal . offset (the planes it
lists are the brush's non-axial ones; the axial ones are its bounds). The brushes of models
placed by their entity's origin key stay (they are relative to it, like the models' own
geometry). Floats are float32: shifting back gives the bounds back exactly when they and the
offset are whole, the distances within float32 rounding."""
from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any

import numpy

from ...format.bspx import bspx_directory
from ...lumps.brushlist import BrushList

if TYPE_CHECKING:
    from ...bsp import Bsp

NAME = "BRUSHLIST"


def moved_brushlist(bsp: Bsp, move: numpy.ndarray[Any, Any], local: set[int],
                    ) -> tuple[bytes | None, int]:
    """The map's trailing data with its BSPX BRUSHLIST moved by `move` (x, y, z), except the
    brushes of the models in `local`, and the brushes moved; (None, 0) without such a lump.
    For `Bsp.replace_tail`. BspError for a lump that does not parse."""
    from ...errors import BspError

    tail = bsp.layout.tail
    data = bsp.read_range(tail.start, tail.end) if tail else b""
    directory = bspx_directory(data) if tail else None
    entries = [e for e in directory.lumps if e.name.rstrip(b"\0").decode("latin-1") == NAME] \
        if directory and tail else []
    if not entries or tail is None:
        return None, 0
    out, moved = bytearray(data), 0
    for entry in entries:
        start = entry.offset - tail.start
        if not (0 <= start and start + entry.length <= len(data)):
            raise BspError(f"BSPX {NAME} ({entry.length} bytes at {entry.offset}) is outside "
                           f"the trailing data", path=bsp.path)
        model = BrushList.parse(data[start:start + entry.length])
        if model.raw is not None:
            raise BspError(f"BSPX {NAME} does not parse (version 1 models): bspedit cannot "
                           f"move its brushes", path=bsp.path)
        for item in model.models:
            if item.model in local:
                continue
            for brush in item.brushes:
                brush.bounds = tuple(_bits(_floats(brush.bounds) + numpy.tile(move, 2)))
                brush.planes = [_moved_plane(_floats(plane), move) for plane in brush.planes]
                moved += 1
        out[start:start + entry.length] = model.to_bytes()
    return bytes(out), moved


def _moved_plane(plane: numpy.ndarray[Any, Any], move: numpy.ndarray[Any, Any],
                 ) -> tuple[int, int, int, int]:
    """A plane (normal, dist) moved: the normal kept, dist + normal . move."""
    a, b, c, d = _bits(numpy.append(plane[:3], plane[3] + plane[:3] @ move))
    return a, b, c, d


def _floats(bits: tuple[int, ...]) -> numpy.ndarray[Any, Any]:
    """float32 bit patterns as float64 values."""
    return numpy.array(struct.unpack(f"<{len(bits)}f", struct.pack(f"<{len(bits)}I", *bits)),
                       numpy.float64)


def _bits(values: numpy.ndarray[Any, Any]) -> list[int]:
    """float64 values as float32 bit patterns."""
    return list(values.astype("<f4").view("<u4").tolist())
