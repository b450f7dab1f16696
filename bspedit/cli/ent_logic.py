"""`ent check` and `ent graph`: a map's entity logic, checked and drawn
(`bspedit.features.logic`)."""
from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any

from ..bsp import Bsp
from ..container.outputs import STDOUT, guard, write_file
from ..errors import BspError, CheckFailed
from .common import add_verb, set_result

if TYPE_CHECKING:
    from ..features.logic.check import Finding
    from ..features.logic.classes import Classes
    from ..features.pack.gamefs import GameFS
    from .report import Report

FORMATS = {".dot": "dot", ".gv": "dot", ".svg": "svg", ".png": "png"}


def register(verbs: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    check = add_verb(verbs, run_check, "check",
                     help="check the entity logic: outputs and target keys that reach no "
                          "entity, inputs the target's class lacks (Source), a second "
                          "worldspawn, asset keys naming nothing (--game); entities outside "
                          "the world and a second light_environment (warnings) and names "
                          "nothing links to (notes). Exit 1 when a problem is found")
    check.add_argument("--game", metavar="GAMEDIR",
                       help="Source: the mod's folder (holding gameinfo.txt): also check that "
                            "the files and sound names of asset keys are packed or shipped")
    add_fgd(check)

    graph = add_verb(verbs, run_graph, "graph",
                     help="draw the entity logic: a node per linked entity (name, class), an "
                          "edge per output (output, input, delay) or target key; links that "
                          "reach no entity in red")
    graph.add_argument("-o", "--output", metavar="OUT", required=True,
                       help="OUT.dot (or .gv; - for DOT on standard output), OUT.svg or "
                            "OUT.png (through Graphviz's dot)")
    graph.add_argument("--around", metavar="NAME",
                       help="only the entities within --depth links of those named NAME")
    graph.add_argument("--depth", type=_depth, default=2, metavar="N",
                       help="with --around: how many links away (default 2)")
    add_fgd(graph)


def add_fgd(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--fgd", metavar="FILE",
                        help="Source: entity definitions to read first (an FGD; its @include "
                             "files beside it); classes it lacks come from srctools' bundled "
                             "database")


def _depth(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"not a number of links: {text!r}")
    return value


def classes(args: argparse.Namespace, engine: str) -> Classes | None:
    """The Source entity definitions (--fgd first), None for other engines; --fgd on another
    family is read anyway (a missing file is an error) and warned about."""
    from ..features.logic.classes import Classes

    fgd = getattr(args, "fgd", None)
    if engine != "source":
        if fgd is not None:
            Classes(fgd)
            args.report.warn("--fgd: entity definitions apply to Source maps only")
        return None
    return Classes(fgd)


def report_findings(report: Report, findings: list[Finding],
                    unknown_reason: str | None = None) -> dict[str, Any]:
    """Print one line per finding (the unknown ones in one line, with `unknown_reason`) and a
    count; the JSON result's findings and counts."""
    from ..features.logic.check import UNKNOWN, summary

    for finding in findings:
        if finding.severity != UNKNOWN:
            report.say(str(finding))
    counts = summary(findings)
    n = counts[UNKNOWN]
    if n:
        report.say(f"unknown: {n} file{'s' if n != 1 else ''} or sound names that asset keys "
                   f"name {'are' if n != 1 else 'is'} neither packed nor in the game's folders "
                   f"here, and {unknown_reason}: not judged (--json lists them)")
    report.say(", ".join(f"{n} {s}{'s' if n != 1 and s != UNKNOWN else ''}"
                         for s, n in counts.items()))
    return {"findings": [f.to_dict() for f in findings], "counts": counts}


def run_check(args: argparse.Namespace) -> int:
    from ..features.logic.check import PROBLEM, check
    from .game_paths import check_paths

    check_paths(args)
    fs = None
    with Bsp.open(args.map) as bsp:
        definitions = classes(args, bsp.family.engine)
        if args.game is not None:
            if bsp.family.engine == "source":
                fs = _game(args)
            else:
                args.report.warn("--game: asset keys are checked on Source maps only")
        findings = check(bsp, classes=definitions, fs=fs)
        kept = bsp.entities(lenient=True).kept
    for stretch in kept:
        args.report.warn(f"entities: {stretch}; its entities are not checked")
    set_result(args, report_findings(args.report, findings,
                                          None if fs is None else fs.unjudged))
    return 1 if any(f.severity == PROBLEM for f in findings) else 0


def _game(args: argparse.Namespace) -> GameFS:
    """The game's file system (--game), warning about search paths this machine lacks."""
    from ..features.pack.gamepaths import need_srctools
    from .game_paths import load

    need_srctools("--game and its checks")

    fs = load(args)
    problems = list(dict.fromkeys(fs.problems))
    if problems:
        args.report.warn(f"{len(problems)} search paths or VPK archives of the game are not on "
                         f"this machine ({', '.join(problems[:3])}{', ...' if len(problems) > 3 else ''})")
    return fs


def run_graph(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..features.logic.classes import rules_for
    from ..features.logic.graph import INSTALL_HINT, build, render, to_dot

    target = args.output
    fmt = "dot" if target == STDOUT else FORMATS.get(Path(target).suffix.lower())
    if fmt is None:
        raise BspError(f"{target}: name the output .dot, .gv, .svg or .png (or - for DOT on "
                       "standard output)")
    if target == STDOUT and args.json:
        raise BspError("-o - and --json both write to standard output: name a file with -o")
    if target != STDOUT:
        guard(target, [args.map])
    with Bsp.open(args.map) as bsp:
        rules = rules_for(bsp.family.engine)
        entities = list(bsp.entities(lenient=True))
        graph = build(entities, rules, classes(args, bsp.family.engine))
    if args.around is not None:
        start = graph.named(args.around, rules)
        if not start:
            raise CheckFailed(f"no linked entity is named {args.around!r}; nothing written",
                              path=args.map)
        graph = graph.around(start, args.depth)
    dot = to_dot(graph, os.path.basename(args.map))
    result = {"output": target, "format": fmt, "nodes": len(graph.nodes),
              "edges": len(graph.edges), "dangling": graph.dangling}
    if fmt == "dot":
        data = dot.encode("utf-8")
    else:
        import shutil

        if shutil.which("dot") is None:
            fallback = str(Path(target).with_suffix(".dot"))
            guard(fallback, [args.map])
            write_file(fallback, dot.encode("utf-8"), inputs=[args.map])
            raise BspError(f"cannot write {fmt.upper()}: Graphviz's dot is not installed; the "
                           f"DOT is in {fallback}. To draw it, {INSTALL_HINT}, then run: dot "
                           f"-T{fmt} {fallback} -o {target}")
        data = render(dot, fmt)
    write_file(target, data, inputs=[args.map])
    set_result(args, {**result, "bytes": len(data)})
    if target != STDOUT:
        args.report.say(f"wrote {target} ({len(graph.nodes)} nodes, {len(graph.edges)} edges, "
                        f"{graph.dangling} dangling)")
    return 0
