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
byte for byte. The pakfile is copied as it is; trailing data is kept unless it is all zeros.
"""
from __future__ import annotations

import os
import struct
from collections.abc import Callable

import attrs

from . import executor
from .bsp import Bsp
from .errors import BspError
from .gamelump import game_lump_directory, game_lump_offsets_absolute
from .header import Header
from .layout import align, lump_label
from .limits import LIMITS
from .lzma_lump import HEADER_SIZE, compress, decompress, lzma_header
from .planner import Piece, Plan

PAKFILE_ALIGNMENT = 2048
_TERMINATOR = bytes(4)


@attrs.frozen
class Change:
    """A lump or game lump member whose stored bytes changed."""

    name: str
    before: int
    after: int
    member: bool = False          # a game lump member, not a lump


@attrs.frozen
class _Member:
    """A game lump directory entry and its stored bytes (a compressed member without padding)."""

    ident: bytes
    flags: int
    version: int
    length: int
    data: bytes
    placed: bool          # has an offset (terminators bspzip leaves at offset 0 have none)

    @property
    def name(self) -> str:
        return self.ident[::-1].decode("latin-1")

    @property
    def compressed(self) -> bool:
        return bool(self.flags & 1)

    @property
    def terminator(self) -> bool:
        return self.ident == _TERMINATOR and self.length == 0


_Converted = tuple[list[_Member], list[Change]]


def compress_map(bsp: Bsp) -> list[Change]:
    """Give every uncompressed lump and game lump member of `bsp` Valve's LZMA form."""
    game_lump, pakfile = _special_lumps(bsp, "compress")
    changes = []
    for lump in bsp.lumps:
        if lump.length and lump.index not in (game_lump, pakfile):
            data = bsp.read_lump(lump.index)
            if lzma_header(data) is None:
                packed = compress(data)
                bsp.replace_lump(lump.index, packed)        # fourCC: the uncompressed size
                changes.append(Change(lump_label(lump), len(data), len(packed)))
    return changes + _convert_game_lump(bsp, game_lump, _compress_members, alignment=4)


def decompress_map(bsp: Bsp) -> list[Change]:
    """Decode every compressed lump and game lump member of `bsp`."""
    game_lump, _ = _special_lumps(bsp, "decompress")
    changes = []
    for lump in bsp.lumps:
        data = bsp.read_lump(lump.index) if lump.length else b""
        if lzma_header(data) is not None:
            try:
                raw = decompress(data, LIMITS.lump_size)
            except BspError as exc:
                exc.lump, exc.offset = lump_label(lump), lump.offset + (exc.offset or 0)
                raise exc.at(bsp.path)
            bsp.replace_lump(lump.index, raw, fourcc=0)
            changes.append(Change(lump_label(lump), len(data), len(raw)))
    return changes + _convert_game_lump(bsp, game_lump, _decompress_members, alignment=1)


def write_repacked(bsp: Bsp, target: str | os.PathLike) -> int:
    """Write `bsp` with its edits in Valve's repacked layout, atomically; returns the size."""
    header, plan = repacked_plan(bsp)
    fd = os.open(bsp.path, os.O_RDONLY)
    try:
        executor.save_as(fd, os.fspath(target), header.to_bytes(), plan, bsp.materialise)
    finally:
        os.close(fd)
    return plan.end


