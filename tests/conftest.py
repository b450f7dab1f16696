"""Shared fixtures: the real corpus (when ../shared is there) and synthetic maps."""
from __future__ import annotations

import functools
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
CORPUS_MAPS = sorted(CORPUS.glob("*/*.bsp")) if CORPUS.is_dir() else []
# the real console (PSBV, big-endian) map, kept apart from the PC corpus
CONSOLE_MAP = ROOT.parent / "shared" / "corpus-console" / "bsptool_x360_orangebox_shack_psbv.bsp"
sys.path.insert(0, str(Path(__file__).resolve().parent))
# pytest rewrites the asserts of every test module at each run, unless it may keep the result
# as bytecode: let it, even where PYTHONDONTWRITEBYTECODE is set (this machine's default), so
# that a second run (CI's `pytest --rest`) does not rewrite them again
sys.dont_write_bytecode = False


@functools.cache
def ksy_spec(name: str) -> dict:
    """`ksy/NAME.ksy`, parsed once per process (with libyaml where PyYAML has it)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load((ROOT / "ksy" / f"{name}.ksy").read_text(encoding="utf-8"), Loader=loader)


@pytest.fixture(autouse=True, scope="session")
def _own_cache_folder(tmp_path_factory):
    """The digest cache of every CLI run and API call in the tests lives in a temporary folder,
    never in the user's ~/.cache."""
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))
    # Every CLI test starts Python again: let the children cache bytecode (in a folder of the
    # run's own), so they do not compile bspedit's modules each time even where
    # PYTHONDONTWRITEBYTECODE is set (this machine's default)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ.setdefault("PYTHONPYCACHEPREFIX", str(tmp_path_factory.mktemp("pycache")))


def run_cli(*args: object) -> subprocess.CompletedProcess:
    """Run `python -m bspedit ARGS` and capture its text output."""
    return subprocess.run([sys.executable, "-m", "bspedit", *map(str, args)],
                          capture_output=True, text=True)


# The maps a plain `pytest` runs the corpus matrices on: a few of each family, small ones, that
# together hold the main variants (BSP 29, BSP2, BSPX; GoldSrc; Quake 2; Quake 3 with a patch;
# Source v20 with LZMA, v21 in both lump_t orders). `pytest --full` (CI) runs
# every map, and the tests marked `full`: fuzzing, conformance sets, every-step fault injection.
FAST_MAPS = {"q1/bsptool_remakequake_mp_lobby_bsp2",
             "q1/ericw_q1_cube_bspx", "goldsrc/hltopdown_test", "q2/bsptool_q2_mp_lobby",
             "q3/bspconvert_test_nonsolid_patch", "source/tf2classified_cp_stronghold_lzma",
             "source/bspsrc_csgo_tooltextures_v21", "source/ths_l4d2_test_mechanic01_v21"}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--full", action="store_true",
                     help="run everything CI runs: every corpus map in the corpus matrices, and "
                          "the tests marked full (fuzzing, conformance sets, fault injection at "
                          "every step); without it a plain pytest is the fast verdict")
    parser.addoption("--rest", action="store_true",
                     help="only what a plain pytest leaves out (CI: pytest, then pytest --rest)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "full: run only with --full (CI runs it)")


def _full_only(item: pytest.Item) -> bool:
    """A test of the full run: marked `full`, or parametrized with a corpus map not in
    FAST_MAPS."""
    if item.get_closest_marker("full"):
        return True
    params = getattr(getattr(item, "callspec", None), "params", {})
    return any(isinstance(v, Path) and v.parent.parent == CORPUS
               and f"{v.parent.name}/{v.stem}" not in FAST_MAPS for v in params.values())


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--full"):
        return
    rest = config.getoption("--rest")
    dropped = [item for item in items if _full_only(item) != rest]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if _full_only(item) == rest]


def pytest_report_header(config: pytest.Config) -> str:
    if config.getoption("--full"):
        return "bspedit: the full run (every corpus map, fuzzing, conformance)"
    if config.getoption("--rest"):
        return "bspedit: what the fast run leaves out (every corpus map, fuzzing, conformance)"
    return ("bspedit: the fast run; pytest --full runs everything CI runs (the corpus on every "
            "map, fuzzing, conformance)")


def corpus_sets() -> list:
    """Parameters for a test over a whole set of corpus maps at once: the fast run's maps
    (FAST_MAPS), and every corpus map under --full."""
    fast = [m for m in CORPUS_MAPS if f"{m.parent.name}/{m.stem}" in FAST_MAPS]
    return [pytest.param(fast, id="fast-maps"),
            pytest.param(CORPUS_MAPS, id="every-map", marks=pytest.mark.full)]


def corpus_maps(family: str | None = None) -> list:
    """Parameters for corpus tests: one per map, or one skipped entry without the corpus."""
    maps = [m for m in CORPUS_MAPS if family is None or m.parent.name == family]
    if not maps:
        return [pytest.param(None, marks=pytest.mark.skip(reason="../shared/corpus not present"))]
    return [pytest.param(m, id=f"{m.parent.name}/{m.stem}") for m in maps]


@pytest.fixture
def write_map(tmp_path):
    """Write map bytes to a file in tmp_path and return its path."""
    def write(data: bytes, name: str = "map.bsp") -> Path:
        path = tmp_path / name
        path.write_bytes(data)
        return path
    return write


def lump_content(bsp, index: int) -> bytes | list[tuple]:
    """What a lump holds, comparable across layouts: its bytes, or for the Source game lump
    (whose member offsets are absolute and move with it) its members."""
    from bspedit.format.gamelumpdir import game_lump_directory

    lump = bsp.lumps[index]
    if lump.name != "GAME_LUMP" or not lump.length:
        return bsp.read_lump(index)
    entries = game_lump_directory(bsp.read_lump(index)).entries
    ends = [e.offset for e in entries[1:]] + [lump.end]
    return [(e.id, e.flags, e.version, e.length,
             bsp.read_range(e.offset, e.offset + e.length if not e.flags & 1 else end)
             if e.offset else b"") for e, end in zip(entries, ends)]
