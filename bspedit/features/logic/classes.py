"""What the engines of each family read as entity links, as data: the keys that name other
entities, how names compare, the classes a map holds once; and, for Source, the entity
definitions (srctools' bundled database, or a user's FGD) that say which keys name entities
and which inputs a class accepts.

Sources: Quake's QuakeC (`SUB_UseTargets`: `target`, `killtarget`; `find()` compares with
strcmp), Quake 2's `g_spawn.c` fields (`target`, `killtarget`, `pathtarget`, `deathtarget`,
`combattarget`; `G_Find` compares with Q_stricmp), Quake 3's `G_Find` (Q_stricmp) and
`G_UseTargets`, the Half-Life SDK (`SUB_UseTargets`, `master` through `UTIL_IsMasterTriggered`,
`CMultiManager::KeyValue`, `trigger_changetarget`'s `m_iszNewTarget`, `env_beam`'s
`LightningStart`/`LightningEnd`, `env_laser`'s `LaserTarget`, `monstermaker`'s `netname`;
`FIND_ENTITY_BY_TARGETNAME` compares with strcmp), Source's `CEventQueue::ServiceEvents`
(a target that names no entity reaches the entities of that classname) and NamesMatch (see
`bspedit.lumps.connections.names_match`).
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ...errors import BspError
from ...format.names import fold

__all__ = ["ENTVARS", "RULES", "Classes", "Rules", "rules_for"]


@dataclass(frozen=True, slots=True)
class Rules:
    """One engine's entity links."""

    #: keys that name the entities an entity fires or uses, in every class
    target_keys: tuple[str, ...]
    #: classname -> more keys that name entities in that class only
    class_keys: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: classes whose every key but `plain_keys` names an entity (GoldSrc's multi_manager:
    #: key = target name, `#N` suffix for repeats, value = delay)
    manager_classes: tuple[str, ...] = ()
    #: classname -> keys whose value is the name of entities it spawns while the map runs
    #: (an output aimed at it is not dangling)
    spawned_names: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: classes a map holds once (a second one is a problem)
    unique: tuple[str, ...] = ("worldspawn",)
    #: names compare case-sensitively (strcmp), else ASCII case-insensitively
    exact_case: bool = False
    #: Source: outputs, NamesMatch's trailing `*`, classname targets, `!` targets
    source: bool = False


#: Keys GoldSrc's engine stores in entvars: never a multi_manager target.
ENTVARS = frozenset(("classname", "targetname", "target", "origin", "angles", "spawnflags", "wait",
            "globalname", "netname", "message", "model", "rendermode", "renderamt",
            "rendercolor", "renderfx", "health", "speed", "delay", "killtarget"))

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
        spawned_names={"monstermaker": ("netname",), "squadmaker": ("netname",)},
        exact_case=True),
    "quake2": Rules(("target", "killtarget", "pathtarget", "deathtarget", "combattarget")),
    "quake3": Rules(("target",)),
    "source": Rules(
        ("target", "parentname"),
        spawned_names={"npc_maker": ("NPCTargetname",)},
        unique=("worldspawn", "light_environment", "shadow_control", "water_lod_control"),
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
