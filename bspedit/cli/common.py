"""Pieces every verb group shares: output options, JSON printing, the save report."""
from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from ..bsp import Bsp, SaveReport
from ..families import Family
from ..planner import LAYOUTS
from ..saving import SaveResult


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


def save(bsp: Bsp, args: argparse.Namespace) -> SaveResult:
    """Save an edited map as the user asked (`-o OUT`, `--in-place`; `--dry-run` writes nothing)
    and report it: the save goes into the JSON result as `save`, and is printed with the
    engine checksums before and after and the Quake 3 bot files given the new checksum."""
    from ..saving import save as save_map

    in_place = getattr(args, "in_place", False) or not args.output
    result = save_map(bsp, None if in_place else args.output, layout=args.layout,
                      keep_checksum=args.keep_checksum, aas=getattr(args, "aas", None) or [],
                      dry_run=getattr(args, "dry_run", False))
    report = args.report
    for warning in result.warnings:
        report.warn(warning)
    if not isinstance(report.result, dict):
        report.result = {} if report.result is None else {"value": report.result}
    report.result["save"] = result.to_dict()
    report.say(describe_save(result))
    for line in checksum_lines(bsp.family, result.checksums_before, result.checksums_after):
        report.say(line)
    block = result.checksums_before.get("block_checksum")
    for bot in result.bot_files:
        if bot.before == bot.after:
            report.say(f"bot file {bot.path}: checksum 0x{bot.after:08x} already matches")
            continue
        verb = "would get" if not result.written else "->"
        report.say(f"bot file {bot.path}: checksum 0x{bot.before:08x} {verb} 0x{bot.after:08x} "
                   f"(AAS version {bot.version}), as q3map2 -fixaas does")
        if bot.before != block:
            report.say(f"note: {bot.path} did not match the map before the edit either "
                       f"(0x{block:08x}): check it is this map's")
    return result


def print_checksums(family: Family, before: dict[str, int], after: dict[str, int]) -> None:
    """Print `checksum_lines`."""
    for line in checksum_lines(family, before, after):
        print(line)


def checksum_lines(family: Family, before: dict[str, int], after: dict[str, int]) -> list[str]:
    """The engine checksums before and after a save, and what a change means for clients."""
    from ..mapsums import COMPARED, WHOLE_FILE

    lines = []
    for name, value in before.items():
        state = "unchanged" if after[name] == value else "CHANGED"
        lines.append(f"map checksum {name}: before 0x{value:08x}, after 0x{after[name]:08x} "
                     f"({state})")
    if family.engine in WHOLE_FILE and before != after:
        bots = " (bot .aas files beside the map or named with --aas get the new checksum)" \
            if family.engine == "quake3" else ""
        lines.append(f"note: {family.title} engines checksum the whole file: clients holding "
                     f"the original map will be refused{bots}")
    elif before[COMPARED[family.engine]] != after[COMPARED[family.engine]]:
        lines.append("note: the checksum servers compare changed: clients holding the original "
                     "map will be refused")
    return lines


def describe_save(report: SaveReport | SaveResult) -> str:
    changed = ", ".join(report.changed) or "none"
    moved = ", ".join(report.moved) or "none"
    wrote = "would write" if isinstance(report, SaveResult) and not report.written else "wrote"
    return (f"{wrote} {report.target} ({report.size} bytes, {report.layout} layout); "
            f"changed: {changed}; moved: {moved}")
