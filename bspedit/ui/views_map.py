"""The Map view's data: the top-down picture (`render`'s, the 3D skybox left out as `render`
leaves it out by default), its frame, and a marker per entity with a place, in the picture's
pixels, so the page puts them over the picture without knowing the map's coordinates."""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import BspError

if TYPE_CHECKING:
    from ..bsp import Bsp
    from ..features.render.picture import Picture
    from ..features.render.raster import Frame
    from ..lumps.entities import Entity

#: the picture's longer side, by default and at most (the page zooms the picture it has)
DEFAULT_SIZE, MAX_SIZE = 1024, 4096
#: the colour modes the page offers (`render --color`; lightmap is left to the CLI)
COLORS = ("height", "texture")


def picture(bsp: Bsp, *, size: int = DEFAULT_SIZE, color: str = "height") -> Picture:
    """The map seen from above as `render` draws it by default (brush entities in, sky floor
    drawn pale, the 3D skybox and overhead covers left out), `size` pixels on its longer side.
    BspError for a size or colour the page does not offer; CheckFailed when nothing would be
    drawn (`render`'s exit 1)."""
    from ..features.render.picture import topdown

    if not 16 <= size <= MAX_SIZE:
        raise BspError(f"picture size {size}: give 16 to {MAX_SIZE} pixels")
    if color not in COLORS:
        raise BspError(f"colour {color!r}: one of {', '.join(COLORS)}")
    return topdown(bsp, size=size, color=color)


def png(shown: Picture) -> bytes:
    """The picture as PNG, its frame in the `bspedit:frame` tEXt chunk (as `render` writes)."""
    from ..features.render.writers import png_bytes

    return png_bytes(shown)


def markers(bsp: Bsp, entities: Sequence[Entity], frame: Frame) -> list[dict[str, Any]]:
    """A marker per entity with a place: its `origin`, or for a brush entity (`"model"
    "*N"`) the centre of its model's box moved by its origin. Each gives the entity's index,
    class and name, its world point and its pixel (x right, y down) in `frame`; entities
    without a place (worldspawn, logic without an origin) have none."""
    import numpy

    from ..features.logic.check import model_bounds

    models = model_bounds(bsp) or []
    found: list[tuple[int, Entity, tuple[float, float, float]]] = []
    for index, entity in enumerate(entities):
        point = place(entity, models)
        if point is not None:
            found.append((index, entity, point))
    if not found:
        return []
    world = numpy.array([p for _, _, p in found], dtype=numpy.float64)
    pixels = frame.to_pixels(world).round(1).tolist()
    return [{"index": index, "classname": entity.get("classname", ""),
             "targetname": entity.get("targetname", ""), "world": list(point),
             "x": xy[0], "y": xy[1]}
            for (index, entity, point), xy in zip(found, pixels)]


def place(entity: Entity, models: Sequence[tuple[tuple[float, ...], tuple[float, ...]]]
          ) -> tuple[float, float, float] | None:
    """Where an entity stands: its `origin` (three numbers), plus the centre of its brush
    model's box when it has one of the map's (`*N`, N > 0); None for neither."""
    origin = _vector(entity.get("origin", ""))
    model = entity.get("model", "")
    number = int(model[1:]) if model.startswith("*") and model[1:].isdigit() else 0
    if 0 < number < len(models):
        lo, hi = models[number]
        base = origin or (0.0, 0.0, 0.0)
        x, y, z = ((a + b) / 2 + o for a, b, o in zip(lo, hi, base))
        return x, y, z
    return origin


def _vector(text: str) -> tuple[float, float, float] | None:
    try:
        x, y, z = (float(v) for v in text.split())
    except ValueError:
        return None
    return (x, y, z) if all(map(math.isfinite, (x, y, z))) else None
