"""Digests of byte ranges of a map file, read through one bounded buffer, and the digest cache.

Hashing never walks an mmap of the whole map: `read_chunks` reads into a reused 1 MiB buffer,
so memory stays flat whatever the map's size.

The cache keeps, per map file, what a full read found (each lump's CRC-32 and block checksum,
or the whole file's block checksum), keyed by the file's identity and state (device, inode,
size, mtime, ctime) in one small JSON file per (device, inode) under
``$XDG_CACHE_HOME/bspedit`` (``~/.cache/bspedit``). Any other write to the map changes its
ctime, which users cannot set back, so a changed file never matches its entry. An entry is
recorded only once the clock has moved past the file's ctime, so a later write in the same
timestamp tick cannot hide either. On Windows, where ctime is the creation time, there is no
cache. ``BSPEDIT_NO_CACHE=1`` turns the cache off; a cache folder
that cannot be written is skipped silently; at most `MAX_ENTRIES` entries are kept.
"""
from __future__ import annotations

import json
import os
import sys
import time
import zlib
from collections.abc import Iterator
from typing import Any

from ..values import Value
from .checksum import checksum_from_digest, new_md4
from .fileio import read_into

CHUNK = 1 << 20
MAX_ENTRIES = 256
_FORMAT = 1
# Linux's coarse clock (CLOCK_REALTIME_COARSE) is the one file timestamps are taken from.
_COARSE_CLOCK = getattr(time, "CLOCK_REALTIME_COARSE", 5 if sys.platform == "linux" else None)


def read_chunks(fd: int, start: int, length: int) -> Iterator[memoryview]:
    """The file's bytes [start, start + length) as views of one reused buffer: use each view
    before asking for the next. A file shorter than that raises OSError."""
    buffer = memoryview(bytearray(min(CHUNK, max(length, 0))))
    while length > 0:
        done = read_into(fd, buffer[:min(length, CHUNK)], start)
        if done <= 0:
            raise OSError(f"unexpected end of file at offset {start}")
        yield buffer[:done]
        start += done
        length -= done


class RangeDigest(Value):
    """CRC-32 and (when asked for) the ``Com_BlockChecksum`` of some bytes."""

    __slots__ = ("length", "crc32", "block")

    def __init__(self, length: int, crc32: int | None = None, block: int | None = None) -> None:
        self.length, self.crc32, self.block = length, crc32, block


def digest_bytes(data: bytes | memoryview, crc: bool, block: bool) -> RangeDigest:
    return RangeDigest(len(data), zlib.crc32(data) if crc else None,
                       checksum_from_digest(new_md4(data).digest()) if block else None)


def digest_range(fd: int, start: int, length: int, crc: bool, block: bool,
                 prefix: Any = None) -> tuple[RangeDigest, Any]:
    """Digest the file's bytes [start, start + length); with `block`, also return the MD4
    object after them (continuing `prefix` when given, a copy of it is not taken)."""
    value = 0
    md4 = (prefix if prefix is not None else new_md4()) if block else None
    for chunk in read_chunks(fd, start, length):
        if crc:
            value = zlib.crc32(chunk, value)
        if md4 is not None:
            md4.update(chunk)
    digest = RangeDigest(length, value if crc else None,
                         checksum_from_digest(md4.digest()) if md4 is not None else None)
    return digest, md4


class MapDigests(Value):
    """What the engines' checksums are made of: per lump (offset, digest), in index order,
    for lump-wise checksums; the whole file's block checksum for Quake 2/3."""

    __slots__ = ("lumps", "block_checksum")

    def __init__(self, lumps: tuple[tuple[int, RangeDigest], ...] = (),
                 block_checksum: int | None = None) -> None:
        self.lumps, self.block_checksum = lumps, block_checksum

    def to_json(self) -> dict[str, Any]:
        return {"lumps": [[o, d.length, d.crc32, d.block] for o, d in self.lumps],
                "block_checksum": self.block_checksum}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MapDigests:
        return cls(tuple((o, RangeDigest(n, c, b)) for o, n, c, b in data["lumps"]),
                   data["block_checksum"])


# -- the cache ---------------------------------------------------------------------------------
def cache_folder() -> str | None:
    """Where cache entries live, or None when ``BSPEDIT_NO_CACHE`` is set."""
    if os.environ.get("BSPEDIT_NO_CACHE", "") not in ("", "0"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "bspedit")


def _entry(folder: str, info: os.stat_result) -> str:
    return os.path.join(folder, f"{info.st_dev:x}-{info.st_ino:x}.json")


def _state(info: os.stat_result) -> list[int]:
    return [info.st_size, info.st_mtime_ns, info.st_ctime_ns]


def _trusted(info: os.stat_result) -> bool:
    """Whether key and state can name one file's bytes: a file id, and a ctime that is the time
    of the last change (POSIX; Windows gives the creation time, and a tool may set mtime
    back, so there the cache stays off)."""
    return os.name == "posix" and info.st_ino != 0


def cached(fd: int) -> MapDigests | None:
    """The digests recorded for the open file `fd` in its current state, if any."""
    folder = cache_folder()
    if folder is None:
        return None
    info = os.fstat(fd)
    if not _trusted(info):
        return None
    try:
        with open(_entry(folder, info), encoding="utf-8") as handle:
            data = json.load(handle)
        if data.get("format") != _FORMAT or data.get("state") != _state(info):
            return None
        return MapDigests.from_json(data)
    except (OSError, ValueError, TypeError, KeyError):
        return None


def record(path: str, digests: MapDigests) -> None:
    """Remember `digests` for the file at `path` as it is now (nothing when the cache is off,
    cannot be written, or the file keeps changing)."""
    folder = cache_folder()
    if folder is None:
        return
    info = _settled(path)
    if info is None or not _trusted(info):
        return
    entry = _entry(folder, info)
    try:
        os.makedirs(folder, exist_ok=True)
        new = not os.path.exists(entry)
        temporary = f"{entry}.{os.getpid()}.tmp"
        try:
            with open(temporary, "x", encoding="utf-8") as handle:
                json.dump({"format": _FORMAT, "state": _state(info), **digests.to_json()}, handle)
            os.replace(temporary, entry)
        except BaseException:
            if os.path.exists(temporary):
                os.unlink(temporary)
            raise
        if new:
            _prune(folder)
    except OSError:
        pass


def _settled(path: str) -> os.stat_result | None:
    """The file's state once the clock has left the tick of its last change (at most ~20 ms):
    a write after that gets a later ctime, so the state recorded cannot describe other bytes."""
    for _ in range(20):
        now = time.clock_gettime_ns(_COARSE_CLOCK) if _COARSE_CLOCK is not None \
            else time.time_ns() - 20_000_000
        try:
            info = os.stat(path)
        except OSError:
            return None
        if now > info.st_ctime_ns:
            return info
        time.sleep(0.001)
    return None


def _prune(folder: str) -> None:
    """Keep the `MAX_ENTRIES` most recently written entries."""
    entries = [e for e in os.scandir(folder) if e.name.endswith(".json")]
    if len(entries) <= MAX_ENTRIES:
        return
    entries.sort(key=lambda e: e.stat().st_mtime_ns)
    for old in entries[:len(entries) - MAX_ENTRIES]:
        try:
            os.unlink(old.path)
        except OSError:
            pass
