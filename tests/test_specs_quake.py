"""The Kaitai record specs of the id Software style families (issue 17): ksy/quake1_bsp.ksy,
bsp2_bsp.ksy, quake2_bsp.ksy, quake3_bsp.ksy and raven_bsp.ksy, their compiled readers, and
their facts checked against the real corpus."""
from __future__ import annotations

import importlib
import math
import struct
from pathlib import Path

import pytest
from kaitaistruct import BytesIO, KaitaiStream

from bspedit.bsp import Bsp
from bspedit.format.families import BY_KEY
from conftest import CORPUS_MAPS, corpus_maps, ksy_spec

SPECS = ("quake1_bsp", "bsp2_bsp", "quake2_bsp", "quake3_bsp", "raven_bsp")
FAMILY_KEYS = {"q1", "bsp2", "2psb", "goldsrc", "bshift", "q2", "q3", "rbsp", "fbsp"}
SAMPLE = 200          # Kaitai is slow: parse at most this many records of a lump


def _load(name: str) -> dict:
    return ksy_spec(name)


KSY = {name: _load(name) for name in SPECS}
MODULES = {name: importlib.import_module(f"bspedit.format.generated.{name}") for name in SPECS}


def _class_name(snake: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in snake.split("_"))


def _resolve(spec: str, type_name: str) -> tuple[str, str]:
    """(spec, type) of a lump table's type, following `other_spec::type` imports."""
    if "::" in type_name:
        spec, type_name = type_name.split("::")
    return spec, type_name


def _reader(spec: str, type_name: str):
    spec, type_name = _resolve(spec, type_name)
    return getattr(getattr(MODULES[spec], _class_name(spec)), _class_name(type_name))


def _size(spec: str, type_name: str) -> int | None:
    spec, type_name = _resolve(spec, type_name)
    return KSY[spec]["types"][type_name].get("-bspedit-size")


def _fixed_types():
    return [pytest.param(spec, name, id=f"{spec}.{name}")
            for spec in SPECS for name, body in KSY[spec]["types"].items()
            if "-bspedit-size" in body]


def _entries(spec: str, family: str, map_version: int | None) -> list[dict]:
    """The lump table entries of `spec` that apply to a map of `family` and `map_version`."""
    return [e for e in KSY[spec]["-bspedit-lumps"]
            if family in e.get("families", [family])
            and (map_version is None or map_version in e.get("map-versions", [map_version]))]


def _spec_of(family: str) -> str:
    (spec,) = [s for s in SPECS if family in KSY[s]["-bspedit-families"]]
    return spec


# --- the specs themselves ---------------------------------------------------------------------

def test_specs_cover_exactly_the_families():
    keys = [k for s in SPECS for k in KSY[s]["-bspedit-families"]]
    assert sorted(keys) == sorted(FAMILY_KEYS) and FAMILY_KEYS <= set(BY_KEY)


@pytest.mark.parametrize("spec", SPECS)
def test_spec_conventions(spec):
    """meta as agreed, no top-level seq, a doc on every type and field, only the allowed
    building blocks in fixed-size types."""
    ksy = KSY[spec]
    assert ksy["meta"]["id"] == spec and ksy["meta"]["endian"] == "le"
    assert ksy["meta"]["ks-version"] == 0.11 and ksy["meta"]["title"]
    assert "seq" not in ksy and ksy["doc"]
    allowed = {"u1", "u2", "u4", "u8", "s1", "s2", "s4", "s8", "f4", "f8", None}
    for name, body in ksy["types"].items():
        assert body.get("doc"), name
        fields = body.get("seq", []) + [dict(v, id=k) for k, v in body.get("instances", {}).items()]
        for field in fields + body.get("params", []):
            assert field.get("doc"), f"{name}.{field['id']}"
        if "-bspedit-size" not in body:
            continue
        assert "instances" not in body or all("value" in v for v in body["instances"].values())
        for field in body["seq"]:
            assert not {"if", "size-eos", "repeat-until"} & set(field), f"{name}.{field['id']}"
            kind = field.get("type")
            assert kind in allowed or _size(spec, kind), f"{name}.{field['id']}: {kind}"
            assert kind is not None or isinstance(field["size"], int)
            if "repeat" in field:
                assert field["repeat"] == "expr" and isinstance(field["repeat-expr"], int)


