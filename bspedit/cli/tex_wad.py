"""`tex extract|embed|unembed|export`: a Quake 1 or GoldSrc map's embedded textures and WAD
files (`bspedit.features.texwad`). The `tex` verb group adds these with `add_wad_verbs`."""
from __future__ import annotations

import argparse

from ..bsp import Bsp
from ..container.outputs import STDOUT, read_input, write_file
from ..format.names import fold
from .common import add_output, add_verb, save, set_result


def add_wad_verbs(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add extract, embed, unembed and export to the `tex` verbs."""
    extract = add_verb(verbs, run_extract, "extract",
                       help="the embedded textures as a WAD file (WAD3 GoldSrc, WAD2 Quake 1)")
    extract.add_argument("-o", "--output", required=True, metavar="FILE.wad",
                         help="the WAD to write, or - for standard output")

    embed = add_verb(verbs, run_embed, "embed",
                     help="embed the textures the map takes from WADs from these WAD files")
    embed.add_argument("wads", nargs="+", metavar="FILE.wad",
                       help="WAD files; the first holding a name wins")
    _add_only(embed)
    add_output(embed)

    unembed = add_verb(verbs, run_unembed, "unembed",
                       help="drop embedded textures' pixels (names and sizes kept: the game "
                            "loads them from its WADs)")
    _add_only(unembed)
    add_output(unembed)

    export = add_verb(verbs, run_export, "export",
                      help="each embedded texture's full-size image as DIR/NAME.png",
                      epilog="NAME is the texture's name with * written as # and characters "
                             "file systems refuse (\\ / : ? \" < > | and control characters) "
                             "as _; names differing only in case get ~ added. On Windows, and "
                             "elsewhere with BSPEDIT_WINDOWS_NAMES=1 (a folder a Windows "
                             "machine will read), a device name gets _ after it (con.png is "
                             "written as con_.png).")
    export.add_argument("directory", metavar="DIR")
    export.add_argument("--palette", metavar="FILE",
                        help="Quake 1: the game's gfx/palette.lmp (768 bytes) or an entry of "
                             "a PACK or WAD file, as pak0.pak:gfx/palette.lmp (the map holds "
                             "none)")


def _add_only(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--only", metavar="NAMES", action="append",
                        help="only these textures (comma-separated, any case; repeatable)")


def _only(args: argparse.Namespace) -> list[str] | None:
    if args.only is None:
        return None
    return [name for group in args.only for name in group.split(",") if name]


def _warn_missing(args: argparse.Namespace, names: list[str], why: str) -> None:
    """Warn of the --only names not among `names` (the textures the verb could change)."""
    have = {fold(name) for name in names}
    for name in _only(args) or ():
        if fold(name) not in have:
            args.report.warn(f"{name}: nothing to {args.verb} ({why})")


def run_extract(args: argparse.Namespace) -> int:
    from ..features.texwad import extract_wad
    from ..format.wad import Wad

    with Bsp.open(args.map) as bsp:
        data = extract_wad(bsp)
    wad = Wad.parse(data)
    write_file(args.output, data, inputs=[args.map])
    names = [entry.text for entry in wad.entries]
    set_result(args, {"output": args.output, "format": wad.magic.decode(), "textures": names,
                      "bytes": len(data)})
    if args.output != STDOUT:
        args.report.say(f"wrote {args.output}: {wad.magic.decode()}, {len(names)} textures, "
                        f"{len(data)} bytes")
    if not names:
        args.report.warn("the map embeds no textures: the WAD is empty")
    return 0


def run_embed(args: argparse.Namespace) -> int:
    from ..features.texwad import embed
    from ..format.wad import Wad

    wads = [Wad.parse(read_input(path), path) for path in args.wads]
    with Bsp.open(args.map) as bsp:
        names = embed(bsp, wads, _only(args))
        set_result(args, {"embedded": names})
        args.report.say(f"embedded {len(names)} textures: {', '.join(names) or 'none'}")
        _warn_missing(args, names, "not in the WADs, or embedded already")
        save(bsp, args)
    return 0


def run_unembed(args: argparse.Namespace) -> int:
    from ..features.texwad import textures, unembed

    with Bsp.open(args.map) as bsp:
        _warn_missing(args, [e.text for e in textures(bsp).entries if not e.external],
                      "no embedded texture of that name")
        saved = unembed(bsp, _only(args))
        set_result(args, {"bytes_saved": saved})
        args.report.say(f"TEXTURES: {saved} bytes saved")
        save(bsp, args)
    return 0


def run_export(args: argparse.Namespace) -> int:
    from ..features.texwad import export_png, read_palette

    palette = None if args.palette is None else read_palette(args.palette)
    with Bsp.open(args.map) as bsp:
        files = export_png(bsp, args.directory, palette=palette)
    set_result(args, {"directory": args.directory, "files": [str(p) for p in files]})
    args.report.say(f"wrote {len(files)} PNG files to {args.directory}")
    return 0
