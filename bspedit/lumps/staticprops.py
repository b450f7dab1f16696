"""Static props (game lump member `sprp`): model dictionary, leaf list and prop records.

Layout: a count and 128-byte model names; a count and leaf indices (u16, u32 in Strata's
versions 12 and 13); a count and the records, whose layout depends on the version. Two version
numbers are ambiguous: 7 is Left 4 Dead's 68-byte record or the rearranged Source 2013 one
("7*", 72 bytes: flags moved to a u32, lightmap size added), which TF2 and other Source 2013
multiplayer games also write as 10 (CS:GO's 10 is 76 bytes). The layout is chosen from the
record size the data implies, never from the game. Version 11 is read as CS:GO's layout
(Black Mesa's 80-byte 11 differs but has the same size). The layouts are the record types
static_prop_* of ksy/source_game_lumps.ksy (each field's offset and struct format from its
dtype), loaded when static props are first parsed.

Counts, leaf indices and record fields are in the map's byte order (`endian`: "<" on PC, ">" on
console maps); model names are bytes either way. Records stay raw bytes: an edit packs one field
into one record, so untouched records, names and leaves keep their bytes. Removing a prop leaves
the leaf list and the dictionary alone (the other props' leaf ranges stay valid; the removed
prop's entries are just no longer used).
"""
from __future__ import annotations

import math
import struct
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..errors import BspError
from .counts import read_count
from .gamelump import GameLump, in_game_lump
from ..format.names import game_path

if TYPE_CHECKING:
    import numpy

    from ..container.mapfile import MapFile

NAME_SIZE = 128
MEMBER = "sprp"


@dataclass(frozen=True, slots=True)
class RecordLayout:
    """Where each field of one static prop record lies: name -> (offset, struct format)."""

    name: str
    size: int
    fields: dict[str, tuple[int, str]]


# (version, layout name, record type in ksy/source_game_lumps.ksy); the record size is the type's.
# With no props the size is unknown: the smaller one is used.
_VERSIONS = ((4, "v4", "static_prop_v4"), (5, "v5", "static_prop_v5"), (6, "v6", "static_prop_v6"),
             (7, "v7", "static_prop_v7"), (7, "v7*", "static_prop_v7_star"),
             (8, "v8", "static_prop_v8"), (9, "v9", "static_prop_v9"),
             (10, "v10", "static_prop_v10"), (10, "v7*", "static_prop_v7_star"),
             (11, "v11", "static_prop_v11"), (12, "v12", "static_prop_v11"),
             (13, "v13", "static_prop_v13"))
# numpy base type ("f4", "u2", ...) -> struct format character
_STRUCT_CHARS = {"f4": "f", "u1": "B", "u2": "H", "u4": "I", "i1": "b", "i2": "h", "i4": "i"}


def _scalars(dtype: numpy.dtype[Any]) -> list[str]:
    """The struct format characters of a field's scalars, in order."""
    base = dtype.base
    one = [_STRUCT_CHARS[base.str[1:]]] if base.fields is None else \
        [char for sub, *_ in base.fields.values() for char in _scalars(sub)]
    return one * math.prod(dtype.shape)


def _struct_format(dtype: numpy.dtype[Any]) -> str:
    """The struct format of a field's dtype, its scalars all of one type: "3f" for a vec3,
    "4B" for four bytes, "I" for a u32."""
    chars = _scalars(dtype)
    if len(set(chars)) != 1:
        raise AssertionError(f"a static prop field mixes scalar types: {dtype}")
    return f"{len(chars)}{chars[0]}" if len(chars) > 1 else chars[0]


@lru_cache(maxsize=None)
def layouts() -> dict[tuple[int, int], RecordLayout]:
    """(version, record size) -> layout, from the record types of ksy/source_game_lumps.ksy.
    Byte fields (the padding of v7*) are left out: nothing reads them."""
    from ..format.recordtypes import type_dtype

    found = {}
    for version, name, type_name in _VERSIONS:
        dtype = type_dtype(f"source_game_lumps::{type_name}")
        assert dtype.fields is not None
        fields = {field: (offset, _struct_format(sub))
                  for field, (sub, offset, *_) in dtype.fields.items() if sub.base.kind != "S"}
        found[version, dtype.itemsize] = RecordLayout(name, dtype.itemsize, fields)
    return found


def _leaf_widths(version: int) -> tuple[int, ...]:
    """Leaf index sizes to try, most likely first."""
    return (4, 2) if version >= 12 else (2, 4)


