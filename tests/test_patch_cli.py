"""`bspedit patch`: Stripper configs applied to map files, --lint, --strict, --plugin-output."""
from __future__ import annotations

import json
import shutil

import pytest

import synthetic
from bspedit.patching import stripper
from bspedit.bsp import Bsp
from bspedit.lumps.entities import EntityLump
from bspedit.container.mapsums import map_checksums
from conftest import corpus_maps, run_cli
from test_stripper import FAULTS, LUMP

FILTER_LIGHTS = 'filter:\n{\n"classname" "light"\n}\n'
ADD_TARGET = 'add:\n{\n"classname" "info_target"\n"targetname" "patched"\n}\n'


@pytest.fixture
def source_map(write_map):
    return write_map(synthetic.make_map("source", {0: LUMP, 1: synthetic.records(20, 3),
                                                   3: synthetic.records(12, 5)}, order=[1, 3, 0]),
                     "ze_test_v2.bsp")


@pytest.fixture
def config(tmp_path):
    def write(text: str, name: str = "patch.cfg"):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return path
    return write


def assert_only_entities_changed(original, edited) -> None:
    with Bsp.open(original) as before, Bsp.open(edited) as after:
        assert map_checksums(after)["crc32"] == map_checksums(before)["crc32"]
        for old, new in zip(before.lumps, after.lumps):
            if old.index != before.family.entities:
                assert after.read_lump(new.index) == before.read_lump(old.index), old.name


def entities(path) -> bytes:
    with Bsp.open(path) as bsp:
        return bsp.entities().to_bytes()


def test_patch_applies_and_reports_each_block(source_map, config, tmp_path):
    out = tmp_path / "out.bsp"
    cfg = config(FILTER_LIGHTS + ADD_TARGET + 'filter:\n{\n"classname" "nothing"\n}\n')
    result = run_cli("patch", source_map, cfg, "-o", out, "--keep-checksum")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert f"{cfg}:2: filter: removed 1 entity: light 'lamp'" in lines
    assert f"{cfg}:6: add: added info_target 'patched'" in lines
    assert f"{cfg}:11: filter: matched nothing" in lines
    assert "total: 3 blocks (1 matched nothing): 1 removed, 1 added, 0 modified entities" in lines
    assert "map checksum crc32" in result.stdout and "(unchanged)" in result.stdout
    expected = EntityLump.parse(LUMP)
    stripper.apply(stripper.load_config(cfg), expected)
    assert entities(out) == expected.to_bytes()
    assert_only_entities_changed(source_map, out)


def test_config_that_changes_nothing_exits_1_and_writes_nothing(source_map, config, tmp_path):
    cfg = config('filter:\n{\n"classname" "nothing"\n}\nmodify:\n{\nmatch:\n{\n"targetname" "relay"\n}\n'
                 'replace:\n{\n"spawnflags" "0"\n}\n}\n')
    result = run_cli("patch", source_map, cfg, "-o", tmp_path / "out.bsp")
    assert result.returncode == 1 and not (tmp_path / "out.bsp").exists()
    assert result.stderr == f"bspedit: {source_map}: nothing matched: the configs change no " \
        "entity; nothing written\n"
    copy = tmp_path / "copy.bsp"
    shutil.copy(source_map, copy)
    assert run_cli("patch", copy, cfg, "--in-place").returncode == 1
    assert copy.read_bytes() == source_map.read_bytes()
    assert run_cli("patch", source_map, cfg, "--dry-run").returncode == 1


def test_dry_run_and_json_write_nothing(source_map, config, tmp_path):
    cfg = config(FILTER_LIGHTS)
    before = source_map.read_bytes()
    result = run_cli("patch", source_map, cfg, "--dry-run")
    assert result.returncode == 0 and "removed 1 entity" in result.stdout
    assert "would write" in result.stdout and "dry run" not in result.stdout   # save's own words
    result = run_cli("patch", source_map, cfg, "--dry-run", "--json")
    report = json.loads(result.stdout)["result"]
    assert report["blocks"][0] | {"source": None} == {
        "source": None, "line": 2, "end": 4, "kind": "filter", "matched": 1,
        "removed": ["light 'lamp'"], "added": [], "modified": [],
        "keyvalues": {"deleted": 0, "replaced": 0, "inserted": 0}, "hint": None}
    assert report["totals"]["removed"] == 1 and report["written"] is None
    assert source_map.read_bytes() == before and list(source_map.parent.glob("*.bsp")) == [source_map]


