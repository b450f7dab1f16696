"""Destructive results are refused unless asked for (--force), and every verb that edits what a
selection matches exits 1 and writes nothing when nothing matches: through the CLI, on
tests/data/tiny.bsp and on the real corpus maps."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bspedit.patching import stripper
from bspedit.bsp import Bsp
from bspedit.lumps.entities import EntityLump
from conftest import corpus_maps, run_cli

TINY = Path(__file__).resolve().parent / "data" / "tiny.bsp"
BROKEN_QUOTE = 'filter:\n{\n"classname" "light\n}\n'          # one missing closing quote
HALF_BROKEN = 'filter:\n{\n"classname" "light"\n"targetname" "lamp\n}\n'
EMPTY_FILTER = 'filter:\n{\n}\n'
BAD_REGEX = 'remove:\n{\n"classname" "/light(/"\n}\n'
FILTER_WORLDSPAWN = 'filter:\n{\n"classname" "worldspawn"\n}\n'


def entity_text(path: Path) -> bytes:
    with Bsp.open(path) as bsp:
        return bsp.entities(lenient=True).to_bytes()


def plugin_result(map_path: Path, config: Path) -> bytes:
    """The entity text the plugin's semantics give (bspedit.patching.stripper, tested in test_stripper)."""
    lump = EntityLump.parse(entity_text(map_path))
    stripper.apply(stripper.load_config(config, maps=True), lump)
    return lump.to_bytes()


@pytest.fixture
def config(tmp_path):
    def write(text: str | bytes, name: str = "patch.cfg") -> Path:
        path = tmp_path / name
        path.write_bytes(text.encode() if isinstance(text, str) else text)
        return path
    return write


def assert_refused(result, map_path: Path, original: bytes, out: Path, *expected: str) -> None:
    """Exit 1, one line on stderr saying --force, the map's bytes unchanged, no output file."""
    assert result.returncode == 1, result.stderr
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("bspedit: "), result.stderr
    assert "--force" in result.stderr and all(text in result.stderr for text in expected)
    assert map_path.read_bytes() == original and not out.exists()


def refused_then_forced(map_path: Path, cfg: Path, tmp_path: Path, *expected: str) -> None:
    original, out = map_path.read_bytes(), tmp_path / "out.bsp"
    assert_refused(run_cli("patch", map_path, cfg, "-o", out), map_path, original, out, *expected)
    assert_refused(run_cli("patch", map_path, cfg, "--dry-run"), map_path, original, out, *expected)
    result = run_cli("patch", map_path, cfg, "-o", out, "--force")
    assert result.returncode == 0, result.stderr
    assert entity_text(out) == plugin_result(map_path, cfg)


# ---------------------------------------------------------------- configs refused unless --force

@pytest.mark.parametrize("text, expected", [
    (BROKEN_QUOTE, [":3: not-a-pair:", "the filter: block at line 2 has no pair left: it removes "
                                       "every entity"]),
    (HALF_BROKEN, [":4: not-a-pair:", "the filter: block at line 2 keeps only 1 pair"]),
    (EMPTY_FILTER, [":2: empty-filter: an empty filter: block removes every entity"]),
    (BAD_REGEX, [":3: bad-regex:", "the filter: block at line 2 has no pair left"]),
    (b'filter:\n{\n"classname" "light"\n}\n\0\0', [":5: not-text: a NUL byte (offset 32)"]),
])
def test_destructive_configs_are_refused_and_forced_like_the_plugin(tmp_path, config, text, expected):
    map_path = tmp_path / "tiny.bsp"
    shutil.copyfile(TINY, map_path)
    cfg = config(text)
    refused_then_forced(map_path, cfg, tmp_path, f"bspedit: {cfg}:", *expected)
    copy = tmp_path / "copy.bsp"
    shutil.copyfile(TINY, copy)
    assert_refused(run_cli("patch", copy, cfg, "--in-place"), copy, TINY.read_bytes(),
                   tmp_path / "out2.bsp")


def test_the_broken_quote_filter_removes_every_entity_when_forced(tmp_path, config):
    out = tmp_path / "out.bsp"
    result = run_cli("patch", TINY, config(BROKEN_QUOTE), "-o", out, "--force")
    assert result.returncode == 0, result.stderr
    assert "entities: 3 before, 0 after" in result.stdout.splitlines()
    assert list(EntityLump.parse(entity_text(out))) == []     # test_empty_filter_removes_every_entity


