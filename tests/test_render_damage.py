"""Pictures of maps with nothing to draw and of damaged maps (issue 41): a picture with nothing
drawn is not written (exit 1, one line saying why); damaged records are left out and counted
("broken") in every colour mode, in the minimap and in radars, where they used to end in
internal errors (exit 3) or in a frame around a damaged vertex 1e30 units away. Each damaged
map here is a real map with one record changed the way the fuzzing found (tests/fuzzing.py
runs the whole sweep: tests/test_fuzz_pictures.py)."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy
import pytest
from conftest import CORPUS, CORPUS_MAPS
from PIL import Image

import bspedit
from bspedit.cli import invoke
from bspedit.features.render.geometry import WORLD

needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus not present")
pytestmark = needs_corpus


def edited(tmp_path: Path, name: str, edit: Callable[[bspedit.Bsp], None]) -> Path:
    """A copy of corpus map `name` with `edit` made to its records through the API."""
    out = tmp_path / Path(name).name
    with bspedit.open(CORPUS / name) as bsp:
        edit(bsp)
        bsp.save(out)
    return out


def render(path: Path, out: Path, *options: str) -> bspedit.cli.Report:
    return invoke(["render", str(path), "-o", str(out), *options, "--json"], capture=True)


def one_line(done: bspedit.cli.Report, path: Path, start: str) -> None:
    """Exit 1, one line on stderr naming the map and saying why."""
    assert done.code == 1, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"bspedit: {path}: {start}"), done.stderr


def test_a_map_of_triggers_only_writes_no_picture(tmp_path):
    """The corpus map whose only faces are triggers used to give an empty 1024 x 1024 picture
    framed on -0.5..0.5, exit 0. Now: exit 1, one line, nothing written, in every format and
    colour mode that has data, and for a radar."""
    path = CORPUS / "source/inscrutable_rocket_turret.bsp"
    for out, options in ((tmp_path / "a.png", ()), (tmp_path / "b.svg", ()),
                         (tmp_path / "c.png", ("--color", "texture"))):
        done = render(path, out, *options)
        one_line(done, path, "nothing drawn: every face is one the player never sees "
                             "(6 trigger); nothing written")
        assert not out.exists()
    radar = invoke(["render", str(path), "--radar", "csgo", "-o", str(tmp_path / "radar")],
                   capture=True)
    one_line(radar, path, "nothing drawn: every face is one the player never sees")
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_map_with_every_face_damaged_writes_no_picture(tmp_path):
    """Every vertex not a number: every face is broken, nothing drawn, exit 1."""
    def nan_vertexes(bsp: bspedit.Bsp) -> None:
        bsp.records("VERTEXES", writable=True)["point"]["z"] = numpy.nan

    path = edited(tmp_path, "q2/opentdm_2box4.bsp", nan_vertexes)
    done = render(path, tmp_path / "x.png")
    one_line(done, path, "nothing drawn: every face is damaged (")
    with bspedit.open(path) as bsp:
        assert f"({len(bsp.records('FACES'))} broken)" in done.stderr
    assert not (tmp_path / "x.png").exists()


def test_no_upward_face_writes_no_picture(tmp_path):
    """Every face of bsp_tool's Quake 2 lobby turned (its side flag) to face down or
    sideways: nothing faces up."""
    def flip(bsp: bspedit.Bsp) -> None:
        faces = bsp.records("FACES", writable=True)
        up = bsp.records("PLANES")["normal"]["z"][faces["planenum"]] > 0
        faces["side"] = numpy.where(up, 1, 0)

    path = edited(tmp_path, "q2/bsptool_q2_mp_lobby.bsp", flip)
    done = render(path, tmp_path / "x.png")
    one_line(done, path, "nothing drawn: no face the player sees faces up (")


def _up_plane(bsp: bspedit.Bsp) -> int:
    """The plane of the first upward face with others on other planes."""
    faces, planes = bsp.records("FACES"), bsp.records("PLANES")
    return int(faces["planenum"][numpy.flatnonzero(planes["normal"]["z"][faces["planenum"]]
                                                   > 0.9)[0]])


@pytest.mark.parametrize("name", ["q2/opentdm_2box4.bsp", "goldsrc/csdocker_aim_map.bsp",
                                  "source/sdk2013_sdk_vehicles_v19.bsp"])
def test_a_damaged_plane_is_skipped_in_height_colours(name, tmp_path):
    """A plane normal of (3e38, 0, 1), as damaged PLANES bytes give: the height of its faces
    overflowed to NaN, an internal error (IndexError: index -2147458048 is out of bounds).
    Its faces are broken now, the others drawn as before."""
    with bspedit.open(CORPUS / name) as bsp:
        plane = _up_plane(bsp)
        on_it = int((bsp.records("FACES")["planenum"] == plane).sum())

    def damage(bsp: bspedit.Bsp) -> None:
        bsp.records("PLANES", writable=True)["normal"]["x"][plane] = 3e38

    path = edited(tmp_path, name, damage)
    before = render(CORPUS / name, tmp_path / "before.png", "--size", "256")
    after = render(path, tmp_path / "after.png", "--size", "256")
    assert after.code == 0, after.stderr
    skipped = after.result["faces_skipped"]
    assert skipped["broken"] - before.result["faces_skipped"].get("broken", 0) == on_it
    assert 0 < after.result["faces_drawn"] < before.result["faces_drawn"]
    assert after.result["legend"] == before.result["legend"] or \
        after.result["legend"]["max_z"] <= before.result["legend"]["max_z"]


@pytest.mark.parametrize("name", ["q2/opentdm_2box4.bsp", "goldsrc/csdocker_aim_map.bsp",
                                  "goldsrc/svenquake2_q2dm1_13lumps.bsp",
                                  "source/sdk2013_sdk_vehicles_v19.bsp"])
def test_every_7th_planes_byte_inverted(name, tmp_path):
    """The fuzzing's reproducer of that internal error on Quake 2, GoldSrc, Sven Co-op and
    Source maps (IndexError: index -2147458048 is out of bounds for axis 0 with size 65536):
    the faces on damaged planes are broken, the rest drawn, in height and texture colours."""
    import fuzzing

    path = tmp_path / "map.bsp"
    path.write_bytes(fuzzing.LumpDamage(name, 1, "invert7").data())
    for color in ("height", "texture"):
        done = render(path, tmp_path / f"{color}.png", "--color", color, "--size", "256")
        assert done.code == 0, done.stderr
        assert done.result["faces_skipped"]["broken"] > 0 and done.result["faces_drawn"] > 0


@pytest.mark.parametrize("value", [1e30, numpy.inf, numpy.nan])
def test_a_damaged_vertex_keeps_the_frame(value, tmp_path):
    """A vertex 1e30 units away used to frame the map as a dot (4e27 units per pixel); one
    not a number was left out without a word. Its faces are broken now, and the frame, the
    minimap's bounds and the radar's square are the map's."""
    name = "goldsrc/hltopdown_test.bsp"
    with bspedit.open(CORPUS / name) as bsp:
        points = bsp.records("VERTEXES")["point"]
        far = int(numpy.argmax(points["x"]))        # on the map's edge: the frame shrinks

    def damage(bsp: bspedit.Bsp) -> None:
        bsp.records("VERTEXES", writable=True)["point"]["y"][far] = value

    path = edited(tmp_path, name, damage)
    before = render(CORPUS / name, tmp_path / "before.png", "--size", "256").result["frame"]
    done = render(path, tmp_path / "after.png", "--size", "256")
    assert done.code == 0 and done.result["faces_skipped"]["broken"] >= 1
    frame = done.result["frame"]
    assert abs(frame["units_per_pixel"]) <= before["units_per_pixel"] * 1.01
    assert frame["max_x"] - frame["min_x"] > 0.5 * (before["max_x"] - before["min_x"])
    minimap = invoke(["render", str(path), "--minimap", "-o", str(tmp_path / "m.tga"),
                      "--json"], capture=True)
    assert minimap.code == 0
    assert all(abs(v) < WORLD for end in minimap.result["bounds"].values() for v in end)
    radar = invoke(["render", str(path), "--radar", "csgo", "-o", str(tmp_path / "radar"),
                    "--json"], capture=True)
    assert radar.code == 0 and 0 < radar.result["scale"] < 2


