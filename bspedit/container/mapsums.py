"""The checksums each engine computes for a map: of the stored file, or of a save not yet made.

Both come from per-lump digests (`digests.MapDigests`). A save derives the new map's digests
from the old ones and the plan: unchanged lumps keep theirs, only changed lumps (and the
relocated Source game lump) are hashed, CRC-32s combine; for the whole-file MD4 of Quake 2/3
the bytes common to the old and the new file are hashed once. Nothing re-reads the written map.
"""
from __future__ import annotations

import os
import zlib
from functools import cached_property

from .mapfile import MapFile
from .checksum import QW_LUMP_ENTITIES, checksum_from_digest, crc32_combine, new_md4, \
    quakeworld_checksums
from .fileio import pread
from .digests import (MapDigests, RangeDigest, cached, digest_bytes, digest_range, read_chunks,
                      record)
from ..format.families import Family
from ..format.header import Header
from .planner import Piece

# What an engine's clients compare, by engine (see `compared_checksum`).
COMPARED = {"source": "crc32", "goldsrc": "crc32", "quake1": "map_checksum",
            "quake2": "block_checksum", "quake3": "block_checksum"}
WHOLE_FILE = {"quake2", "quake3"}
# Console Source engines read no lump for the map CRC: `CRC_MapFile` (engine, `IsX360()` branch)
# takes the version field of lump 59 (MAP_FLAGS), where Valve's console conversion stored the PC
# map's running CRC, and the caller finalises it as it does the PC one. Edits keep that field.
CONSOLE_CRC = "stored_crc32"
_CONSOLE_CRC_LUMP = "MAP_FLAGS"


def compared_checksum(header: Header) -> str:
    """The checksum the map's engine compares between server and clients."""
    return CONSOLE_CRC if _console_crc(header) is not None else COMPARED[header.family.engine]


def _console_crc(header: Header) -> int | None:
    """A console Source map's stored CRC, finalised (None for other maps)."""
    index = header.family.index_of(_CONSOLE_CRC_LUMP)
    if not header.big_endian or header.family.engine != "source" or index is None:
        return None
    return (header.lumps[index].version ^ 0xFFFFFFFF) & 0xFFFFFFFF


def _wanted(family: Family, index: int) -> tuple[bool, bool]:
    """Which digests of lump `index` the family's checksums use: (CRC-32, block checksum)."""
    return (family.engine in ("source", "goldsrc") and index != family.entities,
            family.engine in ("quake1", "goldsrc") and index != QW_LUMP_ENTITIES)


def checksums(header: Header, digests: MapDigests) -> dict[str, int]:
    """Name -> unsigned 32-bit value, for every checksum the map's engines compute (`digests`:
    of the map whose directory is `header`)."""
    family = header.family
    if family.engine in WHOLE_FILE:
        return {"block_checksum": digests.block_checksum}
    sums: dict[str, int] = {}
    if family.engine in ("source", "goldsrc"):
        crc = 0
        for index, (_, digest) in enumerate(digests.lumps):
            if index != family.entities:
                crc = crc32_combine(crc, digest.crc32, digest.length)
        sums["crc32"] = crc
    if family.engine in ("quake1", "goldsrc"):
        sums["map_checksum"], sums["map_checksum2"] = quakeworld_checksums(
            [digest.block or 0 for _, digest in digests.lumps])
    stored = _console_crc(header)
    if stored is not None:
        sums[CONSOLE_CRC] = stored
    return sums


def read_digests(bsp: MapFile) -> MapDigests:
    """The digests of the stored map, from its bytes (one bounded buffer, lumps in file order)."""
    fd = bsp.fileno()
    if bsp.family.engine in WHOLE_FILE:
        digest, _ = digest_range(fd, 0, bsp.size, False, True)
        return MapDigests(block_checksum=digest.block)
    found = {}
    for lump in sorted(bsp.lumps, key=lambda l: l.offset):
        found[lump.index] = digest_range(fd, lump.offset, max(lump.length, 0),
                                         *_wanted(bsp.family, lump.index))[0]
    return MapDigests(tuple((l.offset, found[l.index]) for l in bsp.lumps))


def _matches(bsp: MapFile, digests: MapDigests | None) -> bool:
    if digests is None:
        return False
    if bsp.family.engine in WHOLE_FILE:
        return digests.block_checksum is not None
    return len(digests.lumps) == len(bsp.lumps) and all(
        offset == l.offset and d.length == max(l.length, 0)
        and (d.crc32 is not None or not crc) and (d.block is not None or not block)
        for (offset, d), l in zip(digests.lumps, bsp.lumps)
        for crc, block in [_wanted(bsp.family, l.index)])


def map_checksums(bsp: MapFile) -> dict[str, int]:
    """The stored map's checksums, always from its bytes; refreshes the digest cache."""
    digests = read_digests(bsp)
    if _unchanged_since_open(bsp):
        record(bsp.path, digests)
    return checksums(bsp.header, digests)


def _unchanged_since_open(bsp: MapFile) -> bool:
    try:
        return os.path.samestat(os.stat(bsp.path), os.fstat(bsp.fileno()))
    except OSError:
        return False


