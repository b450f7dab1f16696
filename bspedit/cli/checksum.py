"""`checksum`: what each engine computes for the map, signed and unsigned."""
from __future__ import annotations

import argparse

from ..bsp import Bsp
from ..container.checksum import signed32
from . import SUMMARIES
from .common import add_verb, set_result


def register(commands: argparse._SubParsersAction) -> None:
    add_verb(commands, run_checksum, "checksum", help=SUMMARIES["checksum"])


def run_checksum(args: argparse.Namespace) -> int:
    from ..container.mapsums import CONSOLE_CRC, compared_checksum, map_checksums

    with Bsp.open(args.map) as bsp:
        sums = map_checksums(bsp)
        compared = compared_checksum(bsp.header)
    set_result(args, {"checksums": sums, "compared": compared})
    for name, value in sums.items():
        mark = "  (what servers compare)" if name == compared else ""
        args.report.say(f"{name}: 0x{value:08x} ({value}, signed {signed32(value)}){mark}")
    if compared == CONSOLE_CRC:
        args.report.say(f"note: console engines read the map CRC from lump 59's version field "
                        f"(the PC map's CRC, stored when the map was converted), not from the "
                        f"lumps: edits keep {CONSOLE_CRC}; crc32 is what a PC engine would "
                        f"compute from these bytes")
    return 0
