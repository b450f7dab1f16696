"""bspedit transform --shift: shift and shift back gives the map again (integer fields exactly,
float32 fields within 1e-3); against an independent reader (tests/bspstruct.py): vertices
moved by the shift, texture coordinates of every face vertex unchanged, the contents of random
points (moved) unchanged in hull 0 and clip hull 1, entity origins moved. Careless users."""
from __future__ import annotations

import random
import re
import shutil
import struct

import numpy
import pytest
from bspstruct import Map, Walker
from conftest import CORPUS, corpus_maps, run_cli

import bspedit
from bspedit.cli import invoke
from bspedit.features.merge.transform import shift

SHIFT = (16, -32, 8)
BACK = tuple(-v for v in SHIFT)
MAPS = [p for family in ("q1", "goldsrc", "q2") for p in corpus_maps(family)]
POSITIONS = re.compile(r'"origin"\s+"([^"]*)"')
ORIGIN_BRUSH_MAP = CORPUS / "q2" / "opentdm_q2pduel4_dirtypad.bsp"
needs_origin_brush_map = pytest.mark.skipif(not ORIGIN_BRUSH_MAP.exists(),
                                            reason="../shared/corpus not present")


def shifted(source, target, offset):
    with bspedit.open(source) as bsp:
        report = shift(bsp, offset)
        bsp.save(target)
    return report


def float_fields(dtype, prefix=""):
    """(path, is float) of every leaf field of a structured dtype."""
    for name in dtype.names:
        sub = dtype[name]
        if sub.names:
            yield from float_fields(sub, f"{prefix}{name}.")
        else:
            yield f"{prefix}{name}", sub.base.kind == "f"


def field(records, path):
    for part in path.split("."):
        records = records[part]
    return records


@pytest.mark.parametrize("path", MAPS)
def test_shift_and_back_gives_the_map_again(path, tmp_path):
    shifted(path, tmp_path / "there.bsp", SHIFT)
    shifted(tmp_path / "there.bsp", tmp_path / "back.bsp", BACK)
    with bspedit.open(path) as a, bspedit.open(tmp_path / "back.bsp") as b:
        for lump in a.lumps:
            if lump.name == "ENTITIES":
                continue
            if a.read_lump(lump.index) == b.read_lump(lump.index):
                continue
            ra, rb = a.records(lump.index), b.records(lump.index)
            assert len(ra) == len(rb), lump.name
            for name, is_float in float_fields(ra.dtype):
                x, y = field(ra, name), field(rb, name)
                if is_float:
                    assert numpy.abs(x.astype(float) - y.astype(float)).max() <= 1e-3, name
                else:
                    assert numpy.array_equal(x, y), f"{lump.name} {name}"
        before, after = a.content("ENTITIES"), b.content("ENTITIES")
    # entity text: the same, but for "-0" a compiler wrote, which comes back as "0"
    assert re.sub(rb"(?<![\d.])-0(?![\d.])", b"0", before) == \
        re.sub(rb"(?<![\d.])-0(?![\d.])", b"0", after)


def local_vertices(bsp: Map, models: set[int]) -> set[int]:
    """Vertices of the faces of `models` (brush models placed by their origin key)."""
    faces, surfedges, edges = bsp.records("FACES"), bsp.records("SURFEDGES"), \
        bsp.records("EDGES")
    found = set()
    for model in models:
        record = bsp.records("MODELS")[model]
        first, count = record[-2], record[-1]
        for face in faces[first:first + count]:
            for (edge,) in surfedges[face[2]:face[2] + face[3]]:
                found.update(edges[abs(edge)])
    return found


def origin_models(text: str) -> set[int]:
    models = set()
    for block in re.findall(r"\{[^{}]*\}", text):
        model = re.search(r'"model"\s+"\*(\d+)"', block)
        if model and '"origin"' in block:
            models.add(int(model.group(1)))
    return models


