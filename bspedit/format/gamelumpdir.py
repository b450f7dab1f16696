"""The Source game lump's directory (`dgamelump_t`: id, flags, version, offset, length) and the
one pointer fix-up it needs: on PC its member offsets are absolute file offsets, so they move with
the lump (console maps use offsets relative to the lump, which never change). A format fact the
container applies when the lump lands; the game lump model (bspedit.lumps.gamelump) reads it too.
The directory is in the map's byte order (`endian`: "<" on PC, ">" on console maps).
"""
from __future__ import annotations

import struct
from io import BytesIO

from kaitaistruct import KaitaiStream

from ..errors import BspError
from .generated.game_lump_directory import GameLumpDirectory

ENTRY = 16


def entry_format(endian: str) -> struct.Struct:
    """One directory entry (id as stored, flags, version, offset, length) in byte order `endian`."""
    return struct.Struct(endian + "4sHHii")


def game_lump_directory(data: bytes, endian: str = "<") -> GameLumpDirectory:
    """Parse the game lump directory, refusing a count that cannot fit in the lump."""
    if len(data) < 4:
        raise BspError(f"game lump of {len(data)} bytes has no directory")
    (count,) = struct.unpack_from(endian + "i", data)
    if count < 0 or 4 + ENTRY * count > len(data):
        raise BspError(f"game lump directory claims {count} entries, more than its "
                       f"{len(data)} bytes hold", offset=0)
    return GameLumpDirectory(endian == ">", KaitaiStream(BytesIO(bytes(data[:4 + ENTRY * count]))))


def game_lump_offsets_absolute(data: bytes, lump_offset: int,
                               entries: list[GameLumpDirectory.Entry] | None = None,
                               endian: str = "<") -> bool:
    """True when the members are addressed by absolute file offset (PC), False if relative.
    `entries`: the lump's directory entries when already parsed."""
    if entries is None:
        entries = game_lump_directory(data, endian).entries
    offsets = [e.offset for e in entries if e.offset]
    end = lump_offset + len(data)
    return bool(offsets) and all(lump_offset <= o <= end for o in offsets) and lump_offset > 0


def relocate_game_lump(data: bytes, old_offset: int, new_offset: int, endian: str = "<") -> bytes:
    """The game lump's bytes once moved from `old_offset` to `new_offset`."""
    if new_offset == old_offset:
        return data
    entries = game_lump_directory(data, endian).entries
    if not game_lump_offsets_absolute(data, old_offset, entries):
        return data
    out = bytearray(data)
    delta = new_offset - old_offset
    for i, entry in enumerate(entries):
        if entry.offset:    # a zero offset (second terminator entry) stays zero
            struct.pack_into(endian + "i", out, 4 + ENTRY * i + 8, entry.offset + delta)
    return bytes(out)
