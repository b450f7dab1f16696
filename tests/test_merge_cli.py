"""`bspedit merge` as a careless user runs it, and what it reports: overlaps, mixed families,
an input as output, --shift naming another map, a map given twice, worldspawn
conflicts, targetname clashes (--rename-conflicts), --no-vis, --dry-run, --json (engine
limits: test_merge_limits)."""
from __future__ import annotations

import json
import re
import shutil
import struct
from pathlib import Path

import pytest
from conftest import CORPUS, run_cli

import bspedit

Q1 = CORPUS / "q1" / "bsptool_quake_mp_lobby.bsp"
HL = CORPUS / "goldsrc" / "hltopdown_test.bsp"
pytestmark = pytest.mark.skipif(not Q1.exists(), reason="../shared/corpus not present")


@pytest.fixture
def pair(tmp_path: Path) -> tuple[Path, Path]:
    a, b = tmp_path / "a.bsp", tmp_path / "b.bsp"
    shutil.copyfile(Q1, a)
    shutil.copyfile(Q1, b)
    return a, b


def entities(path: Path) -> list[dict[str, str]]:
    data = path.read_bytes()
    offset, length = struct.unpack_from("<ii", data, 4)
    text = data[offset:offset + length].decode("latin-1")
    return [dict(re.findall(r'"([^"]*)"\s*"([^"]*)"', block))
            for block in re.findall(r"\{([^{}]*)\}", text)]


def test_overlapping_maps_are_refused_naming_both(pair, tmp_path):
    a, b = pair
    done = run_cli("merge", a, b, "-o", tmp_path / "out.bsp")
    assert done.returncode == 2
    assert str(a) in done.stderr and str(b) in done.stderr and "overlap" in done.stderr
    assert not (tmp_path / "out.bsp").exists()


def test_families_are_not_mixed(pair, tmp_path):
    done = run_cli("merge", pair[0], HL, "--shift", f"{HL}=16384,0,0", "-o", tmp_path / "o.bsp")
    assert done.returncode == 2 and "one family" in done.stderr


def test_output_cannot_be_an_input(pair):
    a, b = pair
    before = b.read_bytes()
    done = run_cli("merge", a, b, "--shift", f"{b}=16384,0,0", "-o", b)
    assert done.returncode == 2 and b.read_bytes() == before


def test_shift_must_name_a_map_given(pair, tmp_path):
    done = run_cli("merge", *pair, "--shift", f"{tmp_path / 'c.bsp'}=16384,0,0",
                   "-o", tmp_path / "o.bsp")
    assert done.returncode == 2 and "not one of the maps" in done.stderr


def test_a_map_given_twice_is_refused(pair, tmp_path):
    a = pair[0]
    done = run_cli("merge", a, a, "--shift", f"{a}=16384,0,0", "-o", tmp_path / "o.bsp")
    assert done.returncode == 2 and "given twice" in done.stderr


def test_bad_shift_and_missing_map(pair, tmp_path):
    assert run_cli("merge", *pair, "--shift", "nonsense", "-o", tmp_path / "o.bsp").returncode == 2
    assert run_cli("merge", pair[0], tmp_path / "none.bsp", "-o", tmp_path / "o.bsp"
                   ).returncode == 2


def _name_things(path: Path, message: str) -> None:
    with bspedit.open(path) as bsp:
        lump = bsp.entities()
        lump.worldspawn["message"] = message
        lump.add_entity({"classname": "func_door", "targetname": "door"})
        lump.add_entity({"classname": "trigger_relay", "target": "door", "killtarget": "door"})
        bsp.save()


def test_clashes_and_conflicts_are_reported_then_renamed(pair, tmp_path):
    a, b = pair
    _name_things(a, "first")
    _name_things(b, "second")
    out = tmp_path / "o.bsp"
    shift = f"{b}=16384,0,0"
    done = run_cli("merge", a, b, "--shift", shift, "-o", out, "--json")
    result = json.loads(done.stdout)["result"]
    assert done.returncode == 0
    assert result["targetname_clashes"] == [{"name": "door", "maps": [str(a), str(b)]}]
    assert {"key": "message", "kept": "first", "dropped": "second", "map": str(b)} \
        in result["worldspawn_conflicts"]
    done = run_cli("merge", a, b, "--shift", shift, "-o", out, "--rename-conflicts", "--json")
    assert json.loads(done.stdout)["result"]["renamed"] == [
        {"map": str(b), "old": "door", "new": "door_2"}]
    found = entities(out)
    assert [e["message"] for e in found if e.get("classname") == "worldspawn"] == ["first"]
    assert sum(e.get("classname") == "worldspawn" for e in found) == 1
    relays = [e for e in found if e.get("classname") == "trigger_relay"]
    assert [(r["target"], r["killtarget"]) for r in relays] == [("door", "door"),
                                                                 ("door_2", "door_2")]
    assert [e["targetname"] for e in found if e.get("classname") == "func_door"] == \
        ["door", "door_2"]


def test_no_vis_drops_visibility_and_says_so(pair, tmp_path):
    out = tmp_path / "o.bsp"
    done = run_cli("merge", *pair, "--shift", f"{pair[1]}=16384,0,0", "-o", out, "--no-vis")
    assert done.returncode == 0 and "visibility dropped (--no-vis)" in done.stdout
    with bspedit.open(out) as bsp:
        assert bsp.lumps[bsp.lump_index("VISIBILITY")].length == 0
        assert (bsp.records("LEAFS")["visofs"] == -1).all()


def test_dry_run_writes_nothing(pair, tmp_path):
    out = tmp_path / "o.bsp"
    done = run_cli("merge", *pair, "--shift", f"{pair[1]}=16384,0,0", "-o", out, "--dry-run")
    assert done.returncode == 0 and "would write" in done.stdout and not out.exists()


def test_goldsrc_wad_lists_are_joined(tmp_path):
    a, b = tmp_path / "a.bsp", tmp_path / "b.bsp"
    for path, wad in ((a, "halflife.wad;decals.wad"), (b, "decals.wad;custom.wad")):
        shutil.copyfile(HL, path)
        with bspedit.open(path) as bsp:
            bsp.entities().worldspawn["wad"] = wad
            bsp.save()
    out = tmp_path / "o.bsp"
    assert run_cli("merge", a, b, "--shift", f"{b}=16384,0,0", "-o", out).returncode == 0
    world = [e for e in entities(out) if e.get("classname") == "worldspawn"]
    assert world[0]["wad"] == "halflife.wad;decals.wad;custom.wad"


def test_bounds_no_axial_plane_can_split_are_refused():
    from bspedit.errors import BspError
    from bspedit.features.merge import tree

    pinwheel = {0: ((0, 0, 0), (2, 1, 1)), 1: ((2, 0, 0), (3, 2, 1)),
                2: ((1, 2, 0), (3, 3, 1)), 3: ((0, 1, 0), (1, 3, 1))}
    assert all(tree.overlap(pinwheel[i], pinwheel[j]) is None
               for i in pinwheel for j in pinwheel if i < j)
    with pytest.raises(BspError, match="axial planes"):
        tree.split(pinwheel)
    joined = tree.split({0: pinwheel[0], 1: pinwheel[1], 2: pinwheel[2]})
    assert len(tree.splits(joined)) == 2
