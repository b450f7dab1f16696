"""The Source (VBSP 17-25) record type specs, ksy/source_bsp.ksy and ksy/source_game_lumps.ksy:
their sizes against their Kaitai readers and families.py, and their records on the real corpus."""
from __future__ import annotations

import functools
import math
import re
import struct

import pytest
from kaitaistruct import KaitaiStream, BytesIO

from bspedit.format import lzma_lump
from bspedit.bsp import Bsp
from bspedit.format.families import SOURCE
from bspedit.format.generated import source_bsp, source_game_lumps
from conftest import ROOT, corpus_maps, ksy_spec

SPECS = {name: ksy_spec(name) for name in ("source_bsp", "source_game_lumps")}
MODULES = {"source_bsp": source_bsp.SourceBsp, "source_game_lumps": source_game_lumps.SourceGameLumps}
BSP_SPEC = SPECS["source_bsp"]
MAP_VERSIONS = sorted(SOURCE.versions)
FIXED_ONLY = {"u1", "u2", "u4", "u8", "s1", "s2", "s4", "s8", "f4", "f8"}
SAMPLE = 200          # records parsed per lump: Kaitai is slow


def reader(spec: str, type_name: str):
    """The generated class of `type_name` in spec `spec`, reading little-endian (PC maps)."""
    camel = "".join(part[:1].upper() + part[1:] for part in type_name.split("_"))
    return functools.partial(getattr(MODULES[spec], camel), _is_le=True)


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
        switch = {"switch-on": "big_endian", "cases": {False: "le", True: "be"}}
        assert data["meta"]["endian"] == switch       # console (PSBV) maps: big-endian
        assert [(p["id"], p["type"]) for p in data["params"]] == [("big_endian", "bool")]
        assert data["meta"]["ks-version"] == 0.11
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


# ---- Strata v25 record types from the Strata wiki, on synthetic records ----
# The corpus v25 map (bsptool_momentum_mp_lobby_v25.bsp) holds no DISPINFO, PRIMITIVES,
# OVERLAYS, WATEROVERLAYS or LEAFWATERDATA records (those lumps are empty) and version 1
# worldlights, so each test builds its record with struct, field by field from the wiki's C
# struct (https://wiki.stratasource.org/modding/formats/bsp-v25, natural alignment), and reads
# it back with the Kaitai reader and the numpy dtype.

def _dtype_record(data: bytes, lump: str, lump_version: int):
    import numpy as np

    from bspedit.format.recordtypes import record_dtype

    dtype = record_dtype("source", lump, lump_version, 25)
    assert dtype is not None and dtype.itemsize == len(data)
    return np.frombuffer(data, dtype)[0]


def _kaitai(name: str, data: bytes):
    io = KaitaiStream(BytesIO(data))
    record = reader("source_bsp", name)(io)
    assert io.pos() == len(data)
    return record


def _xyz(vec) -> tuple:
    return (vec.x, vec.y, vec.z)


def test_strata_dispinfo_v1_synthetic():
    """DISPINFO lump version 1 of v25: ddispinfo_t, 232 bytes (no corpus v25 displacements)."""
    edges = [[(0x10000 + 2 * e + s, e, s, e + s) for s in range(2)] for e in range(4)]
    corners = [([0x20000 + 4 * c + k for k in range(4)], c + 1) for c in range(4)]
    allowed = [0x80000000 | i for i in range(10)]
    data = struct.pack("<3f4ifiIii", 1.5, -2.25, 3.0, 17, 33, 3, -1, 45.0, 1, 0x123456, 9, 11)
    for edge in edges:
        for sub in edge:
            data += struct.pack("<IBBBx", *sub)          # 7 bytes + 1 padding
    for neighbors, count in corners:
        data += struct.pack("<4IB3x", *neighbors, count)  # 17 bytes + 3 padding
    data += struct.pack("<10I", *allowed)
    assert len(data) == 232
    k, n = _kaitai("dispinfo_strata", data), _dtype_record(data, "DISPINFO", 1)
    assert _xyz(k.start_position) == tuple(n["start_position"].tolist()) == (1.5, -2.25, 3.0)
    scalars = {"disp_vert_start": 17, "disp_tri_start": 33, "power": 3, "min_tess": -1,
               "smoothing_angle": 45.0, "contents": 1, "map_face": 0x123456,
               "lightmap_alpha_start": 9, "lightmap_sample_position_start": 11}
    for name, value in scalars.items():
        assert getattr(k, name) == n[name] == value, name
    for e, edge in enumerate(edges):
        for s, (neighbor, orient, span, nspan) in enumerate(edge):
            ks, ns = k.edge_neighbors[e].sub_neighbors[s], n["edge_neighbors"][e]["sub_neighbors"][s]
            assert ks.neighbor == ns["neighbor"] == neighbor
            assert ks.neighbor_orientation == ns["neighbor_orientation"] == orient
            assert ks.span == ns["span"] == span and ks.neighbor_span == ns["neighbor_span"] == nspan
            assert ks.padding == ns["padding"] == 0
    for c, (neighbors, count) in enumerate(corners):
        kc, nc = k.corner_neighbors[c], n["corner_neighbors"][c]
        assert kc.neighbors == nc["neighbors"].tolist() == neighbors
        assert kc.num_neighbors == nc["num_neighbors"] == count
        assert kc.padding == nc["padding"].tolist() == [0, 0, 0]
    assert k.allowed_verts == n["allowed_verts"].tolist() == allowed


