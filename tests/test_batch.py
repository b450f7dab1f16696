"""`bspedit each` and `bspedit.batch`: many maps in one run, in a pool or on a Dask cluster,
with the same results as map by map."""
from __future__ import annotations

import json
import os
import pty
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
from pathlib import Path

import pytest

import synthetic
from conftest import CORPUS_MAPS, corpus_sets, run_cli
from bspedit import batch
from bspedit.cli import invoke
from bspedit.errors import BspError

needs_corpus = pytest.mark.skipif(not CORPUS_MAPS, reason="../shared/corpus not present")
PATCH = """modify:
{
\tmatch:
\t{
\t\t"classname" "worldspawn"
\t}
\tinsert:
\t{
\t\t"bspedit_batch" "1"
\t}
}
"""


@pytest.fixture
def config_dir(tmp_path: Path) -> Path:
    """A Stripper config folder whose global filter edits every map's worldspawn."""
    folder = tmp_path / "cfg"
    folder.mkdir()
    (folder / "global_filters.cfg").write_text(PATCH)
    return folder


@pytest.fixture
def maps(tmp_path: Path) -> Path:
    """A folder of three small synthetic maps (one with an upper-case suffix)."""
    folder = tmp_path / "maps"
    folder.mkdir()
    for name, family in (("a.bsp", "q1"), ("b.BSP", "q2"), ("c.bsp", "source")):
        (folder / name).write_bytes(synthetic.sample(family))
    return folder


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


# -- which maps, which command lines -------------------------------------------------------
def test_expand_folders_globs_and_files(tmp_path: Path, maps: Path) -> None:
    (maps / "notes.txt").write_text("not a map")
    (maps / ".hidden.bsp").write_bytes(b"")
    (maps / "sub").mkdir()
    (maps / "sub" / "d.bsp").write_bytes(b"")
    top = [str(maps / n) for n in ("a.bsp", "b.BSP", "c.bsp")]
    assert batch.expand([maps]) == top
    assert batch.expand([maps], recursive=True) == top + [str(maps / "sub" / "d.bsp")]
    # a glob is the user's (case-sensitive, no hidden files); each map comes once
    assert batch.expand([f"{maps}/*.bsp", maps / "a.bsp", maps / "notes.txt"]) == \
        [str(maps / "a.bsp"), str(maps / "c.bsp"), str(maps / "notes.txt")]
    # what names nothing stands for itself, so the command reports it
    empty = tmp_path / "empty"
    empty.mkdir()
    assert batch.expand([empty, f"{tmp_path}/*.nope"]) == [str(empty), f"{tmp_path}/*.nope"]


def test_command_lines_insert_the_map_and_fill_placeholders(maps: Path) -> None:
    paths = batch.expand([maps])
    lines = batch.command_lines(paths, ["ent", "set", "--where", "classname=worldspawn",
                                        "note={stem}", "--in-place"]).lines
    assert lines[1] == ["ent", "set", str(maps / "b.BSP"), "--where", "classname=worldspawn",
                        "note=b", "--in-place"]
    lines = batch.command_lines(paths, ["diff", "orig/{name}", "{}"], ["--max-lump-size=1G"]).lines
    assert lines[0] == ["--max-lump-size=1G", "diff", "orig/a.bsp", str(maps / "a.bsp")]


def test_output_folder_means_one_file_per_map(tmp_path: Path, maps: Path) -> None:
    planned = batch.command_lines(batch.expand([maps]), ["rewrite", "-o", f"{tmp_path}/out/"])
    assert planned.folder == f"{tmp_path}/out/"
    assert [line[-2:] for line in planned.lines] == [
        ["-o", str(tmp_path / "out" / name)] for name in ("a.bsp", "b.BSP", "c.bsp")]
    for command in (["info"], ["info", "--json"]):
        assert batch.command_lines([str(maps / "a.bsp")], command, json=True).lines == [
            ["info", str(maps / "a.bsp"), "--json"]]


def test_the_folder_of_per_map_outputs_is_made_before_they_run(tmp_path: Path,
                                                                 maps: Path) -> None:
    """`each maps/ -- ent export -o exports/{stem}.ent`: one command, exports/ made first."""
    out = tmp_path / "deep" / "exports"
    planned = batch.command_lines(batch.expand([maps]), ["ent", "export", "-o",
                                                         f"{out}/{{stem}}.ent"])
    assert planned.folder == str(out)
    assert batch.command_lines(batch.expand([maps]), ["ent", "export", "-o",
                                                      "{stem}.ent"]).folder is None
    reports = batch.run([maps], ["ent", "export", "-o", f"{out}/{{stem}}.ent"], jobs=1)
    assert [r.code for r in reports] == [0, 0, 0]
    assert sorted(p.name for p in out.iterdir()) == ["a.ent", "b.ent", "c.ent"]


