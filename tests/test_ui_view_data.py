"""The data of the ui's Map, Logic, Pakfile and Lumps views (`bspedit.ui.views_*`: plain
library functions, no web stack), each against the verb that prints the same thing: the
picture is `render`'s PNG byte for byte, the findings `ent check --json`'s, the graph `ent
graph --around`'s DOT, the listing `pak list --json`'s, the tables `info`'s and `stats`'."""
from __future__ import annotations

import io
import json
import re

import numpy
import pytest
from PIL import Image

from bspedit.bsp import Bsp
from bspedit.errors import BspError
from bspedit.ui import views_logic, views_lumps, views_map, views_pak
from conftest import CORPUS, run_cli

# (parameters name maps by string: a corpus Path parameter makes a test --full only)
SOURCE = CORPUS / "source" / "valvebsp_testmap.bsp"          # cubemaps, patch materials, a
LOGIC = CORPUS / "source" / "opendm_background01.bsp"        # 3D skybox; outputs, dangling
QUAKE = CORPUS / "q1" / "librequake_lq1m1_bsp2.bsp"
QUAKE3 = CORPUS / "q3" / "openarena_oa_ctf2.bsp"
MAPS = {"source": SOURCE, "logic": LOGIC, "quake1": QUAKE, "quake3": QUAKE3,
        "rocket_turret": CORPUS / "source" / "inscrutable_rocket_turret.bsp",
        "goldsrc": CORPUS / "goldsrc" / "svenquake2_q2dm1_13lumps.bsp"}


def needs(*maps):
    return pytest.mark.skipif(not all(m.exists() for m in maps),
                              reason="../shared/corpus not present")


def cli_json(*args: object) -> dict:
    done = run_cli(*args, "--json")
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)["result"]


@needs(SOURCE, QUAKE)
@pytest.mark.parametrize("name,color", [("source", "height"), ("quake1", "texture")])
def test_the_picture_is_renders(tmp_path, name, color):
    """The Map view's PNG is what `render` writes by default (the 3D skybox left out)."""
    source, out = MAPS[name], tmp_path / "render.png"
    assert run_cli("render", source, "-o", out, "--color", color, "--size", "512").returncode == 0
    with Bsp.open(str(source)) as bsp:
        shown = views_map.picture(bsp, size=512, color=color)
        assert views_map.png(shown) == out.read_bytes()
    if name == "source":
        assert shown.faces_skipped["skybox"] > 0


@needs(QUAKE, QUAKE3)
@pytest.mark.parametrize("name", ["quake1", "quake3"])
def test_markers_stand_where_the_entities_are(name):
    """Each marker is its entity's origin in the picture's pixels; the player starts stand on
    drawn floor (the picture's pixel under them is opaque); a brush entity's marker is its
    model's box centre."""
    with Bsp.open(str(MAPS[name])) as bsp:
        shown = views_map.picture(bsp, size=768)
        entities = list(bsp.entities(lenient=True))
        found = views_map.markers(bsp, entities, shown.frame)
        models = bsp.records("MODELS")
        image = numpy.asarray(shown.image)
    frame = shown.frame
    by_index = {m["index"]: m for m in found}
    starts = 0
    for index, entity in enumerate(entities):
        origin = entity.get("origin")
        model = entity.get("model", "")
        if model.startswith("*"):
            box = models[int(model[1:])]
            centre = (numpy.array(box["mins"].tolist()) + numpy.array(box["maxs"].tolist())) / 2
            if origin:
                centre = centre + numpy.array([float(v) for v in origin.split()])
            marker = by_index[index]
            assert marker["world"] == pytest.approx(centre.tolist())
        elif origin:
            x, y, _ = (float(v) for v in origin.split())
            marker = by_index[index]
            assert marker["x"] == pytest.approx((x - frame.min_x) / frame.scale, abs=0.06)
            assert marker["y"] == pytest.approx((frame.max_y - y) / frame.scale, abs=0.06)
            if entity.get("classname", "").startswith("info_player"):
                starts += 1
                assert image[int(marker["y"]), int(marker["x"]), 3] == 255, entity.pairs()
        else:
            assert index not in by_index
    assert starts