def check_moved(source, target, offset, points=1500):
    """The independent checks of a shifted map against its source."""
    a, b = Map(source), Map(target)
    local = local_vertices(a, origin_models(a.entities()))
    # vertices: moved by the shift, those of origin-brush models not
    va, vb = a.records("VERTEXES"), b.records("VERTEXES")
    assert len(va) <= len(vb)
    for number, (old, new) in enumerate(zip(va, vb)):
        step = (0, 0, 0) if number in local else offset
        assert all(abs(o + s - n) <= 1e-3 for o, s, n in zip(old, step, new)), number
    # texture coordinates of every face vertex: the same
    coords = []
    for bsp, vertices in ((a, va), (b, vb)):
        texinfo, surfedges, edges = bsp.records("TEXINFO"), bsp.records("SURFEDGES"), \
            bsp.records("EDGES")
        values = []
        for face in bsp.records("FACES"):
            vecs = texinfo[face[4]][:8]
            for (edge,) in surfedges[face[2]:face[2] + face[3]]:
                x, y, z = vertices[edges[abs(edge)][0 if edge >= 0 else 1]]
                values.append((vecs[0] * x + vecs[1] * y + vecs[2] * z + vecs[3],
                               vecs[4] * x + vecs[5] * y + vecs[6] * z + vecs[7]))
        coords.append(values)
    assert len(coords[0]) == len(coords[1])
    assert max(abs(p - q) for s, t in zip(*coords) for p, q in zip(s, t)) < 0.01
    # contents of random points, moved: the same in hull 0 and (Quake 1, GoldSrc) clip hull 1
    wa, wb = Walker(a), Walker(b)
    rng = random.Random(35)
    (x0, y0, z0), (x1, y1, z1) = wa.bounds
    checked = 0
    for _ in range(points):
        point = (rng.uniform(x0, x1), rng.uniform(y0, y1), rng.uniform(z0, z1))
        moved = tuple(p + s for p, s in zip(point, offset))
        walks = [(wa.contents, wb.contents)]
        if wa.clipnodes:
            walks.append((wa.clip_contents, wb.clip_contents))
        for before, after in walks:
            contents, near = before(point)
            if near < 0.01:
                continue
            assert after(moved)[0] == contents, point
            checked += 1
    assert checked > 0.9 * points
    # entity origins: moved by the shift, numerically
    for old, new in zip(POSITIONS.findall(a.entities()), POSITIONS.findall(b.entities())):
        assert [float(o) + s for o, s in zip(old.split(), offset)] == \
            pytest.approx([float(n) for n in new.split()])
    # model bounds moved (the world's)
    ma, mb = a.records("MODELS")[0], b.records("MODELS")[0]
    assert [n - o for o, n in zip(ma[:6], mb[:6])] == pytest.approx(list(offset) * 2, abs=1e-3)


@pytest.mark.parametrize("path", MAPS)
def test_the_shifted_map_against_an_independent_reader(path, tmp_path):
    result = run_cli("transform", path, "--shift", ",".join(map(str, SHIFT)), "-o",
                     tmp_path / "out.bsp")
    assert result.returncode == 0, result.stderr
    check_moved(path, tmp_path / "out.bsp", SHIFT)
    assert run_cli("verify", tmp_path / "out.bsp").returncode == 0


@needs_origin_brush_map
def test_brush_models_placed_by_their_origin_key_keep_their_geometry(tmp_path):
    report = shifted(ORIGIN_BRUSH_MAP, tmp_path / "out.bsp", SHIFT)
    assert report.local_models == [17]           # the func_rotating, origin "-664 528 137"
    check_moved(ORIGIN_BRUSH_MAP, tmp_path / "out.bsp", SHIFT, points=300)
    a, b = Map(ORIGIN_BRUSH_MAP), Map(tmp_path / "out.bsp")
    assert a.records("MODELS")[17] == b.records("MODELS")[17]
    assert '"origin" "-648 496 145"' in b.entities()


@pytest.mark.parametrize("path", [p for p in corpus_maps("q1")
                                  if p.values[0] and "lobby" in p.values[0].name])