@pytest.mark.parametrize("command, message", [
    (["rewrite", "-o", "{folder}/"], "is an input map; --in-place edits maps where they are"),
    (["rewrite", "-o", "{folder}/same.bsp"], "would both be written to"),
    (["ent", "export", "-o", "{folder}/"], "this command does not write maps"),
    (["ent", "export", "-o", "-"], "cannot carry the data of many maps"),
    (["ent", "set", "k=v", "-o", "x/"], "one of the arguments --where --index is required"),
    (["frobnicate"], "after -- give a command"),
    (["each"], "after -- give a command"),
    (["ent"], "ent needs one of"),
])
def test_command_lines_refuse_before_anything_runs(maps: Path, command: list[str],
                                                   message: str) -> None:
    command = [word.replace("{folder}", str(maps)) for word in command]
    with pytest.raises(BspError, match=message):
        batch.command_lines(batch.expand([maps]), command)


# -- the command line ----------------------------------------------------------------------
def test_each_prints_in_input_order_with_headers_and_a_summary(maps: Path) -> None:
    result = run_cli("each", "-j", "2", maps, "--", "checksum")
    assert result.returncode == 0
    headers = [line for line in result.stdout.splitlines() if line.startswith("== ")]
    assert headers == [f"== {p} ==" for p in batch.expand([maps])]
    for path in batch.expand([maps]):
        single = run_cli("checksum", path).stdout
        assert f"== {path} ==\n{single}" in result.stdout
    assert result.stderr == ("bspedit each: 3 maps: 3 done, 0 unchanged, 0 failed checks, "
                             "0 bad input, 0 internal errors; exit 0\n")


def test_each_json_lines_one_object_per_map_then_the_summary(maps: Path) -> None:
    result = run_cli("each", maps, "-j", "2", "--json", "--", "info")
    objects = json_lines(result.stdout)
    assert [o["map"] for o in objects[:-1]] == batch.expand([maps])
    for obj in objects[:-1]:
        single = json.loads(run_cli("info", obj["map"], "--json").stdout)
        assert obj == single
    assert objects[-1] == {"summary": {"maps": 3, "done": 3, "unchanged": 0, "failed_checks": 0,
                                       "bad_input": 0, "internal_errors": 0, "interrupted": 0,
                                       "exit": 0}}
    assert result.returncode == 0 and result.stderr == ""


