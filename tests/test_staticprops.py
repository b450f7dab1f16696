"""Static props (`sprp`): every record layout, edits that touch only their bytes, real maps."""
from __future__ import annotations

import json
import shutil
import struct

import pytest

import synthetic
from bspedit.bsp import Bsp
from bspedit.features.checks import problems
from bspedit.errors import BspError
from bspedit.lumps.gamelump import GameLump
from bspedit.lumps.staticprops import StaticProps
from conftest import CORPUS, corpus_maps, run_cli

# Independent of the module's table: game lump version, record size, where the flags live
# (a u8 at 31, or the u32 of the rearranged Source 2013 record at 64), and the leaf index width.
CASES = {"v4": (4, 56, 31, 2), "v5": (5, 60, 31, 2), "v6": (6, 64, 31, 2), "v7": (7, 68, 31, 2),
         "v7*": (7, 72, 64, 2), "v8": (8, 68, 31, 2), "v9": (9, 72, 31, 2), "v10": (10, 76, 31, 2),
         "v7* as 10": (10, 72, 64, 2), "v11": (11, 80, 31, 2), "v12": (12, 80, 31, 4),
         "v13": (13, 88, 31, 4)}
NAMES = [b"models/props/crate.mdl".ljust(128, b"\0"),
         b"models/props/barrel.mdl\0stale bytes after the name".ljust(128, b"\0")]

# Layouts of the real maps that hold props (CS:GO's 10 is 76 bytes; TF2-branch maps' 10 is 7*).
CORPUS_LAYOUTS = {"sdk2013_sdk_vehicles_v19": "v5", "ths_l4d2_as_devtest_map_01_v21": "v9",
                  "tg1v1_am_grass2_csgo_v21": "v10", "opendm_background01": "v7*",
                  "valvebsp_testmap": "v7*", "tf2classified_cp_stronghold_lzma": "v7*",
                  "tf2classified_cp_stronghold_uncompressed_trailing": "v7*"}
LZMA_MAP = CORPUS / "source" / "tf2classified_cp_stronghold_lzma.bsp"


def _sprp(size: int, width: int, count: int = 3, leaves: int = 5) -> bytes:
    """A static prop member: two names, `leaves` leaf indices, `count` filler records with
    known origins, angles, models, skins and flags."""
    out = struct.pack("<i", len(NAMES)) + b"".join(NAMES)
    leaf = "<H" if width == 2 else "<I"                   # u32 leaves hold indices over 65535
    out += struct.pack("<i", leaves) + b"".join(struct.pack(leaf, 70000 % (1 << 8 * width) + i)
                                                for i in range(leaves))
    out += struct.pack("<i", count)
    for i in range(count):
        record = bytearray(synthetic.records(size, 1, seed=i + 2))
        struct.pack_into("<3f3fHHHB", record, 0, 10.0 * i, -2.5, 64.0, 0.0, 90.0 * i, 0.0, i % 2, i, 1, 6)
        struct.pack_into("<i", record, 32, i + 1)
        out += record
    return out


def _records_at(data: bytes, width: int) -> int:
    names = struct.unpack_from("<i", data)[0]
    leaves_at = 4 + 128 * names
    return leaves_at + 4 + width * struct.unpack_from("<i", data, leaves_at)[0] + 4


