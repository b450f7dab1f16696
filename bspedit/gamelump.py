"""The Source game lump (lump 35): its directory, relocation, and removing members by id.

The directory points at its members by absolute file offset on PC (console maps use offsets
relative to the lump, which never change), so when the lump moves those offsets move with it.
Member data follows the directory. Compressed members (flags bit 0) run to the next entry's
offset; terminator entries (id 0) mark the end, one of them possibly with offset 0.
"""
from __future__ import annotations

import struct
from io import BytesIO

from kaitaistruct import KaitaiStream

from .errors import BspError
from .generated.game_lump_directory import GameLumpDirectory

_ENTRY = 16


def game_lump_directory(data: bytes) -> GameLumpDirectory:
    """Parse the game lump directory, refusing a count that cannot fit in the lump."""
    if len(data) < 4:
        raise BspError(f"game lump of {len(data)} bytes has no directory")
    count = int.from_bytes(data[:4], "little", signed=True)
    if count < 0 or 4 + _ENTRY * count > len(data):
        raise BspError(f"game lump directory claims {count} entries, more than its "
                       f"{len(data)} bytes hold", offset=0)
    return GameLumpDirectory(KaitaiStream(BytesIO(bytes(data[:4 + _ENTRY * count]))))


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
            struct.pack_into("<i", out, 4 + _ENTRY * i + 8, entry.offset + delta)
    return bytes(out)


def fourcc(name: str) -> bytes:
    """A game lump id as stored: 'sprp' is the little-endian int, so the bytes read 'prps'."""
    return name.encode("ascii")[::-1]


def remove_members(data: bytes, lump_offset: int, names: set[str]) -> bytes:
    """The game lump without the members named (e.g. {'dplh'}); offsets stay valid for a lump
    at `lump_offset`. Returns `data` itself when none of them is present."""
    ids = {fourcc(name) for name in names}
    entries = game_lump_directory(data).entries
    if not any(e.id in ids for e in entries):
        return data
    base = lump_offset if game_lump_offsets_absolute(data, lump_offset) else 0
    starts = sorted({e.offset - base for e in entries if e.offset} | {len(data)})
    removed = []                                   # (start, end) of dropped member ranges
    for entry in entries:
        if entry.id in ids and entry.offset:
            start = entry.offset - base
            removed.append((start, next(s for s in starts if s > start)))
    kept = [e for e in entries if e.id not in ids]
    shrink = _ENTRY * (len(entries) - len(kept))
    out = bytearray(struct.pack("<i", len(kept)))
    for entry in kept:
        offset = entry.offset
        if offset:
            offset -= shrink + sum(end - start for start, end in removed if end <= entry.offset - base)
        out += entry.id + struct.pack("<HHii", entry.flags, entry.version, offset, entry.length)
    position = 4 + _ENTRY * len(entries)
    for start, end in sorted(removed):
        out += data[position:start]
        position = end
    out += data[position:]
    return bytes(out)
