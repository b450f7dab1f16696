"""Structure models on hand-built lumps with the layouts real maps rarely carry: missing and
shared miptex offsets, gaps and stale bytes, unusual mip offsets, overlapping entries,
truncated tables; shared and out-of-table visibility rows; string data without a final NUL.
Every case must come back byte for byte, directly and through JSON."""
from __future__ import annotations

import json
import struct

import pytest

from bspedit.lumps.detailprops import DetailPropLighting, DetailProps
from bspedit.lumps.miptex import GoldSrcMiptexLump, MiptexLump, mip_sizes
from bspedit.lumps.texdata import TexdataStringData
from bspedit.lumps.visibility import ClusterVisibility, Quake3Visibility


def _round_trip(cls, data: bytes):
    model = cls.parse(data)
    assert model.to_bytes() == data
    assert cls.from_json(json.loads(json.dumps(model.to_json()))).to_bytes() == data
    return model


def _miptex(name: bytes, width: int, height: int, offsets=None, fill: int = 1) -> bytes:
    sizes = mip_sizes(width, height)
    if offsets is None:
        offsets = [40, 40 + sizes[0], 40 + sizes[0] + sizes[1], 40 + sum(sizes[:3])]
    body = b"".join(bytes([fill + level]) * size for level, size in enumerate(sizes))
    return struct.pack("<16sII4I", name.ljust(16, b"\0"), width, height, *offsets) + body


def _lump(offsets: list[int], body: bytes) -> bytes:
    return struct.pack(f"<i{len(offsets)}i", len(offsets), *offsets) + body


def test_missing_shared_and_gapped_miptex():
    first, second = _miptex(b"one\0\x80\x80", 16, 16), _miptex(b"two", 16, 32, fill=9)
    table = 4 + 4 * 4
    body = b"PAD!" + first + b"\xbc\xbc" + second + b"end"
    offsets = [table + 4, -1, table + 4, table + 4 + len(first) + 2]
    model = _round_trip(MiptexLump, _lump(offsets, body))
    assert model.names == ["one", None, "one", "two"]
    assert model.prefix == b"PAD!" and model.entries[0].tail == b"\xbc\xbc"
    assert model.entries[1].tail == b"end"
    assert model.to_json()["textures"][0]["name_tail"] == {"escaped": "\\x00\\x80\\x80"}


def test_unusual_mip_offsets_are_kept_and_read():
    sizes = mip_sizes(16, 16)
    odd = [40 + 8, 40 + 8 + sizes[0], 40 + 8 + sum(sizes[:2]), 40 + 8 + sum(sizes[:3])]
    entry = _miptex(b"odd", 16, 16, odd)
    entry = entry[:40] + b"\xee" * 8 + entry[40:]
    model = _round_trip(MiptexLump, _lump([8], entry))
    (texture,) = model.entries
    assert not texture.laid_out and texture.mip_offsets == odd
    assert texture.pixels(0) == b"\x01" * 256 and texture.pixels(3) == b"\x04" * 4


def test_offset_inside_an_entry_moves_with_it():
    first, second = _miptex(b"a", 16, 16), _miptex(b"b", 16, 16)
    table = 4 + 3 * 4
    offsets = [table, table + 20, table + len(first)]     # the second points into the first
    model = _round_trip(MiptexLump, _lump(offsets, first + second))
    assert len(model.entries) == 2
    sizes = mip_sizes(32, 16)
    model.texture(0).set_pixels(32, 16, [b"\x05" * s for s in sizes])
    grown = sum(sizes) - sum(mip_sizes(16, 16))
    out = MiptexLump.parse(model.to_bytes())
    assert out.offsets == [table, table + 20, table + len(first) + grown]
    assert out.entries[1].to_bytes() == second


@pytest.mark.parametrize("data", [b"", b"\x01\x00", struct.pack("<i", -3) + b"xyz",
                                  struct.pack("<2i", 5, 8), _lump([4], b"short")])
def test_miptex_lumps_without_room_are_kept(data):
    model = _round_trip(MiptexLump, data)
    assert model.entries == []


def test_goldsrc_palette_and_wad_entries():
    palette = struct.pack("<H", 256) + bytes(range(256)) * 3
    embedded = _miptex(b"inside", 16, 16) + palette + b"\0\0"
    external = struct.pack("<16sII4I", b"{fence".ljust(16, b"\0"), 64, 32, 0, 0, 0, 0)
    table = 4 + 8
    model = _round_trip(GoldSrcMiptexLump, _lump([table, table + len(embedded)],
                                                 embedded + external))
    inside, wad = model.entries
    assert inside.colours == bytes(range(256)) * 3 and inside.tail == b"\0\0"
    assert wad.external and wad.pixels(0) is None and (wad.width, wad.height) == (64, 32)
    assert MiptexLump.parse(model.to_bytes()).entries[0].palette is None   # Quake 1: no palette


