"""One VPK as a search path: its directory read on first use (v1 and v2, a multi-archive
`_dir.vpk` or a single file), entries found by lower-case name, data read from the directory
file or its numbered archives (`foo_dir.vpk` -> `foo_000.vpk`, `foo_001.vpk`...).

The directory tree is read here rather than with srctools' `VPK` (which the tests use as the
oracle): srctools reads it a byte at a time (about 6.5 ms per 1,000 entries, before any index;
this reader with its lower-case index takes about 3.8 ms) and keeps every entry's preload bytes
and the directory file's whole data section in memory; this keeps one small tuple per entry
and reads data from the files only when asked.

An archive that is absent does not stop the lookups: its entries are listed (`readable` is
False) and reading them gives None; the VPK records the problem once."""
from __future__ import annotations

import os
import re
import struct
from typing import NamedTuple

from .model import asset_path

VPK_SIGNATURE = 0x55AA1234
IN_DIRECTORY = 0x7FFF          # the archive index of data kept in the directory file
_ENTRY = struct.Struct("<IHHIIH")
# a name that `asset_path` would change beyond lower-casing
_UNUSUAL = re.compile(r"\\|//|^\.?/|/\.(?:/|$)|/$|^\.$")
#: A VPK's numbered data archive (`foo_000.vpk`), lower case; `stem` is `foo`.
ARCHIVE = re.compile(r"^(?P<stem>.*)_\d{3}\.vpk$")


class Entry(NamedTuple):
    """One file of a VPK: `filename` as stored (its case kept), the CRC32 of its data,
    `preload_at`/`preload_len` (bytes kept in the directory file, at that file offset),
    `archive` (None: the rest is in the directory file's data section), `offset`, `length`."""

    filename: str
    crc: int
    preload_at: int
    preload_len: int
    archive: int | None
    offset: int
    length: int

    @property
    def size(self) -> int:
        """The file's size in bytes."""
        return self.preload_len + self.length


def dir_file(path: str) -> str:
    """The file the engine opens for a VPK search path: `foo.vpk` -> `foo_dir.vpk` when that
    exists, `foo.vpk` itself when only it exists (a single-file VPK), and `foo_dir.vpk` when
    neither does (the name reported as missing). A name already ending `_dir.vpk` is kept."""
    if path.lower().endswith("_dir.vpk"):
        return path
    stem = path[:-4] if path.lower().endswith(".vpk") else path
    dir_form = stem + "_dir.vpk"
    if os.path.isfile(dir_form) or not os.path.isfile(path):
        return dir_form
    return path


def not_a_vpk(path: str) -> str | None:
    """Why `path` is not a VPK the engine mounts (a `_dir.vpk` or single-file VPK), judged by
    its header; None when it is one."""
    try:
        with open(path, "rb") as f:
            head = f.read(8)
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    if len(head) == 8 and struct.unpack_from("<I", head)[0] == VPK_SIGNATURE:
        version = struct.unpack_from("<I", head, 4)[0]
        return None if version in (1, 2) else f"VPK version {version} (1 and 2 are known)"
    if ARCHIVE.match(os.path.basename(path).lower()):
        return "a numbered data archive of a VPK, not its directory: give the _dir.vpk"
    if head[:4] == b"VBSP":
        return "a map, not a VPK"
    return "not a VPK (no VPK signature)"


def read_directory(data: bytes) -> tuple[int, int, list[Entry]]:
    """`(version, data section offset, entries)` of a VPK directory file's bytes (at least
    its header and tree). Raises ValueError when it is not a VPK or the tree is cut short."""
    if len(data) < 12:
        raise ValueError("too short for a VPK header")
    signature, version, tree_size = struct.unpack_from("<III", data)
    if signature != VPK_SIGNATURE:
        raise ValueError("no VPK signature")
    if version not in (1, 2):
        raise ValueError(f"VPK version {version} (1 and 2 are known)")
    header = 12 if version == 1 else 28
    end = header + tree_size
    if len(data) < end:
        raise ValueError("the directory tree is cut short")
    entries: list[Entry] = []
    find, unpack = data.index, _ENTRY.unpack_from
    pos = header

    def string() -> str:
        nonlocal pos
        try:
            stop = find(b"\0", pos, end)
        except ValueError:
            raise ValueError("the directory tree is cut short") from None
        text = data[pos:stop].decode("utf-8", "surrogateescape")
        pos = stop + 1
        return text

    while True:
        ext = string()
        if not ext:
            break
        suffix = "" if ext == " " else "." + ext
        while True:
            folder = string()
            if not folder:
                break
            prefix = "" if folder == " " else folder + "/"
            while True:
                name = string()
                if not name:
                    break
                if pos + _ENTRY.size > end:
                    raise ValueError("the directory tree is cut short")
                crc, preload, archive, offset, length, terminator = unpack(data, pos)
                if terminator != 0xFFFF:
                    raise ValueError(f"entry {prefix}{name}{suffix}: bad terminator")
                pos += _ENTRY.size
                entries.append(Entry(prefix + name + suffix, crc, pos, preload,
                                     None if archive == IN_DIRECTORY else archive,
                                     offset, length))
                pos += preload
                if pos > end:
                    raise ValueError("the directory tree is cut short")
    return version, end, entries


