"""`render`'s playable map (issue 41): the Source 3D skybox and overhead covers are left out of
pictures, radars and minimaps unless `--skybox` / `--overhead`, by the rules of
`bspedit.features.render.playable`; radar and minimap files are named for the output map or
`--name`.

The corpus has one Source map with a 3D skybox (valvebsp_testmap: a sky_camera in a room of
its own, area 5, walled with toolsskybox). The other cases are real maps changed with
bspedit's API: a CS:GO arena map (16 arenas, each its own area) whose westmost arena loses its
spawns and gets a sky_camera (a skybox room with real floors); the test map with its camera
moved into the main hall and its spawn into a side room (the skybox then holds the brush
entities and displacements); a Quake 1 map with a func_illusionary made of copies of its
floors, lifted far above them (the hub map of the issue, whose black cover hid everything).
Spawns, leaf boxes and areas are read from the lumps here, not through the rules' code."""
from __future__ import annotations

import io
import re
import shutil
import zipfile
from pathlib import Path

import numpy
import pytest
from conftest import CORPUS, corpus_maps
from PIL import Image

import bspedit
from bspedit.cli import invoke
from bspedit.features.render.playable import playable
from bspedit.features.render.shapes import geometry

SOURCE = CORPUS / "source"
TESTMAP = SOURCE / "valvebsp_testmap.bsp"          # sky_camera at -2048 0 336, area 5
ARENAS = SOURCE / "tg1v1_am_grass2_csgo_v21.bsp"
ONE_AREA = SOURCE / "bsptool_tf2_test_displacement.bsp"
TOOLS = SOURCE / "bspsrc_csgo_tooltextures_v21.bsp"
QUAKE1 = CORPUS / "q1" / "librequake_start_bspx.bsp"


def need(*paths: Path) -> None:
    if not all(p.exists() for p in paths):
        pytest.skip("../shared/corpus not present")


def render(*argv: object) -> dict:
    report = invoke(["render", *map(str, argv)], capture=True)
    assert report.code == 0, report.stderr
    return report.result


def pixels(path: Path) -> numpy.ndarray:
    return numpy.asarray(Image.open(path))


def origins(path: Path, prefix: str) -> numpy.ndarray:
    """(N, 3) origins of the entities whose classname starts with `prefix`."""
    with bspedit.open(path) as bsp:
        text = bsp.read_lump("ENTITIES").decode("latin-1")
    found = []
    for block in re.findall(r"\{([^{}]*)\}", text):
        keys = dict(re.findall(r'"([^"]*)"\s+"([^"]*)"', block))
        if keys.get("classname", "").startswith(prefix) and "origin" in keys:
            found.append([float(v) for v in keys["origin"].split()])
    return numpy.array(found).reshape(-1, 3)


def area_box(path: Path, area: int) -> tuple[numpy.ndarray, numpy.ndarray]:
    """The xy box of every leaf of `area` (LEAFS: area is the low 9 bits of area_and_flags)."""
    with bspedit.open(path) as bsp:
        leafs = bsp.records("LEAFS")
        chosen = leafs[(leafs["area_and_flags"] & 0x1FF) == area]
        low = numpy.array([chosen["mins"]["x"].min(), chosen["mins"]["y"].min()], float)
        high = numpy.array([chosen["maxs"]["x"].max(), chosen["maxs"]["y"].max()], float)
    return low, high


def holds(frame: dict, points: numpy.ndarray) -> numpy.ndarray:
    """Which points' xy lie inside the frame."""
    return ((points[:, 0] >= frame["min_x"]) & (points[:, 0] <= frame["max_x"]) &
            (points[:, 1] >= frame["min_y"]) & (points[:, 1] <= frame["max_y"]))


def meets(frame: dict, box: tuple[numpy.ndarray, numpy.ndarray]) -> bool:
    low, high = box
    return bool(low[0] < frame["max_x"] and high[0] > frame["min_x"] and
                low[1] < frame["max_y"] and high[1] > frame["min_y"])


