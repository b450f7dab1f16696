"""`ent check` and `patch --check` (issue 34) on real maps of every family: each dangling link
it reports is proved dangling from the raw entity text by the oracle in `logic_oracle` (its own
reader and the engines' matching rules), and each one the oracle finds is reported."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CORPUS
from logic_oracle import (
    first,
    game_creates,
    goldsrc_runtime,
    multi_manager_targets,
    output_fields,
    reached,
    read_entities,
    source_name_or_class,
    source_runtime,
    spawns_a_class,
)

import bspedit
from bspedit.cli import invoke

CONTENT = CORPUS.parent / "content"
STRIPPER = CORPUS.parent / "stripper-configs" / "gflze-csgo-ze"
# Maps with links, one or more per family (the fast run); `--full` adds every corpus map.
FAST = ["q1/librequake_start_bspx.bsp", "goldsrc/svenquake2_q2dm1_13lumps.bsp",
        "q2/opentdm_q2pduel4_dirtypad.bsp", "q3/openarena_oa_ctf2.bsp",
        "source/portalmp_background01.bsp", "source/opendm_background01.bsp"]
ALL = sorted(str(p.relative_to(CORPUS)) for p in CORPUS.glob("*/*.bsp"))
CONTENT_MAPS = sorted(str(p) for p in CONTENT.glob("*/maps/*.bsp"))
# Keys every class of these engines reads as target names (Source keys depend on the class).
KEYS = {"q1": ("target", "killtarget"), "goldsrc": ("target", "killtarget", "master"),
        "q2": ("target", "killtarget", "pathtarget", "deathtarget", "combattarget"),
        "q3": ("target",)}

needs_corpus = pytest.mark.skipif(not CORPUS.exists(), reason="../shared/corpus not present")
needs_content = pytest.mark.skipif(not CONTENT.exists(), reason="../shared/content not present")


def family_of(path: Path) -> str:
    with bspedit.open(path) as bsp:
        return "source" if bsp.family.engine == "source" else bsp.family.key


def raw_entities(path: Path) -> list[list[tuple[str, str]]]:
    with bspedit.open(path) as bsp:
        return read_entities(bsp.content(bsp.family.entities))


def findings(*argv: str) -> tuple[int, list[dict]]:
    report = invoke(["ent", "check", *argv, "--json"], capture=True)
    return report.code, (report.result or {}).get("findings", [])


def target_name(family: str, classname: str, key: str, value: str) -> tuple[str, bool]:
    """The name a reported link names, and whether it is an output."""
    if family == "source" and (fields := output_fields(value)):
        return fields[0], True
    if key.lower() == "parentname":
        return value.split(",", 1)[0], False
    if classname == "multi_manager" and key.lower() not in ("target", "killtarget", "master"):
        return key.split("#", 1)[0], False
    return value, False


def name_only_key(classname: str, key: str) -> bool:
    """Whether the engine looks `key` of `classname` up by name only: srctools' database types
    it as a name, and the engine's code does not fall back on classnames."""
    from srctools.fgd import EntityDef

    if source_name_or_class(classname, key):
        return False
    try:
        definition = EntityDef.engine_def(classname.lower())
    except KeyError:
        return key.lower() in ("target", "parentname")
    return key.lower() in definition.kv and \
        definition.kv[key.lower()].type.name in ("TARG_DEST", "TARG_FILTER_NAME")


def assert_dangling_real(path: Path) -> None:
    family = family_of(path)
    entities = raw_entities(path)
    code, found = findings(str(path))
    spawned, given_classes = source_runtime(entities) if family == "source" else (set(), set())
    if family == "goldsrc":     # exact names; Sven Co-op's `!activator`, `!caller`
        spawned = goldsrc_runtime(entities)

    def runtime(name: str) -> bool:
        if family == "goldsrc":
            return name in spawned or name.startswith("!")
        return name.lower() in spawned

    dangling = [f for f in found if f["kind"] == "dangling"]
    for f in dangling:
        entity = entities[f["entity"]["index"]]
        classname = first(entity, "classname")
        assert classname == f["entity"]["classname"]
        assert first(entity, "targetname") == f["entity"]["targetname"]
        assert (f["key"], f["value"]) in entity, f
        assert f["key"] and not spawns_a_class(family, classname, f["key"]), f
        name, output = target_name(family, classname, f["key"], f["value"])
        assert not name.startswith("!") or family != "source", f
        assert not runtime(name), f
        assert reached(family, entities, name, by_class=False) == [], f
        if output or (family == "source" and not name_only_key(classname, f["key"])):
            assert reached(family, entities, name, by_class=True) == [], f
            assert not game_creates(name, given_classes), f
    # and every dangling link the oracle sees is reported
    expected = set()
    for index, entity in enumerate(entities):
        classname = first(entity, "classname")
        for key, value in entity:
            if family == "source":
                fields = output_fields(value)
                if key and fields and not fields[0].startswith("!") and not runtime(fields[0]) \
                        and not reached(family, entities, fields[0], by_class=True) \
                        and not game_creates(fields[0], given_classes):
                    expected.add((index, key, value))
            elif key.lower() in KEYS.get(family, KEYS["q1"]) and value \
                    and not spawns_a_class(family, classname, key) and not runtime(value) \
                    and not reached(family, entities, value, by_class=False):
                expected.add((index, key, value))
        if family == "goldsrc" and classname == "multi_manager":
            expected |= {(index, key, dict(entity)[key]) for key, name in multi_manager_targets(entity)
                         if not runtime(name) and not reached(family, entities, name, by_class=False)}
    reported = {(f["entity"]["index"], f["key"], f["value"]) for f in dangling}
    assert expected <= reported
    if family != "source":       # Source keys beyond outputs come from the FGD
        assert reported == expected
    assert code == (1 if any(f["severity"] == "problem" for f in found) else 0)


