"""A newcomer's first hour (issue 29): each reproducer replayed through the real command line.
`-o DIR/`, folder permissions, an edited .ent kept, `each` with a command's --json and with
maps that have no config, and the messages that used to leave the user guessing."""
from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import synthetic
from conftest import ROOT, run_cli

TINY = ROOT / "tests" / "data" / "tiny.bsp"


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "c1.bsp"
    shutil.copyfile(TINY, path)
    return path


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """A file of the user's that no command was told to write (a Quake 3 map, say)."""
    path = tmp_path / "victim.bsp"
    path.write_bytes(synthetic.sample("q3"))
    return path


# -- 4: a trailing separator names a folder ------------------------------------------------
SET_SKY = ["ent", "set", "{map}", "--where", "classname=worldspawn", "skyname=sky_x"]


@pytest.mark.parametrize("argv", [
    SET_SKY + ["-o", "{out}"], ["ent", "export", "{map}", "-o", "{out}"],
    ["lump", "extract", "{map}", "ENTITIES", "-o", "{out}"], ["rewrite", "{map}", "-o", "{out}"],
    ["lump", "export", "{map}", "ENTITIES", "-o", "{out}"],
], ids=["ent-set", "ent-export", "lump-extract", "rewrite", "lump-export"])
def test_a_trailing_slash_never_writes_over_a_file(tiny, victim, argv):
    before = victim.read_bytes()
    line = [w.replace("{map}", str(tiny)).replace("{out}", f"{victim}/") for w in argv]
    result = run_cli(*line)
    assert result.returncode == 2, result.stderr
    assert "trailing separator names a folder" in result.stderr and "is a file" in result.stderr
    assert victim.read_bytes() == before
    assert sorted(p.name for p in victim.parent.iterdir()) == ["c1.bsp", "victim.bsp"]


def test_a_trailing_slash_on_a_missing_folder_is_refused(tiny, tmp_path):
    result = run_cli(*[w.replace("{map}", str(tiny)) for w in SET_SKY], "-o", f"{tmp_path / 'new'}/")
    assert result.returncode == 2 and "it does not exist" in result.stderr
    assert not (tmp_path / "new").exists()


