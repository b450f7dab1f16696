"""The variable-size lump models (bspedit/lumps/structures.py and its model modules) over the real
corpus: byte-exact round trips (directly and through JSON), hand-checked values per family,
the engines' invariants (texture sizes, string offsets, PVS rows), and edits that change only
the bytes they should."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CORPUS, corpus_maps

from bspedit.format import lzma_lump
from bspedit.lumps.detailprops import DetailPropLighting, DetailProps
from bspedit.format.generated.record_types import GAME_LUMP_TABLES, LUMP_TABLES
from bspedit.lumps.miptex import GoldSrcMiptexLump, MiptexLump, mip_sizes
from bspedit.lumps.occlusion import Occlusion, OcclusionV1
from bspedit.lumps.physics import PhysCollide, PhysDisp
from bspedit.lumps.structjson import padded_name, text, unpadded_name, untext
from bspedit.lumps.structures import GAME_LUMP_MODELS, LUMP_MODELS, game_structure_for, structure_for
from bspedit.lumps.texdata import TexdataStringData
from bspedit.lumps.visibility import ClusterVisibility, Quake1Visibility, Quake3Visibility

BYTES_ONLY = {"quake1_bsp::lighting", "quake2_bsp::lighting", "quake2_bsp::pop",
              "source_bsp::lighting", "source_bsp::disp_lightmap_alphas",
              "source_bsp::disp_lightmap_sample_positions",
              "source_bsp::overlays_v3_strata"}   # Strata v25 OVERLAYS v3: no model yet


def _open(path: Path):
    from bspedit.bsp import Bsp

    return Bsp.open(path)


def _lump(bsp, name: str) -> bytes:
    """The lump's bytes as in the file, decompressed when stored as a Valve LZMA lump."""
    lump = bsp.lumps[bsp.lump_index(name)]
    with open(bsp.path, "rb") as f:
        f.seek(lump.offset)
        data = f.read(lump.length)
    return lzma_lump.decompress(data) if data[:4] == b"LZMA" else data


def _model(bsp, name: str):
    lump = bsp.lumps[bsp.lump_index(name)]
    cls = structure_for(bsp.family.key, name, lump.version, bsp.header.version)
    return cls.parse(_lump(bsp, name))


def _structured(bsp) -> list[tuple[str, type, bytes]]:
    """(label, model class, original bytes) of every lump and game lump member with a model."""
    found = []
    for lump in bsp.lumps:
        cls = structure_for(bsp.family.key, lump.name, lump.version, bsp.header.version)
        if cls is not None:
            found.append((lump.name, cls, _lump(bsp, lump.name)))
    if bsp.family.key == "source":
        game = bsp.game_lump
        for member in game.members:
            cls = None if member.terminator else game_structure_for("source", member.name,
                                                                    member.version)
            if cls is not None:
                found.append((member.name, cls, game.payload(member)))
    return found


# --- the registry ----------------------------------------------------------------------

@pytest.mark.parametrize("family,lump,version,map_version,expected", [
    ("q1", "TEXTURES", 0, 29, MiptexLump),
    ("bsp2", "TEXTURES", 0, None, MiptexLump),
    ("goldsrc", "TEXTURES", 0, 30, GoldSrcMiptexLump),
    ("q1", "VISIBILITY", 0, 29, Quake1Visibility),
    ("goldsrc", "VISIBILITY", 0, 30, Quake1Visibility),
    ("q2", "VISIBILITY", 0, 38, ClusterVisibility),
    ("source", "VISIBILITY", 0, 20, ClusterVisibility),
    ("q3", "VISIBILITY", 0, 46, Quake3Visibility),
    ("rbsp", "VISIBILITY", 0, 1, Quake3Visibility),
    ("source", "TEXDATA_STRING_DATA", 0, 21, TexdataStringData),
    ("source", "OCCLUSION", 1, 19, OcclusionV1),
    ("source", "OCCLUSION", 2, 20, Occlusion),
    ("source", "PHYSCOLLIDE", 0, 20, PhysCollide),
    ("source", "PHYSDISP", 0, 20, PhysDisp),
    ("source", "LIGHTING", 1, 20, None),  # just bytes
    ("q1", "LIGHTING", 0, 29, None),      # just bytes
    ("q2", "POP", 0, 38, None),           # just bytes
    ("q1", "PLANES", 0, 29, None),        # fixed-size records: recordtypes
    ("source", "ENTITIES", 0, 20, None),
])
def test_structure_for(family, lump, version, map_version, expected):
    assert structure_for(family, lump, version, map_version) is expected