def test_a_map_given_as_config_is_refused_and_forced_like_the_plugin(tmp_path):
    other = tmp_path / "other.bsp"
    shutil.copyfile(TINY, other)
    refused_then_forced(TINY, other, tmp_path, f"bspedit: {other}:1: not-text: starts like a BSP "
                        "map ('VBSP'), not a config")


def test_runs_leaving_no_worldspawn_are_refused_with_the_block_named(tmp_path, config):
    cfg = config(FILTER_WORLDSPAWN)
    refused_then_forced(TINY, cfg, tmp_path, f"bspedit: {cfg}: line 2: filter: removes worldspawn "
                        "(3 entities before, 2 after): refused, nothing written")
    report = json.loads(run_cli("patch", TINY, cfg, "--dry-run", "--json").stdout)["result"]
    assert report["entities"] == {"before": 3, "after": 2} and report["written"] is None
    assert report["loss"].startswith(f"{cfg}: line 2: filter: removes worldspawn")
    assert report["refused"].endswith("refused, nothing written (--force applies it as the "
                                      "plugin does)")


def test_reports_state_entities_before_and_after(tmp_path, config):
    cfg = config('filter:\n{\n"classname" "light"\n}\n')
    result = run_cli("patch", TINY, cfg, "-o", tmp_path / "out.bsp")
    assert result.returncode == 0 and "entities: 3 before, 2 after" in result.stdout.splitlines()
    report = json.loads(run_cli("patch", TINY, cfg, "-o", tmp_path / "j.bsp", "--json").stdout)["result"]
    assert report["entities"] == {"before": 3, "after": 2} and report["loss"] is None
    assert report["refused"] is None and report["written"] == str(tmp_path / "j.bsp")


def test_refusals_pick_only_destructive_findings():
    harmless = stripper.parse_config('add:\n{\n"classname" "x\n}\nmodify:\n{\nmatch:\n{\n}\n'
                                     'replace:\n{\n"a" "b"\n}\n}\n', "h.cfg")
    assert [d.kind for d in harmless.diagnostics] == ["empty-add", "not-a-pair", "empty-match"]
    assert stripper.refusals(harmless) == []
    unclosed = stripper.parse_config('filter:\n{\n"classname" "x\n', "u.cfg")   # never applied
    assert stripper.refusals(unclosed) == []


@pytest.mark.parametrize("path", corpus_maps())
def test_corpus_maps_refuse_the_broken_quote_the_empty_filter_and_a_map(path, tmp_path, config):
    original = path.read_bytes()
    out = tmp_path / "out.bsp"
    for cfg, expected in ((config(BROKEN_QUOTE), "not-a-pair"),
                          (config(EMPTY_FILTER, "empty.cfg"), "empty-filter"),
                          (path, "not-text: starts like a BSP map")):
        assert_refused(run_cli("patch", path, cfg, "-o", out), path, original, out, expected)
    cfg = config(BROKEN_QUOTE)
    result = run_cli("patch", path, cfg, "-o", out, "--force")
    assert result.returncode == 0, result.stderr
    assert entity_text(out) == plugin_result(path, cfg)
    assert not list(EntityLump.parse(entity_text(out)))


# ---------------------------------------------------------------- ent import --lenient

def test_lenient_import_names_kept_stretches_and_needs_force_without_worldspawn(tmp_path):
    broken_world = tmp_path / "world.ent"
    broken_world.write_bytes(b'{\n"classname" "worldspawn"\n"message "oops\n}\n'
                             b'{\n"classname" "light"\n}\n\0')
    out = tmp_path / "out.bsp"
    result = run_cli("ent", "import", TINY, broken_world, "--lenient", "-o", out)
    assert result.returncode == 1 and not out.exists()
    assert result.stderr.splitlines() == [
        f"bspedit: warning: {broken_world}: lines 1-4 kept verbatim (line 3, column 11: "
        "unexpected text 'oops')",
        f"bspedit: {broken_world}: the text has no worldspawn entity (1 stretch(es) kept "
        "verbatim); refused, nothing written (--force imports it anyway)"]
    result = run_cli("ent", "import", TINY, broken_world, "--lenient", "--force", "-o", out)
    assert result.returncode == 0 and entity_text(out) == broken_world.read_bytes()
    assert "lines 1-4 kept verbatim" in result.stderr

    broken_light = tmp_path / "light.ent"
    broken_light.write_bytes(b'{\n"classname" "worldspawn"\n}\n{\n"classname" "light\n}\n'
                             b'{\n"classname" "info_null"\n}\n\0')
    result = run_cli("ent", "import", TINY, broken_light, "--lenient", "-o", out)
    assert result.returncode == 0, result.stderr
    # the quoted string runs on to line 7 (the engine's tokenizer): the error shows on line 8
    assert result.stderr == f"bspedit: warning: {broken_light}: lines 4-6 kept verbatim (line 8, " \
        "column 2: unexpected text 'classname')\n"
    assert entity_text(out) == broken_light.read_bytes()


