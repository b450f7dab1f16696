"""Console (Xbox 360, `PSBV`, big-endian) Source maps made from little-endian PC ones, for tests.

The conversion is written here from the format facts, independently of bspedit's reader and
writer: the header and lump directory big-endian, ident `PSBV`; every lump with a fixed record
layout (numpy dtypes of bspedit.format.generated.record_types, plain data from the ksy specs)
byte-swapped field by field; VISIBILITY's and OCCLUSION's counts and tables swapped; the game
lump's directory big-endian with member offsets relative to the lump, its `sprp` (static prop
layouts per version, below), `dprp` and `dplt`/`dplh` members swapped. Text lumps, the pakfile
(a zip, always little-endian) and lumps with no known layout (PHYSCOLLIDE, PHYSDISP: bspedit
reads those on PC maps only) keep their bytes (`kept_lumps` names them).

Swapping reverses the bytes of each number in place, so it is exact for any bit pattern (NaN
floats too) and `convert(convert(pc, ">"), "<") == pc`. `to_big_endian` then lays the map out
as Valve's console conversion does: the pakfile, stored last, starts on a DVD sector (2048
bytes; zeros before it) and the file ends zero-padded to a sector. Only uncompressed v17-v20
maps are converted (LZMA lumps and v21's reordered `lump_t` are refused).
"""
from __future__ import annotations

import re
import struct
from functools import cache

import numpy

from bspedit.format.families import BY_KEY
from bspedit.format.generated.record_types import RECORD_TYPES
from bspedit.format.recordtypes import record_dtype, type_dtype

LUMPS = 64
HEADER = 8 + 16 * LUMPS + 4
IDENT = {"<": b"VBSP", ">": b"PSBV"}
NAMES = BY_KEY["source"].lump_names
GAME_LUMP, PAKFILE = NAMES.index("GAME_LUMP"), NAMES.index("PAKFILE")
NAME_SIZE = 128

# Static prop records per (version, record size), as struct formats (bspedit/lumps/staticprops.py
# and the SDK's StaticPropLump_t): v4 origin, angles, model, first leaf, leaf count, solid,
# flags, skin, fade min/max, lighting origin; later versions append fields.
_V4 = "3f3fHHHBBiff3f"
_V5 = _V4 + "f"                 # forced fade scale
_V6 = _V5 + "HH"                # min/max DX level
_V7_STAR = _V6 + "I2H"          # Source 2013: flags as u32, lightmap size
_V8 = _V5 + "4B4B"              # CPU/GPU levels, diffuse modulation
_V10 = _V8 + "II"               # disable X360, extra flags
STATIC_PROP_FORMATS = {(4, 56): _V4, (5, 60): _V5, (6, 64): _V6, (7, 68): _V6 + "4B",
                       (7, 72): _V7_STAR, (8, 68): _V8, (9, 72): _V8 + "I", (10, 76): _V10,
                       (10, 72): _V7_STAR, (11, 80): _V10 + "f"}

Spans = tuple[tuple[int, int], ...]     # (offset, width) of every multi-byte number in a record


def dtype_spans(dtype: numpy.dtype) -> Spans:
    """Where the numbers wider than a byte lie in one record of `dtype` (nested, arrays)."""
    if dtype.subdtype is not None:
        base, shape = dtype.subdtype
        inner = dtype_spans(base)
        return tuple((k * base.itemsize + at, width) for k in range(int(numpy.prod(shape)))
                     for at, width in inner)
    if dtype.fields is not None:
        return tuple((offset + at, width) for field, offset, *_ in dtype.fields.values()
                     for at, width in dtype_spans(field))
    return ((0, dtype.itemsize),) if dtype.kind in "iuf" and dtype.itemsize > 1 else ()


def format_spans(fmt: str) -> Spans:
    """The spans of a struct format without byte order ("3fHHi")."""
    spans, at = [], 0
    for count, code in re.findall(r"(\d*)([a-zA-Z])", fmt):
        width = struct.calcsize("<" + code)
        for _ in range(int(count or 1)):
            if width > 1:
                spans.append((at, width))
            at += width
    return tuple(spans)


