"""`bspedit render` (issue 33): every family renders in every colour mode, as PNG and SVG;
the footprint matches an independent rasterisation of the upward faces read straight from
the lumps (`render_oracle`, what ericw-tools bsputil --svg draws) with IoU >= 0.95; the frame
the picture reports maps pixels back to world coordinates; the surface nearest the viewer
wins; careless command lines write nothing."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from xml.etree import ElementTree

import numpy
import pytest
import render_oracle
from conftest import CONSOLE_MAP, CORPUS, corpus_maps, run_cli
from PIL import Image

import bspedit
from bspedit.cli import invoke
from bspedit.features.render.colors import ramp
from bspedit.features.render.picture import topdown
from bspedit.features.render.writers import FRAME_KEY

FAST = ["q1/slipgate_b_batt0.bsp", "q1/bsptool_remakequake_mp_lobby_bsp2.bsp",
        "goldsrc/hltopdown_test.bsp", "q2/bsptool_q2_mp_lobby.bsp",
        "q3/bspconvert_test_nonsolid_patch.bsp", "source/bspsrc_csgo_tooltextures_v21.bsp",
        "source/bsptool_tf2_test_displacement.bsp"]
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus not present")


def _render(path: Path, out: Path, *options: str) -> dict:
    report = invoke(["render", str(path), "-o", str(out), *options], capture=True)
    assert report.code == 0, report.stderr
    return report.result


def _has_light(path: Path) -> bool:
    from bspedit.features.render.lightmap import atlases

    with bspedit.open(path) as bsp:
        return atlases(bsp) is not None


#: corpus maps with nothing to draw (only trigger faces): every mode exits 1, writing nothing
NOTHING_DRAWN = {"inscrutable_rocket_turret"}


def _every_mode(path: Path, tmp_path: Path) -> None:
    modes = ["height", "texture"] + (["lightmap"] if _has_light(path) else [])
    if path.stem in NOTHING_DRAWN:
        for color in modes:
            out = tmp_path / f"{path.stem}.{color}.png"
            done = invoke(["render", str(path), "-o", str(out), "--color", color], capture=True)
            assert done.code == 1 and "nothing drawn" in done.stderr and not out.exists()
        return
    for color in modes:
        for kind in ("png", "svg"):
            out = tmp_path / f"{path.stem}.{color}.{kind}"
            result = _render(path, out, "--color", color, "--size", "256")
            assert result["color"] == color and result["format"] == kind
            if kind == "png":
                image = Image.open(out)
                assert image.mode == "RGBA"
                assert image.size == (result["frame"]["width"], result["frame"]["height"])
                alpha = numpy.asarray(image.getchannel("A"))
                assert (alpha > 0).any() == (result["faces_drawn"] > 0)
            else:
                text = out.read_text()
                root = ElementTree.fromstring(text)       # well-formed XML
                paths = root.findall(".//{http://www.w3.org/2000/svg}path")
                assert len(paths) == result["faces_drawn"]
                meta = root.find("{http://www.w3.org/2000/svg}metadata")
                assert json.loads(meta.text) == result["frame"]
                assert f'viewBox="0 0 {result["frame"]["width"]} ' in text


@needs_corpus
@pytest.mark.parametrize("name", FAST)
def test_every_family_renders_in_every_mode(name, tmp_path):
    _every_mode(CORPUS / name, tmp_path)


@pytest.mark.full
@pytest.mark.parametrize("path", corpus_maps())
def test_every_corpus_map_renders_in_every_mode(path, tmp_path):
    _every_mode(path, tmp_path)


@pytest.mark.skipif(not CONSOLE_MAP.exists(), reason="../shared/corpus-console not present")
def test_console_map_renders(tmp_path):
    """The big-endian Xbox 360 map (faces in FACES_HDR only, displacements) renders in
    every mode, its displaced faces drawn as their displacements."""
    _every_mode(CONSOLE_MAP, tmp_path)
    with bspedit.open(CONSOLE_MAP) as bsp:
        picture = topdown(bsp, size=256)
        based = set(numpy.flatnonzero(bsp.records("FACES_HDR")["dispinfo"] >= 0).tolist())
    assert picture.faces_drawn > 100
    assert based and set(picture.geometry.displaced.tolist()) == based


def _oracle_maps() -> list:
    names = [m for m in corpus_maps("q1") + corpus_maps("goldsrc") + corpus_maps("q2")]
    fast = {"q1/librequake_start_bspx", "goldsrc/hltopdown_test",
            "goldsrc/csdocker_aim_map", "q2/opentdm_2box4", "q2/bsptool_q2_mp_lobby"}
    out = []
    for param in names:
        path = param.values[0]
        if path is not None and path.read_bytes()[:4] in (b"BSP2", b"2PSB"):
            continue        # the oracle reads BSP 29, BSP 30 and IBSP 38 layouts only
        if path is not None and path.stem == "slipgate_b_batt0":
            continue        # a 24-unit item box: one pixel of antialiased fringe is 8% of it
        key = "" if path is None else f"{path.parent.name}/{path.stem}"
        marks = list(param.marks) + ([] if key in fast else [pytest.mark.full])
        out.append(pytest.param(path, id=param.id, marks=marks))
    return out


@pytest.mark.parametrize("path", _oracle_maps())
def test_footprint_matches_an_independent_rasterisation(path, tmp_path):
    """IoU >= 0.95 between `render --models all`'s alpha mask, mapped through the frame its
    PNG reports, and the upward faces rasterised at 1 unit per pixel from the raw lumps
    (sky included: bsputil --svg draws it, and so does render unless --no-sky)."""
    faces = render_oracle.read_faces(path)
    up = [f for f in faces if f.normal_z > 0]
    points = numpy.concatenate([f.points for f in up])
    lo, hi = points[:, :2].min(axis=0), points[:, :2].max(axis=0)
    size = min(4 * int(max(hi - lo) + 1), 2048)     # fine enough for a 24-unit map
    out = tmp_path / "top.png"
    _render(path, out, "--models", "all", "--size", str(size), "--no-legend")
    image = Image.open(out)
    frame = json.loads(image.text[FRAME_KEY])
    min_x, max_y, scale = frame["min_x"], frame["max_y"], frame["units_per_pixel"]
    width, height = int(frame["max_x"] - min_x) + 1, int(max_y - frame["min_y"]) + 1
    oracle = render_oracle.footprint(faces, min_x, max_y, width, height)
    cols, rows = numpy.meshgrid(numpy.arange(width), numpy.arange(height))
    px = numpy.clip(((cols + 0.5) / scale).astype(int), 0, frame["width"] - 1)
    py = numpy.clip(((rows + 0.5) / scale).astype(int), 0, frame["height"] - 1)
    ours = numpy.asarray(image.getchannel("A"))[py, px] > 128     # more than half covered
    union = (ours | oracle).sum()
    iou = (ours & oracle).sum() / union
    assert union > 0 and iou >= 0.95, f"IoU {iou:.4f}"


@needs_corpus
def test_frame_maps_a_face_centre_to_its_pixel(tmp_path):
    """The highest upward face of a map: its centre, mapped through the frame of the JSON
    result and of the PNG's tEXt chunk, is a drawn pixel in the top colour of the ramp."""
    path = CORPUS / "q2/opentdm_q2rdm2_indexorder.bsp"
    faces = [f for f in render_oracle.read_faces(path) if f.normal_z > 0.99]
    top = max(faces, key=lambda f: (round(f.height), len(f.points)))
    out = tmp_path / "top.png"
    result = _render(path, out, "--no-legend")
    image = Image.open(out)
    assert json.loads(image.text[FRAME_KEY]) == result["frame"]
    frame = result["frame"]
    x, y = top.points[:, :2].mean(axis=0)
    px = int((x - frame["min_x"]) / frame["units_per_pixel"])
    py = int((frame["max_y"] - y) / frame["units_per_pixel"])
    pixel = numpy.asarray(image)[py, px]
    assert pixel[3] == 255
    assert result["legend"]["max_z"] == pytest.approx(max(f.points[:, 2].max() for f in faces
                                                          if f.normal_z > 0))
    expected = ramp(numpy.array([(top.height - result["legend"]["min_z"]) /
                                 (result["legend"]["max_z"] - result["legend"]["min_z"])]))[0]
    assert numpy.abs(pixel[:3].astype(float) - expected).max() <= 4