def edited(source: Path, out: Path, edit) -> Path:
    with bspedit.open(source) as bsp:
        edit(bsp)
        bsp.save(str(out))
    return out


def move(classname: str, origin: str):
    def edit(bsp) -> None:
        for entity in bsp.entities().find(classname=classname):
            entity["origin"] = origin
    return edit


def arena_skybox(bsp) -> None:
    """The westmost spawn's arena (the area whose leaves' box holds it) becomes a skybox
    room: the spawns in that box removed, a sky_camera at the westmost one's place."""
    entities = bsp.entities()
    spawns = [e for e in entities if e["classname"].startswith("info_player_")]
    points = numpy.array([[float(v) for v in e["origin"].split()] for e in spawns])
    west = points[numpy.argmin(points[:, 0])]
    leafs = bsp.records("LEAFS")
    area = leafs["area_and_flags"] & 0x1FF
    inside = (leafs["mins"]["x"] <= west[0]) & (west[0] <= leafs["maxs"]["x"]) & \
        (leafs["mins"]["y"] <= west[1]) & (west[1] <= leafs["maxs"]["y"]) & (area > 0)
    chosen = leafs[area == area[inside][0]]
    for entity, (x, y, _) in zip(spawns, points):
        if chosen["mins"]["x"].min() <= x <= chosen["maxs"]["x"].max() and \
                chosen["mins"]["y"].min() <= y <= chosen["maxs"]["y"].max():
            entities.remove(entity)
    entities.add_entity({"classname": "sky_camera", "scale": "16",
                         "origin": f"{west[0]:g} {west[1]:g} {west[2] + 32:g}"})


def test_the_testmap_skybox_room_is_left_out_and_comes_back(tmp_path):
    need(TESTMAP)
    spawns, camera = origins(TESTMAP, "info_player_"), origins(TESTMAP, "sky_camera")
    room = area_box(TESTMAP, 5)
    result = render(TESTMAP, "-o", tmp_path / "a.png", "--json")
    assert result["playable"]["skybox"] == {"areas": [5], "faces": 16, "models": [],
                                            "left_out": True, "reason": None}
    assert result["faces_skipped"]["skybox"] == 16
    assert holds(result["frame"], spawns).all() and not holds(result["frame"], camera).any()
    assert not meets(result["frame"], room)
    back = render(TESTMAP, "-o", tmp_path / "b.png", "--skybox")
    assert holds(back["frame"], camera).all() and holds(back["frame"], spawns).all()
    assert room[0][0] >= back["frame"]["min_x"]            # the whole room framed
    assert back["playable"]["skybox"]["left_out"] is False
    assert back["faces_drawn"] > result["faces_drawn"] and "skybox" not in back["faces_skipped"]
    # the skybox's sky floor is drawn pale blue where the room is
    image, frame = pixels(tmp_path / "b.png"), back["frame"]
    scale = frame["units_per_pixel"]
    col = int((camera[0, 0] - frame["min_x"]) / scale)
    row = int((frame["max_y"] - camera[0, 1]) / scale)
    assert tuple(image[row, col]) == (172, 198, 222, 255)


