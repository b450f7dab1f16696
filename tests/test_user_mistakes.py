"""What a careless user does to every writing verb, through the CLI, on a real map.

Every verb that writes a file or a folder is run with a target that is the map itself, a
symbolic link to it, a hard link to it, a path in a read-only folder, a path on a full disk and
a path in a missing folder. Each time: the map's bytes are unchanged, the exit code is 2, the
message is one line naming the target, and nothing is left behind (no partial file, no
temporary file, no folder). A good target first shows that the verb works at all, so a refusal
is never a failure for another reason.
"""
from __future__ import annotations

import contextlib
import errno
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from conftest import CORPUS, run_cli

SOURCE_MAP = CORPUS / "source" / "valvebsp_testmap.bsp"
TINY = Path(__file__).resolve().parent / "data" / "tiny.bsp"


def _setup(folder: Path) -> dict[str, Path]:
    """Side files the verbs read: entity text, lump data, a lump file, a file to pack, lists."""
    side = folder / "side"
    side.mkdir()
    (side / "add.txt").write_bytes(b"hello\n")
    (side / "list.txt").write_text(f"materials/x/add.txt\n{side / 'add.txt'}\n")
    (side / "files.txt").write_text(f"{side / 'add.txt'}\n")
    (side / "cfg.cfg").write_text('add:\n{\n"classname" "info_target"\n"targetname" "t1"\n}\n')
    return {"side": side}


# name -> (arguments before the output option, output option, needs); MAP and side files are
# filled in by `_argv`; `folder` verbs take a folder target.
VERBS: dict[str, tuple[list[str], str]] = {
    "rewrite": (["rewrite", "{map}"], "-o"),
    "ent export": (["ent", "export", "{map}"], "-o"),
    "ent import": (["ent", "import", "{map}", "{ent}"], "-o"),
    "ent set": (["ent", "set", "{map}", "--where", "classname=worldspawn", "skyname=x"], "-o"),
    "ent add": (["ent", "add", "{map}", "classname=info_target"], "-o"),
    "ent remove": (["ent", "remove", "{map}", "--where", "classname=light_spot"], "-o"),
    "ent delete-key": (["ent", "delete-key", "{map}", "--where", "classname=worldspawn",
                        "skyname"], "-o"),
    "lump extract": (["lump", "extract", "{map}", "entities"], "-o"),
    "lump export": (["lump", "export", "{map}", "entities"], "-o"),
    "lump replace": (["lump", "replace", "{map}", "entities", "{ent}"], "-o"),
    "lump strip": (["lump", "strip", "{map}", "--preset", "server-download"], "-o"),
    "lump merge": (["lump", "merge", "{map}", "{lmp}"], "-o"),
    "gamelump extract": (["gamelump", "extract", "{map}", "sprp"], "-o"),
    "gamelump replace": (["gamelump", "replace", "{map}", "sprp", "{sprp}"], "-o"),
    "props set": (["props", "set", "{map}", "0", "skin=1"], "-o"),
    "props remove": (["props", "remove", "{map}", "0"], "-o"),
    "pak add": (["pak", "add", "{map}", "{side}/add.txt", "--as", "materials/x/add.txt"], "-o"),
    "pak addlist": (["pak", "addlist", "{map}", "{side}/list.txt"], "-o"),
    "pak addfiles": (["pak", "addfiles", "{map}", "materials/x/", "{side}/files.txt"], "-o"),
    "pak remove": (["pak", "remove", "{map}", "*.vhv"], "-o"),
    "pak rename": (["pak", "rename", "{map}", "materials/maps/testmap/c0_384_96.vtf",
                    "materials/maps/testmap/c1.vtf", "--references"], "-o"),
    "pak repack": (["pak", "repack", "{map}", "--store"], "-o"),
    "pak extract --to": (["pak", "extract", "{map}"], "--to"),
    "pak extract DIR": (["pak", "extract", "{map}"], "DIR"),
    "patch": (["patch", "{map}", "{side}/cfg.cfg"], "-o"),
    "compress": (["compress", "{map}"], "-o"),
}


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> dict[str, Path]:
    """A copy of the real map (read-only, so nothing but a bug can change it) and side files."""
    if not SOURCE_MAP.is_file():
        pytest.skip("../shared/corpus not present")
    folder = tmp_path_factory.mktemp("mistakes")
    files = _setup(folder)
    bsp = folder / "map.bsp"
    shutil.copyfile(SOURCE_MAP, bsp)
    files["map"] = bsp
    files["ent"] = folder / "side" / "map.ent"
    assert run_cli("ent", "export", bsp, "-o", files["ent"]).returncode == 0
    files["lmp"] = folder / "side" / "map_l_0.lmp"
    assert run_cli("lump", "export", bsp, "entities", "-o", files["lmp"]).returncode == 0
    files["sprp"] = folder / "side" / "sprp.bin"
    assert run_cli("gamelump", "extract", bsp, "sprp", "-o", files["sprp"]).returncode == 0
    bsp.chmod(0o444)
    files["bytes"] = bsp      # compared after every case
    return files