def test_a_trailing_slash_on_a_folder_writes_inside_under_the_input_name(tiny, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    assert run_cli(*[w.replace("{map}", str(tiny)) for w in SET_SKY],
                   "-o", f"{out}/").returncode == 0
    assert run_cli("ent", "export", out / "c1.bsp", "-o", f"{out}/").returncode == 0
    assert sorted(p.name for p in out.iterdir()) == ["c1.bsp", "c1.ent"]
    assert b'"skyname" "sky_x"' in (out / "c1.ent").read_bytes()
    assert run_cli("rewrite", tiny, "-o", f"{out}{os.sep}", "--layout", "compact").returncode == 0
    assert (out / "c1.bsp").read_bytes() == tiny.read_bytes()     # the map written, not an edit
    # a verb whose output has no name to take from the input says to name it
    result = run_cli("lump", "extract", tiny, "ENTITIES", "-o", f"{out}/")
    assert result.returncode == 2 and "name the file to write inside it" in result.stderr


def test_the_api_refuses_a_trailing_slash_too(tiny, victim):
    import bspedit

    before = victim.read_bytes()
    with bspedit.open(tiny) as bsp:
        bsp.entities().worldspawn["skyname"] = "sky_x"
        with pytest.raises(bspedit.BspError, match="trailing separator"):
            bsp.save(f"{victim}/")
    assert victim.read_bytes() == before


# -- 5: extracted folders follow the umask ---------------------------------------------------
def _with_umask(mask: int, *argv: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bspedit", *map(str, argv)], text=True,
                          capture_output=True, preexec_fn=lambda: os.umask(mask))


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
@pytest.mark.parametrize("mask", [0o022, 0o002, 0o027])
def test_pak_extract_and_dump_make_folders_as_mkdir_does(tiny, tmp_path, mask):
    packed = tmp_path / "packed.bsp"
    payload = tmp_path / "a.vmt"
    payload.write_text('"UnlitGeneric" {}')
    assert run_cli("pak", "add", tiny, payload, "--as", "materials/x/a.vmt",
                   "-o", packed).returncode == 0
    folders = {"pak": tmp_path / "pak", "dump": tmp_path / "deep" / "dump"}
    assert _with_umask(mask, "pak", "extract", packed, folders["pak"]).returncode == 0
    assert _with_umask(mask, "dump", tiny, folders["dump"]).returncode == 0
    made = [folders["pak"], folders["pak"] / "materials", folders["pak"] / "materials" / "x",
            folders["dump"], folders["dump"].parent]
    for folder in made:
        assert stat.S_IMODE(folder.stat().st_mode) == 0o777 & ~mask, folder
    assert stat.S_IMODE((folders["pak"] / "materials" / "x" / "a.vmt").stat().st_mode) == \
        0o666 & ~mask


# -- 6: an edited MAP.ent is kept ------------------------------------------------------------
def test_ent_export_does_not_overwrite_an_existing_ent_unless_asked(tiny):
    ent = tiny.with_suffix(".ent")
    assert run_cli("ent", "export", tiny).returncode == 0
    ent.write_bytes(ent.read_bytes() + b"// my edit\n")
    edited = ent.read_bytes()
    result = run_cli("ent", "export", tiny)
    assert result.returncode == 2 and f"{ent} exists" in result.stderr
    assert f"-o {ent}" in result.stderr and "--force" in result.stderr
    assert ent.read_bytes() == edited
    assert run_cli("ent", "export", tiny, "-o", ent).returncode == 0     # named: replaced
    assert ent.read_bytes() != edited
    ent.write_bytes(edited)
    assert run_cli("ent", "export", tiny, "--force").returncode == 0
    assert ent.read_bytes() == edited[:-len(b"// my edit\n")]


# -- 7 and 8: `each` -------------------------------------------------------------------------
@pytest.fixture
def maps(tmp_path: Path) -> Path:
    folder = tmp_path / "maps"
    folder.mkdir()
    for name in ("ze_one.bsp", "ze_two.bsp", "de_three.bsp"):
        shutil.copyfile(TINY, folder / name)
    return folder


def test_each_with_the_commands_own_json_gives_json_lines(maps):
    result = run_cli("each", maps, "--", "checksum", "--json")
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.returncode == 0 and "==" not in result.stdout
    assert [o.get("map") for o in objects[:-1]] == [str(p) for p in sorted(maps.iterdir())]
    assert all(o["verb"] == "checksum" and o["result"]["checksums"] for o in objects[:-1])
    assert objects[-1]["summary"]["done"] == 3


def test_each_patch_config_dir_leaves_maps_without_a_config_alone(maps, tmp_path):
    configs = tmp_path / "stripper"
    (configs / "maps").mkdir(parents=True)
    (configs / "maps" / "ze.cfg").write_text(
        'modify:\n{\n match:\n {\n "classname" "worldspawn"\n }\n'
        ' insert:\n {\n "patched" "1"\n }\n}\n')
    before = {p.name: p.read_bytes() for p in maps.iterdir()}
    result = run_cli("each", maps, "--json", "--", "patch", "--config-dir", configs, "--in-place")
    objects = {o.get("map"): o for o in map(json.loads, result.stdout.splitlines())}
    summary = objects.pop(None)["summary"]
    assert summary == {"maps": 3, "done": 2, "unchanged": 1, "failed_checks": 0, "bad_input": 0,
                       "internal_errors": 0, "interrupted": 0, "exit": 1}
    assert result.returncode == 1
    lonely = objects[str(maps / "de_three.bsp")]
    assert lonely["exit"] == 1 and "no config for map 'de_three'" in lonely["error"]
    assert (maps / "de_three.bsp").read_bytes() == before["de_three.bsp"]
    assert (maps / "ze_one.bsp").read_bytes() != before["ze_one.bsp"]


# -- 9: messages -----------------------------------------------------------------------------
def test_each_on_a_folder_whose_maps_are_in_subfolders_hints_at_r(maps, tmp_path):
    result = run_cli("each", tmp_path, "--", "verify")
    assert result.returncode == 2
    assert "only in its subfolders: `bspedit each -r FOLDER -- COMMAND`" in result.stderr
    assert run_cli("each", "-r", tmp_path, "--", "verify").returncode == 0


def test_a_glob_matching_nothing_says_so(maps):
    result = run_cli("each", f"{maps}/cp_*.bsp", "--", "verify")
    assert result.returncode == 2 and "cp_*.bsp: cannot open: no file matches this pattern" \
        in result.stderr
    assert "No such file" not in result.stderr


def test_a_second_map_points_to_each_with_the_verbs_usage(tiny):
    result = run_cli("verify", tiny, tiny)
    assert result.returncode == 2
    assert result.stderr.startswith("usage: bspedit verify ")
    assert "unrecognized arguments" in result.stderr and "bspedit each MAP... -- verify" \
        in result.stderr
    result = run_cli("lump", "list", tiny, "--bogus")
    assert result.stderr.startswith("usage: bspedit lump list ")


def test_the_map_after_the_keyvalues_is_named(tiny, tmp_path):
    result = run_cli("ent", "set", "--where", "classname=worldspawn", "skyname=x", tiny,
                     "-o", tmp_path / "out.bsp")
    assert result.returncode == 2
    assert f"skyname=x is not a map and {tiny} is: the map comes first" in result.stderr


def test_a_config_before_the_map_is_named_without_suggesting_force(tiny, tmp_path):
    config = tmp_path / "cfg.cfg"
    config.write_text('filter:\n{\n "classname" "light"\n}\n')
    result = run_cli("patch", config, tiny, "-o", tmp_path / "out.bsp")
    assert result.returncode == 2 and "the map comes first" in result.stderr
    assert "--force" not in result.stderr and not (tmp_path / "out.bsp").exists()


def test_verify_and_ent_query_label_their_offsets(write_map):
    path = write_map(synthetic.make_map("source", {0: b'{\n"classname" "worldspawn"\n}\n}\0'}))
    verify = run_cli("verify", path)
    query = run_cli("ent", "query", path)
    assert verify.returncode == 1 and query.returncode == 2
    assert ": lump 0 (ENTITIES): file offset " in verify.stdout
    assert ": lump 0 (ENTITIES): lump offset 29: line 4, column 1" in query.stderr


def test_the_top_level_help_names_every_verb_of_each_group():
    from bspedit.cli import COMMANDS, SUMMARIES, build_parser, subcommand

    listing = run_cli("--help").stdout
    groups = 0
    for command in COMMANDS:
        assert re.search(rf"^    {command} ", listing, re.M), command
        parser = subcommand(build_parser(command), command)
        assert parser is not None
        for action in (a for a in parser._actions if a.dest == "verb" and a.choices):
            groups += 1
            summary = SUMMARIES[command]
            assert [v for v in action.choices if not re.search(rf"\b{v}\b", summary)] == []
    assert groups == 6         # ent, lump, props, gamelump, pak, tex


def test_pak_list_has_column_headers(tiny):
    assert run_cli("pak", "list", tiny).stdout.splitlines()[0].split() == \
        ["size", "stored", "method", "crc32", "name"]
