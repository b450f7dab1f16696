"""`dump` then `build` gives the same bytes on every variant with specs (issue 30, item 1):
IBSP 47, RBSP and FBSP maps made from real Quake 3 maps (tests/quake3_variants.py: records
widened as ksy/raven_bsp.ksy says, FBSP's lightmaps full-size 512 x 512 x 3 bytes), and
console (PSBV) maps. `build` used to exit 2 on every FBSP map: `14_LIGHTMAPS.csv: malformed
CSV: field larger than field limit (131072)`.
"""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

import quake3_variants
from bspedit.bsp import Bsp
from bspedit.cli import invoke
from bspedit.features.dumpfolder import CELL_LIMIT, write_table
from conftest import CONSOLE_MAP, CORPUS, corpus_maps, run_cli

LOBBY = CORPUS / "q3" / "bsptool_q3_mp_lobby.bsp"          # 2 lightmaps
WARFORK_SIZED = CORPUS / "q3" / "openarena_am_galmevish.bsp"  # 8 lightmaps: a 7.9 MB FBSP map
SOURCE_V19 = CORPUS / "source" / "sdk2013_sdk_vehicles_v19.bsp"
LIGHTMAP_SIZE = {"ql": 128 * 128 * 3, "rbsp": 128 * 128 * 3, "fbsp": 512 * 512 * 3}
LIGHTMAPS = 14
needs_corpus = pytest.mark.skipif(not LOBBY.exists(), reason="../shared/corpus not present")


def cli(*argv: object) -> str:
    report = invoke([str(a) for a in argv], capture=True)
    assert report.code == 0, report.stderr
    return report.stdout


def variant(source: Path, family: str, folder: Path) -> Path:
    path = folder / f"{source.stem}_{family}.bsp"
    path.write_bytes(quake3_variants.convert(source.read_bytes(), family))
    return path


def longest_csv_field(folder: Path) -> int:
    longest = 0
    for table in folder.glob("*.csv"):
        with open(table, newline="") as source:
            for row in csv.reader(source):
                longest = max([longest, *map(len, row)])
    return longest


def assert_dump_builds_back(path: Path, tmp_path: Path) -> dict:
    """dump then build is byte for byte, and no CSV cell is longer than CELL_LIMIT; the
    manifest."""
    folder, out = tmp_path / "dump", tmp_path / "built.bsp"
    cli("dump", path, folder)
    assert longest_csv_field(folder) <= CELL_LIMIT < 131072      # csv's default field limit
    built = cli("build", folder, "-o", out)
    assert "edited: nothing" in built
    assert out.read_bytes() == path.read_bytes()
    return json.loads((folder / "manifest.json").read_text())


@needs_corpus
@pytest.mark.parametrize("family", ["ql", "rbsp", "fbsp"])
def test_a_quake3_variant_dumps_and_builds_back(family, tmp_path):
    path = variant(LOBBY, family, tmp_path)
    with Bsp.open(path) as bsp:
        assert bsp.family.key == ("q3" if family == "ql" else family)
        lightmaps = bsp.lumps[LIGHTMAPS]
        assert lightmaps.length == 2 * LIGHTMAP_SIZE[family]
        assert bsp.describe_records(LIGHTMAPS).dtype.itemsize == LIGHTMAP_SIZE[family]
    manifest = assert_dump_builds_back(path, tmp_path)
    entry = manifest["lumps"][LIGHTMAPS]
    assert (entry["file"], entry["form"]) == ("14_LIGHTMAPS.bin", "raw")   # RGB texels
    assert entry["type"] == ("raven_bsp::lightmap_512" if family == "fbsp"
                             else "quake3_bsp::lightmap")
    with Bsp.open(path) as bsp:
        assert (tmp_path / "dump" / entry["file"]).read_bytes() == bsp.read_lump(LIGHTMAPS)
    forms = {e["name"]: e["form"] for e in manifest["lumps"] if e["length"]}
    assert forms["DRAWVERTS"] == forms["SURFACES"] == forms["LIGHTGRID"] == "csv"
    if family != "ql":
        assert forms["LIGHTARRAY"] == "csv"