@cache
def _type_spans(type_name: str) -> tuple[int, Spans]:
    return RECORD_TYPES[type_name][0], dtype_spans(type_dtype(type_name))


def swap_records(data: bytes, size: int, spans: Spans) -> bytes:
    """`data`, whole records of `size` bytes, with every span's bytes reversed."""
    if len(data) % size:
        raise ValueError(f"{len(data)} bytes are not whole {size}-byte records")
    rows = numpy.frombuffer(data, numpy.uint8).reshape(-1, size).copy()
    for at, width in spans:
        rows[:, at:at + width] = rows[:, at:at + width][:, ::-1]
    return rows.tobytes()


def _counted(data: bytes, src: str, sections: list[tuple[int, Spans]]) -> bytes:
    """Data made of int32-counted sections of records (whatever follows them stays as it is),
    with the counts and the records swapped; counts are read in byte order `src`."""
    out, at = bytearray(data), 0
    for size, spans in sections:
        (count,) = struct.unpack_from(src + "i", data, at)
        out[at:at + 4] = data[at:at + 4][::-1]
        at += 4
        out[at:at + size * count] = swap_records(data[at:at + size * count], size, spans)
        at += size * count
    return bytes(out)


def _static_prop_sections(data: bytes, src: str, version: int) -> list[tuple[int, Spans]]:
    """The sections of a `sprp` member: model names, u16 leaves, prop records."""
    (names,) = struct.unpack_from(src + "i", data, 0)
    leaves_at = 4 + NAME_SIZE * names
    (leaves,) = struct.unpack_from(src + "i", data, leaves_at)
    props_at = leaves_at + 4 + 2 * leaves
    (props,) = struct.unpack_from(src + "i", data, props_at)
    size = (len(data) - props_at - 4) // props if props else 1
    spans = format_spans(STATIC_PROP_FORMATS[version, size]) if props else ()
    return [(NAME_SIZE, ()), (2, ((0, 2),)), (size, spans)]


def _member(name: bytes, version: int, data: bytes, src: str) -> bytes:
    """A game lump member swapped: `sprp`, `dprp`, `dplt`/`dplh`; others keep their bytes."""
    if name == b"sprp":
        return _counted(data, src, _static_prop_sections(data, src, version))
    if name == b"dprp":
        return _counted(data, src, [_type_spans("source_game_lumps::detail_object_dict_entry"),
                                    _type_spans("source_game_lumps::detail_sprite_dict_entry"),
                                    _type_spans("source_game_lumps::detail_object_v4")])
    if name in (b"dplt", b"dplh"):
        return _counted(data, src, [_type_spans("source_game_lumps::detail_prop_lightstyle")])
    return data


def _game_lump(data: bytes, lump_offset: int, src: str, to: str) -> bytes:
    """The game lump in byte order `to`: directory swapped, member offsets absolute (PC) or
    relative to the lump (console), members swapped where they lie."""
    out = bytearray(data)
    (count,) = struct.unpack_from(src + "i", data, 0)
    struct.pack_into(to + "i", out, 0, count)
    shift = -lump_offset if to == ">" else lump_offset
    for n in range(count):
        entry = 4 + 16 * n
        raw_id, flags, version, offset, length = struct.unpack_from(src + "iHHii", data, entry)
        struct.pack_into(to + "iHHii", out, entry, raw_id, flags, version,
                         offset + shift if offset else 0, length)
        if not offset or not length:
            continue
        if flags & 1:
            raise ValueError("compressed game lump members are not converted")
        at = offset - lump_offset if src == "<" else offset
        name = struct.pack(">i", raw_id)       # the fourcc's letters in reading order
        out[at:at + length] = _member(name, version, data[at:at + length], src)
    return bytes(out)


