"""numpy dtypes of the fixed-size lump records, from the Kaitai specs (issue 17).

The data lives in `bspedit.format.generated.record_types` (written by ksy/compiler/dtypes.js from
ksy/*.ksy). numpy is imported only when a dtype is asked for, so importing this module stays
cheap. A fixed-size lump then reads without a copy and writes back byte for byte:

    records = numpy.frombuffer(data, record_dtype("q3", "DRAWVERTS"))
    assert records.tobytes() == data

Console Source maps (PSBV) store the same records big-endian: `endian=">"` gives the dtype with
every field swapped (`dtype.newbyteorder`), for the specs whose byte order is a parameter
(`BYTE_ORDER_SPECS`).
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from .families import BY_KEY
from .generated.record_types import BYTE_ORDER_SPECS, GAME_LUMP_TABLES, RECORD_TYPES

if TYPE_CHECKING:
    import numpy


class LumpType(NamedTuple):
    """One entry of a family's lump table."""

    type: str                            # "spec::type" in ksy/
    lump_version: int | None             # None: any lump version
    map_versions: tuple[int, ...] | None  # None: any map version of the family
    whole: bool                          # a variable-size type that reads the whole lump
    record_size: int | None              # None for whole types


class GameLumpType(NamedTuple):
    """One entry of a family's game lump table (Source game lump members)."""

    type: str
    version: int | None
    whole: bool
    record_size: int | None


def lump_type(family_key: str, lump: str, lump_version: int = 0,
              map_version: int | None = None) -> LumpType | None:
    """The lump table entry of `lump` in a map of family `family_key`, or None when the specs
    describe no type for it (text lumps, unknown lump versions, lumps left raw).

    `map_version` None stands for the family's lowest version."""
    family = BY_KEY.get(family_key)
    entry = None if family is None else family.lump_entry(lump, lump_version, map_version)
    return None if entry is None else LumpType(*entry)


def game_lump_type(family_key: str, lump_id: str, version: int) -> GameLumpType | None:
    """The game lump table entry of member `lump_id` (e.g. "dprp") at `version`, if described."""
    for entry in GAME_LUMP_TABLES.get(family_key, {}).get(lump_id, ()):
        found = GameLumpType(*entry)
        if found.version is None or found.version == version:
            return found
    return None


@lru_cache(maxsize=None)
def type_dtype(type_name: str, endian: str = "<") -> numpy.dtype[Any]:
    """The numpy dtype of the fixed-size record type `type_name` ("spec::type"): packed,
    itemsize equal to the spec's `-bspedit-size`, in byte order `endian` ("<" or ">"; ">" only
    for the types of `BYTE_ORDER_SPECS`)."""
    import numpy

    if endian == ">":
        if type_name.split("::")[0] not in BYTE_ORDER_SPECS:
            raise ValueError(f"{type_name}: its spec is little-endian only")
        return type_dtype(type_name).newbyteorder(">")
    if endian != "<":
        raise ValueError(f"endian must be '<' or '>', not {endian!r}")
    size, fields = RECORD_TYPES[type_name]
    dtype = numpy.dtype(fields)
    if dtype.itemsize != size:
        raise AssertionError(f"{type_name}: dtype itemsize {dtype.itemsize} != {size}")
    return dtype


def record_dtype(family_key: str, lump: str, lump_version: int = 0,
                 map_version: int | None = None, endian: str = "<") -> numpy.dtype[Any] | None:
    """The numpy dtype of one record of `lump` in byte order `endian`, or None when the lump
    has no fixed-size type."""
    entry = lump_type(family_key, lump, lump_version, map_version)
    if entry is None or entry.whole:
        return None
    return type_dtype(entry.type, endian)
