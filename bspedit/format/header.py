"""Reading the header and lump directory (generated Kaitai readers) and writing them back."""
from __future__ import annotations

import mmap
import struct
from collections.abc import Sequence
from io import BytesIO

from kaitaistruct import KaitaiStream, KaitaiStructError

from ..errors import BspError
from .families import BLUE_SHIFT, BY_IDENT, BY_VERSION, GOLDSRC, KNOWN_UNSUPPORTED, Family
from .generated.quake_header import QuakeHeader
from .generated.vbsp_header import VbspHeader

# Field order of a Source lump_t: the standard one, and the one Left 4 Dead 2 v21 maps use.
LUMP_ORDERS = {"standard": ("offset", "length", "version", "fourcc"),
               "l4d2": ("version", "offset", "length", "fourcc")}


class Lump:
    """One lump directory entry, as stored."""

    __slots__ = ("index", "name", "offset", "length", "version", "fourcc")

    def __init__(self, index: int, name: str, offset: int, length: int, version: int = 0,
                 fourcc: int = 0) -> None:
        self.index, self.name, self.offset, self.length = index, name, offset, length
        self.version = version
        self.fourcc = fourcc        # Source: uncompressed size of an LZMA lump, else 0

    def __repr__(self) -> str:
        return (f"Lump(index={self.index}, name={self.name!r}, offset={self.offset}, "
                f"length={self.length}, version={self.version}, fourcc={self.fourcc})")

    @property
    def end(self) -> int:
        return self.offset + self.length


def lump_label(lump: Lump) -> str:
    return f"lump {lump.index} ({lump.name})"


def check_directory(lumps: Sequence[Lump], header_size: int, file_size: int) -> list[BspError]:
    """Every problem of the lump directory: negative sizes, lumps out of the file, overlaps."""
    problems = []
    spans = []
    for lump in lumps:
        label = lump_label(lump)
        if lump.length < 0:
            problems.append(BspError(f"negative length {lump.length}", lump=label,
                                     offset=lump.offset, in_file=True))
        elif lump.length:
            if lump.offset < header_size:
                problems.append(BspError(
                    f"lump starts inside the {header_size}-byte header", lump=label,
                    offset=lump.offset, in_file=True))
            elif lump.end > file_size:
                problems.append(BspError(
                    f"lump of {lump.length} bytes runs past the end of the file "
                    f"(ends at {lump.end}, file has {file_size} bytes)", lump=label,
                    offset=lump.offset, in_file=True))
            else:
                spans.append(lump)
    spans.sort(key=lambda l: (l.offset, l.index))
    for before, after in zip(spans, spans[1:]):
        if after.offset < before.end:
            problems.append(BspError(
                f"overlaps {lump_label(before)} ({before.offset}..{before.end})",
                lump=lump_label(after), offset=after.offset, in_file=True))
    return problems


class Header:
    """Everything the header holds: identification fields and the lump directory."""

    __slots__ = ("family", "ident", "version", "lumps", "revision", "lump_order")

    def __init__(self, family: Family, ident: bytes, version: int | None, lumps: list[Lump],
                 revision: int | None = None, lump_order: str = "standard") -> None:
        self.family, self.ident, self.version, self.lumps = family, ident, version, lumps
        self.revision = revision            # Source map revision
        self.lump_order = lump_order        # Source lump_t field order

    def __repr__(self) -> str:
        return (f"Header(family={self.family!r}, ident={self.ident!r}, version={self.version}, "
                f"lumps={self.lumps!r}, revision={self.revision}, "
                f"lump_order={self.lump_order!r})")

    def copy(self) -> Header:
        """A copy whose directory entries can be changed without changing this one's."""
        lumps = [Lump(lump.index, lump.name, lump.offset, lump.length, lump.version,
                      lump.fourcc) for lump in self.lumps]
        return Header(self.family, self.ident, self.version, lumps, self.revision,
                      self.lump_order)

    @property
    def size(self) -> int:
        return self.family.header_size

    @property
    def big_endian(self) -> bool:
        """A console map: its numbers (header, directory, records) are stored big-endian."""
        return bool(self.ident) and self.ident == self.family.ident_big_endian

    @property
    def endian(self) -> str:
        """The byte order of the map's numbers, as `struct` and numpy write it: "<" or ">"."""
        return ">" if self.big_endian else "<"

    def to_bytes(self) -> bytes:
        """Serialise the header exactly as the family stores it."""
        out = bytearray(self.ident)
        order = self.endian
        if self.version is not None:
            out += struct.pack(order + "i", self.version)
        if self.family.header == "vbsp":
            fields = LUMP_ORDERS[self.lump_order]
            for lump in self.lumps:
                values = {f: getattr(lump, f) for f in fields}
                out += struct.pack(order + "iiiI", *(values[f] for f in fields))
            out += struct.pack(order + "i", self.revision)
        else:
            for lump in self.lumps:
                out += struct.pack("<ii", lump.offset, lump.length)
        return bytes(out)


