"""Typed records of big-endian (console, PSBV) Source maps, from the same Kaitai specs: the real
Xbox 360 map read with plausible values, and PC corpus maps turned big-endian (every record and
variable-size table byte-swapped, header 'PSBV') reading the same values as the PC maps, printing
the same CSV cells, and dumping and building back to the same bytes."""
from __future__ import annotations

import dataclasses
import json
import math
import re
import struct

import numpy as np
import pytest
from kaitaistruct import BytesIO, KaitaiStream

from bspedit.bsp import Bsp
from bspedit.errors import BspError
from bspedit.features.dumpfolder import build, dump
from bspedit.features.lookups import face_texture
from bspedit.features.textures import structure
from bspedit.format.generated.source_bsp import SourceBsp
from bspedit.format.lzma_lump import lzma_header
from bspedit.format.recordtypes import lump_type, record_dtype, type_dtype
from bspedit.lumps.occlusion import Occlusion
from bspedit.lumps.physics import PhysCollide, PhysDisp
from bspedit.lumps.recordtable import columns, format_rows
from bspedit.lumps.structures import InByteOrder, model_for_type, structure_for
from bspedit.lumps.visibility import ClusterVisibility
from conftest import CONSOLE_MAP, CORPUS, run_cli

needs_console = pytest.mark.skipif(not CONSOLE_MAP.exists(),
                                   reason="../shared/corpus-console not present")
# small PC Source maps without LZMA lumps (VBSP 19/20/21 and Strata's 25)
PC_MAPS = ["inscrutable_rocket_turret", "bspsrc_csgo_tooltextures_v21", "portalmp_background01",
           "bsptool_momentum_mp_lobby_v25"]
BIG_ENDIAN_MODELS = {"source_bsp::visibility", "source_bsp::occlusion_v1",
                     "source_bsp::occlusion_v2"}


def pc_maps() -> list:
    found = [CORPUS / "source" / f"{name}.bsp" for name in PC_MAPS]
    if not all(path.exists() for path in found):
        return [pytest.param(None, marks=pytest.mark.skip(reason="../shared/corpus not present"))]
    return [pytest.param(path, id=path.stem) for path in found]


def _camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def to_big_endian(path) -> bytes:
    """The PC map at `path` as a console map: header 'PSBV' and big-endian, every fixed-size
    record byte-swapped with numpy, VISIBILITY and OCCLUSION tables written big-endian, the
    game lump zeroed (no members); other lumps (text, bytes, physics blobs) keep their bytes."""
    with Bsp.open(path) as bsp:
        data = bytearray(bsp.read_range(0, bsp.size))
        for lump in bsp.lumps:
            if not lump.length:
                continue
            stored = bsp.read_lump(lump.index)
            assert lzma_header(stored) is None, f"{path.name}: pick maps without LZMA lumps"
            entry = lump_type("source", lump.name, lump.version, bsp.header.version)
            if lump.name == "GAME_LUMP":
                new = bytes(lump.length)
            elif entry is None:
                continue
            elif not entry.whole:
                records = bsp.records(lump.index)
                new = records.astype(records.dtype.newbyteorder(">")).tobytes() \
                    + bsp.record_tail(lump.index)
            elif entry.type in BIG_ENDIAN_MODELS:
                model = model_for_type(entry.type).parse(stored)
                model.endian = ">"
                new = model.to_bytes()
            else:
                continue
            assert len(new) == lump.length
            data[lump.offset:lump.end] = new
        header = bsp.header.copy()
        header.ident = b"PSBV"
    data[:header.size] = header.to_bytes()
    return bytes(data)


@pytest.fixture(params=pc_maps())
def twins(request, tmp_path):
    """(PC map path, its big-endian twin's path)."""
    twin = tmp_path / "console.bsp"
    twin.write_bytes(to_big_endian(request.param))
    return request.param, twin


def _fixed(bsp: Bsp) -> list[int]:
    return [lump.index for lump in bsp.lumps if lump.length and
            (entry := lump_type("source", lump.name, lump.version, bsp.header.version))
            is not None and not entry.whole]


def _leaves(array: np.ndarray, dtype: np.dtype, prefix: str = ""):
    """(dotted name, column) of every leaf field of structured `array`."""
    for name in dtype.names:
        sub = dtype.fields[name][0]
        column = array[name]
        if sub.names:
            yield from _leaves(column, sub, f"{prefix}{name}.")
        else:
            yield f"{prefix}{name}", column


# ---- the dtypes ----