# ---------------------------------------------------------------- nothing matched: exit 1

@pytest.mark.parametrize("args, message", [
    (("ent", "set", "{map}", "--where", "classname=nope", "a=b"),
     "no entity matches --where classname=nope; nothing written"),
    (("ent", "remove", "{map}", "--where", "targetname=nope"),
     "no entity matches --where targetname=nope; nothing written"),
    (("ent", "delete-key", "{map}", "--where", "classname=nope", "origin"),
     "no entity matches --where classname=nope; nothing written"),
    (("ent", "delete-key", "{map}", "--where", "classname=light", "nope", "nada"),
     "none of the 1 entity matching --where classname=light has nope, nada; nothing written"),
    (("pak", "remove", "{map}", "materials/*.vtf"),
     "lump 40 (PAKFILE): no pak entry matches 'materials/*.vtf'; nothing written"),
    (("pak", "remove", "{map}", "--cubemaps"), "no cubemap textures in the pakfile; nothing written"),
    (("props", "remove", "{map}", "0"), "no static prop 0: the map has 0; nothing written"),
    (("patch", "{map}", "{noop}"), "nothing matched: the configs change no entity; nothing written"),
])
@pytest.mark.parametrize("target", ["-o", "--in-place"])
def test_nothing_matched_exits_1_and_writes_nothing(tmp_path, config, args, message, target):
    map_path = tmp_path / "tiny.bsp"
    shutil.copyfile(TINY, map_path)
    noop = config('filter:\n{\n"classname" "nope"\n}\n')
    out = tmp_path / "out.bsp"
    result = run_cli(*[a.format(map=map_path, noop=noop) for a in args],
                     *([target, out] if target == "-o" else [target]))
    assert result.returncode == 1
    assert result.stderr == f"bspedit: {map_path}: {message}\n"
    assert map_path.read_bytes() == TINY.read_bytes() and not out.exists()


@pytest.mark.parametrize("args, loss", [
    (("ent", "remove", "{map}", "--where", "classname=worldspawn"),
     "remove --where classname=worldspawn removes worldspawn (3 entities before, 2 after)"),
    (("ent", "remove", "{map}", "--where", "classname=*", "--match", "glob"),
     "remove --where classname=* removes every entity (3 before, 0 after)"),
    (("ent", "set", "{map}", "--where", "classname=worldspawn", "classname=world"),
     "set --where classname=worldspawn removes worldspawn (3 entities before, 3 after)"),
    (("ent", "delete-key", "{map}", "--where", "classname=worldspawn", "classname"),
     "delete-key --where classname=worldspawn removes worldspawn (3 entities before, 3 after)"),
])
def test_entity_edits_that_destroy_worldspawn_need_force(tmp_path, args, loss):
    out = tmp_path / "out.bsp"
    command = [a.format(map=TINY) for a in args] + ["-o", out]
    assert_refused(run_cli(*command), TINY, TINY.read_bytes(), out,
                   f"bspedit: {TINY}: {loss}; refused, nothing written")
    result = run_cli(*command, "--force")
    assert result.returncode == 0, result.stderr
    assert not EntityLump.parse(entity_text(out)).census().worldspawn


def test_an_entity_added_after_a_removal_keeps_its_own_place(tmp_path, config):
    """Blocks order their hits by entity position; an add after a filter once reused a position
    (an internal error, exit 3)."""
    cfg = config('filter:\n{\n"classname" "info_player_start"\n}\nadd:\n{\n"classname" "light"\n}\n'
                 'filter:\n{\n"classname" "light"\n}\n')
    out = tmp_path / "out.bsp"
    result = run_cli("patch", TINY, cfg, "-o", out)
    assert result.returncode == 0, result.stderr
    assert f"{cfg}:10: filter: removed 2 entities: light, light" in result.stdout.splitlines()
    assert entity_text(out) == plugin_result(TINY, cfg)
    assert [e.get("classname") for e in EntityLump.parse(entity_text(out))] == ["worldspawn"]
