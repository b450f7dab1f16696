"""Fault injection for saves: a crash at each write step of `-o` and `--in-place` saves.

Every call the save makes to the operating system that writes, syncs, renames, opens or closes
(os.open, write, pwrite, copy_file_range, lseek, ftruncate, fchmod, fsync, close, replace,
unlink) is a step. For each step N the save is run again and crashes just before step N: by an
exception (in-process), by SIGKILL (a forked child), or by ENOSPC (the CLI, which must then
print one line and exit 2). Afterwards:

* `-o OUT`: the input map is byte-identical; OUT is absent, or holds what it held before, or is
  the complete new map. An exception removes the temporary file; after SIGKILL it may remain,
  under a temporary name only.
* `--in-place`: before the first header commit the map re-opens with every lump byte-identical
  and its original bytes as they were, but for bytes that were zeros outside every lump and
  trailing data (free space the save fills) and bytes appended beyond the original end; between
  commits (a lump moved out of the way of another's growth) every lump reads as it was; once
  the last header is committed it re-opens as the complete new map (lumps and header as a
  fault-free save writes them).

Seeds beyond the plain synthetic maps put an in-place save on the new paths: a vacated slot
reused as a hole (`source-holed`), a big pakfile growing while a lump sits after it (two
commits), and a pak removal cutting the lump back to an earlier zip (the file truncated).
"""
from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import fuzzing
import synthetic
from bspedit.bsp import Bsp
from test_pakfile import VMT, stdlib_zip

STEPS = ("open", "write", "pwrite", "copy_file_range", "lseek", "ftruncate", "fchmod", "fsync",
         "close", "replace", "unlink")
MAP = "map.bsp"
OUT = "out.bsp"
OLD_OUT = b"an older file that -o OUT replaces"


class InjectedCrash(Exception):
    """The exception a fault raises (not an OSError, which the copy code handles itself)."""


@contextlib.contextmanager
def faults(fail_at: int | None = None, action: str = "raise") -> Iterator[list[tuple]]:
    """Count the steps made inside the block (yielded as (name, first argument, offset) tuples)
    and crash just before step `fail_at` (1-based): raise InjectedCrash, raise OSError(ENOSPC),
    or kill the process."""
    steps: list[tuple] = []
    real = {name: getattr(os, name) for name in STEPS}

    def wrap(name: str) -> Callable:
        def step(*args: object, **kwargs: object) -> object:
            offset = args[2] if name == "pwrite" else None
            steps.append((name, args[0] if args else None, offset))
            if len(steps) == fail_at:
                if action == "kill":
                    os.kill(os.getpid(), signal.SIGKILL)
                if action == "enospc":
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                raise InjectedCrash(f"crash before step {fail_at} ({name})")
            return real[name](*args, **kwargs)
        return step

    for name in STEPS:
        setattr(os, name, wrap(name))
    try:
        yield steps
    finally:
        for name, function in real.items():
            setattr(os, name, function)


# -- edits and save modes ------------------------------------------------------------------------

def edit_entities(bsp: Bsp) -> None:
    bsp.entities().worldspawn.set("message", "fault injection")


def grow_first_lump(bsp: Bsp) -> None:
    """The first lump in file order gets 64 more bytes: it no longer fits and moves."""
    index = bsp.layout.order[0]
    bsp.replace_lump(index, bsp.read_lump(index) + synthetic.records(4, 16))


def add_pak_entry(bsp: Bsp, in_place: bool) -> None:
    from bspedit.lumps.pakfile import Pakfile

    pak = Pakfile.of(bsp)
    pak.add("materials/fault/injected.vmt", b'"LightmappedGeneric" {}\n')
    pak.apply(bsp, in_place=in_place)


def remove_pak_entry(bsp: Bsp, in_place: bool) -> None:
    from bspedit.lumps.pakfile import Pakfile

    pak = Pakfile.of(bsp)
    pak.remove([pak.find("materials/fault/injected.vmt")])
    pak.apply(bsp, in_place=in_place)


