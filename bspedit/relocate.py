"""Bytes that store absolute file offsets, rewritten for where they land.

The Source game lump's directory points at its members by absolute file offset (PC maps; console
maps use offsets relative to the lump, which never change), and a Quake 1 BSPX trailer points at
its lumps by absolute offset. When either moves, those offsets move with it.
"""
from __future__ import annotations

import struct
from io import BytesIO

from kaitaistruct import KaitaiStream, KaitaiStructError

from .errors import BspError
from .generated.bspx_directory import BspxDirectory
from .generated.game_lump_directory import GameLumpDirectory

_GAME_LUMP_ENTRY = 16
_BSPX_ENTRY = 32


def game_lump_directory(data: bytes) -> GameLumpDirectory:
    """Parse the game lump directory, refusing a count that cannot fit in the lump."""
    if len(data) < 4:
        raise BspError(f"game lump of {len(data)} bytes has no directory")
    count = int.from_bytes(data[:4], "little", signed=True)
    if count < 0 or 4 + _GAME_LUMP_ENTRY * count > len(data):
        raise BspError(f"game lump directory claims {count} entries, more than its "
                       f"{len(data)} bytes hold", offset=0)
    return GameLumpDirectory(KaitaiStream(BytesIO(bytes(data[:4 + _GAME_LUMP_ENTRY * count]))))


def game_lump_offsets_absolute(data: bytes, lump_offset: int) -> bool:
    """True when the members are addressed by absolute file offset (PC), False if relative."""
    directory = game_lump_directory(data)
    offsets = [e.offset for e in directory.entries if e.offset]
    end = lump_offset + len(data)
    return bool(offsets) and all(lump_offset <= o <= end for o in offsets) and lump_offset > 0


def relocate_game_lump(data: bytes, old_offset: int, new_offset: int) -> bytes:
    """The game lump's bytes once moved from `old_offset` to `new_offset`."""
    if new_offset == old_offset or not game_lump_offsets_absolute(data, old_offset):
        return data
    out = bytearray(data)
    delta = new_offset - old_offset
    for i, entry in enumerate(game_lump_directory(data).entries):
        if entry.offset:    # a zero offset (second terminator entry) stays zero
            struct.pack_into("<i", out, 4 + _GAME_LUMP_ENTRY * i + 8, entry.offset + delta)
    return bytes(out)


def bspx_directory(data: bytes) -> BspxDirectory | None:
    """The BSPX directory at the start of `data`, or None if there is none."""
    if data[:4] != b"BSPX" or len(data) < 8:
        return None
    count = int.from_bytes(data[4:8], "little")
    if 8 + _BSPX_ENTRY * count > len(data):
        return None
    try:
        return BspxDirectory(KaitaiStream(BytesIO(bytes(data[:8 + _BSPX_ENTRY * count]))))
    except KaitaiStructError:
        return None


def relocate_trailer(data: bytes, old_offset: int, new_offset: int) -> bytes:
    """Trailing data moved from `old_offset` to `new_offset`: a BSPX directory's offsets follow."""
    directory = bspx_directory(data)
    if directory is None or new_offset == old_offset:
        return data
    out = bytearray(data)
    for i, lump in enumerate(directory.lumps):
        struct.pack_into("<I", out, 8 + _BSPX_ENTRY * i + 24, lump.offset + new_offset - old_offset)
    return bytes(out)
