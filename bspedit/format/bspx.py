"""Quake 1 BSPX trailer: a directory of extra lumps after the last lump, by absolute offset.

Readers look for it right after the last standard lump, so it moves when that lump moves,
and its offsets move with it.
"""
from __future__ import annotations

import struct
from io import BytesIO

from kaitaistruct import KaitaiStream, KaitaiStructError

from .generated.bspx_directory import BspxDirectory

BSPX_ENTRY = 32


def bspx_directory(data: bytes) -> BspxDirectory | None:
    """The BSPX directory at the start of `data`, or None if there is none."""
    if data[:4] != b"BSPX" or len(data) < 8:
        return None
    count = int.from_bytes(data[4:8], "little")
    if 8 + BSPX_ENTRY * count > len(data):
        return None
    try:
        return BspxDirectory(KaitaiStream(BytesIO(bytes(data[:8 + BSPX_ENTRY * count]))))
    except KaitaiStructError:
        return None


def relocate_trailer(data: bytes, old_offset: int, new_offset: int) -> bytes:
    """Trailing data moved from `old_offset` to `new_offset`: a BSPX directory's offsets follow."""
    directory = bspx_directory(data)
    if directory is None or new_offset == old_offset:
        return data
    out = bytearray(data)
    for i, lump in enumerate(directory.lumps):
        if old_offset <= lump.offset <= old_offset + len(data):   # others point nowhere: kept
            struct.pack_into("<I", out, 8 + BSPX_ENTRY * i + 24,
                             lump.offset + new_offset - old_offset)
    return bytes(out)