def test_big_endian_dtypes_are_the_little_endian_ones_swapped():
    little = type_dtype("source_bsp::dispinfo")
    big = type_dtype("source_bsp::dispinfo", ">")
    assert big == little.newbyteorder(">") and big.itemsize == little.itemsize == 176
    assert big.fields["start_position"][0].fields["x"][0].str == ">f4"
    assert big.fields["allowed_verts"][0].base.str == ">u4"
    assert type_dtype("source_game_lumps::detail_object_v4", ">")["scale"].str == ">f4"
    assert record_dtype("source", "PLANES", 0, 20, ">") == type_dtype("source_bsp::plane", ">")
    with pytest.raises(ValueError, match="little-endian only"):
        type_dtype("quake1_bsp::plane", ">")
    with pytest.raises(ValueError):
        type_dtype("source_bsp::plane", "big")


# ---- the real console map ----

@needs_console
def test_console_map_records_are_plausible():
    with Bsp.open(CONSOLE_MAP) as bsp:
        assert bsp.header.endian == ">"
        planes = bsp.records("PLANES")
        assert planes.dtype == type_dtype("source_bsp::plane", ">") and len(planes) == 442
        normal = planes["normal"]
        length = np.sqrt(normal["x"].astype(float) ** 2 + normal["y"] ** 2 + normal["z"] ** 2)
        assert np.allclose(length, 1.0, atol=1e-5)
        assert set(planes["type"].tolist()) <= set(range(6))
        vertexes = bsp.records("VERTEXES")
        assert len(vertexes) == 1507
        for axis in "xyz":
            assert np.isfinite(vertexes[axis]).all() and np.abs(vertexes[axis]).max() < 65536
        edges = bsp.records("EDGES")["v"]
        assert edges.min() >= 0 and edges.max() < len(vertexes)
        surfedges = bsp.records("SURFEDGES")["edge"]
        assert np.abs(surfedges).max() < len(edges)
        texinfo = bsp.records("TEXINFO")
        assert texinfo["texdata"].max() < len(bsp.records("TEXDATA"))
        faces = bsp.records("FACES_HDR")
        assert faces["planenum"].max() < len(planes) and faces["texinfo"].max() < len(texinfo)
        assert (faces["firstedge"] + faces["numedges"]).max() <= len(surfedges)


@needs_console
def test_console_map_texture_names():
    with Bsp.open(CONSOLE_MAP) as bsp:
        table = bsp.records("TEXDATA_STRING_TABLE")["offset"]
        assert table[0] == 0 and (np.diff(table) > 0).all()
        strings = structure(bsp, "TEXDATA_STRING_DATA").parse(bsp.content("TEXDATA_STRING_DATA"))
        names = [strings.string_at(int(offset)) for offset in table]
    assert len(names) == 28 and names[0] == "CONCRETE/CONCRETEFLOOR005A"
    assert all(re.fullmatch(r"[A-Z0-9_\-]+(/[A-Z0-9_\-]+)+", name) for name in names), names
    child = run_cli("tex", "list", CONSOLE_MAP, "--json")
    assert child.returncode == 0, child.stderr
    assert "TOOLS/TOOLSNODRAW" in child.stdout and "CONCRETE/CONCRETEWALL004C" in child.stdout


@needs_console
def test_console_map_lump_show_and_models():
    child = run_cli("lump", "show", CONSOLE_MAP, "PLANES", "--rows", "0:2")
    assert child.returncode == 0, child.stderr
    rows = [line.split() for line in child.stdout.splitlines()[1:]]
    assert rows == [["0", "0.0", "0.0", "1.0", "-64.0", "2"],
                    ["1", "0.0", "0.0", "-1.0", "64.0", "2"]]
    with Bsp.open(CONSOLE_MAP) as bsp:
        vis = structure(bsp, "VISIBILITY")
        assert isinstance(vis, InByteOrder) and vis.endian == ">"
        model = vis.parse(bsp.content("VISIBILITY"))
        clusters = int(bsp.records("LEAFS")["cluster"].max()) + 1
        assert model.num_clusters == clusters == 150
        assert model.offsets[0][0] == 4 + 8 * clusters
        assert model.pvs(0).shape == (clusters,) and model.pvs(0)[0]
        assert model.to_bytes() == bsp.content("VISIBILITY")
        occlusion = structure(bsp, "OCCLUSION").parse(bsp.content("OCCLUSION"))
        assert occlusion.raw is None and occlusion.to_bytes() == bsp.content("OCCLUSION")
        for lump in ("PHYSCOLLIDE", "PHYSDISP"):
            with pytest.raises(BspError, match="not supported on big-endian"):
                structure(bsp, lump).parse(bsp.content(lump))