def test_json_with_output_keeps_stdout_json(source_map, config, tmp_path):
    result = run_cli("patch", source_map, config(ADD_TARGET), "-o", tmp_path / "o.bsp", "--json")
    assert result.returncode == 0
    assert json.loads(result.stdout)["result"]["written"] == str(tmp_path / "o.bsp")
    assert set(json.loads(result.stdout)["result"]["save"]["checksums"]) == {"crc32"}


def test_warnings_by_default_strict_refuses(source_map, config, tmp_path):
    cfg = config(FILTER_LIGHTS + 'add:\n"classname" "info_target"\n}\n')
    result = run_cli("patch", source_map, cfg, "-o", tmp_path / "a.bsp")
    assert result.returncode == 0
    assert f"bspedit: warning: {cfg}:6: outside-block: lines 6-7 are outside any block" in result.stderr
    result = run_cli("patch", source_map, cfg, "-o", tmp_path / "b.bsp", "--strict")
    assert result.returncode == 1 and not (tmp_path / "b.bsp").exists()
    assert result.stderr.splitlines() == [
        f"bspedit: {cfg}:6: outside-block: lines 6-7 are outside any block: ignored "
        "(no '{' after add: at line 5)",
        "bspedit: --strict: 1 problem(s) in the configs; nothing written"]
    assert run_cli("patch", source_map, config(FILTER_LIGHTS, "ok.cfg"), "--strict",
                   "-o", tmp_path / "c.bsp").returncode == 0


def test_lint(config):
    result = run_cli("patch", "--lint", FAULTS)
    assert result.returncode == 1
    printed = [line.split(": ")[0] for line in result.stdout.splitlines()]
    found = stripper.load_config(FAULTS).diagnostics
    assert printed == [f"{FAULTS}:{d.line}" for d in found] and len(found) == 26
    assert "26 problem(s) in 1" in result.stderr
    clean = config(FILTER_LIGHTS + ADD_TARGET)
    result = run_cli("patch", "--lint", clean)
    assert result.returncode == 0 and result.stdout == "" and "clean" in result.stderr
    result = run_cli("patch", "--lint", "map.bsp", clean)
    assert result.returncode == 2 and "map.bsp: --lint reads configs, not maps" in result.stderr
    result = run_cli("patch", "--lint", clean.parent, "--json")
    report = json.loads(result.stdout)["result"]
    assert result.returncode == 0 and report["diagnostics"] == 0
    assert report["configs"] == [{"name": str(clean), "blocks": 2, "diagnostics": []}]


def test_config_dir_applies_global_then_each_prefix(source_map, config, tmp_path):
    config(ADD_TARGET, "stripper/global_filters.cfg")
    config('modify:\n{\nmatch:\n{\n"targetname" "patched"\n}\ninsert:\n{\n"order" "ze"\n}\n}\n',
           "stripper/maps/ze.cfg")
    config('modify:\n{\nmatch:\n{\n"targetname" "patched"\n}\nreplace:\n{\n"order" "ze_test_v2"\n}\n}\n',
           "stripper/maps/ze_test_v2.cfg")
    config(FILTER_LIGHTS, "stripper/maps/ze_other.cfg")
    out = tmp_path / "out.bsp"
    result = run_cli("patch", source_map, "--config-dir", tmp_path / "stripper", "-o", out)
    assert result.returncode == 0, result.stderr
    d = tmp_path / "stripper"
    assert result.stdout.splitlines()[0] == \
        f"configs: {d}/global_filters.cfg, {d}/maps/ze.cfg, {d}/maps/ze_test_v2.cfg"
    patched = list(EntityLump.parse(entities(out)))
    assert patched[-1].pairs() == [("classname", "info_target"), ("targetname", "patched"),
                                   ("order", "ze_test_v2")]
    assert [e.get("classname") for e in patched].count("light") == 1
    result = run_cli("patch", source_map, "--config-dir", d, "--map-name", "ze_other", "--dry-run")
    assert "removed 1 entity" in result.stdout and "ze_test_v2.cfg" not in result.stdout
    result = run_cli("patch", source_map, "--config-dir", d, "--map-name", "ZE_OTHER", "--lowercase",
                     "--dry-run")
    assert "maps/ze_other.cfg" in result.stdout
    before = source_map.read_bytes()
    result = run_cli("patch", source_map, "--config-dir", d / "maps", "--in-place")
    # the plugin loads nothing for such a map: nothing to do (exit 1), the map untouched
    assert result.returncode == 1 and "no config for map 'ze_test_v2' in " in result.stderr
    assert "(tried global_filters.cfg, maps/ze.cfg, maps/ze_test.cfg, maps/ze_test_v2.cfg)" \
        in result.stderr and "left untouched" in result.stderr
    assert source_map.read_bytes() == before


