"""`verify`: a mutation suite on the real corpus (every class of damage, every map it applies
to, named by lump), no false alarms on the undamaged maps, and the CLI's text and JSON."""
from __future__ import annotations

import json
import zlib

import pytest

from bspedit.bsp import Bsp
from bspedit.features.checks import problems
from bspedit.format.families import QUAKE3, RAVEN, SOURCE
from conftest import CONSOLE_MAP, CORPUS, corpus_maps, run_cli
from verify_mutations import CLASSES, mutations

LZMA_MAP = CORPUS / "source" / "tf2classified_cp_stronghold_lzma.bsp"
BSPX_MAP = CORPUS / "q1" / "librequake_start_bspx.bsp"


@pytest.mark.parametrize("kind", [pytest.param(k, marks=pytest.mark.full) if "lzma" in k else k
                                  for k in CLASSES])
@pytest.mark.parametrize("path", corpus_maps())
def test_every_mutation_is_reported_naming_its_lump(kind, path, tmp_path):
    cases = mutations(path, kind)
    if not cases:
        pytest.skip(f"{kind} does not apply to this map")
    target = tmp_path / "mutated.bsp"
    missed = []
    for case in cases:
        target.write_bytes(case.data)
        with Bsp.open(target, check=False) as bsp:
            found = problems(bsp)
        if not any(p.lump == case.lump for p in found):
            missed.append(f"{case.case}: {[str(p) for p in found]}")
    assert not missed, f"{len(missed)} of {len(cases)} cases not reported: {missed[:5]}"


@pytest.mark.parametrize("path", corpus_maps())
def test_undamaged_corpus_maps_verify_clean(path):
    result = run_cli("verify", path, "--json")
    assert result.returncode == 0, result.stdout
    assert json.loads(result.stdout) == {"map": str(path), "verb": "verify",
                                         "result": {"ok": True, "problems": []},
                                         "warnings": [], "error": None, "exit": 0}


def _first(path, kind, tmp_path):
    case = mutations(path, kind)[0]
    target = tmp_path / f"{kind}.bsp"
    target.write_bytes(case.data)
    return case, target


@pytest.mark.parametrize("kind", ["corrupt-lzma-stream", "pak-lzma-corrupt",
                                  "entities-unparseable", "game-lump-member-out-of-bounds"])
def test_cli_prints_one_line_per_problem_with_map_lump_and_offset(kind, tmp_path):
    if not LZMA_MAP.exists():
        pytest.skip("../shared/corpus not present")
    case, target = _first(LZMA_MAP, kind, tmp_path)
    result = run_cli("verify", target)
    assert result.returncode == 1 and result.stderr == ""
    lines = result.stdout.splitlines()
    named = [l for l in lines if l.startswith(f"{target}: {case.lump}: file offset ")]
    assert named, lines
    assert all(l.startswith(f"{target}: ") for l in lines) and "OK" not in result.stdout


def test_cli_json_lists_problems_with_lump_and_offset(tmp_path):
    if not BSPX_MAP.exists():
        pytest.skip("../shared/corpus not present")
    case, target = _first(BSPX_MAP, "bspx-entry-out-of-bounds", tmp_path)
    result = run_cli("verify", target, "--json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["map"] == str(target) and report["verb"] == "verify"
    assert report["error"] is None and report["warnings"] == []
    assert report["result"]["ok"] is False
    (problem,) = report["result"]["problems"]
    assert problem["lump"] == case.lump and problem["offset"] > BSPX_MAP.stat().st_size
    assert "outside the BSPX data" in problem["message"]


def test_cli_json_reports_a_file_that_is_no_map(tmp_path):
    target = tmp_path / "notes.txt"
    target.write_bytes(b"hello, this is not a map")
    result = run_cli("verify", target, "--json")
    assert result.returncode == 2
    report = json.loads(result.stdout)
    assert report["result"] is None and report["error"].startswith(f"{target}: ")


def test_record_sizes_are_family_data_by_lump_and_map_version():
    leafs, faces = SOURCE.index_of("LEAFS"), SOURCE.index_of("FACES")
    assert SOURCE.record_size(SOURCE.index_of("PLANES")) == 20
    assert [SOURCE.record_size(leafs, v, 20) for v in (0, 1, 7)] == [56, 32, None]
    assert SOURCE.record_size(faces, 1, 21) == 56 and SOURCE.record_size(faces, 2, 25) == 72
    dispinfo = SOURCE.index_of("DISPINFO")
    assert SOURCE.record_size(dispinfo, 1, 25) == 232     # Strata wiki ddispinfo_t, lump v1
    assert SOURCE.record_size(dispinfo, 0, 25) is None    # v25 DISPINFO v0: not described
    assert SOURCE.record_size(SOURCE.index_of("PAKFILE")) is None
    assert QUAKE3.record_size(QUAKE3.index_of("SURFACES")) == 104
    assert RAVEN.record_size(RAVEN.index_of("SURFACES")) == 148


@pytest.mark.skipif(not CONSOLE_MAP.exists(), reason="../shared/corpus-console not present")
@pytest.mark.parametrize("field, value, message", [
    (4, 9, "indexes 9 zip entries"),
    (12, 0xF0000000, "pads its data to 4026531840 bytes, not a power of two up to 65536"),
])
def test_console_map_preload_section_out_of_step_is_reported(tmp_path, field, value, message):
    """The real Xbox 360 map passes; its XZP2 preload section claiming 9 zip entries (the zip
    has 5) or an absurd alignment is reported on the pakfile, and pak edits are refused."""
    assert run_cli("verify", CONSOLE_MAP).returncode == 0
    data = bytearray(CONSOLE_MAP.read_bytes())
    section = 196608 + 2048                    # the pakfile's first entry: the preload section
    assert data[section:section + 16] == bytes.fromhex("00000003000000050000000400000800")
    data[section + field:section + field + 4] = value.to_bytes(4, "big")
    crc = zlib.crc32(data[section:section + 2048]).to_bytes(4, "little")
    data[196608 + 14:196608 + 18] = crc                  # its local header
    data[196608 + 14336 + 16:196608 + 14336 + 20] = crc  # its central directory record
    broken = tmp_path / "broken.bsp"
    broken.write_bytes(data)
    child = run_cli("verify", broken)
    assert child.returncode == 1
    assert child.stdout.count("\n") == 1, child.stdout
    assert "lump 40 (PAKFILE): file offset 196608: XZP2 pakfile: its preload section " \
        f"__preload_section.pre {message}" in child.stdout
    for edit in (["remove", broken, "materials/*"], ["add", broken, __file__, "--as", "x.txt"]):
        refused = run_cli("pak", *edit, "-o", tmp_path / "out.bsp")
        assert refused.returncode == 2 and "refused to edit this XZP2 pakfile" in refused.stderr
        assert not (tmp_path / "out.bsp").exists()
