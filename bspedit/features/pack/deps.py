"""`deps(bsp, fs)`: every asset a Source map needs, each with its reason chain and where it
resolves, as the engine would find it.

The map's references (`refs.map_references`) are followed through materials, models and
scripts (`chains`), reading each file where the engine would: the map's pakfile first (the
engine mounts it ahead of every search path), then the game's search paths (`GameFS`). Each
file then resolves to a `Location`: "pak", "loose" (under a search path), "vpk" (inside a
VPK; `readable` False when its archive is absent), "missing", or "unknown": found nowhere
while the game's file system cannot judge that (`GameFS.unjudged`: search paths this machine
lacks, or no gameinfo and so no base game), since what is not here may be the base game's.
An unknown file is not missing: it fails neither `--strict` nor autopack.

Names that are not files (`soundscript:`, `soundscape:`, `particle:`, `breakable:`) are listed
apart, in `names`: a soundscript, soundscape, gib set or particle system name is resolved when
a file the game (or the map) loads defines it (`defined_in` names that file: a script, or the
`.pcf` of a system, see `particles`), and that file and the files the name plays or draws are
ordinary entries of `files` with the name in their reason. A name no file here defines is None
(unknown) when the file system cannot judge (the base game's files may define it).

A file reached from what an entity's class loads by itself (`classres`) has `class_resource`
set: `audit` and `autopack` can tell those apart from what the map names.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .model import PARTICLE, Location, Reference, asset_path, is_file

if TYPE_CHECKING:
    from ...bsp import Bsp
    from .entity_assets import EntityDatabase
    from .gamefs import GameFS

PAK = Location("pak")
#: The largest file MapFiles keeps after reading it (the scripts it is asked for again).
_CACHED = 1 << 16
MISSING = Location("missing")
UNKNOWN = Location("unknown")


@dataclass(frozen=True, slots=True)
class Need:
    """One file the map needs: the reference (path, reason, optional) and its location."""

    ref: Reference
    location: Location

    @property
    def path(self) -> str:
        return self.ref.path

    @property
    def optional(self) -> bool:
        return self.ref.optional

    @property
    def mod(self) -> bool:
        """Provided by the mod's own content (not the base game, not the pakfile)."""
        return self.location.kind in ("loose", "vpk") and not self.location.base

    def to_dict(self) -> dict[str, Any]:
        loc = self.location
        return {"path": self.ref.path, "reason": list(self.ref.reason),
                "optional": self.ref.optional, "class_resource": self.ref.class_resource,
                "location": loc.kind, "where": loc.where, "readable": loc.readable,
                "base": loc.base}


@dataclass(frozen=True, slots=True)
class Name:
    """A name the map uses that is not a file: `kind` soundscript, soundscape, particle or
    breakable; `resolved` True/False (None: not looked up by name, or unknown: see the module's
    doc); `defined_in` the script file that defines it."""

    kind: str
    name: str
    reason: tuple[str, ...]
    optional: bool
    resolved: bool | None
    defined_in: str | None = None
    class_resource: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "reason": list(self.reason),
                "optional": self.optional, "class_resource": self.class_resource,
                "resolved": self.resolved, "defined_in": self.defined_in}


@dataclass
class Deps:
    """The report: `files` in breadth-first order, `names`, the file system's `problems`;
    `gameinfo` read (None: content folders alone), the `base_game`'s search paths assumed,
    `unknown_reason` (`GameFS.unjudged`) when files found nowhere are unknown, not missing."""

    map_name: str
    files: list[Need] = field(default_factory=list)
    names: list[Name] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    gameinfo: str | None = None
    base_game: list[str] = field(default_factory=list)
    unknown_reason: str | None = None

    def by_kind(self, kind: str) -> list[Need]:
        return [n for n in self.files if n.location.kind == kind]

    @property
    def missing(self) -> list[Need]:
        """Files nowhere, and VPK entries whose data cannot be read."""
        return [n for n in self.files if n.location.kind == "missing"
                or not n.location.readable]

    @property
    def missing_required(self) -> list[Need]:
        return [n for n in self.missing if not n.optional]

    @property
    def unknown_required(self) -> list[Need]:
        """Required files found nowhere that the base game may hold (see `unknown_reason`)."""
        return [n for n in self.by_kind("unknown") if not n.optional]

    def counts(self) -> dict[str, int]:
        out = {"files": len(self.files), "pak": 0, "loose": 0, "vpk": 0, "missing": 0,
               "unknown": 0, "unreadable": 0, "optional_missing": 0, "optional_unknown": 0,
               "mod": 0, "base": 0}
        for n in self.files:
            out[n.location.kind] += 1
            if not n.location.readable:
                out["unreadable"] += 1
            if n.location.kind in ("missing", "unknown") and n.optional:
                out[f"optional_{n.location.kind}"] += 1
            if n.mod:
                out["mod"] += 1
            elif n.location.kind in ("loose", "vpk"):
                out["base"] += 1
        return out

    def game(self) -> dict[str, Any]:
        """What the report assumed of the game (a part of every pack verb's JSON result)."""
        return {"gameinfo": self.gameinfo, "base_game": list(self.base_game),
                "unknown_reason": self.unknown_reason, "problems": list(self.problems)}

    def to_dict(self) -> dict[str, Any]:
        return {"map_name": self.map_name, "counts": self.counts(),
                "files": [n.to_dict() for n in self.files],
                "names": [n.to_dict() for n in self.names], **self.game()}


