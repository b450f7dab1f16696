"""Pieces every verb group shares: the verb parser (MAP, --json), output options with
--dry-run, the save report."""
from __future__ import annotations

import argparse
import os
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

from ..bsp import Bsp, SaveReport
from ..errors import BspError
from ..format.families import Family
from ..container.outputs import STDOUT
from ..container.planner import LAYOUTS
from ..container.saving import SaveResult

# LZMA data compressed without pylzma: `report_save` says so once per process, as a warning of
# the run (one line, in the JSON envelope), instead of Python's two-line `ValveLzmaWarning`
warnings.filterwarnings("ignore", message="pylzma is not installed", category=UserWarning)


def add_verb(verbs: argparse._SubParsersAction, run: Callable[[argparse.Namespace], int],
             name: str, **options: Any) -> argparse.ArgumentParser:
    """A verb reading MAP (its first argument) that runs `run(args)`, with --json."""
    parser = verbs.add_parser(name, **options)
    parser.add_argument("map", metavar="MAP")
    add_json(parser)
    parser.set_defaults(run=run)
    return parser


def add_target(parser: argparse.ArgumentParser, *, in_place: str | None = None,
               ) -> argparse._MutuallyExclusiveGroup:
    """`-o OUT` or `--in-place` (help text `in_place`; None: no --in-place), and `--dry-run`
    beside them: the same report, nothing written (alone: what --in-place would do). Returns
    the group of the ways to write (a verb may add more; `check_target` wants one of them)."""
    target = parser.add_mutually_exclusive_group()
    target.add_argument("-o", "--output", metavar="OUT",
                        help="write the result to OUT (atomic; - for standard output)")
    if in_place:
        target.add_argument("--in-place", action="store_true", help=in_place)
    parser.add_argument("--dry-run", action="store_true",
                        help="report what the command would do (changes, target, checksums "
                             "before and after, exit code) and write nothing")
    parser.set_defaults(target_group=target, output_name=map_name)
    return target


def map_name(args: argparse.Namespace) -> str | None:
    """The file name a saved map takes inside a folder given as `-o DIR/`: MAP's."""
    path = getattr(args, "map", None)
    return os.path.basename(path) if isinstance(path, str) and path != STDOUT else None


def check_target(args: argparse.Namespace) -> None:
    """Refuse (exit 2) an editing verb given no way to write (`-o`, `--in-place`, ...); a
    --dry-run given none is one of --in-place."""
    group = getattr(args, "target_group", None)
    if group is None or any(getattr(args, action.dest, None) for action in group._group_actions):
        return
    if not args.dry_run:
        options = " or ".join(a.option_strings[-1] for a in group._group_actions)
        raise BspError(f"say where to write: {options} (or --dry-run to write nothing)")
    if hasattr(args, "in_place"):
        args.in_place = True


def add_output(parser: argparse.ArgumentParser, *, in_place: bool = True,
               layout: str = "stable", aas: bool = True) -> argparse._MutuallyExclusiveGroup:
    """`-o OUT` or `--in-place`, `--dry-run`, `--keep-checksum`, `--aas` (unless the verb
    edits no Quake 3 map) and `--layout` (default `layout`); returns the group of the ways
    to write."""
    target = add_target(parser, in_place="append changed lumps to MAP itself and rewrite its "
                                         "header last" if in_place else None)
    parser.add_argument("--keep-checksum", action="store_true",
                        help="refuse (exit 1) a save that would change the checksum the "
                             "family's servers compare")
    if aas:
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
    """Save an edited map as the user asked (`-o OUT`, `-o -`, `--in-place`; `--dry-run` writes
    nothing) and report it: the save goes into the JSON result as `save`, and is printed with
    the engine checksums before and after and the Quake 3 bot files given the new checksum."""
    from ..container.saving import save as save_map

    options: dict[str, Any] = {"layout": args.layout, "keep_checksum": args.keep_checksum,
                               "aas": getattr(args, "aas", None) or [], "dry_run": args.dry_run}
    if getattr(args, "in_place", False):
        result = save_map(bsp, None, **options)
    elif args.dry_run:      # `-o -` included: nothing is written
        result = save_map(bsp, args.output, **options)
    else:
        result = to_target(args.output, bsp.path, lambda path: save_map(bsp, path, **options))
    report_save(args, bsp.family, result)
    return result


Saved = TypeVar("Saved", SaveReport, SaveResult)


def to_target(target: str, name: str, write: Callable[[str], Saved]) -> Saved:
    """`write(target)`; for `-` (standard output), `write` to a temporary file named like
    `name` (map writers need a file they can seek in) whose bytes are then streamed out, and
    the report names `-`."""
    from ..container.outputs import spooled_stdout

    if target != STDOUT:
        return write(target)
    with spooled_stdout(name) as spool:
        saved = write(spool)
    return saved.replace(target=STDOUT)


def report_save(args: argparse.Namespace, family: Family, result: SaveResult) -> None:
    """Put a save into the JSON result as `save` and print it: target, size, changed lumps,
    the engine checksums before and after, the Quake 3 bot files given the new checksum; and,
    once per process, that LZMA data was compressed without pylzma (a warning)."""
    from ..format.lzma_lump import stdlib_note

    report = args.report
    for warning in result.warnings:
        report.warn(warning)
    note = stdlib_note()
    if note:
        report.warn(note)
    if not isinstance(report.result, dict):
        report.result = {} if report.result is None else {"value": report.result}
    report.result["save"] = result.to_dict()
    report.say(describe_save(result))
    for line in checksum_lines(family, result):
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


def checksum_lines(family: Family, result: SaveResult) -> list[str]:
    """The engine checksums before and after a save, and what a change means for clients."""
    from ..container.mapsums import WHOLE_FILE

    before, after = result.checksums_before, result.checksums_after
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
    elif result.checksum_changed:
        lines.append("note: the checksum servers compare changed: clients holding the original "
                     "map will be refused")
    return lines


def describe_save(report: SaveReport | SaveResult) -> str:
    changed = ", ".join(report.changed) or "none"
    moved = ", ".join(report.moved) or "none"
    wrote = "would write" if isinstance(report, SaveResult) and not report.written else "wrote"
    return (f"{wrote} {report.target} ({report.size} bytes, {report.layout} layout); "
            f"changed: {changed}; moved: {moved}")
