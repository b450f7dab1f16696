"""The Source (VBSP 17-25) record type specs, ksy/source_bsp.ksy and ksy/source_game_lumps.ksy:
their sizes against their Kaitai readers and families.py, and their records on the real corpus."""
from __future__ import annotations

import math
import re

import pytest
import yaml
from kaitaistruct import KaitaiStream, BytesIO

from bspedit.format import lzma_lump
from bspedit.bsp import Bsp
from bspedit.format.families import SOURCE
from bspedit.format.generated import source_bsp, source_game_lumps
from conftest import ROOT, corpus_maps

SPECS = {name: yaml.safe_load((ROOT / "ksy" / f"{name}.ksy").read_text(encoding="utf-8"))
         for name in ("source_bsp", "source_game_lumps")}
MODULES = {"source_bsp": source_bsp.SourceBsp, "source_game_lumps": source_game_lumps.SourceGameLumps}
BSP_SPEC = SPECS["source_bsp"]
MAP_VERSIONS = sorted(SOURCE.versions)
FIXED_ONLY = {"u1", "u2", "u4", "u8", "s1", "s2", "s4", "s8", "f4", "f8"}
SAMPLE = 200          # records parsed per lump: Kaitai is slow


def reader(spec: str, type_name: str):
    """The generated class of `type_name` in spec `spec`."""
    camel = "".join(part[:1].upper() + part[1:] for part in type_name.split("_"))
    return getattr(MODULES[spec], camel)


def fixed_types() -> list[tuple[str, str, int]]:
    return [(spec, name, body["-bspedit-size"]) for spec, data in SPECS.items()
            for name, body in data["types"].items() if "-bspedit-size" in body]


def entries_for(lump: str, lump_version: int, map_version: int) -> list[dict]:
    return [e for e in BSP_SPEC["-bspedit-lumps"] if e["lump"] == lump
            and map_version in e.get("map-versions", [map_version])
            and e.get("lump-version", lump_version) == lump_version]


def entry_for(lump: str, lump_version: int, map_version: int) -> dict | None:
    found = entries_for(lump, lump_version, map_version)
    assert len(found) <= 1, f"{lump} v{lump_version} in VBSP {map_version}: {found}"
    return found[0] if found else None


def type_size(spec: str, name: str) -> int:
    return SPECS[spec]["types"][name]["-bspedit-size"]


# ---- the specs themselves ----

def test_specs_follow_the_conventions():
    for spec, data in SPECS.items():
        assert data["meta"]["endian"] == "le" and data["meta"]["ks-version"] == 0.11
        assert data["-bspedit-families"] == ["source"]
        assert "seq" not in data, f"{spec} is a types library"
        for name, body in data["types"].items():
            assert re.fullmatch(r"[a-z][a-z0-9_]*", name)
            assert body.get("doc"), f"{spec}::{name} has no doc"
            for field in body.get("seq", []):
                assert field.get("doc"), f"{spec}::{name}.{field['id']} has no doc"
            if "-bspedit-size" not in body:
                continue
            for field in body["seq"]:       # fixed-size records: only the allowed building blocks
                assert not {"if", "size-eos", "repeat-until"} & field.keys(), (name, field)
                if "repeat" in field:
                    assert field["repeat"] == "expr" and isinstance(field["repeat-expr"], int)
                kind = field.get("type")
                if kind is None or kind == "str":
                    assert isinstance(field["size"], int), (name, field)
                elif kind not in FIXED_ONLY:
                    local = kind.split("::")[-1]
                    owner = kind.split("::")[0] if "::" in kind else spec
                    assert "-bspedit-size" in SPECS[owner]["types"][local], (name, kind)


