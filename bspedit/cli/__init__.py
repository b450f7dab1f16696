"""`bspedit` command line: argument parsing and exit codes; each verb group lives in its module.

Exit codes (the README's table): 0 done; 1 a check failed or nothing matched; 2 bad input or
usage; 3 internal error (the traceback only with `--debug`); 130 interrupted (Ctrl-C). A closed
pipe on standard output (`| head`) ends quietly with 0.
"""
from __future__ import annotations

import os
import sys

from .. import TYPE_CHECKING, __version__

if TYPE_CHECKING:       # the rest loads when a command runs: `--version` costs no more
    import argparse
    from collections.abc import Sequence

    from .report import Report

# Command -> the module of its verb group, and its line in `bspedit --help`. Only the named
# command's group is imported and registered (start-up time: all groups' parsers cost more
# than a small edit); `--help`, an unknown command or none list them from this table alone.
COMMANDS = {"info": "container", "rewrite": "container", "verify": "container", "ent": "ent",
            "lump": "lump", "props": "props", "gamelump": "props", "pak": "pak",
            "patch": "patch", "diff": "diff", "checksum": "checksum",
            "compress": "compression", "decompress": "compression", "each": "each",
            "stats": "stats", "dump": "dump", "build": "dump", "tex": "tex",
            "render": "render", "lightmaps": "lightmaps", "transform": "transform",
            "convert": "transform", "merge": "merge", "ui": "ui"}
SUMMARIES = {
    "info": "family, version and the lump table of a map",
    "rewrite": "parse a map and write it back",
    "verify": "structural checks, every lump and pak entry decoded, and an in-memory round trip",
    "ent": "entity lump: export, import, query, set, delete-key, add, remove; check and graph "
           "its logic (targets, outputs, inputs)",
    "lump": "lumps: list, show, extract, replace, export, strip, merge",
    "props": "static props (sprp): list, set, remove",
    "gamelump": "Source game lump members: list, extract, replace",
    "pak": "pakfile, as bspzip: list, add, addlist, addfiles, extract, remove, rename, repack; "
           "from the game's content: deps, autopack, audit",
    "patch": "apply Stripper:Source configs to the entity lump, or --lint them",
    "diff": "lumps, entities and pakfile entries that differ, and whether the content is the "
            "same (exit 0 identical, 1 different)",
    "checksum": "the map checksums the engines compute",
    "compress": "LZMA-compress every lump and game lump member as Valve's bspzip does",
    "decompress": "decode every LZMA lump and game lump member (bspzip -repack)",
    "each": "run one command on many maps (folders, globs) in parallel",
    "stats": "counts per lump against the engine's limits (MAX_MAP_*)",
    "dump": "write a map as a folder of editable files",
    "build": "write the map of a folder written by dump",
    "tex": "textures: list, rename, extract, embed, unembed, export",
    "render": "a top-down picture of the map (PNG or SVG), game radars, q3map2 minimaps",
    "lightmaps": "the map's light as PNG atlases, one per light style, with a face index",
    "transform": "move a Quake 1, GoldSrc or Quake 2 map (--shift X,Y,Z)",
    "convert": "change the container: Quake 1 BSP 29, BSP2, 2PSB; GoldSrc, Blue Shift",
    "merge": "join Quake 1, GoldSrc or Quake 2 maps whose bounds do not overlap",
    "ui": "open maps in the browser: a local web app to see, edit, patch and save them "
          "(the ui extra)",
}
_VALUED = ("--max-lump-size", "--max-entity-size", "--max-extract-size")
_OUTPUTS = ("output", "to", "directory")      # the arguments naming what a command writes


def build_parser(command: str | None = None, *, complete: bool = False,
                 ) -> argparse.ArgumentParser:
    """The argument parser: with `command`, only that command's verb group; without one (or
    an unknown one), every command as a line of the help and nothing more; with `complete`,
    every verb group."""
    import importlib

    from .parser import Parser

    parser = Parser(prog="bspedit", description="Lossless BSP map editor.")
    parser.add_argument("--version", action="version", version=f"bspedit {__version__}")
    parser.add_argument("--debug", action="store_true",
                        help="show the traceback of an internal error")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no progress bars (drawn only on a terminal, for long work)")
    _add_caps(parser)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    if command in COMMANDS or complete:
        groups = [COMMANDS[command]] if command in COMMANDS else dict.fromkeys(COMMANDS.values())
        for group in groups:
            importlib.import_module(f"{__name__}.{group}").register(commands)
    else:
        for name, summary in SUMMARIES.items():
            commands.add_parser(name, help=summary)
    return parser


