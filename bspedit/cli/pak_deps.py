"""`pak deps`, `pak autopack`, `pak audit`: what a Source map needs from the game's content,
packing the mod's part of it, and what its pakfile carries. srctools (features/pack) is
imported only when one of these verbs runs."""
from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any

from ..bsp import Bsp
from .common import add_output, add_verb, save, set_result

if TYPE_CHECKING:
    from ..features.pack.entity_assets import EntityDatabase
    from ..features.pack.gamefs import GameFS


def register(verbs: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    deps = add_verb(verbs, run_deps, "deps",
                    help="every asset the map needs, each with its reason and where it "
                         "resolves: the pakfile, a loose file of a search path, a VPK, or "
                         "missing")
    _add_game(deps)
    _add_fgd(deps)
    deps.add_argument("--strict", action="store_true",
                      help="exit 1 when a required file is missing (or unreadable); unknown "
                           "files (maybe the base game's, which is not here) do not count")

    auto = add_verb(verbs, run_autopack, "autopack",
                    help="pack every referenced file the mod provides and the base game does "
                         "not ship (CompilePal's PACK)")
    _add_game(auto)
    _add_fgd(auto)
    auto.add_argument("--include", metavar="GLOB", nargs="+", action="extend", default=[],
                      help="also pack referenced files matching these globs even when the "
                           "base game ships them (a folder ending / means everything under "
                           "it; to pack a file nothing references, use pak add)")
    auto.add_argument("--exclude", metavar="GLOB", nargs="+", action="extend", default=[],
                      help="never pack files matching these globs (CompilePal "
                           "-exclude/-excludedir)")
    auto.add_argument("--base", metavar="LIST",
                      help="a file listing the base game's files, one path a line (such as "
                           "`vpk -l` output): never packed, for when the base game is not "
                           "installed")
    auto.add_argument("--compress", action="store_true",
                      help="store new entries LZMA-compressed when smaller (CompilePal "
                           "-compress)")
    auto.add_argument("--noswvtx", action="store_true",
                      help="leave out .sw.vtx software meshes (CompilePal -noswvtx)")
    auto.add_argument("--allow-missing", action="store_true",
                      help="exit 0 even when a required file is missing")
    add_output(auto)

    audit = add_verb(verbs, run_audit, "audit",
                     help="pak entries the game ships identical (redundant) or different "
                          "(override), entries nothing references, references found nowhere")
    _add_game(audit)
    _add_fgd(audit)


def _add_fgd(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--fgd", metavar="FILE", action="append", default=[],
                        help="an FGD file whose entity classes add to or replace srctools' "
                             "entity database: their keys, and their @resources when they "
                             "have them (repeatable)")


def _database(args: argparse.Namespace) -> EntityDatabase | None:
    """The entity database with `--fgd`'s classes over it (None: srctools' alone)."""
    from ..features.pack.entity_assets import EntityDatabase as Database

    return Database(args.fgd) if args.fgd else None


def _add_game(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", metavar="GAMEDIR",
                        help="the mod's folder, the one holding gameinfo.txt (any case); "
                             "without it, --content folders alone and no base game")
    parser.add_argument("--content", metavar="DIR", action="append", default=[],
                        help="another folder of the mod's files, holding materials/, models/, "
                             "sound/... (after the mod's own search paths)")
    parser.add_argument("--vpk", metavar="FILE", action="append", default=[],
                        help="another VPK to search (a _dir.vpk or single-file VPK)")


def _fs(args: argparse.Namespace) -> GameFS:
    from ..errors import BspError
    from ..features.pack.gamepaths import need_srctools
    from .game_paths import load

    need_srctools("pak deps, autopack and audit")

    if args.game is None and not args.content:
        raise BspError("give the game: --game GAMEDIR (the mod's folder, holding gameinfo.txt) "
                       "or --content DIR (a folder of the mod's materials/, models/, sound/...)")
    return load(args)


def _shown(path: str) -> str:
    """A path as printed: relative to the current folder when it is inside it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:          # another drive (Windows)
        return path
    return path if rel == ".." or rel.startswith(".." + os.sep) else rel


def _where(row: dict[str, Any]) -> str:
    kind = str(row["location"])
    if kind in ("pak", "missing", "unknown"):
        return kind
    text = f"{kind} {_shown(row['where'])}"
    if not row["readable"]:
        text += " (archive absent: unreadable)"
    return text + (" [base]" if row["base"] else " [mod]")


def _line(row: dict[str, Any]) -> str:
    mark = " (optional)" if row["optional"] else ""
    return f"{row['path']}{mark}: {_where(row)} <- {' > '.join(row['reason'])}"


def _problems(args: argparse.Namespace, result: dict[str, Any], unknown: int) -> None:
    """What the report assumed of the game (`Deps.game`): the base game, the file system's
    problems (one line each, one warning for them all) and, once, why `unknown` files found
    nowhere are not counted missing."""
    if result["gameinfo"] is None:
        args.report.say("base game: none assumed (no gameinfo: --content folders"
                        + (" and --vpk files" if result["base_game"] else "") + " only)")
    else:
        args.report.say(f"base game: {len(result['base_game'])} search paths of "
                        f"{_shown(result['gameinfo'])}")
    problems = result["problems"]
    for problem in problems:
        args.report.say(f"not found: {problem}")
    if problems:
        args.report.warn(f"{len(problems)} search paths or VPK archives of the game are not on "
                         "this machine (the report's `not found:` lines, --json's `problems`)")
    if unknown:
        args.report.say(f"unknown: {unknown} files found nowhere, not counted missing: "
                        f"{result['unknown_reason']}")


def run_deps(args: argparse.Namespace) -> int:
    from ..features.pack.deps import deps

    fs = _fs(args)
    database = _database(args)
    with Bsp.open(args.map) as bsp:
        _ = bsp.pakfile     # a family without a pakfile is refused (exit 2), as by every pak verb
        found = deps(bsp, fs, database=database)
    result = found.to_dict()
    set_result(args, result)
    for row in result["files"]:
        args.report.say(_line(row))
    for name in result["names"]:
        state = {True: f"defined in {name['defined_in']}", False: "not defined",
                 None: "unknown"}[name["resolved"]]
        args.report.say(f"{name['kind']}:{name['name']}: {state} <- {' > '.join(name['reason'])}")
    c = result["counts"]
    args.report.say(f"{c['files']} files: {c['pak']} packed, {c['loose']} loose, {c['vpk']} in "
                    f"VPKs ({c['unreadable']} unreadable), {c['missing']} missing "
                    f"({c['optional_missing']} optional), {c['unknown']} unknown "
                    f"({c['optional_unknown']} optional); {len(result['names'])} names")
    _problems(args, result, c["unknown"])
    return 1 if args.strict and found.missing_required else 0


def run_autopack(args: argparse.Namespace) -> int:
    from ..features.pack.autopack import autopack

    fs = _fs(args)
    database = _database(args)
    with Bsp.open(args.map) as bsp:
        done = autopack(bsp, fs, include=args.include, exclude=args.exclude, base=args.base,
                        compress=args.compress, noswvtx=args.noswvtx, database=database)
        result = done.to_dict()
        set_result(args, result)
        verb = "would pack" if args.dry_run else "packed"
        for row in result["packed"]:
            args.report.say(f"{verb} {row['path']} ({row['size']} bytes) from {_where(row)}")
        for row in result["level_sounds"]:
            did = ("would append to" if row["existed"] else "would write") if args.dry_run \
                else "appended to" if row["existed"] else "wrote"
            args.report.say(f"{did} {row['path']}: {', '.join(row['added'])}")
        for row in result["unreadable"]:
            args.report.say(f"cannot pack {_line(row)}")
        for key in ("missing", "unknown"):
            for row in result[key]:
                if not row["optional"]:
                    args.report.say(f"{key} {_line(row)}")
        classes = sum(row["class_resource"] for row in result["packed"])
        args.report.say(f"{len(result['packed'])} files {verb} ({result['packed_bytes']} bytes; "
                        f"{classes} class resources), "
                        f"{len(result['already_packed'])} already packed, "
                        f"{len(result['left_to_base'])} left to the base game, "
                        f"{len(result['excluded'])} excluded, "
                        f"{len(result['unreadable'])} unreadable, {len(result['missing'])} "
                        f"missing ({result['missing_required']} required), "
                        f"{len(result['unknown'])} unknown")
        _problems(args, result, len(result["unknown"]))
        save(bsp, args)
    return 1 if done.missing_required and not args.allow_missing else 0


def run_audit(args: argparse.Namespace) -> int:
    from ..features.pack.audit import audit

    fs = _fs(args)
    database = _database(args)
    with Bsp.open(args.map) as bsp:
        found = audit(bsp, fs, database=database)
    result = found.to_dict()
    set_result(args, result)
    for key, word in (("redundant", "redundant (the game ships it identical)"),
                      ("overrides", "override (differs from the game's)"),
                      ("in_mod", "the mod's file"), ("not_compared", "not compared")):
        for row in result[key]:
            args.report.say(f"{word}: {row['path']} ({_where({**row, 'optional': False})})")
    for path in result["unused"]:
        args.report.say(f"unused: {path}")
    for path in result["scripts_not_reached"]:
        args.report.say(f"script no reference reaches (the game may load it by a name built "
                        f"at run time; not unused): {path}")
    for key in ("unresolved", "unknown"):
        for row in result[key]:
            args.report.say(f"{key}: {_line(row)}")
    args.report.say(f"{result['entries']} entries: {len(result['redundant'])} redundant, "
                    f"{len(result['overrides'])} overrides, {len(result['in_mod'])} the mod's, "
                    f"{len(result['unused'])} unused, {len(result['scripts_not_reached'])} "
                    f"scripts not reached, {len(result['compile_outputs'])} compile "
                    f"outputs; {len(result['unresolved'])} references unresolved, "
                    f"{len(result['unknown'])} unknown")
    _problems(args, result, len(result["unknown"]))
    return 0
