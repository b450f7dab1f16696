"""Source game lump members: their byte ranges, and removing members by id.

Member data follows the directory. Compressed members (flags bit 0) run to the next entry's
offset; terminator entries (id 0) mark the end, one of them possibly with offset 0.
"""
from __future__ import annotations

import struct

from .relocate import game_lump_directory, game_lump_offsets_absolute

_ENTRY = 16


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