def _argv(verb: str, files: dict[str, Path], target: Path | str) -> list[str]:
    words, option = VERBS[verb]
    argv = [w.format(**{k: str(v) for k, v in files.items()}) for w in words]
    return argv + ([str(target)] if option == "DIR" else [option, str(target)])


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


@pytest.mark.parametrize("verb", sorted(VERBS))
def test_each_verb_works_with_a_good_target(world, verb, tmp_path):
    target = tmp_path / ("out" if VERBS[verb][1] == "DIR" else "out.bin")
    result = run_cli(*_argv(verb, world, target))
    assert result.returncode == 0, result.stderr
    assert target.exists()


def _refused(verb: str, world: dict[str, Path], target: Path, shown: Path | None = None,
             run: Callable[..., subprocess.CompletedProcess] = run_cli) -> str:
    original = SOURCE_MAP.read_bytes()
    result = run(*_argv(verb, world, target))
    assert world["map"].read_bytes() == original
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert str(shown or target) in lines[0], lines[0]
    assert "Traceback" not in result.stderr
    return lines[0]


@pytest.mark.parametrize("verb", sorted(VERBS))
@pytest.mark.parametrize("case", ["map", pytest.param("symlink", marks=pytest.mark.full),
                                  pytest.param("hardlink", marks=pytest.mark.full)])
def test_the_map_itself_is_never_a_target(world, verb, case, tmp_path):
    if case == "map":
        target = world["map"]
    elif case == "symlink":
        target = tmp_path / "link.bsp"
        target.symlink_to(world["map"])
    else:
        target = world["map"].with_name("hard.bsp")
        if not target.exists():
            os.link(world["map"], target)
    before = _leftovers(world["map"].parent)
    line = _refused(verb, world, target)
    assert "refused" in line
    assert _leftovers(world["map"].parent) == before


@pytest.mark.parametrize("verb", sorted(VERBS))
def test_a_path_in_a_missing_folder(world, verb, tmp_path):
    target = tmp_path / "missing" / ("out" if VERBS[verb][1] == "DIR" else "out.bin")
    if VERBS[verb][1] == "DIR":     # a folder target is created with its parents
        assert run_cli(*_argv(verb, world, target)).returncode == 0
        return
    _refused(verb, world, target)
    assert not (tmp_path / "missing").exists()


@contextlib.contextmanager
def _mounted(folder: Path, options: str) -> Iterator[None]:
    """A tmpfs at `folder` (root only), unmounted afterwards."""
    folder.mkdir(exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)],
                          capture_output=True)
    if done.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


@contextlib.contextmanager
def _read_only(folder: Path) -> Iterator[None]:
    """A folder no file can be created in: a read-only tmpfs for root (whom permissions do not
    stop), mode 0555 for anyone else."""
    if os.geteuid() == 0:
        with _mounted(folder, "ro,size=64k"):
            yield
        return
    folder.mkdir()
    folder.chmod(0o555)
    try:
        yield
    finally:
        folder.chmod(0o755)


@pytest.mark.parametrize("verb", sorted(VERBS))
def test_a_read_only_folder(world, verb, tmp_path):
    folder = tmp_path / "ro"
    with _read_only(folder):
        name = "out" if VERBS[verb][1] == "DIR" else "out.bin"
        _refused(verb, world, folder / name, shown=folder / name)
        assert _leftovers(folder) == []


@contextlib.contextmanager
def _full_disk(folder: Path) -> Iterator[None]:
    """A file system with no free block left (a small tmpfs filled up); root only."""
    if os.geteuid() != 0:
        pytest.skip("a full disk needs root to mount a small tmpfs")
    with _mounted(folder, "size=256k"):
        fd = os.open(folder / ".filler", os.O_WRONLY | os.O_CREAT)
        try:
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, bytes(4096))
        finally:
            os.close(fd)
        yield


