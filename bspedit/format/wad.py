"""WAD2 (Quake 1) and WAD3 (GoldSrc) texture archives.

Layout (`wadinfo_t`, `lumpinfo_t` of Quake's wad.h and Valve's wadfile.h): the magic "WAD2" or
"WAD3", the entry count and the directory offset (i32 each); the directory holds 32 bytes per
entry: filepos, disksize, size (i32), type, compression, 2 pad bytes (u8) and a 16-byte
NUL-padded name. Textures are `miptex_t` entries of type 0x44 (TYP_MIPTEX) in WAD2 and 0x43
in WAD3, uncompressed (compression 0).
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field

from ..errors import BspError
from .names import fold

_HEADER = struct.Struct("<4sii")
_ENTRY = struct.Struct("<iiiBBH16s")
MAGICS = (b"WAD2", b"WAD3")
MIPTEX_TYPE = {b"WAD2": 0x44, b"WAD3": 0x43}


@dataclass(slots=True)
class WadEntry:
    """One directory entry and its bytes (`disksize` bytes from `filepos`)."""

    name: bytes                 # the 16-byte name field as stored
    type: int
    data: bytes
    compression: int = 0
    size: int | None = None     # the uncompressed size (None: len(data))

    @property
    def text(self) -> str:
        """The name up to its NUL (latin-1)."""
        return self.name.partition(b"\0")[0].decode("latin-1")


@dataclass(slots=True)
class Wad:
    """A WAD2 or WAD3 file: its magic and its entries in directory order."""

    magic: bytes = b"WAD3"
    entries: list[WadEntry] = field(default_factory=list)

    @classmethod
    def parse(cls, data: bytes, path: str | None = None) -> Wad:
        """Read a WAD file's bytes (BspError naming `path` when they are not one)."""
        if len(data) < _HEADER.size:
            raise BspError("not a WAD file: shorter than its 12-byte header", path=path)
        magic, count, directory = _HEADER.unpack_from(data)
        if magic not in MAGICS:
            raise BspError(f"not a WAD2/WAD3 file (magic {magic!r})", path=path)
        if count < 0 or directory < 0 or directory + count * _ENTRY.size > len(data):
            raise BspError(f"directory of {count} entries at {directory} is outside the "
                           f"{len(data)}-byte file", path=path)
        entries = []
        for k in range(count):
            pos, disksize, size, kind, compression, _pad, name = _ENTRY.unpack_from(
                data, directory + k * _ENTRY.size)
            if pos < 0 or disksize < 0 or pos + disksize > len(data):
                raise BspError(f"entry {k} ({disksize} bytes at {pos}) is outside the file",
                               path=path)
            entries.append(WadEntry(name, kind, data[pos:pos + disksize], compression,
                                    None if size == disksize else size))
        return cls(magic, entries)

    def to_bytes(self) -> bytes:
        """The file: header, entry data (each from a 4-byte boundary), then the directory."""
        pieces, rows, at = [], [], _HEADER.size
        for entry in self.entries:
            pieces.append(entry.data + b"\0" * (-len(entry.data) % 4))
            size = len(entry.data) if entry.size is None else entry.size
            rows.append(_ENTRY.pack(at, len(entry.data), size, entry.type, entry.compression, 0,
                                    entry.name.ljust(16, b"\0")[:16]))
            at += len(pieces[-1])
        return _HEADER.pack(self.magic, len(self.entries), at) + b"".join(pieces + rows)

    def textures(self) -> dict[str, WadEntry]:
        """The uncompressed miptex entries by name, ASCII case folded (`names.fold`, the engines'
        stricmp); the first of a name wins."""
        found: dict[str, WadEntry] = {}
        for entry in self.entries:
            if entry.type == MIPTEX_TYPE[self.magic] and entry.compression == 0:
                found.setdefault(fold(entry.text), entry)
        return found