def test_a_shift_that_is_not_whole_rounds_int16_bounds_outward(path, tmp_path):
    offset = (0.5, -0.25, 100.75)
    report = shifted(path, tmp_path / "out.bsp", offset)
    a, b = Map(path), Map(tmp_path / "out.bsp")
    for lump in ("NODES", "LEAFS"):
        start = 3 if lump == "NODES" else 2
        for number, (old, new) in enumerate(zip(a.records(lump), b.records(lump))):
            if lump == "LEAFS" and number == 0:
                assert old == new               # the shared solid leaf stays
                continue
            for axis in range(3):
                low = old[start + axis] + offset[axis]
                high = old[start + 3 + axis] + offset[axis]
                assert new[start + axis] <= low and new[start + 3 + axis] >= high
                assert low - new[start + axis] < 1 and new[start + 3 + axis] - high < 1
    assert report.rounded_bounds == (a.kind != "BSP2")


@pytest.mark.parametrize("path", corpus_maps("q1")[:1])
def test_bounds_past_int16_are_refused_and_nothing_written(path, tmp_path):
    out = tmp_path / "out.bsp"
    code, err = cli("transform", path, "--shift", "40000,0,0", "-o", out)
    assert code == 2 and "int16" in err and not out.exists()


@pytest.mark.parametrize("path", [p for p in corpus_maps("q1")
                                  if p.values[0] and "bspx" in p.values[0].name])
def test_bspx_lumps_are_moved_or_carried_over(path, tmp_path):
    """BRUSHLIST (ericw_q1_cube_bspx) is moved; LIGHTINGDIR, RGBLIGHTING hold no positions and
    are carried over; either way the trailer follows the last lump, the same length."""
    out = tmp_path / "out.bsp"
    result = run_cli("transform", path, "--shift", "16,0,0", "-o", out)
    assert result.returncode == 0, result.stderr
    ta, tb = trailer(path.read_bytes()), trailer(out.read_bytes())
    assert ta[:4] == tb[:4] == b"BSPX" and len(ta) == len(tb)
    lists = brush_lists(path.read_bytes())
    if lists:
        assert "BSPX brushes" in result.stdout
        assert [moved_list(m, (16, 0, 0)) for m in lists] == brush_lists(out.read_bytes())
    else:
        start = 8 + 32 * struct.unpack_from("<i", ta, 4)[0]
        assert ta[start:] == tb[start:]


