"""Whole-map LZMA compression of Source maps as Valve's bspzip does it (`RepackBSP`), and back.

Valve's rules (source-sdk-2013 `utils/common/bsplib.cpp`), which the compressed corpus map
follows to the byte:
- lumps are written after the header in the input's file order, each 4-byte aligned with zero
  padding, the pakfile 2048-byte aligned; empty lumps get offset 0 and fourCC 0 (their version
  stays); every non-empty lump is compressed, however small, except the game lump and the
  pakfile; a compressed lump's fourCC is its uncompressed size;
- in the game lump each member is compressed on its own (flags bit 0, `filelen` keeps the
  uncompressed size), members 4-byte aligned in directory order, and a terminator entry (id 0)
  after them marks where the last one ends.

Compressed lumps and members stay as stored, so compressing a compressed map changes nothing.
Decompressing writes the same layout with every lump and member decoded (members back to back,
as vbsp writes them). Terminators: compressing appends one unless the directory already ends
with id-0 entries; decompressing drops a lone final one that has an offset and keeps any others
(an uncompressed game lump ignores them). So a map bspzip repacked twice, which has two of them,
the second at offset 0 (bspzip never fills in the offset of the entry it appends), comes back
byte for byte. The pakfile is copied as it is.
The file end: RepackBSP writes nothing after the last lump (its output buffer ends with the last
lump written, the pakfile's zip when it is last, and bspzip and the game's `bsp_repack` write
exactly `TellPut()` bytes of it through `IFileSystem::WriteFile`; the zip's `SaveDirectory` ends
with the end-of-central-directory record and its XZP comment). So bytes after a PC map's last
lump were not written by the repack: zeros such as the ones some Valve-distributed maps end
with (the file size then a multiple of 1 KiB, sometimes one KiB more) are kept as they are,
their length too, like any trailing data, after the new last lump's 4-byte alignment. Both ways,
so decompress then compress (and compress then decompress) of such a map gives it back.
Only Valve's console conversion pads the file end (`SwapBSPFile`: "Pad out the end of the file
to a sector boundary", 2048 bytes): console maps keep that rule (`Layout.end_boundary`).
Console (big-endian) maps are compressed as the real Xbox 360 map is: with the console
dictionary (`Family.console_lzma_dictionary`), and a lump or member that LZMA does not make
smaller stays raw (its small lumps and the detail props member are stored so). They keep the
boundaries their layout names (`Layout.boundaries`,
`end_boundary`: the pakfile on a DVD sector or the larger boundary the map shows, the file end
padded with zeros to a sector), as Valve's console conversion writes them.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import AbstractContextManager as ContextManager
from dataclasses import dataclass
from functools import partial

from ..bsp import Bsp
from ..errors import BspError
from ..lumps.gamelump import GameLump, Member, in_game_lump, read_game_lump
from ..format.header import Header
from ..container.layout import ALIGNMENT, align
from ..format.header import lump_label
from ..limits import LIMITS
from ..format.lzma_lump import compress, decompress, lzma_header, properties
from ..container.planner import Piece, Plan
from ..progress import LZMA_WORK, Progress, bar

END_ALIGNMENT = 1024


@dataclass(frozen=True, slots=True)
class Change:
    """A lump or game lump member whose stored bytes changed."""

    name: str
    before: int
    after: int
    member: bool = False          # a game lump member, not a lump


def compress_map(bsp: Bsp) -> list[Change]:
    """Give every uncompressed lump and game lump member of `bsp` Valve's LZMA form."""
    game_lump, pakfile = _special_lumps(bsp, "compress")
    pack = _packer(bsp)
    changes = []
    with _lump_progress(bsp, "compress", skip=pakfile) as shown:
        for lump in bsp.lumps:
            if lump.length and lump.index not in (game_lump, pakfile):
                data = bsp.read_lump(lump.index)
                packed = pack(data) if lzma_header(data) is None else None
                if packed is not None:
                    bsp.replace_lump(lump.index, packed)        # fourCC: the uncompressed size
                    changes.append(Change(lump_label(lump), len(data), len(packed)))
                shown.advance(lump.length)
        changes += _convert_game_lump(bsp, game_lump, partial(_compress_members, pack=pack),
                                      aligned=True)
        shown.advance(bsp.lumps[game_lump].length)
    return changes


def decompress_map(bsp: Bsp) -> list[Change]:
    """Decode every compressed lump and game lump member of `bsp`."""
    game_lump, _ = _special_lumps(bsp, "decompress")
    changes = []
    with _lump_progress(bsp, "decompress") as shown:
        for lump in bsp.lumps:
            data = bsp.read_lump(lump.index) if lump.length else b""
            if lzma_header(data) is not None:
                try:
                    raw = decompress(data, LIMITS.lump_size)
                except BspError as exc:
                    exc.lump, exc.offset = lump_label(lump), lump.offset + (exc.offset or 0)
                    exc.in_file = True
                    raise exc.at(bsp.path)
                bsp.replace_lump(lump.index, raw, fourcc=0)
                changes.append(Change(lump_label(lump), len(data), len(raw)))
            shown.advance(lump.length)
        changes += _convert_game_lump(bsp, game_lump, _decompress_members, aligned=False)
    return changes


def _packer(bsp: Bsp) -> Callable[[bytes], bytes | None]:
    """How the map's lumps are compressed: Valve's PC rule (every one, however small), or the
    console one (the console dictionary; None, stay raw, when LZMA does not make it smaller)."""
    dictionary = bsp.family.console_lzma_dictionary
    if not bsp.header.big_endian or dictionary is None:
        return compress
    props = properties(dictionary)

    def pack(data: bytes) -> bytes | None:
        packed = compress(data, props)
        return packed if len(packed) < len(data) else None
    return pack


