"""`lump show` and the lossless text cells it shares with dump and build (bspedit.lumps.recordtable)."""
from __future__ import annotations

import math
import struct
import subprocess
import sys

import numpy
import pytest

from bspedit.bsp import Bsp
from bspedit.cli import invoke
from bspedit.features.dumpfolder import read_table
from bspedit.lumps.recordtable import Column, columns, format_cell, format_rows, parse_cell, parse_rows
from bspedit.format.recordtypes import type_dtype
from conftest import CONSOLE_MAP, CORPUS, run_cli
from verbs import MAPS, run_json

F32, F64 = Column("f", 0, "f", 4), Column("d", 0, "f", 8)
NAME = Column("name", 0, "S", 16)


def _round_trip(column: Column, raw: bytes) -> str:
    text = format_cell(column, raw)
    assert parse_cell(column, text) == raw, (raw.hex(), text)
    return text


@pytest.mark.parametrize("raw,text", [
    (struct.pack("<I", 0x7FC00001), "nan:0x7fc00001"),
    (struct.pack("<I", 0xFF800001), "nan:0xff800001"),      # signalling, negative
    (struct.pack("<f", -0.0), "-0.0"),
    (struct.pack("<I", 1), "1e-45"),                         # smallest denormal
    (struct.pack("<I", 0x007FFFFF), "1.1754942e-38"),        # largest denormal
    (struct.pack("<f", math.inf), "inf"), (struct.pack("<f", -math.inf), "-inf"),
    (struct.pack("<f", 0.1), "0.1"), (struct.pack("<f", 3.4028234663852886e38), "3.4028235e+38"),
])
def test_float32_cells_keep_their_bits(raw, text):
    assert _round_trip(F32, raw) == text


