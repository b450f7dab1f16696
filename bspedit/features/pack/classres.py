"""What entity classes load by themselves: their class resources, from srctools' entity
database (the resource lists HammerAddons keeps per class, with their per-class functions, as
srctools' packlist takes them), and the defaults the database gives the asset keys an entity
leaves out.

`EntityDef.get_resources` simulates the class's `Precache()` for each entity with its keys
(`model`, `spawnflags`, `AmmoType`...), following `entity` resources (another class's, such
as the `item_healthvial` an NPC drops) and the class functions, which may read files (a door's
`door_options` in its model) through `read`. What each resource becomes:

- sounds, particles, soundscapes: names (`soundscript:`, `particle:`, `soundscape:`);
- breakable chunks (`func_breakable`'s gib set): `breakable:<set>`, which `chains` looks up
  in `scripts/propdata.txt`;
- materials, textures, models, VScripts: as the same kinds of key values (`refs`);
- weapon scripts (`scripts/weapon_crowbar.txt`), scenes (`.vcd`) and other files: the path,
  which `chains` follows (weapon scripts and scenes: `gamescripts`).

Every one is optional (the database's lists are the union over the games that have the class,
and mostly the game's own files) and marked `class_resource`. Reasons: `entity 12
weapon_crowbar (class resources)`, `entity 9 weapon_portalgun 'viewmodel' (default)`.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import entity_assets as ea
from .keys import key_references, sound_references
from .model import BREAKABLE, PARTICLE, SOUNDSCAPE, SOUNDSCRIPT, Reference, asset_path

if TYPE_CHECKING:
    from ...bsp import Bsp

Read = Callable[[str], "bytes | None"]

# Keys whose values do not change what an entity loads: entities differing only in these ask
# the database once (160 func_precipitation brushes are one question).
_PLACE_KEYS = frozenset(("origin", "angles", "hammerid", "targetname", "parentname"))


def class_references(bsp: Bsp, name: str = "", *, database: ea.EntityDatabase | None = None,
                     read: Read | None = None) -> list[Reference]:
    """The class resources and key defaults of every entity of `bsp` (see the module's doc),
    in file order; `name` is the map's name (some classes load map-named files), `database`
    the entity database (default: srctools' alone), `read` the files the class functions may
    read (default: none). Empty when srctools is absent."""
    try:
        from srctools.fgd import ResourceCtx
        from srctools.vmf import VMF, Entity
    except ImportError:
        return []
    database = ea.DATABASE if database is None else database

    def definition(classname: str) -> Any:
        found = database.resources(classname)
        if found is None:
            raise KeyError(classname)
        return found

    ctx = ResourceCtx(mapname=name, fgd=definition, fsys=_files(read))
    vmf = VMF()
    out: list[Reference] = []
    seen: dict[tuple[str, frozenset[tuple[str, str]]], list[tuple[Any, str]]] = {}
    for index, entity in enumerate(bsp.entities(lenient=True)):
        classname = (entity.get("classname") or "").strip()
        if classname.lower().startswith(ea.FGD_SKIPPED):
            continue
        keys = {key.casefold(): value for key, value in entity.pairs()}
        found_def = database.resources(classname)
        if found_def is not None:
            same = (classname.casefold(), frozenset(
                (k, v) for k, v in keys.items()
                if k not in _PLACE_KEYS and not k.startswith("on")
                and not (k == "model" and v.startswith("*"))))
            found = seen.get(same)
            if found is None:
                try:
                    found = list(found_def.get_resources(ctx, ent=Entity(vmf, keys=keys)))
                except Exception:  # noqa: BLE001 - a class function that fails names nothing
                    found = []
                seen[same] = found
            reason = (f"entity {index} {classname} (class resources)",)
            for kind, value in found:
                if value:
                    out += [_mark(r) for r in resource_references(kind, value, reason)]
        for key, kind, default in database.fgd_defaults(classname):
            if key.casefold() not in keys:
                out += [_mark(r) for r in key_references(
                    kind, default, (f"entity {index} {classname} {key!r} (default)",))]
    return out


def _mark(ref: Reference) -> Reference:
    return Reference(ref.path, ref.reason, optional=True, class_resource=True)


def resource_references(kind: Any, value: str, reason: tuple[str, ...]) -> list[Reference]:
    """A srctools resource `(FileType, value)` as references."""
    from srctools.const import FileType


    value = value.strip()
    if kind is FileType.GAME_SOUND:
        return [Reference(SOUNDSCRIPT + value.casefold(), reason)]
    if kind is FileType.PARTICLE:
        return [Reference(PARTICLE + value.casefold(), reason)]
    if kind is FileType.SOUNDSCAPE_NAME:
        return [Reference(SOUNDSCAPE + value.casefold(), reason)]
    if kind is FileType.BREAKABLE_CHUNK:
        return [Reference(BREAKABLE + value.casefold(), reason)]
    if kind is FileType.RAW_SOUND:
        return sound_references(value if value.lower().endswith((".wav", ".mp3", ".ogg"))
                                else value + ".wav", reason)
    if kind is FileType.MATERIAL:
        return key_references(ea.MATERIAL, value, reason)
    if kind is FileType.TEXTURE:
        return key_references(ea.TEXTURE, value, reason)
    if kind is FileType.MODEL:
        return key_references(ea.MODEL, value.split("#", 1)[0], reason)  # `x.mdl#0,2`: skins
    if kind is FileType.VSCRIPT_SQUIRREL:
        return key_references(ea.VSCRIPT, value, reason)
    path = asset_path(value)
    return [Reference(path, reason)] if path else []


def _files(read: Read | None) -> Any:
    """A srctools file system over `read` (its files loaded when a class function asks), or
    srctools' empty one."""
    from srctools.filesys import VirtualFileSystem

    if read is None:
        return VirtualFileSystem({})
    source: Read = read

    class ReadFiles(VirtualFileSystem):
        def _load(self, name: Any) -> None:
            key = self._clean_path(name)
            if key not in self._mapping:
                data = source(asset_path(key))
                if data is not None:
                    self._mapping[key] = (key, data)  # type: ignore[index]

        def _file_exists(self, name: str) -> bool:
            self._load(name)
            return super()._file_exists(name)

        def _get_file(self, name: str) -> Any:
            self._load(name)
            return super()._get_file(name)

        def open_bin(self, name: Any) -> Any:
            self._load(name)
            return super().open_bin(name)

        def open_str(self, name: Any, encoding: str = "utf8") -> Any:
            self._load(name)
            return super().open_str(name, encoding)

    return ReadFiles({})