@needs_corpus
@pytest.mark.parametrize("name", FAST)
def test_reported_dangling_links_are_real(name):
    assert_dangling_real(CORPUS / name)


@needs_corpus
@pytest.mark.full
@pytest.mark.parametrize("name", [n for n in ALL if n not in FAST] + CONTENT_MAPS)
def test_reported_dangling_links_are_real_everywhere(name):
    assert_dangling_real(CORPUS / name)


@needs_corpus
def test_found_dangling_on_real_maps():
    """The corpus holds real dangling links: check finds them (counted from the raw text)."""
    code, found = findings(str(CORPUS / "source/opendm_background01.bsp"))
    assert code == 1
    assert sum(f["kind"] == "dangling" for f in found) == 30


@needs_corpus
def test_family_case_rules(tmp_path):
    """Quake 1 and GoldSrc compare names with strcmp: `Door` does not reach `door`; Quake 2
    and 3 with Q_stricmp: it does."""
    for name, dangling in (("q1/slipgate_b_batt0.bsp", True), ("goldsrc/hltopdown_test.bsp", True),
                           ("q2/bsptool_q2_mp_lobby.bsp", False), ("q3/bsptool_q3_mp_lobby.bsp", False)):
        out = tmp_path / Path(name).name
        shutil.copyfile(CORPUS / name, out)
        assert invoke(["ent", "add", str(out), "classname=info_null", "targetname=door",
                       "--in-place"], capture=True).code == 0
        assert invoke(["ent", "add", str(out), "classname=trigger_relay", "target=Door",
                       "--in-place"], capture=True).code == 0
        _, found = findings(str(out))
        assert any(f["kind"] == "dangling" and f["value"] == "Door" for f in found) == dangling, name


@needs_corpus
def test_source_inputs_by_the_fgd(tmp_path):
    """An input the target's class lacks in srctools' database is a problem; the same input
    on a class the database does not know is not judged; a user FGD is read first."""
    from srctools.fgd import EntityDef

    out = tmp_path / "map.bsp"
    shutil.copyfile(CORPUS / "source/portalmp_background01.bsp", out)
    with bspedit.open(out) as bsp:
        lump = bsp.entities()
        lump.add_entity({"classname": "logic_relay", "targetname": "relay"})
        lump.add_entity({"classname": "my_mod_thing", "targetname": "thing"})
        auto = lump.add_entity({"classname": "logic_auto"})
        auto.outputs.add("OnMapSpawn", "relay", "Trigger")
        auto.outputs.add("OnMapSpawn", "relay", "FlyAway")
        auto.outputs.add("OnMapSpawn", "thing", "FlyAway")
        bsp.save()
    assert "flyaway" not in EntityDef.engine_def("logic_relay").inp
    assert "trigger" in EntityDef.engine_def("logic_relay").inp
    code, found = findings(str(out))
    inputs = [f for f in found if f["kind"] == "input"]
    assert [(f["entity"]["classname"], f["value"]) for f in inputs] == [
        ("logic_auto", "relay,FlyAway,,0,-1")]
    assert code == 1
    fgd = tmp_path / "mod.fgd"
    fgd.write_text('@PointClass = my_mod_thing : "x"\n[\n\tinput Wobble(void) : ""\n]\n'
                   '@PointClass = logic_relay : "x"\n[\n\tinput FlyAway(void) : ""\n]\n')
    _, found = findings(str(out), "--fgd", str(fgd))
    assert sorted(f["value"] for f in found if f["kind"] == "input") == [
        "relay,Trigger,,0,-1", "thing,FlyAway,,0,-1"]


@needs_corpus
def test_duplicate_worldspawn_and_outside(tmp_path):
    out = tmp_path / "map.bsp"
    shutil.copyfile(CORPUS / "q1/ericw_q1_cube_bspx.bsp", out)
    code, found = findings(str(out))
    # the cube's player start stands at z 136, above the world (z 81 to 111): a warning
    assert code == 0 and [(f["kind"], f["severity"], f["value"]) for f in found] == [
        ("outside", "warning", "56 -208 136")]
    with bspedit.open(out) as bsp:
        assert bsp.records("MODELS")[0]["maxs"][2] < 136
    assert invoke(["ent", "add", str(out), "classname=worldspawn", "--in-place"],
                  capture=True).code == 0
    code, found = findings(str(out))
    assert code == 1 and [f["entity"]["index"] for f in found if f["kind"] == "duplicate"] == [2]


