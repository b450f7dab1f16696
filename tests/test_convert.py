"""bspedit convert: BSP 29 <-> BSP2 <-> 2PSB and GoldSrc <-> Blue Shift there and back give the
original bytes; the converted records hold the same values (read with struct by
tests/bspstruct.py), the trees give the same point contents; what the target cannot hold is
refused with the field, the limit and the count; the real engine (mvdsv) loads converted and
moved maps and computes the checksums bspedit reports."""
from __future__ import annotations

import random
import re
import shutil
import subprocess
from pathlib import Path

import numpy
import pytest
from bspstruct import Map, Walker
from conftest import CORPUS, corpus_maps

import bspedit
from bspedit.cli import invoke
from bspedit.errors import BspError
from bspedit.features.merge.convert import convert
from bspedit.features.merge.transform import shift

Q1_MAPS = corpus_maps("q1")
GOLDSRC_MAPS = corpus_maps("goldsrc")
CHAINS = {"q1": [("bsp2", "bsp29"), ("2psb", "bsp29"), ("bsp2", "2psb", "bsp29")],
          "bsp2": [("bsp29", "bsp2"), ("2psb", "bsp2"), ("2psb", "bsp29", "bsp2")],
          "goldsrc": [("bshift", "hl")]}
TOOLS = CORPUS.parent / "tools"
needs_mvdsv = pytest.mark.skipif(
    not (Path("/usr/games/mvdsv").exists() and (TOOLS / "q1oracle.sh").exists()),
    reason="mvdsv + ktx (apt-get install mvdsv ktx) or q1oracle.sh absent")


def converted(source, target, to):
    with bspedit.open(source) as bsp:
        return convert(bsp, to, str(target))


def family(path) -> str:
    with bspedit.open(path) as bsp:
        return bsp.family.key


def whole_bounds(path) -> bool:
    with bspedit.open(path) as bsp:
        return all(numpy.array_equal(bsp.records(lump)[side][axis],
                                     numpy.round(bsp.records(lump)[side][axis]))
                   for lump in ("NODES", "LEAFS") for side in ("mins", "maxs") for axis in "xyz")


@pytest.mark.parametrize("path", Q1_MAPS + GOLDSRC_MAPS)
def test_there_and_back_gives_the_original_bytes(path, tmp_path):
    original = path.read_bytes()
    start = family(path)
    for chain in CHAINS[start]:
        current = path
        for number, to in enumerate(chain):
            target = tmp_path / f"{'-'.join(chain)}.{number}.bsp"
            converted(current, target, to)
            current = target
        if start == "bsp2" and not whole_bounds(path):
            # float bounds that are not whole come back rounded outward, the rest as it was
            a, b = Map(path), Map(current)
            for lump in ("NODES", "LEAFS"):
                start_field = 3 if lump == "NODES" else 2
                for old, new in zip(a.records(lump), b.records(lump)):
                    lows, highs = slice(start_field, start_field + 3), \
                        slice(start_field + 3, start_field + 6)
                    assert all(n <= o < n + 1 for o, n in zip(old[lows], new[lows]))
                    assert all(n - 1 < o <= n for o, n in zip(old[highs], new[highs]))
            assert {n for n in a.lumps if a.raw(n) != b.raw(n)} <= {"NODES", "LEAFS"}
            continue
        assert current.read_bytes() == original, chain


@pytest.mark.parametrize("path", Q1_MAPS)
def test_converted_records_hold_the_same_values(path, tmp_path):
    """Every record of every lump read with struct in both containers: the same numbers (node
    and clipnode children as the engines number them), and the same point contents."""
    to = "bsp29" if family(path) != "q1" else "bsp2"
    target = tmp_path / "out.bsp"
    converted(path, target, to)
    assert invoke(["verify", str(target)], capture=True).code == 0
    a, b = Map(path), Map(target)
    assert b.data[:4] == (b"BSP2" if to == "bsp2" else b"\x1d\0\0\0")
    whole = whole_bounds(path)
    for name in ("PLANES", "VERTEXES", "TEXINFO", "FACES", "CLIPNODES", "LEAFS",
                 "MARKSURFACES", "EDGES", "SURFEDGES", "MODELS", "NODES"):
        old, new = a.records(name), b.records(name)
        assert len(old) == len(new), name
        if name in ("NODES", "LEAFS") and not whole:
            continue                        # rounded: test_there_and_back_gives...
        assert [tuple(map(float, r)) for r in old] == [tuple(map(float, r)) for r in new], name
    for name in ("ENTITIES", "TEXTURES", "LIGHTING", "VISIBILITY"):
        assert a.raw(name) == b.raw(name)
    wa, wb = Walker(a), Walker(b)
    rng = random.Random(29)
    (x0, y0, z0), (x1, y1, z1) = wa.bounds
    for _ in range(500):
        point = (rng.uniform(x0, x1), rng.uniform(y0, y1), rng.uniform(z0, z1))
        assert wa.contents(point)[0] == wb.contents(point)[0]
        if wa.clipnodes:
            assert wa.clip_contents(point)[0] == wb.clip_contents(point)[0]


