"""Shared fixtures: the real corpus (when ../shared is there) and synthetic maps."""
from __future__ import annotations

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


@pytest.fixture(autouse=True, scope="session")
def _own_cache_folder(tmp_path_factory):
    """The digest cache of every CLI run and API call in the tests lives in a temporary folder,
    never in the user's ~/.cache."""
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))


def run_cli(*args: object) -> subprocess.CompletedProcess:
    """Run `python -m bspedit ARGS` and capture its text output."""
    return subprocess.run([sys.executable, "-m", "bspedit", *map(str, args)],
                          capture_output=True, text=True)


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