@needs_corpus
def test_the_surface_nearest_the_viewer_wins(tmp_path):
    """Where two flat upward faces overlap in xy, the picture shows the upper one's height
    colour: found from the raw lumps, points well inside both faces."""
    path = CORPUS / "q2/opentdm_q2rdm2_indexorder.bsp"
    flat = [f for f in render_oracle.read_faces(path) if f.normal_z > 0.99]
    with bspedit.open(path) as bsp:
        picture = topdown(bsp, size=1024, legend=False)
    frame, pixels = picture.frame, numpy.asarray(picture.image)
    low_z, high_z = picture.legend["min_z"], picture.legend["max_z"]
    checked = 0
    for upper in sorted(flat, key=lambda f: -f.height):
        centre = upper.points[:, :2].mean(axis=0)
        covering = [f for f in flat if render_oracle.inside(f.points, centre[:1],
                                                            centre[1:]).all()]
        lower = [f for f in covering if f.height < upper.height - 16]
        if max(f.height for f in covering) > upper.height or not lower:
            continue
        px = int((centre[0] - frame.min_x) / frame.scale)
        py = int((frame.max_y - centre[1]) / frame.scale)
        window = pixels[py - 1:py + 2, px - 1:px + 2, :3].reshape(-1, 3).astype(float)
        want = ramp(numpy.array([(upper.height - low_z) / (high_z - low_z)]))[0]
        hidden = ramp(numpy.array([(lower[0].height - low_z) / (high_z - low_z)]))[0]
        best = numpy.abs(window - want).max(axis=1).min()
        assert best <= 4 and best < numpy.abs(window - hidden).max(axis=1).min()
        checked += 1
        if checked == 5:
            break
    assert checked >= 3


