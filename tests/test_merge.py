"""`bspedit merge` against an independent point-contents oracle and a real engine.

The oracle reads the lumps with struct/numpy here (no bspedit code) and walks the BSP trees:
for random points in each input map's world bounds, the merged map gives the same contents in
hull 0 (NODES/LEAFS: the leaf's contents and face count) and in every clip hull (CLIPNODES from
model 0's headnode), and for points in each brush model's bounds the same through the merged
brush model (the maps' brush models are appended in map order). Points closer than 0.01 to a
plane crossed on the way are left out (float32 distances of shifted planes round).
mvdsv (QuakeWorld server with ktx) loads every merged Quake 1 and GoldSrc map and reports the
checksums `bspedit checksum` computes.
"""
from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
from pathlib import Path

import numpy
import pytest
from conftest import CORPUS, run_cli

TOOLS = CORPUS.parent / "tools"
MVDSV = Path("/usr/games/mvdsv")
needs_mvdsv = pytest.mark.skipif(not (MVDSV.exists() and (TOOLS / "q1oracle.sh").exists()),
                                 reason="mvdsv + ktx or q1oracle.sh absent")

V3F = [("x", "<f4"), ("y", "<f4"), ("z", "<f4")]
V3S = [("x", "<i2"), ("y", "<i2"), ("z", "<i2")]
PLANE = numpy.dtype([("normal", V3F), ("dist", "<f4"), ("type", "<i4")])
# per format: lump numbers and record types, from the id/Valve headers
Q1_LUMPS = {"PLANES": 1, "NODES": 5, "CLIPNODES": 9, "LEAFS": 10, "MODELS": 14, "ENTITIES": 0}
Q2_LUMPS = {"PLANES": 1, "NODES": 4, "LEAFS": 8, "MODELS": 13, "ENTITIES": 0}
SHORT = {"NODES": numpy.dtype([("planenum", "<i4"), ("children", "<i2", 2), ("mins", V3S),
                               ("maxs", V3S), ("firstface", "<u2"), ("numfaces", "<u2")]),
         "CLIPNODES": numpy.dtype([("planenum", "<i4"), ("children", "<i2", 2)]),
         "LEAFS": numpy.dtype([("contents", "<i4"), ("visofs", "<i4"), ("mins", V3S),
                               ("maxs", V3S), ("first", "<u2"), ("count", "<u2"),
                               ("ambient", "u1", 4)])}
WIDE = {"NODES": numpy.dtype([("planenum", "<i4"), ("children", "<i4", 2), ("mins", V3F),
                              ("maxs", V3F), ("firstface", "<u4"), ("numfaces", "<u4")]),
        "CLIPNODES": numpy.dtype([("planenum", "<i4"), ("children", "<i4", 2)]),
        "LEAFS": numpy.dtype([("contents", "<i4"), ("visofs", "<i4"), ("mins", V3F),
                              ("maxs", V3F), ("first", "<u4"), ("count", "<u4"),
                              ("ambient", "u1", 4)])}
MIXED = {"NODES": numpy.dtype([("planenum", "<i4"), ("children", "<i4", 2), ("mins", V3S),
                               ("maxs", V3S), ("firstface", "<u4"), ("numfaces", "<u4")]),
         "CLIPNODES": WIDE["CLIPNODES"],
         "LEAFS": numpy.dtype([("contents", "<i4"), ("visofs", "<i4"), ("mins", V3S),
                               ("maxs", V3S), ("first", "<u4"), ("count", "<u4"),
                               ("ambient", "u1", 4)])}      # 2PSB: BSP2 indices, int16 bounds
Q1_MODEL = numpy.dtype([("mins", V3F), ("maxs", V3F), ("origin", V3F), ("headnode", "<i4", 4),
                        ("visleafs", "<i4"), ("firstface", "<i4"), ("numfaces", "<i4")])
Q2 = {"NODES": numpy.dtype([("planenum", "<i4"), ("children", "<i4", 2), ("mins", V3S),
                            ("maxs", V3S), ("firstface", "<u2"), ("numfaces", "<u2")]),
      "LEAFS": numpy.dtype([("contents", "<i4"), ("cluster", "<i2"), ("area", "<i2"),
                            ("mins", V3S), ("maxs", V3S), ("first", "<u2"), ("count", "<u2"),
                            ("firstleafbrush", "<u2"), ("numleafbrushes", "<u2")]),
      "MODELS": numpy.dtype([("mins", V3F), ("maxs", V3F), ("origin", V3F),
                             ("headnode", "<i4"), ("firstface", "<i4"), ("numfaces", "<i4")])}