class SaveChecksums:
    """The checksums of a map before and after a planned save (`header`: the new directory the
    plan gives), from digests, not re-reading.

    Created after planning and before writing (it hashes what the save will change while the
    file is as it was). The old map's digests come from the cache, else from one bounded read
    of the file. (Reading them in a thread while an `-o` save copies was measured: no faster on
    a 160 MB map, the copy and fsync dominate.) `record` runs after the save.
    """

    def __init__(self, bsp: MapFile, header: Header, layout: str) -> None:
        self.family = bsp.family
        self._old_header, self._header = bsp.header, header
        self._old: MapDigests | None = cached(bsp.fileno())
        if not _matches(bsp, self._old):
            self._old = None
        if self.family.engine in WHOLE_FILE:
            self._new_block, old_block = _whole_file_after(bsp, layout, self._old is None)
            if self._old is None:
                self._old = MapDigests(block_checksum=old_block)
                self._record_old(bsp)
            return
        if self._old is None:
            self._old = read_digests(bsp)
            self._record_old(bsp)
        self._changed = _changed_digests(bsp, header, self._old)

    def _record_old(self, bsp: MapFile) -> None:
        if _unchanged_since_open(bsp):
            record(bsp.path, self._old)

    @cached_property
    def before(self) -> dict[str, int]:
        return checksums(self._old_header, self._old)

    @cached_property
    def after_digests(self) -> MapDigests:
        if self.family.engine in WHOLE_FILE:
            return MapDigests(block_checksum=self._new_block)
        return MapDigests(tuple(
            (new.offset, self._changed.get(new.index, digest))
            for (_, digest), new in zip(self._old.lumps, self._header.lumps)))

    @cached_property
    def after(self) -> dict[str, int]:
        return checksums(self._header, self.after_digests)

    def record(self, target: str) -> None:
        """Remember the saved map's digests (call once the save is complete)."""
        record(target, self.after_digests)


def _changed_digests(bsp: MapFile, header: Header, stored: MapDigests) -> dict[int, RangeDigest]:
    """Digests of the lumps whose bytes the save changes: replaced lumps, and the Source game
    lump wherever it moves (its member offsets are file offsets). A new content that starts
    with the whole stored lump (a pakfile growing at the end of the file) reuses its CRC."""
    game_lump = bsp.family.index_of(bsp.family.game_lump) if bsp.family.game_lump else None
    found = {}
    for old, new in zip(bsp.lumps, header.lumps):
        crc, block = _wanted(bsp.family, old.index)
        content = bsp.new_content(old.index)
        if content is None and (old.index != game_lump or new.offset == old.offset):
            continue
        if not (crc or block):
            found[old.index] = RangeDigest(new.length)
            continue
        if old.index == game_lump:
            data = bsp.materialise(Piece("lump", new.length, index=old.index), new.offset)
            found[old.index] = digest_bytes(data, crc, block)
            continue
        kept, data = content
        prefix, md4 = _file_prefix(bsp, old.offset, kept, crc, block,
                                   stored.lumps[old.index][1] if old.length > 0 else None)
        value = crc32_combine(prefix.crc32, zlib.crc32(data), len(data)) if crc else None
        if md4 is not None:
            md4.update(data)
        found[old.index] = RangeDigest(kept + len(data), value,
                                       checksum_from_digest(md4.digest()) if md4 else None)
    return found


def _file_prefix(bsp: MapFile, start: int, length: int, crc: bool, block: bool,
                 lump: RangeDigest | None):
    """Digest of `length` bytes of the file from `start`, zeros past its end, with the MD4
    object after them when `block`. `lump` (the digest of the stored lump at `start`) spares
    reading its bytes again when only the CRC is needed and they are all included."""
    on_file = max(0, min(length, bsp.size - start))
    skip = lump.length if lump is not None and not block and lump.length <= on_file else 0
    digest, md4 = digest_range(bsp.fileno(), start + skip, on_file - skip, crc, block)
    value = crc32_combine(lump.crc32, digest.crc32, on_file - skip) if skip and crc \
        else digest.crc32
    zeros = bytes(length - on_file)
    value = zlib.crc32(zeros, value) if crc else None
    if md4 is not None:
        md4.update(zeros)
    return RangeDigest(length, value), md4


def _whole_file_after(bsp: MapFile, layout: str, want_old: bool) -> tuple[int, int | None]:
    """Block checksums of the file a save with `layout` writes and, with `want_old`, of the
    stored file: the bytes up to the first difference are hashed once for both."""
    fd, size = bsp.fileno(), bsp.size
    common = new_md4()
    new = old = None
    position = 0
    for chunk in bsp.render(layout):
        if new is None and want_old:
            stored = pread(fd, len(chunk), position)
            same = _common_length(chunk, stored)
            common.update(chunk[:same])
            if same < len(chunk):
                old = common.copy()
                old.update(stored[same:])
                old_position = position + len(stored)
                new = common
                new.update(chunk[same:])
        elif new is None:
            common.update(chunk)
        else:
            new.update(chunk)
        position += len(chunk)
    if new is None:              # the new file starts with the whole old one (or is it)
        new, old, old_position = common, common.copy(), min(position, size)
    if want_old:
        for chunk in read_chunks(fd, old_position, size - old_position):
            old.update(chunk)
    return (checksum_from_digest(new.digest()),
            checksum_from_digest(old.digest()) if want_old else None)


def _common_length(a: bytes | memoryview, b: bytes | memoryview) -> int:
    """How many leading bytes `a` and `b` share."""
    low, high = 0, min(len(a), len(b))
    if a[:high] == b[:high]:
        return high
    while high - low > 1:           # a[:low] equal, a[:high] not
        middle = (low + high) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle
    return low


def checksums_after(bsp: MapFile, layout: str) -> dict[str, int]:
    """What `map_checksums` would give for the map saved with `layout`; nothing is written."""
    header, _ = bsp.plan(layout)
    return SaveChecksums(bsp, header, layout).after
