"""`render` makes and writes its pixels in bands of rows (issue 41): each band draws the
polygons its rows hold, and draws exactly the pixels Pillow draws into the whole picture (an
oracle drawing every polygon into one image, as render did before); the picture is the same
whatever the band size, the height legend split across bands included; the streamed PNG is a
valid PNG (chunks and CRCs read with struct, the frame in its tEXt chunk) that Pillow decodes
to those pixels; the SVG never makes a raster; big pictures get a progress bar."""
from __future__ import annotations

import io
import json
import struct
import zlib
from pathlib import Path

import numpy
import pytest
from conftest import CORPUS
from PIL import Image, ImageDraw

import bspedit
from bspedit.cli import invoke
from bspedit.features.render import colors, paint, raster
from bspedit.features.render.picture import topdown
from bspedit.features.render.raster import Bands, Frame
from bspedit.features.render.writers import FRAME_KEY, png_bytes

needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus not present")
# one map of each family (Quake 3: patches; Source: displacements), with light
MAPS = ["q1/librequake_start_bspx.bsp", "goldsrc/csdocker_aim_map.bsp",
        "q2/opentdm_q2rdm2_indexorder.bsp", "q3/openarena_am_galmevish.bsp",
        "source/sdk2013_sdk_vehicles_v19.bsp"]


def _whole_ids(geo, order, frame: Frame) -> numpy.ndarray:
    """Every polygon drawn into one image with Pillow, corners as floats (what render drew
    before bands)."""
    image = Image.new("I", (frame.width, frame.height), 0)
    draw = ImageDraw.Draw(image)
    pixels = frame.to_pixels(geo.corners) - 0.5
    for polygon in order.tolist():
        corners = pixels[geo.starts[polygon]:geo.starts[polygon + 1]]
        draw.polygon(corners.reshape(-1).tolist(), fill=polygon + 1)
    return numpy.asarray(image, dtype=numpy.int32)