def _command(argv: Sequence[str]) -> str | None:
    """The command word of `argv` (after the global options), if any."""
    words = iter(argv)
    for word in words:
        if word in _VALUED:
            next(words, None)
        elif not word.startswith("-"):
            return word
    return None


def _add_caps(parser: argparse.ArgumentParser) -> None:
    """Global options that raise the resource caps: `bspedit --max-lump-size 2G COMMAND ...`."""
    from ..limits import LIMITS, format_size

    caps = parser.add_argument_group(
        "resource caps", "input claiming more than these is refused (exit 2) instead of using "
        "that much memory; SIZE is a byte count or a number with K, M, G or T (512M, 2G)")
    caps.add_argument("--max-lump-size", type=_size, metavar="SIZE",
                      help="largest decompressed LZMA lump or game lump member "
                           f"(default {format_size(LIMITS.lump_size)})")
    caps.add_argument("--max-entity-size", type=_size, metavar="SIZE",
                      help=f"largest entity text (default {format_size(LIMITS.entity_text)})")
    caps.add_argument("--max-extract-size", type=_size, metavar="SIZE",
                      help="largest pakfile extraction, for one entry and in total (default "
                           f"{format_size(LIMITS.extract_entry)} per entry, "
                           f"{format_size(LIMITS.extract_total)} in total)")


def _size(text: str) -> int:
    import argparse

    from ..limits import parse_size

    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if "--version" in argv and _command(argv) is None:      # at once: nothing else to load
        print(f"bspedit {__version__}")
        return 0
    try:
        return invoke(argv).code
    except KeyboardInterrupt:   # while starting (imports, parsing) or printing: nothing written
        print(f"bspedit: {INTERRUPTED}", file=sys.stderr)
        return 130


INTERRUPTED = "interrupted; nothing half-written"


def invoke(argv: Sequence[str], *, capture: bool = False) -> Report:
    """Run one command line in this process and return its Report (exit code, envelope).

    With `capture`, what it prints is kept in `Report.stdout`/`stderr` instead (batch workers:
    the parent prints each map's output in input order) and no JSON is printed."""
    if not capture:
        return _run(argv, capture)
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        report = _run(argv, capture)
    report.stdout, report.stderr = out.getvalue(), err.getvalue()
    return report


def _run(argv: Sequence[str], capture: bool) -> Report:
    import json

    from ..container.outputs import STDOUT
    from .console import reader_gone, set_up_stdout, silence_stdout
    from .report import Report

    argv = list(argv)
    report = Report(verb=_command(argv) or "")
    try:
        args = parse(build_parser(_command(argv)), argv)
    except SystemExit as exc:           # usage error (2), --help or --version (0)
        report.code = exc.code if isinstance(exc.code, int) else 2
        return report
    report.verb = " ".join(w for w in (args.command, getattr(args, "verb", None)) if w)
    report.map = _map_of(args)
    report.json = bool(getattr(args, "json", False))
    report.data_on_stdout = STDOUT in (getattr(args, name, None) for name in _OUTPUTS)
    args.report = report
    if not capture:
        set_up_stdout()
    report.code = _execute(args, report)
    if report.json and not capture:
        try:
            json.dump(report.envelope(), sys.stdout, indent=2)
            sys.stdout.write("\n")
            sys.stdout.flush()
        except OSError as exc:
            if not reader_gone(exc):
                raise
            silence_stdout()
    return report


def parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """`parser.parse_args(argv)` as the command line does it (`each` checks its lines so): a
    negative vector after an option is its value, and words left over are reported by the
    verb's own parser (its usage, not the top-level one): options it does not have by name,
    maps given to a one-map verb pointed to `each`."""
    args, extra = parser.parse_known_args(_negative_values(parser, argv))
    command = verb = subcommand(parser, args.command)
    if verb is not None and isinstance(getattr(args, "verb", None), str):
        verb = subcommand(verb, args.verb) or verb
    if not extra:
        wanted = getattr(args, "one_of", ())    # options of which the verb needs at least one
        if wanted and not any(getattr(args, name) for name in wanted):
            names = " ".join(f"--{name.replace('_', '-')}" for name in wanted)
            (verb or parser).error(f"one of the arguments {names} is required")
        return args
    options = [word.partition("=")[0] for word in extra
               if word.startswith("-") and not _negative(word)]
    if options:
        (verb or parser).error(_unknown_options(options, verb or parser, command, args.command))
    message = f"unrecognized arguments: {' '.join(extra)}"
    if any(word.lower().endswith(".bsp") or os.path.isfile(word) for word in extra):
        words = " ".join(w for w in (args.command, getattr(args, "verb", None)) if w)
        message += (f" (a command takes one map; for many: bspedit each MAP... -- {words} "
                    "...)")
    (verb or parser).error(message)
    raise AssertionError("unreachable: error() exits")