@needs(LOGIC, MAPS["rocket_turret"], MAPS["goldsrc"])
@pytest.mark.parametrize("name", ["logic", "rocket_turret", "goldsrc"])
def test_findings_are_ent_checks(name):
    source = MAPS[name]
    with Bsp.open(str(source)) as bsp:
        found = views_logic.findings(bsp, list(bsp.entities(lenient=True)))
    expected = cli_json("ent", "check", source)
    assert found == {"findings": expected["findings"], "counts": expected["counts"]}
    assert found["counts"]["problem"]


def _dot(text: str) -> tuple[dict[str, str], list[tuple[str, str, str]]]:
    nodes = dict(re.findall(r'^  "(\w+)" \[label="((?:[^"\\]|\\.)*)"', text, re.MULTILINE))
    edges = re.findall(r'^  "(\w+)" -> "(\w+)" \[label="((?:[^"\\]|\\.)*)"', text, re.MULTILINE)
    return nodes, edges


@needs(LOGIC)
@pytest.mark.parametrize("name,depth", [("showers_gate2", 2), ("showers_gate2_light_closed", 1),
                                        ("showers_gate2_light_closed", 3)])
def test_the_graph_is_ent_graph_around(name, depth):
    """The nodes and links around an entity are `ent graph --around`'s; the entity is in
    column 0, what it fires in column 1, what fires it in column -1."""
    done = run_cli("ent", "graph", LOGIC, "--around", name, "--depth", depth, "-o", "-")
    assert done.returncode == 0, done.stderr
    nodes, edges = _dot(done.stdout)
    with Bsp.open(str(LOGIC)) as bsp:
        entities = list(bsp.entities(lenient=True))
        named = [n for n, e in enumerate(entities) if e.get("targetname") == name]
        assert len(named) == 1          # --around takes every entity of the name
        index = named[0]
        graph = views_logic.graph_around(bsp, entities, index, depth)
    label = {n["id"]: n["label"].replace("\n", "\\n") for n in graph["nodes"]}
    assert sorted(label.values()) == sorted(nodes.values())
    assert sorted((label[e["source"]], label[e["target"]], e["label"]) for e in graph["edges"]) \
        == sorted((nodes[a], nodes[b], text) for a, b, text in edges)
    column = {n["id"]: n["column"] for n in graph["nodes"]}
    me = f"e{index}"
    assert column[me] == 0
    for edge in graph["edges"]:
        if edge["source"] == me and edge["target"] != me:
            assert column[edge["target"]] == 1
        elif edge["target"] == me and edge["source"] != me:
            assert column[edge["source"]] == -1


@needs(SOURCE)
def test_an_entity_without_links_is_its_own_graph():
    with Bsp.open(str(SOURCE)) as bsp:
        entities = list(bsp.entities())
        world = views_logic.graph_around(bsp, entities, 0, 2)
        with pytest.raises(BspError, match="no entity 999"):
            views_logic.graph_around(bsp, entities, 999, 2)
    assert [(n["id"], n["classname"], n["column"]) for n in world["nodes"]] == \
        [("e0", "worldspawn", 0)]
    assert world["edges"] == []


@needs(SOURCE)
def test_listing_is_pak_lists():
    with Bsp.open(str(SOURCE)) as bsp:
        listed = views_pak.listing(bsp.pakfile)
    assert listed == cli_json("pak", "list", SOURCE)


@needs(SOURCE)
def test_previews(tmp_path):
    """Text as it is; a cubemap VTF (srctools' reader) as its six faces side by side, the
    size the VTF's header states; what is not previewed says so, naming the entry."""
    with Bsp.open(str(SOURCE)) as bsp:
        pak = bsp.pakfile
        text = views_pak.preview(pak, "MATERIALS/maps/testmap/water/water_sawmill_0_-384_96.vmt")
        assert text.kind == "text" and not text.cut
        assert text.data == pak.read("materials/maps/testmap/water/water_sawmill_0_-384_96.vmt")
        cube = pak.read("materials/maps/testmap/c0_384_96.vtf")
        width, height = int.from_bytes(cube[16:18], "little"), int.from_bytes(cube[18:20], "little")
        shown = views_pak.preview(pak, "materials/maps/testmap/c0_384_96.vtf")
        assert shown.kind == "image" and "cubemap" in shown.note
        picture = Image.open(io.BytesIO(shown.data))
        assert picture.size == (6 * width, height) == (shown.width, shown.height)
        faces = numpy.asarray(picture.convert("RGB")).reshape(height, 6, width, 3)
        assert len({faces[:, n].tobytes() for n in range(6)}) > 1      # six real faces
        with pytest.raises(BspError, match="texelslighting_3.ppl: no preview"):
            views_pak.preview(pak, "texelslighting_3.ppl")
        with pytest.raises(LookupError, match="no pak entry 'nothing.txt'"):
            views_pak.preview(pak, "nothing.txt")