def test_strata_primitive_v1_synthetic():
    """PRIMITIVES lump version 1 of v25: dprimitive_t, 20 bytes (none in the corpus v25 map)."""
    data = struct.pack("<B3x4I", 1, 0x10001, 0x20002, 0x30003, 0x40004)
    k, n = _kaitai("primitive_strata", data), _dtype_record(data, "PRIMITIVES", 1)
    values = {"type": 1, "first_index": 0x10001, "index_count": 0x20002,
              "first_vert": 0x30003, "vert_count": 0x40004}
    for name, value in values.items():
        assert getattr(k, name) == n[name] == value, name
    assert k.padding == n["padding"].tolist() == [0, 0, 0]


def _overlay_fields(faces: int) -> tuple[list, bytes]:
    """Valve-style overlay fields (v1/v2 and water overlays of v25) and their bytes."""
    face_list = [3 * i - 1 for i in range(faces)]
    floats = [0.25 * i for i in range(22)]      # u[2], v[2], uv_points[4][3], origin, normal
    data = struct.pack(f"<iiH2x{faces}i22f", 70000, 0x12345, (2 << 14) | 5, *face_list, *floats)
    return [face_list, floats], data


def _check_overlay(k, n, face_list, floats):
    assert k.id == n["id"] == 70000 and k.texinfo == n["texinfo"] == 0x12345
    assert k.face_count_and_render_order == n["face_count_and_render_order"] == (2 << 14) | 5
    assert k.padding == n["padding"] == 0
    assert k.faces == n["faces"].tolist() == face_list
    assert k.u == n["u"].tolist() == floats[0:2] and k.v == n["v"].tolist() == floats[2:4]
    for i in range(4):
        assert _xyz(k.uv_points[i]) == tuple(n["uv_points"][i].tolist()) == \
            tuple(floats[4 + 3 * i:7 + 3 * i])
    assert _xyz(k.origin) == tuple(n["origin"].tolist()) == tuple(floats[16:19])
    assert _xyz(k.basis_normal) == tuple(n["basis_normal"].tolist()) == tuple(floats[19:22])


@pytest.mark.parametrize("lump_version", [1, 2])
def test_strata_overlay_v1_v2_synthetic(lump_version):
    """OVERLAYS lump versions 1 and 2 of v25: 356 and 360 bytes (the corpus v25 map's OVERLAYS
    is an empty version 1 lump)."""
    (face_list, floats), data = _overlay_fields(64)
    if lump_version == 2:
        data += bytes([10, 20, 30, 40])                  # clrTint
    assert len(data) == {1: 356, 2: 360}[lump_version]
    k = _kaitai(f"overlay_v{lump_version}_strata", data)
    n = _dtype_record(data, "OVERLAYS", lump_version)
    _check_overlay(k, n, face_list, floats)
    assert k.face_count == 5 and k.render_order == 2
    if lump_version == 2:
        assert (k.tint.r, k.tint.g, k.tint.b, k.tint.a) == tuple(n["tint"].tolist()) == \
            (10, 20, 30, 40)


def test_strata_wateroverlay_v1_synthetic():
    """WATEROVERLAYS lump version 1 of v25: 1124 bytes (empty in the corpus v25 map)."""
    (face_list, floats), data = _overlay_fields(256)
    assert len(data) == 1124
    k, n = _kaitai("wateroverlay_strata", data), _dtype_record(data, "WATEROVERLAYS", 1)
    _check_overlay(k, n, face_list, floats)


