"""Visibility of merged maps: each map's rows see only its own leafs (Quake 1, GoldSrc) or
clusters (Quake 2).

Every map's bits start on a byte boundary of the merged rows (the maps before it are padded
to a multiple of 8 leafs or clusters), so a merged row is the map's own run-length encoded row
as stored, with runs of zero bytes before and after it: nothing is decompressed.
"""
from __future__ import annotations

import struct
from collections.abc import Iterable

from ...errors import BspError


def zero_run(count: int) -> bytes:
    """`count` zero bytes, run-length encoded (a zero byte, then how many: at most 255)."""
    full, rest = divmod(count, 255)
    return b"\0\xff" * full + (b"\0" + bytes((rest,)) if rest else b"")


def stored_row(data: bytes, offset: int, size: int) -> bytes:
    """The encoded bytes at `offset` that decode to `size` bytes; a last run of zeros past
    the row's end is cut to it (as the engines read it). BspError when the data ends first."""
    at, made = offset, 0
    out = bytearray()
    while made < size:
        zero = data.find(b"\0", at, at + size - made)
        if zero < 0:                                   # the rest are literal bytes
            end = at + size - made
            if end > len(data):
                break
            out += data[at:end]
            return bytes(out)
        if zero + 1 >= len(data):
            break
        run = min(data[zero + 1], size - made - (zero - at))
        out += data[at:zero]
        made += zero - at
        if run:
            out += bytes((0, run))
        made += run
        at = zero + 2
    if made < size:
        raise BspError(f"visibility row at {offset} ends after {made} of its {size} bytes",
                       offset=offset)
    return bytes(out)


class RowWriter:
    """Merged rows written once per distinct stored row of each map."""

    def __init__(self, width: int) -> None:
        self.width = width              # bytes of a merged row
        self.data = bytearray()

    def add(self, data: bytes, offsets: Iterable[int], own: int, before: int) -> dict[int, int]:
        """Each distinct offset (>= 0) of a map's rows -> the merged row's offset. `own`: the
        bytes of the map's rows, `before`: the merged bytes before its first one. A row that
        cannot be read is left out of the result (the caller decides what its leafs see)."""
        moved: dict[int, int] = {}
        head, tail = zero_run(before), zero_run(self.width - before - own)
        for offset in sorted(set(offsets)):
            if offset < 0:
                continue
            try:
                row = stored_row(data, offset, own)
            except BspError:
                continue
            moved[offset] = len(self.data)
            self.data += head + row + tail
        return moved

    def empty(self) -> int:
        """The offset of a row that sees nothing."""
        at = len(self.data)
        self.data += zero_run(self.width)
        return at


def padded(counts: list[int]) -> list[int]:
    """Where each map's bits start when every map but the last is padded to a whole byte."""
    starts, at = [], 0
    for count in counts:
        starts.append(at)
        at += -(-count // 8) * 8
    return starts


def cluster_table(data: bytes) -> tuple[int, list[tuple[int, int]]]:
    """A Quake 2 `dvis_t`: the cluster count and each cluster's (PVS, PHS) row offsets."""
    if len(data) < 4:
        return 0, []
    count = int.from_bytes(data[:4], "little", signed=True)
    if count < 0 or 4 + 8 * count > len(data):
        raise BspError(f"visibility names {count} clusters, more than its {len(data)} bytes hold")
    flat = struct.unpack_from(f"<{2 * count}i", data, 4)
    return count, list(zip(flat[0::2], flat[1::2]))


def merge_clusters(lumps: list[bytes], counts: list[int]) -> tuple[bytes, list[int]]:
    """Quake 2: one `dvis_t` of every map's clusters (`counts`, each map's own count), and
    where each map's clusters start. Padding clusters see nothing and are seen by none."""
    starts = padded(counts)
    total = starts[-1] + counts[-1]
    width = (total + 7) // 8
    header = 4 + 8 * total
    rows = RowWriter(width)
    table = [(-1, -1)] * total
    for data, start, count in zip(lumps, starts, counts):
        own = (count + 7) // 8
        _, pairs = cluster_table(data)
        moved = rows.add(data, [o for pair in pairs for o in pair], own, start // 8)
        for cluster, (pvs, phs) in enumerate(pairs):
            table[start + cluster] = (moved.get(pvs, -1), moved.get(phs, -1))
    flat = [o for pair in table for o in pair]
    if min(flat, default=0) < 0:
        nothing = rows.empty()
        flat = [nothing if o < 0 else o for o in flat]
    flat = [header + o for o in flat]
    return struct.pack(f"<i{2 * total}i", total, *flat) + bytes(rows.data), starts
