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


def brushx(path) -> bool:
    with bspedit.open(path) as bsp:
        tail = bsp.layout.tail
        return bool(tail) and b"BRUSHLIST" in bsp.read_range(tail.start, tail.end)


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
    if brushx(path):
        pytest.skip("BSPX BRUSHLIST: refused (test_bspx_with_positions_is_refused)")
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
    if brushx(path):
        pytest.skip("BSPX BRUSHLIST: refused")
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
def test_bspx_with_positions_is_refused(path, tmp_path):
    out = tmp_path / "out.bsp"
    result = run_cli("transform", path, "--shift", "16,0,0", "-o", out)
    if brushx(path):
        assert result.returncode == 2 and "BRUSHLIST" in result.stderr and not out.exists()
    else:       # LIGHTINGDIR, RGBLIGHTING: no positions, carried over
        assert result.returncode == 0, result.stderr
        with bspedit.open(path) as a, bspedit.open(out) as b:
            ta = a.read_range(a.layout.tail.start, a.size)
            tb = b.read_range(b.layout.tail.start, b.size)
        start = 8 + 32 * struct.unpack_from("<i", ta, 4)[0]
        assert ta[:4] == b"BSPX" and len(ta) == len(tb) and ta[start:] == tb[start:]


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