def test_strata_overlays_v3_synthetic():
    """OVERLAYS lump version 3 of v25: counts, the face array, 108-byte doverlay_version3_t
    records (a whole type; the corpus v25 map has no version 3 lump)."""
    import numpy as np

    from bspedit.format.recordtypes import record_dtype, type_dtype

    assert record_dtype("source", "OVERLAYS", 3, 25) is None     # variable size: whole lump
    faces = [4, 5, 6]
    overlays = []
    for i in range(2):
        floats = [0.5 * (i + j) for j in range(21)]  # flU, flV, 4 uv points, basisU, origin, normal
        overlays.append((100 + i, 0x10000 + i, 1 + i, i, i, 3 - i, floats, (i, 2, 3, 255)))
    data = struct.pack("<ii3i", 2, 3, *faces)
    for o in overlays:
        data += struct.pack("<iiHHii21f4B", *o[:6], *o[6], *o[7])
    assert len(data) == 8 + 12 + 2 * 108
    lump = _kaitai("overlays_v3_strata", data)
    assert lump.overlay_count == 2 and lump.face_count == 3 and lump.faces == faces
    records = np.frombuffer(data[20:], type_dtype("source_bsp::overlay_v3_strata"))
    for k, n, o in zip(lump.overlays, records, overlays):
        (id_, texinfo, flags, order, offset, count, floats, tint) = o
        assert k.id == n["id"] == id_ and k.texinfo == n["texinfo"] == texinfo
        assert k.flags == n["flags"] == flags and k.render_order == n["render_order"] == order
        assert k.face_offset == n["face_offset"] == offset
        assert k.face_count == n["face_count"] == count
        assert (k.u.x, k.u.y) == tuple(n["u"].tolist()) == tuple(floats[0:2])
        assert (k.v.x, k.v.y) == tuple(n["v"].tolist()) == tuple(floats[2:4])
        for j in range(4):
            assert (k.uv_points[j].x, k.uv_points[j].y) == tuple(n["uv_points"][j].tolist()) \
                == tuple(floats[4 + 2 * j:6 + 2 * j])
        assert _xyz(k.basis_u) == tuple(n["basis_u"].tolist()) == tuple(floats[12:15])
        assert _xyz(k.origin) == tuple(n["origin"].tolist()) == tuple(floats[15:18])
        assert _xyz(k.basis_normal) == tuple(n["basis_normal"].tolist()) == tuple(floats[18:21])
        assert (k.tint.r, k.tint.g, k.tint.b, k.tint.a) == tuple(n["tint"].tolist()) == tint
        assert k.basis_flipped == bool(flags & 1) and k.color_var == bool(flags & 2)


def test_strata_leafwaterdata_v1_synthetic():
    """LEAFWATERDATA lump version 1 of v25: 12 bytes, int texinfo (empty in the corpus map)."""
    data = struct.pack("<ffi", 64.0, -32.5, 70000)
    k, n = _kaitai("leafwaterdata_strata", data), _dtype_record(data, "LEAFWATERDATA", 1)
    assert k.surface_z == n["surface_z"] == 64.0 and k.min_z == n["min_z"] == -32.5
    assert k.surface_tex_info_id == n["surface_tex_info_id"] == 70000


def test_strata_worldlight_v2_synthetic():
    """WORLDLIGHTS lump version 2 of v25: dworldlight_version2_t, 104 bytes (the corpus v25 map
    has version 1 worldlights)."""
    vectors = [float(i) for i in range(12)]
    tail = [0.5, 0.25, 2.0, 512.0, 0.0, 1.0, 0.125]
    data = struct.pack("<12fiiBxHi7fiii", *vectors, 7, 2, 3, 0, 1, *tail, 4, 5, -1)
    assert len(data) == 104
    for lump in ("WORLDLIGHTS", "WORLDLIGHTS_HDR"):
        k, n = _kaitai("worldlight_v2_strata", data), _dtype_record(data, lump, 2)
        for i, name in enumerate(("origin", "intensity", "normal", "shadow_cast_offset")):
            expected = tuple(vectors[3 * i:3 * i + 3])
            assert _xyz(getattr(k, name)) == tuple(n[name].tolist()) == expected
        ints = {"cluster": 7, "type": 2, "mode": 3, "implicit_padding": 0, "padding": 0, "style": 1,
                "flags": 4, "texinfo": 5, "owner": -1}
        for name, value in ints.items():
            assert getattr(k, name) == n[name] == value, name
        names = ("stopdot", "stopdot2", "exponent", "radius", "constant_attn", "linear_attn",
                 "quadratic_attn")
        for name, value in zip(names, tail):
            assert getattr(k, name) == n[name] == value, name
