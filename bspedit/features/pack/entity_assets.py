"""Entity classes and the keys whose values name assets: data, read by `refs.map_references`.

`ENTITY_ASSETS[classname]` is a tuple of `(key, kind)`; the `"*"` row applies to every class.
Keys compare case-insensitively (the engine's keyvalues do). What a value becomes, per kind
(see `refs.key_references`):

- `MODEL`: `models/....mdl`. A `*N` value is a brush model of the map (no file); a value
  ending in `.spr` or `.vmt` is a sprite: `materials/<value without extension>.vmt` (the
  engine has no `.spr` files in Source: `sprites/glow01.spr` loads the material
  `materials/sprites/glow01.vmt`).
- `MATERIAL`: `materials/<value>.vmt` (a `.vmt` or `.spr` extension, a leading `materials/`
  and leading slashes dropped). Sprites, decals, overlays, rope and beam materials.
- `TEXTURE`: `materials/<value>.vtf`, a texture used without a material
  (`env_projectedtexture`).
- `SOUND`: a value ending in `.wav`, `.mp3` or `.ogg` is a file, `sound/<value>` (the sound
  characters `*#@<>^)(}$?&~+%` stripped from its start); `!NAME` is a sentence (no file); a
  number is an HL1-style preset index (no file); anything else is a soundscript entry,
  `soundscript:<name>` (see `model.SOUNDSCRIPT`).
- `BUTTON_SOUND`: a button's sound number N (not 0) is the soundscript entry `Buttons.snd<N>`
  (Source SDK 2013 `buttons.cpp`, `MakeButtonSound`); any other value is a `SOUND`.
- `SOUNDSCAPE`: `soundscape:<name>`.
- `PARTICLE`: `particle:<name>`.
- `FILE`: a path from the game's root, as written (`materials/correction/x.raw`).
- `VSCRIPT`: space-separated script names under `scripts/vscripts/`; `.nut` when a name has
  no extension.
- `SKYBOX`: a sky name: `materials/skybox/<name>{rt,lf,bk,ft,up,dn}.vmt`, and the HDR faces
  `<name>_hdr{...}.vmt` as optional.

Worldspawn's `detailmaterial` is not here: it is read only when the map has detail sprites
(`refs.detail_references`), with its default `detail/detailsprites`. `detailvbsp` is not
here either: vbsp reads it while compiling; the engine never does.

Sources: the Source SDK 2013 FGDs (`base.fgd`, `halflife2.fgd`; HL2, EP1, EP2), Portal's
`portal.fgd`, Mapbase's additions to `base.fgd` (the mod `../shared/content/portalcollab` runs
on), and the keys CS:GO, L4D2 and Portal 2's FGDs share with them; the FGD value type is in
each comment (`studio`, `sprite`, `material`, `decal`, `sound`, `vecline` ...). Classes whose
asset is fixed in code (`env_lightglow`, `func_dustmotes`, `func_precipitation`, `env_spark`,
`env_fog_controller`, `env_cubemap`, `point_template`) name nothing here: their files are the
game's own.

Beyond this table, `EntityDatabase.fgd_asset_keys` reads srctools' entity database (the FGDs
of every Source game HammerAddons describes, shipped with srctools as data), with the classes
of FGD files the user gives over it, for the keys of asset types this table does not name: the
long tail of game-specific classes (`func_tank`'s sprites, TF2's `item_teamflag` models, ...).
The table wins where both name a key.
"""
from __future__ import annotations

import os
from collections.abc import Iterable
from functools import cache
from typing import Any

MODEL = "model"
MATERIAL = "material"
TEXTURE = "texture"
SOUND = "sound"
SOUNDSCAPE = "soundscape"
PARTICLE = "particle"
FILE = "file"
VSCRIPT = "vscript"
SKYBOX = "skybox"
BUTTON_SOUND = "button sound"

KINDS = (MODEL, MATERIAL, TEXTURE, SOUND, SOUNDSCAPE, PARTICLE, FILE, VSCRIPT, SKYBOX,
         BUTTON_SOUND)

