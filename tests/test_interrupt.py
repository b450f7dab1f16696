"""Ctrl-C during `bspedit each` (issue 29): whenever it comes, every process of the run ends
within seconds, the exit is 130, and each map is its old file or the complete new one, with
no temporary file left. Also what happens when a worker process dies (exit 3, that map only).

A plain pytest interrupts a few runs at random moments; `pytest --full` many more."""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

import synthetic
from conftest import CORPUS_MAPS
from bspedit import batch

pytestmark = pytest.mark.skipif(os.name != "posix" or not hasattr(os, "killpg"),
                                reason="signals to a process group: POSIX only")
needs_corpus = pytest.mark.skipif(not CORPUS_MAPS, reason="../shared/corpus not present")
full = pytest.mark.full

EXIT_WITHIN = 5.0           # seconds from the (last) Ctrl-C to the end of every process
REWRITE = ["rewrite", "--layout", "compact"]
#: `bspedit` with pool workers spawned (as on Windows and macOS), not forked
SPAWNED = ("import sys; from bspedit import batch; batch.pool._START_METHOD = 'spawn'; "
           "from bspedit.cli import main; sys.exit(main())")


# -- running and interrupting ----------------------------------------------------------------
@dataclass
class Run:
    code: int
    stderr: str
    lines: list[dict]               # --json: one per map, then the summary
    signalled: bool                 # a SIGINT was sent before the run ended
    finished_first: bool            # the summary was read before any signal was sent
    after_signal: float = 0.0       # seconds from the last signal to the end


def _bspedit(*args: object, spawn: bool = False) -> list[str]:
    start = ["-c", SPAWNED] if spawn else ["-m", "bspedit"]
    return [sys.executable, *start, *map(str, args)]