def test_a_damaged_patch_is_skipped_in_lightmap_colours(tmp_path):
    """A patch control point not a number in a real Quake 3 map with lightmaps: its
    tessellation level became int(NaN), an internal error (ValueError: Number of samples,
    -9223372036854775807, must be non-negative). The patch is broken now."""
    name = "q3/openarena_oacmpctf3.bsp"

    def damage(bsp: bspedit.Bsp) -> None:
        surfaces = bsp.records("SURFACES")
        patch = numpy.flatnonzero(surfaces["surface_type"] == 2)[0]
        bsp.records("DRAWVERTS", writable=True)["xyz"]["z"][surfaces["first_vert"][patch]] = \
            numpy.nan

    path = edited(tmp_path, name, damage)
    before = render(CORPUS / name, tmp_path / "before.png", "--color", "lightmap",
                    "--size", "256")
    done = render(path, tmp_path / "after.png", "--color", "lightmap", "--size", "256")
    assert done.code == 0, done.stderr
    assert done.result["faces_skipped"]["broken"] == \
        before.result["faces_skipped"].get("broken", 0) + 1
    assert done.result["faces_drawn"] <= before.result["faces_drawn"]


def test_damaged_tree_nodes_are_skipped_in_the_minimap(tmp_path):
    """Quake 1 and GoldSrc minimaps trace the BSP tree: a node whose plane number was damaged
    (past PLANES) was an internal error (IndexError: index 255 is out of bounds for axis 0
    with size 23, on the Quake 1 map with every 5th NODES byte inverted). The columns through
    it end there, counted."""
    name = "goldsrc/csdocker_aim_map.bsp"

    def damage(bsp: bspedit.Bsp) -> None:
        bsp.records("NODES", writable=True)["planenum"][123] = len(bsp.records("PLANES"))

    path = edited(tmp_path, name, damage)
    sound = invoke(["render", str(CORPUS / name), "--minimap", "-o", str(tmp_path / "a.png"),
                    "--json"], capture=True)
    done = invoke(["render", str(path), "--minimap", "-o", str(tmp_path / "b.png"), "--json"],
                  capture=True)
    assert done.code == 0, done.stderr
    assert sound.result["broken"] == 0 and done.result["broken"] == 1
    a, b = (numpy.asarray(Image.open(tmp_path / n)) for n in ("a.png", "b.png"))
    assert 0 < (a != b).mean() < 0.05           # the columns under that node
    fuzzed = tmp_path / "fuzzed.bsp"             # and the fuzzing's own case
    fuzzed.write_bytes(__import__("fuzzing").LumpDamage("q1/slipgate_b_batt0.bsp", 5,
                                                         "invert5").data())
    done = invoke(["render", str(fuzzed), "--minimap", "-o", str(tmp_path / "c.png")],
                  capture=True)
    assert done.code in (0, 1) and "internal error" not in done.stderr, done.stderr
    radar = invoke(["render", str(path), "--radar", "csgo", "-o", str(tmp_path / "radar")],
                   capture=True)
    assert radar.code == 0, radar.stderr


