"""Counter-Strike radars (issue 33): the overview pictures and the `resource/overviews/<map>.txt`
that places them, for CS:GO and CS:S.

The frame: a square around the playable map's polygons (`playable`: the 3D skybox and
overhead covers left out; hidden faces such as sky and clip kept) with a margin of 1/32 of its
side, drawn at 1024 x 1024 by the top-down renderer (colour by height, transparent where
nothing is drawn). The `.txt` gives `pos_x`, `pos_y`: the world position of
the picture's top-left corner, and `scale`: world units per pixel of the 1024-pixel picture,
as the games read them (`cl_leveloverview` prints the same three numbers).

Levels (CS:GO's vertical sections): the columns of a 128 x 128 grid over the frame are cut by
the world's solid brushes (the minimap's solids, `minimap.solid_columns`, those that reach
the frame's heights, so a skybox above the map is no room); an open gap at least
`ROOM` units high with solid above and below is a room. When at least `SHARE` of the columns
holding a room hold two rooms whose floors are `STACKED` units apart or more, the map has two
levels split at the median height halfway between the lower room's ceiling and the upper
room's floor: `default` shows what is above it, `lower` what is below (`<map>_lower_radar.dds`,
as de_nuke's). Outdoor ground under the sky has no solid above it, so only enclosed spaces
count: a roof over a hall is not a second level.

Files, by game:
* CS:GO: `resource/overviews/<map>_radar.dds` (DXT5) per level and `<map>.txt`;
* CS:S reads no DDS and no vertical sections: `materials/overviews/<map>.vtf` (BGRA8888, VTF
  7.2, written with srctools) and its `.vmt`, named by the `.txt`'s `material`; the DDS is
  written too.
"""
from __future__ import annotations

import io
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...errors import BspError, CheckFailed
from .minimap import Grid, solid_columns

if TYPE_CHECKING:
    import numpy
    from PIL import Image

    from ...bsp import Bsp

GAMES = ("css", "csgo")
SIZE = 1024
MARGIN = 1 / 32
ROOM = 72.0             # a standing player's height (CS)
STACKED = 128.0
SHARE = 0.15
_LEVEL_GRID = 128


@dataclass(frozen=True, slots=True)
class Level:
    """A vertical section: its name ("default" or "lower") and the heights it shows."""

    name: str
    altitude_min: float
    altitude_max: float


@dataclass(slots=True)
class Radar:
    """A radar's placement, levels and pictures (one PIL RGBA image per level)."""

    name: str
    game: str
    pos_x: float
    pos_y: float
    scale: float
    levels: list[Level]
    images: dict[str, Image.Image] = field(default_factory=dict)
    playable: dict[str, Any] = field(default_factory=dict)     # `Playable.summary()`
    faces_skipped: dict[str, dict[str, int]] = field(default_factory=dict)    # by level

    def overview_txt(self) -> str:
        """`resource/overviews/<map>.txt` in the KeyValues form the games read."""
        lines = [f'"{self.name}"', "{", f'\t"material"\t"overviews/{self.name}"',
                 f'\t"pos_x"\t\t"{_number(self.pos_x)}"', f'\t"pos_y"\t\t"{_number(self.pos_y)}"',
                 f'\t"scale"\t\t"{_number(self.scale)}"', '\t"rotate"\t"0"', '\t"zoom"\t\t"1"']
        if len(self.levels) > 1:
            lines += ['', '\t"verticalsections"', "\t{"]
            for level in self.levels:
                lines += [f'\t\t"{level.name}"', "\t\t{",
                          f'\t\t\t"AltitudeMax"\t"{_number(level.altitude_max)}"',
                          f'\t\t\t"AltitudeMin"\t"{_number(level.altitude_min)}"', "\t\t}"]
            lines.append("\t}")
        lines.append("}")
        return "\n".join(lines) + "\n"

    def dds_name(self, level: str) -> str:
        return f"{self.name}_radar.dds" if level == "default" else \
            f"{self.name}_{level}_radar.dds"

    def files(self) -> dict[str, bytes]:
        """Every file of the radar by its path under the game folder ('/'-separated)."""
        out = {f"resource/overviews/{self.name}.txt": self.overview_txt().encode("ascii")}
        for level in self.levels:
            data = io.BytesIO()
            self.images[level.name].save(data, "DDS", pixel_format="DXT5")
            out[f"resource/overviews/{self.dds_name(level.name)}"] = data.getvalue()
        if self.game == "css":
            out[f"materials/overviews/{self.name}.vtf"] = _vtf(self.images["default"])
            out[f"materials/overviews/{self.name}.vmt"] = _vmt(self.name).encode("ascii")
        return out


def _number(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".")


def _vmt(name: str) -> str:
    """The overview material CS:S draws (UnlitGeneric, translucent, on top of everything)."""
    return ('"UnlitGeneric"\n{\n'
            f'\t"$basetexture"\t"overviews/{name}"\n\t"$translucent"\t"1"\n'
            '\t"$vertexalpha"\t"1"\n\t"$vertexcolor"\t"1"\n\t"$no_fullbright"\t"1"\n'
            '\t"$ignorez"\t"1"\n}\n')


