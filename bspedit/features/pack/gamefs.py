"""The game's file system as the Source engine builds it from `gameinfo.txt`: the search paths
in lookup order (loose folders and VPKs), each marked as the mod's or the base game's, and
lookups of asset paths through them.

How `gameinfo.txt`'s `FileSystem/SearchPaths` becomes search paths (Source SDK 2013's
`FileSystem_LoadSearchPaths`, followed where it matters for finding assets):

- The file is found in any capitalisation (`GameInfo.txt`) in GAMEDIR and read with srctools'
  KeyValues. Conditions (`[$X360]`, `[!$WIN32]`, `||`, `&&`) are evaluated for the Windows PC
  game: `$WIN32`, `$WINDOWS` and `$PC` true, every other flag (consoles, `$OSX`, `$LINUX`,
  `$POSIX`, `$DECK`) false, so the result does not depend on the machine running bspedit.
- A key is a `+`-joined list of path IDs. A line is used for asset lookup when its IDs include
  `game` or `mod`; `game_lv` (low-violence builds only), `platform`, `gamebin` and the write
  IDs alone are not. A path already listed keeps its first place (the engine does not add a
  search path twice).
- `|gameinfo_path|` is GAMEDIR; `|all_source_engine_paths|` and every relative path are relative
  to the game's root, the folder above GAMEDIR where `hl2/` and `platform/` live (for a mod under
  `sourcemods/`, pass `root=` the base game's folder, e.g. Source SDK Base 2013). `|appid_N|`
  names a Steam app's install folder, which is unknown without Steam: the line is skipped and
  reported, unless `apps` maps that app ID to its folder. Each path component is matched case-insensitively when the exact name is absent.
- A value with `*` or `?` (`custom/*`) mounts each matching subfolder and `.vpk` file of its
  folder, sorted case-insensitively (the engine's order); a `foo_dir.vpk` mounts once, its
  `foo_NNN.vpk` archives are not mounted again. A missing wildcard folder adds nothing and is
  not a problem (the engine ignores it too).
- A value ending `.vpk` mounts `foo_dir.vpk` (with its archives `foo_000.vpk`...) or a
  single-file `foo.vpk` when only that exists.
- A loose folder also mounts its `pak01_dir.vpk`, `pak02_dir.vpk`... up to the first gap, ahead
  of the folder's loose files: the Left 4 Dead branch's filesystem (L4D, Portal 2, CS:GO)
  scans each search path for them in `CBaseFileSystem::AddSearchPath`; Source 2013 mods that
  ship one list it in gameinfo anyway.
- Extra sources: `--content DIR` folders (the mod's) and `--vpk FILE` VPKs go right after the
  gameinfo's last mod search path, before the base game's.

The mod is GAMEDIR and everything under it (its `custom/`, VPKs inside it) plus `--content`;
everything else (including a `--vpk` outside GAMEDIR) is the base game. Without a GAMEDIR (a
level-design repository's `assets/` has no gameinfo) the search paths are the `--content`
folders and `--vpk` files alone, and no base game is assumed.

Paths this machine lacks are listed in `problems`, never fatal. A file found in no search path
is missing only when every search path the gameinfo names is here; otherwise it may be in one
that is not (or in the base game no gameinfo named), and `unjudged` says why it is unknown.
Loose lookups match the asset path case-insensitively without walking trees: the exact
lower-case path is tried first, and otherwise only the folders on the path's way are listed,
once each (cached per folder)."""
from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from .gameinfo import read_gameinfo, resolve, used_for_assets
from .model import Location, asset_path
from .vpk import ARCHIVE, Entry, VpkMount, dir_file


@dataclass(frozen=True, slots=True)
class SearchPath:
    """One place the game looks for files, in lookup order. `kind` is "folder" or "vpk";
    `path` the folder or the `_dir.vpk` (or single-file VPK); `exists` whether this machine
    has it; `base` True for the base game, False for the mod; `source` where it came from (the
    gameinfo line `key value`, `--content`, `--vpk`, or `pak01_dir.vpk of FOLDER`)."""

    kind: str
    path: str
    exists: bool
    base: bool
    source: str


def match_case(path: str) -> str:
    """`path` with each component that does not exist as written replaced by the one entry of
    its folder that matches it ignoring case; `path` unchanged when a component matches nothing."""
    if os.path.exists(path):
        return path
    head, tail = os.path.split(path)
    if not tail or head == path:
        return path
    parent = match_case(head)
    try:
        with os.scandir(parent) as it:
            hits = sorted(e.name for e in it if e.name.lower() == tail.lower())
    except OSError:
        return os.path.join(parent, tail)
    return os.path.join(parent, hits[0] if hits else tail)


