"""The particle chains: particle manifests, `.pcf` files, and particle system names.

- A particle manifest (`particles/particles_manifest*.txt`, `maps/<map>_particles.txt`) leads
  to the `.pcf` files its `file` keys list (`particle_manifest_deps`).
- A `.pcf` leads to every system's `material` (the sprite renderers draw it) and the models of
  its model renderers (`particle_deps`).
- A `particle:<name>` reference leads to the `.pcf` that defines the system
  (`ParticleIndex`): the files the engine loads, `maps/<map>_particles.txt`'s then
  `particles/particles_manifest.txt`'s, in their order; then, as srctools' packlist also looks,
  the other `.pcf` files under `particles/` (the pakfile's and the game's), which the engine
  loads only when a manifest lists them (the reason says so). A file is parsed only when the
  name occurs in its bytes as a string, so a game's whole set of `.pcf` files is read once
  and hardly parsed.
"""
from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable
from typing import Any

from .materials import leaf_values, material_path
from .model import PARTICLE, Reference, asset_path
from .models import model_path

Read = Callable[[str], "bytes | None"]
Listing = Callable[[str], Iterable[str]]

MANIFEST = "particles/particles_manifest.txt"
UNLISTED = "not in a particle manifest: the engine loads it only if one lists it"
MANIFEST_NAME = re.compile(r"(particles/particles_manifest[^/]*|maps/[^/]+_particles)\.txt")
# Particle attributes that name a material, and those that name a model.
_MATERIAL_KEYS = ("material",)
_MODEL_KEYS = ("sequence 0 model",)
# A run of printable bytes without a quote: each string of a binary DMX (NUL-ended) or of a
# keyvalues2 text one (quoted) is one, so a system's name is one when the file defines it.
_STRINGS = re.compile(rb"[\x21\x23-\x7e][\x20\x21\x23-\x7e]*")


def manifest_files(read: Read, path: str) -> list[str]:
    """The `.pcf` files a particle manifest lists (a leading `!`, "precache every system",
    stripped), in order."""
    return [asset_path(v.lstrip("!")) for v in leaf_values(read, path, "file") if v.lstrip("!")]


def particle_manifest_deps(ref: Reference, read: Read) -> list[Reference]:
    """The `.pcf` files a particle manifest's `file` keys list."""
    return [ref.via(f"{ref.path} file", path) for path in manifest_files(read, ref.path)]


def _systems(data: bytes) -> list[Any]:
    """The particle system elements of a `.pcf` (none when it does not parse)."""
    from srctools.dmx import Element

    try:
        root, _fmt, _version = Element.parse(io.BytesIO(data))
        return list(root["particleSystemDefinitions"].iter_elem())
    except Exception:  # noqa: BLE001 - not a readable PCF: no systems
        return []


def particle_deps(ref: Reference, read: Read) -> list[Reference]:
    """What a `.pcf` leads to: every system's `material` and the models of its model
    renderers."""
    data = read(ref.path)
    out: list[Reference] = []
    for system in _systems(data) if data is not None else ():
        for key in _MATERIAL_KEYS:
            value = _string(system, key)
            if value:
                out.append(ref.via(f"{ref.path} {system.name} {key}", material_path(value)))
        for group in ("renderers", "operators", "initializers", "emitters"):
            try:
                operators = list(system[group].iter_elem())
            except Exception:  # noqa: BLE001, S112 - absent or not an element array
                continue
            for operator in operators:
                for key in _MODEL_KEYS:
                    value = _string(operator, key)
                    if value:
                        out.append(ref.via(f"{ref.path} {system.name} {key}",
                                           model_path(value)))
    return out


def _string(element: Any, key: str) -> str:
    try:
        value = element[key].val_str
    except Exception:  # noqa: BLE001 - absent, or not a string
        return ""
    return str(value).strip()


class ParticleIndex:
    """Particle system name -> the `.pcf` that defines it (see the module's doc), searched on
    first use, each file read once."""

    def __init__(self, read: Read, map_name: str | None, listing: Listing | None = None):
        self._read = read
        self._map_name = asset_path(map_name or "")
        self._listing = listing
        self._files: list[tuple[str, bool]] | None = None    # (path, listed by a manifest)
        self._strings: dict[str, frozenset[bytes]] = {}
        self._names: dict[str, frozenset[str]] = {}

    def files(self) -> list[tuple[str, bool]]:
        """The `.pcf` files searched, in order, each with whether a manifest lists it."""
        if self._files is None:
            listed: list[str] = []
            manifests = [MANIFEST]
            if self._map_name:
                manifests.insert(0, f"maps/{self._map_name}_particles.txt")
            for manifest in manifests:
                listed += [p for p in manifest_files(self._read, manifest) if p not in listed]
            others = sorted({asset_path(p) for p in self._listing("particles")
                             if asset_path(p).endswith(".pcf")} - set(listed)) \
                if self._listing is not None else []
            self._files = [(p, True) for p in listed] + [(p, False) for p in others]
        return self._files

    def get(self, name: str) -> tuple[str, bool] | None:
        """(the `.pcf` defining system `name`, whether a manifest lists it), or None."""
        want = name.strip().casefold()
        key = want.encode("utf-8", "replace")
        for path, listed in self.files():
            strings = self._strings.get(path)
            if strings is None:
                data = self._read(path) or b""
                strings = frozenset(s.strip().lower() for s in _STRINGS.findall(data))
                self._strings[path] = strings
            if key not in strings:
                continue
            names = self._names.get(path)
            if names is None:
                data = self._read(path) or b""
                names = frozenset(str(s.name).casefold() for s in _systems(data))
                self._names[path] = names
            if want in names:
                return path, listed
        return None

    def deps(self, ref: Reference) -> list[Reference]:
        """The `.pcf` a `particle:<name>` reference's system is defined in."""
        found = self.get(ref.path[len(PARTICLE):])
        if found is None:
            return []
        path, listed = found
        step = f"{ref.path} defined in" if listed else f"{ref.path} defined in ({UNLISTED})"
        return [ref.via(step, path)]


__all__ = ["MANIFEST", "MANIFEST_NAME", "ParticleIndex", "manifest_files", "particle_deps",
           "particle_manifest_deps"]
