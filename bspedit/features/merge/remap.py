"""Index remapping of merged maps' records: the orders faces and leafs take (each map's world
first, so model 0's ranges are contiguous), and the arithmetic that moves each index field.

Arrays are the maps' record arrays (numpy structured); values are computed in int64 and put
back with `put`, which refuses (BspError) a value its field cannot hold.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy

from ...errors import BspError

Array = numpy.ndarray[Any, Any]


def put(records: Array, name: str, values: Array | int, lump: str) -> None:
    """Store `values` in the integer field `name`; BspError when one does not fit it."""
    kind = records.dtype[name].base
    values = numpy.asarray(values, dtype=numpy.int64)
    if kind.kind in "iu" and values.size:
        info = numpy.iinfo(kind)
        low, high = int(values.min()), int(values.max())
        if low < info.min or high > info.max:
            raise BspError(f"the merged map's {lump} {name} would reach "
                           f"{high if high > info.max else low}, past what its {kind} field "
                           f"holds ({info.min}..{info.max})")
    records[name] = values


def wide(records: Array, name: str) -> Array:
    return records[name].astype(numpy.int64)


def dedupe(records: Array, group: int = 1) -> tuple[Array, Array]:
    """Equal records (same bytes) kept once, in the order of their first use; and each
    record's new index. `group`: records go in runs of that many, compared and kept as one
    (Quake 2 planes: a plane and its flipped twin)."""
    if not len(records):
        return records, numpy.zeros(0, numpy.int64)
    runs = numpy.ascontiguousarray(records).reshape(-1, group)
    raw = runs.view(numpy.dtype((numpy.void, records.dtype.itemsize * group))).ravel()
    _, first, inverse = numpy.unique(raw, return_index=True, return_inverse=True)
    order = numpy.argsort(first, kind="stable")
    rank = numpy.empty_like(order)
    rank[order] = numpy.arange(len(order))
    index = rank[inverse.ravel()].astype(numpy.int64)[:, None] * group + numpy.arange(group)
    return runs[first[order]].reshape(-1), index.reshape(-1)


def offset_where(values: Array, offset: int, keep_below: int = 0) -> Array:
    """`values + offset`, except values below `keep_below` (-1 and such: no index)."""
    return numpy.where(values >= keep_below, values + offset, values)


def surfedges(edges: Array, offset: int) -> Array:
    """Signed edge numbers moved by `offset` (the sign says the edge's direction)."""
    return numpy.where(edges >= 0, edges + offset, edges - offset)


def children(values: Array, node_offset: int, leaf_map: Array) -> Array:
    """Node children: a node (>= 0) moved by `node_offset`, a leaf (-1 - leaf) renumbered."""
    leafs = -1 - values
    safe = numpy.clip(leafs, 0, max(len(leaf_map) - 1, 0))
    return numpy.where(values >= 0, values + node_offset, -1 - leaf_map[safe])


def first_of(first: Array, count: Array, index_map: Array) -> Array:
    """A range's new first index (ranges stay contiguous); empty ranges start at 0."""
    if not len(index_map):
        return numpy.zeros_like(first)
    safe = numpy.clip(first, 0, len(index_map) - 1)
    return numpy.where(count > 0, index_map[safe], 0)


@dataclass
class Ranges:
    """An order of records taken from several maps: (map, first, count) ranges in merged order,
    and each map's old index -> merged index (ranges may not share records)."""

    parts: list[tuple[int, int, int]]
    maps: list[Array]

    @classmethod
    def build(cls, sizes: list[int], groups: list[list[tuple[int, int, int]]],
              same: Sequence[tuple[int, int, int]] = ()) -> Ranges:
        """`groups`: lists of (map, first, count) placed in turn; `same`: (map, record,
        merged index) of records that are another's (leaf 0); records of no range follow,
        map by map, in their own order."""
        maps = [numpy.full(size, -1, numpy.int64) for size in sizes]
        for source, record, merged in same:
            maps[source][record] = merged
        parts: list[tuple[int, int, int]] = []
        at = 0
        for group in groups:
            for source, first, count in group:
                if count <= 0:
                    continue
                block = maps[source][first:first + count]
                if (block >= 0).any():
                    raise BspError(f"two ranges share records {first}..{first + count - 1}")
                block[:] = at + numpy.arange(count)
                parts.append((source, first, count))
                at += count
        for source, index in enumerate(maps):
            rest = numpy.flatnonzero(index < 0)
            for start in _runs(rest):
                count = _run_length(rest, start)
                index[rest[start]:rest[start] + count] = at + numpy.arange(count)
                parts.append((source, int(rest[start]), count))
                at += count
        return cls(parts, maps)

    def take(self, arrays: list[Array]) -> Array:
        """The merged records: each part's records of its map, in merged order."""
        pieces = [arrays[source][first:first + count] for source, first, count in self.parts]
        return numpy.concatenate(pieces) if pieces else arrays[0][:0]


def _runs(indices: Array) -> list[int]:
    """Positions in a sorted index array where a run of consecutive values starts."""
    if not len(indices):
        return []
    return [0, *(numpy.flatnonzero(numpy.diff(indices) != 1) + 1).tolist()]


def _run_length(indices: Array, start: int) -> int:
    end = start + 1
    while end < len(indices) and indices[end] == indices[end - 1] + 1:
        end += 1
    return end - start


@dataclass
class LeafOrder:
    """The merged leafs: their order over the maps' leafs and `extra` sources (padding
    leafs, after the maps in `ranges`), and model 0's visleafs."""

    ranges: Ranges
    extra: list[Array]
    visleafs: int