@needs_console
def test_console_map_kaitai_readers_agree_with_numpy():
    with Bsp.open(CONSOLE_MAP) as bsp:
        for lump in ("PLANES", "TEXINFO", "LEAFS", "DISPINFO", "FACES_HDR", "WORLDLIGHTS_HDR"):
            _agree_with_kaitai(bsp, lump)


def _agree_with_kaitai(bsp: Bsp, lump: str) -> None:
    """The first and last records of `lump` read by the generated Kaitai reader in the map's
    byte order equal numpy's."""
    info = bsp.describe_records(lump)
    records, data = bsp.records(lump), bsp.records(lump).tobytes()
    reader = getattr(SourceBsp, _camel(info.type.split("::")[1]))
    size = info.dtype.itemsize
    for n in {0, len(records) - 1}:
        parsed = reader(KaitaiStream(BytesIO(data[n * size:(n + 1) * size])),
                        _is_le=bsp.header.endian == "<")
        _same(parsed, records[n], f"{lump}[{n}]")


def _same(parsed, value, where: str) -> None:
    """A Kaitai object (or list, or scalar) holds what numpy's record value does."""
    if isinstance(value, np.void) and value.dtype.names:
        for name in value.dtype.names:
            _same(getattr(parsed, name), value[name], f"{where}.{name}")
    elif isinstance(value, np.ndarray):
        assert len(parsed) == len(value), where
        for n, (item, expected) in enumerate(zip(parsed, value)):
            _same(item, expected, f"{where}[{n}]")
    elif isinstance(value, bytes):
        raw = parsed.encode("ascii") if isinstance(parsed, str) else parsed
        assert raw.rstrip(b"\0") == value.rstrip(b"\0"), where
    elif isinstance(parsed, float) and math.isnan(parsed):
        assert np.isnan(value), where
    else:
        assert parsed == value, f"{where}: {parsed} != {value}"


@needs_console
def test_console_map_writable_records(tmp_path):
    copy = tmp_path / "console.bsp"
    copy.write_bytes(CONSOLE_MAP.read_bytes())
    with Bsp.open(copy) as bsp:
        planes = bsp.records("PLANES", writable=True)        # LZMA-compressed
        bsp.records("AREAS", writable=True)                   # stored as is
        assert planes.dtype.fields["dist"][0].str == ">f4"
        bsp.save()
    assert copy.read_bytes() == CONSOLE_MAP.read_bytes()        # unchanged arrays: same bytes
    with Bsp.open(copy) as bsp:
        areas = bsp.records("AREAS", writable=True)
        before = areas["firstareaportal"].tolist()
        areas["firstareaportal"][0] += 1
        with pytest.raises(ValueError, match="dtype"):
            bsp.replace_records("AREAS", areas.astype(type_dtype("source_bsp::area")))
        bsp.save()
    with Bsp.open(copy) as bsp:
        areas = bsp.records("AREAS")
        assert areas["firstareaportal"].tolist() == [before[0] + 1, *before[1:]]
        pairs = np.stack([areas["numareaportals"], areas["firstareaportal"]], axis=1)
        assert bsp.original_bytes(bsp.lumps[bsp.lump_index("AREAS")]) == \
            pairs.astype(">i4").tobytes()


@needs_console
def test_console_map_dump_and_build_give_back_the_file(tmp_path):
    (tmp_path / "dump").mkdir()
    with Bsp.open(CONSOLE_MAP) as bsp:
        manifest = dump(bsp, tmp_path / "dump")
    forms = {entry["name"]: entry.get("form") for entry in manifest["lumps"]}
    assert forms["AREAS"] == "csv" and forms["MAP_FLAGS"] == "csv"
    # an LZMA lump whose content compresses back to its bytes with its own (console) settings
    models = next(entry for entry in manifest["lumps"] if entry["name"] == "MODELS")
    assert (models["form"], models["stored"], models["lzma_properties"]) == \
        ("csv", "lzma", "5d00000400")
    build(tmp_path / "dump", str(tmp_path / "built.bsp"))
    assert (tmp_path / "built.bsp").read_bytes() == CONSOLE_MAP.read_bytes()
    table = tmp_path / "dump" / models["file"]          # an edit is compressed alike
    header, first, *rest = table.read_text().splitlines(keepends=True)
    cells = first.split(",")
    cells[9] = "1"                                      # headnode
    table.write_text("".join([header, ",".join(cells), *rest]))
    build(tmp_path / "dump", str(tmp_path / "edited.bsp"))
    with Bsp.open(tmp_path / "edited.bsp") as edited:
        assert edited.read_lump("MODELS")[12:17] == bytes.fromhex("5d00000400")
        assert edited.records("MODELS")[0]["headnode"] == 1
    manifest_path = tmp_path / "dump" / "manifest.json"
    written = json.loads(manifest_path.read_text())
    next(e for e in written["lumps"] if e["name"] == "MODELS")["lzma_properties"] = "5d00zz"
    manifest_path.write_text(json.dumps(written))
    with pytest.raises(BspError, match="lzma_properties '5d00zz' is not 5 bytes in hex"):
        build(tmp_path / "dump", str(tmp_path / "bad.bsp"))
    assert not (tmp_path / "bad.bsp").exists()