class Map:
    """The lumps the trees need, read straight from the file."""

    def __init__(self, path: Path) -> None:
        data = path.read_bytes()
        magic = data[:4]
        if magic == b"IBSP":
            self.kind, lumps, types, start = "q2", Q2_LUMPS, {**Q2, "PLANES": PLANE}, 8
        else:
            version = struct.unpack_from("<i", data)[0]
            self.kind = "goldsrc" if version == 30 else "q1"
            shapes = {b"BSP2": WIDE, b"2PSB": MIXED}.get(magic, SHORT)
            types = {**shapes, "PLANES": PLANE, "MODELS": Q1_MODEL}
            lumps, start = Q1_LUMPS, 4
        self.arrays = {}
        for name, index in lumps.items():
            offset, length = struct.unpack_from("<ii", data, start + 8 * index)
            raw = data[offset:offset + length]
            self.arrays[name] = raw if name == "ENTITIES" else numpy.frombuffer(
                raw[:len(raw) - len(raw) % types[name].itemsize], types[name])
        self.hulls = {"q1": (1, 2), "goldsrc": (1, 2, 3), "q2": ()}[self.kind]

    def __getitem__(self, name: str) -> numpy.ndarray:
        return self.arrays[name]

    def brush_entities(self) -> list[dict[str, str]]:
        """The keys of every entity with a `*N` model key."""
        text = self["ENTITIES"].decode("latin-1")
        found = []
        for block in re.findall(r"\{([^{}]*)\}", text):
            keys = dict(re.findall(r'"([^"]*)"\s*"([^"]*)"', block))
            if re.fullmatch(r"\*\d+", keys.get("model", "")):
                found.append(keys)
        return found

    def models_by_entity(self) -> list[tuple[str, int]]:
        """(classname, model number) of every entity with a `*N` model key."""
        return [(keys.get("classname", ""), int(keys["model"][1:]))
                for keys in self.brush_entities()]

    def local_models(self) -> set[int]:
        """Brush models placed by their entity's origin key: their geometry is relative to
        it, and a shift moves only the key."""
        return {int(keys["model"][1:]) for keys in self.brush_entities() if "origin" in keys}


def walk(m: Map, head: int, points: numpy.ndarray, hull: int) -> tuple[numpy.ndarray, numpy.ndarray]:
    """Each point's contents (hull 0: the leaf's contents and face count) and the smallest
    distance to a plane crossed on the way."""
    planes = m["PLANES"]
    normals = numpy.stack([planes["normal"][a] for a in "xyz"], axis=1).astype(numpy.float64)
    dists = planes["dist"].astype(numpy.float64)
    nodes = m["NODES"] if hull == 0 else m["CLIPNODES"]
    current = numpy.full(len(points), head, numpy.int64)
    nearest = numpy.full(len(points), numpy.inf)
    active = current >= 0
    while active.any():
        idx = current[active]
        plane = nodes["planenum"][idx]
        d = numpy.einsum("ij,ij->i", points[active], normals[plane]) - dists[plane]
        nearest[active] = numpy.minimum(nearest[active], numpy.abs(d))
        side = numpy.where(d >= 0, 0, 1)
        current[active] = nodes["children"][idx, side]
        active = current >= 0
    if hull:
        return current, nearest
    leaf = m["LEAFS"][-1 - current]
    return leaf["contents"].astype(numpy.int64) * 100000 + leaf["count"], nearest


def heads(m: Map, model: int) -> dict[int, int]:
    record = m["MODELS"][model]
    if m.kind == "q2":
        return {0: int(record["headnode"])}
    return {hull: int(record["headnode"][hull]) for hull in (0, *m.hulls)}


def box(m: Map, model: int) -> tuple[numpy.ndarray, numpy.ndarray]:
    """A model's bounds; the world's within its root node's (Quake 2 compilers may write
    +-99999 for model 0)."""
    record = m["MODELS"][model]
    lo, hi = (numpy.array([record[c][a] for a in "xyz"], numpy.float64) for c in ("mins", "maxs"))
    if model == 0:
        root = m["NODES"][heads(m, 0)[0]]
        lo = numpy.maximum(lo, [root["mins"][a] for a in "xyz"])
        hi = numpy.minimum(hi, [root["maxs"][a] for a in "xyz"])
    return lo, hi