def identify(head: bytes, path: str | None = None) -> tuple[Family, int | None]:
    """The family a file belongs to, from its first 8 bytes (never from its name)."""
    if len(head) < 8:
        raise BspError(f"file too short for a BSP header ({len(head)} bytes)", path=path,
                       offset=0, in_file=True)
    ident = head[:4]
    if ident in KNOWN_UNSUPPORTED:
        raise BspError(f"{KNOWN_UNSUPPORTED[ident]} ({ident.decode()}): not supported", path=path,
                       offset=0, in_file=True)
    candidates = BY_IDENT.get(ident)
    if candidates:
        if not candidates[0].has_version:
            return candidates[0], None
        order = "big" if ident == candidates[0].ident_big_endian else "little"
        version = int.from_bytes(head[4:8], order, signed=True)
        for family in candidates:
            if version in family.versions:
                return family, version
        raise BspError(f"unknown {ident.decode()} version {version}", path=path, offset=4,
                       in_file=True)
    version = int.from_bytes(ident, "little", signed=True)
    if version in BY_VERSION:
        return BY_VERSION[version], version
    raise BspError(f"not a BSP file (starts with {head[:8].hex(' ')})", path=path, offset=0,
                   in_file=True)


def read_header(data: bytes | mmap.mmap, path: str | None = None) -> Header:
    """Parse the header of a map whose first bytes are `data` (at least the header)."""
    family, version = identify(data[:8], path)
    if len(data) < family.header_size:
        raise BspError(f"truncated header: {len(data)} of {family.header_size} bytes", path=path,
                       offset=len(data), in_file=True)
    stream = KaitaiStream(BytesIO(data[:family.header_size]))
    try:
        if family.header == "vbsp":
            return _source_header(VbspHeader(stream), family, data, path)
        parsed = QuakeHeader(len(family.ident), family.has_version, family.lump_count, stream)
    except (KaitaiStructError, EOFError) as exc:   # only on a header shorter than checked above
        raise BspError(f"unreadable header: {exc}", path=path, offset=0, in_file=True) from exc
    lumps = [Lump(i, family.lump_names[i], e.offset, e.length) for i, e in enumerate(parsed.lumps)]
    if family is GOLDSRC and _is_blue_shift(lumps, data):
        family = BLUE_SHIFT
        for lump in lumps:
            lump.name = family.lump_names[lump.index]
    return Header(family, parsed.ident, version, lumps)


def _source_header(parsed: VbspHeader, family: Family, data: bytes, path: str | None) -> Header:
    body = parsed.body
    readings = {"standard": body.lumps_standard, "l4d2": body.lumps_l4d2}
    candidates = {}
    for order, entries in readings.items():
        lumps = [Lump(i, family.lump_names[i], e.offset, e.length, e.version, e.fourcc)
                 for i, e in enumerate(entries)]
        candidates[order] = lumps
    # The version number does not decide the order: keep the reading whose directory is sane.
    order = "standard"
    if check_directory(candidates["standard"], family.header_size, len(data)) and \
            not check_directory(candidates["l4d2"], family.header_size, len(data)):
        order = "l4d2"
    return Header(family, parsed.magic, body.version, candidates[order], body.map_revision, order)


def _is_blue_shift(lumps: list[Lump], data: bytes) -> bool:
    """Blue Shift stores the planes first: lump 1 holds the entity text, lump 0 does not."""
    def starts_text(lump: Lump) -> bool:
        chunk = data[lump.offset:lump.offset + 64].lstrip(b" \t\r\n")
        return lump.length > 0 and chunk[:1] == b"{"
    return starts_text(lumps[1]) and not starts_text(lumps[0]) and lumps[0].length % 20 == 0

