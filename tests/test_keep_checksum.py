"""Checksums around saves: predicted before writing, kept by entity edits, checked by engines."""
from __future__ import annotations

import subprocess

import pytest

import synthetic
from bspedit.bsp import Bsp
from bspedit.mapsums import checksums_after, map_checksums
from conftest import CORPUS, corpus_maps, run_cli
from test_checksum import TOOLS, needs_ioq3, needs_mvdsv

SAMPLES = ["q1", "goldsrc", "q2", "q3", "source"]


@pytest.mark.parametrize("kind", SAMPLES)
@pytest.mark.parametrize("layout", ["stable", "compact", "in-place"])
def test_predicted_checksums_equal_those_of_the_saved_file(write_map, tmp_path, kind, layout):
    path = write_map(synthetic.sample(kind))
    with Bsp.open(path) as bsp:
        bsp.entities().worldspawn.set("message", "a much longer message than before " * 3)
        planes = 2 if kind == "q3" else 1
        bsp.replace_lump(planes, bsp.read_lump(planes) + synthetic.records(16 if kind == "q3" else 20, 2))
        predicted = checksums_after(bsp, layout)
        if layout == "in-place":
            bsp.save_in_place()
            assert map_checksums(bsp) == predicted
        else:
            bsp.save(tmp_path / "out.bsp", layout)
            with Bsp.open(tmp_path / "out.bsp") as saved:
                assert map_checksums(saved) == predicted


def test_keep_checksum_allows_an_entity_edit_on_source(write_map, tmp_path):
    path = write_map(synthetic.sample("source"))
    result = run_cli("ent", "set", path, "--where", "classname=worldspawn", "skyname=night",
                     "--keep-checksum", "-o", tmp_path / "out.bsp")
    assert result.returncode == 0, result.stderr
    assert "(unchanged)" in result.stdout


def test_keep_checksum_refuses_a_whole_file_engine_edit(write_map, tmp_path):
    path = write_map(synthetic.sample("q3"))
    result = run_cli("ent", "set", path, "--where", "classname=worldspawn", "message=x",
                     "--keep-checksum", "-o", tmp_path / "out.bsp")
    assert result.returncode == 1
    assert "--keep-checksum: refused, block_checksum would change" in result.stderr
    assert "engines checksum the whole file); nothing written" in result.stderr
    assert not (tmp_path / "out.bsp").exists()


def test_keep_checksum_refuses_a_layout_that_moves_the_game_lump(write_map, tmp_path):
    lumps = {0: synthetic.ENTITIES, 1: synthetic.records(20, 2),
             35: synthetic.game_lump([(b"sprp", 0, 10, b"\x00" * 12)])}
    path = write_map(synthetic.make_map("source", lumps, order=[1, 0, 35], marker=bytes(16)))
    result = run_cli("rewrite", path, "--layout", "compact", "--keep-checksum", "-o", tmp_path / "o.bsp")
    assert result.returncode == 1 and "crc32 would change" in result.stderr
    assert "lumps moved" in result.stderr and not (tmp_path / "o.bsp").exists()
    assert run_cli("rewrite", path, "--keep-checksum", "-o", tmp_path / "o.bsp").returncode == 0


def _engine(script: str, path) -> str:
    return subprocess.run(["bash", str(TOOLS / script), str(path)], capture_output=True, text=True,
                          timeout=120).stdout


def _edit_worldspawn(path, out) -> None:
    result = run_cli("ent", "set", path, "--where", "classname=worldspawn",
                     "message=edited by bspedit", "-o", out)
    assert result.returncode == 0, result.stderr


@needs_mvdsv
@pytest.mark.parametrize("path", corpus_maps("q1") + corpus_maps("goldsrc"))
def test_edited_quake1_and_halflife_maps_load_in_mvdsv_with_unchanged_checksums(path, tmp_path):
    out = tmp_path / "edited.bsp"
    _edit_worldspawn(path, out)
    before, after = _engine("q1oracle.sh", path), _engine("q1oracle.sh", out)
    assert "loaded: yes" in after
    sums = [line for line in after.splitlines() if line.startswith("checksum:")]
    assert len(sums) == 2 and sums == [l for l in before.splitlines() if l.startswith("checksum:")]
    with Bsp.open(out) as edited:
        ours = map_checksums(edited)
    assert f"0x{ours['map_checksum']:08x}" in sums[0] and f"0x{ours['map_checksum2']:08x}" in sums[1]


@needs_ioq3
@pytest.mark.parametrize("path", corpus_maps("q3"))
def test_edited_quake3_maps_load_in_openarena(path, tmp_path):
    out = tmp_path / "edited.bsp"
    _edit_worldspawn(path, out)
    report = _engine("q3oracle.sh", out)
    assert "loaded: yes" in report
    with Bsp.open(out) as edited:
        assert f"0x{map_checksums(edited)['block_checksum']:08x}" in report
