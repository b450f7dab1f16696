"""`lightmaps MAP -o DIR`: the map's light as PNG atlases, one per light style, with
`faces.json` mapping each face to its rectangle (issue 33). All or nothing: DIR gets every
file or none. A map without light data writes nothing and exits 1."""
from __future__ import annotations

import argparse

from ..bsp import Bsp
from ..errors import BspError, CheckFailed
from . import SUMMARIES
from .common import add_verb, set_result


def register(commands: argparse._SubParsersAction) -> None:
    parser = add_verb(commands, run_lightmaps, "lightmaps", help=SUMMARIES["lightmaps"],
                      description="Write DIR/style<N>.png per light style (Source HDR also "
                                  "hdr_style<N>.png and the linear hdr_style<N>.hdr; Quake 3 "
                                  "also its lightmaps as stored, page_<NNN>.png, and "
                                  "with deluxemaps the light direction apart, "
                                  "style<N>.dir.png and page_<NNN>.dir.png) and "
                                  "DIR/faces.json, each face's rectangle, styles and pages. "
                                  "All or nothing; a map without light data exits 1, "
                                  "writing nothing.")
    parser.add_argument("-o", "--output", dest="directory", metavar="DIR", required=True,
                        help="the folder to write (created; files of the same names in an "
                             "existing folder are replaced)")


def run_lightmaps(args: argparse.Namespace) -> int:
    from ..container.outputs import STDOUT, guard, staged_folder
    from ..features.render.lightmap import NO_LIGHT, atlases
    from ..features.render.lightmap_files import lightmap_files

    if args.directory == STDOUT:
        raise BspError("lightmaps writes a folder: -o DIR, not standard output")
    guard(args.directory, [args.map], folder=True)
    with Bsp.open(args.map) as bsp:
        family = bsp.family.key
        found = atlases(bsp)
        files = lightmap_files(found, family) if found is not None else {}
    result = {"directory": args.directory, "family": family, "files": sorted(files),
              "width": found.size[0] if found else None,
              "height": found.size[1] if found else None,
              "faces": len(found.rects) if found else 0,
              "styles": found.styles if found else [],
              "hdr": bool(found and found.hdr_pages),
              "deluxe": bool(found and found.directions),
              "broken": found.skipped if found else 0}
    set_result(args, result)
    report = args.report
    if found is None:
        raise CheckFailed(f"{NO_LIGHT}; nothing written", path=args.map)
    if found.skipped:
        report.warn(f"{found.skipped} lit faces' light is damaged (outside the lighting data, "
                    "or claiming it many times over): left out")
    with staged_folder(args.directory, inputs=[args.map]) as staging:
        for name, data in files.items():
            (staging / name).write_bytes(data)
    report.say(f"{len(found.rects)} faces, atlas {found.size[0]} x {found.size[1]}, styles "
               f"{', '.join(map(str, found.styles))}"
               + ("; deluxemaps: the light direction pages apart (.dir.png)"
                  if found.directions else ""))
    report.say(f"wrote {args.directory}: {', '.join(sorted(files))}")
    return 0