class VpkMount:
    """A VPK opened for lookups. `path` is the `_dir.vpk` (or single) file. The directory is
    read on the first `find`; until then nothing but the path is held. Problems (an unreadable
    directory, absent archives) go to `problems`, each once."""

    def __init__(self, path: str, problems: list[str] | None = None) -> None:
        self.path = path
        self.problems: list[str] = [] if problems is None else problems
        self.version = 0
        self._data_at = 0
        self._index: dict[str, Entry] | None = None
        self._archives: dict[int, bool] = {}     # archive index -> the file exists
        self._reported: set[int] = set()
        folder, name = os.path.split(path)
        stem = name[:-8] if name.lower().endswith("_dir.vpk") else name[:-4] \
            if name.lower().endswith(".vpk") else name
        self._archive_stem = os.path.join(folder, stem)

    @property
    def exists(self) -> bool:
        """The directory file is on this machine."""
        return os.path.isfile(self.path)

    def _open(self) -> dict[str, Entry]:
        if self._index is not None:
            return self._index
        index: dict[str, Entry] = {}
        self._index = index
        if not self.exists:
            return index
        try:
            with open(self.path, "rb") as f:
                head = f.read(28)
                tree = struct.unpack_from("<I", head, 8)[0] if len(head) >= 12 else 0
                version, self._data_at, entries = read_directory(head + f.read(tree + 28 - len(head)))
        except (OSError, ValueError, struct.error) as exc:
            self.problems.append(f"{self.path}: not a readable VPK ({exc}); its entries are skipped")
            return index
        self.version = version
        missing: dict[int, int] = {}
        for entry in entries:
            name = entry.filename.lower()
            if _UNUSUAL.search(name):       # slashes or `.` parts to fold: the slow way
                name = asset_path(name)
            # two entries differing only in case (`UpperCaseFolder` beside `uppercasefolder`):
            # the one stored in lower case wins, else the first in directory order
            if name not in index or entry.filename == name:
                index[name] = entry
            if entry.archive is not None and entry.length and not self._archive_exists(entry.archive):
                missing[entry.archive] = missing.get(entry.archive, 0) + 1
        for archive, count in sorted(missing.items()):
            self._reported.add(archive)
            self.problems.append(f"{self.path}: archive {os.path.basename(self.archive_path(archive))}"
                                 f" is absent: {count} entries are listed but cannot be read")
        return index

    def archive_path(self, archive: int) -> str:
        """The numbered archive file `archive` (`foo_dir.vpk`, 1 -> `foo_001.vpk`)."""
        return f"{self._archive_stem}_{archive:03d}.vpk"

    def _archive_exists(self, archive: int) -> bool:
        known = self._archives.get(archive)
        if known is None:
            known = self._archives[archive] = os.path.isfile(self.archive_path(archive))
        return known

    def find(self, path: str) -> Entry | None:
        """The entry for an `asset_path`, or None."""
        return self._open().get(path)

    def readable(self, entry: Entry) -> bool:
        """The entry's data is on this machine (in the directory file or a present archive)."""
        return entry.archive is None or not entry.length or self._archive_exists(entry.archive)

    def read(self, entry: Entry) -> bytes | None:
        """The entry's bytes, or None when its archive is absent or cannot be read."""
        if not self.readable(entry):
            return None
        try:
            with open(self.path, "rb") as f:
                f.seek(entry.preload_at)
                data = f.read(entry.preload_len)
                if entry.length and entry.archive is None:
                    f.seek(self._data_at + entry.offset)
                    data += f.read(entry.length)
            if entry.length and entry.archive is not None:
                with open(self.archive_path(entry.archive), "rb") as f:
                    f.seek(entry.offset)
                    data += f.read(entry.length)
        except OSError as exc:
            if entry.archive is not None and entry.archive not in self._reported:
                self._reported.add(entry.archive)
                self.problems.append(f"{self.path}: archive "
                                     f"{os.path.basename(self.archive_path(entry.archive))}"
                                     f" cannot be read ({exc.strerror or exc})")
            return None
        if len(data) != entry.size:
            self.problems.append(f"{self.path}: {entry.filename} is cut short")
            return None
        return data

    def names(self) -> list[str]:
        """Every entry's `asset_path` (the directory is read if it was not)."""
        return list(self._open())