@pytest.mark.parametrize("path", GOLDSRC_MAPS)
def test_blue_shift_swaps_the_first_two_entries(path, tmp_path):
    converted(path, tmp_path / "bs.bsp", "bshift")
    a, b = path.read_bytes(), (tmp_path / "bs.bsp").read_bytes()
    assert b[:4] == a[:4] and b[4:12] == a[12:20] and b[12:20] == a[4:12] and b[20:] == a[20:]
    assert family(tmp_path / "bs.bsp") == "bshift"


def test_the_header_change_is_reported(tmp_path):
    """Blue Shift changes no lump, only which lump each directory entry describes: `changed`
    says so (text and JSON), and the way back too; BSP 29 -> BSP2 names the new ident."""
    source = CORPUS / "goldsrc" / "hltopdown_test.bsp"
    if not source.exists():
        pytest.skip("../shared/corpus not present")
    there, back = tmp_path / "bs.bsp", tmp_path / "hl.bsp"
    report = invoke(["convert", str(source), "--to", "bshift", "-o", str(there), "--json"],
                    capture=True)
    assert report.code == 0
    swap = "header (directory entry 0: ENTITIES -> PLANES, directory entry 1: PLANES -> ENTITIES)"
    assert report.result["save"]["changed"] == [swap] and report.result["save"]["moved"] == []
    a, b = source.read_bytes(), there.read_bytes()
    assert a[4:20] != b[4:20] and a[:4] + a[20:] == b[:4] + b[20:]
    text = invoke(["convert", str(there), "--to", "hl", "-o", str(back)], capture=True)
    assert text.code == 0 and back.read_bytes() == a
    assert ("changed: header (directory entry 0: PLANES -> ENTITIES, directory entry 1: "
            "ENTITIES -> PLANES); moved: none") in text.stdout
    lobby = CORPUS / "q1" / "bsptool_quake_mp_lobby.bsp"
    wide = invoke(["convert", str(lobby), "--to", "bsp2", "-o", str(tmp_path / "b2.bsp"),
                   "--json"], capture=True)
    assert wide.result["save"]["changed"][0] == "header (version 29 -> ident BSP2)"


def bsp2_lobby(tmp_path, edit) -> Path:
    """The BSP2 lobby map with one edit of its records (a map past BSP 29's fields)."""
    source = CORPUS / "q1" / "bsptool_remakequake_mp_lobby_bsp2.bsp"
    if not source.exists():
        pytest.skip("../shared/corpus not present")
    path = tmp_path / "big.bsp"
    with bspedit.open(source) as bsp:
        edit(bsp)
        bsp.save(path)
    return path


def test_what_bsp29_cannot_hold_is_refused_naming_the_limit_and_the_counts(tmp_path):
    def marksurfaces(bsp):
        records = bsp.records("MARKSURFACES")
        bsp.replace_records("MARKSURFACES", numpy.resize(records, 70001))
        bsp.records("LEAFS", writable=True)["firstmarksurface"][1] = 70000

    def bounds(bsp):
        bsp.records("NODES", writable=True)["mins"]["x"][0] = -40000.0

    for edit, words in ((marksurfaces, ("LEAFS firstmarksurface", "70000", "65535",
                                        "70001 MARKSURFACES")),
                        (bounds, ("NODES mins.x", "-40000", "int16", "-32768..32767"))):
        source = bsp2_lobby(tmp_path, edit)
        out = tmp_path / "out.bsp"
        report = invoke(["convert", str(source), "--to", "bsp29", "-o", str(out)], capture=True)
        assert report.code == 2 and all(w in report.stderr for w in words), report.stderr
        assert not out.exists()
        report = invoke(["convert", str(source), "--to", "2psb", "-o", str(out)], capture=True)
        assert report.code == (2 if edit is bounds else 0), report.stderr
        out.unlink(missing_ok=True)