def _unknown_options(options: list[str], verb: argparse.ArgumentParser,
                     command: argparse.ArgumentParser | None, name: str) -> str:
    """The error for options `verb` does not have: the ones of its own that look alike, and
    the other verbs of `command` (named `name`) that have them."""
    import difflib

    known = {o.lstrip("-"): o for o in _options(verb)}
    alike = sorted({known[o] for word in options
                    for o in difflib.get_close_matches(word.lstrip("-"), known)})
    siblings = (subcommands(command) if command is not None else None) or {}
    elsewhere = sorted(f"{name} {other}" for other, sibling in siblings.items()
                       if sibling is not verb and _options(sibling) & set(options))
    message = f"unrecognized option{'s' if len(options) > 1 else ''} {', '.join(options)}"
    if alike:
        message += f" (did you mean {' or '.join(alike)}?)"
    if elsewhere:
        message += (f"; {' and '.join(elsewhere)} take{'s' if len(elsewhere) == 1 else ''} "
                    f"{'it' if len(options) == 1 else 'them'}")
    return message


def _options(parser: argparse.ArgumentParser) -> set[str]:
    """The option strings of `parser` (-o, --output, ...)."""
    return {o for action in parser._actions for o in action.option_strings}


def _negative(word: str) -> bool:
    """A word that starts as a negative number (-64,0,0; -.5; -5:), never an option: no option
    of bspedit starts with a digit."""
    return word[:1] == "-" and (word[1:2].isdigit() or (word[1:2] == "." and word[2:3].isdigit()))


def _negative_values(parser: argparse.ArgumentParser, argv: list[str]) -> list[str]:
    """`--shift -64,0,0` as `--shift=-64,0,0`: before Python 3.13, argparse takes a word after
    an option that starts with `-` for another option unless it is a plain number (`-64`), and
    fails with "expected one argument". Only options that take one value are joined; words
    after `--` are left as they are."""
    valued: set[str] = set()
    stack = [parser]
    while stack:
        each = stack.pop()
        valued.update(o for action in each._actions if action.nargs is None
                      for o in action.option_strings)
        stack.extend((subcommands(each) or {}).values())
    out: list[str] = []
    for n, word in enumerate(argv):
        if word == "--":
            return out + argv[n:]
        if out and out[-1] in valued and _negative(word):
            out[-1] = f"{out[-1]}={word}"
        else:
            out.append(word)
    return out


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser] | None:
    """`parser`'s sub-commands by name (its commands, or a command's verbs), if it has any."""
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return None


