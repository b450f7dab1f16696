"""`dump MAP DIR` and `build DIR -o MAP`: the round trip is byte for byte on every corpus map,
and an edit of a dumped file changes only its lump (the others keep bytes and offsets)."""
from __future__ import annotations

import csv
import errno
import json
import os
import shutil
import struct
import time
from pathlib import Path

import pytest

from bspedit.bsp import Bsp
from bspedit.cli import invoke
from bspedit.cli.report import Report
from conftest import CORPUS, CORPUS_MAPS, corpus_maps, run_cli

Q1 = CORPUS / "q1" / "slipgate_b_batt0.bsp"
SOURCE = CORPUS / "source" / "sdk2013_sdk_vehicles_v19.bsp"
LZMA = CORPUS / "source" / "tf2classified_cp_stronghold_lzma.bsp"
needs_corpus = pytest.mark.skipif(not Q1.exists(), reason="../shared/corpus not present")
_TIMES: list[float] = []


def cli(*argv: object) -> Report:
    """Run the CLI in this process (fast: no interpreter start), output captured."""
    return invoke([str(a) for a in argv], capture=True)


@pytest.mark.parametrize("path", corpus_maps())
def test_dump_then_build_is_byte_identical(path, tmp_path):
    start = time.perf_counter()
    dumped = cli("dump", path, tmp_path / "d")
    assert dumped.code == 0, dumped.stderr
    built = cli("build", tmp_path / "d", "-o", tmp_path / "out.bsp")
    assert built.code == 0, built.stderr
    assert (tmp_path / "out.bsp").read_bytes() == path.read_bytes()
    assert "edited: nothing" in built.stdout
    _TIMES.append(time.perf_counter() - start)


@pytest.mark.full
def test_the_round_trip_of_the_corpus_takes_under_a_minute():
    """Measured over the test above (same session): about 16 s for the 40 maps."""
    if len(_TIMES) != len(CORPUS_MAPS) or not CORPUS_MAPS:
        pytest.skip("run with the whole round trip test")
    assert sum(_TIMES) < 60


def _dump(source: Path, tmp_path: Path) -> tuple[Path, Path]:
    folder = tmp_path / "d"
    report = cli("dump", source, folder)
    assert report.code == 0, report.stderr
    return folder, tmp_path / "out.bsp"


def _lumps(path: Path) -> list[tuple[int, int, bytes]]:
    with Bsp.open(path) as bsp:
        return [(l.offset, l.length, bsp.read_lump(l.index)) for l in bsp.lumps]


def _edit_cell(csv_path: Path, row: int, field: str, value: str) -> str:
    with open(csv_path, newline="") as source:
        rows = list(csv.reader(source))
    column = rows[0].index(field)
    old = rows[row + 1][column]
    rows[row + 1][column] = value
    with open(csv_path, "w", newline="") as out:
        csv.writer(out, lineterminator="\n").writerows(rows)
    return old


@needs_corpus
@pytest.mark.parametrize("source", [Q1, SOURCE, pytest.param(LZMA, marks=pytest.mark.full)],
                         ids=["q1", "source", "source-lzma"])
def test_editing_one_plane_changes_only_that_records_bytes(source, tmp_path):
    folder, out = _dump(source, tmp_path)
    plane = next(folder.glob("*_PLANES.csv"))
    _edit_cell(plane, 3, "dist", "-0.0")
    report = cli("build", folder, "-o", out, "--json")
    assert report.code == 0, report.stderr
    with Bsp.open(source) as bsp:
        index = bsp.lump_index("planes")
        size = bsp.describe_records(index).dtype.itemsize
    assert report.result["edited"] == [f"lump {index} (PLANES)"]
    assert report.result["save"]["changed"] == [f"lump {index} (PLANES)"]
    before, after = _lumps(source), _lumps(out)
    for n, (old, new) in enumerate(zip(before, after)):
        if n != index:
            assert new == old, n             # bytes and offset kept
    with Bsp.open(source) as a, Bsp.open(out) as b:
        old_planes, new_planes = a.records(index).tobytes(), b.records(index).tobytes()
    dist = 3 * size + 12                     # normal (3 floats), then dist
    assert new_planes[dist:dist + 4] == struct.pack("<f", -0.0)
    assert new_planes[:dist] + new_planes[dist + 4:] == old_planes[:dist] + old_planes[dist + 4:]
    checksums = report.result["save"]["checksums"]
    with Bsp.open(source) as bsp:
        assert {k: v["before"] for k, v in checksums.items()} == bsp.checksums()
    with Bsp.open(out) as bsp:
        assert {k: v["after"] for k, v in checksums.items()} == bsp.checksums()


