"""`render`: a top-down picture of the map (PNG or SVG, from OUT's extension), north up;
`--minimap` and `--radar` (q3map2's minimap, Counter-Strike radars) come from
`bspedit.cli.render_maps`."""
from __future__ import annotations

import argparse
import os

from ..bsp import Bsp
from ..errors import BspError
from ..progress import bar
from . import SUMMARIES, render_maps
from .common import add_verb, set_result

#: picture formats by file extension
FORMATS = {".png": "png", ".svg": "svg"}
DEFAULT_SIZE = 1024
#: pictures of at least this many pixels get a progress bar (4096 x 4096: about 2 s)
BIG_PICTURE = 4096 * 4096


def _size(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 1 <= value <= 16384:
        raise argparse.ArgumentTypeError(f"{value} pixels: give 1 to 16384")
    return value


def register(commands: argparse._SubParsersAction) -> None:
    from ..features.render.picture import COLORS, MODELS

    parser = add_verb(commands, run, "render", help=SUMMARIES["render"],
                      description="A top-down picture of the map, north up. Faces the player "
                                  "never sees and damaged records (counted as broken) are left "
                                  "out; a picture with nothing drawn is not written: exit 1, "
                                  "one line saying why.")
    parser.add_argument("-o", "--output", metavar="OUT",
                        help="the picture to write: OUT.png (antialiased, the frame in tEXt "
                             "chunks) or OUT.svg (one polygon path per face)")
    parser.add_argument("--size", type=_size, metavar="N",
                        help=f"pixels on the picture's longer side (default {DEFAULT_SIZE})")
    parser.add_argument("--color", choices=COLORS, default="height",
                        help="height: a ramp from the lowest to the highest floor, with a "
                             "legend (default); texture: each texture's average colour (or "
                             "one hashed from its name); lightmap: the map's own light (a map "
                             "without: exit 1)")
    parser.add_argument("--models", choices=MODELS, default="all",
                        help="all: the world and brush entities (doors, platforms; default); "
                             "world: model 0 only")
    parser.add_argument("--no-legend", action="store_true",
                        help="no height legend in the picture")
    parser.add_argument("--no-sky", action="store_true",
                        help="leave out upward sky faces (by default they are drawn pale "
                             "blue: the floor of a sky box around the map, as bsputil --svg "
                             "draws it; never part of the height range)")
    parser.add_argument("--skybox", action="store_true",
                        help="draw the 3D skybox (Source) where it is stored, framed with the "
                             "map (by default it is left out of the picture, its frame and "
                             "height ramp, radars and minimaps: the area of the leaf holding "
                             "sky_camera, the world faces only its leaves list, the "
                             "displacements and brush entities whose box reaches only its "
                             "leaves; nothing is left out when the camera is in solid, a "
                             "player spawn stands in its area or the map has one area)")
    parser.add_argument("--overhead", action="store_true",
                        help="draw overhead covers (left out by default: a brush entity whose "
                             "lowest point is above the world's highest floor and every "
                             "player spawn, and whose box covers half the world floors' box "
                             "seen from above)")
    parser.add_argument("--palette", metavar="FILE",
                        help="Quake 1, --color texture: the game's gfx/palette.lmp (768 "
                             "bytes) or an entry of a PACK or WAD file, as "
                             "pak0.pak:gfx/palette.lmp (the map holds none; without it "
                             "textures get colours from their names)")
    render_maps.add_options(parser)


def run(args: argparse.Namespace) -> int:
    if getattr(args, "minimap", False) or getattr(args, "radar", None):
        return render_maps.run(args)
    from ..container.outputs import write_file
    from ..features.render.picture import topdown
    from ..features.render.writers import png_chunks, svg_bytes
    from ..features.texwad import read_palette

    if args.pack or args.in_place or args.dry_run:
        raise BspError("--pack, --in-place and --dry-run go with --radar (a picture is "
                       "written or not at all)")
    if args.name is not None:
        raise BspError("--name names the files of --radar or --minimap")
    if not args.output:
        raise BspError("say where to write: -o OUT.png or -o OUT.svg")
    kind = FORMATS.get(os.path.splitext(args.output)[1].lower())
    if kind is None:
        raise BspError("render writes .png or .svg: name the output OUT.png or OUT.svg",
                       path=args.output)
    palette = None if args.palette is None else read_palette(args.palette)
    with Bsp.open(args.map) as bsp:
        if palette is not None and (args.color != "texture" or bsp.family.engine != "quake1"):
            args.report.warn(f"--palette is not used: only Quake 1 maps drawn with --color "
                             f"texture need one (this is a {bsp.family.title} map drawn with "
                             f"--color {args.color})")
        picture = topdown(bsp, size=args.size or DEFAULT_SIZE, color=args.color,
                          models=args.models, palette=palette, legend=not args.no_legend,
                          sky=not args.no_sky, skybox=args.skybox, overhead=args.overhead)
        frame = picture.frame
        if kind == "svg":
            write_file(args.output, svg_bytes(picture), inputs=[bsp.path])
        else:
            with bar(frame.height, f"render {os.path.basename(args.output)}", unit="rows",
                     minimum=-(-BIG_PICTURE // frame.width)) as shown:
                write_file(args.output, png_chunks(picture, shown.advance), inputs=[bsp.path])
    set_result(args, {"output": args.output, "format": kind, "models": args.models,
                      **picture.summary()})
    skipped = ", ".join(f"{n} {reason}" for reason, n in picture.faces_skipped.items())
    args.report.say(f"wrote {args.output}: {frame.width} x {frame.height} px, "
                    f"{frame.scale:.4g} units per pixel, x {frame.min_x:.1f}..{frame.max_x:.1f}"
                    f", y {frame.min_y:.1f}..{frame.max_y:.1f}; {picture.faces_drawn} faces "
                    f"drawn ({args.color}); skipped: {skipped or 'none'}")
    return 0
