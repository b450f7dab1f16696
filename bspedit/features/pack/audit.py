"""`audit(bsp, fs)`: what a map's pakfile carries, against what the game ships and what the map
needs.

- `redundant`: entries identical (size and CRC-32, then bytes) to the file the base game
  would load for that path without the pakfile: the pakfile can drop them;
- `overrides`: entries that differ from a file the game ships (the map replaces it; maybe on
  purpose, maybe a stale copy);
- `in_mod`: entries identical to the mod's own file (what `autopack` packs: not redundant,
  since players do not have the mod's files);
- `unused`: entries no reference of the map leads to; cubemaps
  (`materials/maps/<map>/c*.vtf`, `cubemapdefault*.vtf`), vbsp's patch materials
  (`materials/maps/<map>/*.vmt`) and static prop lighting are never unused;
- `scripts`: entries no reference leads to that the game may still load by a name it builds
  at run time (a VScript a script runs by a computed name, a weapon or soundscript file the
  game's code reads): files under `scripts/` and VScripts (`.nut`, `.gnut`) anywhere. They
  are never called unused: deleting one may break the map;
- `unresolved`: required references found nowhere (or in a VPK whose archive is absent);
  `unknown`: those found nowhere that the base game may hold (`Deps.unknown_reason`), apart.

A VPK entry whose archive is absent is compared by the CRC-32 and size of its directory entry
(`GameFS.hits`).
"""
from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from ...lumps.pakfile import CUBEMAP
from .deps import Deps, Need, deps
from .model import Location, asset_path

if TYPE_CHECKING:
    from ...bsp import Bsp
    from .entity_assets import EntityDatabase
    from .gamefs import GameFS


@dataclass(frozen=True, slots=True)
class Compared:
    """A pak entry against the first file the game ships for its path."""

    path: str
    size: int
    crc: int
    location: Location
    same: bool | None           # None: could not be compared

    def to_dict(self) -> dict[str, Any]:
        loc = self.location
        return {"path": self.path, "size": self.size, "crc32": self.crc,
                "location": loc.kind, "where": loc.where, "base": loc.base,
                "readable": loc.readable, "same": self.same}


@dataclass
class AuditReport:
    deps: Deps
    entries: int = 0
    redundant: list[Compared] = field(default_factory=list)
    overrides: list[Compared] = field(default_factory=list)
    in_mod: list[Compared] = field(default_factory=list)
    unknown: list[Compared] = field(default_factory=list)
    unused: list[str] = field(default_factory=list)
    scripts: list[str] = field(default_factory=list)    # not reached, may be run by name
    kept: list[str] = field(default_factory=list)       # compile outputs, never unused

    @property
    def unresolved(self) -> list[Need]:
        return self.deps.missing_required

    def to_dict(self) -> dict[str, Any]:
        return {"entries": self.entries,
                "redundant": [c.to_dict() for c in self.redundant],
                "overrides": [c.to_dict() for c in self.overrides],
                "in_mod": [c.to_dict() for c in self.in_mod],
                "not_compared": [c.to_dict() for c in self.unknown],
                "unused": list(self.unused), "scripts_not_reached": list(self.scripts),
                "compile_outputs": list(self.kept),
                "unresolved": [n.to_dict() for n in self.unresolved],
                "unknown": [n.to_dict() for n in self.deps.unknown_required],
                **self.deps.game()}


def compile_output(path: str, map_names: list[str]) -> bool:
    """A file vbsp (or the engine) puts in the pakfile: cubemaps, patch materials, static prop
    lighting, under the folder of any name the map was compiled as."""
    if CUBEMAP.fullmatch(path):
        return True
    if path.startswith("materials/maps/") and path.count("/") >= 3:
        return path.split("/")[2] in map_names or path.endswith((".vmt", ".vtf"))
    name = path.rsplit("/", 1)[-1]
    return name.startswith(("sp_", "texelslighting_")) and name.endswith((".vhv", ".ppl")) \
        or name == "stringtable_dictionary.dct"


def _compare(fs: GameFS, path: str, data_crc: int, size: int,
             read_entry: Callable[[], bytes]) -> tuple[Location, bool | None] | None:
    """The first copy of `path` in the game's search paths (`GameFS.hits`) and whether it
    equals the entry (size, then a VPK directory's CRC-32, then bytes; a VPK entry whose
    archive is absent by size and CRC-32 alone; None: it could not be read); None when the
    game has no such file."""
    for hit in fs.hits(path):
        if hit.size != size or (hit.crc is not None and hit.crc != data_crc):
            return hit.location, False
        if hit.crc is not None and not hit.location.readable:
            return hit.location, True
        data = hit.read()
        if data is None:
            return hit.location, None
        return hit.location, zlib.crc32(data) == data_crc and data == read_entry()
    return None


def loaded_by_name(path: str) -> bool:
    """A file the game may load by a name built at run time: under `scripts/`, or a VScript."""
    return path.startswith("scripts/") or path.endswith((".nut", ".gnut"))


def audit(bsp: Bsp, fs: GameFS, *, report: Deps | None = None,
          database: EntityDatabase | None = None) -> AuditReport:
    """Audit `bsp`'s pakfile (see the module's doc); `database` the entity database for
    `deps`."""
    from .refs import compile_names

    found = report if report is not None else deps(bsp, fs, database=database)
    out = AuditReport(found)
    needed = {n.path for n in found.files}
    names = compile_names(bsp, found.map_name)
    pak = bsp.pakfile
    for entry in pak.entries:
        if entry.is_dir:
            continue
        out.entries += 1
        path = asset_path(entry.name)
        if compile_output(path, names):
            out.kept.append(path)
        elif path not in needed:
            (out.scripts if loaded_by_name(path) else out.unused).append(path)
        result = _compare(fs, path, entry.crc, entry.size, partial(pak.read, entry))
        if result is None:
            continue
        loc, same = result
        row = Compared(path, entry.size, entry.crc, loc, same)
        if same is None:
            out.unknown.append(row)
        elif not same:
            out.overrides.append(row)
        elif loc.base:
            out.redundant.append(row)
        else:
            out.in_mod.append(row)
    return out


__all__ = ["AuditReport", "Compared", "audit", "compile_output", "loaded_by_name"]