@dataclass(eq=False, slots=True)
class StaticProps:
    """A parsed `sprp` member that writes back byte for byte."""

    version: int
    layout: RecordLayout
    names: list[bytes]           # 128-byte dictionary entries as stored
    leaf_width: int
    leaves: bytes                # the leaf list as stored
    records: list[bytearray]
    endian: str = "<"            # the map's byte order

    @classmethod
    def parse(cls, data: bytes, version: int, endian: str = "<") -> StaticProps:
        """Parse `sprp` data of game lump version `version` in byte order `endian`; BspError if
        no layout fits."""
        data = bytes(data)
        table = layouts()
        sizes = sorted({size for v, size in table if v == version})
        if not sizes:
            known = ", ".join(str(v) for v in sorted({v for v, _ in table}))
            raise BspError(f"sprp version {version} is not a known static prop version ({known})")
        models = read_count(data, 0, NAME_SIZE, "model names", endian, MEMBER)
        position = 4 + NAME_SIZE * models
        names = [data[4 + NAME_SIZE * i:4 + NAME_SIZE * (i + 1)] for i in range(models)]
        leaf_count = read_count(data, position, 2, "leaves", endian, MEMBER)
        for width in _leaf_widths(version):
            props_at = position + 4 + width * leaf_count
            if props_at + 4 > len(data):
                continue
            count = read_count(data, props_at, 0, "props", endian, MEMBER)
            room = len(data) - props_at - 4
            size = room // count if count else sizes[0]
            if room == count * size and size in sizes:
                break
        else:
            raise BspError(f"sprp version {version}: the data after the model dictionary fits "
                           f"no known record layout (records of {', '.join(map(str, sizes))} "
                           "bytes)", offset=position)
        start = props_at + 4
        records = [bytearray(data[start + size * i:start + size * (i + 1)]) for i in range(count)]
        return cls(version, table[version, size], names, width, data[position + 4:props_at],
                   records, endian)

    def to_bytes(self) -> bytes:
        count = struct.Struct(self.endian + "i").pack
        return b"".join([count(len(self.names)), *self.names,
                         count(len(self.leaves) // self.leaf_width), self.leaves,
                         count(len(self.records)), *self.records])

    def __len__(self) -> int:
        return len(self.records)

    @property
    def leaf_entries(self) -> int:
        return len(self.leaves) // self.leaf_width

    def model_names(self) -> list[str]:
        return [_name(raw) for raw in self.names]

    def field(self, name: str) -> tuple[int, str]:
        """Offset and struct format (such as '3f') of a field of this layout."""
        if name not in self.layout.fields:
            raise BspError(f"static props of layout {self.layout.name} have no field {name!r} "
                           f"(fields: {', '.join(self.layout.fields)})")
        return self.layout.fields[name]

    def check_index(self, index: int) -> None:
        """BspError unless a prop `index` exists."""
        if not 0 <= index < len(self.records):
            raise BspError(f"no static prop {index}: the map has {len(self.records)}"
                           + (f" (0-{len(self.records) - 1})" if self.records else ""))

    def _record(self, index: int) -> bytearray:
        self.check_index(index)
        return self.records[index]

    def get(self, index: int, field: str) -> int | float | tuple[int | float, ...]:
        """A field of prop `index`: a number, or a tuple for vectors and byte groups."""
        offset, fmt = self.field(field)
        values = struct.unpack_from(self.endian + fmt, self._record(index), offset)
        return values if len(values) > 1 else values[0]

    def set(self, index: int, field: str, value: int | float | Iterable[int | float]) -> None:
        """Write a field of prop `index` in place (only its bytes change)."""
        offset, fmt = self.field(field)
        record = self._record(index)
        values = list(value) if isinstance(value, Iterable) else [value]
        expected = int(fmt[:-1] or 1)
        if len(values) != expected:
            raise BspError(f"{field} takes {expected} value(s), got {len(values)}")
        try:
            values = [float(v) if fmt.endswith("f") else int(v) for v in values]
            packed = struct.pack(self.endian + fmt, *values)    # pack_into would clear it first
        except (struct.error, OverflowError, ValueError) as exc:
            raise BspError(f"{field} = {value!r} does not fit the record's {fmt!r} field: "
                           f"{exc}") from exc
        record[offset:offset + len(packed)] = packed

    def model(self, index: int) -> str | None:
        """The model name of prop `index` (None if its dictionary index is out of range)."""
        model = self.get(index, "model")
        return _name(self.names[model]) if isinstance(model, int) and model < len(self.names) \
            else None

    def set_model(self, index: int, name: str) -> bool:
        """Point prop `index` at model `name`, adding it to the dictionary when it is not there
        (names compare case-insensitively, `\\` as `/`). Returns True if the dictionary grew."""
        self._record(index)
        wanted = game_path(name)
        for model, existing in enumerate(self.model_names()):
            if game_path(existing) == wanted:
                self.set(index, "model", model)
                return False
        encoded = name.encode("ascii") if name.isascii() else b""
        if not encoded or b"\0" in encoded or len(encoded) >= NAME_SIZE:
            raise BspError(f"a model name is 1-{NAME_SIZE - 1} ASCII characters, not {name!r}")
        if len(self.names) > 0xFFFF:
            raise BspError("the model dictionary is full (65536 names)")
        self.names.append(encoded.ljust(NAME_SIZE, b"\0"))
        self.set(index, "model", len(self.names) - 1)
        return True

    def _count(self, index: int, field: str) -> int:
        """An integer field of prop `index` (first_leaf, leaf_count)."""
        value = self.get(index, field)
        assert isinstance(value, int)
        return value

    def leaf_table(self) -> list[int]:
        """Every entry of the leaf list (leaf indices), shared by the props' ranges."""
        count = len(self.leaves) // self.leaf_width
        return list(struct.unpack(f"{self.endian}{count}{'H' if self.leaf_width == 2 else 'I'}",
                                  self.leaves[:count * self.leaf_width]))

    def prop_leaves(self, index: int) -> list[int]:
        """The leaves prop `index` is listed in (its range of the leaf list; BspError when the
        range lies outside it)."""
        first, count = self._count(index, "first_leaf"), self._count(index, "leaf_count")
        table = self.leaf_table()
        if first + count > len(table):
            raise BspError(f"static prop {index}: leaves {first}-{first + count - 1} outside the "
                           f"leaf list ({len(table)} entries)")
        return table[first:first + count]

    def canonical_leaves(self) -> bool:
        """True when the leaf list is what vbsp writes: each prop's leaves in turn, in prop
        order, nothing shared or left over."""
        at = 0
        for index in range(len(self.records)):
            if self._count(index, "first_leaf") != at:
                return False
            at += self._count(index, "leaf_count")
        return at == self.leaf_entries

    def set_prop_leaves(self, index: int, leaves: Iterable[int]) -> None:
        """List prop `index` in `leaves`. A canonical leaf list (`canonical_leaves`) is written
        again the way vbsp writes it, so moving a prop and back gives back its bytes; otherwise
        the prop's own range is rewritten when the new list fits it and no other prop shares
        it, else the list is appended (the old entries stay, unused)."""
        new = [int(leaf) for leaf in leaves]
        limit = (1 << (8 * self.leaf_width)) - 1
        if any(not 0 <= leaf <= limit for leaf in new):
            raise BspError(f"a leaf index does not fit the leaf list's {self.leaf_width}-byte "
                           "entries")
        pack = struct.Struct(f"{self.endian}{'H' if self.leaf_width == 2 else 'I'}").pack
        table = self.leaf_table()
        if self.canonical_leaves():
            first = self._count(index, "first_leaf")
            count = self._count(index, "leaf_count")
            table[first:first + count] = new
            if len(table) > 0xFFFF:
                raise BspError("the leaf list would outgrow the props' 16-bit leaf fields")
            for i in range(index + 1, len(self)):      # the props after it move with it
                self.set(i, "first_leaf", self._count(i, "first_leaf") + len(new) - count)
        else:
            first, count = self._count(index, "first_leaf"), self._count(index, "leaf_count")
            shared = any(i != index and first < self._count(i, "first_leaf") +
                         self._count(i, "leaf_count") and
                         self._count(i, "first_leaf") < first + count for i in range(len(self)))
            if shared or len(new) > count:
                first = len(table)
                table = table + new
                if first + len(new) > 0xFFFF:
                    raise BspError("the leaf list would outgrow the props' 16-bit leaf fields")
            else:
                table[first:first + len(new)] = new
            self.set(index, "first_leaf", first)
        self.set(index, "leaf_count", len(new))
        self.leaves = b"".join(pack(leaf) for leaf in table)

    def remove(self, indices: Iterable[int]) -> None:
        """Remove props by index (the leaf list and the dictionary stay as they are)."""
        doomed = set(indices)
        for index in doomed:
            self._record(index)
        self.records = [r for i, r in enumerate(self.records) if i not in doomed]


def _name(raw: bytes) -> str:
    """A dictionary entry's name: its bytes up to the first NUL."""
    return raw.split(b"\0", 1)[0].decode("latin-1")


def parse_static_props(bsp: MapFile, lump: GameLump) -> StaticProps:
    """The static props of `bsp`'s parsed game lump `lump` (errors name the map and lump)."""
    try:
        return StaticProps.parse(lump.payload(MEMBER), lump.member(MEMBER).version, lump.endian)
    except BspError as exc:
        raise in_game_lump(exc, bsp)
