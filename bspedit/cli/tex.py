"""`tex`: the textures (materials, shaders) a map names: list them with the faces using them,
rename them in every family; the WAD verbs (extract, embed, unembed, export) come from
`bspedit.cli.tex_wad`."""
from __future__ import annotations

import argparse
from typing import Any

from ..bsp import Bsp
from ..errors import CheckFailed
from . import SUMMARIES
from .common import add_output, add_verb, save, set_result
from .tex_wad import add_wad_verbs


def register(commands: argparse._SubParsersAction) -> None:
    from ..features.textures import MATCHES

    tex = commands.add_parser("tex", help=SUMMARIES["tex"])
    verbs = tex.add_subparsers(dest="verb", required=True, metavar="VERB")
    add_verb(verbs, run_list, "list",
             help="every texture (material, shader) and the faces using it")
    rename = add_verb(verbs, run_rename, "rename",
                      help="rename textures (case-insensitive, as the engines compare names)")
    rename.add_argument("old", metavar="OLD", help="the name, or a pattern with --match")
    rename.add_argument("new", metavar="NEW",
                        help="the new name (--match regex: a replacement, \\1 for a group)")
    rename.add_argument("--match", choices=MATCHES, default="exact",
                        help="how OLD matches names: the whole name (default), a glob "
                             "pattern, a regular expression matching the whole name")
    add_output(rename)
    add_wad_verbs(verbs)


def _cell(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(_cell(v) for v in value)
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value).lower() if isinstance(value, bool) else str(value)


def run_list(args: argparse.Namespace) -> int:
    from ..features.textures import list_textures

    with Bsp.open(args.map) as bsp:
        rows = list_textures(bsp)
        family = bsp.family.key
    set_result(args, {"family": family, "textures": [row.to_dict() for row in rows]})
    say = args.report.say
    columns = list(rows[0].details) if rows else []
    width = max([len(row.name) for row in rows] + [4])
    say(" ".join([f"{'#':>5}", f"{'name':<{width}}", f"{'size':>9}", f"{'faces':>6}",
                  *columns]))
    for row in rows:
        size = f"{row.width}x{row.height}" if row.width is not None else "-"
        say(" ".join([f"{row.index:>5}", f"{row.name:<{width}}", f"{size:>9}",
                      f"{row.faces:>6}", *(_cell(row.details[c]) for c in columns)]))
    say(f"{len(rows)} textures, {sum(row.faces for row in rows)} faces")
    return 0


def run_rename(args: argparse.Namespace) -> int:
    from ..features.textures import rename_textures

    with Bsp.open(args.map) as bsp:
        report = rename_textures(bsp, args.old, args.new, args.match)
        if not report.renamed:
            raise CheckFailed(f"no texture matches {args.old!r} ({args.match}); nothing written",
                              path=args.map)
        set_result(args, report.to_dict())
        for old, new in report.renamed:
            args.report.say(f"renamed {old} -> {new}")
        args.report.say(f"{len(report.renamed)} textures, {report.faces} faces; lumps "
                        f"changed: {', '.join(report.lumps) or 'none'}")
        save(bsp, args)
    return 0