def pak_names(bsp: Bsp) -> dict[str, Any]:
    """asset path -> pak entry, files only (empty for a map without a pakfile)."""
    try:
        pak = bsp.pakfile
    except Exception:  # noqa: BLE001 - no pakfile lump: nothing packed
        return {}
    return {asset_path(e.name): e for e in pak.entries if not e.is_dir}


class MapFiles:
    """Reads as the engine does for one map: its pakfile first, then the game's search paths;
    `locate` likewise. Reads are cached (each file is read once per run)."""

    def __init__(self, bsp: Bsp, fs: GameFS) -> None:
        self.bsp = bsp
        self.fs = fs
        self.pak = pak_names(bsp)
        self._data: dict[str, bytes | None] = {}

    def read(self, path: str) -> bytes | None:
        path = asset_path(path)
        if path in self._data:
            return self._data[path]
        data: bytes | None = None
        entry = self.pak.get(path)
        if entry is not None:
            try:
                data = self.bsp.pakfile.read(entry)
            except Exception:  # noqa: BLE001 - a corrupt entry: the game's copy, if any
                data = None
        if data is None:
            data = self.fs.read(path)
        if len(self._data) < 4096 and (data is None or len(data) <= _CACHED):  # not models
            self._data[path] = data
        return data

    def locate(self, path: str) -> Location:
        path = asset_path(path)
        if path in self.pak:
            return PAK
        return self.fs.locate(path) or (MISSING if self.fs.unjudged is None else UNKNOWN)

    def exists(self, path: str) -> bool:
        path = asset_path(path)
        return path in self.pak or self.fs.locate(path) is not None

    def listing(self, folder: str) -> list[str]:
        """Every file under the asset folder `folder`: the pakfile's, then the game's."""
        start = asset_path(folder) + "/"
        return [p for p in self.pak if p.startswith(start)] + \
            [p for p, _ in self.fs.iter_files(folder)]


def deps(bsp: Bsp, fs: GameFS, *, name: str | None = None, fgd: bool = True,
         database: EntityDatabase | None = None) -> Deps:
    """Every asset `bsp` needs, resolved through its pakfile and `fs` (see the module's doc).
    `name` overrides the map's name (the file name without `.bsp`); `database` is the entity
    database (default srctools', `entity_assets.EntityDatabase` adds FGD files)."""
    from .chains import Chains, closure
    from .refs import map_name, map_references

    name = map_name(bsp) if name is None else name
    files = MapFiles(bsp, fs)
    chains = Chains(files.read, name, files.exists, files.listing)
    refs = closure(map_references(bsp, name, fgd=fgd, database=database, read=files.read),
                   chains)
    report = Deps(name)
    for ref in refs:
        if is_file(ref.path):
            report.files.append(Need(ref, files.locate(ref.path)))
            continue
        kind, _, value = ref.path.partition(":")
        where = chains.defined_in(ref.path)
        resolved: bool | None = where is not None
        if resolved is False and fs.unjudged is not None:
            resolved = None     # the base game's scripts may define it
        report.names.append(Name(kind, value, ref.reason, ref.optional, resolved, where,
                                 ref.class_resource))
    report.problems = list(dict.fromkeys(fs.problems))
    report.gameinfo = fs.gameinfo
    report.base_game = [sp.path for sp in fs.base_game()]
    report.unknown_reason = fs.unjudged
    return report


__all__ = ["PARTICLE", "Deps", "MapFiles", "Name", "Need", "deps", "pak_names"]