@pytest.mark.parametrize("verb", sorted(VERBS))
def test_a_full_disk(world, verb, tmp_path):
    folder = tmp_path / "full"
    with _full_disk(folder):
        name = "out" if VERBS[verb][1] == "DIR" else "out.bin"
        line = _refused(verb, world, folder / name)
        assert os.strerror(errno.ENOSPC) in line
        assert _leftovers(folder) == [".filler"]


def test_extraction_that_would_overwrite_the_map_is_refused(world, tmp_path):
    """A pak entry named like the map, extracted into the map's own folder."""
    folder = tmp_path / "maps"
    folder.mkdir()
    bsp = folder / "map.bsp"
    packed = tmp_path / "packed.bsp"
    assert run_cli("pak", "add", world["map"], world["map"], "--as", "map.bsp",
                   "-o", packed).returncode == 0
    shutil.copyfile(packed, bsp)
    original = bsp.read_bytes()
    result = run_cli("pak", "extract", bsp, folder)
    assert result.returncode == 2
    assert "would overwrite the input map" in result.stderr
    assert bsp.read_bytes() == original
    assert _leftovers(folder) == ["map.bsp"]


def test_a_failed_extraction_leaves_the_folder_as_it_was(world, tmp_path):
    """An entry that cannot be written (a folder stands where a file goes) half-way through:
    the files extracted before it are taken back, and a file that was there stays."""
    target = tmp_path / "out"
    assert run_cli("pak", "extract", world["map"], target).returncode == 0
    names = sorted(p.relative_to(target) for p in target.rglob("*") if p.is_file())
    blocker = target / names[len(names) // 2]
    blocker.unlink()
    blocker.mkdir()
    (blocker / "keep").write_bytes(b"mine")
    first = target / names[0]
    first.write_bytes(b"edited by the user")
    before = sorted((p.relative_to(target), p.read_bytes() if p.is_file() else None)
                    for p in target.rglob("*"))
    result = run_cli("pak", "extract", world["map"], target)
    assert result.returncode == 2, result.stderr
    after = sorted((p.relative_to(target), p.read_bytes() if p.is_file() else None)
                   for p in target.rglob("*"))
    assert after == before


def test_a_folder_given_as_map(tmp_path):
    for argv in (["info", tmp_path], ["verify", tmp_path], ["ent", "export", tmp_path, "-o", "-"]):
        result = run_cli(*argv)
        assert result.returncode == 2
        assert result.stderr.strip() == \
            f"bspedit: {tmp_path}: a folder, not a map file (no maps in it)"


def test_a_closed_pipe_ends_quietly(tmp_path):
    """`bspedit ... | head -c 10`: exit 0, nothing on stderr."""
    reader = subprocess.Popen([sys.executable, "-m", "bspedit", "ent", "export", str(TINY), "-o",
                               "-"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    reader.stdout.close()     # the reader went away before reading anything
    assert reader.wait() == 0
    assert reader.stderr.read() == b""


def test_an_internal_error_is_one_line_and_exit_3(tmp_path):
    """A bug (here: a patched-in exception) prints one line; --debug adds the traceback."""
    code = ("import sys, bspedit.cli.container as c\n"
            "def boom(args): raise ZeroDivisionError('x')\n"
            "c.run_info = boom\n"
            "from bspedit.cli import main\n"
            "sys.exit(main(sys.argv[1:]))\n")
    for debug in ([], ["--debug"]):
        result = subprocess.run([sys.executable, "-c", code, *debug, "info", str(TINY)],
                                capture_output=True, text=True)
        assert result.returncode == 3
        assert "internal error, please report it" in result.stderr
        assert ("Traceback" in result.stderr) == bool(debug)


def test_version():
    result = run_cli("--version")
    import bspedit
    assert result.returncode == 0 and result.stdout.strip() == f"bspedit {bspedit.__version__}"


def test_ctrl_c_during_a_save_is_130_and_leaves_nothing(tmp_path, monkeypatch, capsys):
    """Ctrl-C while the new map is being written: exit 130, one line, no file, no temporary."""
    from bspedit.container import executor
    from bspedit.cli import main

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(executor, "write_pieces", interrupted)
    out = tmp_path / "out.bsp"
    code = main(["ent", "set", str(TINY), "--where", "classname=worldspawn", "skyname=x",
                 "-o", str(out)])
    assert code == 130
    assert capsys.readouterr().err.strip() == "bspedit: interrupted; nothing half-written"
    assert list(tmp_path.iterdir()) == []
