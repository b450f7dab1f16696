"""`bspedit lightmaps` and `features.render.lightmap` (issue 33) on real corpus maps.

The oracle reads the lumps with `struct` here (records, face extents, luxel bytes), not with
bspedit's records: each face's luxels in the lighting lump must be the atlas pixels at the
face's rectangle, in every style's page."""
from __future__ import annotations

import json
import math
import os
import struct
from pathlib import Path

import numpy
import pytest
from conftest import CONSOLE_MAP, CORPUS, corpus_maps
from PIL import Image

import bspedit
from bspedit.cli import invoke
from bspedit.features.render.lightmap import atlases

Q1, GS, Q2, SRC, Q3 = "quake1", "goldsrc", "quake2", "source", "quake3"


def corpus(name: str) -> Path:
    path = CORPUS / name
    if not path.is_file():
        pytest.skip("../shared/corpus not present")
    return path


def lump(path: Path, index: int) -> bytes:
    """Lump `index` of a little-endian map, read from the header by hand."""
    data = path.read_bytes()
    if data[:4] == b"VBSP":     # Left 4 Dead 2: version, offset, length (its entities at 0)
        l4d2 = struct.unpack_from("<i", data, 8)[0] < 1036
        offset, length = struct.unpack_from("<ii", data, 8 + 16 * index + 4 * l4d2)
    elif data[:4] == b"IBSP":
        offset, length = struct.unpack_from("<ii", data, 8 + 8 * index)
    else:
        offset, length = struct.unpack_from("<ii", data, 4 + 8 * index)
    return data[offset:offset + length]


def f32(value: float) -> float:
    return struct.unpack("<f", struct.pack("<f", value))[0]


# Quake 1 / GoldSrc (BSP 29/30) and Quake 2 (IBSP 38) records: lump numbers and layouts
QUAKE = {Q1: {"faces": 7, "texinfo": 6, "vertexes": 3, "edges": 12, "surfedges": 13,
              "lighting": 8, "texinfo_size": 40, "bytes": 1},
         GS: {"faces": 7, "texinfo": 6, "vertexes": 3, "edges": 12, "surfedges": 13,
              "lighting": 8, "texinfo_size": 40, "bytes": 3},
         Q2: {"faces": 6, "texinfo": 5, "vertexes": 2, "edges": 11, "surfedges": 12,
              "lighting": 7, "texinfo_size": 76, "bytes": 3}}


