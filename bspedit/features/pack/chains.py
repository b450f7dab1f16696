"""The chains of references: from what a map names directly to everything those files need.

`follow(references, read)` gives the closure: every reference given, then what each leads to,
breadth first, each path once. The first reason found for a path is kept, except that a
required route replaces an optional one (and is followed again, so what it leads to becomes
required too). Cycles (a patch including itself, models including each other) end because a
path is followed once per requiredness.

`read(path)` takes an `asset_path` and gives the file's bytes, or None when it is nowhere (or
unreadable); the chains never touch a file system themselves. What each kind leads to:

- `.vmt`: `materials.material_deps` (textures, named materials, a patch's parent);
- `.mdl`: `models.model_deps` (side files, skins' materials, included models, gibs);
- `soundscript:<name>`, `soundscape:<name>`: `sounds` (down to `sound/...` files);
- `.pcf`, a particle manifest, `particle:<name>`: `particles` (a file's systems' materials
  and models; a manifest's `.pcf` files; the `.pcf` defining a system);
- `resource/overviews/<map>.txt`: `overview_deps` (its `material`);
- `maps/<map>_manifest.txt` (Mapbase): `mapbase_manifest_deps` (the files and scripts its
  entries load; its soundscript files do not join the soundscript look-up);
- `.nut` (a VScript): `vscripts.vscript_deps` (the literal arguments of `IncludeScript`,
  `DoIncludeScript`, `PrecacheScriptSound`/`PrecacheSoundScript` and `PrecacheModel`; names
  built at run time cannot be followed);
- a weapon script (a `.txt` or `.dmx` under `scripts/` that is one) and a scene (`.vcd`):
  `gamescripts` (models, sounds, particles, HUD materials; a scene's sounds and sub-scenes);
- `breakable:<set>`: `scripts/propdata.txt`, where the set is defined, and its gib models;
- `.vtf`: its `.hdr.vtf` sibling, optional, when it is there (as srctools' packlist packs it);
- anything else (`.wav`, ...) leads nowhere.
"""
from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable

from .gamescripts import scene_deps, weapon_script_candidate, weapon_script_deps
from .materials import leaf_values, material_deps, material_path, read_keyvalues
from .model import BREAKABLE, PARTICLE, Reference, asset_path
from .models import gib_models, model_deps, model_path
from .particles import MANIFEST_NAME, ParticleIndex, particle_deps, particle_manifest_deps
from .sounds import (
    SOUNDSCAPE,
    SOUNDSCRIPT,
    soundscape_deps,
    soundscape_index,
    soundscript_deps,
    soundscript_index,
)
from .vscripts import script_path, vscript_deps

Read = Callable[[str], "bytes | None"]
PROPDATA = "scripts/propdata.txt"

_OVERVIEW = re.compile(r"resource/overviews/[^/]+\.txt")
_MAPBASE_MANIFEST = re.compile(r"maps/[^/]+_manifest\.txt")


def overview_deps(ref: Reference, read: Read) -> list[Reference]:
    """A `resource/overviews/<map>.txt`'s `material` (the radar image)."""
    return [ref.via(f"{ref.path} material", material_path(value))
            for value in leaf_values(read, ref.path, "material")]


def mapbase_manifest_deps(ref: Reference, read: Read, map_name: str) -> list[Reference]:
    """What Mapbase's per-map manifest (`maps/<map>_manifest.txt`, which its games load at
    every level start) names: each entry a file from the game's root (`soundscripts`,
    `localization`, `talker`, `actbusy`...), `vscript` a script run as `RunScriptFile` would;
    `%mapname%` is the map's name, `%language%` English (as Mapbase's server reads it)."""
    root = read_keyvalues(read, ref.path)
    out: list[Reference] = []
    for block in root if root is not None else ():
        for kv in block if block.has_children() else ():
            value = kv.value.replace("%mapname%", map_name).replace("%language%", "english")
            if kv.has_children() or not value.strip() or kv.name == "noerrors":
                continue
            step = f"{ref.path} {kv.real_name}"
            out.append(ref.via(step, script_path(value) if kv.name == "vscript" else value))
    return out


