"""Quake 3 surfaces (IBSP 46/47, RBSP, FBSP) as triangles: planar faces and triangle soups
through DRAWINDEXES, patches tessellated from their control grids, flares left out.

A patch's `patch_width` x `patch_height` control points (both odd) form 3x3 blocks sharing
their edges; each block is a biquadratic Bezier surface, cut into `level` x `level` quads
(more for larger blocks). Triangles face the side their vertex normals point to. Surfaces past the engine's limits
(`MAX_VERTS`, `MAX_INDEXES`, `MAX_PATCH_SIDE`), with indices outside their lumps or a vertex
not a number or beyond `geometry.WORLD` are damaged: "broken", not drawn.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from .geometry import (
    REASONS,
    Array,
    Geometry,
    claimed,
    entity_origins,
    face_models,
    once,
    outside_world,
    textures,
    xyz,
)

if TYPE_CHECKING:
    from ...bsp import Bsp

PLANAR, PATCH, TRIANGLE_SOUP, FLARE = 1, 2, 3, 4
#: world units per tessellation step of a patch block, and the steps' bounds
STEP, MIN_LEVEL, MAX_LEVEL = 24.0, 2, 8
#: ioquake3's limits (tr_local.h SHADER_MAX_VERTEXES, SHADER_MAX_INDEXES, MAX_PATCH_SIZE):
#: a surface beyond them is damage
MAX_VERTS, MAX_INDEXES, MAX_PATCH_SIDE = 1000, 6000, 32
#: the most indexes a sound map's surfaces hold per vertex, all surfaces together
INDEXES_PER_VERTEX = 8


def surfaces(bsp: Bsp) -> Geometry:
    """Every surface's triangles (one polygon each), with the surface as its face."""
    records = bsp.records("SURFACES")
    verts = bsp.records("DRAWVERTS")
    points, normals = xyz(verts["xyz"]), xyz(verts["normal"])
    with numpy.errstate(invalid="ignore"):      # signalling NaNs in unlit vertices
        # RBSP, FBSP: four styles' coordinates; the first is the normal light's
        st = numpy.asarray(verts["lightmap"], numpy.float64).reshape(len(verts), -1)[:, :2]
    indexes = bsp.records("DRAWINDEXES")["index"].astype(numpy.int64)
    count = len(records)
    kind = records["surface_type"].astype(numpy.int64)
    first_vert = records["first_vert"].astype(numpy.int64)
    num_verts = records["num_verts"].astype(numpy.int64)
    verts_ok = (first_vert >= 0) & (num_verts >= 0) & (num_verts <= MAX_VERTS) & \
        (first_vert + num_verts <= len(points))
    claimed(bsp, "SURFACES' vertices", int(num_verts[verts_ok].sum()), once(len(points)))
    bad_vertex = outside_world(points)

    texture, names, name_hidden = textures(bsp, records["shader_num"].astype(numpy.int64))
    hidden = name_hidden[texture]
    hidden[(kind == FLARE) & (hidden == 0)] = REASONS.index("flare")
    broken = ~verts_ok

    mesh_vertex, mesh_surface, bad = _mesh_triangles(bsp, records, kind, indexes, verts_ok,
                                                     num_verts, bad_vertex)
    broken |= bad
    blocks, weights, patch_surface, bad = _patch_triangles(records, kind, verts_ok, num_verts,
                                                           points, bad_vertex)
    broken |= bad
    hidden[broken & (hidden == 0)] = REASONS.index("broken")
    surface = numpy.concatenate([mesh_surface, patch_surface])
    corner = numpy.concatenate([points[mesh_vertex], _blend(blocks, weights, points)])
    corner_st = numpy.concatenate([st[mesh_vertex], _blend(blocks, weights, st)])
    corner_normal = numpy.concatenate([normals[mesh_vertex],
                                       _blend(blocks, weights, normals)]).sum(axis=1)

    model = face_models(bsp, count)
    offsets = entity_origins(bsp, len(bsp.records("MODELS")))
    corner += offsets[numpy.maximum(model[surface], 0)][:, None, :]
    normal = numpy.cross(corner[:, 1] - corner[:, 0], corner[:, 2] - corner[:, 0])
    plane = xyz(records["lightmap_vecs"][:, 2])        # a planar surface's plane normal
    no_normals = (numpy.abs(corner_normal).sum(axis=1) < 1e-6) & (kind[surface] == PLANAR)
    reference = numpy.where(no_normals[:, None], plane[surface], corner_normal)
    normal[numpy.einsum("td,td->t", normal, reference) < 0] *= -1
    length = numpy.linalg.norm(normal, axis=1)
    normal = normal / numpy.where(length > 0, length, 1)[:, None]
    starts = numpy.arange(0, 3 * len(surface) + 1, 3, dtype=numpy.int64)
    return Geometry(corner.reshape(-1, 3), starts, surface, normal, model, texture, hidden,
                    names, corner_st.reshape(-1, 2))


def _blend(blocks: Array, weights: Array, values: Array) -> Array:
    """(T, 3, D): each patch triangle corner's weighted sum of its block's 9 control values."""
    if not len(blocks):
        return numpy.zeros((0, 3, values.shape[1]))
    return numpy.einsum("tck,tkd->tcd", weights, values[blocks])


