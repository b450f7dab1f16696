"""Game lump member removal and the strip presets."""
from __future__ import annotations

import pytest

import synthetic
from bspedit.bsp import Bsp
from bspedit.features.checks import problems
from bspedit.lumps.gamelump import fourcc, remove_members
from bspedit.format.gamelumpdir import game_lump_directory
from bspedit.features.presets import PRESETS
from conftest import CORPUS, corpus_maps, lump_content, run_cli


def _members(data: bytes, lump_offset: int) -> dict[bytes, bytes]:
    entries = game_lump_directory(data).entries
    return {e.id: data[e.offset - lump_offset:e.offset - lump_offset + e.length]
            for e in entries if e.offset and not e.flags & 1}


def test_removing_a_member_keeps_the_others_at_valid_offsets():
    build = synthetic.game_lump([(b"sprp", 0, 10, b"S" * 12), (b"dplt", 0, 0, b"L" * 8),
                                 (b"dplh", 0, 0, b"H" * 8), (b"dprp", 0, 4, b"D" * 4)])
    data = build(5000)
    stripped = remove_members(data, 5000, {"dplh"})
    assert game_lump_directory(stripped).count == 3
    assert _members(stripped, 5000) == {fourcc("sprp"): b"S" * 12, fourcc("dplt"): b"L" * 8,
                                        fourcc("dprp"): b"D" * 4}
    assert len(stripped) == len(data) - 16 - 8
    assert remove_members(data, 5000, {"nope"}) is data


@pytest.mark.skipif(not (CORPUS / "source").is_dir(), reason="../shared/corpus not present")
def test_removing_a_compressed_member_keeps_the_terminators_right():
    with Bsp.open(CORPUS / "source" / "tf2classified_cp_stronghold_lzma.bsp") as bsp:
        lump = bsp.lumps[35]
        data = bsp.read_lump(35)
    before = game_lump_directory(data).entries
    stripped = remove_members(data, lump.offset, {"dprp"})
    after = game_lump_directory(stripped).entries
    assert [e.id for e in after] == [fourcc("sprp"), bytes(4), bytes(4)]
    sprp, end, zero = after
    assert data[before[0].offset - lump.offset:before[1].offset - lump.offset] == \
        stripped[sprp.offset - lump.offset:end.offset - lump.offset]
    assert end.offset == lump.offset + len(stripped) and zero.offset == 0


VALVE_TESTMAP = CORPUS / "source" / "valvebsp_testmap.bsp"


@pytest.mark.skipif(not VALVE_TESTMAP.exists(), reason="../shared/corpus not present")
def test_no_hdr_preset_on_a_real_map(tmp_path):
    out = tmp_path / "nohdr.bsp"
    result = run_cli("lump", "strip", VALVE_TESTMAP, "--preset", "no-hdr", "-o", out)
    assert result.returncode == 0, result.stderr
    assert "removed game lump member(s): dplh" in result.stdout and "(CHANGED)" in result.stdout
    preset = PRESETS["no-hdr"]
    with Bsp.open(VALVE_TESTMAP) as original, Bsp.open(out, check=False) as stripped:
        assert problems(stripped) == []
        emptied = {original.lump_index(name) for name in preset.lumps}
        for lump in original.lumps:
            new = stripped.lumps[lump.index]
            if lump.index in emptied:
                assert (new.length, new.version, new.fourcc) == (0, 0, 0)
            elif lump.index != 35:
                assert stripped.read_lump(lump.index) == original.read_lump(lump.index)
        old = _members(original.read_lump(35), original.lumps[35].offset)
        new = _members(stripped.read_lump(35), stripped.lumps[35].offset)
        assert fourcc("dplh") in old and new == {k: v for k, v in old.items() if k != fourcc("dplh")}


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_server_download_preset_empties_only_tool_lumps(path, tmp_path):
    out = tmp_path / "small.bsp"
    assert run_cli("lump", "strip", path, "--preset", "server-download", "-o", out).returncode == 0
    with Bsp.open(path) as original, Bsp.open(out, check=False) as stripped:
        assert problems(stripped) == []
        allowed = {"FACEIDS", "ORIGINALFACES", "FACE_MACRO_TEXTURE_INFO"}
        if original.header.version <= 20:
            allowed |= {"PROPCOLLISION", "PROPHULLS", "PROPHULLVERTS", "PROPTRIS"}
        for lump in original.lumps:
            if lump.name not in allowed:
                assert lump_content(stripped, lump.index) == lump_content(original, lump.index)
            else:
                assert stripped.lumps[lump.index].length == 0
        emptied = sum(original.lumps[original.lump_index(n)].length for n in allowed
                      if original.family.index_of(n) is not None)
        assert stripped.size <= original.size - emptied + 3     # compact by default


def test_no_hdr_refuses_an_hdr_only_map(write_map, tmp_path):
    lumps = {0: synthetic.ENTITIES, 53: b"\x10" * 64, 7: synthetic.records(56, 1)}
    path = write_map(synthetic.make_map("source", lumps))
    result = run_cli("lump", "strip", path, "--preset", "no-hdr", "-o", tmp_path / "o.bsp")
    assert result.returncode == 2
    assert "would remove LIGHTING_HDR but LIGHTING is empty" in result.stderr
    assert not (tmp_path / "o.bsp").exists()


def test_presets_are_for_source_maps_and_strip_needs_something(write_map, tmp_path):
    path = write_map(synthetic.sample("q1"))
    assert "is for Source maps" in run_cli("lump", "strip", path, "--preset", "no-hdr",
                                          "-o", tmp_path / "o.bsp").stderr
    assert run_cli("lump", "strip", path, "-o", tmp_path / "o.bsp").returncode == 2
