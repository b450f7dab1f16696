"""The TEXTURES lump of Quake 1 (BSP 29, BSP2) and GoldSrc (BSP 30) as an editable model.

Layout (`dmiptexlump_t`): a count, one offset per texture from the lump start (-1: missing),
then the `miptex_t` entries: a 40-byte header (name[16], width, height, 4 mip offsets from
the entry start) and the 4 mip levels; GoldSrc entries add a palette (u16 count, RGB triples)
and usually 2 bytes of padding; GoldSrc textures kept in a WAD have the header only (offsets
0). Every byte is kept: the bytes between the offset table and the first entry (`prefix`),
and each entry's bytes up to the next entry that no field describes (`tail`). An entry whose
mip offsets are the usual contiguous ones is "laid out": its offsets are rebuilt from the
pixel sizes on save, so pixels can grow; any other entry keeps its body and offsets as read.

Read with `struct`, not the generated Kaitai reader: the model cuts the lump into spans between
sorted distinct offsets (the Kaitai type has one overlapping view per offset and copies the
whole body), and a 40-byte header unpacks in one call.
"""
from __future__ import annotations

import struct
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .structjson import blob, padded_name, unblob, unpadded_name

_HEADER = struct.Struct("<16sII4I")
HEADER_SIZE = _HEADER.size           # 40
NAME_SIZE = 16


def mip_sizes(width: int, height: int) -> list[int]:
    """Bytes of the 4 mip levels of a width x height texture."""
    return [(width >> level) * (height >> level) for level in range(4)]


def _contiguous(sizes: list[int]) -> list[int]:
    offsets, at = [], HEADER_SIZE
    for size in sizes:
        offsets.append(at)
        at += size
    return offsets


@dataclass(eq=False, slots=True)
class Miptex:
    """One texture entry (`miptex_t` and what follows it up to the next entry)."""

    offset: int                       # where it was read, from the lump start
    name: bytes                       # the 16-byte name field as stored
    width: int
    height: int
    mip_offsets: list[int]            # as stored (rebuilt on save when laid_out)
    laid_out: bool                    # mips follow the header contiguously
    mips: list[bytes] = field(default_factory=list)    # the 4 levels when laid_out
    palette: bytes | None = None      # GoldSrc: u16 count + RGB triples, as stored
    tail: bytes = b""                 # the rest up to the next entry (the whole body if not laid_out)

    @classmethod
    def parse(cls, offset: int, span: bytes, goldsrc: bool) -> Miptex:
        """The entry at `offset` whose bytes up to the next entry are `span` (>= 40 bytes)."""
        name, width, height, *offsets = _HEADER.unpack_from(span)
        sizes = mip_sizes(width, height)
        end = HEADER_SIZE + sum(sizes)
        if offsets != _contiguous(sizes) or end > len(span):
            return cls(offset, name, width, height, offsets, False, tail=span[HEADER_SIZE:])
        mips = [span[at:at + size] for at, size in zip(offsets, sizes)]
        palette = None
        if goldsrc and end + 2 <= len(span):
            colours = int.from_bytes(span[end:end + 2], "little")
            if end + 2 + 3 * colours <= len(span):
                palette = span[end:end + 2 + 3 * colours]
                end += len(palette)
        return cls(offset, name, width, height, offsets, True, mips, palette, span[end:])

    @property
    def text(self) -> str:
        """The name up to its NUL (latin-1)."""
        return self.name.partition(b"\0")[0].decode("latin-1")

    @property
    def external(self) -> bool:
        """True when the pixels live in a WAD (all mip offsets 0)."""
        return not any(self.mip_offsets)

    def pixels(self, level: int) -> bytes | None:
        """The 8-bit pixels of mip `level` (0-3), or None when the entry has none there."""
        if self.laid_out:
            return self.mips[level]
        at = self.mip_offsets[level] - HEADER_SIZE
        size = mip_sizes(self.width, self.height)[level]
        if not self.mip_offsets[level] or at < 0 or at + size > len(self.tail):
            return None
        return self.tail[at:at + size]

    @property
    def colours(self) -> bytes | None:
        """GoldSrc: the embedded palette's RGB triples."""
        return None if self.palette is None else self.palette[2:]

    def rename(self, name: str) -> None:
        """Write `name` into the name field: the old name's bytes are replaced (zeros after
        the new NUL), bytes after the old name's NUL (compiler fill) are kept."""
        new = name.encode("ascii")
        if len(new) >= NAME_SIZE:
            raise ValueError(f"texture name {name!r} needs at most {NAME_SIZE - 1} characters")
        nul = self.name.find(b"\0")
        old_end = NAME_SIZE if nul < 0 else nul + 1
        head = new.ljust(max(old_end, len(new) + 1), b"\0")
        self.name = head + self.name[len(head):]

    def set_pixels(self, width: int, height: int, mips: list[bytes],
                   palette: bytes | None = None) -> None:
        """New size and pixels (4 levels); the entry is laid out again (offsets rebuilt).
        `palette` (GoldSrc, u16 count + triples) replaces the old one when given."""
        if [len(m) for m in mips] != mip_sizes(width, height):
            raise ValueError(f"mip levels of {[len(m) for m in mips]} bytes do not fit "
                             f"{width}x{height}")
        self.width, self.height, self.mips = width, height, list(mips)
        self.tail = self.tail if self.laid_out else b""
        self.laid_out = True
        self.palette = palette if palette is not None else self.palette

    def to_bytes(self) -> bytes:
        if not self.laid_out:
            return _HEADER.pack(self.name, self.width, self.height, *self.mip_offsets) + self.tail
        offsets = _contiguous([len(m) for m in self.mips])
        return b"".join([_HEADER.pack(self.name, self.width, self.height, *offsets), *self.mips,
                         self.palette or b"", self.tail])

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"offset": self.offset, **padded_name(self.name),
                               "width": self.width, "height": self.height,
                               "mip_offsets": list(self.mip_offsets), "laid_out": self.laid_out}
        if self.laid_out:
            out["mips"] = [blob(m) for m in self.mips]
        if self.palette is not None:
            out["palette"] = blob(self.palette)
        out["tail"] = blob(self.tail)
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Miptex:
        palette = obj.get("palette")
        return cls(obj["offset"], unpadded_name(obj, NAME_SIZE), obj["width"], obj["height"],
                   list(obj["mip_offsets"]), obj["laid_out"],
                   [unblob(m) for m in obj.get("mips", ())],
                   None if palette is None else unblob(palette), unblob(obj["tail"]))


