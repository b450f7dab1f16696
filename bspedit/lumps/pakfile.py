"""The Source pakfile (the PAKFILE lump): a zip, edited without touching the bytes of the
entries that stay.

Only the end record, the central directory and the entries' local headers are parsed; entry
data is read on demand, CRC-checked. New entries follow Valve's zip writer (`CZipFile` in
zip_utils.cpp): stored (method 0) or LZMA (method 14, zip APPNOTE 5.8.8: version 9.38, props
size 5, Valve's props, a stream without end marker), version made by 20, needed 10 (63 for
LZMA), no flags, DOS time 0, no extra field, and the end record's comment `XZP1 N` padded to
32 bytes, where N > 0 asks for entry data and the central directory's start aligned to N bytes
(zero-filled extra fields, as Valve pads them; Valve also pads the directory's end inside its
recorded size, which Python's zipfile and other readers reject, so that padding is left out).
Where pylzma is not installed, the standard library's encoder writes the LZMA streams: they end
with an end marker, which general purpose flag bit 1 announces (APPNOTE 4.4.4), as in Python's
zipfile; the reader decodes streams with and without one.

An edit is a splice of the lump: its first `keep` stored bytes, then new bytes. A clean edit
keeps the entries before the first one removed, replaced or preceded by unreferenced bytes,
then writes the later entries verbatim (only their central directory offsets change), the new
ones, a new central directory and the old end record with new counts and comment, so adding
a file and removing it again gives back the original bytes. A fast in-place edit keeps the
whole file and appends only new entries, a central directory and an end record: entries it
removes or replaces stay behind as unreferenced bytes until a clean save or a repack. The old
central directory and end record stay too, so a fast edit that removes exactly what later
appends added cuts the lump back to that earlier zip, writing nothing (nothing the map still
references is overwritten before its header is committed, and the pakfile is never copied).

Console pakfiles carry the comment `XZP2 N`: Valve's non-compatible layout (CZipFile with
m_bCompatibleFormat off). Entry data is aligned as for XZP1 and each central directory record
declares its padding as an extra-field length without holding those bytes (the next record
follows the name); the directory's end is zero-padded to N inside its recorded size. Their first
entry, `__preload_section.pre`, is the preload section of Valve's xZip tool (`Preload`), indexed
by central directory position: edits rebuild it with the entry list (a new entry has no preload
data, a removed or replaced entry's goes away) and refuse to edit a pakfile whose section does
not match its directory. Entries an XZP2 edit moves are padded again so their data stays aligned
(unchanged when the move keeps the alignment), and XZP2 edits always write a clean zip.
"""
from __future__ import annotations

import dataclasses
import fnmatch
import os
import re
import stat
import struct
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..container.fileio import NOFOLLOW, open_fd
from ..errors import BspError
from ..format.header import lump_label
from ..limits import LIMITS
from ..format.names import game_path
from ..format.winnames import Clash, windows_names, windows_paths
from ..progress import BIG_WORK, LZMA_WORK, bar
from .pakcodec import LZMA, METHODS, STORED, decode, encode
from .pakpreload import NO_PRELOAD, Preload, pad_to

if TYPE_CHECKING:
    from ..container.mapfile import MapFile


_LOCAL = struct.Struct("<4sHHHHHIIIHH")             # local file header, 30 bytes
_CENTRAL = struct.Struct("<4sHHHHHHIIIHHHHHII")     # central directory record, 46 bytes
_END = struct.Struct("<4sHHHHIIH")                  # end of central directory record, 22 bytes
_LOCAL_SIG, _CENTRAL_SIG, _END_SIG = b"PK\x03\x04", b"PK\x01\x02", b"PK\x05\x06"
_DESCRIPTOR_SIG = b"PK\x07\x08"
_CENTRAL_OFFSET_FIELD = 42                         # relative offset of local header in a record
_CENTRAL_EXTRA_FIELD, _LOCAL_EXTRA_FIELD = 30, 28  # extra field lengths in a record, a header
_UTF8_FLAG, _DESCRIPTOR_FLAG, _ENCRYPTED_FLAG = 0x800, 0x8, 0x1
_METHOD_FLAGS = 0x6                                # bits 1-2: the compression method's options
VALVE_COMMENT = b"XZP1 0".ljust(32, b"\0")
_SEARCH_CHUNK = 1 << 16
PRELOAD_NAME = "__preload_section.pre"             # zip_uncompressed.h PRELOAD_SECTION_NAME
# Valve's tool writes the preload section in the console's (big-endian) byte order on any machine
CUBEMAP = re.compile(r"materials/maps/[^/]+/(c-?\d+_-?\d+_-?\d+|cubemapdefault)(\.hdr)?\.vtf")

