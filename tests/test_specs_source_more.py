"""The Source lumps described last in ksy/source_bsp.ksy (issue 17): LIGHTING, LIGHTING_HDR,
OCCLUSION, PHYSCOLLIDE, PHYSDISP, DISP_LIGHTMAP_SAMPLE_POSITIONS and DISP_LIGHTMAP_ALPHAS,
read by the generated Kaitai readers and by the models bspedit.lumps.occlusion and bspedit.lumps.physics
on every Source map of the corpus; PROPCOLLISION / PROPHULLS left undescribed."""
from __future__ import annotations

import functools
import json
import re
import struct

import numpy as np
import pytest
from kaitaistruct import BytesIO, KaitaiStream

from bspedit.format import lzma_lump
from bspedit.bsp import Bsp
from bspedit.errors import BspError
from bspedit.format.generated.source_bsp import SourceBsp
from bspedit.lumps.occlusion import Occluder, Occlusion, OcclusionV1
from bspedit.lumps.physics import PhysCollide, PhysDisp, PhysDispV2
from bspedit.format.recordtypes import lump_type, type_dtype
from conftest import corpus_maps, ksy_spec

SPEC = ksy_spec("source_bsp")
NEW = ("LIGHTING", "LIGHTING_HDR", "OCCLUSION", "PHYSCOLLIDE", "PHYSDISP",
       "DISP_LIGHTMAP_SAMPLE_POSITIONS", "DISP_LIGHTMAP_ALPHAS")
MODELS = {"source_bsp::occlusion_v1": OcclusionV1, "source_bsp::occlusion_v2": Occlusion,
          "source_bsp::phys_collide": PhysCollide, "source_bsp::phys_disp": PhysDisp,
          "source_bsp::phys_disp_v2": PhysDispV2}
CSGO = "tg1v1_am_grass2_csgo_v21"       # its LIGHTING has one more byte per luxel
SIZES = {"MODELS": 48, "VERTEXES": 12, "PLANES": 20, "AREAS": 8, "DISPINFO": 176, "FACES": 56}


def _reader(qualified: str):
    camel = "".join(p[:1].upper() + p[1:] for p in qualified.split("::")[1].split("_"))
    return functools.partial(getattr(SourceBsp, camel), _is_le=True)


def _load(path) -> tuple[int, dict[str, tuple[int, bytes]]]:
    """The map version and every non-empty lump's (version, uncompressed bytes)."""
    with Bsp.open(path) as bsp:
        out = {}
        for lump in bsp.lumps:
            if lump.length and lump.name not in ("PAKFILE", "GAME_LUMP", "ENTITIES"):
                data = bsp.read_lump(lump.index)
                out[lump.name] = (lump.version,
                                  lzma_lump.decompress(data) if lzma_lump.lzma_header(data) else data)
        return bsp.header.version, out


@pytest.fixture(scope="module")
def loaded():
    cache: dict = {}

    def get(path):
        if path not in cache:
            cache[path] = _load(path)
        return cache[path]
    return get


def _count(lumps, name: str) -> int:
    return len(lumps[name][1]) // SIZES[name] if name in lumps else 0


def _described(version: int, lumps) -> dict[str, tuple]:
    """name -> (lump table entry, bytes) of the new lumps the specs describe in this map."""
    out = {}
    for name in NEW:
        if name in lumps:
            entry = lump_type("source", name, lumps[name][0], version)
            if entry is not None:
                out[name] = (entry, lumps[name][1])
    return out


def _kaitai(entry, data: bytes):
    io = KaitaiStream(BytesIO(data))
    parsed = _reader(entry.type)(io)
    assert io.pos() == len(data), entry.type
    return parsed


# ---- the spec ----

def test_lump_table_entries_of_the_new_lumps():
    entries = {(e["lump"], e.get("lump-version")): e["type"] for e in SPEC["-bspedit-lumps"]
               if e["lump"] in NEW}
    assert entries == {
        ("LIGHTING", 1): "lighting", ("LIGHTING_HDR", 1): "lighting",
        ("OCCLUSION", 1): "occlusion_v1", ("OCCLUSION", 2): "occlusion_v2",
        ("PHYSCOLLIDE", 0): "phys_collide", ("PHYSDISP", 0): "phys_disp",
        ("PHYSDISP", 2): "phys_disp_v2",
        ("DISP_LIGHTMAP_SAMPLE_POSITIONS", 0): "disp_lightmap_sample_positions",
        ("DISP_LIGHTMAP_ALPHAS", 0): "disp_lightmap_alphas"}
    for e in SPEC["-bspedit-lumps"]:
        if e["lump"] in NEW:
            map_version = e.get("map-versions", [20])[0]
            assert lump_type("source", e["lump"], e["lump-version"], map_version).whole
    assert lump_type("source", "LIGHTING", 0) is None           # no public layout for version 0
    assert lump_type("source", "OCCLUSION", 0) is None
    assert lump_type("source", "PHYSDISP", 2, 20) is None        # version 2 is Strata's only
    assert type_dtype("source_bsp::occluder_data").itemsize == 40
    assert type_dtype("source_bsp::occluder_data_v1").itemsize == 36
    assert type_dtype("source_bsp::occluder_poly").itemsize == 12