@needs_corpus
def test_patches_and_displacements_are_drawn(tmp_path):
    """A Quake 3 map's patches add triangles of their own; a Source map's displaced faces
    are drawn as their displacement (one path per face in the SVG)."""
    with bspedit.open(CORPUS / "q3/openarena_oa_ctf2.bsp") as bsp:
        records = bsp.records("SURFACES")
        picture = topdown(bsp, size=512)
        patches = set(numpy.flatnonzero(records["surface_type"] == 2).tolist())
        drawn = set(picture.geometry.face[picture.order].tolist())
    assert patches & drawn
    with bspedit.open(CORPUS / "source/sdk2013_sdk_vehicles_v19.bsp") as bsp:
        picture = topdown(bsp, size=512)
        based = set(numpy.flatnonzero(bsp.records("FACES")["dispinfo"] >= 0).tolist())
    assert set(picture.geometry.displaced.tolist()) == based
    assert len(based & set(picture.geometry.face[picture.order].tolist())) > 40


@needs_corpus
def test_models_world_leaves_brush_entities_out(tmp_path):
    path = CORPUS / "q1/librequake_start_bspx.bsp"
    every, world = (_render(path, tmp_path / f"{m}.png", "--models", m)
                    for m in ("all", "world"))
    assert world["faces_skipped"]["not_world"] > 0
    assert world["faces_drawn"] < every["faces_drawn"]


@needs_corpus
@pytest.mark.parametrize("name", ["goldsrc/hltopdown_test.bsp",
                                  "q3/bspconvert_test_nonsolid_patch.bsp"])
