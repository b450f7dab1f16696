"""`ent check` on what real maps that ship and work hold (issue 42): each reproducer is written
into a copy of a real corpus map of the family with bspedit's entity API, and the finding that
was a false alarm is gone while a real one next to it is still reported. The corpus-wide test
(under --full) proves every `outside` and `duplicate` finding from the raw text and MODELS."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from conftest import CORPUS
from logic_oracle import first, read_entities

import bspedit
from bspedit.cli import invoke

CONTENT = CORPUS.parent / "content"
ALL = sorted(str(p.relative_to(CORPUS)) for p in CORPUS.glob("*/*.bsp"))
CONTENT_MAPS = sorted(str(p) for p in CONTENT.glob("*/maps/*.bsp"))
EDGE = re.compile(r'^  "([^"]+)" -> "([^"]+)" \[label="([^"]*)"', re.MULTILINE)
RED = re.compile(r'^  "([^"]+)" \[label="([^"\\]*)\\n\(no entity\)", color=red', re.MULTILINE)
# Lights whose place only the light compiler reads: the games' spawn functions remove them
# (unnamed) or keep them for their light style (QuakeC light, SP_light, CLight::Spawn).
LIGHTS = {"light", "light_spot", "light_glspot", "light_environment"}

needs_corpus = pytest.mark.skipif(not CORPUS.exists(), reason="../shared/corpus not present")


def copy(name: str, tmp_path: Path) -> Path:
    out = tmp_path / Path(name).name
    shutil.copyfile(CORPUS / name, out)
    return out


def findings(path: Path) -> tuple[int, list[dict]]:
    report = invoke(["ent", "check", str(path), "--json"], capture=True)
    return report.code, (report.result or {}).get("findings", [])


def of_kind(found: list[dict], kind: str) -> list[tuple[str, str, str]]:
    return [(f["entity"]["classname"], f["key"], f["value"]) for f in found if f["kind"] == kind]


def dot(path: Path, tmp_path: Path) -> str:
    out = tmp_path / "g.dot"
    assert invoke(["ent", "graph", str(path), "-o", str(out)], capture=True).code == 0
    return out.read_text()


@needs_corpus
def test_brush_entity_judged_by_its_model(tmp_path):
    """A Quake 1 map moved off the origin (its world's box no longer holds 0 0 0), its brush
    triggers given `"origin" "0 0 0"` as editors write it: inside the world by their models'
    boxes, no warning. A func_wall pushed below the world is warned, and a teleporter aimed at
    no destination is still a problem."""
    out = tmp_path / "hub.bsp"
    assert invoke(["transform", str(CORPUS / "q1/librequake_start_bspx.bsp"), "--shift",
                   "8192,8192,0", "-o", str(out)], capture=True).code == 0
    with bspedit.open(out) as bsp:
        world = bsp.records("MODELS")[0]
        assert not all(lo <= 0 <= hi for lo, hi in zip(world["mins"], world["maxs"]))
        lump = bsp.entities()
        brushes = [e for e in lump if e.get("model", "").startswith("*")]
        assert {e["classname"] for e in brushes} >= {"trigger_teleport", "trigger_once",
                                                      "func_wall"}
        for entity in brushes:
            entity["origin"] = "0 0 0"
        brushes[0]["origin"] = "0 0 -100000"
        lump.add_entity({"classname": "trigger_teleport", "model": brushes[1]["model"],
                         "origin": "0 0 0", "target": "nowhere"})
        bsp.save()
    code, found = findings(out)
    assert of_kind(found, "outside") == [(brushes[0]["classname"], "origin", "0 0 -100000")]
    assert of_kind(found, "dangling") == [("trigger_teleport", "target", "nowhere")]
    assert code == 1


@needs_corpus
def test_lights_only_the_compiler_places(tmp_path):
    """id's battery box model (`b_batt0`) is lit by six lights around its 22-unit world: not
    warned, since the game removes a light at spawn (QuakeC's `light`) and lighting is baked.
    An item put where the lights are is outside and warned."""
    out = copy("q1/slipgate_b_batt0.bsp", tmp_path)
    with bspedit.open(out) as bsp:
        world = bsp.records("MODELS")[0]
        lights = [e for e in bsp.entities() if e["classname"] == "light"]
        outside = [e for e in lights if any(
            not lo <= float(v) <= hi
            for v, lo, hi in zip(e["origin"].split(), world["mins"], world["maxs"]))]
        assert len(outside) == 6
        bsp.entities().add_entity({"classname": "item_cells", "origin": outside[0]["origin"]})
        bsp.save()
    code, found = findings(out)
    assert code == 0
    assert of_kind(found, "outside") == [("item_cells", "origin", outside[0]["origin"])]


@needs_corpus
def test_multi_manager_own_keys(tmp_path):
    """A GoldSrc multi_manager's keys are target names (`name#2` the same name again) except
    its own: the engine's (`angle` becomes `angles`; the entvars: origin, spawnflags...) and
    CMultiManager's (`wait`). Only the target that names nothing is reported."""
    out = copy("goldsrc/hltopdown_test.bsp", tmp_path)
    with bspedit.open(out) as bsp:
        lump = bsp.entities()
        lump.add_entity({"classname": "info_target", "targetname": "door1"})
        lump.add_entity([("classname", "multi_manager"), ("targetname", "mm"),
                         ("origin", "16 16 16"), ("angle", "129"), ("angles", "0 129 0"),
                         ("wait", "1"), ("spawnflags", "1"), ("door1", "0.5"), ("door1#2", "1.5"),
                         ("gone", "2"), ("zhlt_invisible", "1")])
        lump.add_entity({"classname": "trigger_auto", "target": "mm"})
        bsp.save()
    code, found = findings(out)
    assert code == 1 and of_kind(found, "dangling") == [("multi_manager", "gone", "2")]
    graph = dot(out, tmp_path)
    labels = {label for _, _, label in EDGE.findall(graph)}
    assert labels == {"door1", "door1#2", "gone", "target"}
    assert [name for _, name in RED.findall(graph)] == ["gone"]


@needs_corpus
def test_goldsrc_names_the_running_map_gives(tmp_path):
    """Sven Co-op's `!activator` and `!caller` targets, the name a monstermaker gives what it
    spawns (`netname`) and Sven Co-op's trigger_createentity child name reach entities only
    while the map runs: no problem. A target naming nothing is still one."""
    out = copy("goldsrc/svenquake2_q2dm1_13lumps.bsp", tmp_path)
    before = of_kind(findings(out)[1], "dangling")
    with bspedit.open(out) as bsp:
        lump = bsp.entities()
        lump.add_entity({"classname": "monstermaker", "targetname": "grunts",
                         "monstertype": "monster_human_grunt", "netname": "grunt_squad"})
        lump.add_entity({"classname": "trigger_createentity", "targetname": "maker",
                         "m_iszCrtEntChildClass": "env_sprite", "m_iszCrtEntChildName": "made"})
        for target in ("!activator", "!caller", "grunt_squad", "made", "never_named"):
            lump.add_entity({"classname": "trigger_relay", "target": target})
        bsp.save()
    assert of_kind(findings(out)[1], "dangling") == [
        *before, ("trigger_relay", "target", "never_named")]


@needs_corpus
def test_scripted_sequence_names_a_class(tmp_path):
    """`scripted_sequence`'s `m_iszEntity` takes an entity name or a class name
    (CAI_ScriptedSequence::FindScriptEntity: by name, else by classname), as a Half-Life:
    Source map names `monster_scientist` with three of them placed: linked to the three, no
    problem, no red node. A name that is neither is still dangling."""
    from srctools.fgd import EntityDef

    assert EntityDef.engine_def("scripted_sequence").kv["m_iszentity"].type.name == "TARG_DEST"
    out = copy("source/valvebsp_testmap.bsp", tmp_path)
    with bspedit.open(out) as bsp:
        lump = bsp.entities()
        for x in (0, 64, 128):
            lump.add_entity({"classname": "monster_scientist", "origin": f"{x} 0 0"})
        lump.add_entity({"classname": "scripted_sequence", "targetname": "ss_found",
                         "m_iszEntity": "monster_scientist", "m_flRadius": "512"})
        lump.add_entity({"classname": "scripted_sequence", "targetname": "ss_lost",
                         "m_iszEntity": "scientist_gone"})
        bsp.save()
    code, found = findings(out)
    assert code == 1
    assert of_kind(found, "dangling") == [("scripted_sequence", "m_iszEntity", "scientist_gone")]
    graph = dot(out, tmp_path)
    targets = {b for a, b, label in EDGE.findall(graph) if label == "m_iszEntity"}
    assert len(targets) == 4 and sum(t.startswith("e") for t in targets) == 3
    assert [name for _, name in RED.findall(graph)] == ["scientist_gone"]


@needs_corpus
def test_source_names_only_the_running_map_gives(tmp_path):
    """Outputs to a class the game creates (Portal's `prop_portal`, the `player`, TF2's
    `tf_gamerules`) and to a name an `AddOutput targetname` gives reach entities while the map
    runs: no problem, grey nodes. A keyless pair (`"" ",,,0,-1"`, Hammer's empty output row)
    is no output. A brush class the map does not place and an unknown name stay dangling."""
    out = copy("source/valvebsp_testmap.bsp", tmp_path)
    with bspedit.open(out) as bsp:
        assert not [e for e in bsp.entities() if e["classname"] in ("prop_portal", "player")]
        lump = bsp.entities()
        relay = lump.add_entity({"classname": "logic_relay", "targetname": "relay"})
        relay.outputs.add("OnTrigger", "prop_portal", "Fizzle")
        relay.outputs.add("OnTrigger", "player", "SetHealth", "50")
        relay.outputs.add("OnTrigger", "!activator", "AddOutput", "targetname tagged")
        relay.outputs.add("OnTrigger", "tagged", "Kill", delay=1.0)
        relay.outputs.add("OnTrigger", "func_door", "Open")
        relay.outputs.add("OnTrigger", "nobody_by_that_name", "Kill")
        relay.add("", ",,,0,-1")
        lump.add_entity({"classname": "logic_auto"}).outputs.add("OnMapSpawn", "relay", "Trigger")
        bsp.save()
    code, found = findings(out)
    assert code == 1
    assert sorted(value.split(",")[0] for _, _, value in of_kind(found, "dangling")) == [
        "func_door", "nobody_by_that_name"]
    graph = dot(out, tmp_path)
    grey = set(re.findall(r'label="([^"\\]*)\\n\(at run time\)"', graph))
    assert grey >= {"prop_portal", "player", "tagged", "tf_gamerules"}


@needs_corpus
def test_one_light_environment_in_effect(tmp_path):
    """A second `light_environment` is a warning (vrad lights the sky from the first; Half-Life:
    Source's own maps ship with several), the check passes; a second `worldspawn` is still a
    problem."""
    out = copy("source/valvebsp_testmap.bsp", tmp_path)
    assert findings(out)[0] == 0
    with bspedit.open(out) as bsp:
        first_light = next(e for e in bsp.entities() if e["classname"] == "light_environment")
        bsp.entities().add_entity({"classname": "light_environment", "_light": "255 255 255 200",
                                   "origin": first_light["origin"]})
        bsp.save()
    code, found = findings(out)
    assert code == 0
    assert [(f["severity"], f["value"]) for f in found if f["kind"] == "duplicate"] == [
        ("warning", "light_environment")]
    with bspedit.open(out) as bsp:
        bsp.entities().add_entity({"classname": "worldspawn"})
        bsp.save()
    code, found = findings(out)
    assert code == 1
    assert sorted((f["severity"], f["value"]) for f in found if f["kind"] == "duplicate") == [
        ("problem", "worldspawn"), ("warning", "light_environment")]


@needs_corpus
def test_target_spawner_names_a_class(tmp_path):
    """Quake 2's target_spawner spawns the class its `target` names (use_target_spawner:
    `ent->classname = self->target`): OpenTDM's `item_quad` spawner is no dangling link. A
    relay aimed at no name still is."""
    out = copy("q2/opentdm_q2pduel4_dirtypad.bsp", tmp_path)
    with bspedit.open(out) as bsp:
        entities = read_entities(bsp.content(bsp.family.entities))
    spawners = [e for e in entities if first(e, "classname") == "target_spawner"]
    assert [first(e, "target") for e in spawners] == ["item_quad"]
    assert not [e for e in entities if first(e, "targetname") == "item_quad"]
    assert findings(out)[0] == 0
    with bspedit.open(out) as bsp:
        bsp.entities().add_entity({"classname": "trigger_relay", "target": "nowhere"})
        bsp.save()
    code, found = findings(out)
    assert code == 1 and of_kind(found, "dangling") == [("trigger_relay", "target", "nowhere")]


def expected_outside(path: Path) -> set[tuple[int, str, str]]:
    """(entity, key, value) of each entity outside the world's box, from the raw text and
    MODELS: a brush entity by its model's box moved by its origin, another by its origin;
    lights only the compiler places are not judged, nor a world with no faces."""
    with bspedit.open(path) as bsp:
        entities = read_entities(bsp.content(bsp.family.entities))
        try:
            models = bsp.records("MODELS")
        except Exception:  # noqa: BLE001 - no fixed-size MODELS: not judged
            return set()
    faces = next(n for n in ("numfaces", "num_surfaces") if n in models.dtype.names)
    if not len(models) or not models[0][faces]:
        return set()
    lo, hi = [[float(v) for v in models[0][k]] for k in ("mins", "maxs")]
    out = set()
    for index, entity in enumerate(entities):
        if first(entity, "classname").lower() in LIGHTS:
            continue
        text, model = first(entity, "origin"), first(entity, "model")
        number = int(model[1:]) if re.fullmatch(r"\*\d+", model) else 0
        if not 0 < number < len(models):
            number = 0
        if not text and not number:
            continue
        try:
            origin = [float(v) for v in text.split()] if text else [0.0] * 3
        except ValueError:
            continue
        if len(origin) != 3:
            continue
        mins = [o + float(v) for o, v in zip(origin, models[number]["mins"])] if number else origin
        maxs = [o + float(v) for o, v in zip(origin, models[number]["maxs"])] if number else origin
        if any(a > h + 1 or b < w - 1 for a, b, w, h in zip(mins, maxs, lo, hi)):
            out.add((index, "origin", text) if text else (index, "model", model))
    return out


@needs_corpus
@pytest.mark.full
@pytest.mark.parametrize("name", ALL + CONTENT_MAPS)
def test_outside_and_duplicate_are_real_everywhere(name):
    """Every `outside` warning on every map is an entity outside the world (proved from the raw
    text and MODELS, lights only the compiler places left out) and each such entity is warned;
    a `duplicate` problem is a second worldspawn only."""
    path = CORPUS / name
    _, found = findings(path)
    assert {(f["entity"]["index"], f["key"], f["value"]) for f in found
            if f["kind"] == "outside"} == expected_outside(path)
    assert all(f["severity"] == "warning" for f in found if f["kind"] == "outside")
    assert all(f["value"] == "worldspawn" for f in found
               if f["kind"] == "duplicate" and f["severity"] == "problem")