def test_each_mixed_folder_reports_the_bad_maps_and_writes_only_the_good(
        tmp_path: Path, maps: Path, config_dir: Path) -> None:
    good = synthetic.sample("q3")
    (maps / "truncated.bsp").write_bytes(good[:20])
    (maps / "cut.bsp").write_bytes(good[:len(good) // 2])
    (maps / "notes.txt").write_text("a text file named on the command line")
    out = tmp_path / "out"
    result = run_cli("each", "--json", maps, maps / "notes.txt", "--",
                     "patch", "--config-dir", config_dir, "-o", f"{out}/")
    objects = json_lines(result.stdout)
    codes = {Path(o["map"]).name: o["exit"] for o in objects[:-1]}
    assert codes == {"a.bsp": 0, "b.BSP": 0, "c.bsp": 0, "cut.bsp": 2, "truncated.bsp": 2,
                     "notes.txt": 2}
    assert objects[-1]["summary"] == {"maps": 6, "done": 3, "unchanged": 0, "failed_checks": 0,
                                      "bad_input": 3, "internal_errors": 0, "interrupted": 0,
                                      "exit": 2}
    assert result.returncode == 2
    assert sorted(os.listdir(out)) == ["a.bsp", "b.BSP", "c.bsp"]
    for name in ("a.bsp", "b.BSP", "c.bsp"):
        single = tmp_path / f"single-{name}"
        assert run_cli("patch", maps / name, "--config-dir", config_dir, "-o", single).returncode == 0
        assert (out / name).read_bytes() == single.read_bytes()


def test_each_exit_code_is_the_worst_outcome(tmp_path: Path, maps: Path) -> None:
    # nothing matches in q1/q2 maps without an info_null: unchanged (exit 1), nothing written
    (maps / "bad.bsp").write_bytes(b"IBSP")
    result = run_cli("each", "-j", "1", "--json", maps, "--", "ent", "remove", "--where",
                     "classname=info_player_start", "-o", f"{tmp_path}/out/")
    assert json_lines(result.stdout)[-1]["summary"]["exit"] == 2 and result.returncode == 2
    (maps / "bad.bsp").unlink()
    result = run_cli("each", "--json", maps, "--", "ent", "set", "--where", "classname=nope",
                     "k=v", "--in-place")
    summary = json_lines(result.stdout)[-1]["summary"]
    assert (summary["unchanged"], summary["exit"], result.returncode) == (3, 1, 1)
    result = run_cli("each", "--json", maps, "--", "ent", "query", "--where", "classname=nope")
    summary = json_lines(result.stdout)[-1]["summary"]
    assert (summary["failed_checks"], summary["unchanged"], result.returncode) == (3, 0, 1)


def test_each_usage_errors(maps: Path) -> None:
    assert run_cli("each", maps, "verify").stderr.startswith("bspedit: each: put -- between")
    assert run_cli("each", "--", "verify").returncode == 2
    result = run_cli("each", maps, "--", "ent", "set", "k=v", "--in-place")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "--where --index is required" in result.stderr


def test_each_options_after_the_maps_and_global_options(maps: Path) -> None:
    result = run_cli("--max-entity-size", "10", "each", maps, "-j", "2", "--json", "--",
                     "ent", "query")
    objects = json_lines(result.stdout)
    assert [o["exit"] for o in objects[:-1]] == [2, 2, 2]
    assert "entity text" in objects[0]["error"] and "--max-entity-size" in objects[0]["error"]


def test_progress_is_silent_when_stderr_is_not_a_terminal(maps: Path) -> None:
    result = run_cli("each", maps, "--", "verify")
    assert result.stderr == ("bspedit each: 3 maps: 3 done, 0 unchanged, 0 failed checks, "
                             "0 bad input, 0 internal errors; exit 0\n")


def _on_a_terminal(*args: object) -> str:
    """What `bspedit ARGS` writes to a 100-column terminal."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(sys.executable, [sys.executable, "-m", "bspedit", *map(str, args)])
    import fcntl
    import termios
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    output = b""
    while True:
        ready, _, _ = select.select([fd], [], [], 30)
        try:
            chunk = os.read(fd, 65536) if ready else b""
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    os.waitpid(pid, 0)
    return output.decode(errors="replace")


def test_progress_bar_on_a_terminal_unless_quiet(maps: Path) -> None:
    assert "maps: 100%|" in _on_a_terminal("each", maps, "--", "verify")
    assert "map/s" not in _on_a_terminal("each", "--quiet", maps, "--", "verify")
    assert "map/s" not in _on_a_terminal("--quiet", "each", maps, "--", "verify")


# -- the Python API ------------------------------------------------------------------------
def test_each_runs_a_function_per_map_and_keeps_errors(tmp_path: Path, maps: Path) -> None:
    gone = maps / "gone.bsp"
    gone.symlink_to(tmp_path / "nowhere")       # not a file: named, it is still processed
    for jobs in (1, 2):
        outcomes = batch.each(os.path.getsize, [maps, gone], jobs=jobs)
        assert [o.map for o in outcomes] == batch.expand([maps]) + [str(gone)]
        assert [o.value for o in outcomes[:3]] == [p.stat().st_size for p in
                                                    (maps / "a.bsp", maps / "b.BSP", maps / "c.bsp")]
        assert outcomes[3].kind == "FileNotFoundError" and not outcomes[3].ok
        assert all(o.ok for o in outcomes[:3])


def test_run_returns_reports_and_streams_them_in_order(maps: Path) -> None:
    seen = []
    reports = batch.run([maps], ["checksum"], jobs=2, json=True, on_report=seen.append)
    assert seen == reports
    assert [r.map for r in reports] == batch.expand([maps])
    for report in reports:
        assert report.envelope() == invoke(["checksum", report.map, "--json"],
                                           capture=True).envelope()


# -- the whole corpus: each == map by map --------------------------------------------------
def _flat_corpus(folder: Path, maps: list[Path] = CORPUS_MAPS) -> Path:
    """Corpus maps in one folder (links), so `{name}` finds a map's original."""
    folder.mkdir()
    for path in maps:
        (folder / path.name).symlink_to(path)
    return folder


VERBS = [
    ["info"], ["verify"], ["checksum"], ["ent", "query", "--where", "classname=worldspawn"],
    ["pak", "list"], ["lump", "list"], ["patch", "--config-dir", "{cfg}", "--dry-run"],
    ["ent", "set", "--where", "classname=worldspawn", "bspedit=1", "-o", "{out}"],
    ["ent", "add", "classname=info_null", "targetname=batch", "-o", "{out}"],
    ["ent", "remove", "--where", "classname=light", "-o", "{out}"],
    ["ent", "delete-key", "--where", "classname=worldspawn", "message", "-o", "{out}"],
    ["patch", "--config-dir", "{cfg}", "-o", "{out}"],
    ["pak", "add", "{cfg}/global_filters.cfg", "--as", "cfg/batch.cfg", "-o", "{out}"],
    ["pak", "remove", "materials/maps/*", "-o", "{out}"],
    ["lump", "strip", "--preset", "server-download", "-o", "{out}"],
    ["compress", "-o", "{out}"], ["decompress", "-o", "{out}"],
    ["props", "remove", "0", "-o", "{out}"],
]


def _single(command: list[str], path: Path, out: Path) -> list[str]:
    """`bspedit COMMAND MAP ARGS [--json]` for one map, written by hand (not by
    `command_lines`)."""
    words = 2 if command[0] in ("ent", "pak", "lump", "props") else 1
    rest = [str(out / path.name) if word == "{out}" else word for word in command[words:]]
    takes_json = "--json" in invoke([*command[:words], "--help"], capture=True).stdout
    return [*command[:words], str(path), *rest, *(["--json"] if takes_json else [])]


def _timeless(text: str) -> str:
    """JSON text without the `seconds` a command took (compress reports it)."""
    return re.sub(r'"seconds": [0-9.e-]+', '"seconds": 0', text)


@needs_corpus
@pytest.mark.parametrize("maps", corpus_sets())
@pytest.mark.parametrize("command", [pytest.param(c, marks=pytest.mark.full)
                                     if c[0] in ("compress", "decompress") else c
                                     for c in VERBS], ids=lambda c: " ".join(c[:2]))
def test_each_on_the_corpus_equals_map_by_map(tmp_path: Path, config_dir: Path,
                                             command: list[str], maps: list[Path]) -> None:
    corpus = _flat_corpus(tmp_path / "corpus", maps)
    edits = "{out}" in command
    command = [word.replace("{cfg}", str(config_dir)) for word in command]
    paths = [Path(p) for p in batch.expand([corpus])]
    single_out, batch_out = tmp_path / "single", tmp_path / "batch"
    single_out.mkdir()
    singles = [invoke(_single(command, path, single_out), capture=True) for path in paths]
    batched = batch.run([corpus], [f"{batch_out}/" if w == "{out}" else w for w in command],
                        jobs=2, json=True)
    assert len(batched) == len(paths) == len(maps)
    for one, many in zip(singles, batched, strict=True):
        same = _timeless(json.dumps(many.envelope()).replace(str(batch_out), str(single_out)))
        assert same == _timeless(json.dumps(one.envelope()))
        assert many.stderr.replace(str(batch_out), str(single_out)) == one.stderr
    written = sorted(os.listdir(single_out))
    assert (sorted(os.listdir(batch_out)) if batch_out.exists() else []) == written
    for name in written:
        assert (batch_out / name).read_bytes() == (single_out / name).read_bytes()
    assert written == sorted(p.name for p, r in zip(paths, singles) if edits and r.code == 0)


@needs_corpus
@pytest.mark.parametrize("maps", corpus_sets())
def test_each_diff_against_a_folder_of_originals(tmp_path: Path, config_dir: Path,
                                                 maps: list[Path]) -> None:
    originals = _flat_corpus(tmp_path / "originals", maps)
    edited = tmp_path / "edited"
    batch.run([originals], ["patch", "--config-dir", str(config_dir), "-o", f"{edited}/"])
    reports = batch.run([edited], ["diff", f"{originals}/{{name}}"], jobs=2, json=True)
    assert [r.code for r in reports] == [1] * len(maps)       # each differs
    for report in reports:
        single = invoke(["diff", report.map, str(originals / Path(report.map).name), "--json"],
                        capture=True)
        assert report.envelope() == single.envelope()
        changed = report.result["entities"]["changed"]
        assert any(k["key"] == "bspedit_batch" for e in changed for k in e["keys"])


@needs_corpus
@pytest.mark.parametrize("maps", corpus_sets())
def test_each_on_the_real_command_line_equals_single_runs(tmp_path: Path,
                                                          maps: list[Path]) -> None:
    corpus = _flat_corpus(tmp_path / "corpus", maps)
    result = run_cli("each", "-r", "--json", corpus, "--", "checksum")
    objects = json_lines(result.stdout)
    assert [o["map"] for o in objects[:-1]] == [str(p) for p in batch.expand([corpus])]
    for obj in objects[:-1]:
        assert obj == json.loads(run_cli("checksum", obj["map"], "--json").stdout)
    assert result.returncode == 0


# -- Ctrl-C --------------------------------------------------------------------------------
@needs_corpus
@pytest.mark.parametrize("target", [pytest.param(["-o", "{out}/"], marks=pytest.mark.full),
                                    ["--in-place", "--layout", "compact"]],
                         ids=["output-folder", "in-place"])
def test_ctrl_c_leaves_each_map_untouched_or_completely_written(
        tmp_path: Path, config_dir: Path, target: list[str]) -> None:
    maps, out, finished = tmp_path / "maps", tmp_path / "out", tmp_path / "finished"
    maps.mkdir()
    for copy in range(3):
        for path in CORPUS_MAPS:
            shutil.copyfile(path, maps / f"c{copy}_{path.name}")
    originals = {p.name: p.read_bytes() for p in maps.iterdir()}
    # every map's finished result, for comparison: the same edit on copies
    shutil.copytree(maps, finished)
    in_place = target[0] == "--in-place"
    reference = target if in_place else [w.replace("{out}", f"{finished}/done") for w in target]
    batch.run([finished], ["patch", "--config-dir", str(config_dir), *reference])
    if not in_place:
        finished = finished / "done"
    command = [sys.executable, "-m", "bspedit", "each", "-j", "2", "--json", str(maps), "--",
               "patch", "--config-dir", str(config_dir),
               *[w.replace("{out}", str(out)) for w in target]]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True, start_new_session=True)
    first = process.stdout.readline()      # one map done: the batch is under way
    assert json.loads(first)["exit"] == 0
    os.killpg(process.pid, signal.SIGINT)
    objects = json_lines(first + process.stdout.read())
    process.wait(timeout=60)
    summary = objects[-1]["summary"]
    assert process.returncode == 130 and summary["exit"] == 130
    assert summary["interrupted"] > 0 and summary["maps"] == len(originals) == len(objects) - 1
    results = maps if in_place else out
    for name, before in originals.items():
        now = (results / name).read_bytes() if (results / name).exists() else None
        assert now in (before if in_place else None, (finished / name).read_bytes()), name
        if not in_place:
            assert (maps / name).read_bytes() == before
    leftovers = [p for folder in (maps, out) if folder.exists() for p in folder.iterdir()
                 if p.name.startswith(".")]
    assert leftovers == []


# -- a Dask cluster ------------------------------------------------------------------------
@needs_corpus
def test_dask_cluster_gives_the_results_of_the_local_pool(tmp_path: Path,
                                                         config_dir: Path) -> None:
    distributed = pytest.importorskip("distributed")
    corpus = _flat_corpus(tmp_path / "corpus")
    commands = [["checksum"], ["patch", "--config-dir", str(config_dir), "-o", "{out}/"]]
    local = [batch.run([corpus], [w.replace("{out}", str(tmp_path / "local")) for w in c],
                       jobs=2, json=True) for c in commands]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        remote = [batch.run([corpus], [w.replace("{out}", str(tmp_path / "dask")) for w in c],
                            scheduler=cluster.scheduler_address, json=True) for c in commands]
        sizes = batch.each(os.path.getsize, [corpus], scheduler=cluster.scheduler_address)
    for mine, theirs in zip(local, remote, strict=True):
        assert [json.dumps(r.envelope()).replace(str(tmp_path / "dask"), str(tmp_path / "local"))
                for r in theirs] == [json.dumps(r.envelope()) for r in mine]
        assert [r.stdout.replace(str(tmp_path / "dask"), str(tmp_path / "local"))
                for r in theirs] == [r.stdout for r in mine]
    assert sorted(os.listdir(tmp_path / "dask")) == sorted(os.listdir(tmp_path / "local"))
    for name in os.listdir(tmp_path / "local"):
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "local" / name).read_bytes()
    assert [o.value for o in sizes] == [os.path.getsize(p) for p in batch.expand([corpus])]
