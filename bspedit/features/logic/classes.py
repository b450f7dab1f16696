"""What the engines of each family read as entity links, as data: the keys that name other
entities, how names compare, the classes a map holds once; and, for Source, the entity
definitions (srctools' bundled database, or a user's FGD) that say which keys name entities
and which inputs a class accepts.

Sources: Quake's QuakeC (`SUB_UseTargets`: `target`, `killtarget`; `find()` compares with
strcmp), Quake 2's `g_spawn.c` fields (`target`, `killtarget`, `pathtarget`, `deathtarget`,
`combattarget`; `G_Find` compares with Q_stricmp; `use_target_spawner` spawns the class its
`target` names), Quake 3's `G_Find` (Q_stricmp) and `G_UseTargets`, the Half-Life SDK
(`SUB_UseTargets`, `master` through `UTIL_IsMasterTriggered`, `CMultiManager::KeyValue` after
`EntvarsKeyvalue` and the engine's `angle` -> `angles`, `trigger_changetarget`'s
`m_iszNewTarget`, `env_beam`'s `LightningStart`/`LightningEnd`, `env_laser`'s `LaserTarget`,
`monstermaker`'s `netname`; `FIND_ENTITY_BY_TARGETNAME` compares with strcmp; Sven Co-op's
entity guide: `!activator` and `!caller` targets, `trigger_createentity`'s child name), Source's
`CEventQueue::ServiceEvents` (a target that names no entity reaches the entities of that
classname), `CGlobalEntityList::FindEntityGeneric` and `CAI_ScriptedSequence::FindScriptEntity`
(a name, else a classname) and NamesMatch (see `bspedit.lumps.connections.names_match`); the
lights each game's spawn function removes or keeps for its light style only (`CLight::Spawn`,
QuakeC's `light`, Quake 2's and 3's `SP_light`).
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ...errors import BspError
from ...format.names import fold

__all__ = ["ENTVARS", "MANAGER_KEYS", "MANAGER_PREFIXES", "RULES", "Classes", "Rules", "rules_for"]


@dataclass(frozen=True, slots=True)
class Rules:
    """One engine's entity links."""

    #: keys that name the entities an entity fires or uses, in every class
    target_keys: tuple[str, ...]
    #: classname -> more keys that name entities in that class only
    class_keys: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: classname -> keys the engine looks up by name, else by classname (Source; they add to
    #: or override what the entity definitions say)
    name_or_class: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: classname -> keys of `target_keys` that hold the class of an entity to spawn, not a name
    spawn_class: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: classes whose every key but their own (`MANAGER_KEYS`, `MANAGER_PREFIXES`) names an
    #: entity (GoldSrc's multi_manager: key = target name, `#N` suffix for repeats, value =
    #: delay)
    manager_classes: tuple[str, ...] = ()
    #: classname -> keys whose value is the name of entities it spawns while the map runs
    #: (an output aimed at it is not dangling)
    spawned_names: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: classes the game creates while the map runs that no entity definition describes
    #: (a link to that classname is resolved then)
    runtime_classes: tuple[str, ...] = ()
    #: a name no entity has that starts with this is resolved while the map runs (GoldSrc
    #: mods' `!activator`, `!caller`; Source's `!` names are handled apart)
    runtime_prefix: str = ""
    #: classes a map holds once (a second one is a problem)
    unique: tuple[str, ...] = ("worldspawn",)
    #: classes of which one takes effect (a second one is ignored: a warning)
    one_in_effect: tuple[str, ...] = ()
    #: lights whose place only the light compiler reads: the game removes them at spawn, or
    #: keeps a named one for its light style alone
    compiler_lights: tuple[str, ...] = ("light",)
    #: names compare case-sensitively (strcmp), else ASCII case-insensitively
    exact_case: bool = False
    #: Source: outputs, NamesMatch's trailing `*`, classname targets, `!` targets
    source: bool = False


#: The Half-Life SDK's entvars fields (`gEntvarsDescription`): `EntvarsKeyvalue` takes these
#: keys (ignoring case) before a multi_manager sees them, so they are never its targets.
ENTVARS = frozenset((
    "classname", "globalname", "origin", "oldorigin", "velocity", "basevelocity", "movedir",
    "angles", "avelocity", "punchangle", "v_angle", "fixangle", "idealpitch", "pitch_speed",
    "ideal_yaw", "yaw_speed", "modelindex", "model", "viewmodel", "weaponmodel", "absmin",
    "absmax", "mins", "maxs", "size", "ltime", "nextthink", "solid", "movetype", "skin", "body",
    "effects", "gravity", "friction", "light_level", "frame", "scale", "sequence", "animtime",
    "framerate", "controller", "blending", "rendermode", "renderamt", "rendercolor", "renderfx",
    "health", "frags", "weapons", "takedamage", "deadflag", "view_ofs", "button", "impulse",
    "chain", "dmg_inflictor", "enemy", "aiment", "owner", "groundentity", "spawnflags", "flags",
    "colormap", "team", "max_health", "teleport_time", "armortype", "armorvalue", "waterlevel",
    "watertype", "target", "targetname", "netname", "message", "dmg_take", "dmg_save", "dmg",
    "dmgtime", "noise", "noise1", "noise2", "noise3", "speed", "air_finished", "pain_finished",
    "radsuit_finished"))
#: A multi_manager's own keys: the entvars, `angle` (the engine stores it as `angles`),
#: `wait` (CMultiManager::KeyValue), `delay` and `killtarget` (CBaseDelay's, read by the
#: managers of SDK forks); and keys starting with a compiler's or mod's prefix (`_`, `zhlt`,
#: Sven Co-op's `$` custom keyvalues, which it stores apart).
MANAGER_KEYS = ENTVARS | {"angle", "wait", "delay", "killtarget"}
MANAGER_PREFIXES = ("_", "zhlt", "$")

RULES: dict[str, Rules] = {     # by Family.engine
    "quake1": Rules(("target", "killtarget"), exact_case=True),
    "goldsrc": Rules(
        ("target", "killtarget", "master"),
        class_keys={"trigger_changetarget": ("m_iszNewTarget",),
                    "env_beam": ("LightningStart", "LightningEnd"),
                    "env_laser": ("LaserTarget",),
                    "path_track": ("altpath",),
                    "func_trackchange": ("train", "toptrack", "bottomtrack"),
                    "func_trackautochange": ("train", "toptrack", "bottomtrack"),
                    "trigger_camera": ("moveto",)},
        manager_classes=("multi_manager",),
        spawned_names={"monstermaker": ("netname",), "squadmaker": ("netname",),
                       "trigger_createentity": ("m_iszCrtEntChildName",)},
        runtime_prefix="!",
        compiler_lights=("light", "light_spot", "light_environment"),
        exact_case=True),
    "quake2": Rules(("target", "killtarget", "pathtarget", "deathtarget", "combattarget"),
                    spawn_class={"target_spawner": ("target",)}),
    "quake3": Rules(("target",)),
    "source": Rules(
        ("target", "parentname"),
        name_or_class={"scripted_sequence": ("m_iszEntity",),
                       "aiscripted_schedule": ("m_iszEntity", "goalent"),
                       "info_particle_system": tuple(f"cpoint{i}" for i in range(1, 64))},
        spawned_names={"npc_maker": ("NPCTargetname",), "monstermaker": ("netname",)},
        runtime_classes=("player",),
        one_in_effect=("light_environment", "shadow_control", "water_lod_control"),
        compiler_lights=("light", "light_spot", "light_glspot", "light_environment"),
        source=True),
}

# srctools' value types of keys naming entities: a name; a name or else a classname; a filter.
_NAME_TYPES = ("TARG_DEST", "TARG_FILTER_NAME")
_NAME_OR_CLASS_TYPES = ("TARG_DEST_CLASS",)


def rules_for(engine: str) -> Rules:
    """The rules of a `Family.engine` (Quake 1's for an unknown one)."""
    return RULES.get(engine, RULES["quake1"])


class Classes:
    """Source entity definitions: a user's FGD first (`--fgd`), then srctools' bundled
    database. A class neither knows is unknown (None)."""

    def __init__(self, fgd: str | os.PathLike[str] | None = None) -> None:
        self._user: dict[str, Any] = {}
        self._inputs: dict[str, frozenset[str] | None] = {}
        if fgd is not None:
            self._user = {fold(name): e for name, e in _read_fgd(os.fspath(fgd)).entities.items()}

    def definition(self, classname: str) -> Any:
        """srctools' `EntityDef` of the class, or None."""
        name = fold(classname.strip())
        found = self._user.get(name)
        return found if found is not None else _bundled(name)

    def known(self, classname: str) -> bool:
        return self.definition(classname) is not None

    def spawnable(self, classname: str) -> bool:
        """Whether the game can create entities of the class while the map runs: a point
        class of the definitions (players' weapons, portals, the game rules, what makers and
        templates spawn); a brush class needs a model the map itself places."""
        definition = self.definition(classname)
        return definition is not None and definition.type.name not in ("BRUSH", "BASE")

    def accepts(self, classname: str, input_name: str) -> bool | None:
        """Whether the class has the input (None: the class is unknown)."""
        name = fold(classname.strip())
        if name not in self._inputs:
            definition = self.definition(name)
            self._inputs[name] = None if definition is None else frozenset(
                fold(i) for i in definition.inp)
        inputs = self._inputs[name]
        return None if inputs is None else fold(input_name) in inputs

    def entity_keys(self, classname: str) -> tuple[tuple[str, bool], ...] | None:
        """The keys of the class that name entities, each with whether a classname also
        answers it (`target_name_or_class`); None when the class is unknown."""
        definition = self.definition(classname)
        if definition is None:
            return None
        out = []
        for name in definition.kv:
            kind = definition.kv[name].type.name
            if kind in _NAME_TYPES or kind in _NAME_OR_CLASS_TYPES:
                out.append((fold(name), kind in _NAME_OR_CLASS_TYPES))
        return tuple(out)


@cache
def _bundled(classname: str) -> Any:
    """srctools' bundled `EntityDef` of a (folded) class, None when unknown or srctools absent."""
    from ..pack.entity_assets import engine_def

    return engine_def(classname)


def _read_fgd(path: str) -> Any:
    """A user's FGD parsed by srctools (its `@include`s found beside it); BspError when it
    cannot be read."""
    try:
        from srctools.fgd import FGD
        from srctools.filesys import RawFileSystem
        from srctools.tokenizer import TokenSyntaxError
    except ImportError:
        raise BspError("--fgd needs srctools 2.7 (pip install srctools==2.7.0)") from None
    if not os.path.isfile(path):
        raise BspError("no such FGD file" if not os.path.exists(path) else "not a file",
                       path=path)
    folder, name = os.path.split(os.path.abspath(path))
    try:
        return FGD.parse(name, RawFileSystem(folder))
    except TokenSyntaxError as exc:
        raise BspError(f"not a valid FGD: {str(exc).splitlines()[0]}", path=path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BspError(f"cannot read the FGD: {exc}", path=path) from None