@pytest.mark.parametrize("lump_id,version,expected", [
    ("dprp", 4, DetailProps), ("dplt", 0, DetailPropLighting), ("dplh", 0, DetailPropLighting),
    ("dprp", 5, None), ("sprp", 10, None), ("dplt", 1, None),
])
def test_game_structure_for(lump_id, version, expected):
    assert game_structure_for("source", lump_id, version) is expected


def test_registry_keys_are_whole_types():
    """Every whole type of the generated tables has a model or is named as just bytes (no
    stale keys, none forgotten)."""
    whole = {e[0] for tables in LUMP_TABLES.values() for entries in tables.values()
             for e in entries if e[3]}
    assert whole == set(LUMP_MODELS) | BYTES_ONLY and not BYTES_ONLY & set(LUMP_MODELS)
    game_whole = {e[0] for tables in GAME_LUMP_TABLES.values() for entries in tables.values()
                  for e in entries if e[2]}
    assert game_whole == set(GAME_LUMP_MODELS)


def test_registry_and_parsing_do_not_import_numpy():
    code = ("import sys, bspedit.lumps.structures as s\n"
            "m = s.structure_for('q1', 'TEXTURES', 0, 29).parse(bytes(4))\n"
            "v = s.structure_for('q2', 'VISIBILITY', 0, 38).parse(bytes(4))\n"
            "assert m.to_bytes() == v.to_bytes() == bytes(4)\n"
            "assert 'numpy' not in sys.modules, 'numpy imported'\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


# --- round trips over the corpus -------------------------------------------------------

@pytest.mark.parametrize("path", corpus_maps())
def test_round_trip(path):
    bsp = _open(path)
    found = _structured(bsp)
    assert found or bsp.family.key not in {"q1", "bsp2", "goldsrc", "q2", "q3", "source"}
    for label, cls, data in found:
        model = cls.parse(data)
        assert model.to_bytes() == data, label
        obj = json.loads(json.dumps(model.to_json()))
        assert cls.from_json(obj).to_bytes() == data, label


# --- JSON string forms -----------------------------------------------------------------

def test_text_escapes_every_byte():
    every = bytes(range(256)) + b"\\x41\\\\"
    assert untext(json.loads(json.dumps(text(every)))) == every
    assert text(b"DEV/DEV_MEASUREGENERIC01B") == "DEV/DEV_MEASUREGENERIC01B"
    assert text(b"a\\b") == "a\\b" and text(b"a\\\0") == {"escaped": "a\\\\\\x00"}


def test_padded_name_keeps_compiler_fill():
    field = b"sbrick1\0\x80\xf7\xbf\x10LZ\x81"
    obj = padded_name(field)
    assert obj["name"] == "sbrick1"
    assert unpadded_name(json.loads(json.dumps(obj)), 16) == field.ljust(16, b"\0")
    assert padded_name(b"plain".ljust(16, b"\0")) == {"name": "plain"}


# --- textures --------------------------------------------------------------------------

# Textures whose size is a multiple of 8 only (every mip level still whole): found by this
# test and confirmed in the header bytes (width and height 0x38 = 56).
NOT_16 = {("librequake_lq1m1_bsp2", "+0_tscrn2")}


def _miptex_maps() -> list:
    return corpus_maps("q1") + corpus_maps("goldsrc")


@pytest.mark.parametrize("path", _miptex_maps())
def test_miptex_invariants(path):
    bsp = _open(path)
    model = _model(bsp, "TEXTURES")
    goldsrc = bsp.family.key == "goldsrc"
    assert type(model) is (GoldSrcMiptexLump if goldsrc else MiptexLump)
    assert model.count == len(model.offsets) > 0
    texinfo = bsp.records("TEXINFO")
    assert int(texinfo["miptex"].max()) < model.count
    for entry in model.entries:
        assert entry.width > 0 and entry.width % 8 == 0 and entry.height % 8 == 0, entry.text
        if (path.stem, entry.text) not in NOT_16:
            assert entry.width % 16 == 0 and entry.height % 16 == 0, entry.text
        assert entry.text.isprintable() and entry.text, entry.name
        size = len(entry.to_bytes())
        if entry.external:
            assert goldsrc, f"Quake 1 texture {entry.text} is not embedded"
            continue
        for level, (at, length) in enumerate(zip(entry.mip_offsets,
                                                 mip_sizes(entry.width, entry.height))):
            assert 40 <= at and at + length <= size, (entry.text, level)
            assert entry.pixels(level) is not None and len(entry.pixels(level)) == length
        if goldsrc:
            assert entry.colours is not None and len(entry.colours) == 768, entry.text
    if any(e.external for e in model.entries):
        worldspawn = next(e for e in bsp.entities() if e.get("classname") == "worldspawn")
        wads = [w for w in worldspawn.get("wad", "").split(";") if w]
        assert wads and all(w.lower().endswith(".wad") for w in wads), wads


def test_quake1_texture_checked_by_hand():
    """xxd of q1/slipgate_b_batt0.bsp at TEXTURES (offset 5316): count 2, offsets 12 and
    1412; at 5328 "batt0top", NUL-padded, width 32 (0x20), height 32, mip offsets 40, 1064,
    1320, 1384 (0x28, 0x428, 0x528, 0x568), pixels 0x13..."""
    path = CORPUS / "q1" / "slipgate_b_batt0.bsp"
    if not path.is_file():
        pytest.skip("../shared/corpus not present")
    model = _model(_open(path), "TEXTURES")
    assert model.offsets == [12, 1412]
    batt = model.texture(0)
    assert (batt.name, batt.width, batt.height) == (b"batt0top".ljust(16, b"\0"), 32, 32)
    assert batt.mip_offsets == [40, 1064, 1320, 1384]
    assert batt.pixels(0)[:4] == b"\x13\x13\x13\x13"
    assert model.names == ["batt0top", "batt1sid"]


def test_bsp2_texture_checked_by_hand():
    """xxd of q1/bsptool_remakequake_mp_lobby_bsp2.bsp at TEXTURES (offset 7664): count 2,
    offsets -1 (0xffffffff: missing) and 12; at 7676 "128_grey_3", NUL-padded, width and
    height 128 (0x80), mip offsets 40, 16424, 20520, 21544 (0x28, 0x4028, 0x5028, 0x5428),
    pixels 0x08..."""
    path = CORPUS / "q1" / "bsptool_remakequake_mp_lobby_bsp2.bsp"
    if not path.is_file():
        pytest.skip("../shared/corpus not present")
    bsp = _open(path)
    assert bsp.family.key == "bsp2"
    model = _model(bsp, "TEXTURES")
    assert model.offsets == [-1, 12] and model.names == [None, "128_grey_3"]
    grey = model.texture(1)
    assert (grey.width, grey.height, grey.mip_offsets) == (128, 128, [40, 16424, 20520, 21544])
    assert grey.pixels(0)[:2] == b"\x08\x08" and model.texture(0) is None


def test_goldsrc_texture_checked_by_hand():
    """xxd of goldsrc/hltopdown_test.bsp at TEXTURES (offset 3816): count 3, offsets 16, 56,
    96; at 3832 "c1a0_labflrc", NUL, "8", NUL, NUL (stale bytes after the name), width and
    height 128 (0x80), mip offsets all 0: the pixels live in a WAD."""
    path = CORPUS / "goldsrc" / "hltopdown_test.bsp"
    if not path.is_file():
        pytest.skip("../shared/corpus not present")
    model = _model(_open(path), "TEXTURES")
    assert model.names == ["c1a0_labflrc", "c1a0_wx", "c2a4e_w1"]
    first = model.texture(0)
    assert first.external and (first.width, first.height) == (128, 128)
    assert first.name == b"c1a0_labflrc\x008\0\0"
    assert first.to_json()["name_tail"] == {"escaped": "\\x008"}
    assert first.pixels(0) is None and first.colours is None


def _diff(a: bytes, b: bytes) -> list[int]:
    assert len(a) == len(b)
    return [i for i in range(len(a)) if a[i] != b[i]]


@pytest.mark.parametrize("name,new", [("q1/librequake_box_indexorder.bsp", "brick1"),
                                      ("q1/librequake_box_indexorder.bsp", "sbrick1_longer"),
                                      ("goldsrc/plague_zm_303.bsp", "+0buttonX"),
                                      ("goldsrc/plague_zm_303.bsp", "+0button1_long")])
def test_rename_changes_only_the_name(name, new):
    path = CORPUS / name
    if not path.is_file():
        pytest.skip("../shared/corpus not present")
    data = _lump(_open(path), "TEXTURES")
    model = type(_model(_open(path), "TEXTURES")).parse(data)
    entry = model.texture(0)
    old = entry.text
    model.rename(0, new)
    out = model.to_bytes()
    changed = _diff(data, out)
    assert changed and all(entry.offset <= i < entry.offset + 16 for i in changed)
    assert type(model).parse(out).names[0] == new
    assert out[entry.offset:entry.offset + len(new) + 1] == new.encode() + b"\0"
    tail_start = entry.offset + max(len(old), len(new)) + 1    # compiler fill kept
    assert out[tail_start:entry.offset + 16] == data[tail_start:entry.offset + 16]


def test_growing_pixels_lays_out_again():
    path = CORPUS / "q1" / "librequake_box_indexorder.bsp"
    if not path.is_file():
        pytest.skip("../shared/corpus not present")
    data = _lump(_open(path), "TEXTURES")
    model = MiptexLump.parse(data)
    first = model.texture(0)
    later = [e.to_bytes() for e in model.entries if e.offset > first.offset]
    old_size = sum(mip_sizes(first.width, first.height))
    w, h = first.width * 2, first.height
    mips = [bytes([level + 1]) * size for level, size in enumerate(mip_sizes(w, h))]
    model.texture(0).set_pixels(w, h, mips)
    out = MiptexLump.parse(model.to_bytes())
    grown = sum(mip_sizes(w, h)) - old_size
    assert len(model.to_bytes()) == len(data) + grown
    assert out.names == MiptexLump.parse(data).names
    again = out.texture(0)
    assert (again.width, again.pixels(3)) == (w, mips[3])
    assert again.mip_offsets == [40, 40 + w * h, 40 + w * h + w * h // 4,
                                 40 + w * h + w * h // 4 + w * h // 16]
    moved = [o + grown if o > first.offset else o for o in MiptexLump.parse(data).offsets]
    assert out.offsets == moved
    assert [e.to_bytes() for e in out.entries if e.offset > first.offset] == later


# --- texdata strings -------------------------------------------------------------------

@pytest.mark.parametrize("path", corpus_maps("source"))
def test_texdata_strings(path):
    bsp = _open(path)
    model = _model(bsp, "TEXDATA_STRING_DATA")
    table = [int(o) for o in bsp.records("TEXDATA_STRING_TABLE")["offset"]]
    starts = {offset for offset, _ in model.strings}
    assert table and set(table) <= starts
    names = [model.string_at(o) for o in table]
    assert all(n and n.isprintable() for n in names), names
    texdata = bsp.records("TEXDATA")
    assert len(texdata) and int(texdata["name_string_table_id"].max()) < len(table)
    assert all(isinstance(s, str) for s in model.to_json()["strings"])


def test_texdata_checked_by_hand():
    """xxd of source/bsptool_tf2_test_displacement.bsp at TEXDATA_STRING_DATA (offset
    840940, 39 bytes): "DEV/DEV_BLENDMEASURE", NUL, "TOOLS/TOOLSSKYBOX", NUL."""
    path = CORPUS / "source" / "bsptool_tf2_test_displacement.bsp"
    if not path.is_file():
        pytest.skip("../shared/corpus not present")
    model = _model(_open(path), "TEXDATA_STRING_DATA")
    assert model.strings == [(0, "DEV/DEV_BLENDMEASURE"), (21, "TOOLS/TOOLSSKYBOX")]
    assert model.string_at(21) == "TOOLS/TOOLSSKYBOX" and model.string_at(25) == "S/TOOLSSKYBOX"
    assert model.append("NEW/NAME") == 39 and model.string_at(39) == "NEW/NAME"


# --- visibility ------------------------------------------------------------------------

@pytest.mark.parametrize("path", corpus_maps("q2") + corpus_maps("source") + corpus_maps("q3"))
def test_cluster_rows(path):
    bsp = _open(path)
    model = _model(bsp, "VISIBILITY")
    if getattr(model, "raw", None) is not None:
        assert model.raw == b"", "a visibility lump with data but no table"
        pytest.skip("the map has no vis")
    count = model.num_clusters
    assert count > 0
    leafs = bsp.records("LEAFS")
    assert int(leafs["cluster"].max()) < count
    for cluster in range(count):
        pvs = model.pvs(cluster)
        assert pvs.shape == (count,) and pvs[cluster], cluster
        if isinstance(model, ClusterVisibility):
            phs = model.phs(cluster)
            assert phs.shape == (count,) and phs[cluster] and not (pvs & ~phs).any(), cluster


@pytest.mark.parametrize("path", _miptex_maps())
def test_quake1_rows(path):
    bsp = _open(path)
    model = _model(bsp, "VISIBILITY")
    leafs, visleafs = bsp.records("LEAFS"), int(bsp.records("MODELS")[0]["visleafs"])
    with_rows = [i for i in range(1, visleafs + 1) if leafs[i]["visofs"] >= 0]
    if not with_rows:
        assert model.data in (b"", b"\0")
        pytest.skip("the map has no vis")
    for leaf in with_rows:
        row = model.row(int(leafs[leaf]["visofs"]), visleafs)
        assert len(row) == (visleafs + 7) // 8
        assert row[(leaf - 1) // 8] >> ((leaf - 1) % 8) & 1, leaf    # a leaf sees itself


def test_cluster_rows_checked_by_hand():
    """q2/bsptool_q2_mp_lobby.bsp VISIBILITY (44 bytes): 4 clusters, offsets (36, 40),
    (37, 41), (38, 42), (39, 43), rows 0x0f: every cluster sees all four."""
    path = CORPUS / "q2" / "bsptool_q2_mp_lobby.bsp"
    if not path.is_file():
        pytest.skip("../shared/corpus not present")
    model = _model(_open(path), "VISIBILITY")
    assert model.offsets == [(36, 40), (37, 41), (38, 42), (39, 43)]
    assert model.pvs_row(2) == b"\x0f" and model.pvs(2).tolist() == [True] * 4


def test_rle_runs():
    data = b"\x01\x00\x03\x80"
    assert Quake1Visibility(data).row(0, 40) == b"\x01\x00\x00\x00\x80"
    assert Quake1Visibility(data).row(0, 16) == b"\x01\x00"       # the run is cut at the row end
    from bspedit.errors import BspError
    with pytest.raises(BspError):
        Quake1Visibility(data).row(0, 64)


# --- detail props ----------------------------------------------------------------------

@pytest.mark.parametrize("path", corpus_maps("source"))
def test_detail_props(path):
    game = _open(path).game_lump
    member = game.member("dprp")
    model = DetailProps.parse(game.payload(member))
    assert model.raw is None and model.trailing == b""
    assert all(n.endswith(".mdl") for n in model.model_names), model.model_names
    props = model.props
    if len(props):
        kinds = props["type"]
        assert set(kinds.tolist()) <= {0, 1, 2, 3}
        dictionary = {0: len(model.models)}
        for kind in set(kinds.tolist()):
            bound = dictionary.get(kind, len(model.sprites))
            assert int(props["detail_model"][kinds == kind].max()) < bound


def test_detail_props_checked_by_hand():
    """source/sdk2013_sdk_vehicles_v19.bsp dprp (536224 bytes): 0 model names, 11 sprites,
    10305 props (4 + 11 * 32 + 4 + 10305 * 52 + 4 = 536224), all sprites (type 1)."""
    path = CORPUS / "source" / "sdk2013_sdk_vehicles_v19.bsp"
    if not path.is_file():
        pytest.skip("../shared/corpus not present")
    model = DetailProps.parse(_open(path).game_lump.payload("dprp"))
    assert (len(model.models), len(model.sprites), len(model.props)) == (0, 11, 10305)
    assert set(model.props["type"].tolist()) == {1}


def test_moving_a_detail_prop_changes_only_its_record():
    path = CORPUS / "source" / "sdk2013_sdk_vehicles_v19.bsp"
    if not path.is_file():
        pytest.skip("../shared/corpus not present")
    data = _open(path).game_lump.payload("dprp")
    model = DetailProps.parse(data)
    model.props["origin"]["z"][7] += 16.0
    out = model.to_bytes()
    start = 4 + 4 + 11 * 32 + 4 + 7 * 52      # no model names, 11 sprites, record 7
    changed = _diff(data, out)
    assert changed and all(start + 8 <= i < start + 12 for i in changed)   # origin.z
    assert DetailProps.parse(out).props["origin"]["z"][7] == model.props["origin"]["z"][7]


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_detail_prop_lighting(path):
    game = _open(path).game_lump
    for member in game.members:
        if member.name in ("dplt", "dplh"):
            model = DetailPropLighting.parse(game.payload(member))
            assert model.raw is None and model.records is not None
            assert len(model.records) * 5 + 4 == len(game.payload(member))
