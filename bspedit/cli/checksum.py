"""`checksum`: what each engine computes for the map, signed and unsigned."""
from __future__ import annotations

import argparse

from ..bsp import Bsp
from ..container.checksum import signed32
from .common import add_verb, set_result


def register(commands: argparse._SubParsersAction) -> None:
    add_verb(commands, run_checksum, "checksum", help="the map checksums the engines compute")


def run_checksum(args: argparse.Namespace) -> int:
    from ..container.mapsums import COMPARED, map_checksums

    with Bsp.open(args.map) as bsp:
        sums = map_checksums(bsp)
        compared = COMPARED[bsp.family.engine]
    set_result(args, {"checksums": sums, "compared": compared})
    for name, value in sums.items():
        mark = "  (what servers compare)" if name == compared else ""
        args.report.say(f"{name}: 0x{value:08x} ({value}, signed {signed32(value)}){mark}")
    return 0