# ---- PC maps turned big-endian ----

def test_big_endian_twin_reads_the_same_records(twins):
    pc, console = twins
    with Bsp.open(pc) as little, Bsp.open(console) as big:
        assert big.header.endian == ">" and big.header.version == little.header.version
        for index in _fixed(little):
            a, b = little.records(index), big.records(index)
            assert b.dtype == a.dtype.newbyteorder(">") and len(a) == len(b)
            assert big.record_tail(index) == little.record_tail(index)
            for (name, column), (_, twin) in zip(_leaves(a, a.dtype), _leaves(b, b.dtype)):
                assert np.array_equal(column, twin, equal_nan=column.dtype.kind == "f"), \
                    f"{little.lumps[index].name}.{name}"
                if column.dtype.kind == "f":          # the same bits, NaN payloads too
                    assert np.array_equal(column.view(f"<u{column.dtype.itemsize}"),
                                          twin.view(f">u{twin.dtype.itemsize}"))
            cols = columns(b.dtype)
            assert columns(a.dtype) == [dataclasses.replace(c, endian="<") for c in cols]
            shown = range(min(len(a), 300))
            assert format_rows(b.tobytes(), b.dtype.itemsize, cols, shown) == \
                format_rows(a.tobytes(), a.dtype.itemsize, columns(a.dtype), shown)