def unsafe_name(name: str) -> str | None:
    """Why `name` cannot be a file path inside a directory, or None when it can."""
    if not name:
        return "is empty"
    if "\0" in name:
        return "contains a NUL byte"
    if name.startswith(("/", "\\")):
        return "is an absolute path"
    if ":" in name:
        return "contains ':' (a drive letter or stream name)"
    parts = name.replace("\\", "/").split("/")
    if any(part in ("..", ".") for part in parts):
        return "has a '.' or '..' component"
    if any(part == "" for part in parts[:-1]):
        return "has an empty path component"
    return None


def pak_key(name: str) -> str:
    """`name` as a new entry's path (as the engine looks it up: `game_path`); BspError for a
    name that cannot be one (empty, a folder, absolute, with `..`, a drive, too long)."""
    key = game_path(name)
    problem = "names no file" if not key or key.endswith("/") else unsafe_name(key)
    if problem:
        raise BspError(f"pak path {name!r} {problem}")
    if len(key.encode("utf-8")) > 0xFFFF:
        raise BspError(f"pak path {name!r} is too long for a zip")
    return key


@dataclass(frozen=True, eq=False, slots=True)
class Entry:
    """One file in the pakfile. `offset` is its local header's offset in the zip (-1 for an
    entry added since the pakfile was read)."""

    name: str
    size: int
    stored_size: int
    method: int
    crc: int
    flags: int
    offset: int
    raw_name: bytes = field(repr=False)
    record: bytes = field(repr=False)       # the central directory record, as stored
    data_start: int = field(repr=False, default=-1)
    end: int = field(repr=False, default=-1)    # end of data (and data descriptor)
    payload: bytes | None = field(repr=False, default=None)   # stored bytes of a new entry

    @property
    def method_name(self) -> str:
        return METHODS.get(self.method, f"method {self.method}")

    @property
    def key(self) -> str:
        return game_path(self.name)

    @property
    def is_dir(self) -> bool:
        return self.name.endswith(("/", "\\"))

    @property
    def is_preload(self) -> bool:
        """True for `__preload_section.pre` (the preload section of an XZP2 pakfile)."""
        return self.key == PRELOAD_NAME


Reader = Callable[[int, int], bytes]