def test_a_cycle_in_the_tree_ends_the_walk(tmp_path):
    """A child pointing back at the head node: the trace and the walk of the world's leaves
    cut it (no endless loop, no BspError), and count it."""
    def damage(bsp: bspedit.Bsp) -> None:
        nodes = bsp.records("NODES", writable=True)
        nodes["children"][123][0] = int(bsp.records("MODELS")["headnode"][0][0])

    path = edited(tmp_path, "goldsrc/csdocker_aim_map.bsp", damage)
    done = invoke(["render", str(path), "--minimap", "-o", str(tmp_path / "m.png"), "--json"],
                  capture=True)
    assert done.code == 0 and done.result["broken"] >= 1


def test_damaged_faces_of_a_source_map_in_lightmap_colours(tmp_path):
    """Every 7th byte of a Source map's FACES inverted (the fuzzing's damage): no face kept a
    polygon, and `uv_affine` reshaped the empty selection, an internal error (ValueError:
    cannot reshape array of size 0 into shape (0,newaxis)). Every face is broken: nothing
    drawn, exit 1, in every colour mode."""
    import fuzzing

    for name, faces in (("source/ths_l4d2_test_mechanic01_v21.bsp", 338),
                        ("source/tf2classified_cp_stronghold_uncompressed_trailing.bsp", 310)):
        path = tmp_path / "map.bsp"
        path.write_bytes(fuzzing.LumpDamage(name, 7, "invert7").data())
        for color in ("lightmap", "height"):
            done = render(path, tmp_path / "x.png", "--color", color, "--size", "256")
            one_line(done, path, f"nothing drawn: every face is damaged ({faces} broken)")


def test_the_lightmaps_json_counts_damaged_light(tmp_path):
    """A lit face pointing past the lighting data: left out of the atlases, counted."""
    name = "q2/bsptool_q2_mp_lobby.bsp"
    with bspedit.open(CORPUS / name) as bsp:
        size = bsp.lumps[bsp.lump_index("LIGHTING")].length

    def damage(bsp: bspedit.Bsp) -> None:
        faces = bsp.records("FACES", writable=True)
        faces["lightofs"][numpy.flatnonzero(faces["lightofs"] >= 0)[0]] = size

    path = edited(tmp_path, name, damage)
    done = invoke(["lightmaps", str(path), "-o", str(tmp_path / "lm"), "--json"], capture=True)
    assert done.code == 0 and done.result["broken"] == 1
    index = json.loads((tmp_path / "lm" / "faces.json").read_text())
    assert len(index["faces"]) == done.result["faces"] == 23
    picture = render(path, tmp_path / "x.png", "--color", "lightmap")
    assert picture.code == 0 and picture.result["faces_skipped"]["light_broken"] == 1