def _mesh_triangles(bsp: Bsp, records: Array, kind: Array, indexes: Array, verts_ok: Array,
                    num_verts: Array, bad_vertex: Array) -> tuple[Array, Array, Array]:
    """Planar surfaces' and triangle soups' triangles as (T, 3) draw vertex numbers, their
    surfaces, and which surfaces are damaged: indexes outside their vertexes or lumps, a
    vertex in `bad_vertex`."""
    first = records["first_index"].astype(numpy.int64)
    count = records["num_indexes"].astype(numpy.int64)
    mesh = (kind == PLANAR) | (kind == TRIANGLE_SOUP)
    ok = mesh & verts_ok & (first >= 0) & (count >= 3) & (count <= MAX_INDEXES) & \
        (first + count <= len(indexes))
    bad = mesh & ~ok & (count != 0)
    sizes = numpy.where(ok, count - count % 3, 0)
    # surfaces share index lists, but a vertex is in a few triangles (the corpus: 4.5
    # indexes a vertex at most)
    claimed(bsp, "SURFACES' indexes", int(sizes.sum()),
            INDEXES_PER_VERTEX * int(num_verts[ok].sum()) + 1024)
    starts = numpy.zeros(len(records) + 1, numpy.int64)
    numpy.cumsum(sizes, out=starts[1:])
    at = numpy.repeat(first - starts[:-1], sizes) + numpy.arange(starts[-1])
    owner = numpy.repeat(numpy.arange(len(records)), sizes)
    local = indexes[at]
    good = (local >= 0) & (local < num_verts[owner])
    vertex = numpy.where(good, local, 0) + records["first_vert"].astype(numpy.int64)[owner]
    numpy.logical_or.at(bad, owner, ~good | bad_vertex[vertex])
    keep = ~bad[owner[::3]]
    return vertex.reshape(-1, 3)[keep], owner[::3][keep], bad


def _basis(level: int) -> Array:
    """(level+1, 3) quadratic Bernstein weights at level+1 even steps."""
    u = numpy.linspace(0.0, 1.0, level + 1)
    return numpy.stack([(1 - u) ** 2, 2 * u * (1 - u), u ** 2], axis=1)


def _patch_triangles(records: Array, kind: Array, verts_ok: Array, num_verts: Array,
                     points: Array, bad_vertex: Array) -> tuple[Array, Array, Array, Array]:
    """Tessellated patches: per triangle its block's 9 control vertices (T, 9), the corners'
    weights (T, 3, 9), its surface; and which patch surfaces are malformed or have a
    control point in `bad_vertex`."""
    width = records["patch_width"].astype(numpy.int64)
    height = records["patch_height"].astype(numpy.int64)
    patch = kind == PATCH
    ok = patch & verts_ok & (width >= 3) & (height >= 3) & (width % 2 == 1) & \
        (height % 2 == 1) & (width <= MAX_PATCH_SIDE) & (height <= MAX_PATCH_SIDE) & \
        (width * height <= num_verts)
    blocks, owners = [numpy.zeros((0, 9), numpy.int64)], [numpy.zeros(0, numpy.int64)]
    for number in numpy.flatnonzero(ok):
        w, first = int(width[number]), int(records["first_vert"][number])
        rows, cols = numpy.meshgrid(numpy.arange(0, int(height[number]) - 1, 2),
                                    numpy.arange(0, w - 1, 2), indexing="ij")
        offsets = (numpy.arange(3)[:, None] * w + numpy.arange(3)[None, :]).reshape(-1)
        base = (first + rows * w + cols).reshape(-1, 1)
        blocks.append(base + offsets)
        owners.append(numpy.full(len(base), number))
    block, owner = numpy.concatenate(blocks), numpy.concatenate(owners)
    damaged = numpy.zeros(len(records), bool)
    numpy.logical_or.at(damaged, owner, bad_vertex[block].any(axis=1))
    kept = ~damaged[owner]
    block, owner = block[kept], owner[kept]
    bad = patch & (~ok | damaged)
    control = points[block]                                   # (B, 9, 3)
    extent = (control.max(axis=1) - control.min(axis=1)).max(axis=1) if len(block) else \
        numpy.zeros(0)
    levels = numpy.clip(numpy.ceil(extent / STEP), MIN_LEVEL, MAX_LEVEL).astype(numpy.int64)
    out_block, out_weight, out_owner = [numpy.zeros((0, 9), numpy.int64)], \
        [numpy.zeros((0, 3, 9))], [numpy.zeros(0, numpy.int64)]
    for level in numpy.unique(levels):
        chosen = numpy.flatnonzero(levels == level)
        weights = _block_weights(int(level))                  # (Q, 3, 9)
        out_block.append(numpy.repeat(block[chosen], len(weights), axis=0))
        out_weight.append(numpy.tile(weights, (len(chosen), 1, 1)))
        out_owner.append(numpy.repeat(owner[chosen], len(weights)))
    return (numpy.concatenate(out_block), numpy.concatenate(out_weight),
            numpy.concatenate(out_owner), bad)


def _block_weights(level: int) -> Array:
    """(2 * level**2, 3, 9): the control weights of each triangle corner of one block cut
    into level x level quads, two triangles each."""
    basis = _basis(level)
    # weight of control (i, j) (row i, column j) at grid (r, c): basis[r, i] * basis[c, j]
    weights = numpy.einsum("ri,cj->rcij", basis, basis).reshape(level + 1, level + 1, 9)
    r, c = (a.reshape(-1) for a in numpy.meshgrid(numpy.arange(level), numpy.arange(level),
                                                   indexing="ij"))
    a, b, d, e = weights[r, c], weights[r, c + 1], weights[r + 1, c + 1], weights[r + 1, c]
    return numpy.concatenate([numpy.stack([a, b, d], axis=1), numpy.stack([a, d, e], axis=1)])
