"""`lump` and `diff` on real maps: extract/replace and .lmp round trips, strip, diff."""
from __future__ import annotations

import json
import struct

import pytest

import synthetic
from bspedit.bsp import Bsp
from bspedit.errors import BspError
from bspedit.features.checks import problems
from bspedit.format.lumpfile import LumpFile, engine_order, next_free
from conftest import CONSOLE_MAP, corpus_maps, lump_content, run_cli


@pytest.mark.parametrize("path", corpus_maps())
def test_every_lump_extract_replace_and_lmp_merge_round_trip(path, tmp_path):
    original = path.read_bytes()
    with Bsp.open(path) as bsp:
        lumps = [l for l in bsp.lumps if l.length]
        for lump in lumps:
            for data in (bsp.read_lump(lump.index),
                         LumpFile.parse(LumpFile(lump.index, lump.version, bsp.header.revision or 0,
                                                 bsp.read_lump(lump.index)).to_bytes(), "x").data):
                bsp.replace_lump(lump.index, data)
                assert not bsp.dirty, lump.name
        bsp.save(tmp_path / "api.bsp")
        largest = max(lumps, key=lambda l: l.length)
    assert (tmp_path / "api.bsp").read_bytes() == original
    # and once through the CLI, with the largest lump and the entity lump
    extracted = tmp_path / "lump.bin"
    assert run_cli("lump", "extract", path, str(largest.index), "-o", extracted).returncode == 0
    assert run_cli("lump", "replace", path, largest.name, extracted, "-o", tmp_path / "r.bsp").returncode == 0
    assert (tmp_path / "r.bsp").read_bytes() == original
    copy = tmp_path / "map.bsp"
    copy.write_bytes(original)
    assert run_cli("lump", "export", copy, "entities").returncode == 0
    assert run_cli("lump", "export", copy, largest.name).returncode == 0
    files = [tmp_path / "map_l_1.lmp", tmp_path / "map_l_0.lmp"]
    result = run_cli("lump", "merge", copy, *files, "-o", tmp_path / "merged.bsp")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "merged.bsp").read_bytes() == original


def test_lmp_with_wrong_revision_or_version_is_refused(write_map, tmp_path):
    path = write_map(synthetic.sample("source"))
    record = LumpFile(1, 0, 41, synthetic.records(20, 3))            # the map is revision 42
    (tmp_path / "map_l_0.lmp").write_bytes(record.to_bytes())
    result = run_cli("lump", "merge", path, tmp_path / "map_l_0.lmp", "-o", tmp_path / "o.bsp")
    assert result.returncode == 2
    assert result.stderr == (f"bspedit: {tmp_path / 'map_l_0.lmp'}: file offset 16: made for map revision "
                             f"41, but {path} is revision 42 (--force to apply anyway)\n")
    assert not (tmp_path / "o.bsp").exists()
    (tmp_path / "map_l_0.lmp").write_bytes(LumpFile(1, 3, 42, b"x" * 20).to_bytes())
    result = run_cli("lump", "merge", path, tmp_path / "map_l_0.lmp", "-o", tmp_path / "o.bsp")
    assert result.returncode == 2 and "lump 1 (PLANES) version 3 differs from the map's 0" in result.stderr
    forced = run_cli("lump", "merge", path, tmp_path / "map_l_0.lmp", "--force", "-o", tmp_path / "o.bsp")
    assert forced.returncode == 0
    with Bsp.open(tmp_path / "o.bsp") as bsp:
        assert bsp.read_lump(1) == b"x" * 20 and bsp.lumps[1].version == 3


def test_lump_files_apply_in_engine_order_later_overriding_earlier(write_map, tmp_path):
    path = write_map(synthetic.sample("q2"))
    for n, fill in ((0, b"a"), (1, b"b"), (2, b"c")):
        (tmp_path / f"map_l_{n}.lmp").write_bytes(LumpFile(1, 0, 0, fill * 20).to_bytes())
    assert engine_order(["x_l_2.lmp", "x_l_10.lmp", "x_l_0.lmp"]) == ["x_l_0.lmp", "x_l_2.lmp", "x_l_10.lmp"]
    files = [tmp_path / "map_l_2.lmp", tmp_path / "map_l_0.lmp", tmp_path / "map_l_1.lmp"]
    assert run_cli("lump", "merge", path, *files, "-o", tmp_path / "o.bsp").returncode == 0
    with Bsp.open(tmp_path / "o.bsp") as bsp:
        assert bsp.read_lump(1) == b"c" * 20
    assert next_free(path) == tmp_path / "map_l_3.lmp"


def test_bad_lump_files_are_one_line_errors(write_map, tmp_path):
    path = write_map(synthetic.sample("q1"))
    short = tmp_path / "short_l_0.lmp"
    short.write_bytes(b"\x14\0\0\0")
    liar = tmp_path / "liar_l_0.lmp"
    liar.write_bytes(struct.pack("<5i", 20, 1, 0, 500, 0) + b"x" * 10)
    missing = tmp_path / "far_l_0.lmp"
    missing.write_bytes(LumpFile(99, 0, 0, b"").to_bytes())
    for bad, message in ((short, "has no 20-byte header"), (liar, "does not fit the 30-byte file"),
                         (missing, "lump id 99 does not exist in q1 maps")):
        result = run_cli("lump", "merge", path, bad, "-o", tmp_path / "o.bsp")
        assert result.returncode == 2 and message in result.stderr and "\n" == result.stderr[-1]


