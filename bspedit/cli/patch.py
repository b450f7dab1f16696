"""`patch`: apply Stripper:Source configs to a map's entity lump, or `--lint` them."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from typing import TYPE_CHECKING

from ..bsp import Bsp
from ..errors import BspError, CheckFailed
from . import SUMMARIES
from .common import add_json, add_output, set_result, save
from .ent_logic import add_fgd

if TYPE_CHECKING:       # imported where used: lark loads only when a verb parses text
    from ..patching import stripper


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "patch", help=SUMMARIES["patch"],
        description="Apply Stripper:Source configs (filter:, add:, modify:) to MAP's entity lump "
                    "with the plugin's semantics, block by block, in order; report what each "
                    "block did. Only the entity lump changes.")
    parser.add_argument("paths", nargs="*", metavar="MAP CONFIG",
                        help="the map, then config files applied in order (after --config-dir's); "
                             "with --lint: config files or folders of them")
    parser.add_argument("--config-dir", metavar="DIR",
                        help="a folder laid out like the plugin's: DIR/global_filters.cfg, then "
                             "DIR/maps/<prefix>.cfg for each '_' prefix of the map name")
    parser.add_argument("--map-name", metavar="NAME",
                        help="the map name --config-dir uses (default: MAP's file name without .bsp)")
    parser.add_argument("--lowercase", action="store_true",
                        help="lower-case the map name for --config-dir (stripper_file_lowercase 1)")
    parser.add_argument("--strict", action="store_true",
                        help="refuse (exit 1, nothing written) configs with anything --lint reports")
    parser.add_argument("--force", action="store_true",
                        help="apply, with the plugin's semantics, what patch otherwise refuses "
                             "(exit 1): a config that is not text, a filter: block with no pairs "
                             "or with a pair the plugin skips, a run that leaves no entity or "
                             "no worldspawn")
    parser.add_argument("--plugin-output", action="store_true",
                        help="write the entity text the way the plugin hands it to the engine: "
                             "every entity reprinted as {\\n\"key\" \"value\"\\n}, keyvalues with an "
                             "empty key or value dropped")
    parser.add_argument("--pcre", type=int, choices=(2, 1), default=2,
                        help="the PCRE the plugin runs config regexes with: 2 (PCRE2, its "
                             "current releases; the default) or 1 (PCRE 7.9, its releases up to "
                             "2022, on CS:GO-era servers)")
    target = add_output(parser)
    target.add_argument("--lint", action="store_true",
                        help="only check the configs (no map): print what the plugin would ignore or "
                             "do surprisingly; exit 1 if anything is found")
    parser.add_argument("--check", action="store_true",
                        help="check the patched entity logic as `ent check` does and refuse "
                             "(exit 1, nothing written) when the configs bring in a problem "
                             "the map did not have (a link left reaching no entity...)")
    add_fgd(parser)
    add_json(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..patching import apply as patching, stripper

    if args.lint:
        return _lint(args)
    if not args.paths:
        raise BspError("patch: give MAP and configs (or --config-dir DIR)")
    map_path, extra = args.paths[0], args.paths[1:]
    _check_map_first(args.paths)
    configs = [stripper.load_config(path, maps=args.force, pcre=args.pcre)
               for path in _chain(args, Path(map_path), required=not extra) + extra]
    if not configs:
        raise BspError("patch: nothing to apply: give CONFIG files or --config-dir DIR")
    diagnostics = [d for config in configs for d in config.diagnostics]
    if args.strict and diagnostics:
        for diagnostic in diagnostics:
            print(f"bspedit: {diagnostic}", file=sys.stderr)
        raise CheckFailed(f"--strict: {len(diagnostics)} problem(s) in the configs; nothing written")
    patching.check_refusals(configs, force=args.force)
    if not args.json:
        for diagnostic in diagnostics:
            print(f"bspedit: warning: {diagnostic}", file=sys.stderr)
    with Bsp.open(map_path) as bsp:     # the plugin reads any entity text: so does --plugin-output
        logic = _LogicCheck(args, bsp) if args.check else None
        problem: CheckFailed | None = None
        try:
            patched = patching.patch(bsp, configs, plugin_output=args.plugin_output,
                                     force=args.force)
        except patching.Refused as refused:
            patched, problem = refused.patched, refused
        report = patched.report
        if not patched.changed:
            problem = CheckFailed("nothing matched: the configs change no entity; nothing written",
                                  path=map_path)
        if not args.json:
            _print_report(configs, report)
        if logic is not None and problem is None:
            problem = logic.after(bsp)
        written, saved = None, None
        if problem is None:     # a dry run too: the same report, nothing written
            saved = save(bsp, args)
            written = saved.target if saved.written else None
    if args.json:
        set_result(args, {"save": saved.to_dict() if saved else None, "configs": [c.name for c in configs],
                    "diagnostics": [d.as_json() for d in diagnostics], **report.as_json(),
                    "plugin_output": args.plugin_output, "refused": problem and problem.message,
                    "written": written,
                    **({"check": logic.result} if logic is not None else {})})
    if problem:
        raise problem
    return 0


class _LogicCheck:
    """--check: the map's entity logic findings before the configs, and what they bring in."""

    def __init__(self, args: argparse.Namespace, bsp: Bsp) -> None:
        from ..features.logic.check import check, stored_entities
        from .ent_logic import classes

        self.args = args
        self.classes = classes(args, bsp.family.engine)
        self.before = check(bsp, classes=self.classes, entities=stored_entities(bsp))
        self.result: list[dict[str, object]] = []

    def after(self, bsp: Bsp) -> CheckFailed | None:
        """Print the findings the configs brought in; CheckFailed when one is a problem."""
        from ..features.logic.check import PROBLEM, check, introduced

        new = introduced(self.before, check(bsp, classes=self.classes))
        self.result = [f.to_dict() for f in new]
        for finding in new:
            self.args.report.say(f"--check: {finding}")
        problems = sum(f.severity == PROBLEM for f in new)
        if problems:
            return CheckFailed(f"--check: the configs bring in {problems} entity logic "
                               "problem(s) the map did not have; nothing written")
        self.args.report.say("--check: the configs bring in no entity logic problem")
        return None