def test_children_past_32767_nodes_use_the_unsigned_numbering():
    """BSP 29 node children as BSP2-aware engines read them: unsigned, nodes below the node
    count, leafs counted down from 65535; nodes + leafs past 65536 are refused."""
    from bspedit.features.merge.convert import _children
    from bspedit.format.families import BSP2, QUAKE1

    class Map29:
        path, records = "big.bsp", None

    wide = numpy.zeros((40000, 2), numpy.int32)
    wide[0] = (39999, -1 - 25000)               # node 39999, leaf 25000
    wide[1] = (-1, 1)                            # leaf 0, node 1
    narrow = _children(Map29, "NODES", "children", wide, numpy.dtype("<i2"), QUAKE1)
    assert narrow[0].view(numpy.uint16).tolist() == [39999, 65535 - 25000]
    assert narrow[1].view(numpy.uint16).tolist() == [65535, 1]
    back = _children(Map29, "NODES", "children", narrow, numpy.dtype("<i4"), BSP2)
    assert numpy.array_equal(back, wide)
    wide[2] = (-1 - 30000, 0)                    # leaf 30000: 65535 - 30000 < 40000 nodes
    with pytest.raises(BspError, match="nodes \\+ leafs <= 65536"):
        _children(Map29, "NODES", "children", wide, numpy.dtype("<i2"), QUAKE1)


def test_careless_users(tmp_path):
    source = CORPUS / "q1" / "bsptool_quake_mp_lobby.bsp"
    other = CORPUS / "source" / "valvebsp_testmap.bsp"
    if not source.exists():
        pytest.skip("../shared/corpus not present")
    copy = tmp_path / "map.bsp"
    shutil.copy(source, copy)
    out = tmp_path / "out.bsp"

    def cli(*args):
        report = invoke([str(a) for a in args], capture=True)
        return report.code, report.stderr

    assert cli("convert", copy, "--to", "bsp29", "-o", out)[0] == 2      # already BSP 29
    assert cli("convert", copy, "--to", "bshift", "-o", out)[0] == 2     # not GoldSrc
    assert cli("convert", copy, "--to", "bsp3", "-o", out)[0] == 2
    assert cli("convert", copy, "--to", "bsp2", "-o", copy)[0] == 2      # output = input
    assert cli("convert", copy, "--to", "bsp2")[0] == 2                  # nowhere to write
    assert cli("convert", tmp_path, "--to", "bsp2", "-o", out)[0] == 2   # a folder
    if other.exists():
        code, err = cli("convert", other, "--to", "bsp2", "-o", out)
        assert code == 2 and "Quake 1 and GoldSrc" in err
    assert copy.read_bytes() == source.read_bytes() and not out.exists()
    assert cli("convert", copy, "--to", "bsp2", "--dry-run", "-o", out)[0] == 0
    assert not out.exists()
    assert cli("convert", copy, "--to", "bsp2", "-o", out)[0] == 0
    assert cli("convert", copy, "--to", "bsp2", "--in-place")[0] == 0
    assert copy.read_bytes() == out.read_bytes() != source.read_bytes()
    assert cli("convert", copy, "--to", "bsp29", "--in-place")[0] == 0
    assert copy.read_bytes() == source.read_bytes()


def engine(path: Path) -> tuple[str, dict[str, int]]:
    """What mvdsv says: loaded or the error, and its map checksums."""
    out = subprocess.run(["bash", str(TOOLS / "q1oracle.sh"), str(path)], capture_output=True,
                         text=True, timeout=120, check=False).stdout
    loaded = re.search(r"^loaded: (.*)$", out, re.MULTILINE)
    sums = {name: int(value, 16) for name, value in
            re.findall(r"^checksum: (map_checksum2?) 0x([0-9a-f]+)", out, re.MULTILINE)}
    return (loaded.group(1) if loaded else out), sums


def ours(path: Path) -> dict[str, int]:
    with bspedit.open(path) as bsp:
        sums = bsp.checksums()
    return {name: sums[name] for name in ("map_checksum", "map_checksum2")}


def engine_cases(fast: str) -> list:
    return [pytest.param(*p.values, marks=() if p.values[0] and p.values[0].stem == fast
                         else pytest.mark.full, id=p.id) for p in Q1_MAPS + GOLDSRC_MAPS]


@needs_mvdsv
@pytest.mark.parametrize("path", engine_cases("bsptool_quake_mp_lobby"))
def test_mvdsv_loads_converted_and_moved_maps_with_our_checksums(path, tmp_path):
    start = family(path)
    targets = {"q1": ["bsp2", "2psb"], "bsp2": ["bsp29", "2psb"], "goldsrc": ["bshift"]}[start]
    for to in targets:
        out = tmp_path / f"{to}.bsp"
        converted(path, out, to)
        loaded, sums = engine(out)
        if to == "bshift":          # mvdsv reads v30 in Half-Life's order: the swap is real
            assert loaded.startswith("no (ERROR"), loaded
            continue
        assert loaded == "yes" and sums == ours(out), (to, loaded)
    with bspedit.open(path) as bsp:
        shift(bsp, (16, -32, 8))
        bsp.save(tmp_path / "moved.bsp")
    loaded, sums = engine(tmp_path / "moved.bsp")
    assert loaded == "yes" and sums == ours(tmp_path / "moved.bsp")