def _under(path: str, folder: str) -> bool:
    p, f = os.path.normcase(path), os.path.normcase(folder)
    return p == f or p.startswith(f.rstrip(os.sep) + os.sep)


class _Folder:
    """A loose folder's lookups, listing a directory only when a lookup passes through it."""

    def __init__(self, root: str, fs: GameFS) -> None:
        self.root = root
        self._fs = fs
        self._listings: dict[str, dict[str, tuple[str, bool]]] = {}

    def _listing(self, folder: str) -> dict[str, tuple[str, bool]]:
        cached = self._listings.get(folder)
        if cached is not None:
            return cached
        listing: dict[str, tuple[str, bool]] = {}
        self._fs.scandir_calls += 1
        try:
            with os.scandir(folder) as it:
                for e in it:
                    low = e.name.lower()
                    # names differing only in case: the lower-case one wins, else the first
                    # in sorted order
                    old = listing.get(low)
                    if old is None or e.name == low or (old[0] != low and e.name < old[0]):
                        try:
                            listing[low] = (e.name, e.is_dir())
                        except OSError:
                            continue
        except OSError:
            pass
        self._listings[folder] = listing
        return listing

    def find(self, path: str) -> str | None:
        parts = path.split("/")
        exact = os.path.join(self.root, *parts)
        if os.path.isfile(exact):
            return exact
        folder = self.root
        for i, part in enumerate(parts):
            hit = self._listing(folder).get(part)
            if hit is None:
                return None
            name, is_dir = hit
            if i == len(parts) - 1:
                return None if is_dir else os.path.join(folder, name)
            if not is_dir:
                return None
            folder = os.path.join(folder, name)
        return None

    def folder(self, path: str) -> str | None:
        """The real folder for an asset folder path ("" is the root), found like `find`."""
        folder = self.root
        for part in path.split("/") if path else ():
            hit = self._listing(folder).get(part)
            if hit is None or not hit[1]:
                return None
            folder = os.path.join(folder, hit[0])
        return folder

    def walk(self, path: str) -> Iterator[tuple[str, str]]:
        """`(asset path, file)` for every file under the asset folder `path`."""
        top = self.folder(path)
        if top is None:
            return
        for dirpath, dirnames, filenames in os.walk(top):
            self._fs.scandir_calls += 1
            dirnames.sort()
            rel = os.path.relpath(dirpath, self.root)
            for name in sorted(filenames):
                yield asset_path(os.path.join(rel, name)), os.path.join(dirpath, name)

    def listed(self) -> list[str]:
        return list(self._listings)


class Hit:
    """One search path's copy of a file (see `GameFS.hits`): its `location`, its `size` in
    bytes, and `crc`, the CRC-32 a VPK's directory records (None for a loose file). `read()`
    gives its bytes, or None when they cannot be read (a VPK archive that is absent)."""

    __slots__ = ("location", "size", "crc", "_mount", "_found")

    def __init__(self, location: Location, size: int, crc: int | None,
                 mount: _Folder | VpkMount, found: str | Entry) -> None:
        self.location = location
        self.size = size
        self.crc = crc
        self._mount = mount
        self._found = found

    def __repr__(self) -> str:
        return f"Hit({self.location!r}, size={self.size}, crc={self.crc})"

    def read(self) -> bytes | None:
        """The bytes of this copy, or None when they are not on this machine."""
        if isinstance(self._found, Entry):
            assert isinstance(self._mount, VpkMount)
            return self._mount.read(self._found)
        try:
            with open(self._found, "rb") as f:
                return f.read()
        except OSError:
            return None