def test_an_arena_made_a_skybox_leaves_the_picture_radar_and_minimap(tmp_path):
    need(ARENAS)
    copy = edited(ARENAS, tmp_path / ARENAS.name, arena_skybox)
    spawns, camera = origins(copy, "info_player_"), origins(copy, "sky_camera")
    assert len(spawns) == 90
    result = render(copy, "-o", tmp_path / "a.png", "--json")
    skybox = result["playable"]["skybox"]
    assert skybox["left_out"] and skybox["faces"] > 50 and len(skybox["areas"]) == 1
    arena = area_box(copy, skybox["areas"][0])
    assert holds(result["frame"], spawns).all() and not holds(result["frame"], camera).any()
    assert not meets(result["frame"], arena)
    # --skybox: the picture of the map as it was
    render(copy, "-o", tmp_path / "b.png", "--skybox")
    render(ARENAS, "-o", tmp_path / "original.png")
    assert numpy.array_equal(pixels(tmp_path / "b.png"), pixels(tmp_path / "original.png"))
    # radar: a square around the playable map (the skybox may fall in its letterbox band,
    # but nothing of it is drawn there); --skybox: the original's square and picture
    radars = {}
    for name, path, options in (("copy", copy, ()), ("all", copy, ("--skybox",)),
                                ("original", ARENAS, ())):
        result = render(path, "--radar", "csgo", "-o", tmp_path / name, "--name", "r",
                        "--json", *options)
        dds = Image.open(tmp_path / name / "resource/overviews/r_radar.dds")
        radars[name] = (result, numpy.asarray(dds.convert("RGBA")))
    radar, image = radars["copy"]
    side = radar["scale"] * 1024
    square = {"min_x": radar["pos_x"], "max_x": radar["pos_x"] + side,
              "min_y": radar["pos_y"] - side, "max_y": radar["pos_y"]}
    assert holds(square, spawns).all() and radar["playable"]["skybox"]["left_out"]
    assert side < radars["original"][0]["scale"] * 1024
    (x0, y0), (x1, y1) = arena
    cols = slice(int((x0 - square["min_x"]) / radar["scale"]) + 2,
                 int((x1 - square["min_x"]) / radar["scale"]) - 1)
    rows = slice(int((square["max_y"] - y1) / radar["scale"]) + 2,
                 int((square["max_y"] - y0) / radar["scale"]) - 1)
    assert image[rows, cols, 3].max() == 0
    assert {k: v for k, v in radars["all"][0].items() if k not in ("output", "playable")} == \
        {k: v for k, v in radars["original"][0].items() if k not in ("output", "playable")}
    assert numpy.array_equal(radars["all"][1], radars["original"][1])
    # minimap: bounds cut to the playable world; --skybox gives the original's bytes
    mini = render(copy, "--minimap", "-o", tmp_path / "m.tga", "--json")
    assert mini["bounds"]["mins"][0] > arena[1][0] and mini["playable"]["skybox"]["left_out"]
    render(copy, "--minimap", "-o", tmp_path / "m_all.tga", "--skybox")
    render(ARENAS, "--minimap", "-o", tmp_path / "m_orig.tga")
    assert (tmp_path / "m_all.tga").read_bytes() == (tmp_path / "m_orig.tga").read_bytes()
    assert (tmp_path / "m.tga").read_bytes() != (tmp_path / "m_orig.tga").read_bytes()


def test_brush_entities_and_displacements_only_the_skybox_sees(tmp_path):
    """The test map with its camera in the main hall (area 1: the 4 displacements and the 3
    brush entities) and its spawn in a side room: the hall is the skybox."""
    need(TESTMAP)
    copy = edited(TESTMAP, tmp_path / "hall.bsp", lambda bsp: (
        move("sky_camera", "-640 -128 64")(bsp), move("info_player_teamspawn", "-640 768 300")(bsp)))
    with bspedit.open(copy) as bsp:
        geo = geometry(bsp)
        found = playable(bsp, geo).skybox
        displaced = numpy.flatnonzero(bsp.records("FACES")["dispinfo"] >= 0)
        leafs = bsp.records("LEAFS")
    assert found.left_out and found.areas == [1] and found.models == [1, 2, 3]
    assert len(displaced) == 4 and found.faces[displaced].all()
    assert found.faces[geo.face_model > 0].all()
    result = render(copy, "-o", tmp_path / "a.png", "--json")
    hall = area_box(copy, 1)
    side_rooms = leafs[numpy.isin(leafs["area_and_flags"] & 0x1FF, [2, 3, 4])]
    frame = result["frame"]
    assert frame["min_x"] <= side_rooms["mins"]["x"].min() <= side_rooms["maxs"]["x"].max() \
        <= frame["max_x"]
    assert frame["max_x"] < hall[1][0] and holds(frame, origins(copy, "info_player_")).all()
    assert not holds(frame, origins(copy, "sky_camera")).any()