def repacked_plan(bsp: Bsp) -> tuple[Header, Plan]:
    """The header and pieces of `bsp` (with its edits) in Valve's repacked layout."""
    header, _ = bsp.plan("compact")      # the new directory, non-empty lumps in file order
    game_lump, pakfile = (bsp.family.index_of(name) for name in (bsp.family.game_lump,
                                                                 bsp.family.pakfile))
    pieces = []
    position = header.size
    for lump in sorted((l for l in header.lumps if l.length), key=lambda l: l.offset):
        start = -(-position // PAKFILE_ALIGNMENT) * PAKFILE_ALIGNMENT if lump.index == pakfile \
            else align(position)
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
    tail = bsp.layout.tail
    if tail is not None and bsp.read_range(tail.start, tail.end).strip(b"\0"):
        pieces += [Piece("zeros", align(position) - position),
                   Piece("copy", tail.length, src=tail.start)]
    pieces = [p for p in pieces if p.length]
    return header, Plan(tuple(l.offset for l in header.lumps), header.size, tuple(pieces))


def _special_lumps(bsp: Bsp, verb: str) -> tuple[int, int]:
    if bsp.family.key != "source":
        raise BspError(f"{verb}: only Source maps have LZMA lumps, this is a {bsp.family.title} "
                       "map", path=bsp.path)
    return bsp.family.index_of(bsp.family.game_lump), bsp.family.index_of(bsp.family.pakfile)


def _convert_game_lump(bsp: Bsp, index: int, convert: Callable[[list[_Member]], _Converted],
                       alignment: int) -> list[Change]:
    """Apply `convert` to the game lump's members and lay them out `alignment`-aligned; the
    lump is kept as it is when no member changes."""
    lump = bsp.lumps[index]
    if not lump.length:
        return []
    data = bsp.read_lump(index)
    try:
        base = lump.offset if game_lump_offsets_absolute(data, lump.offset) else 0
        members = _members(data, base)
        converted, changes = convert(members)
    except BspError as exc:
        exc.lump = lump_label(lump)
        raise exc.at(bsp.path)
    if changes:
        bsp.replace_lump(index, _pack(converted, base, alignment), fourcc=0)
    return changes


def _members(data: bytes, base: int) -> list[_Member]:
    """The directory's entries with their stored bytes; `base` is what offsets count from."""
    members = []
    for entry in game_lump_directory(data).entries:
        member = _Member(entry.id, entry.flags, entry.version, entry.length, b"", entry.offset != 0)
        start = end = entry.offset - base
        if entry.length:
            if not (entry.offset and 0 < start < len(data)):
                raise BspError(f"game lump {member.name!r} lies outside the game lump",
                               offset=entry.offset)
            header = lzma_header(data[start:start + HEADER_SIZE]) if member.compressed else None
            if member.compressed and header is None:
                raise BspError(f"game lump {member.name!r} is flagged compressed but has no LZMA "
                               "header", offset=entry.offset)
            end = start + (HEADER_SIZE + header.lzma_size if header else entry.length)
            if end > len(data):
                raise BspError(f"game lump {member.name!r} runs past the end of the game lump",
                               offset=entry.offset)
        members.append(attrs.evolve(member, data=data[start:end]))
    return members


def _compress_members(members: list[_Member]) -> _Converted:
    """Members compressed one by one, then a terminator unless the directory ends with some."""
    out, changes = [], []
    for member in members:
        if member.data and not member.compressed:
            packed = compress(member.data)
            changes.append(Change(f"game lump {member.name}", len(member.data), len(packed), True))
            member = attrs.evolve(member, flags=member.flags | 1, data=packed)
        out.append(member)
    if not out or not out[-1].terminator:
        out.append(_Member(_TERMINATOR, 0, 0, 0, b"", True))
    return out, changes


def _decompress_members(members: list[_Member]) -> _Converted:
    """Members decoded; a lone terminator with an offset (the one compressing adds) dropped."""
    out, changes = [], []
    for member in members:
        if member.data and member.compressed:
            try:
                raw = decompress(member.data, LIMITS.lump_size)
            except BspError as exc:
                raise BspError(f"game lump {member.name!r}: {exc.message}") from exc
            changes.append(Change(f"game lump {member.name}", len(member.data), len(raw), True))
            member = attrs.evolve(member, flags=member.flags & ~1, length=len(raw), data=raw)
        out.append(member)
    if out and out[-1].terminator and out[-1].placed and (len(out) < 2 or not out[-2].terminator):
        out.pop()
    return out, changes


def _pack(members: list[_Member], base: int, alignment: int) -> bytes:
    """A game lump: directory, then member data in directory order, each `alignment`-aligned
    (the lump itself starts 4-aligned); offsets count from `base`."""
    directory = bytearray(struct.pack("<i", len(members)))
    body = bytearray()
    start = 4 + 16 * len(members)
    for member in members:
        offset = 0
        if member.placed:
            body += bytes(-(start + len(body)) % alignment)
            offset = base + start + len(body)
            body += member.data
        directory += member.ident + struct.pack("<HHii", member.flags, member.version, offset,
                                                member.length)
    return bytes(directory + body)
