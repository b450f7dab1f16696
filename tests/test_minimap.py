"""`render --minimap`: q3map2 -minimap's picture. On real Quake 3 maps, the Targa header q3map2's
WriteTGAGray writes, the letterbox, and pixels against an oracle of this file: the world's
brushes read with struct from the file's bytes, each pixel's column sampled point by point
against the brush planes in plain Python, then q3map2's sharpen filter."""
from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest
from conftest import CORPUS, CORPUS_MAPS, corpus_maps

import bspedit
from bspedit.cli import invoke
from bspedit.features.render.minimap import minimap

CTF2 = CORPUS / "q3" / "openarena_oa_ctf2.bsp"
BIG = CORPUS / "q3" / "openarena_oacmpctf3.bsp"
STEP = 0.25                     # the oracle's sampling step along a column


def q3_records(data: bytes, lump: int, fmt: str) -> list[tuple]:
    assert data[:4] == b"IBSP"
    offset, length = struct.unpack_from("<2i", data, 8 + 8 * lump)
    size = struct.calcsize(fmt)
    return [struct.unpack_from(fmt, data, offset + i * size) for i in range(length // size)]


class Oracle:
    """The world's solid, non-sky brushes and q3map2's letterboxed frame, from raw bytes."""

    def __init__(self, path: Path, size: int = 512):
        data = path.read_bytes()
        shaders = q3_records(data, 1, "<64sii")
        planes = q3_records(data, 2, "<4f")
        model = q3_records(data, 7, "<6f4i")[0]
        brushes = q3_records(data, 8, "<3i")
        sides = q3_records(data, 9, "<2i")
        self.brushes = []
        for first, count, _ in brushes[model[8]:model[8] + model[9]]:
            own = [sides[i] for i in range(first, first + count)]
            solid = any(shaders[s][2] & 1 for _, s in own)
            sky = any(shaders[s][1] & 4 for _, s in own)
            if solid and not sky:
                self.brushes.append([planes[p] for p, _ in own])
        mins, maxs = list(model[0:3]), list(model[3:6])
        self.bounds = (tuple(mins), tuple(maxs))
        dx, dy = maxs[0] - mins[0], maxs[1] - mins[1]
        axis, grow = (0, dy - dx) if dy > dx else (1, dx - dy)
        mins[axis] -= grow / 2
        maxs[axis] += grow / 2
        self.mins, self.maxs, self.size = mins, maxs, size

    def centre(self, column: int, row: int) -> tuple[float, float]:
        """Pixel (column, row) of the Targa (row 0: the southmost)."""
        return (self.mins[0] + (self.maxs[0] - self.mins[0]) * (column + 0.5) / self.size,
                self.mins[1] + (self.maxs[1] - self.mins[1]) * (row + 0.5) / self.size)

    def solid(self, x: float, y: float) -> float:
        """Units of the column at (x, y) inside solid brushes, brush by brush (q3map2 sums
        overlaps), by sampling points every STEP units."""
        total = 0.0
        for planes in self.brushes:
            lo = [-d for nx, ny, nz, d in planes if (nx, ny, nz) == (0, 0, -1)]
            hi = [d for nx, ny, nz, d in planes if (nx, ny, nz) == (0, 0, 1)]
            if not lo or not hi:
                continue
            if any(nx * x + ny * y > d for nx, ny, nz, d in planes if nz == 0):
                continue
            z = lo[0] + STEP / 2
            while z < hi[0]:
                if all(nx * x + ny * y + nz * z <= d for nx, ny, nz, d in planes):
                    total += STEP
                z += STEP
        return total

    def pixel(self, column: int, row: int) -> int:
        """The byte q3map2 writes: sharpen 1 over the neighbours inside the picture, clamped
        to [0, 255/256], times 256, truncated."""
        height = self.maxs[2] - self.mins[2]
        value = 0.0
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                c, r = column + dc, row + dr
                if 0 <= c < self.size and 0 <= r < self.size:
                    share = self.solid(*self.centre(c, r)) / height
                    value += 9 * share if (dc, dr) == (0, 0) else -share
        return int(min(max(value, 0.0), 255 / 256) * 256)


def read_tga(data: bytes) -> tuple[tuple, np.ndarray]:
    header = struct.unpack_from("<BBBHHBHHHHBB", data)
    width, height = header[8], header[9]
    return header, np.frombuffer(data, np.uint8, width * height, 18).reshape(height, width)


def render(*argv: object) -> tuple[int, str]:
    report = invoke(["render", *map(str, argv)], capture=True)
    return report.code, report.stderr


def test_targa_header_letterbox_and_pixels_against_the_oracle(tmp_path):
    if not CTF2.exists():
        pytest.skip("../shared/corpus not present")
    out = tmp_path / "oa_ctf2.tga"
    code, err = render(CTF2, "--minimap", "-o", out)
    assert code == 0, err
    data = out.read_bytes()
    header, pixels = read_tga(data)
    # q3map2's WriteTGAGray: no id, no colour map, type 3 (grey), 8 bits, origin bottom left
    assert header == (0, 0, 3, 0, 0, 0, 0, 0, 512, 512, 8, 0)
    assert len(data) == 18 + 512 * 512
    oracle = Oracle(CTF2)
    # the world is 4096 x 2048: rows whose centre lies south or north of it are letterbox
    low_y, high_y = oracle.bounds[0][1], oracle.bounds[1][1]
    rows = np.array([oracle.centre(0, r)[1] for r in range(512)])
    outside = (rows < low_y) | (rows > high_y)
    assert outside.sum() == 256 and not pixels[outside].any()
    assert pixels[~outside].any()
    rng = np.random.default_rng(33)
    lit = np.argwhere(pixels > 0)
    brightest = np.argwhere(pixels == pixels.max())[:2]
    chosen = np.vstack([brightest, lit[rng.choice(len(lit), 5, replace=False)],
                        np.argwhere((pixels == 0) & ~outside[:, None])[:1]])
    for row, column in chosen:
        assert abs(int(pixels[row, column]) - oracle.pixel(column, row)) <= 2, (row, column)
    # walls bright, floors grey, the void black: the brightest pixel's column crosses a wall
    # (over 128 units of solid), the commonest lit value is a room's (floor and ceiling
    # slabs: under 64 units)
    assert oracle.solid(*oracle.centre(brightest[0][1], brightest[0][0])) > 128
    values, counts = np.unique(pixels[pixels > 0], return_counts=True)
    floor = np.argwhere(pixels == values[counts.argmax()])[0]
    assert 0 < oracle.solid(*oracle.centre(floor[1], floor[0])) < 64
    assert values[counts.argmax()] < pixels.max() / 4


@pytest.mark.parametrize("path", corpus_maps("q3"))
def test_every_quake3_map_matches_the_oracle_unsharpened(path):
    """Without the sharpen filter each pixel is its column's solid share; on every Quake 3
    map, the brightest pixels and a sample of the others against the oracle."""
    with bspedit.open(path) as bsp:
        plain = minimap(bsp, 128, sharpen=-1)
    oracle = Oracle(path, 128)
    assert plain.bounds == oracle.bounds
    assert plain.pixels.shape == (128, 128)
    height = oracle.maxs[2] - oracle.mins[2]
    rng = np.random.default_rng(7)
    lit = np.argwhere(plain.pixels > 0)
    picked = [lit[i] for i in rng.choice(len(lit), min(6, len(lit)), replace=False)]
    picked += list(np.argwhere(plain.pixels == plain.pixels.max())[:2])
    for row, column in picked:
        share = oracle.solid(*oracle.centre(column, row)) / height
        expected = int(min(max(share, 0.0), 255 / 256) * 256)
        assert abs(int(plain.pixels[row, column]) - expected) <= 1, (row, column)


def test_png_output_and_refused_formats(tmp_path):
    if not CTF2.exists():
        pytest.skip("../shared/corpus not present")
    from PIL import Image

    assert render(CTF2, "--minimap", "-o", tmp_path / "a.tga")[0] == 0
    assert render(CTF2, "--minimap", "-o", tmp_path / "a.png", "--json")[0] == 0
    _, pixels = read_tga((tmp_path / "a.tga").read_bytes())
    png = Image.open(tmp_path / "a.png")
    assert png.mode == "L" and np.array_equal(np.asarray(png), pixels[::-1])    # north up
    code, err = render(CTF2, "--minimap", "-o", tmp_path / "a.jpg")
    assert code == 2 and ".tga or .png" in err and not (tmp_path / "a.jpg").exists()
    code, err = render(CTF2, "--minimap", "--radar", "csgo", "-o", tmp_path / "b.tga")
    assert code == 2 and not (tmp_path / "b.tga").exists()


def test_output_is_the_input_map_is_refused(tmp_path):
    if not CTF2.exists():
        pytest.skip("../shared/corpus not present")
    copy = tmp_path / "map.tga"
    copy.write_bytes(CTF2.read_bytes())
    code, err = render(copy, "--minimap", "-o", copy)
    assert code == 2 and "input map" in err
    assert copy.read_bytes() == CTF2.read_bytes()


@pytest.mark.parametrize("maps", [pytest.param(CORPUS_MAPS, id="every-map",
                                               marks=pytest.mark.full)])
def test_every_corpus_map_gives_a_minimap(maps):
    for path in maps:
        with bspedit.open(path) as bsp:
            picture = minimap(bsp, 256)
        assert picture.pixels.shape == (256, 256) and picture.pixels.dtype == np.uint8
        assert len(picture.tga()) == 18 + 256 * 256


@pytest.mark.full
def test_bench_minimap_of_the_10_mb_map():
    import time

    if not BIG.exists():
        pytest.skip("../shared/corpus not present")
    start = time.perf_counter()
    with bspedit.open(BIG) as bsp:
        minimap(bsp)
    assert time.perf_counter() - start < 3


@pytest.mark.parametrize("family", ["ql", "fbsp", "rbsp"])
def test_quake3_variants_give_the_same_minimap(family, tmp_path):
    """IBSP 47 and FBSP keep Quake 3's flags: the same picture. RBSP's sky flag is 0x2000
    (Jedi Academy), so the Quake 3 sky shaders (0x4) of the converted map are solid there."""
    from quake3_variants import convert

    if not CTF2.exists():
        pytest.skip("../shared/corpus not present")
    variant = tmp_path / f"{family}.bsp"
    variant.write_bytes(convert(CTF2.read_bytes(), family))
    with bspedit.open(CTF2) as bsp:
        base = minimap(bsp, 128)
    with bspedit.open(variant) as bsp:
        assert bsp.family.key == ("q3" if family == "ql" else family)
        other = minimap(bsp, 128)
    assert other.bounds == base.bounds
    if family != "rbsp":
        assert np.array_equal(other.pixels, base.pixels)
        return
    shaders = q3_records(CTF2.read_bytes(), 1, "<64sii")
    assert any(flags & 4 for _, flags, _ in shaders)
    assert not np.array_equal(other.pixels, base.pixels)    # the sky brushes drawn


# -- Quake 1 and GoldSrc: the BSP tree, walked by the merge tests' independent oracle --------
CONTENTS_EMPTY, CONTENTS_SOLID = -1, -2       # Quake's bspfile.h
TREE_SAMPLES = 512                             # points along each column


def _tree_share(path: Path, plain) -> tuple[np.ndarray, np.ndarray]:
    """Per pixel of `plain` (a minimap without its sharpen filter): the share of its column
    that hull 0's tree puts in CONTENTS_SOLID leaves, sampled at TREE_SAMPLES heights by the
    merge tests' struct reader and tree walker (0 for a column that meets no other leaf: the
    void), and whether a sample lies within 0.01 unit of a plane crossed on the way."""
    from test_merge import Map, walk

    m = Map(path)
    (x0, y0, z0), (x1, y1, z1) = plain.letterboxed
    size = plain.pixels.shape[0]
    xs = x0 + (x1 - x0) * (np.arange(size) + 0.5) / size
    ys = y0 + (y1 - y0) * (np.arange(size) + 0.5) / size
    zs = z0 + (z1 - z0) * (np.arange(TREE_SAMPLES) + 0.5) / TREE_SAMPLES
    gx, gy, gz = np.meshgrid(xs, ys, zs, indexing="xy")   # (row: y, column: x, sample)
    points = np.stack([gx.ravel(), gy.ravel(), gz.ravel()], axis=1)
    head = int(m["MODELS"]["headnode"][0][0])
    contents, nearest = walk(m, head, points, 0)
    solid = (contents // 100000 == CONTENTS_SOLID).reshape(size, size, TREE_SAMPLES)
    opened = ~solid.all(axis=2)
    share = np.where(opened, solid.mean(axis=2), 0.0)
    close = (nearest < 0.01).reshape(size, size, TREE_SAMPLES).any(axis=2)
    return share, close


@pytest.mark.parametrize("path", corpus_maps("q1") + corpus_maps("goldsrc"))
def test_quake1_and_goldsrc_minimaps_match_the_tree_oracle(path):
    """Without the sharpen filter each pixel is its column's share in solid leaves; the
    oracle samples the column through the tree read with struct (walls between rooms and the
    void outside: black; a room: its floor and ceiling slabs' share)."""
    with bspedit.open(path) as bsp:
        plain = minimap(bsp, 64, sharpen=-1)
    if plain.method != "bsp tree" or plain.broken:
        pytest.skip("not traced through a sound tree")
    share, close = _tree_share(path, plain)
    expected = (np.clip(share, 0.0, 255 / 256) * 256).astype(int)
    got = plain.pixels.astype(int)
    # sampling error: each end of a solid piece is known to within a sample's height; an
    # opening thinner than a sample can be missed (a column then void to the oracle)
    off = np.abs(got - expected)[~close] > 2 * 256 // TREE_SAMPLES + 1
    assert off.sum() <= max(2, off.size // 500), off.sum()
    # the small test boxes' floors lie on their bounds: no solid inside them, all black
    assert (got > 0).sum() >= 0.9 * (expected > 0).sum()