@pytest.mark.parametrize("name", CASES)
def test_every_layout_parses_edits_and_writes_back(name):
    version, size, flags_at, width = CASES[name]
    data = _sprp(size, width)
    props = StaticProps.parse(data, version)
    assert (props.layout.name, props.layout.size, len(props)) == (name.split()[0], size, 3)
    assert props.to_bytes() == data
    assert props.model_names() == ["models/props/crate.mdl", "models/props/barrel.mdl"]
    assert props.leaf_entries == 5 and props.leaf_width == width
    assert props.get(2, "origin") == (20.0, -2.5, 64.0) and props.get(2, "angles") == (0.0, 180.0, 0.0)
    assert (props.model(1), props.get(1, "skin"), props.get(1, "solid")) == ("models/props/barrel.mdl", 2, 6)
    assert (props.get(1, "first_leaf"), props.get(1, "leaf_count")) == (1, 1)
    start = _records_at(data, width)
    flags_format = "<I" if flags_at == 64 else "<B"
    assert props.get(1, "flags") == struct.unpack_from(flags_format, data, start + size + flags_at)[0]
    # one prop's origin and flags: only those bytes change
    props.set(1, "origin", (1.5, 2.5, -3.5))
    props.set(1, "flags", 0x41)
    expected = bytearray(data)
    struct.pack_into("<3f", expected, start + size, 1.5, 2.5, -3.5)
    struct.pack_into(flags_format, expected, start + size + flags_at, 0x41)
    assert props.to_bytes() == expected
    # a new model grows the dictionary by one name; an existing one (any case) does not
    assert props.set_model(0, "models/new/thing.mdl")
    assert not props.set_model(2, "MODELS\\Props\\Crate.mdl")
    assert props.model_names()[2] == "models/new/thing.mdl" and props.get(0, "model") == 2
    assert props.get(2, "model") == 0
    reparsed = StaticProps.parse(props.to_bytes(), version)
    assert len(reparsed.names) == 3 and reparsed.records == props.records
    # removing a prop keeps the others' bytes and the leaf list
    props.remove([0])
    assert props.records == [bytearray(expected[start + size:start + 2 * size]),
                             bytearray(expected[start + 2 * size:start + 3 * size])]
    assert StaticProps.parse(props.to_bytes(), version).leaves == reparsed.leaves


@pytest.mark.parametrize("version, layouts", [(7, {68: "v7", 72: "v7*"}),
                                              (10, {72: "v7*", 76: "v10"})])
def test_ambiguous_versions_are_decided_by_record_size(version, layouts):
    for size, name in layouts.items():
        props = StaticProps.parse(_sprp(size, 2), version)
        assert (props.layout.name, props.layout.size) == (name, size)
        assert props.field("flags") == ((64, "I") if name == "v7*" else (31, "B"))


def test_leaf_width_follows_the_data():
    data = _sprp(80, 2, leaves=3)                 # a v12 member written with u16 leaves
    props = StaticProps.parse(data, 12)
    assert props.leaf_width == 2 and props.to_bytes() == data


def test_no_props_and_extra_fields():
    empty = StaticProps.parse(_sprp(76, 2, count=0, leaves=0), 10)
    assert len(empty) == 0 and empty.to_bytes() == _sprp(76, 2, count=0, leaves=0)
    v13 = StaticProps.parse(_sprp(88, 4), 13)
    v13.set(0, "scale", (1.0, 2.0, 0.5))
    assert v13.get(0, "scale") == (1.0, 2.0, 0.5)
    assert v13.to_bytes()[_records_at(v13.to_bytes(), 4) + 76:][:12] == struct.pack("<3f", 1.0, 2.0, 0.5)


@pytest.mark.parametrize("data, version, message", [
    (_sprp(56, 2), 3, "sprp version 3 is not a known static prop version"),
    (_sprp(74, 2), 10, "sprp version 10: the data after the model dictionary fits no known record layout"),
    (_sprp(72, 2)[:-1], 9, "fits no known record layout"),
    (struct.pack("<i", 5) + bytes(100), 10, "sprp claims 5 model names, more than its 104 bytes hold"),
    (b"\0\0", 10, "sprp ends at 2 bytes before the count of model names"),
])
def test_malformed_sprp_is_a_one_line_error(data, version, message):
    with pytest.raises(BspError, match=message):
        StaticProps.parse(data, version)


def test_bad_edits_are_errors():
    props = StaticProps.parse(_sprp(72, 2), 10)
    for call, message in ((lambda: props.set(0, "diffuse", (1, 2, 3, 4)),
                           "layout v7\\* have no field 'diffuse'"),
                          (lambda: props.set(0, "origin", (1, 2)), "origin takes 3 value"),
                          (lambda: props.set(0, "solid", 256), "does not fit"),
                          (lambda: props.set(3, "skin", 1), "no static prop 3: the map has 3 \\(0-2\\)"),
                          (lambda: props.set_model(0, "x" * 128), "1-127 ASCII characters"),
                          (lambda: props.remove([0, 7]), "no static prop 7")):
        with pytest.raises(BspError, match=message):
            call()
    assert props.to_bytes() == _sprp(72, 2)          # nothing changed by failed edits