def test_light_blocks_claiming_the_lighting_many_times_over(tmp_path):
    """Every 7th VERTEXES byte of a GoldSrc map inverted: thousands of faces' extents grew,
    their blocks each inside the lighting lump but together many times its size, an atlas of
    3343 x 3048 luxels (MemoryError under the fuzzing's 1 GiB cap). The largest blocks are
    left out until they claim the lump at most four times (in every corpus map they claim it
    once at most), counted."""
    import fuzzing

    path = tmp_path / "map.bsp"
    path.write_bytes(fuzzing.LumpDamage("goldsrc/plague_zm_castle_siege2.bsp", 3,
                                        "invert7").data())
    done = invoke(["lightmaps", str(path), "-o", str(tmp_path / "lm"), "--json"], capture=True)
    assert done.code == 0, done.stderr
    assert done.result["broken"] > 1000 and done.result["width"] * done.result["height"] < 2e6
    assert "lit faces' light is damaged" in done.stderr


@pytest.mark.full
@pytest.mark.parametrize("path", CORPUS_MAPS, ids=[f"{p.parent.name}/{p.stem}"
                                                   for p in CORPUS_MAPS])
def test_no_real_map_has_a_broken_record(path, tmp_path):
    """No false alarm: the rules that find damage find none in a sound map, in the picture,
    the minimap and the light."""
    done = render(path, tmp_path / "x.png", "--size", "64")
    if done.code == 0:
        assert "broken" not in done.result["faces_skipped"]
    minimap = invoke(["render", str(path), "--minimap", "-o", str(tmp_path / "m.tga"),
                      "--size", "64", "--json"], capture=True)
    assert minimap.code == 0 and minimap.result["broken"] == 0, minimap.stderr
    light = invoke(["lightmaps", str(path), "-o", str(tmp_path / "lm"), "--json"],
                   capture=True)
    assert light.code in (0, 1) and light.result["broken"] == 0


@pytest.mark.parametrize("name, lump, how, faces", [
    ("source/bsptool_tf2_test_displacement.bsp", 7, "invert7", 2195),
    ("source/tf2classified_cp_stronghold_lzma.bsp", 3, "invert5", 310)])
def test_every_face_damaged_by_the_fuzzing(name, lump, how, faces, tmp_path):
    """Found by the sweep: displacements on a map with no face left (IndexError: index 0 is
    out of bounds for axis 0 with size 0); vertices whose damaged bytes are signalling NaNs
    (numpy's "invalid value encountered in cast" on stderr besides the one line). Nothing
    drawn, exit 1, one line, in every picture."""
    import fuzzing

    path = tmp_path / "map.bsp"
    path.write_bytes(fuzzing.LumpDamage(name, lump, how).data())
    for options in ((), ("--color", "texture")):
        done = render(path, tmp_path / "x.svg", *options)
        one_line(done, path, f"nothing drawn: every face is damaged ({faces} broken)")
    done = render(path, tmp_path / "x.png", "--color", "lightmap")     # no lit face left
    one_line(done, path, "n")
    radar = invoke(["render", str(path), "--radar", "csgo", "-o", str(tmp_path / "radar")],
                   capture=True)
    one_line(radar, path, f"nothing drawn: every face is damaged ({faces} broken)")


def test_a_damaged_world_box_gives_way_to_the_vertices(tmp_path):
    """Quake 3's minimap is framed on MODELS 0's box, as q3map2's; a box not a number (or
    beyond the world) is replaced by the box of the map's sound vertices (DRAWVERTS)."""
    name = "q3/bsptool_q3_test_bigbox.bsp"

    def damage(bsp: bspedit.Bsp) -> None:
        bsp.records("MODELS", writable=True)["mins"]["x"][0] = numpy.nan

    path = edited(tmp_path, name, damage)
    done = invoke(["render", str(path), "--minimap", "-o", str(tmp_path / "m.png"), "--json"],
                  capture=True)
    assert done.code == 0, done.stderr
    with bspedit.open(path) as bsp:
        points = bsp.records("DRAWVERTS")["xyz"]
        box = [[float(points[a].min()) for a in "xyz"], [float(points[a].max()) for a in "xyz"]]
    assert [list(done.result["bounds"]["mins"]), list(done.result["bounds"]["maxs"])] == box
