"""One VPK as a search path: its directory read on first use (srctools' reader, v1 and v2,
multi-archive `_dir.vpk` or a single file), entries found by lower-case name, data read from
the directory file or its numbered archives (`foo_dir.vpk` -> `foo_000.vpk`, `foo_001.vpk`...).

An archive that is absent does not stop the lookups: its entries are listed (`readable` is
False) and reading them gives None; the VPK records the problem once."""
from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from srctools.vpk import VPK, FileInfo

from .model import asset_path


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


class VpkMount:
    """A VPK opened for lookups. `path` is the `_dir.vpk` (or single) file. The directory is
    read on the first `find`; until then nothing but the path is held."""

    def __init__(self, path: str, problems: list[str] | None = None) -> None:
        self.path = path
        self.problems: list[str] = [] if problems is None else problems
        self._vpk: VPK | None = None
        self._index: dict[str, FileInfo] | None = None
        self._archives: dict[int, bool] = {}     # archive index -> the file exists
        self._reported: set[int] = set()

    @property
    def exists(self) -> bool:
        """The directory file is on this machine."""
        return os.path.isfile(self.path)

    def _open(self) -> dict[str, FileInfo]:
        if self._index is not None:
            return self._index
        self._index = {}
        if not self.exists:
            return self._index
        from srctools.vpk import VPK
        try:
            vpk = VPK(self.path, mode="r")
        except Exception as exc:  # noqa: BLE001 - OSError, a bad signature, a cut directory
            self.problems.append(f"{self.path}: not a readable VPK ({exc}); its entries are skipped")
            return self._index
        self._vpk = vpk
        index = self._index
        missing: dict[int, int] = {}
        for info in vpk:
            name = asset_path(info.filename)
            # two entries differing only in case (`UpperCaseFolder` beside `uppercasefolder`):
            # the one already lower-case wins, else the first in directory order
            if name not in index or info.filename == name:
                index[name] = info
            arch = info.arch_index
            if arch is not None and info.arch_len and not self._archive_exists(arch):
                missing[arch] = missing.get(arch, 0) + 1
        for arch, count in sorted(missing.items()):
            self._report(arch, count)
        return index

    def _archive_name(self, arch: int) -> str:
        assert self._vpk is not None
        from srctools.vpk import get_arch_filename
        return os.path.join(self._vpk.folder, get_arch_filename(self._vpk.file_prefix, arch))

    def _archive_exists(self, arch: int) -> bool:
        known = self._archives.get(arch)
        if known is None:
            known = self._archives[arch] = os.path.isfile(self._archive_name(arch))
        return known

    def _report(self, arch: int, count: int | None = None) -> None:
        if arch in self._reported:
            return
        self._reported.add(arch)
        what = f"{count} entries" if count is not None else "its entries"
        self.problems.append(f"{self.path}: archive {os.path.basename(self._archive_name(arch))} "
                             f"is absent: {what} are listed but cannot be read")

    def find(self, path: str) -> FileInfo | None:
        """The entry for an `asset_path`, or None."""
        return self._open().get(path)

    def readable(self, info: FileInfo) -> bool:
        """The entry's data is on this machine (in the directory file or a present archive)."""
        return info.arch_index is None or not info.arch_len or self._archive_exists(info.arch_index)

    def read(self, info: FileInfo) -> bytes | None:
        """The entry's bytes, or None when its archive is absent or cannot be read."""
        if not self.readable(info):
            return None
        try:
            return info.read()
        except OSError as exc:
            if info.arch_index is not None:
                self._archives[info.arch_index] = False
                if info.arch_index not in self._reported:
                    self._reported.add(info.arch_index)
                    self.problems.append(f"{self.path}: archive "
                                         f"{os.path.basename(self._archive_name(info.arch_index))}"
                                         f" cannot be read ({exc})")
            return None

    def names(self) -> list[str]:
        """Every entry's `asset_path` (the directory is read if it was not)."""
        return list(self._open())