def test_images_big_text_and_damaged_files():
    """A PNG in a pakfile is shown scaled to the preview's side; long text is cut; a broken
    VTF and a broken image are refused with one line."""
    from bspedit.lumps.pakfile import Pakfile

    pak = Pakfile.from_bytes(b"")
    big = Image.new("RGB", (2048, 512), (10, 200, 30))
    data = io.BytesIO()
    big.save(data, "PNG")
    pak.add("materials/big.png", data.getvalue())
    pak.add("scripts/long.txt", b"x" * (views_pak.TEXT_BYTES + 10))
    pak.add("materials/broken.vtf", b"VTF\0" + bytes(60))
    pak.add("materials/broken.jpg", b"\xff\xd8 not a jpeg")
    shown = views_pak.preview(pak, "materials/big.png")
    assert (shown.width, shown.height) == (1024, 256)
    assert Image.open(io.BytesIO(shown.data)).getpixel((5, 5)) == (10, 200, 30, 255)
    long = views_pak.preview(pak, "scripts/long.txt")
    assert long.cut and len(long.data) == views_pak.TEXT_BYTES
    for name in ("materials/broken.vtf", "materials/broken.jpg"):
        with pytest.raises(BspError, match=re.escape(name)):
            views_pak.preview(pak, name)


@needs(SOURCE, QUAKE)
@pytest.mark.parametrize("name", ["source", "quake1"])
def test_the_lumps_tables_are_info_and_stats(name):
    source = MAPS[name]
    with Bsp.open(str(source)) as bsp:
        table = views_lumps.table(bsp)
    assert table["info"] == cli_json("info", source)
    assert table["stats"] == cli_json("stats", source)
    assert table["pending"] == []
    presets = {p["name"]: p for p in table["presets"]}
    if source == QUAKE:
        assert presets["no-hdr"]["refused"] == "preset no-hdr is for Source maps"
    else:
        assert presets["no-hdr"]["refused"] is None
        assert presets["no-hdr"]["lumps"] == ["LIGHTING_HDR", "WORLDLIGHTS_HDR",
                                              "LEAF_AMBIENT_LIGHTING_HDR",
                                              "LEAF_AMBIENT_INDEX_HDR", "FACES_HDR"]
        assert presets["no-hdr"]["game_lumps"] == ["dplh"]


@needs(SOURCE)
def test_a_pending_strip_shows(tmp_path):
    """After a strip preset (pending), the Lumps view marks its lumps and the preset has
    nothing left to strip; the strip saved is `lump strip --preset`'s file."""
    from bspedit.features.presets import strip

    out = tmp_path / "cli.bsp"
    assert run_cli("lump", "strip", SOURCE, "--preset", "no-hdr", "--layout", "stable", "-o",
                   out).returncode == 0
    with Bsp.open(str(SOURCE)) as bsp:
        strip(bsp, preset="no-hdr")
        table = views_lumps.table(bsp)
        bsp.save(str(tmp_path / "page.bsp"))
    names = {row["index"]: row["name"] for row in table["info"]["lumps"]}
    assert {names[i] for i in table["pending"]} >= {"LIGHTING_HDR", "FACES_HDR"}
    stripped = next(p for p in table["presets"] if p["name"] == "no-hdr")
    assert stripped["lumps"] == stripped["game_lumps"] == []
    assert (tmp_path / "page.bsp").read_bytes() == out.read_bytes()


def test_a_picture_refused_says_why():
    with pytest.raises(BspError, match="picture size 8"):
        views_map.picture(None, size=8)      # type: ignore[arg-type]
    with pytest.raises(BspError, match="colour 'lightmap'"):
        views_map.picture(None, color="lightmap")      # type: ignore[arg-type]
