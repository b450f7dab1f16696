"""The planes that join merged maps' trees: the maps' bounds are split recursively by axial
planes between them (a balanced tree of k - 1 splitting nodes for k maps), and the splits are
written as nodes (hull 0) and clipnodes (hulls 1-3) above each map's own head nodes."""
from __future__ import annotations

from dataclasses import dataclass

from ...errors import BspError

Box = tuple[tuple[float, float, float], tuple[float, float, float]]


@dataclass(frozen=True, slots=True)
class Split:
    """A splitting node: points with coordinate `axis` >= `dist` go to `front`, others `back`.
    A subtree is a Split or the index of a map."""

    axis: int
    dist: float
    front: Tree
    back: Tree
    box: Box            # the bounds of every map below


Tree = Split | int


def overlap(a: Box, b: Box) -> Box | None:
    """The box two bounds share (touching faces do not count), or None."""
    mins = tuple(max(a[0][k], b[0][k]) for k in range(3))
    maxs = tuple(min(a[1][k], b[1][k]) for k in range(3))
    if all(mins[k] < maxs[k] for k in range(3)):
        return (mins[0], mins[1], mins[2]), (maxs[0], maxs[1], maxs[2])
    return None


def union(boxes: list[Box]) -> Box:
    mins = tuple(min(b[0][k] for b in boxes) for k in range(3))
    maxs = tuple(max(b[1][k] for b in boxes) for k in range(3))
    return (mins[0], mins[1], mins[2]), (maxs[0], maxs[1], maxs[2])


def split(boxes: dict[int, Box]) -> Tree:
    """A tree of axial planes that puts every map's bounds on its own side. The most balanced
    cut is taken at each level, its plane halfway between the two groups. BspError when the
    bounds cannot be separated by such planes (boxes arranged like a pinwheel)."""
    if len(boxes) == 1:
        return next(iter(boxes))
    best: tuple[int, int, float, list[int], list[int]] | None = None
    for axis in range(3):
        order = sorted(boxes, key=lambda i: (boxes[i][0][axis], boxes[i][1][axis]))
        for cut in range(1, len(order)):
            low, high = order[:cut], order[cut:]
            top = max(boxes[i][1][axis] for i in low)
            bottom = min(boxes[i][0][axis] for i in high)
            if top > bottom:
                continue
            balance = abs(len(low) - len(high))
            if best is None or balance < best[0]:
                best = (balance, axis, (top + bottom) / 2, low, high)
    if best is None:
        raise BspError("the maps' bounds cannot be told apart by axial planes (each pair is "
                       "apart, but no plane puts one group on each side): shift them apart "
                       "along one axis")
    _, axis, dist, low, high = best
    return Split(axis, dist, split({i: boxes[i] for i in high}), split({i: boxes[i] for i in low}),
                 union(list(boxes.values())))


def splits(tree: Tree) -> list[Split]:
    """The splitting nodes in preorder (the root first): the order they are written in."""
    if isinstance(tree, int):
        return []
    return [tree, *splits(tree.front), *splits(tree.back)]
