"""The Source game lump (lump 35): its members, read and edited by id, and written back for
wherever the lump lands (the directory and its offset fix-up: bspedit.format.gamelumpdir).

The directory is in the map's byte order (`endian`: "<" on PC, ">" on console maps, whose
member offsets are relative to the lump). Member data follows the directory. A compressed
member (flags bit 0) is its own Valve LZMA blob and its directory length is the uncompressed
size: its stored size follows from the next entry's offset. Terminator entries (id 0) mark the
end, one of them possibly with offset 0 (pointing nowhere).
"""
from __future__ import annotations

import struct
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..container.layout import ALIGNMENT
from ..errors import BspError
from ..format import lzma_lump
from ..format.gamelumpdir import (ENTRY, entry_format, game_lump_directory,
                                  game_lump_offsets_absolute)
from ..format.header import lump_label
from ..limits import LIMITS

if TYPE_CHECKING:
    from ..container.mapfile import MapFile

def fourcc(name: str, endian: str = "<") -> bytes:
    """A game lump id as stored: an int in the map's byte order, so 'sprp' reads as the bytes
    'prps' little-endian (PC) and 'sprp' big-endian (console)."""
    return _int_bytes(name.encode("ascii"), endian)


def _int_bytes(ident: bytes, endian: str) -> bytes:
    """The 4 bytes of an id, as written, stored as an int in byte order `endian` (and back)."""
    return ident[::-1] if endian == "<" else ident


@dataclass(eq=False, slots=True)
class Member:
    """One directory entry and the bytes it points at."""

    ident: bytes                 # as stored (fourcc): PC 'sprp' is b'prps'; terminators are zeros
    flags: int
    version: int
    offset: int                  # as stored: absolute, relative, or 0 (points nowhere)
    length: int                  # as declared: the uncompressed size of a compressed member
    stored: bytes = b""          # the member's bytes as stored (its LZMA blob if compressed)
    gap: bytes | None = b""      # bytes after it up to the next member; None: alignment padding
    endian: str = "<"            # the map's byte order, which the stored id is in

    @property
    def name(self) -> str:
        """The id as written ('sprp'), in either byte order."""
        return _int_bytes(self.ident, self.endian).decode("latin-1")

    @property
    def compressed(self) -> bool:
        return bool(self.flags & 1)

    @property
    def terminator(self) -> bool:
        return self.ident == bytes(4)


