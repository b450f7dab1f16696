"""`bspedit ent` on real maps: ripent round trips, edits that keep every other lump and the CRC."""
from __future__ import annotations

import difflib
import subprocess
import sys

import pytest

import synthetic
from bspedit.bsp import Bsp
from bspedit.container.mapsums import map_checksums
from conftest import corpus_maps, run_cli

SOURCE_AND_GOLDSRC = corpus_maps("source") + corpus_maps("goldsrc")


@pytest.mark.parametrize("path", corpus_maps())
def test_export_is_plain_text_and_import_gives_the_map_back(path, tmp_path):
    text = tmp_path / "map.ent"
    assert run_cli("ent", "export", path, "-o", text).returncode == 0
    with Bsp.open(path) as bsp:
        lump = bsp.entities().to_bytes()
    assert lump == text.read_bytes() + b"\0" and b"\0" not in text.read_bytes()
    result = run_cli("ent", "import", path, text, "-o", tmp_path / "out.bsp")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out.bsp").read_bytes() == path.read_bytes()
    with_nul = tmp_path / "old.ent"                  # an export with the NUL is stored as it is
    with_nul.write_bytes(lump)
    assert run_cli("ent", "import", path, with_nul, "-o", tmp_path / "old.bsp").returncode == 0
    assert (tmp_path / "old.bsp").read_bytes() == path.read_bytes()


def test_export_to_stdout_greps_as_text_and_import_reads_stdin(write_map, tmp_path):
    path = write_map(synthetic.sample("goldsrc"))
    export = subprocess.run(f"{sys.executable} -m bspedit ent export {path} -o - | "
                            "grep -c classname", shell=True, capture_output=True, text=True)
    assert export.returncode == 0 and export.stdout == "2\n" and export.stderr == ""
    text = subprocess.run([sys.executable, "-m", "bspedit", "ent", "export", path, "-o", "-"],
                          capture_output=True).stdout
    imported = subprocess.run([sys.executable, "-m", "bspedit", "ent", "import", path, "-",
                               "-o", tmp_path / "out.bsp"], input=text, capture_output=True)
    assert imported.returncode == 0, imported.stderr
    assert (tmp_path / "out.bsp").read_bytes() == path.read_bytes()


@pytest.mark.parametrize("path", SOURCE_AND_GOLDSRC)
def test_entity_edit_changes_only_the_entity_lump_and_keeps_the_crc(path, tmp_path):
    out = tmp_path / "edited.bsp"
    edit = run_cli("ent", "set", path, "--where", "classname=worldspawn", "message=bspedit", "-o", out)
    assert edit.returncode == 0, edit.stderr
    add = run_cli("ent", "add", out, "classname=info_target", "targetname=added", "--in-place")
    assert add.returncode == 0, add.stderr
    for output in (edit.stdout, add.stdout):
        assert "map checksum crc32: before" in output and "(unchanged)" in output
    with Bsp.open(path) as original, Bsp.open(out) as edited:
        assert map_checksums(edited)["crc32"] == map_checksums(original)["crc32"]
        for before, after in zip(original.lumps, edited.lumps):
            if before.index == original.family.entities:
                continue
            assert (after.offset, after.length) == (before.offset, before.length), before.name
            assert edited.read_lump(after.index) == original.read_lump(before.index)
        old_text = original.entities().to_bytes().decode("latin-1").splitlines()
        new_text = edited.entities().to_bytes().decode("latin-1").splitlines()
    changes = [line for line in difflib.unified_diff(old_text, new_text, lineterm="", n=0)
               if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    removed = [line for line in changes if line.startswith("-")]
    added = [line[1:] for line in changes if line.startswith("+")]
    assert all('"message"' in line for line in removed)            # at most the old message
    assert '"message" "bspedit"' in added
    assert {'"classname" "info_target"', '"targetname" "added"'} <= set(added)
    assert len(added) <= 1 + 5                                      # the key, and one new entity


def test_whole_file_engines_are_named_when_saving(write_map, tmp_path):
    path = write_map(synthetic.sample("q3"))
    result = run_cli("ent", "set", path, "--where", "classname=worldspawn", "message=x",
                     "-o", tmp_path / "out.bsp")
    assert result.returncode == 0
    assert "map checksum block_checksum: before" in result.stdout and "(CHANGED)" in result.stdout
    assert "engines checksum the whole file" in result.stdout


def test_query_json_and_no_match_exit_1(write_map):
    path = write_map(synthetic.sample("source"))
    import json
    found = run_cli("ent", "query", path, "--where", "classname=info_*", "--match", "glob", "--json")
    assert json.loads(found.stdout)["result"] == {"entities": [
        {"index": 1, "pairs": [["classname", "info_player_start"], ["origin", "0 0 64"]]}]}
    assert run_cli("ent", "query", path, "--where", "classname=nothing").returncode == 1


def test_edit_matching_nothing_writes_nothing(write_map, tmp_path):
    path = write_map(synthetic.sample("goldsrc"))
    result = run_cli("ent", "set", path, "--where", "classname=nope", "a=b", "-o", tmp_path / "o.bsp")
    assert result.returncode == 1 and not (tmp_path / "o.bsp").exists()


def test_malformed_entity_text_is_a_one_line_error_with_line_and_column(write_map, tmp_path):
    bad = tmp_path / "bad.ent"
    bad.write_bytes(b'{\n"classname" "worldspawn"\n"message "oops\n}\n')
    path = write_map(synthetic.sample("source"))
    result = run_cli("ent", "import", path, bad, "-o", tmp_path / "o.bsp")
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"bspedit: {bad}: ") and "line 3" in result.stderr
    assert not (tmp_path / "o.bsp").exists()
    lenient = run_cli("ent", "import", path, bad, "--lenient", "-o", tmp_path / "o.bsp")
    assert lenient.returncode == 1 and not (tmp_path / "o.bsp").exists()
    assert lenient.stderr.splitlines() == [
        f"bspedit: warning: {bad}: lines 1-4 kept verbatim (line 3, column 11: unexpected text 'oops')",
        f"bspedit: {bad}: the text has no worldspawn entity (1 stretch(es) kept verbatim); "
        "refused, nothing written (--force imports it anyway)"]
    lenient = run_cli("ent", "import", path, bad, "--lenient", "--force", "-o", tmp_path / "o.bsp")
    assert lenient.returncode == 0, lenient.stderr
    with Bsp.open(tmp_path / "o.bsp") as bsp:       # the map's NUL terminator kept
        assert bsp.read_lump(0) == bad.read_bytes() + b"\0"