@needs_corpus
@pytest.mark.parametrize("source", [Q1, SOURCE], ids=["q1", "source"])
def test_editing_the_entity_text_changes_only_the_entity_lump(source, tmp_path):
    folder, out = _dump(source, tmp_path)
    ent = folder / "00_entities.ent"
    text = ent.read_bytes()
    ent.write_bytes(text.replace(b'"classname" "worldspawn"',
                                 b'"classname" "worldspawn"\n"message" "dumped"', 1))
    report = cli("build", folder, "-o", out, "--json")
    assert report.code == 0, report.stderr
    assert report.result["save"]["changed"] == ["lump 0 (ENTITIES)"]
    before, after = _lumps(source), _lumps(out)
    assert after[0][2] == ent.read_bytes() != before[0][2]
    assert [l[2] for l in after[1:]] == [l[2] for l in before[1:]]
    if source == SOURCE:     # the engine's CRC skips the entities: clients keep the map
        assert not report.result["save"]["checksum_changed"]
        crc = report.result["save"]["checksums"]["crc32"]
        assert crc["before"] == crc["after"]


@needs_corpus
def test_lzma_lumps_are_dumped_decompressed_and_compressed_back(tmp_path):
    folder, out = _dump(LZMA, tmp_path)
    manifest = json.loads((folder / "manifest.json").read_text())
    packed = [e for e in manifest["lumps"] if e["compressed"]]
    assert packed and all(e["stored"] == "lzma" for e in packed)
    with Bsp.open(LZMA) as bsp:
        planes = bsp.records("planes").tobytes()
    assert len(planes) // 20 == len((folder / "01_PLANES.csv").read_text().splitlines()) - 1


@needs_corpus
def test_a_raw_lump_edit_and_trailing_data_are_kept(tmp_path):
    source = CORPUS / "q1" / "librequake_start_bspx.bsp"
    folder, out = _dump(source, tmp_path)
    manifest = json.loads((folder / "manifest.json").read_text())
    trailing = [g for g in manifest["gaps"] if g["kind"] == "trailing"]
    assert trailing and trailing[0]["file"]
    light = folder / "08_LIGHTING.bin"
    light.write_bytes(light.read_bytes() + b"\xff" * 8)
    assert cli("build", folder, "-o", out).code == 0
    before, after = _lumps(source), _lumps(out)
    assert after[8][2] == before[8][2] + b"\xff" * 8
    assert [l[2] for n, l in enumerate(after) if n != 8] == \
        [l[2] for n, l in enumerate(before) if n != 8]
    with Bsp.open(out) as bsp:
        assert bsp.layout.tail is not None


@needs_corpus
def test_build_dry_run_writes_nothing(tmp_path):
    folder, out = _dump(Q1, tmp_path)
    _edit_cell(folder / "01_PLANES.csv", 0, "dist", "5")
    report = cli("build", folder, "-o", out, "--dry-run", "--json")
    assert report.code == 0, report.stderr
    assert not out.exists() and not report.result["save"]["written"]
    assert report.result["save"]["changed"] == ["lump 1 (PLANES)"]


@needs_corpus
@pytest.mark.parametrize("edit,message", [
    (lambda f: (f / "01_PLANES.csv").write_text(
        (f / "01_PLANES.csv").read_text().replace("\n0.0,0.0,1.0,4.0,2\n", "\n0.0,0.0,1.0,4.0\n")),
     "01_PLANES.csv: line 2: 4 cells, the header has 5"),
    (lambda f: _edit_cell(f / "01_PLANES.csv", 4, "dist", "four"),
     "01_PLANES.csv: line 6: dist: not a number: 'four'"),
    (lambda f: _edit_cell(f / "01_PLANES.csv", 0, "type", "2147483648"),
     "01_PLANES.csv: line 2: type: 2147483648 does not fit"),
    (lambda f: (f / "01_PLANES.csv").write_text("a,b\n"), "01_PLANES.csv: line 1: the header"),
    (lambda f: (f / "08_LIGHTING.bin").unlink(), "08_LIGHTING.bin: missing"),
    (lambda f: (f / "manifest.json").unlink(), "no manifest.json"),
    (lambda f: (f / "manifest.json").write_text("{"), "not JSON"),
    (lambda f: _edit_manifest(f, lambda m: m["lumps"][3].update(length=10 ** 9)),
     "lump 3: 1000000000 bytes at"),
    (lambda f: _edit_manifest(f, lambda m: m["lumps"][5].update(offset=9)),
     "lump 5 (NODES): the manifest says"),
    (lambda f: _edit_manifest(f, lambda m: m["lumps"][1].update(file="../../etc/passwd")),
     "outside the folder"),
    (lambda f: _edit_manifest(f, lambda m: m["lumps"].pop()), "14 lumps listed"),
    (lambda f: _edit_manifest(f, lambda m: m["lumps"][2].pop("crc32")), "lump 2: missing"),
])
def test_a_broken_folder_exits_2_naming_the_file(edit, message, tmp_path):
    folder, out = _dump(Q1, tmp_path)
    edit(folder)
    result = run_cli("build", folder, "-o", out)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr and len(result.stderr.splitlines()) == 1, result.stderr
    assert not out.exists() and "Traceback" not in result.stderr