@pytest.mark.parametrize("value", ["nan,0,0", "0,inf,0", "1e999,0,0", "1,2", "x,y,z"])
def test_a_position_that_is_not_finite_numbers_is_refused(write_map, tmp_path, value):
    """A NaN origin put a prop in every leaf of the tree's walk: refused, nothing written."""
    sprp = _sprp(76, 2)
    path = write_map(synthetic.make_map("source", {
        1: synthetic.records(20, 2),
        35: synthetic.game_lump([(b"sprp", 0, 10, sprp), (b"dprp", 0, 4, b"\0" * 12)])}))
    result = run_cli("props", "set", path, "1", f"origin={value}", "--keep-leaves",
                     "-o", tmp_path / "out.bsp")
    assert result.returncode == 2 and not (tmp_path / "out.bsp").exists()
    assert "origin: expected" in result.stderr or "origin takes 3 value(s), got 2" in result.stderr


@pytest.mark.parametrize("in_place", [False, True])
def test_cli_edit_on_a_synthetic_map(write_map, tmp_path, in_place):
    sprp = _sprp(76, 2)
    path = write_map(synthetic.make_map("source", {
        1: synthetic.records(20, 2),
        35: synthetic.game_lump([(b"sprp", 0, 10, sprp), (b"dprp", 0, 4, b"\0" * 12)]),
        40: b"PK\x05\x06" + bytes(16) + b"\x20\x00" + b"XZP1 0".ljust(32, b"\0")}))
    original = path.read_bytes()
    target = ["--in-place"] if in_place else ["-o", tmp_path / "out.bsp"]
    edit = ("props", "set", path, "1", "origin=1,2,3", "angles=0,45,0", "skin=0x3",
            "model=models/added.mdl", *target)
    refused = run_cli(*edit)        # a moved prop's leaves need the map's BSP tree
    assert refused.returncode == 1 and "its leaf list can't be recomputed: the map has no " \
        "BSP tree" in refused.stderr and "--keep-leaves" in refused.stderr
    assert path.read_bytes() == original
    result = run_cli(*edit, "--keep-leaves")
    assert result.returncode == 0, result.stderr
    assert "prop 1: leaves kept as they were (4465)" in result.stdout
    assert "prop 1: origin 10.0,-2.5,64.0 -> 1.0,2.0,3.0" in result.stdout
    assert "added to the model dictionary as #2" in result.stdout
    saved_path = path if in_place else tmp_path / "out.bsp"
    with Bsp.open(saved_path) as saved:
        assert problems(saved) == []
        lump, props = saved.game_lump, saved.static_props
        assert props.get(1, "origin") == (1.0, 2.0, 3.0) and props.get(1, "skin") == 3
        assert props.model(1) == "models/added.mdl" and props.get(0, "origin") == (0.0, -2.5, 64.0)
        assert lump.payload("dprp") == b"\0" * 12
        listing = json.loads(run_cli("props", "list", saved_path, "--json").stdout)["result"]
        assert listing["props"][1]["origin"] == [1.0, 2.0, 3.0]
        assert listing["props"][1]["angles"] == [0.0, 45.0, 0.0]
        assert listing["models"][-1] == "models/added.mdl" and listing["layout"] == "v10"
        with Bsp.open(write_map(original, "orig.bsp")) as before:
            for old in before.lumps:
                if old.index != 35:
                    assert saved.read_lump(old.index) == before.read_lump(old.index)
    removed = run_cli("props", "remove", saved_path, "0", "2", "-o", tmp_path / "fewer.bsp")
    assert removed.returncode == 0, removed.stderr
    with Bsp.open(tmp_path / "fewer.bsp") as fewer:
        assert fewer.static_props.records == [props.records[1]]