def interrupted(command: list[str], delay: float | None, *, again: float | None = None,
                main_only: bool = False, ready: Callable[[str], bool] | None = None,
                after_lines: int = 0, within: float = EXIT_WITHIN,
                env: dict[str, str] | None = None) -> Run:
    """Run `command` in a session of its own and send SIGINT to its process group (to its main
    process alone with `main_only`) `delay` seconds after its start, or once a line of its
    stderr satisfies `ready`, or once it printed `after_lines` lines; with `again`, a second
    SIGINT that much later. Waits for its end (`within` seconds after the last signal), then
    checks that no process of the group is left."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True, env=env)
    out: list[tuple[float, str]] = []
    err: list[str] = []
    seen = threading.Event()

    def read_out() -> None:
        for line in process.stdout:
            out.append((time.monotonic(), line))
            if after_lines and len(out) == after_lines:
                seen.set()
        seen.set()

    def read_err() -> None:
        for line in process.stderr:
            err.append(line)
            if ready is not None and ready(line):
                seen.set()

    readers = [threading.Thread(target=read_out), threading.Thread(target=read_err)]
    for reader in readers:
        reader.start()
    try:
        if ready is not None or after_lines:
            assert seen.wait(60), "".join(err)
        else:
            time.sleep(delay or 0)
        sent = first = time.monotonic()
        signalled = process.poll() is None
        for pause in [0.0] if again is None else [0.0, again]:
            if pause:
                time.sleep(pause)
                sent = time.monotonic()
            if process.poll() is None:
                (os.kill if main_only else os.killpg)(process.pid, signal.SIGINT)
        try:
            code = process.wait(timeout=within + (again or 0) + (60 if not signalled else 0))
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            pytest.fail(f"still running {within}s after SIGINT: {''.join(err)}")
        ended = time.monotonic()
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        for reader in readers:
            reader.join()
    assert group_ended(process.pid), "a process of the run is left behind"
    lines = [json.loads(line) for _, line in out]
    summary_at = [at for at, line in out if line.startswith('{"summary"')]
    return Run(code, "".join(err), lines, signalled,
               finished_first=bool(summary_at) and summary_at[0] < first,
               after_signal=ended - sent)


def in_start_up(run: Run) -> bool:
    """The signal came while the interpreter started, before bspedit's `main` ran (nothing
    printed, no worker started): Python's own KeyboardInterrupt and its traceback. From
    `main` on, Ctrl-C is exit 130 with one line, even while the command line is read."""
    if run.lines or "bspedit/batch/" in run.stderr or "multiprocessing" in run.stderr:
        return False
    return (run.code in (1, -signal.SIGINT)
            and run.stderr.rstrip().endswith("KeyboardInterrupt"))


def group_ended(group: int) -> bool:
    """Whether the process group is empty, soon: spawned workers come with multiprocessing's
    resource tracker, which ends when it sees the main process gone."""
    deadline = time.monotonic() + 2
    while True:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)


def check_ended_well(run: Run, names: list[str]) -> None:
    """Exit 130 (as a shell sees it: also death by SIGINT when the signal comes after `each`
    returned), or 0 for a run that provably finished before the signal; no traceback."""
    if run.signalled and not run.finished_first:
        assert run.after_signal < EXIT_WITHIN
        if in_start_up(run):
            return
        assert run.code in (130, -signal.SIGINT), run.stderr
    else:
        assert run.code in (0, 130, -signal.SIGINT), run.stderr
    assert "Traceback" not in run.stderr, run.stderr
    if run.lines and "summary" in run.lines[-1]:
        summary = run.lines[-1]["summary"]
        assert [line["map"] for line in run.lines[:-1]] == names
        assert summary["maps"] == len(names)
        if run.code == 0:
            assert (summary["done"], summary["exit"]) == (len(names), 0)


def check_files(results: Path, finished: Path, originals: dict[str, bytes], *,
                in_place: bool, inputs: Path) -> None:
    """Each map is absent (or, in place, its old self) or byte for byte the finished result;
    inputs unchanged (for -o); no hidden temporary file anywhere."""
    for name, before in originals.items():
        path = results / name
        now = path.read_bytes() if path.exists() else None
        assert now in ((before if in_place else None), (finished / name).read_bytes()), name
        if not in_place:
            assert (inputs / name).read_bytes() == before, name
    for folder in {results, inputs}:
        if folder.exists():
            assert [p.name for p in folder.iterdir() if p.name.startswith(".")] == []
            assert {p.name for p in folder.iterdir()} <= set(originals)


# -- the maps ----------------------------------------------------------------------------------
@dataclass
class Batch:
    """A folder of maps, the result of a finished run on them, and how long that run took."""

    maps: Path
    finished: Path
    originals: dict[str, bytes]
    seconds: float              # the whole run (bytecode cached)

    @property
    def names(self) -> list[str]:
        return batch.expand([self.maps])


def _prepare(folder: Path, in_place: bool) -> Batch:
    """The finished result of the command on `folder/maps` (in `folder/finished`)."""
    maps = folder / "maps"
    originals = {p.name: p.read_bytes() for p in maps.iterdir()}
    finished = folder / "finished"
    if in_place:
        shutil.copytree(maps, finished)
        target = ["--in-place"]
    else:
        target = ["-o", f"{finished}/"]
    done = subprocess.run(_bspedit("each", "-j", "2", "--json", finished if in_place else maps,
                                   "--", *REWRITE, *target), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    start = time.monotonic()        # again, timed: the first run compiled bspedit's bytecode
    done = subprocess.run(_bspedit("each", "-j", "2", "--json", maps, "--", *REWRITE, "-o",
                                   f"{folder}/timed/"), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return Batch(maps, finished, originals, time.monotonic() - start)


def _corpus(folder: Path) -> Path:
    maps = folder / "maps"
    maps.mkdir(parents=True)
    for path in CORPUS_MAPS:
        shutil.copyfile(path, maps / path.name)
    return folder


def _synthetic(folder: Path, count: int = 24) -> Path:
    """`count` synthetic Quake maps of 1 to 4 MB (a big plane lump), so a run takes a while."""
    maps = folder / "maps"
    maps.mkdir(parents=True)
    for i in range(count):
        planes = bytes(range(1, 201)) * (5000 * (1 + i % 4))
        (maps / f"m{i:02d}.bsp").write_bytes(synthetic.make_map(
            "q1", {0: synthetic.ENTITIES[:-1], 1: planes}, order=[1, 0], pad=b"\n\0\0"))
    return folder


@pytest.fixture(scope="module")
def corpus_output(tmp_path_factory: pytest.TempPathFactory) -> Batch:
    if not CORPUS_MAPS:
        pytest.skip("../shared/corpus not present")
    return _prepare(_corpus(tmp_path_factory.mktemp("corpus-o")), in_place=False)


@pytest.fixture(scope="module")
def corpus_in_place(tmp_path_factory: pytest.TempPathFactory) -> Batch:
    if not CORPUS_MAPS:
        pytest.skip("../shared/corpus not present")
    return _prepare(_corpus(tmp_path_factory.mktemp("corpus-i")), in_place=True)


@pytest.fixture(scope="module")
def synthetic_output(tmp_path_factory: pytest.TempPathFactory) -> Batch:
    return _prepare(_synthetic(tmp_path_factory.mktemp("synthetic")), in_place=False)


def delays(seconds: float, count: int, seed: int) -> list[float]:
    """`count` moments from the start to past the end of a run that takes `seconds`."""
    chosen = random.Random(seed)
    return sorted(chosen.uniform(0, seconds * 1.3) for _ in range(count))


def interrupt_output_runs(prepared: Batch, tmp_path: Path, moments: list[float], *,
                          spawn: bool = False, again: float | None = None,
                          main_only: bool = False, jobs: int = 2,
                          after_lines: int = 0, env: dict[str, str] | None = None) -> list[Run]:
    runs = []
    for number, delay in enumerate(moments):
        out = tmp_path / f"out{number}"
        run = interrupted(_bspedit("each", "-j", jobs, "--json", prepared.maps, "--", *REWRITE,
                                   "-o", f"{out}/", spawn=spawn),
                          delay, again=again, main_only=main_only,
                          after_lines=after_lines, env=env)
        check_ended_well(run, prepared.names)
        check_files(out, prepared.finished, prepared.originals, in_place=False,
                    inputs=prepared.maps)
        runs.append(run)
    return runs


def interrupt_in_place_runs(prepared: Batch, tmp_path: Path, moments: list[float]) -> None:
    for number, delay in enumerate(moments):
        maps = tmp_path / f"maps{number}"
        shutil.copytree(prepared.maps, maps)
        run = interrupted(_bspedit("each", "-j", "2", "--json", maps, "--", *REWRITE,
                                   "--in-place"), delay)
        check_ended_well(run, batch.expand([maps]))
        check_files(maps, prepared.finished, prepared.originals, in_place=True, inputs=maps)
        shutil.rmtree(maps)


# -- Ctrl-C at random moments ----------------------------------------------------------------
def test_ctrl_c_at_random_moments_on_synthetic_maps(synthetic_output: Batch,
                                                    tmp_path: Path) -> None:
    moments = delays(synthetic_output.seconds, 4, seed=29)
    runs = interrupt_output_runs(synthetic_output, tmp_path, moments)
    assert any(run.code != 0 for run in runs)


def test_ctrl_c_in_one_process(synthetic_output: Batch, tmp_path: Path) -> None:
    """`-j 1`: the maps run in the main process, Ctrl-C interrupts the one being written."""
    runs = [*interrupt_output_runs(synthetic_output, tmp_path / "first", [0], jobs=1,
                                   after_lines=1),
            *interrupt_output_runs(synthetic_output, tmp_path / "half", [0], jobs=1,
                                   after_lines=len(synthetic_output.names) // 2)]
    assert all(run.code == 130 for run in runs)


@needs_corpus
def test_ctrl_c_at_random_moments_on_the_corpus(corpus_output: Batch, tmp_path: Path) -> None:
    interrupt_output_runs(corpus_output, tmp_path, delays(corpus_output.seconds, 3, seed=3))


@needs_corpus
def test_ctrl_c_at_random_moments_in_place(corpus_in_place: Batch, tmp_path: Path) -> None:
    interrupt_in_place_runs(corpus_in_place, tmp_path, delays(corpus_in_place.seconds, 2, seed=7))


def test_ctrl_c_with_spawned_workers(synthetic_output: Batch, tmp_path: Path) -> None:
    """As on Windows and macOS: workers start a fresh interpreter (SIGINT blocked meanwhile)."""
    interrupt_output_runs(synthetic_output, tmp_path, [0.35, 0.9], spawn=True)


@full
def test_ctrl_c_in_the_portable_mode(synthetic_output: Batch, tmp_path: Path) -> None:
    """With what Windows lacks taken away (no fork, no signal masks; tests/portable)."""
    from test_portable import environment

    interrupt_output_runs(synthetic_output, tmp_path, delays(synthetic_output.seconds * 3, 3,
                                                             seed=31), env=environment(True))


@full
@needs_corpus
def test_ctrl_c_at_many_moments_on_the_corpus(corpus_output: Batch, tmp_path: Path) -> None:
    runs = interrupt_output_runs(corpus_output, tmp_path,
                                 delays(corpus_output.seconds, 20, seed=2900))
    assert sum(run.code != 0 for run in runs) >= 10


@full
@needs_corpus
def test_ctrl_c_at_many_moments_in_place(corpus_in_place: Batch, tmp_path: Path) -> None:
    interrupt_in_place_runs(corpus_in_place, tmp_path,
                            delays(corpus_in_place.seconds, 12, seed=2901))


@full
def test_ctrl_c_at_many_moments_on_synthetic_maps(synthetic_output: Batch,
                                                  tmp_path: Path) -> None:
    interrupt_output_runs(synthetic_output, tmp_path,
                          delays(synthetic_output.seconds, 12, seed=2902))
    interrupt_output_runs(synthetic_output, tmp_path / "spawned",
                          delays(synthetic_output.seconds + 0.5, 6, seed=2903), spawn=True)
    interrupt_output_runs(synthetic_output, tmp_path / "serial",
                          delays(synthetic_output.seconds * 1.5, 6, seed=2904), jobs=1)


def test_a_second_ctrl_c_soon_after_the_first(synthetic_output: Batch, tmp_path: Path) -> None:
    """After the first map (the batch is under way), or at a random moment."""
    runs = [*interrupt_output_runs(synthetic_output, tmp_path / "first", [0], again=0.1,
                                   after_lines=1),
            *interrupt_output_runs(synthetic_output, tmp_path / "random",
                                   delays(synthetic_output.seconds, 1, seed=290), again=0.1)]
    # the second may come once `each` has returned 130: then Python dies of it (130 to a shell)
    assert runs[0].code in (130, -signal.SIGINT)


def test_ctrl_c_to_the_main_process_alone(synthetic_output: Batch, tmp_path: Path) -> None:
    """`kill -INT` of the main process (not a terminal's Ctrl-C): it stops the workers too."""
    runs = interrupt_output_runs(synthetic_output, tmp_path, [0], main_only=True, after_lines=1)
    assert runs[0].code == 130


# -- workers that take their time --------------------------------------------------------------
SLOW = '''
import os, sys, time
from bspedit import batch

class Finalized:
    def __del__(self):          # Ctrl-C lands here, where Python cannot raise it
        os.write(2, b"busy\\n")
        end = time.monotonic() + 5
        while time.monotonic() < end:
            pass

def work(path):
    if sys.argv[1] == "finalizer":
        Finalized()
    else:
        os.write(2, b"busy\\n")
    end = time.monotonic() + 60
    while time.monotonic() < end:
        try:
            time.sleep(end - time.monotonic())
        except KeyboardInterrupt:
            if sys.argv[1] != "stubborn":
                raise
    return "slept"

if __name__ == "__main__":
    outcomes = batch.each(work, sys.argv[2:], jobs=2)
    for outcome in outcomes:
        print(outcome.map, outcome.kind, outcome.error, file=sys.stderr)
    sys.exit(130 if outcomes.interrupted else 0)
'''


def _slow(tmp_path: Path, mode: str) -> list[str]:
    script = tmp_path / "slow.py"
    script.write_text(textwrap.dedent(SLOW))
    return [sys.executable, str(script), mode, *(str(tmp_path / f"{n}.bsp") for n in "abc")]


def _busy_twice() -> Callable[[str], bool]:
    count = 0

    def ready(line: str) -> bool:
        nonlocal count
        count += line == "busy\n"
        return count == 2
    return ready


def test_ctrl_c_to_the_main_process_alone_reaches_busy_workers(tmp_path: Path) -> None:
    """Workers that did not get the signal get it from the main process after a second."""
    run = interrupted(_slow(tmp_path, "sleep"), None, main_only=True, ready=_busy_twice())
    assert run.code == 130 and batch.pool.FORWARD_AFTER <= run.after_signal < EXIT_WITHIN
    assert run.stderr.count("KeyboardInterrupt interrupted\n") == 2
    assert run.stderr.count("KeyboardInterrupt interrupted; not run\n") == 1
    assert "Traceback" not in run.stderr


@full
def test_a_worker_that_ignores_ctrl_c_is_killed_after_ten_seconds(tmp_path: Path) -> None:
    run = interrupted(_slow(tmp_path, "stubborn"), None, ready=_busy_twice(),
                      within=batch.pool.KILL_AFTER + EXIT_WITHIN)
    assert run.code == 130
    assert batch.pool.KILL_AFTER <= run.after_signal < batch.pool.KILL_AFTER + EXIT_WITHIN
    assert run.stderr.count("KeyboardInterrupt interrupted\n") == 2     # the third not run


def test_a_second_ctrl_c_kills_a_worker_that_ignores_the_first(tmp_path: Path) -> None:
    run = interrupted(_slow(tmp_path, "stubborn"), None, ready=_busy_twice(), again=0.2)
    assert run.code == 130 and run.after_signal < batch.pool.KILL_AFTER_SECOND + 2
    assert run.stderr.count("KeyboardInterrupt interrupted\n") == 2
    assert "Traceback" not in run.stderr


def test_ctrl_c_lost_in_a_finalizer_is_passed_on_again(tmp_path: Path) -> None:
    """A KeyboardInterrupt raised in a `__del__` is lost (Python prints it and goes on): the
    worker takes the SIGINT the pool passes on a second later, and prints nothing."""
    run = interrupted(_slow(tmp_path, "finalizer"), None, ready=_busy_twice())
    assert run.code == 130 and batch.pool.FORWARD_AFTER <= run.after_signal < EXIT_WITHIN
    assert run.stderr.count("KeyboardInterrupt interrupted\n") == 2
    assert "Exception ignored" not in run.stderr and "Traceback" not in run.stderr


def test_ctrl_c_between_a_files_creation_and_its_with_statement(tmp_path: Path,
                                                                  monkeypatch) -> None:
    """The window the corpus sweep once hit: Ctrl-C lands after the atomic writer's generator
    yielded its temporary file, before `__enter__` returned, so no `__exit__` runs and the
    generator, kept alive by the traceback, would remove the file only when collected (never,
    in a worker that ends by os._exit). The command ending interrupted removes it."""
    from bspedit.cli import main
    from bspedit.container import outputs

    writers = []
    real = outputs.atomic_file

    def stopped_on_entry(target, **options):
        writer = real(target, **options)
        writer.__enter__()          # the temporary file exists, the with statement not yet
        writers.append(writer)      # a traceback's frame holds the writer
        raise KeyboardInterrupt

    monkeypatch.setattr("bspedit.container.executor.atomic_file", stopped_on_entry)
    source = tmp_path / "in.bsp"
    source.write_bytes(synthetic.make_map("q1", {0: synthetic.ENTITIES}))
    out = tmp_path / "out"
    out.mkdir()
    assert main(["rewrite", str(source), "-o", str(out / "new.bsp")]) == 130
    assert writers and list(out.iterdir()) == []
    writers[0].__exit__(KeyboardInterrupt, KeyboardInterrupt(), None)   # collected later: quiet
    assert list(out.iterdir()) == [] and not outputs._UNFINISHED


# -- a worker that dies ------------------------------------------------------------------------
def _die_on_b(path: str) -> int:
    if Path(path).stem == "b":
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.05)
    return os.path.getsize(path)