def _edit_manifest(folder: Path, change) -> None:
    manifest = json.loads((folder / "manifest.json").read_text())
    change(manifest)
    (folder / "manifest.json").write_text(json.dumps(manifest))


@needs_corpus
def test_the_map_is_never_the_dump_folder(tmp_path):
    shutil.copyfile(Q1, tmp_path / "map.bsp")
    result = run_cli("dump", tmp_path / "map.bsp", tmp_path / "map.bsp")
    assert result.returncode == 2 and "refused" in result.stderr
    assert (tmp_path / "map.bsp").read_bytes() == Q1.read_bytes()


@needs_corpus
@pytest.mark.parametrize("name", ["manifest.json", "01_PLANES.csv", "00_entities.ent"])
def test_build_never_writes_over_a_file_it_reads(name, tmp_path):
    folder, _ = _dump(Q1, tmp_path)
    before = (folder / name).read_bytes()
    result = run_cli("build", folder, "-o", folder / name)
    assert result.returncode == 2 and "refused" in result.stderr, result.stderr
    assert (folder / name).read_bytes() == before


@needs_corpus
def test_a_non_empty_folder_needs_force(tmp_path):
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine\n")
    result = run_cli("dump", Q1, folder)
    assert result.returncode == 2 and "not empty" in result.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt"]
    assert run_cli("dump", Q1, folder, "--force").returncode == 0
    assert (folder / "notes.txt").read_text() == "mine\n" and (folder / "manifest.json").exists()


@needs_corpus
def test_a_read_only_target_folder(tmp_path):
    from test_user_mistakes import _read_only

    folder, _ = _dump(Q1, tmp_path)
    locked = tmp_path / "locked"
    with _read_only(locked):
        for argv, target in ((["build", folder, "-o"], locked / "out.bsp"),
                             (["dump", Q1], locked / "d")):
            result = run_cli(*argv, target)
            assert result.returncode == 2, result.stderr
            assert str(target) in result.stderr and len(result.stderr.splitlines()) == 1
            assert list(locked.iterdir()) == []


@needs_corpus
def test_a_full_disk(tmp_path):
    from test_user_mistakes import _full_disk

    folder, _ = _dump(Q1, tmp_path)
    full = tmp_path / "full"
    with _full_disk(full):
        for argv, target in ((["build", folder, "-o"], full / "out.bsp"),
                             (["dump", Q1], full / "d")):
            result = run_cli(*argv, target)
            assert result.returncode == 2, result.stderr
            assert os.strerror(errno.ENOSPC) in result.stderr, result.stderr
            assert sorted(p.name for p in full.iterdir()) == [".filler"]


@needs_corpus
def test_build_needs_a_target(tmp_path):
    folder, _ = _dump(Q1, tmp_path)
    for extra in ([], ["--dry-run"]):
        result = run_cli("build", folder, *extra)
        assert result.returncode == 2 and "say where to write" in result.stderr, result.stderr