@needs_content
def test_asset_keys_with_game():
    """With --game, an asset key naming a file neither packed nor in the game is reported:
    proved by listing the pakfile and the mod's folder. msrc's base game (HL2, EP2) is not on
    this machine, so it is unknown, not a problem (test_pack_content has the problem)."""
    import zipfile

    game = CONTENT / "msrc"
    path = game / "maps" / "dissenter.bsp"
    code, found = findings(str(path), "--game", str(game))
    assets = [f for f in found if f["kind"] == "asset"]
    assert code == 0 and assets and {f["severity"] for f in assets} == {"unknown"}
    files = {str(p.relative_to(game)).lower() for p in game.rglob("*") if p.is_file()}
    with bspedit.open(path) as bsp:
        packed = {n.lower() for n in zipfile.ZipFile(__import__("io").BytesIO(
            bsp.content("PAKFILE"))).namelist()}
    for f in assets:
        wanted = f["message"].split(" is neither")[0]
        assert wanted not in files and wanted not in packed
    assert invoke(["ent", "check", str(path)], capture=True).code == 0   # no --game: no asset check


@needs_corpus
def test_patch_check_catches_a_removed_target(tmp_path):
    """A real Stripper config (it removes every point_viewcontrol) on a real map whose
    logic_auto enables one: patch --check refuses it, exit 1, nothing written."""
    config = STRIPPER / "ze_thriller_escape_p.cfg"
    if not config.exists():
        pytest.skip("../shared/stripper-configs not present")
    source = CORPUS / "source/portalmp_background01.bsp"
    entities = raw_entities(source)
    view = [i for i, e in enumerate(entities) if first(e, "classname") == "point_viewcontrol"]
    name = first(entities[view[0]], "targetname")
    aimed = [(k, v) for e in entities for k, v in e if (f := output_fields(v)) and f[0] == name]
    assert aimed            # the map fires it: OnMapSpawn main_viewcontrol,Enable
    out = tmp_path / "out.bsp"
    report = invoke(["patch", str(source), str(config), "--check", "-o", str(out), "--json"],
                    capture=True)
    assert report.code == 1 and not out.exists()
    new = report.result["check"]
    assert {(f["key"], f["value"]) for f in new if f["kind"] == "dangling"} == set(aimed)
    assert report.result["written"] is None
    # without --check the same patch is written; a harmless config passes --check
    assert invoke(["patch", str(source), str(config), "-o", str(out)], capture=True).code == 0
    harmless = tmp_path / "ok.cfg"
    harmless.write_text('add:\n{\n"classname" "info_target"\n"targetname" "added"\n}\n')
    out.unlink()
    report = invoke(["patch", str(source), str(harmless), "--check", "-o", str(out), "--json"],
                    capture=True)
    assert report.code == 0 and out.exists()
    assert [f["kind"] for f in report.result["check"]] == ["untargeted"]


@needs_corpus
def test_each_runs_check_over_a_folder(tmp_path):
    maps = tmp_path / "maps"
    maps.mkdir()
    for name in ("q1/slipgate_b_batt0.bsp", "source/portalmp_background01.bsp"):
        shutil.copyfile(CORPUS / name, maps / Path(name).name)
    done = subprocess.run([sys.executable, "-m", "bspedit", "each", "--json", "-j", "1",
                           str(maps), "--", "ent", "check"], check=False, capture_output=True, text=True)
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    by_map = {Path(r["map"]).name: r["exit"] for r in lines[:-1]}
    assert by_map == {"slipgate_b_batt0.bsp": 0, "portalmp_background01.bsp": 1}
    assert lines[-1]["summary"]["failed_checks"] == 1 and done.returncode == 1


@needs_corpus
def test_careless_user(tmp_path):
    path = CORPUS / "source/opendm_background01.bsp"
    assert invoke(["ent", "check", str(tmp_path)], capture=True).code == 2       # a folder
    assert invoke(["ent", "check", str(tmp_path / "none.bsp")], capture=True).code == 2
    report = invoke(["ent", "check", str(path), "--fgd", str(tmp_path / "none.fgd")], capture=True)
    assert report.code == 2 and "no such FGD file" in report.stderr
    (tmp_path / "bad.fgd").write_text("@PointClass = [[[\n")
    report = invoke(["ent", "check", str(path), "--fgd", str(tmp_path / "bad.fgd")], capture=True)
    assert report.code == 2 and "not a valid FGD" in report.stderr
    done = subprocess.run(f"'{sys.executable}' -m bspedit ent check '{path}' | head -1",
                          shell=True, check=False, capture_output=True, text=True)
    assert done.stdout.startswith("problem: entity") and done.stderr == ""