def same_contents(source: Map, model: int, merged: Map, merged_model: int,
                  shift: numpy.ndarray, count: int, rng: numpy.random.Generator) -> int:
    """Compare `count` random points of the source model's bounds; return how many counted."""
    lo, hi = box(source, model)
    if (hi - lo <= 0).any():
        return 0
    points = rng.uniform(lo, hi, size=(count, 3))
    compared = 0
    for hull, head in heads(source, model).items():
        if hull and not len(source["CLIPNODES"]):   # no clip hulls (ericw's cube: a BRUSHLIST)
            continue
        want, near_a = walk(source, head, points, hull)
        got, near_b = walk(merged, heads(merged, merged_model)[hull], points + shift, hull)
        clear = (near_a > 0.01) & (near_b > 0.01)
        bad = numpy.flatnonzero(clear & (want != got))
        assert not len(bad), (f"model {model} hull {hull}: {len(bad)} of {clear.sum()} points "
                              f"differ, first at {points[bad[0]]}: {want[bad[0]]} != {got[bad[0]]}")
        compared += int(clear.sum())
    return compared


def merge(inputs: list[Path], shifts: list[tuple[float, float, float]], out: Path,
          *extra: str) -> subprocess.CompletedProcess:
    args = ["merge", *map(str, inputs), "-o", str(out), *extra]
    for path, shift in zip(inputs, shifts):
        if any(shift):
            args.append(f"--shift={path}={','.join(f'{v:g}' for v in shift)}")
    return run_cli(*args)


def apart(a: Path, b: Path) -> tuple[float, float, float]:
    """A shift along x that puts b past a, 64 units apart."""
    first, second = Map(a), Map(b)
    hi_a = first["NODES"][heads(first, 0)[0]]["maxs"]["x"]
    lo_b = second["NODES"][heads(second, 0)[0]]["mins"]["x"]
    return (float(numpy.ceil(hi_a - lo_b + 64)), 0.0, 0.0)


def check_pair(tmp_path: Path, a: Path, b: Path | None, points: int) -> Path:
    """Merge a with b (None: a shifted copy of a), check the oracle and verify; the output."""
    if b is None:
        b = tmp_path / f"copy_{a.name}"
        shutil.copyfile(a, b)
    shift = apart(a, b)
    out = tmp_path / "merged.bsp"
    done = merge([a, b], [(0, 0, 0), shift], out)
    if done.returncode == 2 and "--ignore-limits" in done.stderr:   # a real engine limit
        assert re.search(r"past [\w -]+ = \d+ of ", done.stderr) and not out.exists()
        done = merge([a, b], [(0, 0, 0), shift], out, "--ignore-limits")
    assert done.returncode == 0, done.stderr
    merged = Map(out)
    rng = numpy.random.default_rng(35)
    first_model = 1
    for path, offset in ((a, numpy.zeros(3)), (b, numpy.array(shift))):
        source = Map(path)
        assert same_contents(source, 0, merged, 0, offset, points, rng) > points // 2
        local = source.local_models()
        for model in range(1, len(source["MODELS"])):
            moved = numpy.zeros(3) if model in local else offset
            same_contents(source, model, merged, first_model + model - 1, moved, 60, rng)
        wanted = sorted((c, first_model + n - 1) for c, n in source.models_by_entity())
        assert set(wanted) <= set(merged.models_by_entity())
        first_model += len(source["MODELS"]) - 1
    assert len(merged["MODELS"]) == first_model
    verified = run_cli("verify", out)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    return out


def corpus(path: str) -> Path:
    found = CORPUS / path
    if not found.exists():
        pytest.skip("../shared/corpus not present")
    return found


FAST_PAIRS = {"q1": ("q1/librequake_start_bspx.bsp", None),
              "bsp2": ("q1/bsptool_remakequake_mp_lobby_bsp2.bsp", None),
              "goldsrc": ("goldsrc/csdocker_aim_map.bsp", None),
              "q2": ("q2/opentdm_2box4.bsp", None)}


@pytest.mark.parametrize("family", sorted(FAST_PAIRS))
def test_merged_map_gives_every_point_its_contents(tmp_path, family):
    a, b = FAST_PAIRS[family]
    check_pair(tmp_path, corpus(a), b and corpus(b), 2000)


def _families(*names: str) -> list[str]:
    if not CORPUS.is_dir():
        return []
    return sorted(str(p.relative_to(CORPUS)) for n in names for p in (CORPUS / n).glob("*.bsp"))


@pytest.mark.full
@pytest.mark.parametrize("name", _families("q1", "goldsrc", "q2"))
def test_every_map_with_a_shifted_copy_of_itself(tmp_path, name):
    check_pair(tmp_path, corpus(name), None, 3000)


