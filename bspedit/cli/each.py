"""`each`: one command on many maps (files, folders, globs), in parallel, results in input order.

    bspedit each [-j N] [--scheduler ADDRESS] [-r] [--json] [--quiet] MAP|FOLDER|GLOB... -- COMMAND [ARGS...]

Maps come before `--`, the command and its own arguments after it, so a map is never read as
a config or a payload. The engine is `bspedit.batch` (the README's "Many maps at once").
"""
from __future__ import annotations

import argparse
import json
import sys

from ..errors import BspError
from . import SUMMARIES, _VALUED
from .common import set_result
from .report import Report

USAGE = ("bspedit each [-j N] [--scheduler ADDRESS] [-r] [--json] [--quiet] "
         "MAP|FOLDER|GLOB... -- COMMAND [ARGS...]")


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "each", usage=USAGE, help=SUMMARIES["each"],
        description="Run `bspedit COMMAND MAP ARGS...` for every map: a FOLDER means its *.bsp "
                    "files, a quoted GLOB the files it matches. In ARGS, {} is the map's path "
                    "(then the map is not inserted after COMMAND), {name} its file name, {stem} "
                    "its name without extension; -o DIR/ writes each map to DIR/{name}. Output "
                    "comes in input order; exit code: the worst outcome (130 > 3 > 2 > 1 > 0).")
    _add_options(parser)
    parser.add_argument("words", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    parser.set_defaults(run=run)


def _add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-j", "--jobs", type=_positive, metavar="N",
                        help="maps processed at once, each in a worker process (default: the "
                             "number of cores; 1: in this process)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="run the maps on the Dask distributed cluster whose scheduler is "
                             "at ADDRESS (tcp://host:8786; needs bspedit[dask]; -j does not "
                             "apply); workers read and write the paths as given, so they must "
                             "see the same files")
    parser.add_argument("-r", "--recursive", action="store_true",
                        help="a FOLDER also gives the maps in its subfolders")
    parser.add_argument("--json", dest="json_lines", action="store_true",
                        help="JSON Lines: one report object per map, then a summary object")
    parser.add_argument("-q", "--quiet", dest="each_quiet", action="store_true",
                        help="no progress bar")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"not a number of jobs: {text!r}")
    return value


def _split(args: argparse.Namespace) -> list[str]:
    """Read the maps (and options written after them) into `args`; return the command."""
    if "--" not in args.words:
        raise BspError("each: put -- between the maps and the command (bspedit each MAPS... "
                       "-- COMMAND ...)")
    at = args.words.index("--")
    command: list[str] = args.words[at + 1:]
    parser = argparse.ArgumentParser(prog="bspedit each", add_help=False, exit_on_error=False)
    _add_options(parser)
    parser.add_argument("maps", nargs="*")
    try:
        _, unknown = parser.parse_known_intermixed_args(args.words[:at], namespace=args)
    except argparse.ArgumentError as exc:
        raise BspError(f"each: {exc}") from None
    if unknown:
        raise BspError(f"each: unrecognized arguments: {' '.join(unknown)}")
    if not args.maps:
        raise BspError("each: name the maps (files, folders or globs) before --")
    return command


def _global_options(args: argparse.Namespace) -> list[str]:
    """The options given before `each` that every map's command line needs too."""
    options = [f"{option}={value}" for option in _VALUED
               if (value := getattr(args, option[2:].replace("-", "_"))) is not None]
    return options + (["--debug"] if args.debug else [])


def run(args: argparse.Namespace) -> int:
    from .. import batch

    command = _split(args)
    if "--json" in command[1:]:     # the command's own --json: JSON Lines, as each --json
        args.json_lines = True
    show = _print_json if args.json_lines else _print_human
    reports = batch.run(args.maps, command, jobs=args.jobs, scheduler=args.scheduler,
                        progress=not (args.each_quiet or args.quiet), recursive=args.recursive,
                        options=_global_options(args), json=args.json_lines, on_report=show)
    summary = batch.Summary.of(reports, interrupted=reports.interrupted)
    set_result(args, summary.to_dict())
    if args.json_lines:
        print(json.dumps({"summary": summary.to_dict()}, separators=(",", ":")), flush=True)
    else:
        counts = (f"{summary.done} done, {summary.unchanged} unchanged, "
                  f"{summary.failed_checks} failed checks, {summary.bad_input} bad input, "
                  f"{summary.internal_errors} internal errors")
        stopped = f", {summary.interrupted} interrupted" if summary.interrupted else ""
        print(f"bspedit each: {summary.maps} maps: {counts}{stopped}; exit {summary.exit}",
              file=sys.stderr)
    return summary.exit


def _print_human(report: Report) -> None:
    """A map's header line, then what its command printed, in the streams it used."""
    sys.stdout.write(f"== {report.map} ==\n{report.stdout}")
    sys.stdout.flush()
    sys.stderr.write(report.stderr)
    sys.stderr.flush()


def _print_json(report: Report) -> None:
    """A map's report as one line (its stderr lines are in it as `warnings` and `error`)."""
    print(json.dumps(report.envelope(), separators=(",", ":")), flush=True)