_DOOR_SOUNDS = (                       # base.fgd `Door` base: noise1/noise2 etc. are (sound)
    ("noise1", SOUND), ("noise2", SOUND), ("startclosesound", SOUND), ("closesound", SOUND),
    ("locked_sound", SOUND), ("unlocked_sound", SOUND),
)
_BUTTON_SOUNDS = (                     # base.fgd func_button/func_rot_button: (choices)
    ("sounds", BUTTON_SOUND), ("locked_sound", BUTTON_SOUND),  # numbers; buttons.cpp makes
    ("unlocked_sound", BUTTON_SOUND),                          # them Buttons.snd<N>
)
_TRAIN_SOUNDS = (                      # base.fgd func_tracktrain/func_tanktrain (sound)
    ("MoveSound", SOUND), ("MovePingSound", SOUND), ("StartSound", SOUND), ("StopSound", SOUND),
)
_SPRITE = (("model", MODEL),)          # base.fgd env_sprite & co: model(sprite), .spr or .vmt
_SCENE = (("SceneFile", FILE),)        # base.fgd logic_choreographed_scene: SceneFile(scene)
_VEHICLE = (("vehiclescript", FILE),)  # halflife2.fgd BaseVehicle: vehiclescript(string)
_PHYSICS_PROP = (("puntsound", SOUND),)  # halflife2.fgd (EP2) BasePropPhysics: puntsound(sound)
_SOUNDSCAPE = (("soundscape", SOUNDSCAPE),)  # base.fgd env_soundscape: soundscape(string)

ENTITY_ASSETS: dict[str, tuple[tuple[str, str], ...]] = {
    # Every class: base.fgd `model(studio)` on prop_*, npc_*, item_*, cycler, generic_actor,
    # env_sprite (sprite) ...; `vscripts(scriptlist)` on every entity in L4D2, Portal 2,
    # CS:GO, TF2 and Mapbase (CBaseEntity).
    "*": (("model", MODEL), ("vscripts", VSCRIPT)),

    # base.fgd worldspawn: skyname(string). Mapbase skybox_swapper: SkyboxName(string).
    "worldspawn": (("skyname", SKYBOX),),
    "skybox_swapper": (("SkyboxName", SKYBOX),),

    # Sounds. base.fgd ambient_generic/func_rotating: message(sound); func_movelinear:
    # StartSound/StopSound(sound); env_message: messagesound(sound); func_plat, func_platrot,
    # func_train: noise1/noise2(sound).
    "ambient_generic": (("message", SOUND),),
    "ambient_music": (("message", SOUND),),            # Portal 2 / CS:GO ambient_music
    "func_rotating": (("message", SOUND),),
    "func_movelinear": (("StartSound", SOUND), ("StopSound", SOUND)),
    "env_message": (("messagesound", SOUND),),
    "func_plat": (("noise1", SOUND), ("noise2", SOUND)),
    "func_platrot": (("noise1", SOUND), ("noise2", SOUND)),
    "func_train": (("noise1", SOUND), ("noise2", SOUND)),
    "func_door": _DOOR_SOUNDS,
    "func_door_rotating": _DOOR_SOUNDS,
    "func_water": _DOOR_SOUNDS,                        # base.fgd func_water: base(Door)
    "func_button": _BUTTON_SOUNDS,
    "func_rot_button": _BUTTON_SOUNDS,
    "momentary_rot_button": (("sounds", BUTTON_SOUND),),
    "func_tracktrain": _TRAIN_SOUNDS,
    "func_tanktrain": _TRAIN_SOUNDS,
    # halflife2.fgd prop_door_rotating: sound*override(sound).
    "prop_door_rotating": (("soundopenoverride", SOUND), ("soundcloseoverride", SOUND),
                           ("soundmoveoverride", SOUND), ("soundlockedoverride", SOUND),
                           ("soundunlockedoverride", SOUND)),
    "prop_physics": _PHYSICS_PROP,
    "prop_physics_override": _PHYSICS_PROP,
    "prop_physics_multiplayer": _PHYSICS_PROP,
    "prop_physics_respawnable": _PHYSICS_PROP,
    # base.fgd env_soundscape*: soundscape(string), a soundscape name.
    "env_soundscape": _SOUNDSCAPE,
    "env_soundscape_triggerable": _SOUNDSCAPE,
    "env_soundscape_proxy": (),                        # names another env_soundscape

    # Sprites and materials. base.fgd env_sprite/env_glow/env_sprite_oriented: model(sprite);
    # env_spritetrail: spritename(sprite); env_beam: texture(sprite); env_laser: texture,
    # EndSprite (sprite); env_explosion: fireballsprite(sprite); move_rope/keyframe_rope:
    # RopeMaterial(material); infodecal: texture(decal); info_overlay: material(material);
    # env_smokestack: SmokeMaterial(material); env_sun: material, overlaymaterial (sprite);
    # env_screenoverlay: OverlayName1..10 (string, a material).
    "env_sprite": _SPRITE,
    "env_glow": _SPRITE,
    "env_sprite_oriented": _SPRITE,
    "env_sprite_clientside": _SPRITE,                  # Mapbase / CS:GO
    "env_spritetrail": (("spritename", MATERIAL),),
    "env_beam": (("texture", MATERIAL),),
    "env_laser": (("texture", MATERIAL), ("EndSprite", MATERIAL)),
    "env_explosion": (("fireballsprite", MATERIAL),),
    "move_rope": (("RopeMaterial", MATERIAL),),
    "keyframe_rope": (("RopeMaterial", MATERIAL),),
    "infodecal": (("texture", MATERIAL),),
    "info_projecteddecal": (("texture", MATERIAL),),
    "info_overlay": (("material", MATERIAL),),         # vbsp moves it to OVERLAYS (texdata)
    "info_overlay_accessor": (("material", MATERIAL),),
    "info_overlay_transition": (("material", MATERIAL),),
    "env_smokestack": (("SmokeMaterial", MATERIAL),),
    "env_sun": (("material", MATERIAL), ("overlaymaterial", MATERIAL)),
    "env_screenoverlay": tuple((f"OverlayName{n}", MATERIAL) for n in range(1, 11)),
    # Mapbase and CS:GO point_spotlight: SpotlightMaterial, HaloMaterial (material); HL2's
    # uses fixed ones.
    "point_spotlight": (("SpotlightMaterial", MATERIAL), ("HaloMaterial", MATERIAL)),
    # base.fgd (EP2) env_projectedtexture, Mapbase / CS:GO env_global_light:
    # texturename(material), a texture.
    "env_projectedtexture": (("texturename", TEXTURE),),
    "env_global_light": (("texturename", TEXTURE),),

    # Models beyond `model`. base.fgd env_shooter: shootmodel(studio); func_breakable,
    # func_physbox: gibmodel(string, a model or sprite).
    "env_shooter": (("shootmodel", MODEL),),
    "func_breakable": (("gibmodel", MODEL),),
    "func_physbox": (("gibmodel", MODEL),),

    # Files named from the game's root. base.fgd color_correction(_volume): filename(string),
    # a .raw lookup table; logic_choreographed_scene / instanced_scripted_scene:
    # SceneFile(scene); halflife2.fgd prop_vehicle_*: vehiclescript(string).
    "color_correction": (("filename", FILE),),
    "color_correction_volume": (("filename", FILE),),
    "logic_choreographed_scene": _SCENE,
    "instanced_scripted_scene": _SCENE,
    "prop_vehicle_jeep": _VEHICLE,
    "prop_vehicle_airboat": _VEHICLE,
    "prop_vehicle_driveable": _VEHICLE,
    "prop_vehicle_prisoner_pod": _VEHICLE,
    "prop_vehicle_apc": _VEHICLE,

    # Particles. base.fgd (EP2) info_particle_system: effect_name(particlesystem).
    "info_particle_system": (("effect_name", PARTICLE),),

    # L4D2 trigger_finale: ScriptFile(string), a VScript (scripts/vscripts/<name>.nut).
    "trigger_finale": (("ScriptFile", VSCRIPT),),
}