DIFFERENT = [("q1/librequake_box_indexorder.bsp", "q1/librequake_lqdm4_a8_dirtypad.bsp"),
             ("q1/librequake_start_bspx.bsp", "q1/slipgate_b_batt0.bsp"),
             ("goldsrc/plague_zm_303.bsp", "goldsrc/csdocker_aim_map.bsp"),
             ("goldsrc/hltopdown_test.bsp", "goldsrc/plague_zm_downtown_dirtypad.bsp"),
             ("q2/opentdm_kduel5.bsp", "q2/opentdm_q2rdm2_indexorder.bsp"),
             ("q2/bsptool_q2_mp_lobby.bsp", "q2/opentdm_2box4.bsp")]


@pytest.mark.full
@pytest.mark.parametrize("a,b", DIFFERENT)
def test_two_different_maps(tmp_path, a, b):
    check_pair(tmp_path, corpus(a), corpus(b), 3000)


def test_three_maps_are_joined_by_two_splits(tmp_path):
    a = corpus("q1/bsptool_quake_mp_lobby.bsp")
    copies = [tmp_path / f"c{n}.bsp" for n in (1, 2)]
    for copy in copies:
        shutil.copyfile(a, copy)
    out = tmp_path / "three.bsp"
    done = merge([a, *copies], [(0, 0, 0), (4096, 0, 0), (0, 4096, 0)], out, "--json")
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["result"]["splits"]) == 2
    merged, source = Map(out), Map(a)
    rng = numpy.random.default_rng(3)
    for offset in ((0, 0, 0), (4096, 0, 0), (0, 4096, 0)):
        assert same_contents(source, 0, merged, 0, numpy.array(offset, float), 500, rng) > 250


def engine(path: Path) -> dict[str, int]:
    out = subprocess.run(["bash", str(TOOLS / "q1oracle.sh"), str(path)], capture_output=True,
                         text=True, timeout=120, check=False)
    assert "loaded: yes" in out.stdout, out.stdout + out.stderr
    return {m[0]: int(m[1], 16) for m in re.findall(r"checksum: (\w+) 0x([0-9a-f]+)", out.stdout)}


def engine_matches(path: Path) -> None:
    """mvdsv loads the map and computes the checksums `bspedit checksum` gives."""
    seen = engine(path)
    done = run_cli("checksum", path, "--json")
    ours = json.loads(done.stdout)["result"]["checksums"]
    assert set(seen) == {"map_checksum", "map_checksum2"}
    assert seen == {name: ours[name] for name in seen}


ENGINE_FAST = ["q1/bsptool_quake_mp_lobby.bsp", "goldsrc/hltopdown_test.bsp"]


@needs_mvdsv
@pytest.mark.parametrize("name", ENGINE_FAST)
def test_mvdsv_loads_the_merged_map_with_our_checksums(tmp_path, name):
    out = check_pair(tmp_path, corpus(name), None, 200)
    engine_matches(out)


@needs_mvdsv
@pytest.mark.full
@pytest.mark.parametrize("name", [n for n in _families("q1", "goldsrc") if n not in ENGINE_FAST])
def test_mvdsv_loads_every_merged_map(tmp_path, name):
    out = check_pair(tmp_path, corpus(name), None, 200)
    engine_matches(out)


@needs_mvdsv
@pytest.mark.full
@pytest.mark.parametrize("a,b", [pair for pair in DIFFERENT if not pair[0].startswith("q2")])
def test_mvdsv_loads_two_different_maps_merged(tmp_path, a, b):
    out = check_pair(tmp_path, corpus(a), corpus(b), 200)
    engine_matches(out)