def trailer(data: bytes) -> bytes:
    """The bytes after a Quake 1 map's last lump (4-byte aligned): its BSPX trailer."""
    ends = [o + n for o, n in struct.iter_unpack("<ii", data[4:124]) if n]
    return data[-(-max(ends) // 4) * 4:]


def brush_lists(data: bytes) -> list[list[tuple]]:
    """Every BRUSHLIST of a map's BSPX trailer read with struct (ericw-tools' bspxfile.hh:
    per model ver, modelnum, numbrushes, numfaces; per brush mins[3], maxs[3] float,
    contents int16, numfaces uint16, then numfaces planes of normal[3], dist float):
    per model (ver, modelnum, [(bounds, contents, [plane, ...]), ...])."""
    tail = trailer(data)
    found = []
    for k in range(struct.unpack_from("<I", tail, 4)[0]):
        name, offset, length = struct.unpack_from("<24sII", tail, 8 + 32 * k)
        if name.rstrip(b"\0") != b"BRUSHLIST":
            continue
        at, models = offset, []
        while at < offset + length:
            ver, number, brushes, _faces = struct.unpack_from("<4i", data, at)
            at += 16
            items = []
            for _ in range(brushes):
                *bounds, contents, count = struct.unpack_from("<6fhH", data, at)
                at += 28
                planes = [struct.unpack_from("<4f", data, at + 16 * n) for n in range(count)]
                at += 16 * count
                items.append((tuple(bounds), contents, planes))
            models.append((ver, number, items))
        found.append(models)
    return found


def moved_list(models: list[tuple], offset, keep=()) -> list[tuple]:
    """What `brush_lists` should read after a shift: bounds moved, plane distances by
    normal . offset, in float32; models in `keep` as they were."""
    f32 = numpy.float32
    out = []
    for ver, number, items in models:
        if number in keep:
            out.append((ver, number, items))
            continue
        moved = []
        for bounds, contents, planes in items:
            bounds = tuple(float(f32(b + offset[i % 3])) for i, b in enumerate(bounds))
            planes = [(*p[:3], float(f32(p[3] + sum(n * s for n, s in zip(p[:3], offset)))))
                      for p in planes]
            moved.append((bounds, contents, planes))
        out.append((ver, number, moved))
    return out


def with_brushes(tmp_path) -> tuple:
    """ericw_q1_cube_bspx with a second model (*1, a func_wall placed by its origin key, that
    owns no node nor face) and a BRUSHLIST written here: model 0 with two brushes, one with
    two non-axial planes, and model 1 with one brush and a plane. (path, brush lists)."""
    cube = CORPUS / "q1" / "ericw_q1_cube_bspx.bsp"
    if not cube.exists():
        pytest.skip("../shared/corpus not present")
    with bspedit.open(cube) as bsp:
        models = bsp.records("MODELS")
        extra = models[:1].copy()
        extra["headnode"], extra["numfaces"] = -1, 0
        bsp.replace_records("MODELS", numpy.concatenate([models, extra]))
        bsp.entities().add_entity({"classname": "func_wall", "model": "*1",
                                   "origin": "8 8 8"})
        bsp.save(tmp_path / "base.bsp")
    data = (tmp_path / "base.bsp").read_bytes()
    start = len(data) - len(trailer(data))
    slope = (0.6, 0.8, 0.0, 100.25)
    body = b"".join([
        struct.pack("<4i", 1, 0, 2, 2),
        struct.pack("<6fhH", 32, -240, 80, 80, -144, 112, -2, 0),
        struct.pack("<6fhH", -16, -16, -16, 16, 16, 16, -3, 2),
        struct.pack("<4f", *slope), struct.pack("<4f", -0.6, -0.8, 0.0, -50.5),
        struct.pack("<4i", 1, 1, 1, 1),
        struct.pack("<6fhH", 0, 0, 0, 8, 8, 8, -2, 1), struct.pack("<4f", *slope)])
    head = b"BSPX" + struct.pack("<I", 1) + struct.pack("<24sII", b"BRUSHLIST", start + 40,
                                                        len(body))
    path = tmp_path / "brushes.bsp"
    path.write_bytes(data[:start] + head + body)
    return path, brush_lists(path.read_bytes())


def test_brushlist_bounds_and_planes_move_with_the_map(tmp_path):
    path, (lists,) = with_brushes(tmp_path)
    there, back = tmp_path / "there.bsp", tmp_path / "back.bsp"
    report = shifted(path, there, SHIFT)
    assert report.brushes == 2 and report.local_models == [1]
    assert brush_lists(there.read_bytes()) == [moved_list(lists, SHIFT, keep=(1,))]
    check_moved(path, there, SHIFT, points=300)
    shifted(there, back, BACK)
    ta, tb = trailer(path.read_bytes()), trailer(back.read_bytes())
    # relocated with the lumps before it; its bytes come back (whole bounds and offset, and
    # these distances, survive float32 there and back)
    assert ta[:32] == tb[:32] and ta[36:] == tb[36:]
    assert run_cli("verify", there).returncode == 0


def test_a_brushlist_that_does_not_parse_is_refused(tmp_path):
    path, _ = with_brushes(tmp_path)
    data = bytearray(path.read_bytes())
    start = len(data) - len(trailer(bytes(data)))
    struct.pack_into("<i", data, start + 40, 7)             # model version 7: unknown
    path.write_bytes(bytes(data))
    out = tmp_path / "out.bsp"
    result = run_cli("transform", path, "--shift", "16,0,0", "-o", out)
    assert result.returncode == 2 and "BRUSHLIST does not parse" in result.stderr
    assert not out.exists()


def test_a_number_in_an_entity_key_keeps_its_text_and_comes_back_exactly():
    from decimal import Decimal

    from bspedit.features.merge.transform import shift_text

    steps = [Decimal(16), Decimal(0), Decimal("0.1")]
    assert shift_text("-40 2192.1  -338 ", steps) == "-24 2192.1  -337.9 "
    assert shift_text("-24 2192.1  -337.9 ", [-s for s in steps]) == "-40 2192.1  -338 "
    assert shift_text("1 2", steps) is None and shift_text("a b c", steps) is None
    assert shift_text("1 2 nan", steps) is None


def cli(*args):
    """`bspedit ARGS` in this process: (exit code, standard error)."""
    report = invoke([str(a) for a in args], capture=True)
    return report.code, report.stderr


@pytest.mark.parametrize("path", corpus_maps("q1")[:1])
def test_careless_users(path, tmp_path):
    copy = tmp_path / "map.bsp"
    shutil.copy(path, copy)
    original = copy.read_bytes()
    for bad in (["--shift", "1,2"], ["--shift", "1,2,x"], ["--shift", "1,2,inf"], []):
        assert cli("transform", copy, *bad, "-o", tmp_path / "out.bsp")[0] == 2, bad
    code, err = cli("transform", copy, "--shift", "1,2,3", "-o", copy)
    assert code == 2 and "input" in err
    code, err = cli("transform", copy, "--shift", "1,2,3")
    assert code == 2 and "--in-place" in err
    assert cli("transform", tmp_path, "--shift", "1,2,3", "-o", tmp_path / "out.bsp")[0] == 2
    assert cli("transform", tmp_path / "missing.bsp", "--shift", "1,2,3", "-o",
               tmp_path / "out.bsp")[0] == 2
    assert copy.read_bytes() == original and not (tmp_path / "out.bsp").exists()
    assert cli("transform", copy, "--shift=-16,32,8", "-o", tmp_path / "out.bsp")[0] == 0
    assert cli("transform", copy, "--shift=-16,32,8", "--in-place")[0] == 0
    assert Map(copy).raw("VERTEXES") == Map(tmp_path / "out.bsp").raw("VERTEXES") != \
        Map(path).raw("VERTEXES")


@pytest.mark.parametrize("path", corpus_maps("source")[:1] + corpus_maps("q3")[:1])
def test_other_families_are_refused(path, tmp_path):
    code, err = cli("transform", path, "--shift", "1,2,3", "-o", tmp_path / "out.bsp")
    assert code == 2 and "cannot be moved" in err
    assert not (tmp_path / "out.bsp").exists()


@needs_origin_brush_map
def test_records_an_origin_brush_model_shares_with_the_world_are_copied_for_it(tmp_path):
    """Make the func_rotating's first face use a world face's plane and texinfo: the shift
    copies both for it (unmoved) and moves the world's."""
    with bspedit.open(ORIGIN_BRUSH_MAP) as bsp:
        models = bsp.records("MODELS")
        mine, world = int(models["firstface"][17]), int(models["firstface"][0])
        faces = bsp.records("FACES", writable=True)
        faces["planenum"][mine] = faces["planenum"][world]
        faces["texinfo"][mine] = faces["texinfo"][world]
        bsp.save(tmp_path / "shared.bsp")
    report = shifted(tmp_path / "shared.bsp", tmp_path / "out.bsp", SHIFT)
    assert report.copied["PLANES"] >= 1 and report.copied["TEXINFO"] >= 1
    a, b = Map(tmp_path / "shared.bsp"), Map(tmp_path / "out.bsp")
    old_face, new_face = a.records("FACES")[mine], b.records("FACES")[mine]
    planes, texinfo = len(a.records("PLANES")), len(a.records("TEXINFO"))
    assert new_face[0] >= planes and new_face[4] >= texinfo      # the copies
    assert b.records("PLANES")[new_face[0]] == a.records("PLANES")[old_face[0]]
    assert b.records("TEXINFO")[new_face[4]] == a.records("TEXINFO")[old_face[4]]
    world_face = b.records("FACES")[world]
    assert world_face[0] == old_face[0] and world_face[4] == old_face[4]
    nx, ny, nz, dist, _ = a.records("PLANES")[old_face[0]]
    assert b.records("PLANES")[old_face[0]][3] == pytest.approx(
        dist + nx * SHIFT[0] + ny * SHIFT[1] + nz * SHIFT[2], abs=1e-3)
    check_moved(tmp_path / "shared.bsp", tmp_path / "out.bsp", SHIFT, points=300)
    # Quake 2 planes stay in pairs (n ^ 1 is n flipped): the copies too
    copies = b.records("PLANES")[planes:]
    assert len(copies) % 2 == 0 and new_face[0] % 2 == old_face[0] % 2
    for even, odd in zip(copies[::2], copies[1::2]):
        assert [-v for v in even[:4]] == list(odd[:4])
