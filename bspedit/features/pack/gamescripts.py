"""Script files the game reads for an entity class: weapon scripts, and choreographed scenes.

A weapon script is what the game loads for a weapon's class (`ReadWeaponDataFromFileForSlot`:
`scripts/<class>.txt`, KeyValues under a `WeaponData` root; Black Mesa's are DMX files,
`scripts/gameplay/weapons/<class>.dmx`); srctools' entity database names it as the class's
resource (`weapon_crowbar` -> `scripts/weapon_crowbar.txt`). A `.txt` file under `scripts/` is
taken for one when its first block is `WeaponData`, a `.dmx` under `scripts/` when it has a
weapon's attributes. It leads to:

- models: `viewmodel`, `playermodel` (the world model), the keys later games add
  (`viewmodel_dual`, `playermodel_dual`, `worldmodel`, `addonmodel`: Left 4 Dead 2;
  `displaymodel`: Alien Swarm; `vrmodel`, `vrmodel_l`: the HL2 VR mod), and Left 4 Dead's
  `CharacterViewmodelAddon` values; in DMX `viewmodel`, `playermodel`,
  `playermodel_multiplayer`;
- `SoundData` values (DMX: the `sounds` element's strings): soundscripts, or `sound/` files
  when a value ends in a sound extension;
- `MuzzleFlashEffect_1stPerson`, `MuzzleFlashEffect_3rdPerson`, `EjectBrassEffect`: particle
  systems;
- `TextureData` (HUD icons and crosshairs, read as `LoadHudTextures` reads them): a block with
  a `font` key is a glyph of a font (no file); otherwise its `file` (and each key the script's
  `TextureFileRefs` adds) names what the vgui surface draws (`DrawSetTextureFile`), the
  material `materials/<file>.vmt`: that is the reference. srctools' packlist names the texture
  `materials/<file>.vtf` instead; that file is named too, optional, when it is there (it is
  usually the material's `$basetexture` anyway).

A scene (`.vcd`: `logic_choreographed_scene`'s `SceneFile`, a class's `choreo` resource) leads
to the sounds its speak events play (srctools' reader, `used_sounds`: soundscripts or files,
and close-caption sounds) and the scenes its sub-scene events start. Scenes compiled into
`scenes/scenes.image` only (what the games ship) are not read.
"""
from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable
from typing import Any

from .materials import decode_text, material_path, read_keyvalues, texture_path
from .model import PARTICLE, Reference, asset_path
from .models import model_path
from .sounds import sound_reference

Read = Callable[[str], "bytes | None"]
Exists = Callable[[str], bool]

MODEL_KEYS = ("viewmodel", "playermodel", "viewmodel_dual", "playermodel_dual", "worldmodel",
              "addonmodel", "displaymodel", "vrmodel", "vrmodel_l")
DMX_MODEL_KEYS = ("viewmodel", "playermodel", "playermodel_multiplayer")
PARTICLE_KEYS = ("muzzleflasheffect_1stperson", "muzzleflasheffect_3rdperson",
                 "ejectbrasseffect")
# `scripts/....txt` files that are never weapon scripts (the game's own script lists).
_NOT_WEAPONS = re.compile(r"scripts/(game_sounds|soundscapes|propdata|surfaceproperties|"
                          r"[^/]*manifest)[^/]*\.txt")
_WEAPON_HEAD = re.compile(r'(?:\s|//[^\n]*(?:\n|$))*"?weapondata"?[\s{\[]', re.IGNORECASE)


def weapon_script_candidate(path: str) -> bool:
    """Whether `path` may be a weapon script (a `.txt` or `.dmx` under `scripts/`), so worth
    reading to tell."""
    return path.startswith("scripts/") and (
        path.endswith(".dmx") or (path.endswith(".txt") and not _NOT_WEAPONS.fullmatch(path)))


def weapon_script_deps(ref: Reference, read: Read, exists: Exists) -> list[Reference]:
    """What the weapon script `ref` names (see the module's doc); nothing when the file is
    not one."""
    if ref.path.endswith(".dmx"):
        return _dmx_weapon_deps(ref, read)
    data = read(ref.path)
    if data is None or not _WEAPON_HEAD.match(decode_text(data[:4096])):
        return []
    root = read_keyvalues(lambda _path: data, ref.path)
    if root is None:
        return []
    out: list[Reference] = []
    for weapon in root.find_all("WeaponData"):
        out += _weapon_data(ref, weapon, exists)
    return out