class GameFS:
    """The game's search paths and lookups through them. Build it with `GameFS.load`.

    `search_paths` are in lookup order; `problems` lists what this machine lacks (search paths,
    VPK archives, `|appid_N|` mounts) and grows when a VPK opened on first use turns out to
    lack archives. `game_dir` and `gameinfo` are None without a GAMEDIR (content folders
    alone); `skipped` counts the `|appid_N|` lines not mounted. `scandir_calls` counts the
    folders listed so far (each at most once)."""

    def __init__(self, game_dir: str | None, gameinfo: str | None, root: str | None,
                 search_paths: list[SearchPath], problems: list[str], skipped: int = 0) -> None:
        self.game_dir = game_dir
        self.gameinfo = gameinfo
        self.root = root
        self.search_paths = search_paths
        self.problems = problems
        self.skipped = skipped
        self.scandir_calls = 0
        self._mounts: list[_Folder | VpkMount | None] = []
        for sp in search_paths:
            if not sp.exists:
                self._mounts.append(None)
            elif sp.kind == "vpk":
                self._mounts.append(VpkMount(sp.path, problems))
            else:
                self._mounts.append(_Folder(sp.path, self))

    @classmethod
    def load(cls, game_dir: str | os.PathLike[str] | None, *,
             content: Iterable[str | os.PathLike[str]] = (),
             vpks: Iterable[str | os.PathLike[str]] = (),
             root: str | os.PathLike[str] | None = None,
             apps: Mapping[int, str | os.PathLike[str]] | None = None) -> GameFS:
        """Read GAMEDIR's gameinfo.txt (any capitalisation) and build the search paths, with
        `content` folders and `vpks` files added after the mod's own. `root` is the folder
        relative paths and `|all_source_engine_paths|` start from (default: GAMEDIR's parent);
        `apps` maps Steam app IDs to their install folders for `|appid_N|` (Steam is not asked).
        `game_dir` None: no gameinfo, the search paths are `content` (the mod's) then `vpks`.
        Raises BspError when GAMEDIR has no gameinfo.txt or it cannot be read."""
        gdir: str | None = None
        entries: list[tuple[str, str]] = []
        gameinfo = base_dir = None
        if game_dir is not None:
            gdir, gameinfo, entries = read_gameinfo(game_dir)
            base_dir = os.path.abspath(os.fspath(root)) if root is not None \
                else os.path.dirname(gdir)
        problems: list[str] = []
        paths: list[SearchPath] = []
        seen: set[tuple[str, str]] = set()
        skipped = 0

        def add(kind: str, path: str, source: str, *, mod: bool | None = None,
                at: int | None = None) -> int:
            """Add one search path (a folder also brings its pakNN_dir.vpk ahead of it);
            return how many entries were added."""
            path = os.path.normpath(path)
            is_mod = (gdir is not None and _under(path, gdir)) if mod is None else mod
            added: list[SearchPath] = []
            if kind == "folder" and os.path.isdir(path):
                for n in range(1, 99):
                    pak = os.path.join(path, f"pak{n:02d}_dir.vpk")
                    if not os.path.isfile(pak):
                        break
                    added.append(SearchPath("vpk", pak, True, not is_mod,
                                            f"pak{n:02d}_dir.vpk of {source}"))
            exists = os.path.isdir(path) if kind == "folder" else os.path.isfile(path)
            added.append(SearchPath(kind, path, exists, not is_mod, source))
            fresh = [sp for sp in added if (sp.kind, os.path.normcase(sp.path)) not in seen]
            for sp in fresh:
                seen.add((sp.kind, os.path.normcase(sp.path)))
                if not sp.exists:
                    problems.append(f"{source}: {sp.path} is not on this machine")
            pos = len(paths) if at is None else at
            paths[pos:pos] = fresh
            return len(fresh)

        for key, value in entries:
            if not used_for_assets(key):
                continue
            source = f"{key} {value}"
            assert gdir is not None and base_dir is not None
            resolved = resolve(value, gdir, base_dir, apps or {})
            if resolved is None:
                problems.append(f"{source}: a Steam app's install folder is unknown without "
                                "Steam; skipped")
                skipped += 1
                continue
            if "*" in value or "?" in value:
                for kind, path in _expand_wildcard(resolved):
                    add(kind, path, source)
            elif resolved.lower().endswith(".vpk"):
                add("vpk", dir_file(match_case(resolved)), source)
            else:
                add("folder", match_case(resolved), source)

        mods = [i for i, sp in enumerate(paths) if not sp.base]
        at = mods[-1] + 1 if mods else 0
        for folder in content:
            at += add("folder", os.path.abspath(os.fspath(folder)), "--content", mod=True, at=at)
        for vpk in vpks:
            path = dir_file(os.path.abspath(os.fspath(vpk)))
            at += add("vpk", path, "--vpk", at=at)
        return cls(gdir, gameinfo, base_dir, paths, problems, skipped)

    @property
    def unjudged(self) -> str | None:
        """Why a file found in no search path may still be the game's (so it is unknown, not
        missing): no gameinfo, or search paths this machine lacks; None when every search
        path the gameinfo names is here."""
        if self.gameinfo is None:
            return "no gameinfo names the base game, which may ship what no content folder has"
        absent = [sp for sp in self.search_paths if not sp.exists]
        if self.skipped or any(sp.base for sp in absent):
            return "the base game's search paths are not on this machine"
        if absent:
            return "search paths of the mod are not on this machine"
        return None

    def base_game(self) -> list[SearchPath]:
        """The base game's search paths (none assumed without a gameinfo unless `--vpk`)."""
        return [sp for sp in self.search_paths if sp.base]

    def _hits(self, path: str) -> Iterator[tuple[Location, _Folder | VpkMount, str | Entry]]:
        name = asset_path(path)
        if not name or ".." in name.split("/"):
            return
        for sp, mount in zip(self.search_paths, self._mounts):
            if mount is None:
                continue
            if isinstance(mount, VpkMount):
                info = mount.find(name)
                if info is not None:
                    yield Location("vpk", sp.path, mount.readable(info), sp.base), mount, info
            else:
                found = mount.find(name)
                if found is not None:
                    yield Location("loose", sp.path, True, sp.base), mount, found

    def locate(self, path: str) -> Location | None:
        """Where the game finds `path` (any case, any slashes): the first search path that
        has it, or None. A VPK entry whose archive is absent is found with readable=False."""
        for loc, _, _ in self._hits(path):
            return loc
        return None

    def hits(self, path: str) -> Iterator[Hit]:
        """Each search path's copy of `path`, in lookup order, with its size and (for a VPK
        entry) the directory's CRC-32, so a caller can compare a file with the game's copy
        without reading data that is not there."""
        for loc, mount, found in self._hits(path):
            if isinstance(found, Entry):
                yield Hit(loc, found.size, found.crc, mount, found)
            else:
                try:
                    size = os.path.getsize(found)
                except OSError:
                    continue
                yield Hit(loc, size, None, mount, found)

    def locate_all(self, path: str) -> list[Location]:
        """Every search path that has `path`, in lookup order (the first is what the game
        loads; the others are what it overrides)."""
        return [loc for loc, _, _ in self._hits(path)]

    def read(self, path: str) -> bytes | None:
        """The bytes of `path` from the first location that can be read; None when it is
        missing everywhere or no location can be read."""
        for hit in self.hits(path):
            data = hit.read()
            if data is not None:
                return data
        return None

    def iter_files(self, prefix: str) -> Iterator[tuple[str, Location]]:
        """Every file under the asset folder `prefix` (`materials/models/props`; "" for all),
        once each with the location the game loads it from, search path by search path. It
        lists the folders under `prefix` in every loose search path: for audits, not lookups."""
        top = asset_path(prefix)
        if ".." in top.split("/"):
            return
        start = top + "/" if top else ""
        seen: set[str] = set()
        for sp, mount in zip(self.search_paths, self._mounts):
            if mount is None:
                continue
            if isinstance(mount, VpkMount):
                for name in mount.names():
                    if name.startswith(start) and name not in seen:
                        seen.add(name)
                        info = mount.find(name)
                        assert info is not None
                        yield name, Location("vpk", sp.path, mount.readable(info), sp.base)
            else:
                for name, _ in mount.walk(top):
                    if name not in seen:
                        seen.add(name)
                        yield name, Location("loose", sp.path, True, sp.base)

    def listed_folders(self) -> list[str]:
        """The folders listed so far by case-insensitive lookups (for tests and reports)."""
        return [d for m in self._mounts if isinstance(m, _Folder) for d in m.listed()]


def _expand_wildcard(pattern: str) -> list[tuple[str, str]]:
    """The folders and VPKs a wildcard search path mounts, in the engine's order."""
    folder, mask = os.path.split(pattern)
    folder = match_case(folder)
    try:
        with os.scandir(folder) as it:
            found = [(e.name, e.is_dir()) for e in it
                     if not e.name.startswith(".")
                     and fnmatch.fnmatchcase(e.name.lower(), mask.lower())
                     and (e.is_dir() or e.name.lower().endswith(".vpk"))]
    except OSError:
        return []
    found.sort(key=lambda x: x[0].lower())
    dir_stems = {n.lower()[:-8] for n, d in found if not d and n.lower().endswith("_dir.vpk")}
    out: list[tuple[str, str]] = []
    for name, is_dir in found:
        m = ARCHIVE.match(name.lower())
        if not is_dir and m and m.group("stem") in dir_stems:
            continue
        path = os.path.join(folder, name)
        out.append(("folder", path) if is_dir else ("vpk", dir_file(path)))
    return out
