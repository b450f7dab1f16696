"""`diff`: what differs between two maps, down to entity keys and pakfile entries, and whether
their content is the same (only compression or layout differ)."""
from __future__ import annotations

import argparse

from ..bsp import Bsp
from . import SUMMARIES
from .common import add_json, set_result


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("diff", help=SUMMARIES["diff"])
    parser.add_argument("a", metavar="A")
    parser.add_argument("b", metavar="B")
    add_json(parser)
    parser.set_defaults(run=run_diff)


def run_diff(args: argparse.Namespace) -> int:
    from ..features.diff import diff_lines, diff_maps

    with Bsp.open(args.a) as a, Bsp.open(args.b) as b:
        result = diff_maps(a, b)
    set_result(args, result)
    for line in diff_lines(result):
        args.report.say(line)
    return 0 if result["identical"] else 1