def test_no_light_data_is_exit_1_in_both_verbs(name, tmp_path):
    """Issue 41: `render --color lightmap` exited 2 and `lightmaps` 1 for the same map. Both
    exit 1 (nothing to do), in one line naming the map, and write nothing."""
    path = str(CORPUS / name)
    picture, folder = tmp_path / "x.png", tmp_path / "light"
    rendered = invoke(["render", path, "-o", str(picture), "--color", "lightmap"], capture=True)
    listed = invoke(["lightmaps", path, "-o", str(folder)], capture=True)
    for done in (rendered, listed):
        assert done.code == 1, done.stderr
        assert done.stderr.count("\n") == 1
        assert done.stderr.startswith(f"bspedit: {path}: no light data in the map")
    assert not picture.exists() and not folder.exists()
    assert listed.result["files"] == [] and listed.result["width"] is None


@needs_corpus
def test_careless_command_lines_write_nothing(tmp_path):
    source = CORPUS / "q1/slipgate_b_batt0.bsp"
    map_copy = tmp_path / "m.bsp"
    shutil.copy(source, map_copy)
    link = tmp_path / "link.png"
    link.symlink_to(map_copy)
    folder = tmp_path / "maps"
    folder.mkdir()
    cases = [[map_copy, "-o", map_copy], [map_copy, "-o", link], [folder, "-o", "x.png"],
             [map_copy, "-o", tmp_path / "x.jpg"], [map_copy, "-o", tmp_path / "x.png",
                                                   "--size", "0"],
             [tmp_path / "missing.bsp", "-o", tmp_path / "y.png"], [map_copy]]
    before = sorted(os.listdir(tmp_path))
    for case in cases:
        done = invoke(["render", *map(str, case)], capture=True)
        assert done.code == 2, (case, done.stderr)
    assert sorted(os.listdir(tmp_path)) == before
    assert map_copy.read_bytes() == source.read_bytes() and link.is_symlink()
    if os.geteuid() != 0:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o555)
        done = invoke(["render", str(map_copy), "-o", str(locked / "x.png")], capture=True)
        assert done.code == 2 and not os.listdir(locked)


@needs_corpus
def test_each_renders_a_folder(tmp_path):
    maps = tmp_path / "maps"
    maps.mkdir()
    for name in FAST[:2]:
        shutil.copy(CORPUS / name, maps)
    (tmp_path / "out").mkdir()
    done = run_cli("each", maps, "--", "render", "-o", f"{tmp_path}/out/{{stem}}.png")
    assert done.returncode == 0, done.stderr
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert written == sorted(Path(n).stem + ".png" for n in FAST[:2])


@needs_corpus
@pytest.mark.parametrize("family", ["ql", "rbsp", "fbsp"])
def test_quake3_variants_draw_what_their_source_draws(family, tmp_path):
    """IBSP 47, RBSP and FBSP maps made from a real IBSP 46 map (tests/quake3_variants.py)
    draw the same picture; RBSP and IBSP 47 the same light too (FBSP's pages are 4x larger,
    each texel a 4x4 block, so its bilinear light differs a little)."""
    import quake3_variants

    source = CORPUS / "q3/openarena_am_galmevish.bsp"
    variant = tmp_path / f"{family}.bsp"
    variant.write_bytes(quake3_variants.convert(source.read_bytes(), family))
    for color in ("height", "lightmap"):
        pictures = []
        for path in (source, variant):
            with bspedit.open(path) as bsp:
                pictures.append(numpy.asarray(topdown(bsp, size=256, color=color).image))
        difference = numpy.abs(pictures[0].astype(int) - pictures[1].astype(int))
        if color == "lightmap" and family == "fbsp":
            assert difference.mean() < 4
        else:
            assert difference.max() == 0


@needs_corpus
@pytest.mark.parametrize("name", ["q2/opentdm_q2rdm2_indexorder.bsp",
                                  "source/sdk2013_sdk_vehicles_v19.bsp",
                                  "q3/openarena_am_galmevish.bsp"])