@pytest.mark.parametrize("case,reason", [
    ("solid", "the sky_camera is in solid"),
    ("spawn", "a player spawn stands in the sky_camera's area 5"),
    ("one area", "the map has one area")])
def test_nothing_is_left_out_when_the_camera_is_no_skybox(case, reason, tmp_path):
    need(TESTMAP, ONE_AREA)
    source, edit = {
        "solid": (TESTMAP, move("sky_camera", "8000 8000 8000")),
        "spawn": (TESTMAP, move("info_player_teamspawn", "-2048 0 340")),
        "one area": (ONE_AREA, lambda bsp: bsp.entities().add_entity(
            {"classname": "sky_camera", "origin": "0 0 64", "scale": "16"}))}[case]
    copy = edited(source, tmp_path / "copy.bsp", edit)
    result = render(copy, "-o", tmp_path / "a.png", "--json")
    skybox = result["playable"]["skybox"]
    assert skybox["left_out"] is False and skybox["reason"] == reason
    assert "skybox" not in result["faces_skipped"]
    if case != "spawn":         # the same picture as the map without the change
        original = render(source, "-o", tmp_path / "b.png")
        assert original["frame"] == result["frame"]
        assert numpy.array_equal(pixels(tmp_path / "a.png"), pixels(tmp_path / "b.png"))


def lifted_floors(lift: float, count: int | None = None):
    """An edit adding a func_illusionary made of copies of the world's floors (or the first
    `count` of them), its `origin` lifted by `lift` units."""
    def edit(bsp) -> None:
        geo = geometry(bsp)
        floor = (geo.face_model[geo.face] == 0) & (geo.face_hidden[geo.face] == 0) & \
            (geo.normal[:, 2] >= 0.7)
        chosen = numpy.unique(geo.face[floor])[:count]
        faces, models = bsp.records("FACES"), bsp.records("MODELS")
        model = models[:1].copy()
        model["firstface"], model["numfaces"] = len(faces), len(chosen)
        bsp.replace_records("FACES", numpy.concatenate([faces, faces[chosen]]))
        bsp.replace_records("MODELS", numpy.concatenate([models, model]))
        bsp.entities().add_entity({"classname": "func_illusionary",
                                   "model": f"*{len(models)}", "origin": f"0 0 {lift:g}"})
    return edit


def test_an_overhead_cover_is_left_out_of_the_floor_plan(tmp_path):
    need(QUAKE1)
    with bspedit.open(QUAKE1) as bsp:
        models = len(bsp.records("MODELS"))
    copy = edited(QUAKE1, tmp_path / "hub.bsp", lifted_floors(2500))
    result = render(copy, "-o", tmp_path / "a.png", "--json")
    assert result["playable"]["overhead_models"] == [models]
    original = render(QUAKE1, "-o", tmp_path / "b.png", "--json")
    assert result["frame"] == original["frame"] and result["legend"] == original["legend"]
    assert numpy.array_equal(pixels(tmp_path / "a.png"), pixels(tmp_path / "b.png"))
    with bspedit.open(copy) as bsp:
        assert result["faces_skipped"]["overhead"] == int(bsp.records("MODELS")[-1]["numfaces"])
    cover = render(copy, "-o", tmp_path / "c.png", "--overhead", "--json")
    assert cover["playable"]["overhead_models"] == []
    assert cover["legend"]["max_z"] > original["legend"]["max_z"] + 2000
    assert not numpy.array_equal(pixels(tmp_path / "c.png"), pixels(tmp_path / "b.png"))
    # the rule's edges: a cover whose lowest floor is below the world's highest, and a cover
    # of one floor (less than half the map), are floors
    for name, edit in (("low", lifted_floors(float(original["legend"]["max_z"]) -
                                             float(original["legend"]["min_z"]) - 1)),
                       ("small", lifted_floors(2500, count=1))):
        kept = render(edited(QUAKE1, tmp_path / f"{name}.bsp", edit), "-o",
                      tmp_path / f"{name}.png", "--json")
        assert kept["playable"]["overhead_models"] == [], name