def _lump_progress(bsp: Bsp, verb: str, skip: int | None = None) -> ContextManager[Progress]:
    """A progress bar over the bytes of the lumps (but `skip`) LZMA goes through, shown when
    there are enough of them to take a while."""
    total = sum(lump.length for lump in bsp.lumps if lump.index != skip)
    return bar(total, f"{verb} {os.path.basename(bsp.path)}", minimum=LZMA_WORK)


def write_repacked(bsp: Bsp, target: str | os.PathLike) -> int:
    """Write `bsp` with its edits in Valve's repacked layout, atomically; returns the size."""
    header, plan = repacked_plan(bsp)
    return bsp.save_planned(target, header, plan, "repacked").size


def repacked_plan(bsp: Bsp) -> tuple[Header, Plan]:
    """The header and pieces of `bsp` (with its edits) in Valve's repacked layout."""
    header, _ = bsp.plan("compact")      # the new directory, non-empty lumps in file order
    game_lump, pakfile = (bsp.family.index_of(name) for name in (bsp.family.game_lump,
                                                                 bsp.family.pakfile))
    pieces = []
    position = header.size
    for lump in sorted((l for l in header.lumps if l.length), key=lambda l: l.offset):
        boundary = bsp.layout.boundary(lump.index)
        if lump.index == pakfile:
            boundary = max(boundary, bsp.family.pakfile_alignment or ALIGNMENT)
        start = align(position, boundary)
        pieces.append(Piece("zeros", start - position))
        if bsp.is_replaced(lump.index) or lump.index == game_lump:     # the game lump relocated
            pieces.append(Piece("lump", lump.length, index=lump.index))
        else:
            pieces.append(Piece("copy", lump.length, src=bsp.lumps[lump.index].offset))
        lump.offset = start
        position = start + lump.length
    for lump in header.lumps:
        if not lump.length:
            lump.offset = lump.fourcc = 0
    tail, boundary = bsp.layout.tail, bsp.layout.end_boundary
    if tail is not None and (boundary <= ALIGNMENT or bsp.tail_is_data()):
        # bytes after the last lump, zeros too: RepackBSP writes none, so they came after it
        # and stay as they are (their length kept), after the last lump's 4-byte alignment
        pieces += [Piece("zeros", align(position) - position),
                   Piece("copy", tail.length, src=tail.start)]
    elif boundary > ALIGNMENT:      # a console map's file end: zeros up to its sector
        pieces.append(Piece("zeros", -position % boundary))
    pieces = [p for p in pieces if p.length]
    return header, Plan(tuple(l.offset for l in header.lumps), header.size, tuple(pieces))


def end_padded(bsp: Bsp) -> bool:
    """True when the file ends with zeros after its last lump, padded to a multiple of 1 KiB
    (as some Valve-distributed maps end; RepackBSP itself writes no padding, and `compress`
    and `decompress` keep such zeros as they keep any trailing bytes)."""
    if not bsp.layout.order or bsp.size % END_ALIGNMENT:
        return False
    end = bsp.lumps[bsp.layout.order[-1]].end
    return end < bsp.size and not bsp.read_range(end, bsp.size).strip(b"\0")


def _special_lumps(bsp: Bsp, verb: str) -> tuple[int, int]:
    if bsp.family.key != "source":
        raise BspError(f"{verb}: only Source maps have LZMA lumps, this is a {bsp.family.title} "
                       "map", path=bsp.path)
    return bsp.family.index_of(bsp.family.game_lump), bsp.family.index_of(bsp.family.pakfile)


def _convert_game_lump(bsp: Bsp, index: int, convert: Callable[[GameLump], list[Change]],
                       aligned: bool) -> list[Change]:
    """Apply `convert` to the game lump's members and lay them out again in directory order,
    back to back or 4-byte `aligned`; the lump is kept as it is when no member changes."""
    lump = bsp.lumps[index]
    if not lump.length:
        return []
    game = read_game_lump(bsp)
    try:
        changes = convert(game)
    except BspError as exc:
        raise in_game_lump(exc, bsp)
    if changes:
        placed = set(map(id, game.placed))
        game.placed = [m for m in game.members if id(m) in placed]
        for member in game.placed:
            member.gap = None
        game.lead, game.aligned = b"", aligned
        bsp.replace_lump(index, game.to_bytes(lump.offset), fourcc=0)
    return changes


def _compress_members(game: GameLump, pack: Callable[[bytes], bytes | None]) -> list[Change]:
    """Members compressed one by one (as `pack` says), then a terminator unless the directory
    ends with some."""
    changes = []
    for member in game.members:
        packed = pack(member.stored) if member.stored and not member.compressed else None
        if packed is not None:
            changes.append(Change(f"game lump {member.name}", len(member.stored), len(packed), True))
            member.stored, member.flags = packed, member.flags | 1
    if changes and not game.members[-1].terminator:
        end = Member(bytes(4), 0, 0, 0, 0)
        game.members.append(end)
        game.placed.append(end)
    return changes


def _decompress_members(game: GameLump) -> list[Change]:
    """Members decoded; a lone terminator with an offset (the one compressing adds) dropped."""
    changes = []
    for member in game.members:
        if member.stored and member.compressed:
            raw = game.payload(member.name)
            changes.append(Change(f"game lump {member.name}", len(member.stored), len(raw), True))
            member.stored, member.flags, member.length = raw, member.flags & ~1, len(raw)
    members = game.members
    if changes and members[-1].terminator and members[-1].offset and \
            not (len(members) > 1 and members[-2].terminator):
        end = members.pop()
        game.placed = [m for m in game.placed if m is not end]
    return changes