# ---- the corpus ----

@pytest.mark.parametrize("path", corpus_maps("source"))
def test_every_non_empty_lump_but_the_prop_lumps_is_described(path, loaded):
    """After this spec only the entity, game lump and pakfile models and the lumps
    PROPCOLLISION / PROPHULLS stay without a type."""
    version, lumps = loaded(path)
    left = {name for name, (v, _) in lumps.items()
            if lump_type("source", name, v, version) is None}
    assert left <= {"PROPCOLLISION", "PROPHULLS"}, left


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_kaitai_reads_each_new_lump_exactly(path, loaded):
    version, lumps = loaded(path)
    described = _described(version, lumps)
    assert {"OCCLUSION", "PHYSCOLLIDE"} <= described.keys()
    for name, (entry, data) in described.items():
        assert entry.whole and entry.record_size is None
        parsed = _kaitai(entry, data)
        if name.startswith("LIGHTING"):
            assert len(parsed.samples) == len(data) // 4
            assert parsed.tail == data[len(data) // 4 * 4:]
        if name == "PHYSCOLLIDE":
            assert parsed.trailing == b"" and parsed.models[-1].model_index == -1
        if name == "DISP_LIGHTMAP_ALPHAS":
            assert parsed.data == data


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_lighting_samples(path, loaded):
    """4-byte ColorRGBExp32 samples: a numpy round trip, exponents in a plausible range and
    faces starting on the 4-byte grid, except the CS:GO map whose extra byte per luxel the
    lightofs values show."""
    version, lumps = loaded(path)
    dtype = type_dtype("source_bsp::color_rgb_exp32")
    for name in ("LIGHTING", "LIGHTING_HDR"):
        if name not in lumps:
            continue
        data = lumps[name][1]
        whole = len(data) // 4 * 4
        samples = np.frombuffer(data[:whole], dtype)
        assert samples.tobytes() + data[whole:] == data
        faces = np.frombuffer(lumps["FACES"][1], type_dtype("source_bsp::face")) \
            if version != 25 else None
        if path.stem == CSGO:
            assert len(data) % 4 == 1
            assert (faces["lightofs"][faces["lightofs"] >= 0] % 4 != 0).any()
            continue
        assert len(data) % 4 == 0
        assert -64 <= int(samples["exponent"].min()) and int(samples["exponent"].max()) <= 16
        if faces is not None and name == "LIGHTING":
            lit = faces["lightofs"][faces["lightofs"] >= 0]
            assert len(lit) and (lit % 4 == 0).all() and (lit < len(data)).all()


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_models_round_trip(path, loaded):
    version, lumps = loaded(path)
    tried = 0
    for name, (entry, data) in _described(version, lumps).items():
        model = MODELS.get(entry.type)
        if model is None:
            continue
        parsed = model.parse(data)
        assert parsed.raw is None and parsed.to_bytes() == data, name
        again = model.from_json(json.loads(json.dumps(parsed.to_json())))
        assert again == parsed and again.to_bytes() == data, name
        tried += 1
    assert tried >= 2


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_occlusion(path, loaded):
    version, lumps = loaded(path)
    entry, data = _described(version, lumps)["OCCLUSION"]
    model = Occlusion.parse(data)
    kaitai = _kaitai(entry, data)
    assert [o.firstpoly for o in model.occluders] == [o.firstpoly for o in kaitai.data]
    assert [p.planenum for p in model.polys] == [p.planenum for p in kaitai.poly_data]
    assert model.vertex_indices == kaitai.vertex_indices and model.tail == b""
    for o in model.occluders:
        assert o.flags in (0, 1) and 0 <= o.area < max(_count(lumps, "AREAS"), 1)
        assert 0 <= o.firstpoly and o.firstpoly + o.polycount <= len(model.polys)
        lo, hi = (struct.unpack("<3f", struct.pack("<3I", *v)) for v in (o.mins, o.maxs))
        assert all(a <= b for a, b in zip(lo, hi))
    for p in model.polys:
        assert p.vertexcount >= 3 and 0 <= p.planenum < _count(lumps, "PLANES")
        assert 0 <= p.firstvertexindex and \
            p.firstvertexindex + p.vertexcount <= len(model.vertex_indices)
    assert all(0 <= v < _count(lumps, "VERTEXES") for v in model.vertex_indices)
    if model.occluders:       # the records as numpy structured arrays too
        records = np.frombuffer(data, type_dtype("source_bsp::occluder_data"),
                                len(model.occluders), 4)
        assert records.tobytes() == data[4:4 + 40 * len(model.occluders)]
        assert records["area"].tolist() == [o.area for o in model.occluders]
    if path.stem == "valvebsp_testmap":
        assert (len(model.occluders), len(model.polys), len(model.vertex_indices)) == (2, 3, 12)
        assert model.to_json()["occluders"][0]["maxs"] == [1024.0, -32.0, 256.0]
    else:
        assert data == bytes(12)           # three zero counts


_BLOCK = re.compile(r'\s*([A-Za-z_]+)\s*\{((?:\s*"[^"]*"\s*"[^"]*")*)\s*\}')
_PAIR = re.compile(r'"([^"]*)"\s*"([^"]*)"')


def _key_values(text: bytes) -> list[tuple[str, dict[str, str]]]:
    """Valve key-values text of a PHYSCOLLIDE model: `name { "key" "value" ... }` blocks, then
    a NUL; AssertionError if it is anything else."""
    assert text.endswith(b"\0")
    body, at, blocks = text[:-1].decode("ascii"), 0, []
    while body[at:].strip():
        match = _BLOCK.match(body, at)
        assert match, body[at:at + 60]
        blocks.append((match[1], dict(_PAIR.findall(match[2]))))
        at = match.end()
    return blocks


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_physcollide(path, loaded):
    version, lumps = loaded(path)
    entry, data = _described(version, lumps)["PHYSCOLLIDE"]
    model = PhysCollide.parse(data)
    kaitai = _kaitai(entry, data)
    assert [m.model_index for m in model.models] == [m.model_index for m in kaitai.models]
    assert model.tail == b"" and model.models[-1].terminator
    assert (model.models[-1].data_size, model.models[-1].solids) == (-1, [])
    indices = [m.model_index for m in model.models[:-1]]
    assert indices == sorted(set(indices)) and indices[0] == 0
    assert indices[-1] < _count(lumps, "MODELS")
    for m in model.models[:-1]:
        assert m.data_size == sum(4 + len(s) for s in m.solids)
        assert all(s[:4] == b"VPHY" for s in m.solids)
        blocks = _key_values(m.key_data)
        assert blocks[0][0] in ("solid", "staticsolid")
        solid_indices = sorted(int(kv["index"]) for name, kv in blocks
                               if name in ("solid", "staticsolid", "fluid"))
        assert solid_indices == list(range(len(m.solids)))


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_physdisp(path, loaded):
    version, lumps = loaded(path)
    if "PHYSDISP" not in lumps:
        assert _count(lumps, "DISPINFO") and path.stem == "sdk2013_sdk_vehicles_v19"
        return
    lump_version, data = lumps["PHYSDISP"]
    model = (PhysDispV2 if lump_version == 2 else PhysDisp).parse(data)
    assert model.raw is None
    if lump_version == 2:
        assert version == 25 and data == bytes(4)
    kaitai = _kaitai(lump_type("source", "PHYSDISP", lump_version, version), data)
    assert len(model.blobs) == kaitai.num_displacements == _count(lumps, "DISPINFO")
    assert [len(b) for b in model.blobs] == kaitai.data_sizes and model.blobs == kaitai.blobs
    assert model.tail == b""


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_displacement_lightmap_samples(path, loaded):
    """A triangle index (below a power-4 displacement's 512 triangles) and barycentric
    coordinates summing to about 255 each; one sample per luxel of each displacement's face,
    its first at the displacement's lightmap_sample_position_start; one alpha byte per luxel,
    from lightmap_alpha_start."""
    version, lumps = loaded(path)
    described = _described(version, lumps)
    if "DISP_LIGHTMAP_SAMPLE_POSITIONS" not in described:
        assert "DISPINFO" not in lumps
        return
    samples = _kaitai(*described["DISP_LIGHTMAP_SAMPLE_POSITIONS"]).samples
    offsets, at = {}, 0
    for number, sample in enumerate(samples):
        index = sample.index_low + (sample.index_high if sample.index_low == 255 else 0)
        assert index < 512 and 250 <= sum(sample.barycentric) <= 255
        offsets[at] = number
        at += 4 + (sample.index_low == 255)
    infos = np.frombuffer(lumps["DISPINFO"][1], type_dtype("source_bsp::dispinfo"))
    faces = np.frombuffer(lumps["FACES"][1], type_dtype("source_bsp::face"))
    luxels = [int(np.prod(faces[face]["lightmap_texture_size_in_luxels"] + 1))
              for face in infos["map_face"]]
    firsts = [offsets[start] for start in infos["lightmap_sample_position_start"].tolist()]
    assert firsts == sorted(firsts)
    assert [e - f for f, e in zip(firsts, firsts[1:] + [len(samples)])] == luxels
    if "DISP_LIGHTMAP_ALPHAS" in described:
        assert len(described["DISP_LIGHTMAP_ALPHAS"][1]) == len(samples)
        assert infos["lightmap_alpha_start"].tolist() == firsts


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_prop_lumps_do_not_fit_the_csgo_records(path, loaded):
    """CS:GO's bspfile.h gives dpropcollision_t 8 bytes and dprophull_t 16; the corpus lumps at
    those indices are not multiples of them, so they stay undescribed."""
    version, lumps = loaded(path)
    for name, size in (("PROPCOLLISION", 8), ("PROPHULLS", 16)):
        if name in lumps:
            assert lump_type("source", name, lumps[name][0], version) is None
            assert len(lumps[name][1]) % size or (version, lumps[name][0]) == (25, 1)


# ---- edge cases of the models ----

def test_occlusion_keeps_float_bits_and_tail_through_json():
    nan, neg_zero, denormal = 0x7FA5A5A5, 0x80000000, 0x00000001
    model = Occlusion([Occluder(1, 0, 0, (nan, neg_zero, denormal), (0xFF800000, 0, 1), 3)],
                      [], [], b"\x01\x02")
    data = model.to_bytes()
    assert len(data) == 4 + 40 + 4 + 4 + 2
    again = Occlusion.from_json(json.loads(json.dumps(model.to_json())))
    assert again.to_bytes() == data and Occlusion.parse(data) == model
    v1 = OcclusionV1([Occluder(0, 0, 0, (1, 2, 3), (4, 5, 6))], [], [])
    assert len(v1.to_bytes()) == 4 + 36 + 8 and OcclusionV1.parse(v1.to_bytes()) == v1
    with pytest.raises(BspError):
        Occlusion.from_json(v1.to_json())


@pytest.mark.parametrize("data", [b"", b"\x01\0\0\0", struct.pack("<3i", 0, 1, 0),
                                  struct.pack("<3i", 0, 0, -1), bytes(11)])
def test_occlusion_keeps_unparseable_bytes_raw(data):
    """Counts past the end: the bytes stay whole in `raw` and come back as they were."""
    for cls in (Occlusion, OcclusionV1):
        model = cls.parse(data)
        assert model.raw == data and not model.occluders and model.to_bytes() == data
        assert cls.from_json(json.loads(json.dumps(model.to_json()))).to_bytes() == data
    assert Occlusion.parse(bytes(12)) == Occlusion() and Occlusion().to_bytes() == bytes(12)


def test_physics_models_keep_tails_and_unparseable_bytes():
    terminator = struct.pack("<4i", -1, -1, 0, 0)
    one = struct.pack("<4i", 0, 8, 2, 1) + struct.pack("<i", 4) + b"VPHY" + b"x\0"
    parsed = PhysCollide.parse(one + terminator + b"zz")
    assert parsed.tail == b"zz" and parsed.models[0].solids == [b"VPHY"]
    assert parsed.models[0].key_data == b"x\0" and parsed.raw is None
    disp = struct.pack("<3H", 2, 1, 2) + b"abc"
    assert PhysDisp.parse(disp + b"t").blobs == [b"a", b"bc"]
    assert PhysDisp.parse(disp + b"t").to_bytes() == disp + b"t"
    wide = struct.pack("<3I", 2, 1, 2) + b"abc"
    assert PhysDispV2.parse(wide).blobs == [b"a", b"bc"] and PhysDispV2.parse(wide).tail == b""
    assert PhysDispV2.parse(wide).to_bytes() == wide and PhysDispV2.parse(disp).raw == disp
    cases = [(PhysCollide, (one + terminator)[:cut])
             for cut in (0, 10, len(one) - 1, len(one), len(one) + len(terminator) - 1)]
    cases += [(PhysDisp, disp[:cut]) for cut in (0, 1, 4, 7)]
    for cls, data in cases:
        model = cls.parse(data)
        assert model.raw == data and model.to_bytes() == data, (cls, data)
        assert cls.from_json(json.loads(json.dumps(model.to_json()))).to_bytes() == data