def test_random_float32_and_float64_bits_survive():
    rng = numpy.random.default_rng(17)
    singles = rng.integers(0, 1 << 32, 50_000, dtype=numpy.uint64).astype("<u4").tobytes()
    doubles = rng.integers(0, 1 << 63, 20_000, dtype=numpy.uint64).astype("<u8").tobytes()
    for column, data in ((F32, singles), (F64, doubles)):
        rows = format_rows(data, column.size, [column], range(len(data) // column.size))
        back = parse_rows([list(r) for r in rows], column.size, [column], "x")
        assert back == data
    assert _round_trip(F64, struct.pack("<Q", 0x7FF0000000000001)) == "nan:0x7ff0000000000001"
    assert _round_trip(F64, struct.pack("<d", -0.0)) == "-0.0"


@pytest.mark.parametrize("raw,text", [
    (b"e1m1".ljust(16, b"\0"), "e1m1"),
    (b"wall\0\x80junk".ljust(16, b"\0"), "hex:77616c6c0080" + "6a756e6b".ljust(20, "0")),
    (b"\x80\0".ljust(16, b"\0"), "hex:80" + "00" * 15),
    (b"hex:x".ljust(16, b"\0"), "hex:6865783a78" + "00" * 11),   # not mistaken for hex
    (b"sixteen_chars_ok", "sixteen_chars_ok"),
    (bytes(16), ""),
])
def test_name_cells_keep_every_byte(raw, text):
    assert _round_trip(NAME, raw) == text


@pytest.mark.parametrize("column,text,message", [
    (Column("n", 0, "i", 2), "40000", "does not fit"),
    (Column("n", 0, "u", 4), "-1", "does not fit"),
    (Column("n", 0, "i", 4), "1.5", "not a whole number"),
    (F32, "1e39", "out of float32's range"),
    (F32, "abc", "not a number"),
    (F32, "nan:0x3f800000", "not the bits of a NaN"),
    (NAME, "seventeen_chars__", "the field has 16 bytes"),
    (NAME, "hex:00", "1 hex bytes"),
])
def test_bad_cells_say_what_is_wrong(column, text, message):
    with pytest.raises(ValueError, match=message):
        parse_cell(column, text)


def test_nested_fields_flatten_to_dotted_names_and_indices():
    names = [c.name for c in columns(type_dtype("bsp2_bsp::node_bsp2"))]
    assert names == ["planenum", "children[0]", "children[1]", "mins.x", "mins.y", "mins.z",
                     "maxs.x", "maxs.y", "maxs.z", "firstface", "numfaces"]


def _records(bsp: Bsp, lump: str) -> tuple[bytes, int]:
    info = bsp.describe_records(lump)
    return bsp.records(lump).tobytes(), info.dtype.itemsize


@pytest.mark.parametrize("family", [pytest.param(f, marks=[pytest.mark.skipif(
    not (CORPUS / MAPS[f]).exists(), reason="../shared/corpus not present"),
    *([pytest.mark.full] if f == "source-lzma" else [])]) for f in MAPS])
def test_rows_are_the_records_of_the_file(family):
    path = str(CORPUS / MAPS[family])
    with Bsp.open(path) as bsp:
        lumps = [l.name for l in bsp.lumps if l.length and _has_records(bsp, l.index)]
        expected = {name: _records(bsp, name) for name in lumps}
    assert "PLANES" in lumps
    for name in lumps:
        code, err, (report,) = run_json(["lump", "show", path, name])
        assert code == 0, err
        result = report["result"]
        data, size = expected[name]
        cols = columns(type_dtype(result["type"]))
        assert result["fields"] == [c.name for c in cols]
        assert result["count"] == len(data) // size
        assert [r["index"] for r in result["rows"]] == list(range(result["count"]))
        assert parse_rows([r["cells"] for r in result["rows"]], size, cols, name) == data


def _has_records(bsp: Bsp, index: int) -> bool:
    try:
        bsp.describe_records(index)
    except Exception:
        return False
    return True


Q1 = CORPUS / "q1" / "slipgate_b_batt0.bsp"
needs_q1 = pytest.mark.skipif(not Q1.exists(), reason="../shared/corpus not present")


@needs_q1
@pytest.mark.parametrize("rows,indices", [("0:3", [0, 1, 2]), ("-2:", [21, 22]),
                                          (":1", [0]), ("20:100", [20, 21, 22]), ("5:5", [])])
def test_rows_slice_like_python(rows, indices):
    code, err, (report,) = run_json(["lump", "show", str(Q1), "planes", f"--rows={rows}"])
    assert code == 0, err
    assert [r["index"] for r in report["result"]["rows"]] == indices
    assert report["result"]["count"] == 23


@needs_q1
def test_csv_parses_back_to_the_lump(capsys, tmp_path):
    assert invoke(["lump", "show", str(Q1), "planes", "--csv"]).code == 0
    text = capsys.readouterr().out
    with Bsp.open(Q1) as bsp:
        data = bsp.read_lump("planes")
    csv = tmp_path / "planes.csv"
    csv.write_text(text)
    assert read_table(csv, "quake1_bsp::plane") == data


@needs_q1
def test_text_table_has_a_header_and_aligned_rows(capsys):
    assert invoke(["lump", "show", str(Q1), "planes", "--rows", "0:2"]).code == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["#", "normal.x", "normal.y", "normal.z", "dist", "type"]
    assert lines[1].split() == ["0", "0.0", "0.0", "1.0", "4.0", "2"]
    assert len(lines) == 3 and len({len(line) for line in lines}) == 1


@needs_q1
@pytest.mark.parametrize("args,message", [
    (["lighting"], "variable-size data, described as quake1_bsp::lighting"),
    (["entities"], "entity text"),
    (["planes", "--rows", "1:x"], "not A:B"),
    (["planes", "--rows", "1:2:3"], "not A:B"),
    (["planes", "--csv", "--json"], "choose one"),
])
def test_refusals_exit_2(args, message):
    result = run_cli("lump", "show", Q1, *args)
    assert result.returncode == 2 and message in result.stderr, result.stderr


@needs_q1
def test_a_closed_pipe_ends_quietly():
    big = CORPUS / "q3" / "openarena_oacmpctf3.bsp"
    show = subprocess.Popen([sys.executable, "-m", "bspedit", "lump", "show", str(big),
                             "drawverts"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert show.stdout is not None
    first = show.stdout.readline()
    show.stdout.close()
    assert show.wait() == 0 and b"xyz.x" in first
    assert show.stderr is not None and show.stderr.read() == b""


def test_a_lump_with_a_model_shows_its_json():
    path = CORPUS / "goldsrc" / "hltopdown_test.bsp"
    if not path.exists():
        pytest.skip("../shared/corpus not present")
    from bspedit.lumps.structures import model_for_type

    code, err, (report,) = run_json(["lump", "show", str(path), "textures"])
    assert code == 0, err
    result = report["result"]
    assert result["count"] is None and result["rows"] == []
    with Bsp.open(path) as bsp:
        data = bsp.read_lump("textures")
    model = model_for_type(result["type"])
    assert model is not None and model.from_json(result["structure"]).to_bytes() == data


@pytest.mark.parametrize("kind,size,cells,message", [
    ("i", 4, ["1", "2", "x"], "line 4: n: not a whole number: 'x'"),
    ("i", 4, ["1", "1.5"], "line 3: n: not a whole number: '1.5'"),
    ("u", 2, ["1", "65536"], "line 3: n: 65536 does not fit"),
    ("u", 8, ["18446744073709551615", "18446744073709551616"], "line 3: n: 184467440737095516"),
    ("f", 4, ["1", "nan:0x7fc00001", "1e40"], "line 4: n: 1e40 is out of float32's range"),
    ("f", 8, ["1", "one"], "line 3: n: not a number: 'one'"),
])
def test_a_bad_cell_names_its_line(kind, size, cells, message):
    from bspedit.errors import BspError

    column = Column("n", 0, kind, size)
    with pytest.raises(BspError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_rows([[c] for c in cells], size, [column], "t.csv")
    good = [c for c in cells[:-1]]
    assert len(parse_rows([[c] for c in good], size, [column], "t.csv")) == size * len(good)


@pytest.mark.skipif(not CONSOLE_MAP.exists(), reason="../shared/corpus-console not present")
def test_a_model_refusing_a_console_lump_says_why():
    child = run_cli("lump", "show", CONSOLE_MAP, "PHYSCOLLIDE")
    assert child.returncode == 2 and child.stdout == ""
    assert child.stderr.count("\n") == 1
    assert "lump 29 (PHYSCOLLIDE): file offset 40648: PHYSCOLLIDE is not supported on big-endian " \
        "(console) maps" in child.stderr
