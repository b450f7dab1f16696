"""The VISIBILITY lumps as models: Quake 1 / GoldSrc (a bare blob of RLE rows addressed by
each leaf's `visofs`), Quake 2 and Source (`dvis_t`: a cluster count, a PVS and PHS/PAS
offset per cluster, then RLE rows) and Quake 3 (n_vecs, sz_vecs, uncompressed bit rows).

The rows are kept as the raw bytes they are (shared, overlapping or unreferenced rows and
trailing bytes all come back) and decompressed only when asked. The tables are read with
`struct` in one call rather than the generated Kaitai readers, which build one Python object
per cluster. Bit arrays are numpy booleans (numpy imported when one is asked for). Console
Source maps (PSBV) store the `dvis_t` table big-endian: ClusterVisibility's `endian` ">"; the rows
are bytes either way.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import BspError
from .structjson import blob, unblob

if TYPE_CHECKING:
    import numpy


def decompress_row(data: bytes, offset: int, leaf_count: int) -> bytes:
    """The row of `leaf_count` bits ((leaf_count + 7) // 8 bytes) run-length encoded at
    `offset` of `data`: a nonzero byte is 8 bits, a zero byte is followed by a count of zero
    bytes (a run past the row's end is cut, as the engines do). BspError when the data ends
    before the row does."""
    size, out, at = (leaf_count + 7) // 8, bytearray(), offset
    if offset < 0:
        raise BspError(f"visibility row offset {offset} is negative", offset=offset)
    while len(out) < size:
        zero = data.find(b"\0", at, at + size - len(out))
        if zero < 0:                              # the rest of the row is literal bytes
            chunk = data[at:at + size - len(out)]
            out += chunk
            at += len(chunk)
            if len(out) < size:
                break
            continue
        if zero + 1 >= len(data):
            break
        out += data[at:zero]
        out += bytes(data[zero + 1])
        at = zero + 2
    if len(out) < size:
        raise BspError(f"visibility row at {offset} ends after {len(out)} of its {size} bytes",
                       offset=offset)
    return bytes(out[:size])


def bits(row: bytes, count: int) -> numpy.ndarray[Any, Any]:
    """The first `count` bits of `row` (bit k of byte i is element 8i+k) as numpy booleans."""
    import numpy

    return numpy.unpackbits(numpy.frombuffer(row, numpy.uint8), count=count,
                            bitorder="little").astype(bool)


@dataclass(eq=False, slots=True)
class Quake1Visibility:
    """Quake 1 / GoldSrc VISIBILITY: no structure of its own (leafs address rows by offset),
    kept whole; `row(offset, leaf_count)` decompresses one."""

    data: bytes = b""

    @classmethod
    def parse(cls, data: bytes) -> Quake1Visibility:
        return cls(bytes(data))

    def row(self, offset: int, leaf_count: int) -> bytes:
        """The decompressed row at `offset` (a leaf's visofs) over `leaf_count` leafs."""
        return decompress_row(self.data, offset, leaf_count)

    def to_bytes(self) -> bytes:
        return self.data

    def to_json(self) -> dict[str, Any]:
        return {"data": blob(self.data)}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Quake1Visibility:
        return cls(unblob(obj["data"]))


@dataclass(eq=False, slots=True)
class ClusterVisibility:
    """Quake 2 / Source VISIBILITY (`dvis_t`): `offsets` holds each cluster's (PVS, PHS)
    row offsets from the lump start, `rows` the bytes after the table, `endian` the table's
    byte order. A lump with no room for its table (e.g. empty: no vis) is kept in `raw`."""

    offsets: list[tuple[int, int]] | None = None
    rows: bytes = b""
    raw: bytes | None = None
    endian: str = "<"

    @classmethod
    def parse(cls, data: bytes, endian: str = "<") -> ClusterVisibility:
        data = bytes(data)
        if len(data) < 4 or (count := struct.unpack_from(endian + "i", data)[0]) < 0 \
                or 4 + 8 * count > len(data):
            return cls(raw=data, endian=endian)
        flat = struct.unpack_from(f"{endian}{2 * count}i", data, 4)
        return cls(list(zip(flat[0::2], flat[1::2])), data[4 + 8 * count:], endian=endian)

    @property
    def num_clusters(self) -> int:
        return 0 if self.offsets is None else len(self.offsets)

    def _row(self, cluster: int, which: int) -> bytes:
        if self.offsets is None:
            raise BspError("the visibility lump has no cluster table")
        offset, table = self.offsets[cluster][which], 4 + 8 * len(self.offsets)
        if offset >= table:              # in the rows: no copy of the whole lump
            return decompress_row(self.rows, offset - table, len(self.offsets))
        return decompress_row(self.to_bytes(), offset, len(self.offsets))

    def pvs_row(self, cluster: int) -> bytes:
        """The decompressed PVS row of `cluster` ((num_clusters + 7) // 8 bytes)."""
        return self._row(cluster, 0)

    def phs_row(self, cluster: int) -> bytes:
        """The decompressed PHS (Source: PAS) row of `cluster`."""
        return self._row(cluster, 1)

    def pvs(self, cluster: int) -> numpy.ndarray[Any, Any]:
        """Which clusters `cluster` may see, one boolean per cluster."""
        return bits(self.pvs_row(cluster), self.num_clusters)

    def phs(self, cluster: int) -> numpy.ndarray[Any, Any]:
        """Which clusters `cluster` may hear, one boolean per cluster."""
        return bits(self.phs_row(cluster), self.num_clusters)

    pas = phs

    def to_bytes(self) -> bytes:
        if self.raw is not None:
            return self.raw
        assert self.offsets is not None
        flat = [value for pair in self.offsets for value in pair]
        return struct.pack(f"{self.endian}i{len(flat)}i", len(self.offsets), *flat) + self.rows

    def to_json(self) -> dict[str, Any]:
        if self.raw is not None:
            return {"raw": blob(self.raw)}
        assert self.offsets is not None
        return {"num_clusters": len(self.offsets), "offsets": [list(p) for p in self.offsets],
                "rows": blob(self.rows)}

    @classmethod
    def from_json(cls, obj: dict[str, Any], endian: str = "<") -> ClusterVisibility:
        if "raw" in obj:
            return cls(raw=unblob(obj["raw"]), endian=endian)
        return cls([(p[0], p[1]) for p in obj["offsets"]], unblob(obj["rows"]), endian=endian)


@dataclass(eq=False, slots=True)
class Quake3Visibility:
    """Quake 3 VISIBILITY: `n_vecs` rows of `sz_vecs` bytes (uncompressed), then `rest`.
    A lump too short for its header or rows (e.g. empty: no vis) is kept in `raw`."""

    n_vecs: int = 0
    sz_vecs: int = 0
    vecs: bytes = b""
    rest: bytes = b""
    raw: bytes | None = None

    @classmethod
    def parse(cls, data: bytes) -> Quake3Visibility:
        data = bytes(data)
        if len(data) < 8:
            return cls(raw=data)
        n_vecs, sz_vecs = struct.unpack_from("<ii", data)
        end = 8 + n_vecs * sz_vecs
        if n_vecs < 0 or sz_vecs < 0 or end > len(data):
            return cls(raw=data)
        return cls(n_vecs, sz_vecs, data[8:end], data[end:])

    @property
    def num_clusters(self) -> int:
        return self.n_vecs

    def row(self, cluster: int) -> bytes:
        """The bit row of `cluster` (sz_vecs bytes)."""
        if not 0 <= cluster < self.n_vecs:
            raise IndexError(f"cluster {cluster} of {self.n_vecs}")
        return self.vecs[cluster * self.sz_vecs:(cluster + 1) * self.sz_vecs]

    def pvs(self, cluster: int) -> numpy.ndarray[Any, Any]:
        """Which clusters `cluster` may see, one boolean per cluster."""
        return bits(self.row(cluster), self.n_vecs)

    def to_bytes(self) -> bytes:
        if self.raw is not None:
            return self.raw
        return struct.pack("<ii", self.n_vecs, self.sz_vecs) + self.vecs + self.rest

    def to_json(self) -> dict[str, Any]:
        if self.raw is not None:
            return {"raw": blob(self.raw)}
        return {"n_vecs": self.n_vecs, "sz_vecs": self.sz_vecs, "vecs": blob(self.vecs),
                "rest": blob(self.rest)}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Quake3Visibility:
        if "raw" in obj:
            return cls(raw=unblob(obj["raw"]))
        return cls(obj["n_vecs"], obj["sz_vecs"], unblob(obj["vecs"]), unblob(obj["rest"]))
