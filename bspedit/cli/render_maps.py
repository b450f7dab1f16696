"""`render --minimap` (q3map2 -minimap's picture) and `render --radar css|csgo [--pack]` (the
Counter-Strike overview files): options and run, called by the `render` verb (cli/render.py)."""
from __future__ import annotations

import argparse
import os
from typing import Any

from ..bsp import Bsp
from ..container.outputs import STDOUT, staged_folder, write_file
from ..errors import BspError
from .common import save, set_result

#: Picture formats `--minimap -o` writes, by file extension.
MINIMAP_FORMATS = (".tga", ".png")


def add_options(parser: argparse.ArgumentParser) -> None:
    """`--minimap`, `--radar GAME`, `--pack` with `--in-place` and `--dry-run` on the `render`
    verb."""
    group = parser.add_argument_group("game radars and minimaps")
    group.add_argument("--minimap", action="store_true",
                       help="write what q3map2 -minimap writes: a square greyscale picture of "
                            "the world's bounds, each pixel the share of its column inside "
                            "solid, non-sky brushes (OUT.tga: q3map2's Targa, OUT.png: the "
                            "same pixels as PNG; default MAP's name .tga beside it; --size "
                            "default 512)")
    group.add_argument("--radar", choices=("css", "csgo"),
                       help="write a Counter-Strike radar into the folder -o DIR, under the "
                            "game's paths: resource/overviews/<map>.txt and <map>_radar.dds "
                            "(csgo: one per level, with vertical sections); css adds "
                            "materials/overviews/<map>.vtf and .vmt, which CS:S reads")
    group.add_argument("--name", metavar="NAME",
                       help="the map name the files are named for (radar: resource/overviews/"
                            "NAME.txt, NAME_radar.dds, ...; minimap without -o: NAME.tga "
                            "beside the map); default: the output map's (--pack -o OUT.bsp), "
                            "else the input map's file name")
    group.add_argument("--pack", action="store_true",
                       help="with --radar: put the radar's files into the map's pakfile "
                            "(Source) and save the map to -o OUT.bsp or --in-place")
    group.add_argument("--in-place", action="store_true",
                       help="with --pack: save the map itself")
    group.add_argument("--dry-run", action="store_true",
                       help="with --pack: report what the save would do and write nothing")
    parser.set_defaults(layout="stable", keep_checksum=False, output_folder=radar_folder)


def radar_folder(args: argparse.Namespace) -> bool:
    """Whether `-o` names a folder the verb fills: a radar written as files (not --pack)."""
    return bool(args.radar) and not args.pack


def run(args: argparse.Namespace) -> int:
    if args.minimap and args.radar:
        raise BspError("--minimap and --radar are two different pictures: ask for one")
    if args.pack and not args.radar:
        raise BspError("--pack puts a radar into the map's pakfile: give --radar css|csgo")
    if args.name is not None:
        _check_name(args.name, "--name")
    if (args.in_place or args.dry_run) and not args.pack:
        raise BspError(f"{'--in-place' if args.in_place else '--dry-run'} goes with --radar "
                       f"... --pack, which saves the map (pictures are written or not at all)")
    with Bsp.open(args.map) as bsp:
        if args.minimap:
            return _minimap(bsp, args)
        return _radar(bsp, args)