@pytest.mark.parametrize("path", corpus_maps("source") + corpus_maps("q1"))
def test_strip_keeps_every_other_lump_and_verifies(path, tmp_path):
    """By default the file shrinks (compact layout); `--layout stable` keeps every offset."""
    with Bsp.open(path) as bsp:
        name = "VISIBILITY" if bsp.family.engine == "quake1" else "PAKFILE"
        target = bsp.lump_index(name)
        emptied = bsp.lumps[target].length
    for layout in ([], ["--layout", "stable"]):
        out = tmp_path / "stripped.bsp"
        result = run_cli("lump", "strip", path, name, "-o", out, *layout)
        assert result.returncode == 0, result.stderr
        assert "map checksum" in result.stdout
        with Bsp.open(path) as original, Bsp.open(out, check=False) as stripped:
            assert problems(stripped) == []
            assert stripped.lumps[target].length == 0
            saved = original.size - stripped.size
            assert f"saved {saved} bytes" in result.stdout
            assert saved >= (emptied - 3 if not layout else 0)
            for lump in original.lumps:
                if lump.index != target:
                    assert lump_content(stripped, lump.index) == lump_content(original, lump.index)
                    if layout:
                        assert stripped.lumps[lump.index].offset == lump.offset


@pytest.mark.parametrize("path", corpus_maps())
def test_diff_against_itself_is_empty_and_after_an_edit_names_it(path, tmp_path):
    same = run_cli("diff", path, path, "--json")
    assert same.returncode == 0 and json.loads(same.stdout)["result"] == {
        "identical": True, "same_content": True, "verdict": "identical", "header": {},
        "lumps": [], "moved": []}
    out = tmp_path / "edited.bsp"
    assert run_cli("ent", "set", path, "--where", "classname=worldspawn", "message=diffed",
                   "-o", out).returncode == 0
    assert run_cli("ent", "add", out, "classname=info_null", "targetname=n1", "--in-place").returncode == 0
    result = run_cli("diff", path, out, "--json")
    assert result.returncode == 1
    report = json.loads(result.stdout)["result"]
    with Bsp.open(path) as bsp:
        entities = bsp.family.entities
        old_message = bsp.entities().worldspawn.get_all("message")
        count = len(bsp.entities())
    assert [l["index"] for l in report["lumps"]] == [entities] and report["moved"] == []
    assert report["lumps"][0]["content"] == "different" and report["verdict"] == "different"
    assert report["entities"]["removed"] == []
    assert report["entities"]["added"] == [{"index": count, "classname": "info_null",
                                            "pairs": [["classname", "info_null"], ["targetname", "n1"]]}]
    (changed,) = report["entities"]["changed"]
    assert changed["classname"] == "worldspawn" and changed["keys"] == [
        {"key": "message", "before": old_message, "after": ["diffed"] + old_message[1:]}]


def test_diff_lists_pakfile_entries(write_map, tmp_path):
    import io
    import zipfile
    def pak(files: dict) -> bytes:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            for name, data in files.items():
                archive.writestr(name, data)
        return buffer.getvalue()
    a = write_map(synthetic.make_map("source", {0: synthetic.ENTITIES, 40: pak({"a.txt": b"1", "b.txt": b"2"})}), "a.bsp")
    b = write_map(synthetic.make_map("source", {0: synthetic.ENTITIES, 40: pak({"a.txt": b"9", "c.txt": b"3"})}), "b.bsp")
    report = json.loads(run_cli("diff", a, b, "--json").stdout)["result"]
    assert report["pakfile"] == {"added": ["c.txt"], "removed": ["b.txt"], "changed": ["a.txt"],
                                 "recompressed": []}


@pytest.mark.skipif(not CONSOLE_MAP.exists(), reason="../shared/corpus-console not present")
def test_console_lump_files_are_big_endian_and_stay_with_their_kind(tmp_path):
    """A console map's .lmp header is written in its byte order and merges back; a PC map's
    lump file is refused by a console map, and the other way round."""
    lmp = tmp_path / "console_l_0.lmp"
    assert run_cli("lump", "export", CONSOLE_MAP, "planes", "-o", lmp).returncode == 0
    blob = lmp.read_bytes()
    with Bsp.open(CONSOLE_MAP) as bsp:
        planes = bsp.read_lump("planes")
        assert blob == struct.pack(">5i", 20, 1, bsp.lumps[1].version, len(planes),
                                   bsp.header.revision) + planes
    out = tmp_path / "merged.bsp"
    assert run_cli("lump", "merge", CONSOLE_MAP, lmp, "-o", out).returncode == 0
    assert out.read_bytes() == CONSOLE_MAP.read_bytes()
    pc = tmp_path / "pc_l_0.lmp"
    pc.write_bytes(LumpFile(1, 0, 27, planes).to_bytes())
    child = run_cli("lump", "merge", CONSOLE_MAP, pc, "-o", tmp_path / "no.bsp")
    assert child.returncode == 2 and not (tmp_path / "no.bsp").exists()
    assert "a lump file of a PC (little-endian) map; this is a console (big-endian) map" \
        in child.stderr
    with pytest.raises(BspError, match="lump file of a console"):
        LumpFile.parse(blob, "x.lmp")