def test_quake2_areas_clusters_and_plane_pairs(tmp_path):
    a = corpus("q2/opentdm_2box4.bsp")
    b = tmp_path / "copy.bsp"
    shutil.copyfile(a, b)
    out = tmp_path / "merged.bsp"
    assert merge([a, b], [(0, 0, 0), apart(a, b)], out).returncode == 0
    source, merged = Map(a), Map(out)
    data, raw = out.read_bytes(), a.read_bytes()

    def lump(blob: bytes, index: int) -> bytes:
        offset, length = struct.unpack_from("<ii", blob, 8 + 8 * index)
        return blob[offset:offset + length]

    assert len(lump(data, 17)) == 8 * (2 * (len(lump(raw, 17)) // 8) - 1)   # area 0 shared
    own = source["LEAFS"][1:]
    leafs = merged["LEAFS"]
    first, second = leafs[1:len(own) + 1], leafs[len(own) + 1:]
    assert (first["area"] == own["area"]).all()
    assert (second["area"] == numpy.where(own["area"] > 0, own["area"] + 1, 0)).all()
    clusters = struct.unpack_from("<i", lump(raw, 3))[0]
    start = -(-clusters // 8) * 8                        # the second map's clusters
    assert struct.unpack_from("<i", lump(data, 3))[0] == start + clusters
    assert (first["cluster"] == own["cluster"]).all()
    assert (second["cluster"] == numpy.where(own["cluster"] >= 0, own["cluster"] + start, -1)).all()
    for planes in (source["PLANES"], merged["PLANES"]):      # qbsp3's pairs: n ^ 1 is n flipped
        normals = numpy.stack([planes["normal"][a] for a in "xyz"], axis=1)
        assert (normals[0::2] == -normals[1::2]).all()
        assert (planes["dist"][0::2] == -planes["dist"][1::2]).all()


def decompress(data: bytes, offset: int, size: int) -> numpy.ndarray:
    """A Quake visibility row (RLE: a zero byte, then how many zero bytes) as booleans."""
    out = bytearray()
    while len(out) < size:
        byte = data[offset]
        if byte:
            out.append(byte)
            offset += 1
        else:
            out += bytes(data[offset + 1])
            offset += 2
    return numpy.unpackbits(numpy.frombuffer(bytes(out[:size]), numpy.uint8), bitorder="little")


def leaf_of(m: Map, points: numpy.ndarray) -> numpy.ndarray:
    """The hull 0 leaf of each point, by walking the world's nodes."""
    planes = m["PLANES"]
    normals = numpy.stack([planes["normal"][a] for a in "xyz"], axis=1).astype(numpy.float64)
    current = numpy.full(len(points), heads(m, 0)[0], numpy.int64)
    while (current >= 0).any():
        live = current >= 0
        node = m["NODES"][current[live]]
        d = numpy.einsum("ij,ij->i", points[live], normals[node["planenum"]])
        side = numpy.where(d - planes["dist"][node["planenum"]] >= 0, 0, 1)
        current[live] = node["children"][numpy.arange(len(node)), side]
    return -1 - current


@pytest.mark.parametrize("name", ["q1/librequake_start_bspx.bsp", "goldsrc/csdocker_aim_map.bsp"])
def test_each_map_sees_only_its_own_leafs(tmp_path, name):
    a = corpus(name)
    b = tmp_path / "copy.bsp"
    shutil.copyfile(a, b)
    shift = numpy.array(apart(a, b))
    out = tmp_path / "merged.bsp"
    assert merge([a, b], [(0, 0, 0), tuple(shift)], out).returncode == 0
    source, merged = Map(a), Map(out)
    own = int(source["MODELS"][0]["visleafs"])
    start = -(-own // 8) * 8                             # the copy's first bit
    total = int(merged["MODELS"][0]["visleafs"])
    assert total == start + own
    raw, data = a.read_bytes(), out.read_bytes()
    vis_a = raw[slice(*_span(raw, 4))]
    vis_m = data[slice(*_span(data, 4))]
    lo, hi = box(source, 0)
    points = numpy.random.default_rng(8).uniform(lo, hi, size=(300, 3))
    for offset, first_bit in ((numpy.zeros(3), 0), (shift, start)):
        leafs_a, leafs_m = leaf_of(source, points), leaf_of(merged, points + offset)
        inside = (leafs_a >= 1) & (leafs_a <= own)
        assert (leafs_m[inside] == leafs_a[inside] + first_bit).all()
        for la, lm in set(zip(leafs_a[inside].tolist(), leafs_m[inside].tolist())):
            row_a = source["LEAFS"][la]["visofs"]
            row_m = merged["LEAFS"][lm]["visofs"]
            assert (row_a < 0) == (row_m < 0)
            if row_a < 0:
                continue
            want = numpy.zeros(total, numpy.uint8)
            want[first_bit:first_bit + own] = decompress(vis_a, int(row_a), (own + 7) // 8)[:own]
            got = decompress(vis_m, int(row_m), (total + 7) // 8)[:total]
            assert (got == want).all()


def _span(data: bytes, index: int) -> tuple[int, int]:
    offset, length = struct.unpack_from("<ii", data, 4 + 8 * index)
    return offset, offset + length


def test_2psb_maps_merge(tmp_path):
    """2PSB (BSP2 indices, int16 bounds), made by `convert`: the oracle, and mvdsv if there."""
    a = tmp_path / "a.bsp"
    done = run_cli("convert", corpus("q1/librequake_start_bspx.bsp"), "--to", "2psb", "-o", a)
    assert done.returncode == 0, done.stderr
    assert a.read_bytes()[:4] == b"2PSB"
    out = check_pair(tmp_path, a, None, 1000)
    assert out.read_bytes()[:4] == b"2PSB"
    if MVDSV.exists() and (TOOLS / "q1oracle.sh").exists():
        engine_matches(out)