class Chains:
    """What one `follow` call shares between references: the read function, the script
    indexes and the propdata gib sets, built on first use."""

    def __init__(self, read: Read, map_name: str | None,
                 exists: Callable[[str], bool] | None = None,
                 listing: Callable[[str], Iterable[str]] | None = None):
        self.read = read
        self.exists = exists
        self.particles = ParticleIndex(read, map_name, listing)
        self.map_name = asset_path(map_name or "")
        self.sounds = soundscript_index(read, map_name)
        self.scapes = soundscape_index(read, map_name)
        self.cache: dict = {}

    def _exists(self, path: str) -> bool:
        return self.exists(path) if self.exists is not None else self.read(path) is not None

    def defined_in(self, path: str) -> str | None:
        """The file that defines the soundscript, soundscape, gib set or particle system `path`
        names; None when no file the game (or the map) loads defines it, or `path` is no such
        name."""
        if path.startswith(SOUNDSCRIPT):
            found = self.sounds.get(path[len(SOUNDSCRIPT):])
        elif path.startswith(SOUNDSCAPE):
            found = self.scapes.get(path[len(SOUNDSCAPE):])
        elif path.startswith(BREAKABLE):
            name = path[len(BREAKABLE):]
            return PROPDATA if gib_models(name, self.read, self.cache) else None
        elif path.startswith(PARTICLE):
            particle = self.particles.get(path[len(PARTICLE):])
            return particle[0] if particle is not None else None
        else:
            return None
        return found[0] if found is not None else None

    def defined(self, path: str) -> bool | None:
        """Whether a script the game (or the map) loads defines the soundscript, soundscape,
        gib set or particle system `path` names (None for other paths)."""
        if not path.startswith((SOUNDSCRIPT, SOUNDSCAPE, BREAKABLE, PARTICLE)):
            return None
        return self.defined_in(path) is not None

    def deps(self, ref: Reference) -> list[Reference]:
        path = ref.path
        if path.startswith(SOUNDSCRIPT):
            return soundscript_deps(ref, self.sounds)
        if path.startswith(SOUNDSCAPE):
            return soundscape_deps(ref, self.scapes)
        if path.startswith(BREAKABLE):
            return self._gibs(ref)
        if path.startswith(PARTICLE):
            return self.particles.deps(ref)
        if path.endswith(".vmt"):
            return material_deps(ref, self.read, exists=self.exists)
        if path.endswith(".mdl"):
            return model_deps(ref, self.read, cache=self.cache, exists=self.exists)
        if path.endswith(".vtf"):
            hdr = path.removesuffix(".vtf") + ".hdr.vtf"
            return [ref.via(f"{path} HDR sibling", hdr, optional=True)] \
                if not path.endswith(".hdr.vtf") and self._exists(hdr) else []
        if path.endswith(".pcf"):
            return particle_deps(ref, self.read)
        if MANIFEST_NAME.fullmatch(path):
            return particle_manifest_deps(ref, self.read)
        if _OVERVIEW.fullmatch(path):
            return overview_deps(ref, self.read)
        if _MAPBASE_MANIFEST.fullmatch(path):
            return mapbase_manifest_deps(ref, self.read, self.map_name)
        if path.endswith(".nut"):
            return vscript_deps(ref, self.read)
        if path.endswith(".vcd"):
            return scene_deps(ref, self.read)
        if weapon_script_candidate(path):
            return weapon_script_deps(ref, self.read, self._exists)
        return []

    def _gibs(self, ref: Reference) -> list[Reference]:
        """A gib set's file (`scripts/propdata.txt`) and models, when the file defines it."""
        models = gib_models(ref.path[len(BREAKABLE):], self.read, self.cache)
        if not models:
            return []
        step = f"{ref.path} defined in"
        return [ref.via(step, PROPDATA)] + [
            ref.via(f"{PROPDATA} BreakableModels {ref.path[len(BREAKABLE):]}", model_path(m))
            for m in models]


def dependencies(ref: Reference, read: Read, *, map_name: str | None = None,
                 exists: Callable[[str], bool] | None = None) -> list[Reference]:
    """What `ref` leads to directly (one step of `follow`)."""
    return Chains(read, map_name, exists).deps(ref)


def follow(references: Iterable[Reference], read: Read, *,
           map_name: str | None = None,
           exists: Callable[[str], bool] | None = None) -> list[Reference]:
    """The closure of `references` (see the module's docstring), in breadth-first order.
    `map_name` (the map's file name without `.bsp`) adds `maps/<map>_level_sounds.txt` and
    `scripts/soundscapes_<map>.txt` to the soundscript and soundscape look-ups. `exists(path)`
    (e.g. a GameFS's `locate(path) is not None`) answers the look-ups that only ask whether a
    file is there (a model's `$cdmaterials` folders, a custom shader parameter's texture);
    without it they read the file."""
    return closure(references, Chains(read, map_name, exists))


def closure(references: Iterable[Reference], chains: Chains) -> list[Reference]:
    """Every reference given and all `chains` leads them to, each path once (a required route
    replaces an optional one and is followed again), breadth-first."""
    found: dict[str, Reference] = {}
    queue: deque[Reference] = deque()

    def add(ref: Reference) -> None:
        old = found.get(ref.path)
        if old is None or (old.optional and not ref.optional):
            found[ref.path] = ref
            queue.append(ref)

    for ref in references:
        add(ref)
    while queue:
        ref = queue.popleft()
        if found[ref.path] is not ref:  # replaced by a required route since it was queued
            continue
        for dep in chains.deps(ref):
            add(dep)
    return list(found.values())


__all__ = [
    "asset_path",
    "dependencies",
    "follow",
    "material_deps",
    "model_deps",
    "overview_deps",
    "particle_deps",
    "particle_manifest_deps",
]