def edited_in_place(data: bytes, *edits: Callable[[Bsp], None]) -> bytes:
    """`data` after in-place saves of `edits`, one after the other."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / MAP
        path.write_bytes(data)
        for edit in edits:
            with Bsp.open(path) as bsp:
                edit(bsp)
                bsp.save_in_place()
        return path.read_bytes()


def grow_entities(bsp: Bsp) -> None:
    bsp.entities().worldspawn.set("message", "an earlier, longer in-place edit")


BIG_PAK = synthetic.make_map("source", {0: synthetic.ENTITIES, 1: synthetic.records(20, 3),
                                        40: stdlib_zip({"sound/big.wav": bytes(20000),
                                                        "materials/a.vmt": VMT})},
                             order=[1, 0, 40], revision=3)
EDITS = {"entities": lambda bsp, in_place: edit_entities(bsp),
         "grow": lambda bsp, in_place: grow_first_lump(bsp),
         "pak-add": add_pak_entry, "pak-remove": remove_pak_entry,
         "entities-short": lambda bsp, in_place: bsp.entities().worldspawn.set("message", "hole")}
ONLY = {"pak-remove": "source-pak-added", "entities-short": "source-holed"}   # edit -> its seed
NOT = {("source-pak-added", "pak-add")}
SEEDS = {"source": synthetic.sample("source"), "q1-bspx": synthetic.sample("q1"),
         "source-lzma": fuzzing.seeds()["synthetic/source-lzma"],
         "source-holed": edited_in_place(synthetic.sample("source"), grow_entities),
         "source-pak-inside": edited_in_place(BIG_PAK, grow_entities),
         "source-pak-added": edited_in_place(BIG_PAK, lambda bsp: add_pak_entry(bsp, True))}
MODES = ("new", "over", "self", "in-place")
SCENARIOS = [(seed, edit, mode) for seed in SEEDS for edit in EDITS for mode in MODES
             if not (edit.startswith("pak") and not seed.startswith("source"))
             and ONLY.get(edit, seed) == seed and (seed, edit) not in NOT]


def prepare(folder: Path, seed: str, mode: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / MAP
    path.write_bytes(SEEDS[seed])
    if mode == "over":
        (folder / OUT).write_bytes(OLD_OUT)
    return path


def save(path: Path, edit: str, mode: str) -> None:
    """Open the map, edit it and save it the way `mode` says."""
    with Bsp.open(path) as bsp:
        EDITS[edit](bsp, mode == "in-place")
        if mode == "in-place":
            bsp.save_in_place()
        else:           # the writer itself (bsp.save adds checksums and a digest cache)
            bsp.save_planned(path if mode == "self" else path.parent / OUT, *bsp.plan(), "stable")


def lumps_of(path: Path) -> tuple[bytes, list[bytes]]:
    with Bsp.open(path) as bsp:
        return bsp.read_range(0, bsp.header.size), [bsp.read_lump(l.index) for l in bsp.lumps]


def reference(tmp_path: Path, seed: str, edit: str, mode: str) -> tuple[bytes, list[tuple]]:
    """The file a fault-free save writes, and the steps it takes."""
    path = prepare(tmp_path / "reference", seed, mode)
    with faults() as steps:
        save(path, edit, mode)
    written = path if mode in ("self", "in-place") else path.parent / OUT
    return written.read_bytes(), list(steps)


def check_after_crash(folder: Path, seed: str, mode: str, expected: bytes, committed: int,
                      killed: bool) -> None:
    """The state a crash may leave (see the module docstring)."""
    original = SEEDS[seed]
    path = folder / MAP
    names = set(os.listdir(folder))
    temporary = {n for n in names if n.startswith(f".{OUT if mode != 'self' else MAP}.")
                 and n.endswith(".tmp")}
    if killed:
        assert len(temporary) <= 1
    else:
        assert not temporary, f"temporary file left behind: {temporary}"
    assert names - temporary <= {MAP, OUT}
    if mode == "in-place":
        data = path.read_bytes()
        if committed == ALL:
            assert lumps_of(path) == lumps_of_bytes(folder, expected)
        elif committed:         # between commits: lumps moved, before or after the edit
            assert lumps_of(path)[1] in (lumps_of_bytes(folder, original)[1],
                                         lumps_of_bytes(folder, expected)[1])
        else:
            live = live_ranges(original)
            changed = [i for i, (a, b) in enumerate(zip(data, original)) if a != b]
            assert not [i for i in changed if original[i] or any(s <= i < e for s, e in live)]
            assert lumps_of(path) == lumps_of_bytes(folder, original)
        return
    if mode == "self":
        assert path.read_bytes() in (original, expected)
        return
    assert path.read_bytes() == original
    out = folder / OUT
    before = (None, OLD_OUT) if mode == "over" else (None,)
    assert (out.read_bytes() if out.exists() else None) in before + (expected,)


ALL = -1      # `committed` of a crash after the last header commit


def live_ranges(data: bytes) -> list[tuple[int, int]]:
    """The header, the lumps and the trailing data of a map, as (start, end) ranges."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / MAP
        path.write_bytes(data)
        with Bsp.open(path) as bsp:
            tail = bsp.layout.tail
            return [(0, bsp.header.size)] + [(l.offset, l.end) for l in bsp.lumps if l.length] \
                + ([(tail.start, tail.end)] if tail and bsp.tail_is_data() else [])