def test_rename_refuses_long_names_and_keeps_fill():
    model = MiptexLump.parse(_lump([8], _miptex(b"abcdef\0\x80\x80\x80", 16, 16)))
    with pytest.raises(ValueError):
        model.rename(0, "x" * 16)
    model.rename(0, "ab")
    assert model.entries[0].name == b"ab\0\0\0\0\0\x80\x80\x80".ljust(16, b"\0")


def test_shared_and_header_visibility_rows():
    rows = b"\x03\x00\x01\x07"
    # cluster 1's PVS is cluster 0's row; cluster 2's PHS points into the table (offset 0)
    table = [(28, 28), (28, 29), (30, 0)]
    data = struct.pack("<7i", 3, *[v for pair in table for v in pair]) + rows + b"tail"
    model = _round_trip(ClusterVisibility, data)
    assert model.pvs(1).tolist() == [True, True, False]
    assert model.phs_row(1) == b"\x00"            # a run of one zero byte
    assert model.phs_row(2) == b"\x03"            # the count's first byte, read as a row


@pytest.mark.parametrize("data", [b"", b"\x02\x00\x00", struct.pack("<i", 5) + bytes(8)])
def test_visibility_without_a_table_is_kept(data):
    assert _round_trip(ClusterVisibility, data).num_clusters == 0


def test_quake3_rows_and_rest():
    data = struct.pack("<ii", 3, 1) + b"\x07\x06\x05" + b"rest"
    model = _round_trip(Quake3Visibility, data)
    assert model.row(1) == b"\x06" and model.pvs(2).tolist() == [True, False, True]
    assert model.rest == b"rest"
    assert _round_trip(Quake3Visibility, struct.pack("<ii", 9, 9)).raw is not None


def test_texdata_without_final_nul():
    model = _round_trip(TexdataStringData, b"A/B\0\0C\xe9\0tail")
    assert model.strings == [(0, "A/B"), (4, ""), (5, "C\xe9")]
    assert model.tail == b"tail" and model.string_at(8) == "tail"
    assert model.to_json()["strings"][2] == {"escaped": "C\\xe9"}


def test_detail_props_tables_and_trailing():
    name = b"models/props/grass.mdl".ljust(128, b"\0")
    prop = struct.pack("<6f2H4BI5B3sB3sf", 1, 2, 3, 0, 90, 0, 0, 7, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0,
                       b"\0\0\0", 0, b"\0\0\0", 1.0)
    data = struct.pack("<i", 1) + name + struct.pack("<i", 0) + struct.pack("<i", 1) + prop + b"!"
    model = _round_trip(DetailProps, data)
    assert model.model_names == ["models/props/grass.mdl"] and model.trailing == b"!"
    assert model.props["leaf"][0] == 7 and model.props["angles"]["y"][0] == 90
    assert _round_trip(DetailProps, struct.pack("<i", 2) + name).raw is not None
    lighting = _round_trip(DetailPropLighting, struct.pack("<i", 1) + b"\x01\x02\x03\xfe\x05")
    assert lighting.records["style"][0] == 5 and lighting.records["lighting"]["exponent"][0] == -2


def test_detail_prop_json_is_a_readable_lossless_table():
    prop = bytearray(52)
    struct.pack_into("<3I", prop, 0, 0x7fa00001, 0x80000000, 0x00000001)   # NaN payload, -0.0
    struct.pack_into("<f", prop, 48, 0.1)
    data = struct.pack("<3i", 0, 0, 1) + bytes(prop)
    obj = json.loads(json.dumps(DetailProps.parse(data).to_json()))
    columns, (row,) = obj["props"]["columns"], obj["props"]["rows"]
    cells = dict(zip(columns, row))
    assert cells["origin.x"] == "nan:0x7fa00001" and cells["origin.y"] == "-0.0"
    assert cells["scale"] == "0.1" and cells["type"] == "0"
    cells["scale"] = "2.5"
    obj["props"]["rows"] = [[cells[c] for c in columns]]
    edited = DetailProps.from_json(obj).to_bytes()
    assert edited[:-4] == data[:-4] and struct.unpack("<f", edited[-4:]) == (2.5,)
    obj["props"]["columns"] = columns[::-1]
    from bspedit.errors import BspError
    with pytest.raises(BspError):
        DetailProps.from_json(obj)