@pytest.mark.parametrize(("spec", "name"), _fixed_types())
def test_fixed_size_is_what_the_reader_consumes(spec, name):
    size = KSY[spec]["types"][name]["-bspedit-size"]
    io = KaitaiStream(BytesIO(bytes(range(256)) * (size // 256 + 1) + bytes(64)))
    _reader(spec, name)(io)
    assert io.pos() == size


_STRUCT = {"u1": "B", "u2": "H", "u4": "I", "u8": "Q", "s1": "b", "s2": "h", "s4": "i", "s8": "q",
           "f4": "f", "f8": "d"}


def _struct_format(spec: str, name: str) -> str:
    """The struct format of a fixed-size type, built from the spec alone (as the generator
    of numpy dtypes will): nested types inline, repeats as counts, byte strings as `Ns`."""
    spec, name = _resolve(spec, name)
    out = ""
    for field in KSY[spec]["types"][name]["seq"]:
        kind = field.get("type")
        one = f"{field['size']}s" if kind is None else _STRUCT.get(kind) or _struct_format(spec, kind)
        out += one * field.get("repeat-expr", 1)
    return out


def _flatten(spec: str, name: str, record) -> list:
    """A parsed record's values in the order of `_struct_format`."""
    spec, name = _resolve(spec, name)
    out = []
    for field in KSY[spec]["types"][name]["seq"]:
        kind = field.get("type")
        values = getattr(record, field["id"])
        for value in values if "repeat" in field else [values]:
            out += [value] if kind is None or kind in _STRUCT else _flatten(spec, kind, value)
    return out


def _same(a: list, b: list) -> bool:
    return len(a) == len(b) and all(x == y or (x != x and y != y) for x, y in zip(a, b))


@pytest.mark.parametrize(("spec", "name"), _fixed_types())
def test_struct_layout_reads_what_kaitai_reads(spec, name):
    """A flat little-endian struct built from the spec has the type's size and reads the same
    values as the Kaitai reader (every field at its offset)."""
    fmt = "<" + _struct_format(spec, name)
    size = KSY[spec]["types"][name]["-bspedit-size"]
    assert struct.calcsize(fmt) == size
    data = bytes((i * 37 + 11) % 256 for i in range(size))
    record = _reader(spec, name)(KaitaiStream(BytesIO(data)))
    assert _same(list(struct.unpack(fmt, data)), _flatten(spec, name, record))


def test_records_of_families_missing_from_the_corpus():
    """2PSB and RBSP/FBSP records, packed by hand from their C declarations."""
    node = struct.pack("<i2i3h3h2I", 7, -3, 12, -64, -64, -32, 64, 64, 32, 100, 5)
    parsed, _ = _parse("bsp2_bsp", "node_2psb", node)
    assert (parsed.planenum, parsed.children, parsed.mins.z, parsed.maxs.x,
            parsed.firstface, parsed.numfaces) == (7, [-3, 12], -32, 64, 100, 5)
    leaf = struct.pack("<2i3h3h2I4B", -1, 40, -8, -8, -8, 8, 8, 8, 3, 2, 0, 1, 2, 255)
    parsed, _ = _parse("bsp2_bsp", "leaf_2psb", leaf)
    assert (parsed.visofs, parsed.firstmarksurface, parsed.ambient_level) == (40, 3, [0, 1, 2, 255])
    surface = struct.pack("<7i4B4B4i4i4i2i3f9f2i", 1, -1, 1, 10, 4, 20, 6, 0, 1, 255, 255,
                          0, 255, 255, 255, 2, 3, -1, -1, 8, 9, 0, 0, 16, 17, 0, 0, 5, 6,
                          *([0.0] * 12), 0, 0)
    parsed, _ = _parse("raven_bsp", "surface", surface)
    assert (parsed.lightmap_styles, parsed.lightmap_num, parsed.lightmap_x, parsed.lightmap_y,
            parsed.lightmap_width) == ([0, 1, 255, 255], [2, 3, -1, -1], [8, 9, 0, 0],
                                       [16, 17, 0, 0], 5)
    grid = bytes(range(30))
    parsed, _ = _parse("raven_bsp", "light_grid", grid)
    assert parsed.styles == [24, 25, 26, 27] and parsed.lat_long == [28, 29]


@pytest.mark.parametrize("family", sorted(FAMILY_KEYS))
def test_lump_tables_match_families_py(family):
    """Every lump with a record size in families.py has an entry of a type of that size; every
    entry names a lump of the family and a type of the spec (or of an imported spec)."""
    spec, fam = _spec_of(family), BY_KEY[family]
    versions = sorted(fam.versions) or [None]
    for version in versions:
        entries = _entries(spec, family, version)
        names = [e["lump"] for e in entries]
        assert len(names) == len(set(names)), f"{family} v{version}: two entries for a lump"
        for entry in entries:
            assert entry["lump"] in fam.lump_names
            reader = _reader(spec, entry["type"])
            assert reader is not None
            assert entry.get("whole", False) == (_size(spec, entry["type"]) is None), entry
        by_lump = {e["lump"]: e for e in entries}
        for index, lump in enumerate(fam.lump_names):
            want = fam.record_size(index, map_version=version)
            if want is not None:
                entry = by_lump.get(lump)
                assert entry and not entry.get("whole"), f"{family}: no records for {lump}"
                assert _size(spec, entry["type"]) == want, f"{family} {lump}"


def test_lightmap_records_are_whole_lightmaps():
    """The Quake 3 family's LIGHTMAPS records are whole lightmaps: 128x128 RGB in IBSP and RBSP,
    512x512 RGB in FBSP (qfusion's QF_LIGHTMAP_WIDTH)."""
    sizes = {key: BY_KEY[key].record_size(BY_KEY[key].index_of("LIGHTMAPS"))
             for key in ("q3", "rbsp", "fbsp")}
    assert sizes == {"q3": 128 * 128 * 3, "rbsp": 128 * 128 * 3, "fbsp": 512 * 512 * 3}


def test_bsp2_and_2psb_differ_only_in_nodes_and_leafs():
    bsp2 = {e["lump"]: e["type"] for e in _entries("bsp2_bsp", "bsp2", None)}
    rmq = {e["lump"]: e["type"] for e in _entries("bsp2_bsp", "2psb", None)}
    assert {k for k in bsp2 if bsp2[k] != rmq[k]} == {"NODES", "LEAFS"} and bsp2.keys() == rmq.keys()


# --- variable structures on hand-made lumps ---------------------------------------------------

def _parse(spec: str, type_name: str, data: bytes):
    io = KaitaiStream(BytesIO(data))
    return _reader(spec, type_name)(io), io


def test_miptex_lump_with_a_missing_and_an_embedded_texture():
    head = struct.pack("<16sII4I", b"wall\0junk", 16, 16, 40, 296, 360, 376)
    pixels = bytes(range(256)) + bytes(64) + bytes(16) + bytes(4)
    goldsrc_tail = struct.pack("<H", 256) + bytes(768) + bytes(2)
    for kind, tail in (("miptex_lump", b""), ("miptex_lump_goldsrc", goldsrc_tail)):
        data = struct.pack("<iii", 2, -1, 12) + head + pixels + tail
        lump, io = _parse("quake1_bsp", kind, data)
        assert io.pos() == len(data) and lump.dataofs == [-1, 12]
        missing, wall = lump.miptexes
        assert missing.header is None and missing.mip0 is None
        assert wall.header.name == b"wall\0junk".ljust(16, b"\0") and wall.mip0 == bytes(range(256))
        assert len(wall.mip3) == 4
        if tail:
            assert wall.palette.num_colors == 256 and len(wall.palette.colors) == 768
        else:
            assert wall.palette is None


def test_empty_visibility_lumps_parse():
    for spec in ("quake2_bsp", "quake3_bsp"):
        lump, io = _parse(spec, "visibility", b"")
        assert io.pos() == 0


# --- the corpus -------------------------------------------------------------------------------

def _records(spec: str, type_name: str, data: bytes, count: int | None = None):
    """Up to SAMPLE records spread evenly over a fixed-size lump, with their indices."""
    size = _size(spec, type_name)
    total = len(data) // size if count is None else count
    step = max(1, total // SAMPLE)
    reader = _reader(spec, type_name)
    return [(i, reader(KaitaiStream(BytesIO(data[i * size:(i + 1) * size]))))
            for i in range(0, total, step)]


def _count(spec, entries, bsp, lump):
    entry = entries[lump]
    return len(bsp.read_lump(lump)) // _size(spec, entry["type"])


# Models whose stored bounds have mins > maxs on some axis: qbsp shrinks the box by the
# 1-unit pad the engine adds back, so a 1-unit thin brush model ends up inverted (seen).
INVERTED_MODELS = {"librequake_start_bspx": {2}}
# Quake 1 qbsp writes offset -1 for textures it did not find in its WADs, and texinfos still
# use them (seen); GoldSrc maps of the corpus use none.
MISSING_TEXTURES = {"librequake_lq1m1_bsp2": {4, 30, 42, 93, 106}}


def _printable(name: bytes) -> bool:
    """A fixed-size name field holds printable ASCII up to its first NUL (and something)."""
    text = name.split(b"\0")[0]
    return bool(text) and all(32 < c < 127 for c in text)


def _vec(v):
    return (v.x, v.y, v.z)


QUAKE_MAPS = [p for p in corpus_maps() if p.values[0] is None
              or p.values[0].parent.name in ("q1", "goldsrc", "q2", "q3")]


@pytest.mark.parametrize("path", QUAKE_MAPS)
def test_corpus_lumps(path):
    with Bsp.open(path) as bsp:
        family = bsp.family.key
        assert family in FAMILY_KEYS
        spec = _spec_of(family)
        entries = {e["lump"]: e for e in _entries(spec, family, bsp.header.version)}
        data = {lump: bsp.read_lump(lump) for lump in entries}
        for lump, entry in entries.items():
            size = _size(spec, entry["type"])
            if size is None:      # a whole-lump structure covers every byte
                _, io = _parse(spec, entry["type"], data[lump])
                assert io.pos() == len(data[lump]), lump
            else:                 # no corpus map has a ragged fixed-size lump
                assert len(data[lump]) % size == 0, lump
                fmt = "<" + _struct_format(spec, entry["type"])
                for i, record in _records(spec, entry["type"], data[lump])[:20]:
                    assert _same(list(struct.unpack_from(fmt, data[lump], i * size)),
                                 _flatten(spec, entry["type"], record)), (lump, i)
        _hand_checks(bsp, spec, entries, data)


def _hand_checks(bsp, spec, entries, data):
    engine = bsp.family.engine
    count = {lump: len(data[lump]) // _size(spec, e["type"])
             for lump, e in entries.items() if _size(spec, e["type"])}
    rec = {lump: _records(spec, entries[lump]["type"], data[lump]) for lump in count}

    for _, plane in rec["PLANES"]:
        n = _vec(plane.normal)
        if any(n):
            assert abs(math.hypot(*n) - 1) < 1e-3, n
    inverted = {i for i, model in rec["MODELS"]
                if not all(a <= b for a, b in zip(_vec(model.mins), _vec(model.maxs)))}
    assert inverted == INVERTED_MODELS.get(Path(bsp.path).stem, set())

    if engine == "quake3":
        for _, face in rec["SURFACES"]:
            assert 0 <= face.shader_num < count["SHADERS"]
            assert -1 <= face.fog_num < count["FOGS"]
            assert face.first_vert + face.num_verts <= count["DRAWVERTS"]
            assert face.first_index + face.num_indexes <= count["DRAWINDEXES"]
            assert face.lightmap_num < count["LIGHTMAPS"] or count["LIGHTMAPS"] == 0
        for _, side in rec["BRUSHSIDES"]:
            assert 0 <= side.plane_num < count["PLANES"] and side.shader_num < count["SHADERS"]
        for _, shader in rec["SHADERS"]:
            assert _printable(shader.shader), shader.shader
        vis = data["VISIBILITY"]
        if vis:
            parsed, _ = _parse(spec, "visibility", vis)
            assert len(parsed.vecs) == parsed.n_vecs * parsed.sz_vecs and parsed.rest == b""
            assert parsed.sz_vecs * 8 >= parsed.n_vecs
        return

    for _, edge in rec["EDGES"]:
        assert all(0 <= v < count["VERTEXES"] for v in edge.v)
    for _, face in rec["FACES"]:
        assert 0 <= face.texinfo < count["TEXINFO"]
        assert 0 <= face.planenum < count["PLANES"]
        assert face.firstedge + face.numedges <= count["SURFEDGES"]
    for _, surfedge in rec["SURFEDGES"]:
        assert abs(surfedge.edge) < count["EDGES"]

    if engine == "quake2":
        for _, info in rec["TEXINFO"]:
            assert _printable(info.texture) and -1 <= info.nexttexinfo < count["TEXINFO"]
        vis = data["VISIBILITY"]
        if vis:
            parsed, _ = _parse(spec, "visibility", vis)
            assert 4 + 8 * parsed.numclusters <= len(vis)
            for pair in parsed.bitofs[:SAMPLE]:
                assert 4 + 8 * parsed.numclusters <= pair.pvs < len(vis)
                assert 4 + 8 * parsed.numclusters <= pair.phs < len(vis)
        assert data["POP"] in (b"", bytes(256))     # qbsp3's dpop: zeros, or no lump at all
        for _, leaf in rec["LEAFS"]:
            assert leaf.firstleafface + leaf.numleaffaces <= count["LEAFFACES"]
            assert leaf.firstleafbrush + leaf.numleafbrushes <= count["LEAFBRUSHES"]
        return

    # Quake 1, BSP2, GoldSrc: the miptex lump
    textures, io = _parse(spec, entries["TEXTURES"]["type"], data["TEXTURES"])
    assert io.pos() == len(data["TEXTURES"])
    external = 0
    for slot in textures.miptexes[:SAMPLE]:
        if slot.ofs == -1:
            continue
        assert _printable(slot.header.name), slot.header.name
        external += not any(slot.header.offsets)
        if slot.header.offsets[0]:
            assert len(slot.mip0) == slot.header.width * slot.header.height
            assert len(slot.mip3) == (slot.header.width // 8) * (slot.header.height // 8)
            if engine == "goldsrc":
                assert slot.palette.num_colors == 256 and len(slot.palette.colors) == 768
    if engine == "goldsrc" and external:    # textures left in WADs: worldspawn names the WADs
        worldspawn = next(iter(bsp.entities(lenient=True)))
        assert worldspawn.get("classname") == "worldspawn" and "wad" in worldspawn
    for _, info in rec["TEXINFO"]:
        assert 0 <= info.miptex < textures.nummiptex
    # every texture a texinfo uses is in the TEXTURES lump (read with struct: all texinfos)
    used = {m for (m,) in struct.iter_unpack("<i", b"".join(
        data["TEXINFO"][i + 32:i + 36] for i in range(0, len(data["TEXINFO"]), 40)))}
    missing = {m for m in used if textures.dataofs[m] == -1}
    assert missing == MISSING_TEXTURES.get(Path(bsp.path).stem, set())
    for _, leaf in rec["LEAFS"]:
        assert leaf.firstmarksurface + leaf.nummarksurfaces <= count["MARKSURFACES"]
        if data["VISIBILITY"]:    # a map without vis may leave visofs 0 (seen)
            assert leaf.visofs < len(data["VISIBILITY"])


def test_corpus_has_every_quake_engine():
    if not CORPUS_MAPS:
        pytest.skip("../shared/corpus not present")
    seen = set()
    for path in CORPUS_MAPS:
        if path.parent.name in ("q1", "goldsrc", "q2", "q3"):
            with Bsp.open(path) as bsp:
                seen.add(bsp.family.key)
    assert seen == {"q1", "bsp2", "goldsrc", "q2", "q3"}   # no 2PSB, Blue Shift, RBSP or FBSP