# srctools' FGD value types (`ValueTypes` names) and the kind each one's values are.
# `decal` values of the database are often decal names of decals_subrect.txt, not materials:
# only the table's decal keys (infodecal, info_overlay) count.
FGD_KINDS = {
    "STR_MODEL": MODEL, "STR_SPRITE": MATERIAL, "STR_MATERIAL": MATERIAL, "STR_SOUND": SOUND,
    "STR_SCENE": FILE, "STR_PARTICLE": PARTICLE, "STR_VSCRIPT": VSCRIPT,
    "STR_VSCRIPT_SINGLE": VSCRIPT, "EXT_STR_TEXTURE": TEXTURE, "EXT_SOUNDSCAPE": SOUNDSCAPE,
}
# Classes the database describes that never reach the engine: HammerAddons' compile-time
# `comp_*` entities (the postcompiler removes them) and worldspawn (the table's rows and
# the detail sprites cover it).
FGD_SKIPPED = ("comp_", "worldspawn")


@cache
def engine_def(classname: str) -> Any:
    """srctools' `EntityDef` of class `classname` (lower case) from its entity database, read
    once (each `EntityDef.engine_def` call copies it); None when srctools is absent, the class
    unknown or compile-time only (`FGD_SKIPPED`)."""
    if not classname or classname.startswith(FGD_SKIPPED):
        return None
    try:
        from srctools.fgd import EntityDef
    except ImportError:
        return None
    try:
        return EntityDef.engine_def(classname)
    except (KeyError, ValueError):
        return None


