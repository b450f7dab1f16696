"""`autopack(bsp, fs)`: pack into the map's pakfile every file it needs that the mod provides
and the base game does not ship.

Each file `deps` finds is one of:
- already packed (`pak`): left as it is (existing entries keep their bytes);
- provided by the mod (loose under GAMEDIR or a `--content` folder, or in a VPK inside
  them): packed, as its lower-case asset path, unless `exclude` globs match it, or the base
  game ships the same path (`base`, a listing of the base game's files, such as `vpk -l`
  output, for when the base game is not installed); a mod file inside a VPK whose archive is
  absent cannot be read: `unreadable`;
- shipped by the base game: `left` to it (unless `include` globs match it: then packed too);
- nowhere: `missing` (required or optional), or `unknown` when the game's file system
  cannot judge (no gameinfo, or the base game's search paths are not here: `Deps.unknown_reason`);
  an unknown file that `base` lists is left to the base game. Unknown files are not missing:
  they do not fail the run.

Then the soundscript and soundscape entries the map uses from a script file it packed are
appended to the map's own `maps/<map>_level_sounds.txt` and `scripts/soundscapes_<map>.txt`,
so the engine loads them without the mod (`levelsounds`).

Cubemaps and vbsp's patch materials are never removed: autopack only adds (and appends to the
map's own sound files).
"""
from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...errors import BspError
from ...progress import bar
from .deps import Deps, Need, deps
from .model import asset_path

if TYPE_CHECKING:
    from ...bsp import Bsp
    from .entity_assets import EntityDatabase
    from .gamefs import GameFS


@dataclass
class Packed:
    need: Need
    size: int

    def to_dict(self) -> dict[str, Any]:
        return {**self.need.to_dict(), "size": self.size}


@dataclass
class AutopackReport:
    deps: Deps
    packed: list[Packed] = field(default_factory=list)
    left: list[Need] = field(default_factory=list)          # the base game ships it
    in_pak: list[Need] = field(default_factory=list)
    excluded: list[Need] = field(default_factory=list)
    unreadable: list[Need] = field(default_factory=list)
    missing: list[Need] = field(default_factory=list)
    unknown: list[Need] = field(default_factory=list)       # maybe the base game's
    skipped: list[Need] = field(default_factory=list)       # --noswvtx
    # the map's own sound files written: (path, names added, whether it was there before)
    merged: list[tuple[str, list[str], bool]] = field(default_factory=list)

    @property
    def missing_required(self) -> list[Need]:
        return [n for n in self.missing + self.unreadable if not n.optional]

    def to_dict(self) -> dict[str, Any]:
        def rows(needs: list[Need]) -> list[dict[str, Any]]:
            return [n.to_dict() for n in needs]
        return {"packed": [p.to_dict() for p in self.packed], "left_to_base": rows(self.left),
                "already_packed": [n.path for n in self.in_pak],
                "excluded": rows(self.excluded + self.skipped),
                "unreadable": rows(self.unreadable), "missing": rows(self.missing),
                "missing_required": len(self.missing_required), "unknown": rows(self.unknown),
                "packed_bytes": sum(p.size for p in self.packed),
                "level_sounds": [{"path": path, "added": names, "existed": existed}
                                 for path, names, existed in self.merged],
                **self.deps.game()}


def read_base_list(path: str) -> set[str]:
    """The base game's files from a listing: one path per line (`vpk -l` output, a file list);
    blank lines and `//` or `#` comments skipped; a line with a tab keeps its first field."""
    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", errors="replace")
    except OSError as exc:
        raise BspError(f"cannot read the base list: {exc.strerror or exc}", path=path) from None
    out = set()
    for line in text.splitlines():
        line = line.split("\t")[0].strip()
        if not line or line.startswith(("//", "#")):
            continue
        out.add(asset_path(line))
    return out


def _matches(path: str, globs: Sequence[str]) -> bool:
    return any(fnmatch.fnmatchcase(path, asset_path(g) if not g.endswith("/") else
                                   asset_path(g) + "/*") for g in globs)


def autopack(bsp: Bsp, fs: GameFS, *, include: Iterable[str] = (), exclude: Iterable[str] = (),
             base: str | os.PathLike[str] | set[str] | None = None, compress: bool = False,
             noswvtx: bool = False, report: Deps | None = None,
             database: EntityDatabase | None = None) -> AutopackReport:
    """Pack what the map needs from the mod (see the module's doc) into `bsp.pakfile` (saved
    by the caller). `include` / `exclude` are globs over asset paths (case-insensitive;
    `models/x/` means everything under it); `base` a listing file (or a set of asset paths) of
    what the base game ships; `noswvtx` leaves out `.sw.vtx` (software) model meshes, as
    CompilePal's `-noswvtx`; `database` the entity database for `deps`."""
    include, exclude = list(include), list(exclude)
    shipped: set[str] = set()
    if isinstance(base, (str, os.PathLike)):
        shipped = read_base_list(os.fspath(base))
    elif base is not None:
        shipped = {asset_path(p) for p in base}
    found = report if report is not None else deps(bsp, fs, database=database)
    out = AutopackReport(found)
    pak = bsp.pakfile
    chosen: list[Need] = []
    for need in found.files:
        loc = need.location
        path = need.path
        if loc.kind == "pak" or pak.find(path) is not None:
            out.in_pak.append(need)
            continue
        if loc.kind == "missing":
            out.missing.append(need)
            continue
        if loc.kind == "unknown":
            (out.left if path in shipped else out.unknown).append(need)
            continue
        if noswvtx and path.endswith(".sw.vtx"):
            out.skipped.append(need)
            continue
        wanted = (need.mod and path not in shipped) or _matches(path, include)
        if not wanted:
            out.left.append(need)
            continue
        if _matches(path, exclude):
            out.excluded.append(need)
            continue
        if not loc.readable:
            out.unreadable.append(need)
            continue
        chosen.append(need)
    with bar(len(chosen), f"packing {os.path.basename(str(bsp.path))}", unit="files",
             minimum=200) as progress:
        for need in chosen:
            data = fs.read(need.path)
            progress.advance()
            if data is None:
                out.unreadable.append(need)
                continue
            pak.add(need.path, data, compress=compress)
            out.packed.append(Packed(need, len(data)))
    _merge_sound_files(bsp, fs, out, compress)
    return out


def _merge_sound_files(bsp: Bsp, fs: GameFS, out: AutopackReport, compress: bool) -> None:
    """Append to the map's own sound files the entries it uses from the script files just
    packed (`levelsounds.merged`)."""
    from .deps import MapFiles
    from .levelsounds import MAP_FILES, merged

    packed = {p.need.path for p in out.packed}
    files = MapFiles(bsp, fs)       # reads the pakfile as it now is
    for kind in MAP_FILES:
        result = merged(kind, out.deps.map_name, out.deps.names, packed, files.read)
        if result is None:
            continue
        path, data, names = result
        existed = bsp.pakfile.find(path) is not None
        bsp.pakfile.add(path, data, compress=compress, update=True)
        out.merged.append((path, names, existed))


__all__ = ["AutopackReport", "Packed", "autopack", "read_base_list"]
