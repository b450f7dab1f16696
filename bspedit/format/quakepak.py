"""Quake's PACK archives (pak0.pak): read one entry by name (a game's gfx/palette.lmp).

Layout (`dpackheader_t`, `dpackfile_t` of Quake's common.c): the magic "PACK", the directory's
offset and length (i32 each); the directory holds 64 bytes per entry: a 56-byte NUL-padded
path, then filepos and filelen (i32 each).
"""
from __future__ import annotations

import struct

from ..errors import BspError

_HEADER = struct.Struct("<4sii")
_ENTRY = struct.Struct("<56sii")
MAGIC = b"PACK"


def pack_entries(data: bytes, path: str | None = None) -> dict[str, tuple[int, int]]:
    """The entries of a PACK file: lower-case path -> (offset, length); BspError naming `path`
    when the bytes are not one or an entry lies outside them."""
    if len(data) < _HEADER.size or data[:4] != MAGIC:
        raise BspError("not a Quake PACK file (no PACK magic)", path=path)
    _magic, start, length = _HEADER.unpack_from(data)
    if start < 0 or length < 0 or length % _ENTRY.size or start + length > len(data):
        raise BspError(f"directory of {length} bytes at {start} is outside the "
                       f"{len(data)}-byte file", path=path)
    entries: dict[str, tuple[int, int]] = {}
    for at in range(start, start + length, _ENTRY.size):
        name, offset, size = _ENTRY.unpack_from(data, at)
        text = name.partition(b"\0")[0].decode("latin-1")
        if offset < 0 or size < 0 or offset + size > len(data):
            raise BspError(f"entry {text} ({size} bytes at {offset}) is outside the file",
                           path=path)
        entries.setdefault(text.lower(), (offset, size))
    return entries