def test_remove_and_delete_key(write_map, tmp_path):
    path = write_map(synthetic.sample("source"))
    out = tmp_path / "o.bsp"
    assert run_cli("ent", "remove", path, "--where", "classname=info_player_start", "-o", out).returncode == 0
    assert run_cli("ent", "delete-key", out, "--where", "classname=worldspawn", "message",
                   "--in-place").returncode == 0
    with Bsp.open(out) as bsp:
        lump = bsp.entities()
        assert len(lump) == 1 and lump.worldspawn.get("message") is None


def test_index_occurrence_and_append_edit_one_pair_of_one_entity(tmp_path):
    """`--index N` names an entity by place (with --where: those of them that match);
    `set --occurrence N` sets the Nth pair with KEY, `set --append` adds one even when the
    entity has KEY, `delete-key --occurrence N` deletes the Nth alone; refusals write nothing."""
    from conftest import ROOT

    demo, out = ROOT / "docs" / "examples" / "demo.bsp", tmp_path / "out.bsp"

    def pairs(path, index):
        with Bsp.open(path) as bsp:
            return list(bsp.entities())[index].pairs()

    before = pairs(demo, 1)
    assert run_cli("ent", "set", demo, "--index", "1", "--append", "lip=9", "-o", out
                   ).returncode == 0
    assert pairs(out, 1) == before + [("lip", "9")]
    assert run_cli("ent", "set", out, "--index", "1", "--occurrence", "2", "lip=10",
                   "--in-place").returncode == 0
    assert pairs(out, 1) == before + [("lip", "10")]
    assert run_cli("ent", "delete-key", out, "--index", "1", "--occurrence", "1", "lip",
                   "--in-place").returncode == 0
    assert pairs(out, 1) == [p for p in before if p[0] != "lip"] + [("lip", "10")]
    saved = out.read_bytes()
    wrong = [(["set", "--index", "1", "--occurrence", "3", "lip=1"], 1, "fewer than 3"),
             (["set", "--index", "99", "lip=1"], 2, "--index 99: the map has 22 entities"),
             (["set", "lip=1"], 2, "one of the arguments --where --index is required"),
             (["set", "--index", "1", "--where", "classname=light", "lip=1"], 1, "no entity"),
             (["set", "--index", "1", "--occurrence", "1", "--append", "lip=1"], 2, "--append")]
    for words, code, message in wrong:
        done = run_cli("ent", words[0], out, *words[1:], "--in-place")
        assert done.returncode == code and message in done.stderr, (words, done.stderr)
    assert out.read_bytes() == saved