@pytest.mark.parametrize("spec, name, size", fixed_types(), ids=lambda x: str(x))
def test_fixed_size_reader_consumes_its_size(spec, name, size):
    record = reader(spec, name)(KaitaiStream(BytesIO(bytes(range(256)) * (size // 256 + 1))))
    assert record._io.pos() == size
    with pytest.raises(EOFError):
        reader(spec, name)(KaitaiStream(BytesIO(bytes(size - 1))))


def test_lump_table_names_and_types_exist():
    for entry in BSP_SPEC["-bspedit-lumps"]:
        assert entry["lump"] in SOURCE.lump_names, entry
        body = BSP_SPEC["types"][entry["type"]]
        assert entry.get("whole", False) == ("-bspedit-size" not in body), entry
        assert set(entry.get("map-versions", [])) <= set(MAP_VERSIONS), entry


@pytest.mark.parametrize("map_version", MAP_VERSIONS)
def test_every_families_record_size_has_a_type_of_that_size(map_version):
    """Both ways: a lump with a record size in families.py resolves to a fixed-size type of that
    size, and a lump without one resolves to no fixed-size type."""
    for index, lump in enumerate(SOURCE.lump_names):
        for lump_version in range(3):
            expected = SOURCE.record_size(index, lump_version, map_version)
            entry = entry_for(lump, lump_version, map_version)
            got = None if entry is None or entry.get("whole") else \
                type_size("source_bsp", entry["type"])
            assert got == expected, f"{lump} v{lump_version} VBSP {map_version}"


def test_game_lump_table():
    table = SPECS["source_game_lumps"]["-bspedit-game-lumps"]
    assert {(e["id"], e["version"]) for e in table} == {("dprp", 4), ("dplt", 0), ("dplh", 0)}
    for entry in table:
        assert "-bspedit-size" not in SPECS["source_game_lumps"]["types"][entry["type"]]


# ---- the corpus ----

def _lump_data(bsp: Bsp, index: int) -> bytes:
    data = bsp.read_lump(index)
    return lzma_lump.decompress(data) if lzma_lump.lzma_header(data) else data


def _sample(data: bytes, spec: str, name: str, size: int) -> list:
    """Up to SAMPLE records spread evenly over the lump, each checked to consume `size` bytes."""
    count = len(data) // size
    picks = sorted({i * count // SAMPLE for i in range(SAMPLE)}) if count > SAMPLE else range(count)
    out = []
    for i in picks:
        io = KaitaiStream(BytesIO(data[i * size:(i + 1) * size]))
        out.append(reader(spec, name)(io))
        assert io.pos() == size
    return out


def _parse_map(path):
    """Every described lump of the map: (record count, sampled records) or the whole parse."""
    lumps, whole = {}, {}
    with Bsp.open(path) as bsp:
        version = bsp.header.version
        for lump in bsp.lumps:
            entry = entry_for(lump.name, lump.version, version)
            if entry is None or not lump.length:
                continue
            data = _lump_data(bsp, lump.index)
            if entry.get("whole"):
                io = KaitaiStream(BytesIO(data))
                whole[lump.name] = (reader("source_bsp", entry["type"])(io), len(data))
                assert io.pos() == len(data), lump.name
                continue
            size = type_size("source_bsp", entry["type"])
            assert len(data) % size == 0, f"{lump.name}: {len(data)} bytes, records of {size}"
            lumps[lump.name] = (len(data) // size, _sample(data, "source_bsp", entry["type"], size))
        members = {}
        if bsp.lumps[SOURCE.index_of("GAME_LUMP")].length:
            game = bsp.game_lump
            for member in game.members:
                if not member.terminator and member.name != "sprp":
                    members[member.name] = (member.version, game.payload(member))
    return version, lumps, whole, members


@pytest.fixture(scope="module")
def parsed():
    cache = {}

    def get(path):
        if path not in cache:
            cache[path] = _parse_map(path)
        return cache[path]
    return get


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_corpus_records(path, parsed):
    version, lumps, whole, _ = parsed(path)
    count = {name: n for name, (n, _) in lumps.items()}
    records = {name: r for name, (_, r) in lumps.items()}
    assert {"PLANES", "VERTEXES", "TEXINFO", "FACES", "EDGES", "SURFEDGES", "MODELS"} <= count.keys()

    for plane in records["PLANES"]:
        n = plane.normal
        length = math.sqrt(n.x ** 2 + n.y ** 2 + n.z ** 2)
        assert length == 0 or abs(length - 1) < 1e-3, (n.x, n.y, n.z)
    for name in ("FACES", "ORIGINALFACES", "FACES_HDR"):
        for face in records.get(name, []):
            if name == "ORIGINALFACES":
                # texinfo here indexes the compiler's texinfo before it compacted TEXINFO: it
                # runs past the lump's end in every corpus map (not a reading error)
                assert face.orig_face == -1 and face.texinfo >= 0
            else:
                assert 0 <= face.texinfo < count["TEXINFO"], name
            assert 0 <= face.planenum < count["PLANES"], name
            assert 0 <= face.firstedge and face.firstedge + face.numedges <= count["SURFEDGES"]
            assert face.dispinfo == -1 or 0 <= face.dispinfo < count.get("DISPINFO", 0)
    for model in records["MODELS"]:
        for axis in "xyz":
            assert getattr(model.mins, axis) <= getattr(model.maxs, axis)
        assert 0 <= model.firstface and model.firstface + model.numfaces <= count["FACES"]
    for edge in records["EDGES"]:
        assert all(0 <= v < count["VERTEXES"] for v in edge.v)
    for surfedge in records["SURFEDGES"]:
        assert abs(surfedge.edge) < count["EDGES"]
    for texinfo in records["TEXINFO"]:
        assert -1 <= texinfo.texdata < count["TEXDATA"]
    for brush in records.get("BRUSHES", []):
        assert 0 <= brush.firstside and brush.firstside + brush.numsides <= count["BRUSHSIDES"]
    for side in records.get("BRUSHSIDES", []):
        assert side.planenum < count["PLANES"] and side.bevel in (0, 1) and side.thin in (0, 1)
    for leaf in records.get("LEAFS", []):
        assert leaf.firstleafface + leaf.numleaffaces <= count.get("LEAFFACES", 0)
        assert leaf.firstleafbrush + leaf.numleafbrushes <= count.get("LEAFBRUSHES", 0)
    for leafface in records.get("LEAFFACES", []):
        assert leafface.face < count["FACES"]
    for disp in records.get("DISPINFO", []):
        assert disp.map_face < count["FACES"] and 2 <= disp.power <= 4
        assert disp.disp_vert_start + ((1 << disp.power) + 1) ** 2 <= count["DISP_VERTS"]
        assert disp.disp_tri_start + 2 * (1 << disp.power) ** 2 <= count["DISP_TRIS"]

    for light in records.get("WORLDLIGHTS", []) + records.get("WORLDLIGHTS_HDR", []):
        assert 0 <= light.type <= 5 and light.texinfo < count["TEXINFO"]
    for name in ("OVERLAYS", "WATEROVERLAYS"):
        for overlay in records.get(name, []):
            assert 0 <= overlay.texinfo < count["TEXINFO"]
            assert overlay.face_count <= len(overlay.faces)
            assert all(0 <= f < count["FACES"] for f in overlay.faces[:overlay.face_count])
    for prim in records.get("PRIMITIVES", []):
        assert prim.type in (0, 1)
        assert prim.first_index + prim.index_count <= count.get("PRIMINDICES", 0)
    for index in records.get("PRIMINDICES", []):
        assert index.vert < count.get("PRIMVERTS", 0) or index.vert < count["VERTEXES"]
    for name, samples in (("LEAF_AMBIENT_INDEX", "LEAF_AMBIENT_LIGHTING"),
                          ("LEAF_AMBIENT_INDEX_HDR", "LEAF_AMBIENT_LIGHTING_HDR")):
        for index in records.get(name, []):
            assert not index.ambient_sample_count or \
                index.first_ambient_sample + index.ambient_sample_count <= count.get(samples, 0)
    # lumps with one record per face, leaf or overlay
    for name, per in (("FACEIDS", "FACES"), ("LEAFMINDISTTOWATER", "LEAFS"),
                      ("LEAF_AMBIENT_INDEX", "LEAFS"), ("LEAF_AMBIENT_INDEX_HDR", "LEAFS"),
                      ("OVERLAY_FADES", "OVERLAYS"), ("OVERLAY_SYSTEM_LEVELS", "OVERLAYS")):
        if name in count and per in count:
            assert count[name] == count[per], (name, per)
    for name in ("FACE_MACRO_TEXTURE_INFO",):
        if name in count:
            assert count[name] in (count["FACES"], count.get("FACES_HDR"))
    if "VERTNORMALINDICES" in count:
        for index in records["VERTNORMALINDICES"]:
            assert index.vertnormal < count["VERTNORMALS"]

    strings, length = whole["TEXDATA_STRING_DATA"]
    assert len(strings.data) == length
    table = [entry.offset for entry in records["TEXDATA_STRING_TABLE"]]
    assert count["TEXDATA_STRING_TABLE"] <= SAMPLE        # all of them were sampled
    for texdata in records["TEXDATA"]:
        assert 0 <= texdata.name_string_table_id < len(table)
    for offset in table:
        name = strings.data[offset:strings.data.index(b"\0", offset)]
        assert name and all(0x20 <= c < 0x7f for c in name), name
    if "VISIBILITY" in whole:
        vis, length = whole["VISIBILITY"]
        assert 4 + 8 * vis.num_clusters + len(vis.rows) == length
        for pair in vis.byte_offsets:
            assert 4 + 8 * vis.num_clusters <= pair.pvs <= length
            assert 4 + 8 * vis.num_clusters <= pair.pas <= length


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_corpus_game_lump_members(path, parsed):
    _, lumps, _, members = parsed(path)
    table = {e["id"]: e for e in SPECS["source_game_lumps"]["-bspedit-game-lumps"]}
    assert "dprp" in members
    for name, (version, data) in members.items():
        entry = table[name]
        assert version == entry["version"], name
        io = KaitaiStream(BytesIO(data))
        parsed_member = reader("source_game_lumps", entry["type"])(io)
        assert io.pos() == len(data) and parsed_member.trailing == b"", name
        if name != "dprp":
            continue
        assert len(data) == 12 + 128 * parsed_member.num_dict_entries \
            + 32 * parsed_member.num_sprite_dict_entries + 52 * parsed_member.num_detail_objects
        for prop in parsed_member.detail_objects[:SAMPLE]:
            limit = parsed_member.num_sprite_dict_entries if prop.type == 1 else \
                parsed_member.num_dict_entries
            assert prop.type in (0, 1, 2, 3) and prop.detail_model < limit
            assert prop.leaf < lumps["LEAFS"][0]
        for entry_ in parsed_member.dict:
            assert entry_.name.rstrip("\0").isprintable()


def test_strata_v25_map_reads_with_the_widened_types(parsed):
    path = ROOT.parent / "shared" / "corpus" / "source" / "bsptool_momentum_mp_lobby_v25.bsp"
    if not path.exists():
        pytest.skip("../shared/corpus not present")
    version, lumps, _, _ = parsed(path)
    assert version == 25
    assert isinstance(lumps["FACES"][1][0], source_bsp.SourceBsp.FaceStrata)
    assert isinstance(lumps["LEAFS"][1][0], source_bsp.SourceBsp.LeafStrata)
    faces = lumps["FACES"][1]
    assert all(f.padding == 0 and f.side in (0, 1) and f.on_node in (0, 1) for f in faces)