def quake_faces(path: Path, engine: str) -> list[dict]:
    """Every lit face with its extents (16 units a luxel), styles and lightofs."""
    t = QUAKE[engine]
    faces, texinfo = lump(path, t["faces"]), lump(path, t["texinfo"])
    vertexes, edges = lump(path, t["vertexes"]), lump(path, t["edges"])
    surfedges = lump(path, t["surfedges"])
    out = []
    for number in range(len(faces) // 20):
        _plane, _side, first, count, info, *rest = struct.unpack_from("<HhihH4Bi", faces,
                                                                      20 * number)
        styles, lightofs = list(rest[:4]), rest[4]
        vecs = struct.unpack_from("<8f", texinfo, t["texinfo_size"] * info)
        flags = struct.unpack_from("<i", texinfo, t["texinfo_size"] * info +
                                   (36 if engine != Q2 else 32))[0]
        if lightofs < 0 or styles[0] == 255 or flags & (1 if engine != Q2 else 0xC):
            continue
        st = []
        for k in range(count):
            edge = struct.unpack_from("<i", surfedges, 4 * (first + k))[0]
            a, b = struct.unpack_from("<HH", edges, 4 * abs(edge))
            point = struct.unpack_from("<3f", vertexes, 12 * (a if edge >= 0 else b))
            st.append([f32(sum(point[j] * vecs[4 * i + j] for j in range(3)) + vecs[4 * i + 3])
                       for i in range(2)])
        mins = [math.floor(min(p[i] for p in st) / 16) for i in range(2)]
        maxs = [math.ceil(max(p[i] for p in st) / 16) for i in range(2)]
        out.append({"face": number, "w": maxs[0] - mins[0] + 1, "h": maxs[1] - mins[1] + 1,
                    "styles": [s for s in styles if s != 255][:4], "lightofs": lightofs,
                    "mins": mins, "vecs": vecs})
    return out


QUAKE_MAPS = [("q1/slipgate_b_batt0.bsp", Q1), ("q1/bsptool_quake_mp_lobby.bsp", Q1),
              ("goldsrc/csdocker_aim_map.bsp", GS), ("q2/bsptool_q2_mp_lobby.bsp", Q2),
              ("q2/opentdm_2box4.bsp", Q2),
              pytest.param("goldsrc/plague_zm_castle_siege2.bsp", GS, marks=pytest.mark.full,
                           id="styles-32-to-49")]


@pytest.mark.parametrize("name,engine", QUAKE_MAPS)
def test_quake_luxels_are_the_atlas_pixels(name, engine):
    path = corpus(name)
    light = numpy.frombuffer(lump(path, QUAKE[engine]["lighting"]), numpy.uint8)
    per = QUAKE[engine]["bytes"]
    expected = quake_faces(path, engine)
    with bspedit.open(path) as bsp:
        found = atlases(bsp)
    assert found is not None and sorted(found.rects) == [f["face"] for f in expected]
    for face in expected:
        x, y, w, h = found.rects[face["face"]]
        assert (w, h) == (face["w"], face["h"]), face
        assert found.face_styles[face["face"]] == face["styles"]
        for slot, style in enumerate(face["styles"]):
            start = face["lightofs"] + slot * w * h * per
            luxels = light[start:start + w * h * per].reshape(h, w, per)
            assert numpy.array_equal(found.pages[style][y:y + h, x:x + w],
                                     numpy.broadcast_to(luxels, (h, w, 3)))


QUAKE_FAMILIES = [p for family in ("q1", "goldsrc", "q2") for p in corpus_maps(family)]


@pytest.mark.parametrize("path", QUAKE_FAMILIES)
def test_quake_blocks_end_where_the_next_face_starts(path):
    """The extents, as the engines compute them, agree with the lighting lump's layout: each
    face's blocks (styles x luxels) end where the next face's light starts (Quake 1 compilers
    may pad to 4 bytes), the last at the lump's end."""
    if path is None:
        pytest.skip("../shared/corpus not present")
    engine = {"q1": Q1, "goldsrc": GS, "q2": Q2}[path.parent.name]
    if path.name.endswith("bsp2.bsp"):
        pytest.skip("BSP2 records are wider; the oracle reads BSP 29")
    with bspedit.open(path) as bsp:
        found = atlases(bsp)
    if found is None:
        assert not lump(path, QUAKE[engine]["lighting"])
        return
    faces = sorted(quake_faces(path, engine), key=lambda f: f["lightofs"])
    per = QUAKE[engine]["bytes"]
    ends = [f["lightofs"] + len(f["styles"]) * per * found.rects[f["face"]][2] *
            found.rects[f["face"]][3] for f in faces]
    gaps = [b["lightofs"] - end for b, end in zip(faces[1:], ends)]
    assert all(0 <= gap <= (3 if engine == Q1 else 0) for gap in gaps)
    assert 0 <= len(lump(path, QUAKE[engine]["lighting"])) - ends[-1] <= 3


def test_bspx_rgblighting_is_used_and_agrees_with_the_grey_light():
    path = corpus("q1/librequake_start_bspx.bsp")
    grey = numpy.frombuffer(lump(path, 8), numpy.uint8)
    data = path.read_bytes()
    count = struct.unpack_from("<i", data, data.index(b"BSPX") + 4)[0]
    at = data.index(b"BSPX") + 8
    entries = {struct.unpack_from("<24s", data, at + 32 * i)[0].rstrip(b"\0"):
               struct.unpack_from("<ii", data, at + 32 * i + 24) for i in range(count)}
    offset, length = entries[b"RGBLIGHTING"]
    rgb = numpy.frombuffer(data[offset:offset + length], numpy.uint8).reshape(-1, 3)
    with bspedit.open(path) as bsp:
        found = atlases(bsp)
    faces = quake_faces(path, Q1)
    for face in faces[::10]:
        x, y, w, h = found.rects[face["face"]]
        start = face["lightofs"]
        colour = rgb[start:start + w * h].reshape(h, w, 3)
        assert numpy.array_equal(found.pages[0][y:y + h, x:x + w], colour)
        mean = colour.astype(float).mean(axis=2)
        assert numpy.abs(mean - grey[start:start + w * h].reshape(h, w)).max() <= 8


def with_bspx(path: Path, lumps: dict[bytes, bytes], out: Path) -> Path:
    """A copy of a Quake 1 map with a BSPX trailer holding `lumps`."""
    data = path.read_bytes()
    data += bytes(-len(data) % 4)
    at = len(data) + 8 + 32 * len(lumps)
    directory, body = b"", b""
    for name, blob in lumps.items():
        directory += struct.pack("<24sii", name, at + len(body), len(blob))
        body += blob + bytes(-len(blob) % 4)
    out.write_bytes(data + b"BSPX" + struct.pack("<i", len(lumps)) + directory + body)
    return out


def same_atlases(a: Path, b: Path) -> None:
    with bspedit.open(a) as bsp, bspedit.open(b) as other:
        plain, found = atlases(bsp), atlases(other)
    assert plain.rects == found.rects and plain.styles == found.styles
    for style in plain.styles:
        assert numpy.array_equal(plain.pages[style], found.pages[style])


def test_a_bspx_lmshift_of_16_units_changes_nothing(tmp_path):
    """A BSPX LMSHIFT lump of 4 for every face (2^4 = 16 units a luxel, the default) gives the
    same atlas as none."""
    path = corpus("q1/slipgate_b_batt0.bsp")
    faces = len(lump(path, 7)) // 20
    same_atlases(path, with_bspx(path, {b"LMSHIFT": bytes([4]) * faces}, tmp_path / "s.bsp"))


def test_bspx_decoupled_lm_places_each_block(tmp_path):
    """A DECOUPLED_LM lump saying what the texinfo says (rows = vecs / 16 - mins, the
    extents, lightofs) gives the same atlas, and the same world -> atlas mapping."""
    path = corpus("q1/slipgate_b_batt0.bsp")
    faces = {f["face"]: f for f in quake_faces(path, Q1)}
    table = b""
    for number in range(len(lump(path, 7)) // 20):
        face = faces.get(number)
        if face is None:
            table += struct.pack("<HHi8f", 0, 0, -1, *[0.0] * 8)
            continue
        rows = [v / 16 for v in face["vecs"]]
        rows[3] -= face["mins"][0]
        rows[7] -= face["mins"][1]
        table += struct.pack("<HHi8f", face["w"], face["h"], face["lightofs"], *rows)
    decoupled = with_bspx(path, {b"DECOUPLED_LM": table}, tmp_path / "d.bsp")
    same_atlases(path, decoupled)
    with bspedit.open(path) as bsp, bspedit.open(decoupled) as other:
        plain, found = atlases(bsp), atlases(other)
    points = numpy.array([[10.0, -20.0, 30.0], [64.0, 0.0, 8.0]])
    for number in list(faces)[::5]:
        assert numpy.allclose(plain.uv(number, points), found.uv(number, points), atol=1e-3)


def test_blue_shift_is_goldsrc_with_lumps_0_and_1_swapped(tmp_path):
    path = corpus("goldsrc/csdocker_aim_map.bsp")
    data = bytearray(path.read_bytes())
    data[4:12], data[12:20] = data[12:20], data[4:12]
    swapped = tmp_path / "bshift.bsp"
    swapped.write_bytes(data)
    with bspedit.open(swapped) as bsp:
        assert bsp.family.key == "bshift"
    same_atlases(path, swapped)


def source_faces(path: Path, faces_lump: int) -> list[dict]:
    """Source dface_t (56 bytes) and texinfo_t (72 bytes): every lit face."""
    faces, texinfo = lump(path, faces_lump), lump(path, 6)
    out = []
    for number in range(len(faces) // 56):
        info = struct.unpack_from("<h", faces, 56 * number + 10)[0]
        styles = list(faces[56 * number + 16:56 * number + 20])
        lightofs = struct.unpack_from("<i", faces, 56 * number + 20)[0]
        size = struct.unpack_from("<2i", faces, 56 * number + 36)
        flags = struct.unpack_from("<i", texinfo, 72 * info + 64)[0]
        if lightofs < 0 or styles[0] == 255 or flags & 0x400:
            continue
        out.append({"face": number, "w": size[0] + 1, "h": size[1] + 1, "lightofs": lightofs,
                    "bumped": bool(flags & 0x800),
                    "styles": [s for s in styles[:styles.index(255) if 255 in styles else 4]]})
    return out


def rgbexp(data: bytes, start: int, count: int) -> numpy.ndarray:
    values = []
    for k in range(count):
        r, g, b, e = struct.unpack_from("<BBBb", data, start + 4 * k)
        values.append([c * 2.0 ** e / 255 for c in (r, g, b)])
    return numpy.array(values)


def shown(linear: numpy.ndarray) -> numpy.ndarray:
    return numpy.clip(linear, 0, 1) ** (1 / 2.2) * 255


@pytest.mark.parametrize("name,lighting,faces_lump", [
    ("source/valvebsp_testmap.bsp", 8, 7), ("source/sdk2013_sdk_vehicles_v19.bsp", 8, 7),
    ("source/ths_l4d2_test_mechanic01_v21.bsp", 53, 58),
    ("source/tg1v1_am_grass2_csgo_v21.bsp", 8, 7)])
def test_source_luxels_are_the_atlas_pixels(name, lighting, faces_lump):
    """LDR pages (HDR only maps: the HDR light, through FACES_HDR) shown with gamma 2.2 from
    ColorRGBExp32."""
    path = corpus(name)
    data = lump(path, lighting)
    with bspedit.open(path) as bsp:
        found = atlases(bsp)
    expected = source_faces(path, faces_lump)
    assert sorted(found.rects) == [f["face"] for f in expected]
    for face in expected[::7]:
        x, y, w, h = found.rects[face["face"]]
        assert (w, h) == (face["w"], face["h"])
        for slot, style in enumerate(face["styles"]):
            start = face["lightofs"] + slot * w * h * 4 * (4 if face["bumped"] else 1)
            want = shown(rgbexp(data, start, w * h)).reshape(h, w, 3)
            got = found.pages[style][y:y + h, x:x + w].astype(float)
            assert numpy.abs(got - want).max() <= 1, face


def read_radiance(data: bytes) -> numpy.ndarray:
    """A flat (not run-length) Radiance RGBE file as floats, by the format's definition."""
    head, _, body = data.partition(b"\n\n")
    assert head.startswith(b"#?RADIANCE") and b"FORMAT=32-bit_rle_rgbe" in head
    size, _, pixels = body.partition(b"\n")
    _y, height, _x, width = size.split()
    rgbe = numpy.frombuffer(pixels, numpy.uint8).reshape(int(height), int(width), 4)
    scale = numpy.where(rgbe[..., 3] > 0, numpy.ldexp(1.0, rgbe[..., 3].astype(int) - 136), 0)
    return rgbe[..., :3] * scale[..., None]


def test_source_hdr_files_hold_the_linear_light(tmp_path):
    path = corpus("source/valvebsp_testmap.bsp")
    out = tmp_path / "lm"
    assert invoke(["lightmaps", str(path), "-o", str(out)], capture=True).code == 0
    hdr = read_radiance((out / "hdr_style0.hdr").read_bytes())
    index = json.loads((out / "faces.json").read_text())
    assert hdr.shape == (index["height"], index["width"], 3)
    data = lump(path, 53)
    for face in source_faces(path, 58)[::9]:
        row = next(r for r in index["faces"] if r["face"] == face["face"])
        x, y, w, h = row["x"], row["y"], row["w"], row["h"]
        want = rgbexp(data, face["lightofs"], w * h).reshape(h, w, 3)
        # RGBE keeps 8 bits of the brightest channel: an error below 1/128 of it
        error = numpy.abs(hdr[y:y + h, x:x + w] - want).max(axis=2)
        assert (error <= want.max(axis=2) / 128 + 1e-9).all()
    with Image.open(out / "hdr_style0.png") as picture:
        assert picture.size == (index["width"], index["height"])


def q3_surfaces(path: Path) -> list[tuple]:
    """Quake 3 dsurface_t (104 bytes): (first_vert, num_verts, lightmap_num, x, y, w, h)."""
    data = lump(path, 13)
    return [struct.unpack_from("<2i", data, at + 12) + struct.unpack_from("<5i", data, at + 28)
            for at in range(0, len(data), 104)]


@pytest.mark.parametrize("name", ["q3/bsptool_q3_test_bigbox.bsp", "q3/bsptool_q3_mp_lobby.bsp",
                                  "q3/openarena_am_galmevish.bsp"])
def test_quake3_surfaces_show_their_lightmap_texels(name):
    """Each lit surface's rectangle holds the texels of its lightmap as stored, and the
    vertices' lightmap coordinates fall inside it."""
    path = corpus(name)
    pages = numpy.frombuffer(lump(path, 14), numpy.uint8).reshape(-1, 128, 128, 3)
    verts = lump(path, 10)
    with bspedit.open(path) as bsp:
        found = atlases(bsp)
    assert found.overbright == 2 and len(found.stored_pages) == len(pages)
    lit = 0
    for number, surface in enumerate(q3_surfaces(path)):
        first, count, page, sx, sy, sw, sh = surface
        if page < 0:
            assert number not in found.rects
            continue
        lit += 1
        x, y, w, h = found.rects[number]
        st = numpy.array([struct.unpack_from("<2f", verts, 44 * (first + k) + 20)
                          for k in range(count)])
        uv = found.uv(number, numpy.zeros((count, 3)), st)
        assert (uv >= (x, y)).all() and (uv <= (x + w, y + h)).all()
        if sw:          # corners stored (older q3map2): the texels there
            columns = math.ceil(math.sqrt(len(pages)))
            assert (x, y) == (page % columns * 128 + sx, page // columns * 128 + sy)
            assert numpy.array_equal(found.pages[0][y:y + h, x:x + w],
                                     pages[page, sy:sy + sh, sx:sx + sw])
    assert lit == len(found.rects)


@pytest.mark.parametrize("variant", ["rbsp", "fbsp"])
def test_raven_and_qfusion_lightmaps(variant, tmp_path):
    from quake3_variants import SCALE, convert

    path = corpus("q3/bsptool_q3_test_bigbox.bsp")
    converted = tmp_path / f"{variant}.bsp"
    converted.write_bytes(convert(path.read_bytes(), variant))
    with bspedit.open(path) as bsp, bspedit.open(converted) as other:
        plain, found = atlases(bsp), atlases(other)
    scale = SCALE if variant == "fbsp" else 1
    assert found.styles == [0] and found.rects.keys() == plain.rects.keys()
    for number, (x, y, w, h) in plain.rects.items():
        assert found.rects[number] == (x * scale, y * scale, w * scale, h * scale)
    step = found.pages[0][::scale, ::scale]
    assert numpy.array_equal(step, plain.pages[0])


def test_face_uv_lands_in_its_rectangle():
    """The world -> atlas mapping puts every vertex of a lit face inside its rectangle."""
    for name in ("q2/opentdm_2box4.bsp", "source/valvebsp_testmap.bsp",
                 "goldsrc/csdocker_aim_map.bsp"):
        with bspedit.open(corpus(name)) as bsp:
            found = atlases(bsp)
            faces = bsp.records("FACES")
            surfedges = bsp.records("SURFEDGES")["edge"]
            edges = bsp.records("EDGES")["v"]
            vertexes = bsp.records("VERTEXES")
            points = vertexes["point"] if "point" in vertexes.dtype.names else vertexes
            for number, (x, y, w, h) in list(found.rects.items())[::5]:
                face = faces[number]
                chain = surfedges[face["firstedge"]:face["firstedge"] + face["numedges"]]
                index = [edges[abs(e)][0 if e >= 0 else 1] for e in chain]
                xyz = numpy.array([[points[i]["x"], points[i]["y"], points[i]["z"]]
                                   for i in index])
                uv = found.uv(number, xyz)
                assert (uv >= (x + 0.5 - 1e-3, y + 0.5 - 1e-3)).all(), (name, number)
                assert (uv <= (x + w - 0.5 + 1e-3, y + h - 0.5 + 1e-3)).all(), (name, number)


def check_folder(out: Path, code: int) -> None:
    """A written folder: every style page, rectangles inside the atlas and, but for Quake 3
    (q3map2 lights several surfaces in one place), not overlapping."""
    if code == 1:
        assert not out.exists()
        return
    assert code == 0
    index = json.loads((out / "faces.json").read_text())
    width, height = index["width"], index["height"]
    for name in index["pages"].values():
        with Image.open(out / name) as picture:
            assert picture.size == (width, height) and picture.mode == "RGB"
    cover = numpy.zeros((height, width), numpy.int32)
    for row in index["faces"]:
        x, y, w, h = row["x"], row["y"], row["w"], row["h"]
        assert 0 <= x and 0 <= y and x + w <= width and y + h <= height and w > 0 and h > 0
        assert row["pages"] == [index["pages"][str(s)] for s in row["styles"]]
        cover[y:y + h, x:x + w] += 1
    if index["family"] not in ("q3", "rbsp", "fbsp"):
        assert cover.max() == 1
    for name in index["stored_pages"]:
        assert (out / name).is_file()


FAST = ["q1/slipgate_b_batt0.bsp", "q1/bsptool_remakequake_mp_lobby_bsp2.bsp",
        "q1/ericw_q1_cube_bspx.bsp", "goldsrc/hltopdown_test.bsp",
        "q2/bsptool_q2_mp_lobby.bsp", "q3/bsptool_q3_test_bigbox.bsp",
        "q3/bspconvert_test_nonsolid_patch.bsp", "source/tf2classified_cp_stronghold_lzma.bsp",
        "source/bspsrc_csgo_tooltextures_v21.bsp"]


@pytest.mark.parametrize("name", FAST)
def test_a_few_maps_of_each_family(name, tmp_path):
    out = tmp_path / "lm"
    result = invoke(["lightmaps", str(corpus(name)), "-o", str(out)], capture=True)
    check_folder(out, result.code)


@pytest.mark.full
@pytest.mark.parametrize("path", corpus_maps() + [CONSOLE_MAP])
def test_every_corpus_map(path, tmp_path):
    if path is None or not path.is_file():
        pytest.skip("../shared/corpus not present")
    out = tmp_path / "lm"
    result = invoke(["lightmaps", str(path), "-o", str(out)], capture=True)
    check_folder(out, result.code)


def run(*argv: str) -> tuple[int, dict]:
    result = invoke(["lightmaps", *argv, "--json"], capture=True)
    return result.code, result.envelope()


def test_json_result_and_no_light(tmp_path):
    code, report = run(str(corpus("q2/bsptool_q2_mp_lobby.bsp")), "-o", str(tmp_path / "a"))
    result = report["result"]
    assert code == 0 and result["faces"] == 24 and result["styles"] == [0]
    assert result["files"] == sorted(os.listdir(tmp_path / "a"))
    assert (result["width"], result["height"]) == Image.open(tmp_path / "a/style0.png").size
    code, report = run(str(corpus("goldsrc/hltopdown_test.bsp")), "-o", str(tmp_path / "b"))
    assert code == 1 and report["result"]["files"] == [] and not (tmp_path / "b").exists()


def test_careless_users(tmp_path):
    source = corpus("q1/slipgate_b_batt0.bsp")
    map_path = tmp_path / "map.bsp"
    map_path.write_bytes(source.read_bytes())
    before = map_path.read_bytes()
    link = tmp_path / "link.bsp"
    link.symlink_to(map_path)
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine")
    for target in (map_path, link, "-", a_file, a_file / "lm"):
        code, report = run(str(map_path), "-o", str(target))
        assert code == 2 and report["error"], target
    assert map_path.read_bytes() == before and a_file.read_text() == "mine"
    assert sorted(os.listdir(tmp_path)) == ["link.bsp", "map.bsp", "notes.txt"]
    code, _ = run(str(tmp_path / "missing.bsp"), "-o", str(tmp_path / "out"))
    assert code == 2 and not (tmp_path / "out").exists()
    code, _ = run(str(tmp_path), "-o", str(tmp_path / "out"))
    assert code == 2 and not (tmp_path / "out").exists()
    assert invoke(["lightmaps", str(map_path)], capture=True).code == 2     # no -o
    # an existing folder keeps its other files; files of the same names are replaced
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    (out / "style0.png").write_bytes(b"old")
    assert run(str(map_path), "-o", str(out))[0] == 0
    assert (out / "notes.txt").read_text() == "mine"
    assert (out / "style0.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.skipif(os.name != "posix", reason="a read-only folder by mode or mount")
@pytest.mark.parametrize("inside", [False, True])
def test_a_read_only_folder(tmp_path, inside):
    """DIR in a read-only folder, or DIR itself read-only: exit 2, nothing left behind."""
    from test_user_mistakes import _read_only

    folder = tmp_path / "ro"
    with _read_only(folder):
        target = folder if inside else folder / "lm"
        code, report = run(str(corpus("q1/slipgate_b_batt0.bsp")), "-o", str(target))
        assert code == 2 and report["error"]
        assert [p for p in os.listdir(folder) if not p.startswith("lost+found")] == []


def test_each_writes_one_folder_per_map(tmp_path):
    maps = tmp_path / "maps"
    maps.mkdir()
    for name in ("q1/slipgate_b_batt0.bsp", "q2/bsptool_q2_mp_lobby.bsp",
                 "goldsrc/hltopdown_test.bsp"):
        (maps / Path(name).name).write_bytes(corpus(name).read_bytes())
    result = invoke(["each", "-j", "1", str(maps), "--", "lightmaps", "-o",
                     str(tmp_path / "out" / "{stem}")], capture=True)
    assert result.code == 1         # one map has no light
    assert sorted(os.listdir(tmp_path / "out")) == ["bsptool_q2_mp_lobby", "slipgate_b_batt0"]
    assert (tmp_path / "out" / "slipgate_b_batt0" / "style0.png").is_file()


# the lumps each engine's light is found through
READ = {"quake1": ("FACES", "TEXINFO", "EDGES", "SURFEDGES", "VERTEXES", "LIGHTING"),
        "goldsrc": ("FACES", "TEXINFO", "SURFEDGES", "LIGHTING"),
        "quake2": ("FACES", "TEXINFO", "SURFEDGES", "LIGHTING"),
        "quake3": ("SURFACES", "DRAWVERTS", "LIGHTMAPS"),
        "source": ("FACES", "TEXINFO", "FACES_HDR", "LIGHTING", "LIGHTING_HDR")}


@pytest.mark.parametrize("name", ["q1/librequake_start_bspx.bsp", "q2/bsptool_q2_mp_lobby.bsp",
                                  "q3/bsptool_q3_test_bigbox.bsp",
                                  "source/portalmp_background01.bsp"])
def test_damaged_records_give_atlases_or_a_bsp_error(name, tmp_path):
    """Bytes of the lumps the light is found through overwritten at random (seeded): the
    atlases and files come out, or BspError; no other exception, no numpy warning."""
    import random
    import warnings

    from bspedit.errors import BspError
    from bspedit.features.render.lightmap_files import lightmap_files

    path = corpus(name)
    original = path.read_bytes()
    with bspedit.open(path) as bsp:
        lumps = [lump for lump in bsp.lumps
                 if lump.name in READ[bsp.family.engine] and lump.length]
    chance = random.Random(name)
    for case in range(25):
        data = bytearray(original)
        where = chance.choice(lumps)
        for _ in range(chance.randint(1, 16)):
            data[where.offset + chance.randrange(where.length)] = chance.choice(
                [0, 0x7F, 0x80, 0xFF, chance.randrange(256)])
        damaged = tmp_path / f"{case}.bsp"
        damaged.write_bytes(data)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                with bspedit.open(damaged) as bsp:
                    found = atlases(bsp)
                    if found is not None:
                        lightmap_files(found, bsp.family.key)
            except BspError:
                pass


# -- Quake 3 deluxemaps (issue 41) -----------------------------------------------------------

def test_no_corpus_quake3_map_has_deluxemaps():
    """q3map2 -deluxe stores pages in pairs, light then light direction, and surfaces name the
    light pages (even numbers). No corpus map is compiled so: two use odd pages, and
    bsp_tool's mp_lobby, which the engines' rule alone (more than one page, no odd page used:
    ioquake3 renderergl2) would call deluxe, has a second page all black: not a direction."""
    seen = {}
    for path in sorted((CORPUS / "q3").glob("*.bsp")):
        pages = numpy.frombuffer(lump(path, 14), numpy.uint8).reshape(-1, 128, 128, 3)
        numbers = {s[2] for s in q3_surfaces(path) if s[2] >= 0}
        seen[path.stem] = (len(pages), any(n % 2 for n in numbers))
        with bspedit.open(path) as bsp:
            found = atlases(bsp)
        assert found is None or not found.directions, path.stem
    assert seen["openarena_oacmpctf3"] == (40, True)
    assert seen["openarena_am_galmevish"] == (8, True)
    lobby = corpus("q3/bsptool_q3_mp_lobby.bsp")
    pages = numpy.frombuffer(lump(lobby, 14), numpy.uint8).reshape(-1, 128, 128, 3)
    assert seen["bsptool_q3_mp_lobby"] == (2, False) and not pages[1].any() and pages[0].any()


def deluxe_map(tmp_path: Path) -> tuple[Path, Path]:
    """A real Quake 3 map and a copy of it with deluxemaps (quake3_variants.deluxe)."""
    from quake3_variants import deluxe

    path = corpus("q3/openarena_am_galmevish.bsp")
    copy = tmp_path / "deluxe.bsp"
    copy.write_bytes(deluxe(path.read_bytes()))
    return path, copy


def test_deluxe_direction_pages_are_written_apart_and_labelled(tmp_path):
    """style0.png holds the light only (the map's own style0.png, byte for byte), the
    direction pages go to style0.dir.png in the same places, the stored direction pages
    are page_<odd>.dir.png, and faces.json says so."""
    path, copy = deluxe_map(tmp_path)
    assert invoke(["lightmaps", str(path), "-o", str(tmp_path / "plain")]).code == 0
    done = invoke(["lightmaps", str(copy), "-o", str(tmp_path / "dlx"), "--json"], capture=True)
    assert done.code == 0 and done.result["deluxe"] is True
    plain, dlx = tmp_path / "plain", tmp_path / "dlx"
    assert (dlx / "style0.png").read_bytes() == (plain / "style0.png").read_bytes()
    index, before = (json.loads((d / "faces.json").read_text()) for d in (dlx, plain))
    assert index["deluxe"] is True and before["deluxe"] is False
    assert index["direction_pages"] == {"0": "style0.dir.png"} and before["direction_pages"] == {}
    assert index["faces"] == before["faces"] and index["pages"] == before["pages"]
    assert index["stored_pages"] == [f"page_{n:03d}{'.dir' if n % 2 else ''}.png"
                                     for n in range(16)]
    assert sorted(done.result["files"]) == sorted(os.listdir(dlx))
    light = numpy.asarray(Image.open(dlx / "style0.png"))
    direction = numpy.asarray(Image.open(dlx / "style0.dir.png"))
    assert direction.shape == light.shape
    for k in range(8):              # 8 light pages, 3 a row: page k's place in both atlases
        y, x = k // 3 * 128, k % 3 * 128
        stored = numpy.asarray(Image.open(dlx / f"page_{2 * k + 1:03d}.dir.png"))
        assert numpy.array_equal(direction[y:y + 128, x:x + 128], stored)
        assert (dlx / f"page_{2 * k:03d}.png").read_bytes() == \
            (plain / f"page_{k:03d}.png").read_bytes()
    # a direction page is a normal map, its texels unit vectors as (d + 1) * 127.5; light is not
    def unit(picture: numpy.ndarray) -> numpy.ndarray:
        texels = picture.reshape(-1, 3)[picture.reshape(-1, 3).any(axis=1)] / 127.5 - 1
        return numpy.abs(numpy.linalg.norm(texels, axis=1) - 1) < 0.02

    assert unit(direction).all() and len(unit(direction)) > 10000
    assert unit(light).mean() < 0.1


def test_deluxe_light_is_what_render_samples(tmp_path):
    """`render --color lightmap` samples the light pages only: the deluxe copy's picture is
    the map's own, pixel for pixel."""
    path, copy = deluxe_map(tmp_path)
    for source, name in ((path, "plain.png"), (copy, "dlx.png")):
        assert invoke(["render", str(source), "-o", str(tmp_path / name), "--color", "lightmap",
                       "--size", "512"]).code == 0
    plain = numpy.asarray(Image.open(tmp_path / "plain.png"))
    assert numpy.array_equal(numpy.asarray(Image.open(tmp_path / "dlx.png")), plain)
    assert (plain[..., 3] > 0).sum() > 50000