def _sprp_position(bsp: Bsp) -> int:
    """Where the sprp member starts inside the game lump."""
    lump = GameLump.parse(bsp.read_lump(35), bsp.lumps[35].offset)
    return lump.member("sprp").offset - bsp.lumps[35].offset


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_corpus_sprp_parses_and_writes_back_byte_identical(path):
    with Bsp.open(path) as bsp:
        lump, props = bsp.game_lump, bsp.static_props
    data = lump.payload("sprp")
    assert props.to_bytes() == data
    assert props.version == lump.member("sprp").version
    records = len(data) - _records_at(data, props.leaf_width)
    assert records == props.layout.size * len(props)
    if len(props):
        assert props.layout.name == CORPUS_LAYOUTS[path.stem]
        assert all(props.model(i) for i in range(len(props)))
        leaves = [props.get(i, "first_leaf") + props.get(i, "leaf_count") for i in range(len(props))]
        assert max(leaves) <= props.leaf_entries


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_corpus_origin_edit_changes_only_that_records_12_bytes(path, tmp_path):
    with Bsp.open(path) as bsp:
        lump, props = bsp.game_lump, bsp.static_props
    copy = tmp_path / "copy.bsp"
    shutil.copyfile(path, copy)
    if not len(props):
        result = run_cli("props", "set", path, "0", "origin=1,2,3", "-o", tmp_path / "out.bsp")
        assert result.returncode == 1 and "no static prop 0: the map has 0" in result.stderr
        return
    index = len(props) - 1
    expected = bytearray(lump.payload("sprp"))
    at = _records_at(expected, props.leaf_width) + props.layout.size * index
    struct.pack_into("<3f", expected, at, -12.5, 1024.0, 3.25)
    for target in (["-o", tmp_path / "out.bsp"], ["--in-place"]):
        result = run_cli("props", "set", copy if target == ["--in-place"] else path, index,
                         "origin=-12.5,1024,3.25", "--keep-leaves", *target)
        assert result.returncode == 0, result.stderr
        assert "changed: lump 35 (GAME_LUMP)" in result.stdout
        saved_path = copy if target == ["--in-place"] else tmp_path / "out.bsp"
        with Bsp.open(path) as original, Bsp.open(saved_path, check=False) as saved:
            assert problems(saved) == []
            for old in original.lumps:
                if old.index != 35:
                    assert saved.lumps[old.index].offset == old.offset
                    assert saved.read_lump(old.index) == original.read_lump(old.index), old.name
            new_lump = saved.game_lump
            assert new_lump.payload("sprp") == expected
            for member in lump.members:
                if not member.terminator and member.name != "sprp":
                    assert new_lump.member(member.name).stored == member.stored
            if not lump.member("sprp").compressed:
                # the same lump bytes but those 12, once written back at the original offset
                sprp_at = _sprp_position(original)
                relocated = new_lump.to_bytes(original.lumps[35].offset)
                want = bytearray(original.read_lump(35))
                want[sprp_at + at:sprp_at + at + 12] = expected[at:at + 12]
                assert relocated == want
                if target[0] == "-o":
                    assert saved.read_lump(35) == want and saved.lumps[35].offset == original.lumps[35].offset


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_corpus_remove_and_model_change(path):
    with Bsp.open(path) as bsp:
        props = bsp.static_props
        if not len(props):
            pytest.skip("no static props in this map")
        original = [bytes(r) for r in props.records]
        names, leaves = list(props.names), props.leaves
        other = 1 % len(props)
        assert props.set_model(0, "models/bspedit/new_model.mdl")
        assert not props.set_model(other, props.model(0).upper())     # reuses the new name
        assert props.get(0, "model") == props.get(other, "model") == len(names)
        edited = [bytes(r) for r in props.records]
        for i, (before, after) in enumerate(zip(original, edited)):    # only the model fields
            assert before[:24] + before[26:] == after[:24] + after[26:]
            assert before == after or i in (0, other)
        props.remove([0])
        data = props.to_bytes()
    again = StaticProps.parse(data, props.version)
    assert [bytes(r) for r in again.records] == edited[1:]
    assert again.names == names + [b"models/bspedit/new_model.mdl".ljust(128, b"\0")]
    assert again.leaves == leaves


@pytest.mark.skipif(not LZMA_MAP.exists(), reason="../shared/corpus not present")
def test_removing_props_from_a_map_with_baked_prop_lighting_warns(tmp_path):
    result = run_cli("props", "remove", LZMA_MAP, "3", "-o", tmp_path / "out.bsp")
    assert result.returncode == 0, result.stderr
    assert "removed 1 static prop(s), 42 remain" in result.stdout
    assert "note: the pakfile holds 40 baked static prop lighting file(s)" in result.stdout
    with Bsp.open(LZMA_MAP) as original, Bsp.open(tmp_path / "out.bsp") as saved:
        before = original.static_props
        after = saved.static_props
        assert after.records == before.records[:3] + before.records[4:]
        assert GameLump.parse(saved.read_lump(35), saved.lumps[35].offset).member("sprp").compressed