def subcommand(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser | None:
    """The parser of `parser`'s sub-command `name`, if it has one of that name."""
    return (subcommands(parser) or {}).get(name)


def _map_of(args: argparse.Namespace) -> str | None:
    """The map a command line names (MAP, patch's first path, diff's A)."""
    for name in ("map", "a"):
        if isinstance(getattr(args, name, None), str):
            return str(getattr(args, name))
    paths = getattr(args, "paths", None)
    return paths[0] if paths and not getattr(args, "lint", False) else None


def _execute(args: argparse.Namespace, report: Report) -> int:
    """Run the verb; an exception becomes the exit code and one line on stderr."""
    from ..container.outputs import discard_unfinished
    from ..errors import BspError, CheckFailed
    from ..limits import caps
    from ..progress import quiet
    from .console import reader_gone, silence_stdout

    extract = args.max_extract_size
    try:
        with caps(lump_size=args.max_lump_size, entity_text=args.max_entity_size,
                  extract_entry=extract, extract_total=extract), quiet(args.quiet):
            _guard_outputs(args)
            code: int = args.run(args)
        sys.stdout.flush()
        return code
    except CheckFailed as exc:
        return _fail(report, f"{exc}", 1)
    except BspError as exc:
        return _fail(report, f"{exc}", 2)
    except OSError as exc:
        if reader_gone(exc):            # `bspedit ... | head`: the reader had enough
            silence_stdout()
            return 0
        name = f"{exc.filename}: " if exc.filename else ""
        return _fail(report, f"{name}{exc.strerror or exc}", 2)
    except KeyboardInterrupt:
        discard_unfinished()
        return _fail(report, INTERRUPTED, 130)
    except Exception as exc:            # a bug: one line, the traceback on request
        if _interrupted(exc):           # or Ctrl-C, turned into another error on its way out
            discard_unfinished()
            return _fail(report, INTERRUPTED, 130)
        if args.debug:
            import traceback
            traceback.print_exc()
        kind, value = sys.exc_info()[:2]
        assert kind is not None
        return _fail(report, f"internal error, please report it ({kind.__name__}: {value}); "
                     "--debug shows the traceback", 3)


def _interrupted(exc: BaseException | None) -> bool:
    """Whether a KeyboardInterrupt is among the exceptions `exc` was raised in handling (a
    library's clean-up that failed because Ctrl-C stopped it half-way)."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__context__ or exc.__cause__
    return False


def _guard_outputs(args: argparse.Namespace) -> None:
    """Refuse, before any work, an editing verb told nowhere to write, `--json` with data on
    standard output, and an output file (`-o`, `--to`) that is a file the command reads (the
    map, a config, an .ent, a file to pack) or a link to one; the writers check again."""
    from ..container.outputs import STDIN, STDOUT, guard
    from ..errors import BspError
    from .common import check_target

    check_target(args)
    _into_folders(args)
    if STDIN in (getattr(args, name, None) for name in ("map", "a", "b")):
        raise BspError("a map is read from a file, not from standard input (-): bspedit reads "
                       "maps at random offsets and edits them in place; save it to a file first")
    if args.report.json and args.report.data_on_stdout:
        raise BspError("--json prints the report on standard output, so the data cannot go "
                       "there too: name an output file instead of -")
    outputs = ("output", "to")
    named = [v for k, v in vars(args).items() if k not in outputs]
    inputs = [v for value in named for v in (value if isinstance(value, list) else [value])
              if isinstance(v, str) and os.path.isfile(v)]
    for name in outputs:
        target = getattr(args, name, None)
        if target not in (None, STDOUT):
            guard(target, inputs, folder=name == "output" and _folder_output(args))


def _folder_output(args: argparse.Namespace) -> bool:
    """Whether the verb's `-o` names a folder it fills (its `output_folder` test says so:
    `render --radar`), not a file."""
    test = getattr(args, "output_folder", None)
    return bool(test(args)) if test is not None else False


def _into_folders(args: argparse.Namespace) -> None:
    """An output written `DIR/` (a trailing separator) names a folder, as `cp` reads it: the
    file goes inside an existing DIR under the verb's default name for it (the map's name for
    a saved map, `MAP.ent` for `ent export`). Refused (exit 2, nothing written): no such
    folder (a file of that name is never written over), or a verb with no default name."""
    from ..container.outputs import STDOUT, names_folder
    from ..errors import BspError

    for name in ("output", "to"):
        target = getattr(args, name, None)
        if not isinstance(target, str) or target == STDOUT or not names_folder(target) \
                or (name == "output" and _folder_output(args)):
            continue
        if not os.path.isdir(target):
            what = "is a file" if os.path.lexists(target.rstrip("/\\")) else "does not exist"
            raise BspError(f"refused: the trailing separator names a folder, and it {what}; "
                           "nothing written", path=target)
        default = getattr(args, "output_name", None)
        file_name = default(args) if default is not None else None
        if not file_name:
            raise BspError("a folder: name the file to write inside it (DIR/NAME); nothing "
                           "written", path=target)
        setattr(args, name, os.path.join(target, file_name))


def _fail(report: Report, message: str, code: int) -> int:
    """Record a failure in the report and print it as one line on stderr. A refused check
    (exit 1) keeps the verb's result (what was found); other failures have none."""
    from .console import reader_gone, silence_stdout

    report.error = message
    if code != 1:
        report.result = None
    try:
        sys.stdout.flush()
    except (OSError, ValueError) as exc:
        if isinstance(exc, OSError) and not reader_gone(exc):
            raise
        silence_stdout()
    print(f"bspedit: {message}", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
