"""Pieces every verb group shares: output options, JSON printing, the save report."""
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Any

from ..bsp import Bsp, SaveReport
from ..errors import BspError, CheckFailed
from ..families import Family
from ..outputs import guard
from ..planner import LAYOUTS


def add_verb(verbs: argparse._SubParsersAction, run: Callable[[argparse.Namespace], int],
             name: str, **options: Any) -> argparse.ArgumentParser:
    """A verb reading MAP (its first argument) that runs `run(args)`."""
    parser = verbs.add_parser(name, **options)
    parser.add_argument("map", metavar="MAP")
    parser.set_defaults(run=run)
    return parser


def add_output(parser: argparse.ArgumentParser, *, in_place: bool = True,
               layout: str = "stable") -> argparse._MutuallyExclusiveGroup:
    """`-o OUT` or `--in-place`, and `--layout` (default `layout`); returns the group of the
    two (a verb may add more ways to write nothing)."""
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("-o", "--output", metavar="OUT", help="write the result to OUT (atomic)")
    if in_place:
        target.add_argument("--in-place", action="store_true",
                            help="append changed lumps to MAP itself and rewrite its header last")
    parser.add_argument("--keep-checksum", action="store_true",
                        help="refuse (exit 1) a save that would change the checksum the "
                             "family's servers compare")
    parser.add_argument("--aas", metavar="FILE", action="append",
                        help="Quake 3: also give this bot navigation file the map's new "
                             "checksum (FILE.aas beside the saved map is fixed anyway)")
    parser.add_argument("--layout", choices=LAYOUTS, default=layout,
                        help=f"stable: untouched lumps keep their offsets; compact: no holes, "
                             f"lumps in file order, written as a new file (with --in-place: "
                             f"renamed over MAP); default {layout}")
    return target


def int32(text: str) -> int:
    """An argparse type: a number that fits a signed 32-bit field of the format."""
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not -(1 << 31) <= value < 1 << 31:
        raise argparse.ArgumentTypeError(f"{value} does not fit the 32-bit field "
                                         f"({-(1 << 31)} to {(1 << 31) - 1})")
    return value


def add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def set_result(args: argparse.Namespace, value: Any) -> None:
    """The verb's facts: the `result` of the JSON envelope (printed by the CLI under --json)."""
    args.report.result = value


def save(bsp: Bsp, args: argparse.Namespace) -> SaveReport:
    """Save an edited map as the user asked (`-o OUT` or `--in-place`) and report it, with the
    engine checksums before and after (from the plan: the written map is not read again) and
    the Quake 3 bot files given the new checksum."""
    from ..mapsums import COMPARED, SaveChecksums

    in_place = getattr(args, "in_place", False) and args.layout == "stable"
    layout = "in-place" if in_place else args.layout
    target = bsp.path if in_place or not args.output else args.output
    if args.output:
        guard(target, [bsp.path])
    bots = _bot_files(bsp, target, getattr(args, "aas", None) or [])
    header, plan = bsp.plan(layout)
    sums = SaveChecksums(bsp, header, layout)
    if args.keep_checksum:
        name = COMPARED[bsp.family.engine]
        before, predicted = sums.before[name], sums.after[name]
        if predicted != before:
            raise CheckFailed(f"--keep-checksum: refused, {name} would change from "
                              f"0x{before:08x} to 0x{predicted:08x} ({_why(bsp)}); "
                              "nothing written", path=bsp.path)
    if in_place:
        report = bsp.save_in_place()
    else:
        report = bsp.save_planned(target, header, plan, layout)
    sums.record(report.target)
    print(describe_save(report))
    print_checksums(bsp.family, sums.before, sums.after)
    _fix_bot_files(bots, sums.before, sums.after)
    return report


def _bot_files(bsp: Bsp, target: str, named: list[str]) -> list:
    """The .aas headers to fix after saving `target`: those named with `--aas` (refused when
    not Quake 3 or not .aas files, before anything is written) and those beside `target`."""
    from .. import aas

    if bsp.family.engine != "quake3":
        if named:
            raise BspError(f"--aas: {bsp.family.title} maps have no bot .aas files")
        return []
    headers = []
    for path in named:
        guard(path, [bsp.path])
        headers.append(aas.read_header(path))
    for path in aas.beside(target):
        if any(os.path.realpath(path) == os.path.realpath(h.path) for h in headers):
            continue
        try:
            headers.append(aas.read_header(path))
        except BspError as exc:
            print(f"bspedit: warning: {exc}; not fixed", file=sys.stderr)
    return headers


def _fix_bot_files(headers: list, before: dict[str, int], after: dict[str, int]) -> None:
    """Give each bot file the map's new checksum, and say so."""
    from .. import aas

    new = after["block_checksum"] if headers else 0
    for header in headers:
        if header.checksum == new:
            print(f"bot file {header.path}: checksum 0x{new:08x} already matches")
            continue
        aas.set_checksum(header, new)
        print(f"bot file {header.path}: checksum 0x{header.checksum:08x} -> 0x{new:08x} "
              f"(AAS version {header.version}), as q3map2 -fixaas does")
        if header.checksum != before["block_checksum"]:
            print(f"note: {header.path} did not match the map before the edit either "
                  f"(0x{before['block_checksum']:08x}): check it is this map's")


def print_checksums(family: Family, before: dict[str, int], after: dict[str, int]) -> None:
    """The engine checksums before and after a save, and what a change means for clients."""
    from ..mapsums import COMPARED, WHOLE_FILE

    for name, value in before.items():
        state = "unchanged" if after[name] == value else "CHANGED"
        print(f"map checksum {name}: before 0x{value:08x}, after 0x{after[name]:08x} ({state})")
    if family.engine in WHOLE_FILE and before != after:
        bots = " (bot .aas files beside the map or named with --aas get the new checksum)" \
            if family.engine == "quake3" else ""
        print(f"note: {family.title} engines checksum the whole file: clients holding the "
              f"original map will be refused{bots}")
    elif before[COMPARED[family.engine]] != after[COMPARED[family.engine]]:
        print("note: the checksum servers compare changed: clients holding the original map "
              "will be refused")


def _why(bsp: Bsp) -> str:
    from ..mapsums import WHOLE_FILE

    if bsp.family.engine in WHOLE_FILE:
        return f"{bsp.family.title} engines checksum the whole file"
    changed = [l.name for l in bsp.lumps if bsp.is_replaced(l.index)
               and l.index != bsp.family.entities]
    return "changed lumps the checksum covers: " + (", ".join(changed) or "lumps moved")


def describe_save(report: SaveReport) -> str:
    changed = ", ".join(report.changed) or "none"
    moved = ", ".join(report.moved) or "none"
    return (f"wrote {report.target} ({report.size} bytes, {report.layout} layout); "
            f"changed: {changed}; moved: {moved}")
