"""The drawable polygons of any map, picked per family: Quake 3 surfaces (`patches`), the
edge faces of the other families (`geometry.edge_faces`), with Source displacements drawn
instead of their base faces (`displacements`)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .displacements import add_displacements
from .geometry import Geometry, edge_faces
from .patches import surfaces

if TYPE_CHECKING:
    from ...bsp import Bsp


def geometry(bsp: Bsp) -> Geometry:
    """The map's polygons, whatever its family."""
    if bsp.family.engine == "quake3":
        return surfaces(bsp)
    if bsp.family.engine == "source":
        return add_displacements(bsp, edge_faces(bsp))
    return edge_faces(bsp)
