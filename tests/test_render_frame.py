"""The picture grid of `render` (`raster.Frame`) and `topdown`'s options: frames around bounds
keep the bounds inside and their pixel size, pixel centres map to world points and back,
`altitude` keeps only the polygons whose centre lies in the range, a fixed `frame` is used
as given."""
from __future__ import annotations

import numpy
import pytest
from conftest import CORPUS

import bspedit
from bspedit.features.render.picture import topdown
from bspedit.features.render.raster import Frame

needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus not present")


@pytest.mark.parametrize("mins, maxs, size", [((-100.0, -50.0), (300.0, 50.0), 512),
                                             ((0.0, 0.0), (10.0, 4000.0), 1000),
                                             ((5.0, 5.0), (5.0, 5.0), 64)])
def test_fit_keeps_the_bounds_inside_and_the_longer_side(mins, maxs, size):
    frame = Frame.fit(mins, maxs, size)
    assert max(frame.width, frame.height) == size
    assert frame.min_x <= mins[0] and frame.max_x >= maxs[0]
    assert frame.min_y <= mins[1] and frame.max_y >= maxs[1]
    assert frame.to_json()["units_per_pixel"] == frame.scale
    square = Frame.square(mins, maxs, size)
    assert (square.width, square.height) == (size, size)
    assert square.min_x <= mins[0] and square.max_y >= maxs[1]


def test_pixel_centres_map_to_world_and_back():
    frame = Frame(-128.0, 256.0, 2.0, 100, 50)
    px, py = numpy.array([0, 10, 99]), numpy.array([0, 49, 25])
    x, y = frame.to_world(px, py)
    assert list(x) == [-127.0, -107.0, 71.0] and list(y) == [255.0, 157.0, 205.0]
    back = frame.to_pixels(numpy.stack([x, y], axis=1))
    assert numpy.array_equal(numpy.floor(back).astype(int), numpy.stack([px, py], axis=1))
    assert (frame.max_x, frame.min_y) == (72.0, 156.0)
    fine = frame.finer(2)
    assert (fine.width, fine.height, fine.scale) == (200, 100, 1.0)


@needs_corpus
def test_altitude_and_a_fixed_frame():
    with bspedit.open(CORPUS / "q2/opentdm_q2rdm2_indexorder.bsp") as bsp:
        whole = topdown(bsp, size=256)
        low, high = whole.legend["min_z"], whole.legend["max_z"]
        middle = (low + high) / 2
        level = topdown(bsp, frame=whole.frame, altitude=(low, middle))
    geo = level.geometry
    centre = numpy.add.reduceat(geo.corners[:, 2], geo.starts[:-1]) / numpy.diff(geo.starts)
    assert len(level.order) and (centre[level.order] <= middle).all()
    assert level.frame == whole.frame and level.image.size == whole.image.size
    assert level.faces_skipped.get("altitude", 0) > 0
    assert level.faces_drawn < whole.faces_drawn