def lumps_of_bytes(folder: Path, data: bytes) -> tuple[bytes, list[bytes]]:
    scratch = folder.parent / f"{folder.name}-expected.bsp"
    scratch.write_bytes(data)
    return lumps_of(scratch)


def header_steps(steps: list[tuple]) -> list[int]:
    """1-based numbers of the in-place header commits (the pwrites at offset 0)."""
    return [n for n, (name, _, offset) in enumerate(steps, 1) if name == "pwrite" and offset == 0]


def commits_before(step: int, commits: list[int]) -> int:
    """How many header commits a crash before `step` leaves done: ALL when all of them."""
    done = sum(1 for c in commits if c < step)
    return ALL if commits and done == len(commits) else done


# -- the tests -----------------------------------------------------------------------------------

@pytest.mark.parametrize("seed, edit, mode", SCENARIOS)
def test_exception_at_every_step(tmp_path, seed, edit, mode):
    expected, steps = reference(tmp_path, seed, edit, mode)
    commits = header_steps(steps)
    assert steps and bool(commits) == (mode == "in-place")
    for n in range(1, len(steps) + 1):
        folder = tmp_path / f"step{n}"
        path = prepare(folder, seed, mode)
        with pytest.raises(InjectedCrash), faults(n):
            save(path, edit, mode)
        check_after_crash(folder, seed, mode, expected, commits_before(n, commits), killed=False)


@pytest.mark.full
@pytest.mark.parametrize("seed, edit, mode", SCENARIOS)
def test_killed_at_every_step(tmp_path, seed, edit, mode):
    expected, steps = reference(tmp_path, seed, edit, mode)
    commits = header_steps(steps)
    for n in range(1, len(steps) + 1):
        folder = tmp_path / f"step{n}"
        path = prepare(folder, seed, mode)
        pid = os.fork()
        if pid == 0:                                   # the child saves and is killed
            try:
                with faults(n, "kill"):
                    save(path, edit, mode)
            finally:
                os._exit(3)
        _, status = os.waitpid(pid, 0)
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, status
        check_after_crash(folder, seed, mode, expected, commits_before(n, commits), killed=True)