def test_plugin_output_rewrites_like_the_plugin(source_map, config, tmp_path):
    out = tmp_path / "out.bsp"
    cfg = config(ADD_TARGET)
    assert run_cli("patch", source_map, cfg, "-o", out, "--plugin-output").returncode == 0
    assert entities(out) == stripper.plugin_text(LUMP)[:-1] + \
        b'{\n"classname" "info_target"\n"targetname" "patched"\n}\x00'
    assert b'"target" ""' not in entities(out)
    assert_only_entities_changed(source_map, out)


def test_plugin_output_reads_malformed_entity_text_as_the_plugin_does(write_map, config, tmp_path):
    # a stray '}', a key without a value, a value with \" (its quote runs to the end)
    text = (b'{\n"classname" "worldspawn"\n}\n}\n{\n"classname" "light"\n"lone"\n"k" "v"\n}\n'
            b'{\n"a" "b\\"c"\n}\n{\n"classname" "info_target"\n}\n\x00')
    source = write_map(synthetic.make_map("source", {0: text}))
    out = tmp_path / "out.bsp"
    cfg = config(ADD_TARGET)
    result = run_cli("patch", source, cfg, "-o", out)
    assert result.returncode == 2 and "'}' outside an entity" in result.stderr
    result = run_cli("patch", source, cfg, "-o", out, "--plugin-output")
    assert result.returncode == 0, result.stderr
    assert entities(out) == (b'{\n"classname" "worldspawn"\n}{\n"classname" "light"\n"k" "v"\n}'
                             b'{\n"classname" "info_target"\n"targetname" "patched"\n}\x00')


@pytest.mark.parametrize("args, message", [
    ((), "give MAP and configs"),
    (("{map}",), "nothing to apply"),
    (("{map}", "missing.cfg"), "missing.cfg: No such file"),
    (("--map-name", "x", "{map}", "{cfg}"), "--map-name and --lowercase go with --config-dir"),
])
def test_bad_input_is_one_line_exit_2(source_map, config, args, message):
    cfg = config(FILTER_LIGHTS)
    result = run_cli("patch", *[a.format(map=source_map, cfg=cfg) for a in args], "--dry-run")
    assert result.returncode == 2 and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_corpus_patch_keeps_the_checksum_and_noop_writes_nothing(path, config, tmp_path):
    with Bsp.open(path) as bsp:
        lump = bsp.entities()
        first = list(lump)[-1]                             # worldspawn if it is alone
        key, value = next((k, v) for k, v in first.pairs() if v)
    cfg = config(f'filter:\n{{\n"{key}" "{value}"\n}}\n' + ADD_TARGET)
    out = tmp_path / "out.bsp"
    result = run_cli("patch", path, cfg, "-o", out)
    if len(lump) == 1:          # the filter takes worldspawn, the only entity: --force needed
        assert result.returncode == 1 and not out.exists()
        assert "removes every entity (1 before, 0 after): refused" in result.stderr
        result = run_cli("patch", path, cfg, "-o", out, "--force")
    assert result.returncode == 0, result.stderr
    assert_only_entities_changed(path, out)
    patched = EntityLump.parse(entities(out))
    assert list(patched)[-1].get("targetname") == "patched"
    assert len(patched) < len(lump) + 1                   # at least `first` went
    noop = config('filter:\n{\n"classname" "no_such_class"\n}\n', "noop.cfg")
    assert run_cli("patch", path, noop, "-o", tmp_path / "same.bsp").returncode == 1
    assert not (tmp_path / "same.bsp").exists()