def _vtf(image: Image.Image) -> bytes:
    """A VTF 7.2 (BGRA8888, clamped, no mipmaps) of `image`, by srctools."""
    try:
        from srctools.vtf import VTF, ImageFormats, VTFFlags
    except ImportError as exc:      # srctools has no wheel for some platforms
        raise BspError(f"--radar css writes a VTF with srctools, which is not installed "
                       f"here ({exc})") from None
    flags = VTFFlags.CLAMP_S | VTFFlags.CLAMP_T | VTFFlags.NO_MIP | VTFFlags.NO_LOD \
        | VTFFlags.EIGHTBITALPHA
    vtf = VTF(image.width, image.height, version=(7, 2), flags=flags, fmt=ImageFormats.BGRA8888)
    vtf.mipmap_count = 1            # the picture only, as NO_MIP says
    vtf.get().copy_from(image.convert("RGBA").tobytes(), ImageFormats.RGBA8888)
    data = io.BytesIO()
    vtf.save(data)
    return data.getvalue()


def map_name(path: str) -> str:
    """The map's name as the games know it: its file name without `.bsp`."""
    name = os.path.basename(path)
    return name[:-4] if name.lower().endswith(".bsp") else name


def frame(bounds: tuple[numpy.ndarray[Any, Any], numpy.ndarray[Any, Any]],
          size: int = SIZE) -> tuple[float, float, float, tuple[float, float]]:
    """The radar's square around `bounds` (mins, maxs): (pos_x, pos_y, scale, (z min,
    z max)); the corner rounded outward to whole units and the scale up to 4 decimals, so
    that the numbers the `.txt` holds are the ones the picture is drawn with, and still cover
    the bounds."""
    import math

    mins, maxs = bounds
    side = float(max(maxs[0] - mins[0], maxs[1] - mins[1], 1.0)) * (1 + 2 * MARGIN)
    centre_x, centre_y = (mins[0] + maxs[0]) / 2, (mins[1] + maxs[1]) / 2
    scale = math.ceil((side + 2) / size * 1e4) / 1e4
    return (float(math.floor(centre_x - side / 2)), float(math.ceil(centre_y + side / 2)),
            scale, (float(mins[2]), float(maxs[2])))


def levels(bsp: Bsp, pos_x: float, pos_y: float, side: float,
           heights: tuple[float, float]) -> list[Level]:
    """The map's vertical sections by the rule of this module's docstring."""
    import numpy as np

    low, high = heights
    grid = Grid((pos_x, pos_y - side, low), (pos_x + side, pos_y, high), _LEVEL_GRID)
    columns = solid_columns(bsp, grid).reaching(low, high)
    order = np.lexsort((columns.bottom, columns.pix))
    pix, bottom, top = columns.pix[order], columns.bottom[order], columns.top[order]
    if not len(pix):
        return [Level("default", low - 1, high + 1)]
    # the highest top so far within each column: the ceiling of everything below
    span = float(max(np.abs(top).max(), np.abs(bottom).max())) * 4 + 1
    reach = np.maximum.accumulate(top + pix * span) - pix * span
    same = pix[1:] == pix[:-1]
    gap = same & (bottom[1:] - reach[:-1] >= ROOM)
    room_pix = pix[1:][gap]
    floor, ceiling = reach[:-1][gap], bottom[1:][gap]
    with_room = np.unique(room_pix)
    if not len(with_room):
        return [Level("default", low - 1, high + 1)]
    # rooms come sorted by column, then height: each column's lowest room and the next one
    first = np.r_[True, room_pix[1:] != room_pix[:-1]]
    upper = np.flatnonzero(np.r_[False, first[:-1]] & ~first)
    lower = upper - 1
    stacked = floor[upper] - floor[lower] >= STACKED
    if stacked.sum() < SHARE * len(with_room):
        return [Level("default", low - 1, high + 1)]
    split = float(np.median((ceiling[lower][stacked] + floor[upper][stacked]) / 2))
    return [Level("default", split, high + 1), Level("lower", low - 1, split)]


def radar(bsp: Bsp, game: str, name: str | None = None, *, skybox: bool = False,
          overhead: bool = False) -> Radar:
    """The radar of `bsp` for `game` (css or csgo), its pictures drawn, named `name` (default:
    the map's file name); the frame, heights and levels come from the playable map
    (`playable`: unless `skybox`, `overhead`, the 3D skybox and overhead covers left out)."""
    from .picture import topdown
    from .playable import playable
    from .raster import Frame
    from .shapes import geometry

    if game not in GAMES:
        raise BspError(f"--radar is one of {', '.join(GAMES)}, not {game!r}")
    geo = geometry(bsp)
    plan = playable(bsp, geo, skybox=skybox, overhead=overhead)
    bounds = plan.bounds(geo)
    if bounds is None:          # nothing sound to frame: the picture's own check says why
        topdown(bsp, frame=Frame(0.0, 0.0, 1.0, 1, 1), legend=False, skybox=skybox,
                overhead=overhead)
        raise CheckFailed("nothing drawn: the map has no sound geometry; nothing written",
                          path=bsp.path)
    pos_x, pos_y, scale, heights = frame(bounds)
    sections = levels(bsp, pos_x, pos_y, scale * SIZE, heights) if game == "csgo" else \
        [Level("default", heights[0] - 1, heights[1] + 1)]
    result = Radar(name or map_name(bsp.path), game, pos_x, pos_y, scale, sections,
                   playable=plan.summary())
    square = Frame(pos_x, pos_y, scale, SIZE, SIZE)
    for level in sections:
        altitude = None if len(sections) == 1 else (level.altitude_min, level.altitude_max)
        picture = topdown(bsp, size=SIZE, color="height", models="all", frame=square,
                          altitude=altitude, legend=False, skybox=skybox, overhead=overhead)
        result.images[level.name] = picture.image
        result.faces_skipped[level.name] = picture.faces_skipped
    return result
