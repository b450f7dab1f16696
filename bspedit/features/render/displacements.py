"""Source displacements as triangles, drawn instead of their base faces.

A displacement (DISPINFO) sits on a four-cornered base face, whose corners are taken from the
one nearest `start_position`. Its (2**power + 1)**2 vertices lie on the base face's grid:
vertex (i, j) is j steps from the edge corner0->corner1 toward the edge corner3->corner2, i
steps along them, moved by its DISP_VERTS `vec * dist`. Each grid square is two triangles;
they face the side the base face faces. A displacement with a vertex that is not a number
or lies beyond `geometry.WORLD` is damaged: its face is "broken", not drawn.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from .. import lookups
from .geometry import REASONS, Geometry, entity_origins, outside_world, select, xyz

if TYPE_CHECKING:
    from ...bsp import Bsp


def add_displacements(bsp: Bsp, geometry: Geometry) -> Geometry:
    """`geometry` (the map's `edge_faces`) with each displaced base face's polygon replaced by
    its triangles."""
    faces = bsp.records(lookups.face_lump(bsp, "FACES"))
    if "dispinfo" not in (faces.dtype.names or ()) or not geometry.count:
        return geometry
    offsets = entity_origins(bsp, len(bsp.records("MODELS")))
    infos = bsp.records("DISPINFO")
    disp_verts = bsp.records("DISP_VERTS")
    with numpy.errstate(invalid="ignore"):      # signalling NaNs in damaged records
        moves = xyz(disp_verts["vec"]) * disp_verts["dist"].astype(numpy.float64)[:, None]
    link = faces["dispinfo"].astype(numpy.int64)
    based = numpy.flatnonzero((link >= 0) & (link < len(infos)))
    at = numpy.minimum(numpy.searchsorted(geometry.face, based), geometry.count - 1)
    sizes = numpy.diff(geometry.starts)
    usable = (geometry.face[at] == based) & (sizes[at] == 4)
    info = infos[link[based[usable]]]
    power = info["power"].astype(numpy.int64)
    first = info["disp_vert_start"].astype(numpy.int64)
    side = (1 << numpy.clip(power, 0, 10)) + 1
    fits = (power >= 1) & (power <= 4) & (first >= 0) & (first + side * side <= len(moves))
    polygons, faces_of = at[usable][fits], based[usable][fits]
    info, power, first = info[fits], power[fits], first[fits]

    corners = geometry.corners[geometry.starts[polygons][:, None] + numpy.arange(4)]
    model = numpy.maximum(geometry.face_model[faces_of], 0)
    start = xyz(info["start_position"]) + offsets[model]
    nearest = numpy.argmin(((corners - start[:, None, :]) ** 2).sum(axis=2), axis=1)
    corners = corners[numpy.arange(len(corners))[:, None], (nearest[:, None] + numpy.arange(4)) % 4]
    normal = geometry.normal[polygons]
    winding = numpy.cross(corners[:, 3] - corners[:, 0], corners[:, 1] - corners[:, 0])
    sign = numpy.where(numpy.einsum("dk,dk->d", winding, normal) < 0, -1.0, 1.0)

    tri_points, tri_face, tri_normal, damaged = [], [], [], []
    for p in numpy.unique(power):
        chosen = numpy.flatnonzero(power == p)
        n = (1 << int(p)) + 1
        t = numpy.linspace(0.0, 1.0, n)
        c = corners[chosen]
        edge0 = c[:, None, 0] + t[None, :, None] * (c[:, None, 1] - c[:, None, 0])   # (D, n, 3)
        edge1 = c[:, None, 3] + t[None, :, None] * (c[:, None, 2] - c[:, None, 3])
        grid = edge0[:, :, None] + t[None, None, :, None] * (edge1 - edge0)[:, :, None]
        with numpy.errstate(invalid="ignore"):      # inf - inf in a damaged vertex
            grid = grid + moves[first[chosen][:, None] + numpy.arange(n * n)].reshape(grid.shape)
        bad = outside_world(grid).any(axis=(1, 2))
        damaged.append(faces_of[chosen][bad])
        chosen, grid = chosen[~bad], grid[~bad]
        i, j = (a.reshape(-1) for a in numpy.meshgrid(numpy.arange(n - 1), numpy.arange(n - 1),
                                                       indexing="ij"))
        a, b, d, e = grid[:, i, j], grid[:, i, j + 1], grid[:, i + 1, j + 1], grid[:, i + 1, j]
        tris = numpy.concatenate([numpy.stack([a, b, d], axis=2),
                                  numpy.stack([a, d, e], axis=2)], axis=1)     # (D, Q, 3, 3)
        cross = numpy.cross(tris[:, :, 1] - tris[:, :, 0], tris[:, :, 2] - tris[:, :, 0])
        cross *= sign[chosen][:, None, None]
        tri_points.append(tris.reshape(-1, 3, 3))
        tri_normal.append(cross.reshape(-1, 3))
        tri_face.append(numpy.repeat(faces_of[chosen], tris.shape[1]))
    if not tri_points:
        return geometry
    keep = numpy.ones(geometry.count, bool)
    keep[polygons] = False
    kept = select(geometry, numpy.flatnonzero(keep))
    hidden = kept.face_hidden.copy()
    hidden[numpy.concatenate(damaged)] = REASONS.index("broken")
    points = numpy.concatenate(tri_points)
    normals = numpy.concatenate(tri_normal)
    length = numpy.linalg.norm(normals, axis=1)
    normals /= numpy.where(length > 0, length, 1)[:, None]
    count = len(points)
    return Geometry(numpy.concatenate([kept.corners, points.reshape(-1, 3)]),
                    numpy.concatenate([kept.starts[:-1],
                                       kept.starts[-1] + numpy.arange(0, 3 * count + 1, 3)]),
                    numpy.concatenate([kept.face, numpy.concatenate(tri_face)]),
                    numpy.concatenate([kept.normal, normals]), kept.face_model,
                    kept.face_texture, hidden, kept.names, displaced=faces_of)
