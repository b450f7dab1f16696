"""--dry-run on every editing verb (found from the parser): on corpus maps it writes nothing
(every file in the folder keeps its bytes, no file appears) and reports what the real run then
does: the same JSON result but `written`, the same exit code."""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from conftest import CORPUS_MAPS, run_cli
from verbs import ARGS, cases, command, editing, prepare, run_json, verbs

needs_corpus = pytest.mark.skipif(not CORPUS_MAPS, reason="../shared/corpus not present")

EDITING = sorted(verb for verb, parser in verbs().items() if editing(parser))
TARGETS = {"output": lambda folder: ["-o", str(folder / "out.bsp")],
           "in-place": lambda folder: ["--in-place"]}


def snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            if p.is_file() else "folder" for p in sorted(folder.rglob("*"))}


def unwritten(value: Any) -> Any:
    """`value` without its `written` keys (the one fact a dry run reports differently)."""
    if isinstance(value, dict):
        return {k: unwritten(v) for k, v in value.items() if k != "written"}
    if isinstance(value, list):
        return [unwritten(v) for v in value]
    return value


def test_the_editing_verbs_are_the_ones_that_save():
    assert EDITING == sorted(
        ["rewrite", "patch", "compress", "decompress", "ent import", "ent set", "ent delete-key",
         "ent add", "ent remove", "build", "lump replace", "lump strip", "lump merge", "props set",
         "props remove", "gamelump replace", "pak add", "pak addlist", "pak addfiles",
         "pak remove", "pak rename", "pak repack", "pak autopack", "tex rename", "tex embed", "tex unembed",
         "transform", "convert", "merge"])
    assert set(EDITING) <= set(ARGS)


@pytest.mark.parametrize("verb,family,mode", [
    pytest.param(*case.values, mode, marks=case.marks, id=f"{case.id}-{mode}")
    for verb in EDITING for case in cases(verb) for mode in TARGETS
    if mode != "in-place" or "--in-place" in verbs()[verb]._option_string_actions])
def test_dry_run_writes_nothing_and_reports_the_real_run(verb, family, mode, tmp_path):
    values = prepare(tmp_path, family)
    target = TARGETS[mode](tmp_path)
    before = snapshot(tmp_path)
    dry_code, dry_err, (dry,) = run_json(command(verb, values, target + ["--dry-run"]))
    assert snapshot(tmp_path) == before
    code, err, (real,) = run_json(command(verb, values, target))
    assert (dry_code, code) == (0, 0), dry_err + err
    assert unwritten(dry) == unwritten(real)
    assert (dry["result"]["save"]["written"], real["result"]["save"]["written"]) == (False, True)
    if real["result"]["save"]["changed"] or mode == "output":
        assert snapshot(tmp_path) != before


@needs_corpus
@pytest.mark.parametrize("verb,family", [("ent set", "q3"), ("lump strip", "source-lzma")])
def test_a_refused_save_is_refused_by_the_dry_run_too(verb, family, tmp_path):
    values = prepare(tmp_path, family)
    before = snapshot(tmp_path)
    runs = [run_json(command(verb, values, ["-o", str(tmp_path / "out.bsp"), "--keep-checksum",
                                            *dry]))
            for dry in (["--dry-run"], [])]
    assert [code for code, _, _ in runs] == [1, 1]
    assert runs[0][2] == runs[1][2] and snapshot(tmp_path) == before
    assert "--keep-checksum: refused" in runs[0][2][0]["error"]


@needs_corpus
def test_dry_run_alone_is_an_in_place_dry_run_and_no_target_is_refused(tmp_path):
    values = prepare(tmp_path, "goldsrc")
    before = snapshot(tmp_path)
    edit = ["ent", "set", values["map"], "--where", "classname=worldspawn", "message=x"]
    code, _, (dry,) = run_json(edit + ["--dry-run"])
    assert code == 0 and dry["result"]["save"]["layout"] == "in-place"
    assert dry["result"]["save"]["target"] == values["map"]
    result = run_cli(*edit)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == "bspedit: say where to write: --output or --in-place (or --dry-run " \
                            "to write nothing)\n"
    human = run_cli(*edit, "-o", tmp_path / "x.bsp", "--dry-run")
    assert human.returncode == 0 and f"would write {tmp_path / 'x.bsp'} (" in human.stdout
    assert snapshot(tmp_path) == before
