"""The world's BSP tree for the minimap and radars: its sound planes, a walk with every damaged
reference cut, the leaves under a node, and pixel columns traced through it.

A damaged tree must neither stop the picture nor loop: a node on a plane that is not sound
(`sound_planes`: a normal that is not a unit vector, a distance beyond the world), a child
index past NODES or LEAFS, and a node met again (a cycle, a shared node) end the walk there,
counted.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .geometry import WORLD, unit, xyz

if TYPE_CHECKING:
    from ...bsp import Bsp

#: a child reference cut from a damaged tree (past every node index)
CUT = 1 << 62
#: Quake 1 / GoldSrc leaf contents of solid
LEAF_SOLID = -2                  # CONTENTS_SOLID (-1 is CONTENTS_EMPTY)


def sound_planes(bsp: Bsp) -> tuple[Any, Any, Any]:
    """PLANES' normals and distances, and which planes are sound: a unit normal, a distance
    within the world."""
    import numpy as np

    planes = bsp.records("PLANES")
    normals = xyz(planes["normal"])
    with np.errstate(invalid="ignore"):         # signalling NaNs in damaged records
        dists = planes["dist"].astype(np.float64)
        return normals, dists, unit(normals) & (np.abs(dists) <= 2 * WORLD)


def sound_tree(bsp: Bsp, head: int, sound: Any = None) -> tuple[Any, Any, int]:
    """The world's tree under node `head` as NODES' children, walked a level at a time, with
    every reference that is damaged cut (`CUT`): to a node met before (a cycle, a shared
    node) or, given `sound` per node, to one that is not sound. Also which nodes the walk
    reached and how many references it cut."""
    import numpy as np

    kids = bsp.records("NODES")["children"].astype(np.int64).copy()
    count = len(kids)
    walked = np.zeros(count, dtype=bool)
    cut = 0
    level = np.array([head], dtype=np.int64)
    if 0 <= head < count and sound is not None and not sound[head]:
        level, cut = level[:0], 1           # the whole tree is cut
    while len(level):
        inner = level[(level >= 0) & (level < count)]
        walked[inner] = True
        child = kids[inner].ravel()
        node = (child >= 0) & (child < count)
        at = np.where(node, child, 0)
        _, first = np.unique(np.where(node, child, -1), return_index=True)
        again = node & (walked[at] | ~np.isin(np.arange(len(child)), first))
        if sound is not None:
            again |= node & ~sound[at]
        cut += int(again.sum())
        child[again] = CUT
        kids[inner] = child.reshape(-1, 2)
        level = child[node & ~again]
    return kids, walked, cut


def world_leaves(bsp: Bsp, head: int) -> Any:
    """The leaves under node `head`."""
    import numpy as np

    kids, walked, _ = sound_tree(bsp, head)
    below = kids[walked].ravel()
    found = np.unique(-1 - np.append(below[below < 0], min(head, 0)))
    return found[(found >= 0) & (found < len(bsp.records("LEAFS")))]


def trace_columns(bsp: Bsp, xs: Any, ys: Any, low: float,
                  high: float) -> tuple[Any, Any, Any, Any, int]:
    """Trace the vertical column through every pixel centre (`xs` west to east, `ys` south
    to north, as many), from height `low` to `high`, through the world's tree (hull 0): the
    solid pieces (pixel row * size + column, bottom, top: in CONTENTS_SOLID leaves), the
    columns that meet no open leaf, and the damaged references the pieces ended at."""
    import numpy as np

    nodes, leafs = bsp.records("NODES"), bsp.records("LEAFS")
    head = int(np.asarray(bsp.records("MODELS")[0]["headnode"]).ravel()[0])
    normals, dists, sound = sound_planes(bsp)
    plane_of = nodes["planenum"].astype(np.int64)
    plane_of = np.where((plane_of >= 0) & (plane_of < len(sound)), plane_of, -1)
    node_sound = (plane_of >= 0) & sound[plane_of]
    children, _, broken = sound_tree(bsp, head, node_sound)
    if 0 <= head < len(nodes) and not node_sound[head]:
        head = CUT
    contents = leafs["contents"].astype(np.int64)
    size = len(xs)
    total = size * size
    pix = np.arange(total)
    col_x, col_y = xs[pix % size], ys[pix // size]
    z0 = np.full(total, low)
    z1 = np.full(total, high)
    node = np.full(total, head, dtype=np.int64)
    solid: list[tuple[Any, Any, Any]] = []
    opened = np.zeros(total, dtype=bool)
    lost_leaves: set[int] = set()
    lost_nodes: set[int] = set()
    while len(node):
        leaf = node < 0
        gone = node >= len(nodes)           # a cut reference, a node past NODES
        if leaf.any():
            index = -1 - node[leaf]
            inside = index < len(contents)
            lost_leaves.update(np.unique(index[~inside]).tolist())
            is_solid = np.zeros(len(index), dtype=bool)
            is_solid[inside] = contents[index[inside]] == LEAF_SOLID
            where = pix[leaf]
            solid.append((where[is_solid], z0[leaf][is_solid], z1[leaf][is_solid]))
            opened[where[inside & ~is_solid]] = True
        if gone.any():
            lost_nodes.update(np.unique(node[gone][node[gone] != CUT]).tolist())
        if leaf.any() or gone.any():
            keep = ~leaf & ~gone
            pix, col_x, col_y, z0, z1, node = (a[keep] for a in (pix, col_x, col_y, z0, z1,
                                                                 node))
        if not len(node):
            break
        plane = plane_of[node]
        normal, dist = normals[plane], dists[plane]
        flat = normal[:, 0] * col_x + normal[:, 1] * col_y - dist
        f0 = flat + normal[:, 2] * z0
        f1 = flat + normal[:, 2] * z1
        front0, front1 = f0 >= 0, f1 >= 0
        split = front0 != front1
        with np.errstate(divide="ignore", invalid="ignore"):
            cut = z0 + (z1 - z0) * (f0 / (f0 - f1))
        kids = children[node]
        # the piece from z0 keeps its slot; a split adds the piece from the cut to z1
        extra = np.flatnonzero(split)
        pix = np.concatenate([pix, pix[extra]])
        col_x = np.concatenate([col_x, col_x[extra]])
        col_y = np.concatenate([col_y, col_y[extra]])
        new_z0 = np.concatenate([z0, cut[extra]])
        z1 = np.concatenate([np.where(split, cut, z1), z1[extra]])
        z0 = new_z0
        node = np.concatenate([np.where(front0, kids[:, 0], kids[:, 1]),
                               np.where(front1[extra], kids[extra, 0], kids[extra, 1])])
    pieces = [np.concatenate(p) for p in zip(*solid)] if solid else \
        [np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(0)]
    return pieces[0], pieces[1], pieces[2], ~opened, \
        broken + len(lost_leaves) + len(lost_nodes)