class Pakfile:
    """A pakfile's entries, editable; `apply` puts the edit into the map as a lump splice
    (the map's `save` does it for `Bsp.pakfile`)."""

    def __init__(self, read: Reader, length: int, *, path: str | None = None, base: int = 0,
                 label: str = "pakfile", spliceable: bool = True) -> None:
        self._read = read
        self.length = length
        self.path = path                  # the map, for error messages
        self.base = base                  # file offset of the zip, for error messages
        self.label = label
        self._spliceable = spliceable     # the bytes read are the lump as stored in the file
        self._original: list[Entry] = []
        self._entries: list[Entry] = []
        self._by_key: dict[str, Entry] = {}   # what the engine finds for each name
        self._end = _END.pack(_END_SIG, 0, 0, 0, 0, 0, 0, len(VALVE_COMMENT)) + VALVE_COMMENT
        self._trailer = b""
        self.alignment = 0
        self.compatible = True            # False for XZP2: records hold no extra-field bytes
        self._cd_offset = 0
        self._preload: Preload | None = None
        self._preload_entry: Entry | None = None       # the section as read
        self._preload_refs: dict[Entry, int] = {}      # entry -> its preload entry index
        self.preload_problem: str | None = None        # why XZP2 edits are refused, if they are
        self._gone: set[int] = set()      # offsets of original entries removed or replaced
        self._compact = False
        self.edits = 0                    # counts add, remove and repack calls
        if length:
            self._parse()

    # -- opening -----------------------------------------------------------------------------
    @classmethod
    def of(cls, bsp: MapFile) -> Pakfile:
        """The pakfile of an open map (BspError for families without one)."""
        index = pak_index(bsp)
        lump = bsp.lumps[index]
        if bsp.is_replaced(index):
            data = bsp.read_lump(index)
            return cls(lambda s, e: data[s:e], len(data), path=bsp.path, label=lump_label(lump),
                       spliceable=False)
        return cls(lambda s, e: bsp.read_range(lump.offset + s, lump.offset + min(e, lump.length)),
                   lump.length, path=bsp.path, base=lump.offset, label=lump_label(lump))

    @classmethod
    def from_bytes(cls, data: bytes) -> Pakfile:
        """A pakfile from a zip's bytes."""
        return cls(lambda s, e: data[s:e], len(data))

    def _error(self, message: str, offset: int | None = None) -> BspError:
        """A BspError naming the map, the lump and the file offset of zip offset `offset`."""
        return BspError(message, path=self.path, lump=self.label,
                        offset=None if offset is None else self.base + offset,
                        in_file=self.path is not None)

    def _parse(self) -> None:
        end_at = self._find_end()
        (_, disk, cd_disk, here, total, cd_size, cd_offset,
         comment_length) = _END.unpack(self._read(end_at, end_at + _END.size))
        record_end = end_at + _END.size + comment_length
        if record_end > self.length:
            raise self._error(f"zip end record's {comment_length}-byte comment runs past the "
                              f"end of the lump", end_at)
        if disk or cd_disk or here != total:
            raise self._error("zip end record describes a multi-disk zip", end_at)
        if total == 0xFFFF or cd_offset == 0xFFFFFFFF or cd_size == 0xFFFFFFFF:
            raise self._error("zip64 pakfiles are not supported", end_at)
        if cd_offset + cd_size > end_at:
            raise self._error(f"zip central directory ({cd_size} bytes at zip offset {cd_offset}) "
                              "runs past the end record", end_at)
        self._end = self._read(end_at, record_end)
        self._trailer = self._read(record_end, self.length)
        comment = self._end[_END.size:]
        if comment[:4].upper() in (b"XZP1", b"XZP2"):
            self.compatible = comment[3:4] == b"1"
            digits = re.match(rb"\s*(\d+)", comment[4:])
            alignment = int(digits.group(1)) if digits else 0
            self.alignment = alignment if alignment & (alignment - 1) == 0 else 0
        self._cd_offset = cd_offset
        directory = self._read(cd_offset, cd_offset + cd_size)
        position = 0
        for _ in range(total):
            entry = self._parse_record(directory, position, cd_offset)
            self._original.append(entry)
            position += len(entry.record)
        self._check_overlaps()
        self._entries = list(self._original)
        self._index()
        if not self.compatible:
            self._read_preload()

    def _read_preload(self) -> None:
        """Parse the preload section; a section that does not fit the directory only makes
        edits refused (its entries still read)."""
        entry = self.find(PRELOAD_NAME)
        if entry is None:
            return
        self._preload_entry = entry
        try:
            if entry.method != STORED:
                raise ValueError(f"is stored with {entry.method_name}, not stored")
            self._preload = Preload.parse(self.read(entry), len(self._original))
        except (ValueError, BspError) as exc:
            why = exc.message if isinstance(exc, BspError) else str(exc)
            self.preload_problem = f"its preload section {PRELOAD_NAME} {why}"
            return
        self._preload_refs = {e: k for e, k in zip(self._original, self._preload.remap)
                              if k != NO_PRELOAD}

    def _find_end(self) -> int:
        """Offset of the end record: the last signature that leaves room for one, as Valve's
        reader and the engine search for it, from the end of the lump backwards."""
        high = self.length - _END.size + len(_END_SIG)
        while high >= len(_END_SIG):
            low = max(0, high - _SEARCH_CHUNK)
            found = self._read(low, high).rfind(_END_SIG)
            if found >= 0:
                return low + found
            high = low + len(_END_SIG) - 1
            if low == 0:
                break
        raise self._error("no zip end-of-central-directory record", 0)

    def _parse_record(self, directory: bytes, position: int, cd_offset: int) -> Entry:
        where = cd_offset + position
        if len(directory) < position + _CENTRAL.size:
            raise self._error("zip central directory ends before its last record", where)
        (sig, _, _, flags, method, _, _, crc, stored, size, name_length, extra_length,
         comment_length, _, _, _, offset) = _CENTRAL.unpack_from(directory, position)
        if sig != _CENTRAL_SIG:
            raise self._error("bad zip central directory record signature", where)
        record_end = position + _CENTRAL.size + name_length
        if self.compatible:
            record_end += extra_length + comment_length
        if record_end > len(directory):
            raise self._error("zip central directory record runs past the directory", where)
        raw_name = directory[position + _CENTRAL.size:position + _CENTRAL.size + name_length]
        name = raw_name.decode("utf-8" if flags & _UTF8_FLAG else "cp437", errors="replace")
        if offset + _LOCAL.size > cd_offset:
            raise self._error(f"pak entry {name!r}: local header offset {offset} lies outside "
                              "the entries", where)
        (local_sig, _, local_flags, local_method, _, _, local_crc, local_stored, local_size,
         local_name_length, local_extra) = _LOCAL.unpack(self._read(offset, offset + _LOCAL.size))
        data_start = offset + _LOCAL.size + local_name_length + local_extra
        local_name = self._read(offset + _LOCAL.size, offset + _LOCAL.size + local_name_length)
        described = (local_crc, local_stored, local_size) == (crc, stored, size) \
            or local_flags & _DESCRIPTOR_FLAG
        if local_sig != _LOCAL_SIG or local_name != raw_name or local_method != method \
                or not described:
            raise self._error(f"pak entry {name!r}: local header does not match the central "
                              "directory", offset)
        end = data_start + stored
        if local_flags & _DESCRIPTOR_FLAG:
            end += 16 if self._read(end, end + 4) == _DESCRIPTOR_SIG else 12
        if end > cd_offset:
            raise self._error(f"pak entry {name!r}: data runs into the central directory", offset)
        return Entry(name, size, stored, method, crc, flags, offset, raw_name,
                     directory[position:record_end], data_start, end)

    def _check_overlaps(self) -> None:
        spans = sorted(self._original, key=lambda e: e.offset)
        for before, after in zip(spans, spans[1:]):
            if after.offset < before.end:
                raise self._error(f"pak entries {before.name!r} and {after.name!r} overlap",
                                  after.offset)

    # -- reading -----------------------------------------------------------------------------
    @property
    def entries(self) -> tuple[Entry, ...]:
        """The entries, in central directory order (new ones last)."""
        return tuple(self._entries)

    def _index(self) -> None:
        self._by_key = {}
        for entry in self._entries:
            self._by_key.setdefault(entry.key, entry)

    def find(self, name: str) -> Entry | None:
        """The entry the engine would find for `name` (case-insensitive, either slash)."""
        return self._by_key.get(game_path(name))

    def read(self, entry: Entry | str) -> bytes:
        """An entry's content, decompressed and CRC-checked (BspError naming it otherwise)."""
        if isinstance(entry, str):
            found = self.find(entry)
            if found is None:
                raise self._error(f"no pak entry {entry!r}")
            entry = found
        where = max(entry.offset, 0)
        if entry.flags & _ENCRYPTED_FLAG:
            raise self._error(f"pak entry {entry.name!r} is encrypted", where)
        self._check_limit(entry)
        stored = entry.payload if entry.payload is not None else \
            self._read(entry.data_start, entry.data_start + entry.stored_size)
        try:
            data = decode(entry.method, stored, entry.size)
        except BspError as exc:
            raise self._error(f"pak entry {entry.name!r}: {exc.message}", where) from exc
        if zlib.crc32(data) != entry.crc:
            raise self._error(f"pak entry {entry.name!r}: CRC-32 0x{zlib.crc32(data):08x} does "
                              f"not match the stored 0x{entry.crc:08x}", where)
        return data

    def _check_limit(self, entry: Entry) -> None:
        if entry.size > LIMITS.extract_entry:
            raise self._error(f"pak entry {entry.name!r} claims {entry.size} bytes, over the "
                              f"{LIMITS.extract_entry}-byte limit for one entry "
                              "(--max-extract-size raises it)",
                              max(entry.offset, 0))

    def cubemaps(self) -> list[Entry]:
        """The cubemap textures vbsp packs: materials/maps/<map>/c<x>_<y>_<z>[.hdr].vtf and
        cubemapdefault[.hdr].vtf."""
        return [e for e in self._entries if CUBEMAP.fullmatch(e.key)]

    def matching(self, patterns: str | Iterable[str]) -> list[Entry]:
        """Entries matching any of `patterns` (names or globs, case-insensitive, either
        slash), in directory order; [] when none does."""
        keys = [game_path(p) for p in ([patterns] if isinstance(patterns, str) else patterns)]
        return [e for e in self._entries if any(fnmatch.fnmatchcase(e.key, k) for k in keys)]

    # -- editing -----------------------------------------------------------------------------
    def add(self, name: str, data: bytes, *, compress: bool = False,
            update: bool = False) -> Entry:
        """Add a file as `name` (normalised as the engine looks it up). An existing entry of
        that name is replaced only with `update`; otherwise BspError names it. With `compress`
        the entry is stored LZMA-compressed when that makes it smaller."""
        key = pak_key(name)
        self._check_editable()
        if key == PRELOAD_NAME and not self.compatible:
            raise self._preload_is_rebuilt("added or replaced")
        existing = self.find(key)
        if existing is not None and not update:
            raise self._error(f"pak entry {existing.name!r} already exists (use --update to "
                              "replace it)")
        raw_name = key.encode("utf-8")
        method, payload, method_flags = encode(data, compress)
        flags = (0 if raw_name.isascii() else _UTF8_FLAG) | method_flags
        entry = Entry(key, len(data), len(payload), method, zlib.crc32(data), flags, -1,
                      raw_name, b"", payload=payload)
        if existing is None:
            self._entries.append(entry)
            self._by_key[key] = entry
        else:
            self._replace(self._entries.index(existing), entry)
        self._sync_preload()
        self.edits += 1
        return entry

    def remove(self, entries: Entry | Iterable[Entry]) -> None:
        """Remove entries (from `entries`, `find` or `matching`)."""
        chosen = [entries] if isinstance(entries, Entry) else list(entries)
        self._check_editable()
        if not self.compatible and any(e.is_preload for e in chosen):
            raise self._preload_is_rebuilt("removed")
        gone = {id(e) for e in chosen}
        self.edits += 1
        self._gone.update(e.offset for e in self._entries if id(e) in gone and e.offset >= 0)
        self._entries = [e for e in self._entries if id(e) not in gone]
        self._index()
        self._sync_preload()

    def rename(self, entry: Entry, name: str) -> Entry:
        """Give `entry` the path `name` (normalised as `add` normalises it) in its place in
        the directory, its stored bytes and method kept (its content is read and CRC-checked
        first). BspError for an unsafe name or one another entry has."""
        key = pak_key(name)
        self._check_editable()
        if not self.compatible and PRELOAD_NAME in (key, entry.key):
            raise self._preload_is_rebuilt("renamed")
        existing = self.find(key)
        if existing is not None:
            raise self._error(f"pak entry {existing.name!r} already exists" +
                              (" (the same path)" if existing is entry else
                               ": remove it first to rename another file over it"))
        self.read(entry)
        raw_name = key.encode("utf-8")
        stored = entry.payload if entry.payload is not None else \
            self._read(entry.data_start, entry.data_start + entry.stored_size)
        flags = (0 if raw_name.isascii() else _UTF8_FLAG) | (entry.flags & _METHOD_FLAGS)
        new = dataclasses.replace(entry, name=key, flags=flags, offset=-1, raw_name=raw_name,
                                  record=b"", data_start=-1, end=-1, payload=stored)
        self._replace(self._entries.index(entry), new)
        if entry in self._preload_refs:       # the same content: its preload data holds
            self._preload_refs[new] = self._preload_refs[entry]
        self._index()
        self._sync_preload()
        self.edits += 1
        return new

    def _replace(self, position: int, new: Entry) -> None:
        old = self._entries[position]
        self._entries[position] = new
        if self._by_key.get(old.key) is old:
            self._by_key[old.key] = new
        if old.offset >= 0:
            self._gone.add(old.offset)

    def _preload_is_rebuilt(self, edit: str) -> BspError:
        return self._error(f"{PRELOAD_NAME} is the XZP2 preload section: edits rebuild it "
                           f"from the entries, it cannot be {edit}")

    def _check_editable(self) -> None:
        if self.preload_problem:
            raise self._error(f"refused to edit this XZP2 pakfile: {self.preload_problem}, "
                              "so it could not be kept consistent with the entries")

    def _sync_preload(self) -> None:
        """Put the preload section that fits the entry list in place of the current one: the
        section as read when the remap table comes out the same, else one rebuilt without the
        preload data of entries removed or replaced, 0xFFFF for new entries."""
        if self._preload is None or self._preload_entry is None:
            return
        original = self._preload_entry
        remap = [self._preload_refs.get(e, NO_PRELOAD) for e in self._entries]
        if remap == list(self._preload.remap):
            section = original
            self._gone.discard(original.offset)
        else:
            dropped = set(self._preload.remap) - set(remap) - {NO_PRELOAD}
            data = self._preload.edited(remap, dropped).build()
            section = Entry(original.name, len(data), len(data), STORED, zlib.crc32(data),
                            original.flags, -1, original.raw_name, b"", payload=data)
            self._gone.add(original.offset)
        position = next(i for i, e in enumerate(self._entries)
                        if e is original or (e.is_preload and e.payload is not None))
        self._entries[position] = section
        self._index()

    def repack(self, *, compress: bool) -> list[Entry]:
        """Re-encode every entry stored (or LZMA-compressed, where that is smaller), as
        `bspzip -repack [-compress]`; entries already in that form keep their bytes. The next
        `apply` writes a clean zip. Returns the entries re-encoded."""
        self._check_editable()
        changed = []
        with bar(sum(e.size for e in self._entries), "repack",
                 minimum=LZMA_WORK if compress else BIG_WORK) as shown:
            for position, entry in enumerate(self._entries):
                shown.advance(entry.size)
                if entry.method == (LZMA if compress else STORED) or entry.is_dir \
                        or (entry.is_preload and not self.compatible):
                    continue
                method, payload, method_flags = encode(self.read(entry), compress)
                if method == entry.method:
                    continue
                flags = (entry.flags & ~_METHOD_FLAGS) | method_flags
                new = dataclasses.replace(entry, stored_size=len(payload), method=method,
                                          flags=flags,
                                          offset=-1, record=b"", data_start=-1, end=-1,
                                          payload=payload)
                self._replace(position, new)
                if entry in self._preload_refs:       # the same content: its preload data holds
                    self._preload_refs[new] = self._preload_refs[entry]
                changed.append(new)
        self._compact = True
        self.edits += 1
        return changed

    # -- writing -----------------------------------------------------------------------------
    @property
    def dirty(self) -> bool:
        """True when `apply` would change the lump's bytes."""
        if self._gone or any(e.payload is not None for e in self._entries):
            return True
        keep = self._clean_keep()
        return self._compact and keep + pad_to(self.alignment, keep) < self._cd_offset

    def _clean_keep(self) -> int:
        """How many leading bytes a clean edit keeps: up to the first entry removed or
        replaced, or the first unreferenced byte."""
        position = 0
        for entry in sorted(self._original, key=lambda e: e.offset):
            if entry.offset != position or entry.offset in self._gone:
                break
            position = entry.end
        return position

    def splice(self, append_at: int | None = None) -> tuple[int, bytes]:
        """The edit as (keep, extra): the lump's first `keep` bytes, then `extra`. With
        `append_at` (the lump-relative offset where bytes appended to the file land), keep
        everything and append only new entries, a central directory and an end record."""
        keep = self._clean_keep() if append_at is None else append_at
        parts: list[bytes] = []
        position = keep
        placed: dict[int, int] = {}       # id(entry) -> its new local header offset
        padded: dict[int, int] = {}       # id(entry) -> its new padding, for XZP2 moves
        for entry in self._entries:
            if entry.payload is None and (append_at is not None or entry.offset < keep):
                continue
            placed[id(entry)] = position
            if entry.payload is None:
                chunk = [self._read(entry.offset, entry.end)]
                if not self.compatible:
                    chunk = self._realigned(entry, chunk[0], position, padded)
            else:
                padding = _padding(self.alignment, position, len(entry.raw_name))
                chunk = [_local_header(entry, padding), entry.payload]
            parts += chunk
            position += sum(map(len, chunk))
        parts.append(bytes(pad_to(self.alignment, position)))
        cd_start = position + len(parts[-1])
        for entry in self._entries:
            if entry.payload is None:
                record = bytearray(entry.record)
                if id(entry) in placed:
                    struct.pack_into("<I", record, _CENTRAL_OFFSET_FIELD, placed[id(entry)])
                if id(entry) in padded:
                    struct.pack_into("<H", record, _CENTRAL_EXTRA_FIELD, padded[id(entry)])
                parts.append(bytes(record))
            else:
                offset = placed[id(entry)]
                parts.append(_central_record(entry, _padding(self.alignment, offset,
                                                             len(entry.raw_name)), offset,
                                             self.compatible))
        if not self.compatible:         # Valve pads the XZP2 directory's end inside its size
            parts.append(bytes(pad_to(self.alignment, keep + sum(map(len, parts)))))
        cd_end = keep + sum(map(len, parts))
        if len(self._entries) > 0xFFFE or cd_end > 0xFFFFFFFF:
            raise self._error("the pakfile would need zip64 (over 65534 entries or 4 GiB)")
        end = bytearray(self._end)
        struct.pack_into("<HHII", end, 8, len(self._entries), len(self._entries),
                         cd_end - cd_start, cd_start)
        parts.append(bytes(end))
        if append_at is None:
            parts.append(self._trailer)
        return keep, b"".join(parts)

    def _realigned(self, entry: Entry, chunk: bytes, position: int,
                   padded: dict[int, int]) -> list[bytes]:
        """An XZP2 entry's local header and data moved to `position`, its zero padding sized
        again so the data stays aligned (recorded in `padded`); as stored when the padding
        holds other bytes."""
        name_end = _LOCAL.size + len(entry.raw_name)
        extra = entry.data_start - entry.offset - name_end
        if not self.alignment or any(chunk[name_end:name_end + extra]):
            return [chunk]
        padding = _padding(self.alignment, position, len(entry.raw_name))
        header = bytearray(chunk[:name_end])
        struct.pack_into("<H", header, _LOCAL_EXTRA_FIELD, padding)
        padded[id(entry)] = padding
        return [bytes(header), bytes(padding), chunk[name_end + extra:]]

    def apply(self, bsp: MapFile, *, in_place: bool = False) -> int | None:
        """Put the edit into `bsp` (saved later with `save` or `save_in_place`). With
        `in_place`, only new bytes are appended to the file (a `repack` or an XZP2 edit still
        writes a clean zip). Returns the lump's new length, or None when there is nothing to
        change. Read the pakfile again after saving."""
        if not self.dirty:
            return None
        index = pak_index(bsp)
        fast = in_place and self._spliceable and self.compatible
        earlier = self._earlier_zip() if fast else None
        if earlier is not None:
            bsp.splice_lump(index, earlier, b"")
            return earlier
        base = bsp.append_base(index) if fast else None
        keep, extra = self.splice(None if self._compact else base)
        if self._spliceable:
            bsp.splice_lump(index, keep, extra)
        else:
            bsp.replace_lump(index, self._read(0, keep) + extra)
        return keep + len(extra)

    def _earlier_zip(self) -> int | None:
        """The length of an earlier zip at the start of the lump that holds exactly the
        entries left after removals (a fast edit leaves the end record before its appended
        entries), or None."""
        if self._compact or not self._gone or any(e.payload is not None for e in self._entries):
            return None
        wanted = [(e.raw_name, e.offset, e.crc, e.stored_size) for e in self._entries]
        high = min(self._gone)
        window = self._read(max(0, high - _SEARCH_CHUNK), high)
        found = window.rfind(_END_SIG)
        while found >= 0:
            at = max(0, high - _SEARCH_CHUNK) + found
            comment = int.from_bytes(window[found + 20:found + 22], "little")
            length = at + _END.size + comment
            if length <= high:
                try:
                    earlier = Pakfile(self._read, length)
                except BspError:
                    earlier = None
                if earlier is not None and wanted == [(e.raw_name, e.offset, e.crc, e.stored_size)
                                                      for e in earlier.entries]:
                    return length
            found = window.rfind(_END_SIG, 0, found)
        return None

    # -- extracting --------------------------------------------------------------------------
    def extract_plan(self, entries: Sequence[Entry], *,
                     windows: bool | None = None) -> list[Target]:
        """The files `extract` writes for `entries` and their paths in the folder. Refuses
        (BspError) names that would land outside it and more than the limit for one entry. An
        entry shadowed by an earlier one of the same name (which the engine finds instead) is
        left out. With `windows` (default: on Windows or with BSPEDIT_WINDOWS_NAMES=1) names
        follow Windows' rules (`format.winnames`), and two entries landing on one file, or a
        file on a folder, are refused."""
        files = [e for e in entries if not e.is_dir and self.find(e.name) is e]
        for entry in entries:
            problem = unsafe_name(entry.name)
            if problem:
                raise self._error(f"pak entry {entry.name!r} {problem}: refused to extract",
                                  max(entry.offset, 0))
            self._check_limit(entry)
        names = [e.name.replace("\\", "/") for e in files]
        if not (windows_names() if windows is None else windows):
            return [Target(e, name, ()) for e, name in zip(files, names)]
        try:
            mapped = windows_paths(names)
        except Clash as clash:
            first, second = files[clash.first], files[clash.second]
            what = "a file and a folder" if clash.folder else "one file"
            raise self._error(f"pak entries {first.name!r} and {second.name!r} would be {what} "
                              f"on Windows ({clash.path!r}): refused to extract",
                              max(second.offset, 0)) from None
        for entry, (path, _) in zip(files, mapped):
            if unsafe_name(path):        # never: the mapping keeps names inside the folder
                raise self._error(f"pak entry {entry.name!r} maps to {path!r}: refused to "
                                  "extract", max(entry.offset, 0))
        return [Target(e, path, reasons) for e, (path, reasons) in zip(files, mapped)]

    def extract(self, entries: Sequence[Entry], directory: str | os.PathLike[str], *,
                windows: bool | None = None) -> int:
        """Write `entries` under `directory`, CRC-checked, as `extract_plan` names them.
        Refuses, before writing anything, what the plan refuses and more than the extraction
        limits; never follows a symbolic link inside it. Returns the bytes written."""
        root = Path(directory)
        plan = self.extract_plan(entries, windows=windows)
        total = sum(t.entry.size for t in plan)
        if total > LIMITS.extract_total:
            raise self._error(f"extracting {len(plan)} pak entries would write {total} bytes, "
                              f"over the {LIMITS.extract_total}-byte limit "
                              "(--max-extract-size raises it)")
        root.mkdir(parents=True, exist_ok=True)
        written = 0
        with bar(total, f"extract {len(plan)} files") as shown:
            for target in plan:
                data = self.read(target.entry)
                path = _safe_target(root, target.path)
                fd = open_fd(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | NOFOLLOW, 0o666)
                with os.fdopen(fd, "wb") as out:
                    out.write(data)
                written += len(data)
                shown.advance(len(data))
        return written