def _weapon_data(ref: Reference, data: Any, exists: Exists) -> list[Reference]:
    out: list[Reference] = []
    step = ref.path
    for kv in data:
        name = kv.name
        if kv.has_children():
            if name == "sounddata":
                for sound in kv:
                    found = None if sound.has_children() else sound_reference(
                        ref, f"{step} SoundData {sound.real_name}", sound.value)
                    out += [found] if found else []
            elif name == "characterviewmodeladdon":
                out += [ref.via(f"{step} CharacterViewmodelAddon {sub.real_name}",
                                model_path(sub.value))
                        for sub in kv if not sub.has_children() and sub.value.strip()]
            elif name == "texturedata":
                out += _hud_textures(ref, kv, _file_keys(data), exists)
        elif not kv.value.strip():
            continue
        elif name in MODEL_KEYS:
            out.append(ref.via(f"{step} {kv.real_name}", model_path(kv.value)))
        elif name in PARTICLE_KEYS:
            out.append(ref.named(PARTICLE + kv.value.strip().casefold(),
                                 f"{step} {kv.real_name}"))
    return out


def _file_keys(data: Any) -> list[str]:
    """`file`, then the keys a script's `TextureFileRefs` block adds (each with its prefix)."""
    keys = ["file"]
    for block in data.find_all("TextureFileRefs"):
        keys += [kv.name for kv in block if kv.name not in keys]
    return keys


def _hud_textures(ref: Reference, blocks: Iterable[Any], keys: list[str],
                  exists: Exists) -> list[Reference]:
    out: list[Reference] = []
    for block in blocks:
        if not block.has_children() or any(kv.name == "font" for kv in block):
            continue
        for kv in block:
            if kv.name in keys and not kv.has_children() and kv.value.strip():
                step = f"{ref.path} TextureData {block.real_name} {kv.real_name}"
                out.append(ref.via(step, material_path(kv.value)))
                texture = texture_path(kv.value)
                if exists(texture):
                    out.append(ref.via(f"{step} (srctools' packlist's reading: the engine "
                                       "loads the .vmt)", texture, optional=True))
    return out


def _dmx_weapon_deps(ref: Reference, read: Read) -> list[Reference]:
    from srctools.dmx import Element, ValueType

    data = read(ref.path)
    if data is None:
        return []
    try:
        root, _fmt, _version = Element.parse(io.BytesIO(data))
    except Exception:  # noqa: BLE001 - not a DMX file: nothing to follow
        return []
    out: list[Reference] = []
    if "sounds" in root and root["sounds"].type is ValueType.ELEMENT:
        for attr in root["sounds"].val_elem.values():
            if attr.type is ValueType.STRING:
                found = sound_reference(ref, f"{ref.path} sounds {attr.name}", attr.val_str)
                out += [found] if found else []
    for key in DMX_MODEL_KEYS:
        if key in root and root[key].type is ValueType.STRING and root[key].val_str.strip():
            out.append(ref.via(f"{ref.path} {key}", model_path(root[key].val_str)))
    return out


def scene_deps(ref: Reference, read: Read) -> list[Reference]:
    """What the scene `ref` (a text `.vcd`) plays: its speak events' sounds, its sub-scenes."""
    from srctools.choreo import EventType, Scene
    from srctools.tokenizer import Tokenizer

    data = read(ref.path)
    if data is None:
        return []
    try:
        scene = Scene.parse_text(Tokenizer(decode_text(data), ref.path))
        sounds = list(scene.used_sounds())
        subscenes = [event.parameters[0] for event in scene.iter_events(EventType.SubScene)
                     if event.parameters and event.parameters[0].strip()]
    except Exception:  # noqa: BLE001 - an unreadable scene leads nowhere
        return []
    out: list[Reference] = []
    for sound in sounds:
        found = sound_reference(ref, f"{ref.path} speak", sound)
        out += [found] if found else []
    out += [ref.via(f"{ref.path} subscene", asset_path(scene)) for scene in subscenes]
    return out
