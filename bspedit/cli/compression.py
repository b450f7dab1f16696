"""`compress`, `decompress`: a whole Source map in or out of Valve's LZMA form (as bspzip does)."""
from __future__ import annotations

import argparse
import time

from ..bsp import Bsp, SaveReport
from . import SUMMARIES
from .common import add_target, add_verb, report_save, set_result, to_target


def register(commands: argparse._SubParsersAction) -> None:
    for verb in ("compress", "decompress"):
        parser = add_verb(commands, run, verb, help=SUMMARIES[verb])
        add_target(parser, in_place="replace MAP with the result (atomic: a new file renamed "
                                    "over it)")
        parser.set_defaults(action=verb)


def run(args: argparse.Namespace) -> int:
    from ..features.compression import compress_map, decompress_map, repacked_plan
    from ..container.mapsums import SaveChecksums, compared_checksum
    from ..container.saving import SaveResult

    target = args.map if args.in_place else args.output
    started = time.perf_counter()
    with Bsp.open(args.map) as bsp:
        original, family = bsp.size, bsp.family
        changes = (compress_map if args.action == "compress" else decompress_map)(bsp)
        layout = "repacked" if changes else "stable"
        # the checksums from the plan (the written map is not read again)
        header, plan = repacked_plan(bsp) if changes else bsp.plan("stable")
        sums = SaveChecksums(bsp, header, layout)
        writes = not args.dry_run and (bool(changes) or not args.in_place)

        def write(path: str) -> SaveReport:
            if not writes:      # a dry run, or nothing to do in place: the map as it is
                return bsp.planned_report(path, layout, header, plan)
            report = bsp.save_planned(path, header, plan, layout)
            sums.record(path)
            return report

        saved = to_target(target, bsp.path, write) if writes else write(target)
    seconds = round(time.perf_counter() - started, 3)
    result = SaveResult(saved.target, saved.layout, saved.size, saved.changed, saved.moved,
                        dict(sums.before), dict(sums.after), compared_checksum(header),
                        not args.dry_run)
    set_result(args, {"converted": [{"name": c.name, "game_lump_member": c.member,
                                     "before": c.before, "after": c.after} for c in changes],
                      "size_before": original, "ratio": round(result.size / original, 4)})
    say = args.report.say
    for change in changes:
        say(f"  {change.name}: {change.before} -> {change.after} bytes")
    members = sum(c.member for c in changes)
    done = f"would {args.action}" if args.dry_run else f"{args.action}ed"
    if changes:
        say(f"{done} {len(changes) - members} lumps and {members} game lump members in "
            f"{seconds} s: {original} -> {result.size} bytes (ratio {result.size / original:.3f})")
    else:
        say(f"nothing to {args.action}: {target} is {'unchanged' if args.in_place else 'a copy'}")
    report_save(args, family, result)
    return 0