@pytest.mark.parametrize("path", corpus_maps("q3"))
@pytest.mark.parametrize("family", ["ql", "rbsp", "fbsp"])
def test_every_quake3_corpus_map_as_each_variant_dumps_and_builds_back(path, family, tmp_path):
    """The full run: every Quake 3 corpus map (its FBSP form up to 58 MB, 40 lightmaps)."""
    assert_dump_builds_back(variant(path, family, tmp_path), tmp_path)


@pytest.mark.skipif(not WARFORK_SIZED.exists(), reason="../shared/corpus not present")
def test_a_warfork_sized_fbsp_map_dumps_and_builds_back(tmp_path):
    """The size of the reported maps (3.6-13.4 MB): 8 full-size lightmaps, 6 MiB of them."""
    path = variant(WARFORK_SIZED, "fbsp", tmp_path)
    assert 3_600_000 < path.stat().st_size < 13_400_000
    assert_dump_builds_back(path, tmp_path)
    assert (tmp_path / "dump" / "14_LIGHTMAPS.bin").stat().st_size == 8 * LIGHTMAP_SIZE["fbsp"]


@pytest.mark.skipif(not CONSOLE_MAP.exists(), reason="../shared/corpus-console not present")
def test_the_console_map_dumps_and_builds_back(tmp_path):
    manifest = assert_dump_builds_back(CONSOLE_MAP, tmp_path)
    assert bytes.fromhex(manifest["header"])[:4] == b"PSBV"


@pytest.mark.skipif(not SOURCE_V19.exists(), reason="../shared/corpus not present")
def test_a_pc_map_made_console_dumps_and_builds_back(tmp_path):
    import console

    path = tmp_path / "console.bsp"
    path.write_bytes(console.to_big_endian(SOURCE_V19.read_bytes()))
    assert_dump_builds_back(path, tmp_path)


@needs_corpus
def test_a_dump_with_a_lightmap_in_a_csv_cell_builds_back(tmp_path):
    """A CSV with a 1.5-million-character cell (the FBSP lightmaps as an older dump wrote them,
    or a table made by hand) reads back: `build`, a fresh process, raises csv's field limit."""
    path = variant(LOBBY, "fbsp", tmp_path)
    folder, out = tmp_path / "dump", tmp_path / "built.bsp"
    cli("dump", path, folder)
    manifest_path = folder / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    entry = manifest["lumps"][LIGHTMAPS]
    raw = folder / entry["file"]
    write_table(folder / "14_LIGHTMAPS.csv", entry["type"], raw.read_bytes())
    raw.unlink()
    entry.update(file="14_LIGHTMAPS.csv", form="csv")
    manifest_path.write_text(json.dumps(manifest, indent=1) + "\n")
    assert longest_csv_field(folder) == len("hex:") + 2 * LIGHTMAP_SIZE["fbsp"]
    result = run_cli("build", folder, "-o", out)
    assert result.returncode == 0, result.stderr
    assert out.read_bytes() == path.read_bytes()


@needs_corpus
def test_an_edited_fbsp_lightmap_file_changes_only_its_lump(tmp_path):
    path = variant(LOBBY, "fbsp", tmp_path)
    folder, out = tmp_path / "dump", tmp_path / "built.bsp"
    cli("dump", path, folder)
    lightmaps = folder / "14_LIGHTMAPS.bin"
    texels = bytearray(lightmaps.read_bytes())
    second = LIGHTMAP_SIZE["fbsp"]                  # the first texel of the second lightmap
    texels[second:second + 3] = b"\xff\x00\x80"
    lightmaps.write_bytes(bytes(texels))
    report = invoke(["build", str(folder), "-o", str(out), "--json"], capture=True)
    assert report.code == 0, report.stderr
    assert report.result["edited"] == ["lump 14 (LIGHTMAPS)"]
    with Bsp.open(path) as a, Bsp.open(out) as b:
        assert b.read_lump(LIGHTMAPS) == bytes(texels)
        for old, new in zip(a.lumps, b.lumps):
            if old.index != LIGHTMAPS:
                assert (new.offset, b.read_lump(new.index)) == (old.offset, a.read_lump(old.index))
