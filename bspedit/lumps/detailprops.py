"""Source game lump members `dprp` v4 (detail props: model name dictionary, sprite
dictionary, props) and `dplt` / `dplh` v0 (detail prop lighting) as models.

Each table is an int count and fixed-size records, in the map's byte order (`endian`: "<" on
PC, ">" on console maps); the records become numpy structured arrays with the dtypes
generated from ksy/source_game_lumps.ksy (`type_dtype`, in that byte order), so a prop's
origin is `props["origin"][i]` and edits write back exactly the changed bytes. The counts are
read with `struct` and the records with `numpy.frombuffer` rather than the generated Kaitai
reader, which builds one Python object per record. Bytes after the last table are kept in
`trailing`; a member whose counts do not fit its bytes is kept in `raw`. In JSON the records
are tables of text cells (bspedit.lumps.recordtable: one column per leaf field, floats as the
shortest text giving back their bits, NaN payloads and -0.0 included).
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import BspError
from .recordtable import columns, format_rows, parse_rows
from ..format.recordtypes import type_dtype
from .structjson import blob, padded_name, unblob, unpadded_name

if TYPE_CHECKING:
    import numpy

MODEL_TYPE = "source_game_lumps::detail_object_dict_entry"
SPRITE_TYPE = "source_game_lumps::detail_sprite_dict_entry"
PROP_TYPE = "source_game_lumps::detail_object_v4"
LIGHTSTYLE_TYPE = "source_game_lumps::detail_prop_lightstyle"


def _tables(data: bytes, types: tuple[str, ...],
            endian: str) -> tuple[list[numpy.ndarray[Any, Any]], int] | None:
    """The counted record tables of `types` at the start of `data` in byte order `endian`
    (writable copies) and where they end, or None when a count does not fit."""
    import numpy

    arrays, at = [], 0
    for name in types:
        dtype = type_dtype(name, endian)
        if at + 4 > len(data):
            return None
        (count,) = struct.unpack_from(endian + "i", data, at)
        end = at + 4 + count * dtype.itemsize
        if count < 0 or end > len(data):
            return None
        arrays.append(numpy.frombuffer(data, dtype, count, at + 4).copy())
        at = end
    return arrays, at


def _pack(arrays: list[numpy.ndarray[Any, Any]], endian: str) -> bytes:
    return b"".join(struct.pack(endian + "i", len(a)) + a.tobytes() for a in arrays)


def _table_json(array: numpy.ndarray[Any, Any]) -> dict[str, Any]:
    """Records as {"columns": [dotted field names], "rows": [[text cells]]}."""
    cols = columns(array.dtype)
    rows = format_rows(array.tobytes(), array.dtype.itemsize, cols, range(len(array)))
    return {"columns": [c.name for c in cols], "rows": [list(row) for row in rows]}


def _table_from_json(type_name: str, obj: dict[str, Any],
                     endian: str) -> numpy.ndarray[Any, Any]:
    """The records of a `_table_json` value in byte order `endian`; BspError for a malformed
    table."""
    import numpy

    dtype = type_dtype(type_name, endian)
    cols = columns(dtype)
    if obj["columns"] != [c.name for c in cols]:
        raise BspError(f"{type_name} columns {obj['columns']} are not "
                       f"{[c.name for c in cols]}")
    raw = parse_rows(obj["rows"], dtype.itemsize, cols, type_name, first_line=1)
    return numpy.frombuffer(raw, dtype).copy()


@dataclass(eq=False, slots=True)
class DetailProps:
    """dprp version 4: `models` (128-byte names), `sprites`, `props` (records), `trailing`."""

    models: numpy.ndarray[Any, Any] | None = None
    sprites: numpy.ndarray[Any, Any] | None = None
    props: numpy.ndarray[Any, Any] | None = None
    trailing: bytes = b""
    raw: bytes | None = None
    endian: str = "<"            # the map's byte order

    @classmethod
    def parse(cls, data: bytes, endian: str = "<") -> DetailProps:
        data = bytes(data)
        found = _tables(data, (MODEL_TYPE, SPRITE_TYPE, PROP_TYPE), endian)
        if found is None:
            return cls(raw=data, endian=endian)
        (models, sprites, props), end = found
        return cls(models, sprites, props, data[end:], endian=endian)

    @property
    def model_names(self) -> list[str]:
        """The model dictionary's names, up to their NULs."""
        if self.models is None:
            return []
        return [bytes(n).partition(b"\0")[0].decode("latin-1") for n in self.models["name"]]

    def to_bytes(self) -> bytes:
        if self.raw is not None:
            return self.raw
        assert self.models is not None and self.sprites is not None and self.props is not None
        return _pack([self.models, self.sprites, self.props], self.endian) + self.trailing

    def to_json(self) -> dict[str, Any]:
        """Model names as text; sprite and prop records as tables of text cells."""
        if self.raw is not None:
            return {"raw": blob(self.raw)}
        assert self.models is not None and self.sprites is not None and self.props is not None
        return {"models": [padded_name(bytes(n).ljust(128, b"\0")) for n in self.models["name"]],
                "sprites": _table_json(self.sprites), "props": _table_json(self.props),
                "trailing": blob(self.trailing)}

    @classmethod
    def from_json(cls, obj: dict[str, Any], endian: str = "<") -> DetailProps:
        if "raw" in obj:
            return cls(raw=unblob(obj["raw"]), endian=endian)
        import numpy

        names = b"".join(unpadded_name(m, 128) for m in obj["models"])
        return cls(numpy.frombuffer(names, type_dtype(MODEL_TYPE, endian)).copy(),
                   _table_from_json(SPRITE_TYPE, obj["sprites"], endian),
                   _table_from_json(PROP_TYPE, obj["props"], endian), unblob(obj["trailing"]),
                   endian=endian)


@dataclass(eq=False, slots=True)
class DetailPropLighting:
    """dplt / dplh version 0: `records` (lighting, style) and `trailing`."""

    records: numpy.ndarray[Any, Any] | None = None
    trailing: bytes = b""
    raw: bytes | None = None
    endian: str = "<"            # the map's byte order

    @classmethod
    def parse(cls, data: bytes, endian: str = "<") -> DetailPropLighting:
        data = bytes(data)
        found = _tables(data, (LIGHTSTYLE_TYPE,), endian)
        if found is None:
            return cls(raw=data, endian=endian)
        (records,), end = found
        return cls(records, data[end:], endian=endian)

    def to_bytes(self) -> bytes:
        if self.raw is not None:
            return self.raw
        assert self.records is not None
        return _pack([self.records], self.endian) + self.trailing

    def to_json(self) -> dict[str, Any]:
        if self.raw is not None:
            return {"raw": blob(self.raw)}
        assert self.records is not None
        return {"records": _table_json(self.records), "trailing": blob(self.trailing)}

    @classmethod
    def from_json(cls, obj: dict[str, Any], endian: str = "<") -> DetailPropLighting:
        if "raw" in obj:
            return cls(raw=unblob(obj["raw"]), endian=endian)
        return cls(_table_from_json(LIGHTSTYLE_TYPE, obj["records"], endian),
                   unblob(obj["trailing"]), endian=endian)
