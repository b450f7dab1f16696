"""An oracle for the entity logic tests, written apart from bspedit's parser and rules: a
regex reader of raw entity text, each engine's name matching as the engines' sources state it
(strcmp for Quake 1 and GoldSrc, Q_stricmp for Quake 2 and 3, Source's NamesMatch with its
trailing `*`, and the classname fallback of CEventQueue::ServiceEvents), and which keys are
links at all (GoldSrc's multi_manager, Quake 2's target_spawner, Source's name-or-class keys
and the names and classes only the running map gives)."""
from __future__ import annotations

import re

_TOKEN = re.compile(rb'"([^"]*)"|([{}])')
EXACT_CASE = {"q1", "bsp2", "2psb", "goldsrc", "bshift"}


def read_entities(text: bytes) -> list[list[tuple[str, str]]]:
    """The entities of raw entity text, each a list of (key, value) in file order."""
    text = text.split(b"\0", 1)[0]
    entities: list[list[tuple[str, str]]] = []
    current: list[str] | None = None
    for match in _TOKEN.finditer(text):
        if match.group(2) == b"{":
            current = []
        elif match.group(2) == b"}":
            if current is not None:
                entities.append([(current[i], current[i + 1]) for i in range(0, len(current) - 1, 2)])
            current = None
        elif current is not None:
            current.append(match.group(1).decode("utf-8", "surrogateescape"))
    return entities


def first(entity: list[tuple[str, str]], key: str) -> str:
    return next((v for k, v in entity if k.lower() == key.lower()), "")


def output_fields(value: str) -> list[str] | None:
    """An output's five fields (split on ESC if the value holds one, else on commas), None
    for a value that is no output."""
    fields = value.split("\x1b" if "\x1b" in value else ",")
    if len(fields) != 5:
        return None
    try:
        float(fields[3])
        int(fields[4])
    except ValueError:
        return None
    return fields


def matches(family: str, query: str, name: str) -> bool:
    """Whether `query` reaches an entity named `name` in `family`'s engine."""
    if not query or not name:
        return False
    if family in EXACT_CASE:
        return query == name
    if family != "source":
        return query.lower() == name.lower()
    q, n = query.lower(), name.lower()
    return q == n or (q.endswith("*") and n.startswith(q[:-1]))


def reached(family: str, entities: list[list[tuple[str, str]]], query: str, *,
            by_class: bool) -> list[int]:
    """The indices of the entities `query` reaches: by targetname, else (Source, when
    `by_class`) by classname."""
    hits = [i for i, e in enumerate(entities) if matches(family, query, first(e, "targetname"))]
    if not hits and family == "source" and by_class:
        hits = [i for i, e in enumerate(entities) if matches(family, query, first(e, "classname"))]
    return hits


# --- which keys are links, by the engines' code (each rule written from its source) ---

# Half-Life SDK, util.cpp gEntvarsDescription: DispatchKeyValue hands a key to
# EntvarsKeyvalue first (stricmp), so a multi_manager never sees these.
_HL_ENTVARS = (
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
    "radsuit_finished")


def multi_manager_targets(entity: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(key, target name) of each key a GoldSrc multi_manager fires: every key the engine does
    not take itself (ED_ParseEdict turns `angle` into `angles`; the entvars), nor
    CMultiManager::KeyValue (`wait`), nor CBaseDelay (`delay`, `killtarget`, read by forks),
    nor a `master`; compiler keys (`_...`, `zhlt_...`) and Sven Co-op's custom keyvalues
    (`$...`) are no targets. UTIL_StripToken cuts the name at '#'."""
    own = set(_HL_ENTVARS) | {"angle", "wait", "delay", "killtarget", "master"}
    return [(k, k.split("#")[0]) for k, _ in entity
            if k.lower() not in own and not k.lower().startswith(("_", "zhlt", "$"))]


def goldsrc_runtime(entities: list[list[tuple[str, str]]]) -> set[str]:
    """Names GoldSrc maps give while they run: monstermaker's and squadmaker's `netname` (the
    SDK's CMonsterMaker names its children so), Sven Co-op's trigger_createentity child name."""
    keys = {"monstermaker": "netname", "squadmaker": "netname",
            "trigger_createentity": "m_iszCrtEntChildName"}
    return {first(e, keys[first(e, "classname")]) for e in entities
            if first(e, "classname") in keys} - {""}


def spawns_a_class(family: str, classname: str, key: str) -> bool:
    """Quake 2's use_target_spawner: `ent->classname = self->target; ED_CallSpawn(ent)`."""
    return family == "q2" and classname.lower() == "target_spawner" and key.lower() == "target"


# Source keys looked up by name, then by classname, though the entity definitions type them
# as names: CAI_ScriptedSequence::FindScriptEntity (FindEntityByNameWithin, then
# FindEntityByClassnameWithin), CAI_ScriptedSchedule (FindEntityGenericWithin, FindEntityGeneric),
# CParticleSystem::ReadControlPointEnts (FindEntityGeneric).
def source_name_or_class(classname: str, key: str) -> bool:
    classname, key = classname.lower(), key.lower()
    return (classname, key) in {("scripted_sequence", "m_iszentity"),
                                ("aiscripted_schedule", "m_iszentity"),
                                ("aiscripted_schedule", "goalent")} or \
        (classname == "info_particle_system" and re.fullmatch(r"cpoint([1-9]|[1-5]\d|6[0-3])", key)
         is not None)


def source_runtime(entities: list[list[tuple[str, str]]]) -> tuple[set[str], set[str]]:
    """(names, classes) the running map gives, lower case: npc_maker's NPCTargetname,
    Half-Life: Source's monstermaker's netname; an output's `AddOutput targetname X` /
    `AddOutput classname X` (CBaseEntity::InputAddOutput); the players."""
    keys = {"npc_maker": "NPCTargetname", "monstermaker": "netname"}
    names = {first(e, keys[first(e, "classname").lower()]).lower() for e in entities
             if first(e, "classname").lower() in keys} - {""}
    classes = {"player"}
    for entity in entities:
        for _, value in entity:
            fields = output_fields(value)
            if fields and fields[1].lower() == "addoutput":
                what, _, given = fields[2].strip().partition(" ")
                if given.strip():
                    (names if what.lower() == "targetname" else
                     classes if what.lower() == "classname" else set()).add(given.strip().lower())
    return names, classes


def game_creates(classname: str, given: set[str]) -> bool:
    """Whether entities of `classname` can exist while a Source map runs though it places
    none: a class the map's outputs give, the player, or a class srctools' database describes
    as other than a brush entity (a brush entity needs the map's own model)."""
    from srctools.fgd import EntityDef, EntityTypes

    if classname.lower() in given:
        return True
    try:
        kind = EntityDef.engine_def(classname.lower()).type
    except (KeyError, ValueError):
        return False
    return kind not in (EntityTypes.BRUSH, EntityTypes.BASE)
