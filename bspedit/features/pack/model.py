"""The words the pack modules share: a reference (an asset path and why it is needed) and
where a path resolves."""
from __future__ import annotations

from dataclasses import dataclass


def asset_path(name: str) -> str:
    """A game path as the engine looks it up: forward slashes, lower case, no leading slash or
    `./`, runs of slashes folded (`\\\\Materials//Brick/Wall.VMT` -> `materials/brick/wall.vmt`)."""
    parts = [p for p in name.replace("\\", "/").lower().split("/") if p not in ("", ".")]
    return "/".join(parts)


@dataclass(frozen=True, slots=True)
class Reference:
    """An asset the map needs. `path` is an `asset_path`; `reason` the chain of references
    that led to it, outermost first (`("texdata 3", "materials/a.vmt $basetexture")`);
    `optional`: the engine goes on without it (a `.vtx` variant, an HDR sky face, a `$envmap`
    of `env_cubemap`, which the map normally packs); `class_resource`: the chain starts at
    what an entity's class loads by itself (`classres`), not at a value the map wrote."""

    path: str
    reason: tuple[str, ...]
    optional: bool = False
    class_resource: bool = False

    def via(self, step: str, path: str, *, optional: bool = False) -> Reference:
        """A file that this reference leads to: its reason is this one's plus `step`."""
        return Reference(asset_path(path), (*self.reason, step), self.optional or optional,
                         self.class_resource)

    def named(self, name: str, step: str) -> Reference:
        """A name (`soundscript:door.open`, see `NAMED`) that this reference leads to, kept
        as given."""
        return Reference(name, (*self.reason, step), self.optional, self.class_resource)


@dataclass(frozen=True, slots=True)
class Location:
    """Where a path resolves: `kind` is "pak" (in the map's pakfile), "loose" (a file under a
    search path), "vpk" (an entry of a VPK) or "missing"; `where` the search path folder or
    the VPK's `_dir.vpk` file (None for pak and missing); `readable` False when the entry is
    listed but its data cannot be read (a VPK archive that is absent); `base` True when the
    base game (not the mod) provides it."""

    kind: str
    where: str | None = None
    readable: bool = True
    base: bool = False


# Names that are not files. A reference whose `path` starts with one of these prefixes names
# something the game looks up by name in its scripts, not a file: the module that resolves it
# (sounds, particles) turns it into the files it leads to.
SOUNDSCRIPT = "soundscript:"
"""`soundscript:<name>`: a soundscript entry (`Doors.FullOpen1`), looked up in the game's
soundscripts and the map's `maps/<map>_level_sounds.txt`. Names are lower case (the engine
compares them so), as are the soundscape and particle names below."""
SOUNDSCAPE = "soundscape:"
"""`soundscape:<name>`: a soundscape (`env_soundscape`'s `soundscape`), looked up in the
game's soundscape files and the map's `scripts/soundscapes_<map>.txt`."""
PARTICLE = "particle:"
"""`particle:<name>`: a particle system (`info_particle_system`'s `effect_name`), defined in
a `.pcf` that the particle manifests (`particles/particles_manifest.txt`,
`maps/<map>_particles.txt`) list."""
BREAKABLE = "breakable:"
"""`breakable:<name>`: a set of generic gib models (`WoodChunks`), looked up in
`scripts/propdata.txt`'s `BreakableModels` block (what `func_breakable` and
`env_break_shooter` spawn)."""
NAMED = (SOUNDSCRIPT, SOUNDSCAPE, PARTICLE, BREAKABLE)


def is_file(path: str) -> bool:
    """Whether a reference's `path` names a file (not a `soundscript:`, `soundscape:`,
    `particle:` or `breakable:` name)."""
    return not path.startswith(NAMED)