@needs_corpus
@pytest.mark.parametrize("name", MAPS)
def test_bands_draw_the_pixels_of_the_whole_picture(name):
    """Any band of rows, at any top (odd ones too), equals those rows of the whole picture,
    in the picture's own frame and in a frame cut through the middle of the map (polygons
    reaching outside on every side, corners at negative pixels)."""
    with bspedit.open(CORPUS / name) as bsp:
        picture = topdown(bsp, size=300)
    geo, order, frame = picture.geometry, picture.order, picture.frame
    middle = Frame(frame.min_x + frame.width * frame.scale / 3,
                   frame.max_y - frame.height * frame.scale / 3, frame.scale / 2,
                   frame.width // 2, frame.height // 2)
    for grid in (frame.finer(2), middle):
        whole = _whole_ids(geo, order, grid)
        assert (whole > 0).mean() > 0.2
        bands = Bands(geo, order, grid)
        for rows in (1, 7, 64):
            for top in range(0, grid.height, rows):
                count = min(rows, grid.height - top)
                assert numpy.array_equal(bands.ids(top, count), whole[top:top + count]), \
                    (grid, top, count)


def _picture(path: Path, color: str, size: int, band_pixels: int,
             monkeypatch) -> tuple[numpy.ndarray, bytes, dict]:
    monkeypatch.setattr(paint, "BAND_PIXELS", band_pixels)
    with bspedit.open(path) as bsp:
        picture = topdown(bsp, size=size, color=color)
        image = numpy.asarray(picture.image)
        data = png_bytes(picture)
    return image, data, picture.frame.to_json()


@needs_corpus
@pytest.mark.parametrize("name", MAPS)
def test_the_picture_is_the_same_whatever_the_bands(name, monkeypatch):
    """The picture made in one band (the whole picture at once, as before) and in bands of
    one row (the legend drawn in parts into 29 of them) are the same pixels, in every colour
    mode; the streamed PNG decodes to them."""
    from bspedit.features.render.lightmap import atlases

    path = CORPUS / name
    with bspedit.open(path) as bsp:
        lit = atlases(bsp) is not None
    for color in ("height", "texture") + (("lightmap",) if lit else ()):
        whole, _, _ = _picture(path, color, 256, 1 << 30, monkeypatch)
        banded, data, frame = _picture(path, color, 256, 1, monkeypatch)
        assert numpy.array_equal(whole, banded), color
        decoded = Image.open(io.BytesIO(data))
        assert decoded.mode == "RGBA" and decoded.size == (frame["width"], frame["height"])
        assert numpy.array_equal(numpy.asarray(decoded), whole)
        places = colors.legend_places(frame["width"], frame["height"])
        if color == "height" and places:     # the legend is in a corner: its box's corners
            w, h = colors.LEGEND_BOX
            box = (0, 0, 0, 160)
            assert any(tuple(whole[y, x]) == box == tuple(whole[y + h - 1, x + w - 1])
                       for x, y in places)


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """The chunks of a PNG read with struct, each CRC checked."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    out, at = [], 8
    while at < len(data):
        length, kind = struct.unpack_from(">I4s", data, at)
        body = data[at + 8:at + 8 + length]
        (crc,) = struct.unpack_from(">I", data, at + 8 + length)
        assert crc == zlib.crc32(kind + body), kind
        out.append((kind, body))
        at += 12 + length
    return out


@needs_corpus
def test_the_streamed_png_holds_the_frame_in_a_text_chunk(tmp_path):
    """IHDR first (width, height, 8-bit RGBA), the frame's JSON in the tEXt chunk
    `bspedit:frame` before the image data, IDAT chunks whose joined data inflate to one
    filter byte and width x 4 bytes a row, IEND last; Pillow reads the same frame."""
    out = tmp_path / "top.png"
    report = invoke(["render", str(CORPUS / MAPS[2]), "-o", str(out), "--size", "640"],
                    capture=True)
    assert report.code == 0, report.stderr
    frame = report.result["frame"]
    chunks = _chunks(out.read_bytes())
    kinds = [kind for kind, _ in chunks]
    assert kinds[0] == b"IHDR" and kinds[-1] == b"IEND" and b"IDAT" in kinds
    assert struct.unpack(">IIBBBBB", chunks[0][1]) == (frame["width"], frame["height"],
                                                       8, 6, 0, 0, 0)
    texts = dict(body.split(b"\0", 1) for kind, body in chunks if kind == b"tEXt")
    assert json.loads(texts[FRAME_KEY.encode()]) == frame
    assert kinds.index(b"tEXt") < kinds.index(b"IDAT")
    raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    assert len(raw) == frame["height"] * (1 + 4 * frame["width"])
    assert json.loads(Image.open(out).text[FRAME_KEY]) == frame


@needs_corpus
@pytest.mark.parametrize("color", ["height", "lightmap"])
def test_the_svg_never_makes_a_raster(color, tmp_path, monkeypatch):
    """A 16384 px SVG (which took 3 GB when the picture was drawn first) draws no pixel:
    drawing a band or a whole image fails here; lightmap colours come from the atlas."""
    def refuse(*args, **kwargs):
        raise AssertionError("a raster was made")

    monkeypatch.setattr(raster.Bands, "ids", refuse)
    monkeypatch.setattr(paint.Painter, "band", refuse)
    monkeypatch.setattr(Image, "new", refuse)
    out = tmp_path / "top.svg"
    report = invoke(["render", str(CORPUS / "q3/openarena_am_galmevish.bsp"), "-o", str(out),
                     "--size", "16384", "--color", color], capture=True)
    assert report.code == 0, report.stderr
    assert max(report.result["frame"]["width"], report.result["frame"]["height"]) == 16384
    assert out.read_text().count("<path ") == report.result["faces_drawn"]


@needs_corpus
def test_a_big_picture_gets_a_progress_bar(tmp_path, monkeypatch):
    """On a terminal, a picture of `BIG_PICTURE` pixels or more gets a bar counting its rows
    (here, the bound made small and the bar drawn at once); a smaller one none, and none
    with --quiet."""
    from bspedit import progress
    from bspedit.cli import render

    def at_once(total, description, **options):
        return progress.bar(total, description, **{**options, "delay": 0})

    monkeypatch.setattr(progress, "_is_terminal", lambda stream: True)
    monkeypatch.setattr(render, "bar", at_once)
    monkeypatch.setattr(render, "BIG_PICTURE", 500 * 500)
    path = CORPUS / "q1/librequake_start_bspx.bsp"
    for options, size, shown in (([], 1024, True), ([], 400, False), (["-q"], 1024, False)):
        out = tmp_path / f"{size}.png"
        report = invoke([*options, "render", str(path), "-o", str(out), "--size", str(size)],
                        capture=True)
        assert report.code == 0, report.stderr
        frame = report.result["frame"]
        assert (frame["width"] * frame["height"] >= 500 * 500) == (size == 1024)
        height = frame["height"]
        assert (f"render {out.name}" in report.stderr) == shown
        assert (f"/{height} [" in report.stderr and "rows/s" in report.stderr) == shown
