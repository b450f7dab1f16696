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
    of `env_cubemap`, which the map normally packs)."""

    path: str
    reason: tuple[str, ...]
    optional: bool = False

    def via(self, step: str, path: str, *, optional: bool = False) -> Reference:
        """A reference that this one leads to: its reason is this one's plus `step`."""
        return Reference(asset_path(path), (*self.reason, step), self.optional or optional)


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