def test_steps_cover_every_kind_of_write(tmp_path):
    """The counted steps are the save's writes: the -o save writes, syncs, renames; the
    in-place one appends, commits the header with pwrite and syncs."""
    _, as_file = reference(tmp_path / "o", "source", "grow", "new")
    _, in_place = reference(tmp_path / "i", "source", "grow", "in-place")
    assert {"open", "write", "fchmod", "fsync", "close", "replace"} <= {s[0] for s in as_file}
    assert {"lseek", "write", "pwrite", "fsync"} <= {s[0] for s in in_place}
    assert [s[0] for s in in_place].count("fsync") >= 2       # before and after the commit


_CLI_CHILD = """
import json, sys
sys.path.insert(0, {tests!r})
from test_faults import faults
from bspedit.cli import main
with faults({step}, "enospc") as steps:
    code = main({argv!r})
with open({log!r}, "w") as log:
    json.dump(steps, log)
sys.exit(code)
"""


def run_cli_with_fault(folder: Path, argv: list[str], step: int | None) -> tuple:
    """Run bspedit's main() in a child that raises ENOSPC before step `step`; return the
    finished process and the steps it took (None if it did not get to record them)."""
    log = folder / "steps.json"
    code = _CLI_CHILD.format(tests=str(Path(__file__).parent), step=step, argv=argv, log=str(log))
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    steps = json.loads(log.read_text()) if log.exists() else None
    if log.exists():
        log.unlink()
    return child, steps


@pytest.mark.full
@pytest.mark.parametrize("mode", ["new", "in-place"])
def test_cli_disk_full_at_every_step(tmp_path, mode):
    """ENOSPC at any step of `ent set`: one line on stderr and exit 2 with the map intact, or
    (where bspedit recovers: copy_file_range falls back to read and write) a correct save."""
    expected, _ = reference(tmp_path, "source", "entities", mode)

    def argv(folder: Path) -> list[str]:
        target = ["--in-place"] if mode == "in-place" else ["-o", str(folder / OUT)]
        return ["ent", "set", str(folder / MAP), "--where", "classname=worldspawn",
                "message=fault injection", *target]

    clean = tmp_path / "clean"
    prepare(clean, "source", mode)
    child, steps = run_cli_with_fault(clean, argv(clean), None)
    assert child.returncode == 0 and steps, child.stderr
    commits = header_steps([tuple(s) for s in steps])
    failed = 0
    for n in range(1, len(steps) + 1):
        folder = tmp_path / f"step{n}"
        prepare(folder, "source", mode)
        child, taken = run_cli_with_fault(folder, argv(folder), n)
        # the child's own steps: a warm digest cache can spare it some of the clean run's
        committed = commits_before(n, header_steps([tuple(s) for s in taken]) if taken
                                   else commits)
        if child.returncode == 0:
            written = folder / (MAP if mode == "in-place" else OUT)
            assert lumps_of(written) == lumps_of_bytes(folder, expected)
            continue
        failed += 1
        assert child.returncode == 2, child.stderr
        assert child.stderr.count("\n") == 1 and child.stderr.startswith("bspedit: "), child.stderr
        assert "No space left on device" in child.stderr
        check_after_crash(folder, "source", mode, expected, committed, killed=False)
    assert failed >= len(steps) // 2


def test_seeds_take_the_new_in_place_paths(tmp_path):
    """The in-place seeds above do reach hole reuse, two commits and truncation."""
    with Bsp.open(prepare(tmp_path / "holed", "source-holed", "in-place")) as bsp:
        EDITS["entities-short"](bsp, True)
        header, plan = bsp.plan("in-place")
        assert len(plan.commits) == 1 and header.lumps[0].offset < bsp.lumps[0].offset
    _, steps = reference(tmp_path / "inside", "source-pak-inside", "pak-add", "in-place")
    assert len(header_steps(steps)) == 2
    before = len(SEEDS["source-pak-added"])
    after, steps = reference(tmp_path / "added", "source-pak-added", "pak-remove", "in-place")
    assert len(after) < before and "ftruncate" in {s[0] for s in steps}
    assert after == BIG_PAK[:len(after)] and len(after) == len(BIG_PAK)
