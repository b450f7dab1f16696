"""A long life of in-place edits (issue 14): the file grows by what the edits add, every
intermediate map verifies, and the CRC each save prints equals an independent one.

The edit sequence and the measures are bench/growth_bench.py's (there on a 150 MB map); here
on a real corpus map and a synthetic one, with a smaller pak payload.
"""
from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

from conftest import CORPUS, ROOT
from test_faults import BIG_PAK

SPEC = importlib.util.spec_from_file_location("growth_bench", ROOT / "bench" / "growth_bench.py")
growth = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(growth)
REAL = CORPUS / "source" / "sdk2013_sdk_vehicles_v19.bsp"
BSPREF = ROOT.parent / "shared" / "tools" / "bspref.py"


def live(path: Path, tmp_path: Path, rounds: int) -> dict:
    payload = tmp_path / "payload.vtf"
    payload.write_bytes(bytes(range(256)) * 120)              # 30 KB
    start = path.stat().st_size
    steps = growth.life(path, payload, rounds)
    assert all(s["crc_ok"] for s in steps)                   # life() also ran `verify` each time
    return growth.summary(start, steps)


@pytest.mark.full
@pytest.mark.skipif(not (REAL.exists() and BSPREF.exists()), reason="../shared not present")
def test_twenty_in_place_edits_of_a_real_map_leave_it_no_bigger_than_they_add(tmp_path):
    path = tmp_path / "map.bsp"
    shutil.copyfile(REAL, path)
    totals = live(path, tmp_path, rounds=4)
    assert totals["edits"] == 20
    assert totals["excess"] <= growth.LIMIT, totals


@pytest.mark.full
@pytest.mark.skipif(not BSPREF.exists(), reason="../shared not present")
def test_in_place_edits_of_a_synthetic_map_without_props(tmp_path):
    path = tmp_path / "map.bsp"
    path.write_bytes(BIG_PAK)
    totals = live(path, tmp_path, rounds=3)
    assert totals["edits"] == 12 and totals["excess"] <= growth.LIMIT, totals
    assert totals["growth"] < 4096                 # the pak payload came and went: no leftovers


@pytest.mark.skipif(not BSPREF.exists(), reason="../shared not present")
def test_pak_add_after_an_entity_edit_writes_only_the_new_bytes(tmp_path):
    """The pakfile is no longer last after `ent set --in-place`: the lump after it moves out
    of the way instead of the pakfile being copied."""
    path = tmp_path / "map.bsp"
    path.write_bytes(BIG_PAK)
    growth.edit(["ent", "set", str(path), "--where", "classname=worldspawn",
                 "message=" + "longer " * 30, "--in-place"])
    payload = tmp_path / "payload.vtf"
    payload.write_bytes(bytes(3000))
    size = path.stat().st_size
    _, written, _ = growth.edit(["pak", "add", str(path), str(payload), "--as", "a/b.vtf",
                                 "--in-place"])
    assert written < 3000 + 2 * 1036 + 600          # not the 20 KB pakfile again
    assert 3000 <= path.stat().st_size - size < 3000 + 600
    growth.verify(path)