@pytest.fixture
def six_maps(tmp_path: Path) -> list[Path]:
    paths = []
    for name, family in zip("abcdef", ("q1", "q2", "q3", "source", "goldsrc", "q1")):
        path = tmp_path / f"{name}.bsp"
        path.write_bytes(synthetic.sample(family))
        paths.append(path)
    return paths


def test_a_worker_killed_fails_its_map_only(six_maps: list[Path]) -> None:
    outcomes = batch.each(_die_on_b, six_maps, jobs=2)
    assert [o.map for o in outcomes] == [str(p) for p in six_maps]
    dead = outcomes[1]
    assert dead.kind == "WorkerError" and "internal error: worker failed" in dead.error
    assert "SIGKILL" in dead.error
    assert [o.value for i, o in enumerate(outcomes) if i != 1] == [
        p.stat().st_size for i, p in enumerate(six_maps) if i != 1]
    assert not outcomes.interrupted


@pytest.mark.skipif(batch.pool._START_METHOD != "fork",
                    reason="the patch reaches forked workers only")
def test_a_worker_killed_is_exit_3_for_its_map(six_maps: list[Path], monkeypatch) -> None:
    real = batch.work.invoke

    def invoke(line: list[str], *, capture: bool = False):
        if Path(line[1]).stem == "c":
            os.kill(os.getpid(), signal.SIGKILL)
        return real(line, capture=capture)

    monkeypatch.setattr(batch.work, "invoke", invoke)
    reports = batch.run(six_maps, ["verify"], jobs=2, json=True)
    assert [r.code for r in reports] == [0, 0, 3, 0, 0, 0]
    assert reports[2].error.startswith("internal error: worker failed (its process was "
                                       "killed by SIGKILL")
    assert reports[2].stderr == f"bspedit: {six_maps[2]}: {reports[2].error}\n"
    summary = batch.Summary.of(reports)
    assert (summary.done, summary.internal_errors, summary.exit) == (5, 1, 3)


@pytest.mark.skipif(batch.pool._START_METHOD != "fork",
                    reason="the patch reaches forked workers only")
def test_ctrl_c_after_the_last_map_started_is_still_exit_130(six_maps: list[Path],
                                                             monkeypatch) -> None:
    """Every map finished, but the user pressed Ctrl-C meanwhile: the run says so."""
    real = batch.work.invoke

    def invoke(line: list[str], *, capture: bool = False):
        if Path(line[1]).stem == "f":       # the last map: its worker tells the parent
            os.kill(os.getppid(), signal.SIGINT)
            time.sleep(0.3)
        return real(line, capture=capture)

    monkeypatch.setattr(batch.work, "invoke", invoke)
    reports = batch.run(six_maps, ["verify"], jobs=2)
    assert [r.code for r in reports] == [0] * 6 and reports.interrupted
    summary = batch.Summary.of(reports)
    assert (summary.done, summary.interrupted, summary.exit) == (6, 0, 130)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