@pytest.mark.parametrize("path", corpus_maps())
def test_no_corpus_map_loses_a_floor(path):
    """On the real maps the overhead rule leaves nothing out, and the only skybox is the test
    map's (pictures and reference footprints: test_render.py)."""
    with bspedit.open(path) as bsp:
        geo = geometry(bsp)
        plan = playable(bsp, geo)
    assert plan.overhead == []
    assert plan.skybox.left_out == (path.name == TESTMAP.name)
    assert plan.keep.all() == (path.name != TESTMAP.name)


def test_radar_files_follow_the_output_map_and_name(tmp_path):
    need(TOOLS)
    pool = tmp_path / "pool.bsp"
    shutil.copyfile(TOOLS, pool)
    render(pool, "--radar", "css", "--pack", "-o", tmp_path / "pool_radar.bsp")
    with zipfile.ZipFile(io.BytesIO(_pakfile(tmp_path / "pool_radar.bsp"))) as pak:
        names = set(pak.namelist())
        text = pak.read("resource/overviews/pool_radar.txt").decode("ascii")
    assert {"resource/overviews/pool_radar.txt", "resource/overviews/pool_radar_radar.dds",
            "materials/overviews/pool_radar.vtf", "materials/overviews/pool_radar.vmt"} <= names
    assert not any("overviews/pool." in n or "overviews/pool_radar.dds" in n for n in names)
    assert text.startswith('"pool_radar"\n{') and '"overviews/pool_radar"' in text
    named = render(pool, "--radar", "csgo", "-o", tmp_path / "dir", "--name", "de_pool", "--json")
    assert named["files"] == ["resource/overviews/de_pool.txt",
                              "resource/overviews/de_pool_radar.dds"]
    folder = render(pool, "--radar", "csgo", "-o", tmp_path / "dir2", "--json")
    assert folder["name"] == "pool"                     # a folder is no map: the input's name
    shutil.copyfile(TOOLS, tmp_path / "inplace.bsp")
    render(tmp_path / "inplace.bsp", "--radar", "csgo", "--pack", "--in-place")
    with zipfile.ZipFile(io.BytesIO(_pakfile(tmp_path / "inplace.bsp"))) as pak:
        assert "resource/overviews/inplace.txt" in pak.namelist()
    # the minimap without -o: NAME.tga beside the map
    render(pool, "--minimap", "--name", "pool_mini")
    assert (tmp_path / "pool_mini.tga").read_bytes()[:3] == b"\0\0\3"
    # careless names: refused, nothing written
    for argv, words in (((pool, "--radar", "csgo", "-o", tmp_path / "x", "--name", "a/b"),
                         "cannot name"),
                        ((pool, "--radar", "csgo", "-o", tmp_path / "x", "--name", ""),
                         "cannot name"),
                        ((pool, "--radar", "csgo", "--pack", "-o", tmp_path / "é.bsp"),
                         "--name"),
                        ((pool, "-o", tmp_path / "x.png", "--name", "n"), "--radar"),
                        ((pool, "--minimap", "-o", tmp_path / "x.png", "--name", "n"),
                         "leave out --name")):
        report = invoke(["render", *map(str, argv)], capture=True)
        assert report.code == 2 and words in report.stderr, (argv, report.stderr)
    assert not (tmp_path / "x").exists() and not (tmp_path / "é.bsp").exists()
    assert not (tmp_path / "x.png").exists()


def _pakfile(path: Path) -> bytes:
    with bspedit.open(path) as bsp:
        return bsp.read_lump("PAKFILE")