def _lump(index: int, data: bytes, lump_version: int, map_version: int, lump_offset: int,
          src: str, to: str) -> bytes:
    """One lump's bytes in byte order `to` (unchanged when no layout is known)."""
    if data[:4] == b"LZMA":
        raise ValueError(f"lump {index} is LZMA-compressed: not converted")
    name = NAMES[index]
    if index == GAME_LUMP:
        return _game_lump(data, lump_offset, src, to)
    if name == "VISIBILITY":
        return _counted(data, src, [_type_spans("source_bsp::vis_offsets")])
    if name == "OCCLUSION" and lump_version in (1, 2):
        occluder = "source_bsp::occluder_data" + ("_v1" if lump_version == 1 else "")
        return _counted(data, src, [_type_spans(occluder), _type_spans("source_bsp::occluder_poly"),
                                    (4, ((0, 4),))])
    dtype = record_dtype("source", name, lump_version, map_version)
    return data if dtype is None else swap_records(data, dtype.itemsize, dtype_spans(dtype))


def kept_lumps(data: bytes) -> set[int]:
    """Non-empty lumps of a little-endian map that the conversion leaves as they are: text, the
    pakfile and lumps with no known record layout (not to be compared as records)."""
    version = struct.unpack_from("<i", data, 4)[0]
    kept = set()
    for index in range(LUMPS):
        _, length, lump_version, _ = struct.unpack_from("<4i", data, 8 + 16 * index)
        if length and NAMES[index] not in ("GAME_LUMP", "VISIBILITY", "OCCLUSION") and \
                record_dtype("source", NAMES[index], lump_version, version) is None:
            kept.add(index)
    return kept


def convert(data: bytes, to: str) -> bytes:
    """A Source map's bytes in byte order `to` (">": console PSBV from PC VBSP, "<": back)."""
    src = "<" if to == ">" else ">"
    if data[:4] != IDENT[src]:
        raise ValueError(f"not a {IDENT[src].decode()} map")
    out = bytearray(data)
    out[:4] = IDENT[to]
    (version,) = struct.unpack_from(src + "i", data, 4)
    if not 17 <= version <= 20:
        raise ValueError(f"map version {version}: only v17-v20 maps are converted")
    struct.pack_into(to + "i", out, 4, version)
    struct.pack_into(to + "i", out, HEADER - 4, *struct.unpack_from(src + "i", data, HEADER - 4))
    for index in range(LUMPS):
        entry = struct.unpack_from(src + "4i", data, 8 + 16 * index)
        struct.pack_into(to + "4i", out, 8 + 16 * index, *entry)
        offset, length, lump_version, _ = entry
        if length > 0:
            out[offset:offset + length] = _lump(index, data[offset:offset + length],
                                                lump_version, version, offset, src, to)
    return bytes(out)


SECTOR = 2048       # a DVD sector: console pakfiles start on one, console files end on one


def sector_layout(data: bytes) -> bytes:
    """A big-endian map with its pakfile moved to the next sector boundary (when it is stored
    last) and zeros after it up to a sector boundary, as Valve's conversion writes it: what
    followed the pakfile in the PC map (padding, trailing data) is not carried over."""
    entries = [struct.unpack_from(">4i", data, 8 + 16 * index) for index in range(LUMPS)]
    offset, length, _, _ = entries[PAKFILE]
    out = bytearray(data)
    if length and offset + length == max(o + n for o, n, _, _ in entries if n):
        moved = offset + -offset % SECTOR
        out[offset:] = bytes(moved - offset) + data[offset:offset + length]
        struct.pack_into(">i", out, 8 + 16 * PAKFILE, moved)
    return bytes(out + bytes(-len(out) % SECTOR))


def to_big_endian(pc: bytes) -> bytes:
    """A console (PSBV) map from a little-endian Source map, laid out as console maps are."""
    return sector_layout(convert(pc, ">"))


def to_little_endian(console: bytes) -> bytes:
    """A console map's bytes in little-endian order (its layout as it is)."""
    return convert(console, "<")