def _minimap(bsp: Bsp, args: argparse.Namespace) -> int:
    from ..features.render.minimap import SIZE, minimap

    if args.name and args.output:
        raise BspError("--minimap -o OUT names its file: leave out --name")
    default = os.path.join(os.path.dirname(args.map), args.name) if args.name else \
        os.path.splitext(args.map)[0]
    output = args.output or default + ".tga"
    kind = ".tga" if output == STDOUT else os.path.splitext(output)[1].lower()
    if kind not in MINIMAP_FORMATS:
        raise BspError(f"--minimap writes {' or '.join(MINIMAP_FORMATS)} (q3map2 writes a "
                       f"Targa), not {kind or 'a file without extension'}", path=output)
    size = getattr(args, "size", None) or SIZE
    picture = minimap(bsp, size, skybox=args.skybox)
    if kind == ".tga":
        data = picture.tga()
    else:
        import io

        from PIL import Image

        buffer = io.BytesIO()
        Image.fromarray(picture.pixels[::-1], "L").save(buffer, "PNG")
        data = buffer.getvalue()
    write_file(output, data, inputs=[bsp.path])
    (mins, maxs), (low, high) = picture.bounds, picture.letterboxed
    set_result(args, {"output": output, "format": kind[1:], "size": size,
                      "method": picture.method, "bounds": {"mins": mins, "maxs": maxs},
                      "letterboxed": {"mins": low, "maxs": high}, "broken": picture.broken,
                      "playable": {"skybox": picture.skybox}})
    if output != STDOUT:
        what = "brushes" if picture.method == "brushes" else "tree nodes"
        left_out = f"; {picture.broken} damaged {what} left out" if picture.broken else ""
        args.report.say(f"wrote {output}: {size} x {size} minimap of {_box(mins, maxs)} "
                        f"(letterboxed to {_box(low, high)}; solid from {picture.method}"
                        f"{left_out})")
    return 0


def _check_name(name: str, what: str) -> None:
    """Refuse a map name the files cannot carry: empty, a path, a quote, not printable ASCII
    (a radar's overview file is ASCII KeyValues)."""
    if not name or not name.isascii() or any(c in name for c in '/\\"') or \
            not name.isprintable():
        raise BspError(f"{what}: {name!r} cannot name the files (printable ASCII, no "
                       f"/ \\ or \")")


def _box(mins: Any, maxs: Any) -> str:
    return "(" + " ".join(f"{v:g}" for v in mins) + ") to (" + \
        " ".join(f"{v:g}" for v in maxs) + ")"


def _radar(bsp: Bsp, args: argparse.Namespace) -> int:
    from ..features.render.radar import SIZE, map_name, radar

    size = getattr(args, "size", None)
    if size not in (None, SIZE):
        raise BspError(f"a radar is {SIZE} x {SIZE} pixels, the size the games place it at "
                       f"(its scale is world units per pixel of that); leave out --size")
    if args.pack:
        if bsp.family.pakfile is None:
            raise BspError(f"--pack puts files into a Source map's pakfile; this map is "
                           f"{bsp.family.title}, which has none (write them with -o DIR)",
                           path=bsp.path)
        if not args.output and not args.in_place:
            raise BspError("--pack saves the map: say where, with -o OUT.bsp or --in-place")
    elif not args.output or args.output == STDOUT:
        raise BspError("--radar writes several files: give the folder with -o DIR")
    name = args.name or map_name(args.output if args.pack and args.output else bsp.path)
    _check_name(name, "the map's name (give another with --name NAME)")
    made = radar(bsp, args.radar, name, skybox=args.skybox, overhead=args.overhead)
    files = made.files()
    result: dict[str, Any] = {
        "game": made.game, "name": made.name, "pos_x": made.pos_x, "pos_y": made.pos_y,
        "scale": made.scale, "size": SIZE,
        "levels": [{"name": level.name, "altitude_min": level.altitude_min,
                    "altitude_max": level.altitude_max,
                    "faces_skipped": made.faces_skipped[level.name]} for level in made.levels],
        "files": sorted(files), "playable": made.playable}
    if args.pack:
        for name, data in sorted(files.items()):
            bsp.pakfile.add(name, data, update=True)
        result["output"] = "pakfile"
        set_result(args, result)
        _say(args, made, files, "packed")
        save(bsp, args)
        return 0
    from pathlib import Path

    with staged_folder(args.output, inputs=[bsp.path]) as staging:
        for name, data in files.items():
            path = Path(staging, *name.split("/"))
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    result["output"] = args.output
    set_result(args, result)
    _say(args, made, files, f"wrote into {args.output}:")
    return 0


def _say(args: argparse.Namespace, made: Any, files: dict[str, bytes], verb: str) -> None:
    args.report.say(f"{made.game} radar of {made.name}: pos_x {made.pos_x:g}, pos_y "
                    f"{made.pos_y:g}, scale {made.scale:g}; levels: "
                    + ", ".join(f"{level.name} ({level.altitude_min:g} to "
                                f"{level.altitude_max:g})" for level in made.levels))
    for name in sorted(files):
        args.report.say(f"{verb} {name} ({len(files[name])} bytes)")