@dataclass(frozen=True, slots=True)
class Target:
    """A file `Pakfile.extract` writes: the entry, its '/'-separated path in the folder, and
    why that path differs from the entry's name (Windows' rules; empty when it does not)."""

    entry: Entry
    path: str
    reasons: tuple[str, ...]


def pak_index(bsp: MapFile) -> int:
    """The pakfile's lump index; BspError for families without one."""
    if bsp.family.pakfile is None:
        raise BspError(f"{bsp.family.title} maps have no pakfile", path=bsp.path)
    return bsp.lump_index(bsp.family.pakfile)


def _safe_target(root: Path, name: str) -> Path:
    """`root/name`, creating directories, refusing symbolic links on the way."""
    path = root
    for part in name.split("/")[:-1]:
        path = path / part
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            path.mkdir()
            continue
        if stat.S_ISLNK(mode) or not stat.S_ISDIR(mode):
            raise BspError(f"refused to extract {name!r}: {path} is a symbolic link or not a "
                           "directory")
    target = path / name.split("/")[-1]
    if target.is_symlink():
        raise BspError(f"refused to extract {name!r}: {target} is a symbolic link")
    return target


def _padding(alignment: int, position: int, name_length: int) -> int:
    """Valve's extra-field padding: data starts on the next boundary (a whole `alignment`
    when it would already be aligned, as CZipFile::CalculatePadding computes)."""
    if not alignment:
        return 0
    return alignment - (position + _LOCAL.size + name_length) % alignment


def _needed(method: int) -> int:
    return 63 if method == LZMA else 10


def _local_header(entry: Entry, padding: int) -> bytes:
    return _LOCAL.pack(_LOCAL_SIG, _needed(entry.method), entry.flags, entry.method, 0, 0,
                       entry.crc, entry.stored_size, entry.size, len(entry.raw_name),
                       padding) + entry.raw_name + bytes(padding)


def _central_record(entry: Entry, padding: int, offset: int, compatible: bool) -> bytes:
    """A new entry's central directory record; an XZP2 one declares its padding but holds
    none of it."""
    return _CENTRAL.pack(_CENTRAL_SIG, 20, _needed(entry.method), entry.flags, entry.method, 0, 0,
                         entry.crc, entry.stored_size, entry.size, len(entry.raw_name), padding,
                         0, 0, 0, 0, offset) + entry.raw_name + bytes(padding if compatible else 0)
