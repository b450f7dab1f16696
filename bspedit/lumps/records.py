"""Typed records of the open map (issue 17): fixed-size lumps as numpy structured arrays.

`Bsp.records(lump)` reads a lump's records with the dtype the Kaitai specs give it
(`bspedit.format.recordtypes`). Read-only arrays are zero-copy views of one `mmap` of the file, made
on first use: views of the file as it was opened (its directory, at its offsets). Read them
again after an in-place save, whose writes they may show. An in-place save of a file with a
live mapping in this process never cuts the file below the mapping (it keeps zeros at its
end instead), so old views never fault.
LZMA-compressed Source lumps are decompressed (a copy). Console Source maps (PSBV) read and write
their records big-endian: the dtypes are the map's byte order (`bsp.header.endian`), so views
stay zero-copy and unchanged arrays write back the stored bytes.

`records(lump, writable=True)` gives the map's own copy; `save()` stores it when its bytes
changed (compressed again for LZMA lumps). Bytes after the last whole record (the tail) are
kept after the records. numpy is imported only inside functions.
"""
from __future__ import annotations

import dataclasses
import mmap
from typing import TYPE_CHECKING, Any

from ..errors import BspError
from ..container.mappings import map_file, release
from ..format.header import lump_label

if TYPE_CHECKING:
    import numpy

    from ..container.mapfile import MapFile

@dataclasses.dataclass(frozen=True, slots=True)
class RecordInfo:
    """What a fixed-size lump holds: its record type, count and the bytes after the records."""

    lump: str                  # the lump's label (name and index)
    type: str                  # "spec::type" in ksy/
    dtype: numpy.dtype[Any]
    count: int                 # whole records
    tail: int                  # bytes after the last whole record (0 for a well-formed lump)
    compressed: bool           # stored LZMA-compressed (Source)


def _is_lzma(bsp: MapFile, data: bytes | memoryview) -> bool:
    return bsp.family.header == "vbsp" and bytes(data[:4]) == b"LZMA"


def _stored_head(bsp: MapFile, index: int) -> bytes:
    """The first 4 bytes of lump `index` as stored in the file (enough for `_is_lzma`)."""
    lump = bsp.lumps[index]
    return bsp.read_range(lump.offset, lump.offset + min(4, lump.length))


class RecordStore:
    """The record arrays of one open map: the mapping, writable copies and what was stored."""

    def __init__(self, bsp: MapFile) -> None:
        self._bsp = bsp
        self._map: mmap.mmap | None = None
        self._writable: dict[int, tuple[numpy.ndarray[Any, Any], bytes]] = {}  # array, tail
        self._stored: dict[int, bytes] = {}      # decompressed bytes last put into the lump
        self._inflated: dict[int, bytes] = {}    # decompressed original LZMA lumps

    # -- describing ---------------------------------------------------------------------------
    def dtype_of(self, index: int) -> tuple[str, numpy.dtype[Any]]:
        """The record type name and dtype (in the map's byte order) of lump `index`; BspError
        when it has none."""
        from ..format.recordtypes import lump_type, type_dtype      # the tables: only when asked

        bsp = self._bsp
        lump = bsp.lumps[index]
        entry = lump_type(bsp.family.key, lump.name, lump.version, bsp.header.version)
        if entry is None or entry.whole:
            why = "is a variable-size lump" if entry else "has no fixed-size record type " \
                f"(lump version {lump.version}, map version {bsp.header.version})"
            raise BspError(f"{lump.name} {why} in {bsp.family.key} maps: no records to read",
                           path=bsp.path, lump=lump_label(lump))
        return entry.type, type_dtype(entry.type, bsp.header.endian)

    def describe(self, index: int) -> RecordInfo:
        name, dtype = self.dtype_of(index)
        if index in self._writable:
            array, tail = self._writable[index]
            count, extra = len(array), len(tail)
        else:
            count, extra = divmod(len(self._payload(index)), dtype.itemsize)
        bsp = self._bsp
        start = bsp.read_lump(index)[:4] if index in bsp._replaced else _stored_head(bsp, index)
        return RecordInfo(lump_label(bsp.lumps[index]), name, dtype, count, extra,
                          _is_lzma(bsp, start))

    # -- reading ------------------------------------------------------------------------------
    def _mapping(self) -> mmap.mmap:
        if self._map is None:
            self._map = map_file(self._bsp.fileno())
        return self._map

    def _payload(self, index: int) -> bytes | memoryview:
        """The lump's current uncompressed bytes: a view of the mapping when unchanged."""
        bsp = self._bsp
        lump = bsp.lumps[index]
        replaced = index in bsp._replaced     # writable arrays never get here: no store needed
        if replaced:
            data: bytes | memoryview = bsp.read_lump(index)
        elif lump.length <= 0:
            return b""
        elif lump.end <= bsp.size:
            data = memoryview(self._mapping())[lump.offset:lump.end]
        else:                                   # a lump past the end (opened with check=False)
            data = bsp.read_lump(index)
        if not _is_lzma(bsp, data):
            return data
        from ..format.lzma_lump import decompress

        if replaced:
            return decompress(bytes(data))
        if index not in self._inflated:
            self._inflated[index] = decompress(bytes(data))
        return self._inflated[index]

    def records(self, index: int, writable: bool) -> numpy.ndarray[Any, Any]:
        import numpy

        _, dtype = self.dtype_of(index)
        if index in self._writable:
            array = self._writable[index][0]
            if writable:
                return array
            view = array.view()
            view.flags.writeable = False
            return view
        data = self._payload(index)
        count = len(data) // dtype.itemsize
        records = numpy.frombuffer(data, dtype, count) if count else numpy.empty(0, dtype)
        if not writable:
            records.flags.writeable = False
            return records
        copy = records.copy()
        self._writable[index] = (copy, bytes(data[count * dtype.itemsize:]))
        self._stored[index] = bytes(data)
        return copy

    def tail(self, index: int) -> bytes:
        _, dtype = self.dtype_of(index)
        if index in self._writable:
            return self._writable[index][1]
        data = self._payload(index)
        return bytes(data[len(data) // dtype.itemsize * dtype.itemsize:])

    # -- editing ------------------------------------------------------------------------------
    def replace(self, index: int, array: numpy.ndarray[Any, Any]) -> None:
        """Give the lump a copy of `array` as its records (any count); the tail is kept."""
        import numpy

        _, dtype = self.dtype_of(index)
        if not isinstance(array, numpy.ndarray) or array.dtype != dtype or array.ndim != 1:
            got = getattr(array, "dtype", type(array).__name__)
            raise ValueError(f"{lump_label(self._bsp.lumps[index])}: records must be a 1-D "
                             f"array of dtype {dtype}, not {got}")
        tail = self.tail(index)
        if index not in self._stored:
            self._stored[index] = bytes(self._payload(index))
        self._writable[index] = (array.copy(), tail)

    def store(self) -> None:
        """Put writable arrays whose bytes changed into their lumps (LZMA lumps compressed
        again; bytes equal to the file's give back its stored bytes)."""
        bsp = self._bsp
        for index, (array, tail) in self._writable.items():
            data = array.tobytes() + tail
            if data == self._stored.get(index):
                continue
            self._stored[index] = data
            bsp.replace_content(index, data, original=self._inflated.get(index))

    def release(self) -> None:
        """Close the mapping if no array uses it any more (else it lives on with them)."""
        if self._map is not None:
            release(self._map)
            self._map = None