class EntityDatabase:
    """srctools' entity database, with the classes of FGD files over it (`pak deps --fgd`):
    a class an FGD defines replaces the database's for its keys' types and defaults, and for
    its class resources when it has an `@resources` block (a game's own FGD usually has none:
    the database's resources stay). Base classes an FGD names are its own, else the
    database's; a base found in neither is left out. Answers are cached per class."""

    def __init__(self, fgds: Iterable[str | os.PathLike[str]] = ()) -> None:
        self.own: dict[str, Any] = load_fgds(fgds) if fgds else {}
        self._keys: dict[str, tuple[tuple[str, str], ...]] = {}
        self._defaults: dict[str, tuple[tuple[str, str, str], ...]] = {}

    def definition(self, classname: str) -> Any:
        """The `EntityDef` of class `classname` (any case): the FGD files' own, else the
        database's (`engine_def`); None when neither knows it."""
        name = classname.lower()
        own = self.own.get(name)
        return own if own is not None else engine_def(name)

    def resources(self, classname: str) -> Any:
        """The `EntityDef` whose resources class `classname` loads: the FGD files' when it has
        an `@resources` block, else the database's; None when neither knows it."""
        name = classname.lower()
        own = self.own.get(name)
        return own if own is not None and own.resources_defined() else engine_def(name)

    def fgd_asset_keys(self, classname: str) -> tuple[tuple[str, str], ...]:
        """The `(key, kind)` pairs of class `classname`'s keys of asset types (`FGD_KINDS`)."""
        name = classname.lower()
        if name not in self._keys:
            definition = self.definition(name)
            self._keys[name] = () if definition is None else tuple(
                (definition.kv[key].name, FGD_KINDS[definition.kv[key].type.name])
                for key in definition.kv if definition.kv[key].type.name in FGD_KINDS)
        return self._keys[name]

    def fgd_defaults(self, classname: str) -> tuple[tuple[str, str, str], ...]:
        """`(key, kind, default)` for the asset keys class `classname` has a default value
        for (the value the game's code uses when the key is absent: `weapon_portalgun`'s
        `viewmodel`, `env_projectedtexture`'s `texturename`)."""
        name = classname.lower()
        if name not in self._defaults:
            definition = self.definition(name)
            out = []
            for key in definition.kv if definition is not None else ():
                kv = definition.kv[key]
                kind = FGD_KINDS.get(kv.type.name)
                default = str(kv.default or "").strip()
                if kind is not None and default:
                    out.append((kv.name, kind, default))
            self._defaults[name] = tuple(out)
        return self._defaults[name]

    def all_asset_keys(self, classname: str) -> tuple[tuple[str, str], ...]:
        """`asset_keys`, then the keys only the database (or the FGD files) name."""
        own = asset_keys(classname)
        names = {key.lower() for key, _ in own}
        return own + tuple(p for p in self.fgd_asset_keys(classname)
                           if p[0].lower() not in names)


def load_fgds(paths: Iterable[str | os.PathLike[str]]) -> dict[str, Any]:
    """lower-case class name -> `EntityDef` of the FGD files `paths` (their `@include`s
    read from each file's folder). Raises BspError for a file that is absent or not an FGD."""
    from srctools.fgd import FGD
    from srctools.filesys import RawFileSystem

    from ...errors import BspError

    fgd = FGD()
    for path in map(os.fspath, paths):
        folder, name = os.path.split(os.path.abspath(path))
        if os.path.isdir(path):
            raise BspError("a folder, not an FGD file", path=path)
        if not os.path.isfile(path):
            raise BspError("no such FGD file", path=path)
        system = RawFileSystem(folder)
        try:
            fgd.parse_file(system, system[name], eval_bases=False)
        except Exception as exc:  # noqa: BLE001 - srctools' parse errors and missing includes
            raise BspError(f"not a readable FGD file: {' '.join(str(exc).split())}",
                           path=path) from None
    classes = {definition.classname.lower(): definition for definition in fgd}
    for definition in classes.values():
        bases = [classes.get(base.lower()) or engine_def(base.lower())
                 if isinstance(base, str) else base for base in definition.bases]
        definition.bases = [base for base in bases if base is not None]
    return classes


DATABASE = EntityDatabase()
"""srctools' database alone (no FGD files)."""


def asset_keys(classname: str) -> tuple[tuple[str, str], ...]:
    """The `(key, kind)` pairs of an entity class: its own row, then the `"*"` row's keys it
    does not name itself (case-insensitively)."""
    own = ENTITY_ASSETS.get(classname.lower(), ())
    names = {key.lower() for key, _ in own}
    return own + tuple(p for p in ENTITY_ASSETS["*"] if p[0].lower() not in names)


def all_asset_keys(classname: str) -> tuple[tuple[str, str], ...]:
    """`DATABASE.all_asset_keys`: the table's keys, then the keys only srctools' database
    names."""
    return DATABASE.all_asset_keys(classname)
