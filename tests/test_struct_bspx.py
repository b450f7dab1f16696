"""BSPX lump models (bspx_structure_for): BRUSHLIST round trips on the corpus maps that carry
a BSPX trailer, checked by hand on one map, and lossless for float bits no JSON number holds."""
from __future__ import annotations

import json
import struct

import pytest

from conftest import CORPUS

from bspedit.lumps.brushlist import BrushList, float_bits, float_json
from bspedit.format.bspx import bspx_directory
from bspedit.lumps.structures import bspx_structure_for


def _bspx_lumps(path) -> dict[str, bytes]:
    """The BSPX lumps of the map at `path` by name (empty without a trailer)."""
    from bspedit.bsp import Bsp

    bsp = Bsp.open(path)
    tail = bsp.layout.tail
    if tail is None or tail.kind != "trailing":
        return {}
    directory = bspx_directory(bsp.read_range(tail.start, tail.end))
    if directory is None:
        return {}
    return {e.name.rstrip(b"\0").decode("ascii"): bsp.read_range(e.offset, e.offset + e.length)
            for e in directory.lumps}


def test_registry():
    assert bspx_structure_for("BRUSHLIST") is BrushList
    assert bspx_structure_for("brushlist") is BrushList
    assert bspx_structure_for("RGBLIGHTING") is None       # just bytes
    assert bspx_structure_for("LIGHTINGDIR") is None


def test_round_trip():
    maps = sorted((CORPUS / "q1").glob("*.bsp")) if CORPUS.is_dir() else []
    if not maps:
        pytest.skip("../shared/corpus not present")
    checked = []
    for path in maps:
        for name, data in _bspx_lumps(path).items():
            cls = bspx_structure_for(name)
            if cls is None:
                continue
            model = cls.parse(data)
            assert model.raw is None and model.to_bytes() == data, (path.name, name)
            assert cls.from_json(json.loads(json.dumps(model.to_json()))).to_bytes() == data
            checked.append((path.stem, name))
    assert ("ericw_q1_cube_bspx", "BRUSHLIST") in checked


def test_brushlist_checked_by_hand():
    """xxd of q1/ericw_q1_cube_bspx.bsp at the BSPX BRUSHLIST lump (offset 12504, 44 bytes):
    version 1, model 0, 1 brush, 0 planes; mins 0x42000000 (32), 0xc3700000 (-240),
    0x42a00000 (80), maxs 80, -144, 112; contents 0xfffe (-2, CONTENTS_SOLID), 0 planes."""
    path = CORPUS / "q1" / "ericw_q1_cube_bspx.bsp"
    if not path.is_file():
        pytest.skip("../shared/corpus not present")
    model = BrushList.parse(_bspx_lumps(path)["BRUSHLIST"])
    (entry,) = model.models
    (brush,) = entry.brushes
    assert (entry.version, entry.model, entry.num_planes) == (1, 0, 0)
    assert brush.mins == (32.0, -240.0, 80.0) and brush.maxs == (80.0, -144.0, 112.0)
    assert brush.contents == -2 and brush.planes == [] and model.tail == b""


def test_float_bits_survive_json():
    nan_payload, minus_zero, denormal = 0x7fa00001, 0x80000000, 0x00000001
    plane = (nan_payload, minus_zero, denormal, 0x7f800000)
    data = (struct.pack("<4i", 1, 3, 1, 1) + struct.pack("<6IhH", *plane[:3], *plane[:3], 1, 1)
            + struct.pack("<4I", *plane) + b"\x07")
    model = BrushList.parse(data)
    assert model.models[0].brushes[0].planes == [plane] and model.tail == b"\x07"
    obj = json.loads(json.dumps(model.to_json()))
    assert BrushList.from_json(obj).to_bytes() == data
    assert float_json(nan_payload) == {"bits": nan_payload}
    assert float_bits(float_json(minus_zero)) == minus_zero


def test_unparsable_lump_is_kept_raw():
    data = struct.pack("<4i", 2, 0, 1, 0) + b"junk"            # unknown version
    model = BrushList.parse(data)
    assert model.raw == data and model.to_bytes() == data
    assert BrushList.from_json(json.loads(json.dumps(model.to_json()))).to_bytes() == data