@dataclass(eq=False, slots=True)
class MiptexLump:
    """The Quake 1 TEXTURES lump: `offsets` (one per texture slot, as read), `entries` (the
    distinct entries in lump order), `prefix` (bytes before the first entry). `raw` holds a
    lump too short or inconsistent for a table (written back as is)."""

    GOLDSRC: ClassVar[bool] = False

    count: int = 0
    offsets: list[int] = field(default_factory=list)
    prefix: bytes = b""
    entries: list[Miptex] = field(default_factory=list)
    raw: bytes | None = None

    @classmethod
    def parse(cls, data: bytes) -> MiptexLump:
        data = bytes(data)
        count = int.from_bytes(data[:4], "little", signed=True)
        table_end = 4 + 4 * count
        if len(data) < 4 or count < 0 or table_end > len(data):
            return cls(raw=data)
        offsets = list(struct.unpack_from(f"<{count}i", data, 4))
        starts: list[int] = []
        for at in sorted({o for o in offsets if table_end <= o <= len(data) - HEADER_SIZE}):
            if not starts or at >= starts[-1] + HEADER_SIZE:    # overlapping: inside the previous
                starts.append(at)
        ends = starts[1:] + [len(data)]
        entries = [Miptex.parse(s, data[s:e], cls.GOLDSRC) for s, e in zip(starts, ends)]
        prefix = data[table_end:starts[0] if starts else len(data)]
        return cls(count, offsets, prefix, entries)

    def texture(self, slot: int) -> Miptex | None:
        """The entry texture slot `slot` points at (None: -1 or not at an entry start)."""
        at = self.offsets[slot]
        for entry in self.entries:
            if entry.offset == at:
                return entry
        return None

    @property
    def names(self) -> list[str | None]:
        """The texture name of each slot (None for missing ones)."""
        by_offset = {e.offset: e.text for e in self.entries}
        return [by_offset.get(o) for o in self.offsets]

    def rename(self, slot: int, name: str) -> None:
        """Rename the texture of `slot` in place (see `Miptex.rename`)."""
        entry = self.texture(slot)
        if entry is None:
            raise IndexError(f"texture slot {slot} has no texture")
        entry.rename(name)

    def to_bytes(self) -> bytes:
        if self.raw is not None:
            return self.raw
        table_end = 4 + 4 * len(self.offsets)
        pieces, moved, at = [self.prefix], [], table_end + len(self.prefix)
        for entry in self.entries:
            piece = entry.to_bytes()
            moved.append(at - entry.offset)
            pieces.append(piece)
            at += len(piece)
        starts = [e.offset for e in self.entries]

        def relocated(offset: int) -> int:       # shifts with the entry it points into
            k = bisect_right(starts, offset) - 1
            return offset if offset < 0 or k < 0 else offset + moved[k]

        table = struct.pack(f"<i{len(self.offsets)}i", self.count,
                            *map(relocated, self.offsets))
        return table + b"".join(pieces)

    def to_json(self) -> dict[str, Any]:
        if self.raw is not None:
            return {"raw": blob(self.raw)}
        return {"count": self.count, "offsets": list(self.offsets), "prefix": blob(self.prefix),
                "textures": [e.to_json() for e in self.entries]}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> MiptexLump:
        if "raw" in obj:
            return cls(raw=unblob(obj["raw"]))
        return cls(obj["count"], list(obj["offsets"]), unblob(obj["prefix"]),
                   [Miptex.from_json(e) for e in obj["textures"]])


class GoldSrcMiptexLump(MiptexLump):
    """The GoldSrc TEXTURES lump: as Quake 1's, with embedded palettes and WAD-only entries."""

    GOLDSRC: ClassVar[bool] = True
