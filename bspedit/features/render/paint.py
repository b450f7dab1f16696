"""The pixels of a top-down picture (`picture.topdown`), made one band of rows at a time, so
that memory stays flat whatever the picture's size: each band's polygons are drawn as numbers
(`raster.Bands`), each pixel gets its colour from its polygon (height from the polygon's
plane, slope shade, the colour mode's table or light), pixels where the height jumps are
darkened, the supersampled band is averaged down, and the height legend is drawn into the
band(s) it overlaps (its corner chosen first, from the rows it may cover).
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy

from . import colors
from .geometry import Array, Geometry
from .raster import Bands, Frame, affine, planes, reduce

if TYPE_CHECKING:
    from PIL import Image


#: supersampled pixels coloured at a time: a band is this many over the picture's width
#: (a 1024 px square: 16 bands of 64 rows; 16384 px: 16 rows); about 40 bytes each, 250 with
#: lightmap colours
BAND_PIXELS = 1 << 18
EDGE_SHADE = 0.62
#: the height ramp's steps, and the shade levels (0 to SHADE_TOP) of its look-up table
RAMP_STEPS, SHADES, SHADE_TOP = 1024, 64, 1.25


@dataclass
class Painter:
    """What colours the pixels of one picture: per polygon (row 0 standing for "nothing")
    its plane, slope shade and sky flag, the colour mode's tables, and the light."""

    frame: Frame                  # the picture's
    factor: int                   # samples a side per pixel
    color: str
    z_range: tuple[float, float]
    legend: bool                  # draw the height legend
    bands: Bands                  # the supersampled polygon ids
    plane: Array                  # (P+1, 3) float32
    shade: Array                  # (P+1,) float32
    sky: Array                    # (P+1,) bool
    sky_colour: tuple[int, int, int]
    table: Array | None           # texture: (2 * (P+1), 3) uint8, shaded, plain and on an edge
    light: Light | None
    ramp: Array                   # height: (SHADES * RAMP_STEPS, 3) uint8, the ramp shaded

    @classmethod
    def of(cls, geo: Geometry, order: Array, frame: Frame, factor: int, color: str,
           z_range: tuple[float, float], is_sky: Array, shade: Array,
           sky_colour: tuple[int, int, int], texture_colours: Array | None,
           light: Light | None, legend: bool) -> Painter:
        """`shade` (P,) each polygon's slope shade; `texture_colours` each texture name's
        colour (texture mode)."""
        plane = numpy.concatenate([numpy.zeros((1, 3)), planes(geo)]).astype(numpy.float32)
        shade_of = numpy.concatenate([[1.0], shade]).astype(numpy.float32)
        table = None
        if texture_colours is not None:
            colours = texture_colours.astype(numpy.float32)
            base = numpy.concatenate([numpy.zeros((1, 3), numpy.float32),
                                      colours[numpy.maximum(geo.face_texture[geo.face], 0)]])
            edge_factor = numpy.array([1.0, EDGE_SHADE], numpy.float32)
            table = _bytes(base[:, None] * (shade_of[:, None] * edge_factor)[..., None]
                           ).reshape(-1, 3)
        levels = numpy.linspace(0.0, SHADE_TOP, SHADES, dtype=numpy.float32)
        ramp = colors.ramp(numpy.linspace(0.0, 1.0, RAMP_STEPS)).astype(numpy.float32)
        shaded_ramp = _bytes(levels[:, None, None] * ramp[None]).reshape(-1, 3)
        return cls(frame, factor, color, z_range, legend, Bands(geo, order, frame.finer(factor)),
                   plane, shade_of, numpy.concatenate([[False], is_sky]), sky_colour, table,
                   light, shaded_ramp)

    @property
    def rows_per_band(self) -> int:
        """Picture rows a band holds: `BAND_PIXELS` samples, at least one row."""
        fine = self.frame.width * self.factor * self.factor
        return max(1, BAND_PIXELS // fine)

    def rows(self) -> Iterator[Array]:
        """The picture's RGBA pixels, top to bottom, in bands of `rows_per_band` rows:
        (rows, width, 4) uint8 arrays."""
        height = self.frame.height
        legend = self._legend_place()
        box = colors.LEGEND_BOX
        for top in range(0, height, self.rows_per_band):
            bottom = min(top + self.rows_per_band, height)
            band = self.band(top, bottom)
            if legend is not None and legend[1] < bottom and legend[1] + box[1] > top:
                from PIL import Image

                image = Image.fromarray(band, "RGBA")
                colors.draw_legend(image, self.z_range, (legend[0], legend[1] - top))
                band = numpy.asarray(image)
            yield band

    def image(self) -> Image.Image:
        """The whole picture as one Pillow RGBA image (its width x height x 4 bytes)."""
        from PIL import Image

        pixels = numpy.empty((self.frame.height, self.frame.width, 4), numpy.uint8)
        top = 0
        for band in self.rows():
            pixels[top:top + len(band)] = band
            top += len(band)
        return Image.fromarray(pixels, "RGBA")

    def _legend_place(self) -> tuple[int, int] | None:
        """Where the legend goes: the corner of the picture whose box covers the fewest
        drawn pixels (it hides as little of the map as it can); None: no legend."""
        width, height = self.frame.width, self.frame.height
        places = colors.legend_places(width, height) if self.legend else []
        if not places:
            return None
        box_w, box_h = colors.LEGEND_BOX
        strips = {y: self.band(y, y + box_h)[..., 3] for y in sorted({y for _, y in places})}
        return min(places, key=lambda p: int(strips[p[1]][:, p[0]:p[0] + box_w].sum()))

    def band(self, top: int, bottom: int) -> Array:
        """(bottom - top, width, 4) uint8: rows top..bottom of the picture. The light
        (smooth, 16 units a luxel) is sampled once per picture pixel, at its centre, on a
        polygon drawn in it, for its `factor` x `factor` samples."""
        factor, fine = self.factor, self.frame.finer(self.factor)
        count = (bottom - top) * factor
        # a row more for the edges of the band's last row
        ids = self.bands.ids(top * factor, min(count + 1, fine.height - top * factor))
        xs, ys = fine.to_world(numpy.arange(fine.width),
                               numpy.arange(top * factor, top * factor + len(ids)))
        row_x, row_y = xs.astype(numpy.float32)[None, :], ys.astype(numpy.float32)[:, None]
        plane = self.plane
        z = plane[ids, 0] * row_x + plane[ids, 1] * row_y + plane[ids, 2]
        mask = ids > 0
        edge = _edges(numpy.where(mask, z, numpy.float32(numpy.nan)), fine.scale)[:count]
        ids, z, mask = ids[:count], z[:count], mask[:count]
        rgba = numpy.empty(ids.shape + (4,), numpy.uint8)
        if self.table is not None:
            rgba[..., :3] = self.table[ids * 2 + edge]
        else:
            shade = self.shade[ids] * (1 + (EDGE_SHADE - 1) * edge.astype(numpy.float32))
        if self.color == "height":
            low, high = self.z_range
            to_ramp = (RAMP_STEPS - 1) / max(high - low, 1e-6)
            level = numpy.clip(shade * ((SHADES - 1) / SHADE_TOP) + 0.5, 0, SHADES - 1)
            step = numpy.clip((z - low) * to_ramp + 0.5, 0, RAMP_STEPS - 1)
            rgba[..., :3] = self.ramp[level.astype(numpy.int32) * RAMP_STEPS +
                                      step.astype(numpy.int32)]
        elif self.color == "lightmap":
            assert self.light is not None
            height, width = count // factor, fine.width // factor
            block = ids.reshape(height, factor, width, factor).max(axis=(1, 3))
            r, c = numpy.nonzero(block)
            centre_x = xs.reshape(-1, factor).mean(axis=1).astype(numpy.float32)
            centre_y = ys[:count].reshape(-1, factor).mean(axis=1).astype(numpy.float32)
            lit = numpy.zeros((height, width, 3), numpy.float32)
            lit[r, c] = self.light.at(block[r, c] - 1, centre_x[c], centre_y[r])
            colour = lit.repeat(factor, axis=0).repeat(factor, axis=1)
            rgba[..., :3] = _bytes(colour * shade[..., None])
        rgba[..., :3][self.sky[ids]] = self.sky_colour
        rgba[..., 3] = numpy.where(mask, 255, 0)
        return numpy.asarray(reduce(rgba, factor))


def _bytes(colour: Array) -> Array:
    return numpy.clip(colour + 0.5, 0, 255).astype(numpy.uint8)


def _edges(heights: Array, scale: float) -> Array:
    """Pixels whose right or lower neighbour is at another height (a wall, a step, a ledge),
    slopes excepted."""
    limit = 4.0 + 2.0 * scale
    edge = numpy.zeros(heights.shape, bool)
    with numpy.errstate(invalid="ignore"):
        right = numpy.abs(heights[:, 1:] - heights[:, :-1]) > limit
        down = numpy.abs(heights[1:, :] - heights[:-1, :]) > limit
    edge[:, :-1] |= right
    edge[:-1, :] |= down
    return edge


@dataclass
class Light:
    """The light of style 0 (`colors.style_page`) on each polygon: its atlas (u, v) as an
    affine function of world x, y (`Atlases.uv_affine`), and whether its face is lit."""

    page: Array
    uv: Array           # (P, 3, 2) float32
    lit: Array          # (P,) bool

    @classmethod
    def of(cls, geo: Geometry, atlases: Any) -> Light:
        coef = affine(geo, geo.lightmap_st) if geo.lightmap_st is not None else None
        uv, lit = atlases.uv_affine(geo.face, planes(geo), coef)
        return cls(colors.style_page(atlases), uv.astype(numpy.float32), lit)

    def at(self, polygon: Array, x: Array, y: Array) -> Array:
        """(N, 3): the light at world (x, y) on `polygon` (grey on unlit faces)."""
        k = self.uv[polygon]                                # (N, 3, 2)
        uv = k[:, 0] * x[:, None] + k[:, 1] * y[:, None] + k[:, 2]
        out = colors.sample(self.page, uv)
        out[~self.lit[polygon]] = 128.0
        return out
