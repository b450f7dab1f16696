"""The Quake 1 / GoldSrc TEXTURES lump of merged maps: textures shared by name (ASCII case
folded, as the engines look them up), the rest appended; each map's slot -> merged slot."""
from __future__ import annotations

import struct

import numpy

from ...errors import BspError
from ...format.names import fold
from ...lumps.miptex import GoldSrcMiptexLump, MiptexLump


def merge_miptex(lumps: list[bytes], names: list[str], goldsrc: bool,
                 ) -> tuple[bytes, list[numpy.ndarray], int]:
    """The merged lump, each map's slot map (old slot -> new slot) and how many textures were
    shared by name. A slot without a texture (-1) keeps a slot of its own."""
    kind = GoldSrcMiptexLump if goldsrc else MiptexLump
    entries: list[bytes] = []           # merged entries, each padded to 4 bytes
    offsets: list[int | None] = []      # merged slot -> entry number (None: no texture)
    by_name: dict[str, int] = {}        # folded name -> merged slot
    slot_maps, shared = [], 0
    for data, name in zip(lumps, names):
        parsed = kind.parse(data) if data else kind()
        if parsed.raw is not None:
            raise BspError("its TEXTURES lump has no readable texture table", path=name)
        entry_at = {entry.offset: entry for entry in parsed.entries}
        placed: dict[int, int] = {}     # this map's entry offset -> merged entry number
        slots = numpy.empty(len(parsed.offsets), numpy.int64)
        for slot, offset in enumerate(parsed.offsets):
            entry = entry_at.get(offset)
            if entry is None:
                slots[slot] = len(offsets)
                offsets.append(None)
                continue
            key = fold(entry.text)
            if key in by_name and offset not in placed:
                slots[slot] = by_name[key]
                shared += 1
                continue
            if offset not in placed:
                piece = entry.to_bytes()
                placed[offset] = len(entries)
                entries.append(piece + bytes(-len(piece) % 4))
            slots[slot] = len(offsets)
            by_name.setdefault(key, len(offsets))
            offsets.append(placed[offset])
        slot_maps.append(slots)
    starts, at = [], 4 + 4 * len(offsets)
    for piece in entries:
        starts.append(at)
        at += len(piece)
    table = [-1 if number is None else starts[number] for number in offsets]
    return struct.pack(f"<i{len(table)}i", len(table), *table) + b"".join(entries), slot_maps, shared