def _check_map_first(paths: list[str]) -> None:
    """A config given where MAP goes, and a map after it: say the map comes first."""
    if len(paths) > 1 and not _is_map(paths[0]):
        maps = [path for path in paths[1:] if _is_map(path)]
        if maps:
            raise BspError(f"{paths[0]} is not a map and {maps[0]} is: the map comes first "
                           "(bspedit patch MAP CONFIG...)")


def _is_map(path: str) -> bool:
    """Whether `path` is a file that starts like a BSP map of any family."""
    from ..format.header import identify

    try:
        with open(path, "rb") as file:
            identify(file.read(8))
    except (OSError, BspError):
        return False
    return True


def _chain(args: argparse.Namespace, map_path: Path | None, *,
           required: bool = False) -> list[Path]:
    """The --config-dir files for the map, in the plugin's order. With `required` (no other
    config given), a map the folder has no config for is left untouched, as the plugin leaves
    it: CheckFailed (exit 1, nothing to do), which `each` counts as unchanged."""
    from ..patching import stripper

    if args.config_dir is None:
        if args.map_name or args.lowercase:
            raise BspError("patch: --map-name and --lowercase go with --config-dir")
        return []
    if not Path(args.config_dir).is_dir():
        raise BspError(f"{args.config_dir}: not a folder")
    name = args.map_name or (map_path.stem if map_path else None)
    if name is None:
        return sorted(Path(args.config_dir).rglob("*.cfg"))
    found = stripper.config_chain(args.config_dir, name, lowercase=args.lowercase)
    if not found and required:
        tried = ", ".join(["global_filters.cfg"] + [f"maps/{p}.cfg" for p in
                                                     stripper.map_prefixes(name, lowercase=args.lowercase)])
        raise CheckFailed(f"no config for map {name!r} in {args.config_dir} (tried {tried}): "
                          "the plugin loads nothing for it; map left untouched, nothing written",
                          path=str(map_path) if map_path else None)
    return found


def _print_report(configs: list[stripper.Config], report: stripper.Report) -> None:
    print("configs: " + ", ".join(c.name for c in configs))
    for result in report.results:
        print(result.summary())
    totals = report.totals()
    print(f"total: {totals['blocks']} blocks ({totals['idle']} matched nothing): "
          f"{totals['removed']} removed, {totals['added']} added, {totals['modified']} modified entities")
    print(f"entities: {report.before.entities} before, {report.after.entities} after")


def _lint(args: argparse.Namespace) -> int:
    from ..patching import stripper

    paths: list[Path] = _chain(args, None)
    for given in map(Path, args.paths):
        if given.suffix.lower() == ".bsp":
            raise BspError(f"{given}: --lint reads configs, not maps")
        paths += sorted(given.rglob("*.cfg")) if given.is_dir() else [given]
    if not paths:
        raise BspError("patch --lint: give config files or folders")
    configs = [stripper.load_config(path, pcre=args.pcre) for path in paths]
    diagnostics = [d for config in configs for d in config.diagnostics]
    if args.json:
        set_result(args, {"configs": [{"name": c.name, "blocks": len(c.blocks),
                                 "diagnostics": [d.as_json() for d in c.diagnostics]} for c in configs],
                    "diagnostics": len(diagnostics)})
    else:
        for diagnostic in diagnostics:
            print(diagnostic)
        faulty = sum(1 for c in configs if c.diagnostics)
        print(f"{len(configs)} config(s), {sum(len(c.blocks) for c in configs)} blocks: "
              + (f"{len(diagnostics)} problem(s) in {faulty}" if diagnostics else "clean"),
              file=sys.stderr)
    return 1 if diagnostics else 0