def test_svg_draws_the_png_footprint(name, tmp_path):
    """The SVG's paths, filled here with Pillow in their viewBox pixels, cover what the PNG
    of the same map covers (IoU >= 0.98): the vector picture has the same geometry and
    frame."""
    import re

    from PIL import ImageDraw

    png, svg = tmp_path / "top.png", tmp_path / "top.svg"
    first = _render(CORPUS / name, png, "--size", "512", "--no-legend")
    second = _render(CORPUS / name, svg, "--size", "512", "--no-legend")
    assert first["frame"] == second["frame"]
    frame = second["frame"]
    drawn = Image.new("L", (frame["width"], frame["height"]), 0)
    draw = ImageDraw.Draw(drawn)
    for path in ElementTree.parse(svg).getroot().iter("{http://www.w3.org/2000/svg}path"):
        for subpath in re.findall(r"M([^Z]*)Z", path.get("d")):
            numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", subpath)]
            draw.polygon([v - 0.5 for v in numbers], fill=255)
    ours = numpy.asarray(Image.open(png).getchannel("A")) > 128
    vector = numpy.asarray(drawn) > 0
    assert (ours & vector).sum() / (ours | vector).sum() >= 0.98


@needs_corpus
def test_texture_colours_average_the_embedded_miptex(tmp_path):
    """Quake 1 with --palette (here a grey ramp: index i is (i, i, i)): a flat floor's pixel
    in texture mode is the mean index of its miptex's mip 0, read from the raw lump with
    struct; without a palette the colour is hashed from the name, the same in every run."""
    import struct

    path = CORPUS / "q1/librequake_start_bspx.bsp"
    palette = tmp_path / "palette.lmp"
    palette.write_bytes(bytes(v for i in range(256) for v in (i, i, i)))
    data = path.read_bytes()
    offset, _length = struct.unpack_from("<ii", data, 4 + 8 * 2)          # TEXTURES
    count = struct.unpack_from("<i", data, offset)[0]
    means = {}
    for at in struct.unpack_from(f"<{count}i", data, offset + 4):
        if at < 0:
            continue                      # a texture the compiler left out
        name, width, height, mip0 = struct.unpack_from("<16sIII", data, offset + at)
        pixels = numpy.frombuffer(data, numpy.uint8, width * height, offset + at + mip0)
        means[name.split(b"\0")[0].decode().lower()] = pixels.mean()
    with bspedit.open(path) as bsp:
        grey = topdown(bsp, size=512, color="texture", palette=palette.read_bytes())
        hashed = topdown(bsp, size=512, color="texture")
        again = topdown(bsp, size=512, color="texture")
    geo = grey.geometry
    shown = [p for p in grey.order.tolist() if geo.face_hidden[geo.face[p]] == 0]
    flat = [p for p in shown if geo.normal[p, 2] > 0.999]
    checked = 0
    for polygon in flat[::max(len(flat) // 12, 1)]:
        corners = geo.corners[geo.starts[polygon]:geo.starts[polygon + 1]]
        centre = corners.mean(axis=0)
        above = [p for p in shown if p != polygon and render_oracle.inside(
            geo.corners[geo.starts[p]:geo.starts[p + 1]], centre[:1], centre[1:2]).all()
            and geo.corners[geo.starts[p]:geo.starts[p + 1], 2].max() > centre[2]]
        if above:
            continue                      # another face covers it
        px, py = (int(v) for v in grey.frame.to_pixels(corners.mean(axis=0)[None])[0])
        window = numpy.asarray(grey.image)[py - 1:py + 2, px - 1:px + 2]
        if (window[..., 3] < 255).any() or numpy.ptp(window[..., :3].reshape(-1, 3), 0).max():
            continue                      # an edge, or another face on top
        name = geo.names[geo.face_texture[geo.face[polygon]]].lower()
        assert abs(float(window[1, 1, 0]) - means[name]) <= 1.5, name
        checked += 1
    assert checked >= 3
    assert numpy.array_equal(numpy.asarray(hashed.image), numpy.asarray(again.image))
    assert not numpy.array_equal(numpy.asarray(hashed.image), numpy.asarray(grey.image))