def test_big_endian_twin_models_and_lookups(twins):
    pc, console = twins
    with Bsp.open(pc) as little, Bsp.open(console) as big:
        for lump in ("VISIBILITY", "OCCLUSION", "TEXDATA_STRING_DATA"):
            if not little.lumps[little.lump_index(lump)].length:
                continue
            a = structure(little, lump).parse(little.content(lump))
            b = structure(big, lump).parse(big.content(lump))
            assert b.to_json() == a.to_json() and b.to_bytes() == big.content(lump)
        listed = [json.loads(run_cli("tex", "list", path, "--json").stdout)["result"]
                  for path in (pc, console)]
        assert listed[0] == listed[1] and listed[0]["textures"]
        faces = len(little.records("FACES"))
        for face in {0, faces // 2, faces - 1}:
            assert face_texture(big, face) == face_texture(little, face)
        physics = little.lumps[little.lump_index("PHYSCOLLIDE")]
        if physics.length:
            with pytest.raises(BspError, match="not supported on big-endian"):
                structure(big, "PHYSCOLLIDE").parse(big.content("PHYSCOLLIDE"))


@pytest.mark.full
def test_big_endian_twin_lump_show_prints_the_same(twins):
    pc, console = twins
    for lump in ("PLANES", "TEXINFO", "VERTEXES"):
        a = run_cli("lump", "show", pc, lump, "--rows", ":50", "--csv")
        b = run_cli("lump", "show", console, lump, "--rows", ":50", "--csv")
        assert a.returncode == b.returncode == 0 and a.stdout == b.stdout


def test_big_endian_twin_dump_build_is_identical_and_edits_land(twins, tmp_path):
    pc, console = twins
    (tmp_path / "pc").mkdir()
    (tmp_path / "console").mkdir()
    with Bsp.open(pc) as little, Bsp.open(console) as big:
        dump(little, tmp_path / "pc")
        b = dump(big, tmp_path / "console")
    for entry in b["lumps"]:
        if entry.get("form") == "csv":
            assert (tmp_path / "console" / entry["file"]).read_text() == \
                (tmp_path / "pc" / entry["file"]).read_text()
    build(tmp_path / "console", str(tmp_path / "built.bsp"))
    assert (tmp_path / "built.bsp").read_bytes() == console.read_bytes()
    # an edited cell goes back big-endian
    planes = tmp_path / "console" / next(e["file"] for e in b["lumps"] if e["name"] == "PLANES")
    lines = planes.read_text().splitlines()
    cells = lines[1].split(",")
    cells[3] = "1234.5"                               # dist of plane 0
    planes.write_text("\n".join([lines[0], ",".join(cells), *lines[2:]]) + "\n")
    build(tmp_path / "console", str(tmp_path / "edited.bsp"))
    with Bsp.open(tmp_path / "edited.bsp") as edited:
        lump = edited.lumps[edited.lump_index("PLANES")]
        assert edited.read_range(lump.offset + 12, lump.offset + 16) == \
            np.array([1234.5], ">f4").tobytes()
        assert edited.records("PLANES")["dist"][0] == 1234.5
    visibility = next((e for e in b["lumps"] if e["name"] == "VISIBILITY" and e.get("file")), None)
    if visibility is not None and visibility["form"] == "json":
        obj = json.loads((tmp_path / "console" / visibility["file"]).read_text())
        assert obj == json.loads((tmp_path / "pc" / visibility["file"]).read_text())


def test_models_write_the_byte_order_they_read():
    table = np.array([2, 20, 24, 22, 26], "<i4").tobytes() + bytes(8)
    little = ClusterVisibility.parse(table)
    big = ClusterVisibility.parse(np.array([2, 20, 24, 22, 26], ">i4").tobytes() + bytes(8), ">")
    assert big.offsets == little.offsets == [(20, 24), (22, 26)] and big.rows == little.rows
    assert big.to_bytes()[:4] == b"\0\0\0\x02"
    assert ClusterVisibility.from_json(little.to_json(), ">").to_bytes() == big.to_bytes()
    occluders = np.array([1, 0, 7, 1, 0x3F800000, 0, 0, 0x40000000, 0, 0, 3,   # an occluder
                          1, 5, 2, 9,                                           # a polygon
                          1, 8], ">i4").tobytes()                               # an index
    model = Occlusion.parse(occluders, ">")
    assert model.raw is None and model.occluders[0].firstpoly == 7 and model.occluders[0].area == 3
    assert model.polys[0].vertexcount == 2 and model.vertex_indices == [8]
    assert model.to_json()["occluders"][0]["mins"] == [1.0, 0.0, 0.0]
    assert Occlusion.from_json(model.to_json(), ">").to_bytes() == occluders
    assert Occlusion.from_json(model.to_json()).to_bytes() == \
        np.frombuffer(occluders, ">i4").astype("<i4").tobytes()
    for model_class in (PhysCollide, PhysDisp):
        with pytest.raises(BspError, match="not supported on big-endian"):
            model_class.parse(bytes(16), ">")
        with pytest.raises(BspError, match="not supported on big-endian"):
            model_class.from_json({"raw": ""}, ">")
    assert structure_for("source", "PHYSCOLLIDE", 0, 20) is PhysCollide
    assert isinstance(structure_for("source", "PHYSCOLLIDE", 0, 20, ">"), InByteOrder)


# Layouts written here from Valve's bspfile.h (dplane_t, dvertex_t, dedge_t, surfedges,
# dtexdata_t, dmodel_t, leaf faces and brushes), big-endian: an oracle independent of the specs.
BSPFILE_H = {"PLANES": ">4fi", "VERTEXES": ">3f", "EDGES": ">2H", "SURFEDGES": ">i",
             "TEXDATA": ">3f5i", "MODELS": ">9f3i", "LEAFFACES": ">H", "LEAFBRUSHES": ">H"}


@pytest.mark.skipif(not CONSOLE_MAP.exists(), reason="../shared/corpus-console not present")
@pytest.mark.parametrize("lump", sorted(BSPFILE_H))
def test_console_records_equal_an_independent_struct_reading(lump):
    from numpy.lib.recfunctions import structured_to_unstructured

    layout = struct.Struct(BSPFILE_H[lump])
    with Bsp.open(CONSOLE_MAP) as bsp:
        data = bsp.content(lump)
        records = bsp.records(lump)
    assert len(data) % layout.size == 0 and len(records) == len(data) // layout.size > 0
    expected = np.array(list(layout.iter_unpack(data)), dtype=np.float64)
    found = structured_to_unstructured(records, dtype=np.float64)
    assert np.array_equal(found, expected)