@dataclass(eq=False, slots=True)
class GameLump:
    """A parsed game lump that writes back byte for byte: members in directory order, the ones
    with data also in data order, with the bytes between members kept where they were."""

    members: list[Member]
    placed: list[Member]         # members with data (non-zero offset), in data order
    lead: bytes                  # bytes between the directory and the first member's data
    absolute: bool               # offsets are file offsets (PC) rather than lump-relative
    aligned: bool                # members were padded to 4-byte boundaries (bspzip's LZMA maps)
    endian: str = "<"            # the directory's byte order
    edits: int = field(default=0, repr=False)     # changes made by replace_member and remove

    @classmethod
    def parse(cls, data: bytes, lump_offset: int, endian: str = "<") -> GameLump:
        """Parse lump bytes stored at `lump_offset` with a directory in byte order `endian`;
        BspError for members outside the lump or overlapping one another."""
        data = bytes(data)
        entries = game_lump_directory(data, endian).entries
        # absolute unless the offsets say otherwise (PC maps; a lump with no data can't tell)
        absolute = game_lump_offsets_absolute(data, lump_offset, entries) or \
            not any(e.offset for e in entries)
        base = lump_offset if absolute else 0
        data_start = 4 + ENTRY * len(entries)
        members = [Member(e.id, e.flags, e.version, e.offset, e.length, endian=endian)
                   for e in entries]
        for member in members:
            start = member.offset - base
            if member.offset and not data_start <= start <= len(data):
                raise BspError(f"game lump member {member.name!r} offset {member.offset} lies "
                               f"outside the game lump's data", offset=member.offset,
                               in_file=absolute)
            if member.length < 0 or (not member.offset and member.length and not member.terminator):
                raise BspError(f"game lump member {member.name!r} at offset {member.offset} "
                               f"declares {member.length} bytes", offset=member.offset,
                               in_file=absolute)
        placed = sorted((m for m in members if m.offset), key=lambda m: (m.offset, m.length > 0))
        starts = [m.offset - base for m in placed] + [len(data)]
        aligned = False
        for member, start, following in zip(placed, starts, starts[1:]):
            end = start + member.length
            if member.compressed:
                header = lzma_lump.lzma_header(data[start:following])
                blob = lzma_lump.HEADER_SIZE + header.lzma_size if header else following - start
                end = start + blob if blob <= following - start else following
            elif end > following:
                what = "runs past the end of the game lump" if following == len(data) else \
                    f"overlaps the next member (at offset {following + base})"
                raise BspError(f"game lump member {member.name!r} at offset {member.offset} of "
                               f"{member.length} bytes {what}", offset=member.offset,
                               in_file=absolute)
            member.stored, member.gap = data[start:end], data[end:following]
            aligned |= 0 < len(member.gap) == -(lump_offset + end) % ALIGNMENT \
                and not member.gap.strip(b"\0")
        lead = data[data_start:starts[0]]
        return cls(members, placed, lead, absolute, aligned, endian)

    def to_bytes(self, lump_offset: int) -> bytes:
        """The lump's bytes for a lump stored at `lump_offset`."""
        base = lump_offset if self.absolute else 0
        out = bytearray(4 + ENTRY * len(self.members))
        struct.pack_into(self.endian + "i", out, 0, len(self.members))
        out += self.lead
        positions = {}
        for member in self.placed:
            positions[id(member)] = len(out)
            out += member.stored
            gap = member.gap
            if gap is None:
                gap = bytes(-(lump_offset + len(out)) % ALIGNMENT if self.aligned else 0)
            out += gap
        entry = entry_format(self.endian)
        for i, member in enumerate(self.members):
            offset = base + positions[id(member)] if id(member) in positions else member.offset
            entry.pack_into(out, 4 + ENTRY * i, member.ident, member.flags, member.version,
                            offset, member.length)
        return bytes(out)

    def member(self, name: str) -> Member:
        """The member with id `name` (such as 'sprp'); BspError if absent or not unique."""
        found = [m for m in self.members if m.ident == _ident(name, self.endian)]
        if len(found) != 1:
            ids = ", ".join(repr(m.name) for m in self.members if not m.terminator) or "none"
            problem = "no" if not found else f"{len(found)} entries for"
            raise BspError(f"{problem} game lump member {name!r} (members: {ids})")
        return found[0]

    def payload(self, name: str | Member) -> bytes:
        """A member's data (by id or the member itself), decompressed if stored compressed."""
        member = self.member(name) if isinstance(name, str) else name
        if not member.compressed or not member.stored:
            return member.stored
        try:
            data = lzma_lump.decompress(member.stored, LIMITS.lump_size)
        except BspError as exc:
            raise BspError(f"game lump member {member.name!r}: {exc.message}",
                           offset=member.offset, in_file=self.absolute) from exc
        if len(data) != member.length:
            raise BspError(f"game lump member {member.name!r} decompresses to {len(data)} "
                           f"bytes, but its directory entry says {member.length}",
                           offset=member.offset, in_file=self.absolute)
        return data

    def replace_member(self, name: str, data: bytes, version: int | None = None) -> bool:
        """Give member `name` new (uncompressed) data, compressed again if it was stored
        compressed (with the settings of its own LZMA header: console maps use a smaller
        dictionary). The bytes after it become alignment padding (zeros up to 4 bytes when the
        lump's members were padded so, else none). Returns False when nothing changes: the
        stored bytes are then kept."""
        member = self.member(name)
        if version is not None and not 0 <= version <= 0xFFFF:
            raise BspError(f"game lump version {version} does not fit in 16 bits")
        if version in (None, member.version) and bytes(data) == self.payload(name):
            return False
        member.stored = bytes(data) if not member.compressed else \
            lzma_lump.compress(data, lzma_lump.properties_of(member.stored))
        member.length = len(data)
        member.version = member.version if version is None else version
        member.gap = None
        if member not in self.placed:       # an entry that pointed nowhere goes before the ends
            index = len(self.placed)
            while index and self.placed[index - 1].terminator:
                index -= 1
            self.placed.insert(index, member)
        self.edits += 1
        return True

    def remove(self, names: Iterable[str]) -> bool:
        """Drop the members named, with the bytes up to the next member's data. Returns False
        when none of them is present."""
        ids = {_ident(name, self.endian) for name in names}
        kept = [m for m in self.members if m.ident not in ids]
        if len(kept) == len(self.members):
            return False
        self.members = kept
        self.placed = [m for m in self.placed if m.ident not in ids]
        self.edits += 1
        return True


def _ident(name: str, endian: str) -> bytes:
    if len(name) != 4 or not name.isascii():
        raise BspError(f"a game lump id is 4 ASCII characters (such as sprp), not {name!r}")
    return fourcc(name, endian)


def remove_members(data: bytes, lump_offset: int, names: set[str], endian: str = "<") -> bytes:
    """The game lump without the members named (e.g. {'dplh'}); offsets stay valid for a lump
    at `lump_offset`. Returns `data` itself when none of them is present."""
    lump = GameLump.parse(data, lump_offset, endian)
    return lump.to_bytes(lump_offset) if lump.remove(names) else data


def game_lump_index(bsp: MapFile) -> int:
    """The game lump's index; BspError for families without one."""
    name = bsp.family.game_lump
    if not name:
        raise BspError(f"{bsp.family.title} maps have no game lump", path=bsp.path)
    return bsp.lump_index(name)


def read_game_lump(bsp: MapFile) -> GameLump:
    """The open map's game lump, parsed (with edits made so far)."""
    index = game_lump_index(bsp)
    try:
        return GameLump.parse(bsp.read_lump(index), bsp.lumps[index].offset, bsp.header.endian)
    except BspError as exc:
        raise in_game_lump(exc, bsp)


def store_game_lump(bsp: MapFile, lump: GameLump) -> None:
    """Put an edited game lump back into the map (the save relocates it if it moves)."""
    index = game_lump_index(bsp)
    bsp.replace_lump(index, lump.to_bytes(bsp.lumps[index].offset))


def in_game_lump(exc: BspError, bsp: MapFile) -> BspError:
    """Name the map and its game lump in an error; returns it for `raise`."""
    exc.lump = exc.lump or lump_label(bsp.lumps[game_lump_index(bsp)])
    return exc.at(bsp.path)