@needs_corpus
def test_a_lump_model_is_dumped_as_json_and_its_edit_builds(tmp_path):
    source = CORPUS / "goldsrc" / "hltopdown_test.bsp"
    folder, out = _dump(source, tmp_path)
    manifest = json.loads((folder / "manifest.json").read_text())
    assert {e["name"]: e["form"] for e in manifest["lumps"]}["TEXTURES"] == "json"
    textures = folder / "02_TEXTURES.json"
    model = json.loads(textures.read_text())
    assert model["textures"][0]["name"] == "c1a0_labflrc"
    model["textures"][0]["name"] = "c1a0_labflrd"
    textures.write_text(json.dumps(model))
    report = cli("build", folder, "-o", out, "--json")
    assert report.code == 0, report.stderr
    assert report.result["save"]["changed"] == ["lump 2 (TEXTURES)"]
    before, after = _lumps(source), _lumps(out)
    assert after[2][2] == before[2][2].replace(b"c1a0_labflrc", b"c1a0_labflrd")
    assert [l for n, l in enumerate(after) if n != 2] == [l for n, l in enumerate(before) if n != 2]
    textures.write_text('{"textures": 3}')
    result = run_cli("build", folder, "-o", tmp_path / "bad.bsp")
    assert result.returncode == 2 and "02_TEXTURES.json" in result.stderr, result.stderr


@needs_corpus
@pytest.mark.parametrize("source", [SOURCE, pytest.param(LZMA, marks=pytest.mark.full)],
                         ids=["source", "source-lzma"])
def test_a_game_lump_member_edit_changes_only_that_member(source, tmp_path):
    folder, out = _dump(source, tmp_path)
    manifest = json.loads((folder / "manifest.json").read_text())
    (game,) = [e for e in manifest["lumps"] if e["name"] == "GAME_LUMP"]
    assert [m["id"] for m in game["members"]][:2] == ["sprp", "dprp"]
    sprp = folder / game["members"][0]["file"]
    data = bytearray(sprp.read_bytes())
    data[-1] ^= 0xFF                          # the last prop's last byte
    sprp.write_bytes(data)
    report = cli("build", folder, "-o", out, "--json")
    assert report.code == 0, report.stderr
    assert report.result["edited"] == ["game lump member sprp"]
    with Bsp.open(source) as a, Bsp.open(out) as b:
        assert b.game_lump.payload("sprp") == bytes(data)
        assert b.game_lump.payload("dprp") == a.game_lump.payload("dprp")
        index = a.lump_index("game_lump")
        assert [a.read_lump(i) for i in range(64) if i != index] == \
            [b.read_lump(i) for i in range(64) if i != index]
    raw = folder / game["file"]               # the raw lump edited too: which one wins?
    raw.write_bytes(raw.read_bytes() + b"\0\0\0\0")
    result = run_cli("build", folder, "-o", tmp_path / "both.bsp")
    assert result.returncode == 2 and "not both" in result.stderr, result.stderr


@needs_corpus
def test_build_to_standard_output(tmp_path):
    import subprocess
    import sys

    folder, _ = _dump(Q1, tmp_path)
    done = subprocess.run([sys.executable, "-m", "bspedit", "build", str(folder), "-o", "-"],
                          capture_output=True)
    assert done.returncode == 0 and done.stdout == Q1.read_bytes()
    assert b"edited: nothing" in done.stderr


@needs_corpus
def test_build_refuses_a_map_or_a_missing_folder_as_dir(tmp_path):
    for folder, message in ((Q1, "a file: build reads a folder"),
                            (tmp_path / "nope", "no such folder")):
        result = run_cli("build", folder, "-o", tmp_path / "out.bsp")
        assert result.returncode == 2 and message in result.stderr, result.stderr
        assert str(folder) in result.stderr and not (tmp_path / "out.bsp").exists()


@needs_corpus
def test_a_spreadsheet_saved_csv_builds(tmp_path):
    """CRLF line ends, a UTF-8 byte order mark, -0 and 1E+1 spellings: the same numbers."""
    folder, out = _dump(Q1, tmp_path)
    plane = folder / "01_PLANES.csv"
    lines = plane.read_text().splitlines()
    lines[1] = "0,-0,1,4E+0,2"                 # the first plane, spelt another way
    plane.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(lines).encode() + b"\r\n")
    report = cli("build", folder, "-o", out)
    assert report.code == 0, report.stderr
    with Bsp.open(Q1) as bsp:
        planes = bytearray(bsp.read_lump("planes"))
    planes[4:8] = struct.pack("<f", -0.0)      # normal.y was 0.0
    assert _lumps(out)[1][2] == bytes(planes)
    assert [l for n, l in enumerate(_lumps(out)) if n != 1] == \
        [l for n, l in enumerate(_lumps(Q1)) if n != 1]
