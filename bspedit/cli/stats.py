"""`stats`: the map's counts per lump against its engine's limits (bspguy's `info -limit`,
ripent's `-chart`). Read-only: exit 0, with a warning for each count at 90% of its limit or more.
The limits are data in `bspedit.format.enginelimits`."""
from __future__ import annotations

import argparse

from ..bsp import Bsp
from . import SUMMARIES
from .common import add_verb, set_result


def register(commands: argparse._SubParsersAction) -> None:
    add_verb(commands, run_stats, "stats", help=SUMMARIES["stats"])


def run_stats(args: argparse.Namespace) -> int:
    from ..format import enginelimits
    from ..features.stats import WARN_AT, stats

    with Bsp.open(args.map) as bsp:
        result = stats(bsp)
    set_result(args, result)
    report = args.report
    engine = result["engine"]
    report.say(f"engine: {engine} (limits: {enginelimits.HEADERS[engine]})")
    if not result["rows"]:
        report.say("no known limits for this engine")
    else:
        report.say(f"{'lump':<22} {'count':>10} {'limit':>10} {'unit':<9} {'used':>7}")
        for row in result["rows"]:
            report.say(f"{row['lump']:<22} {row['count']:>10} {row['limit']:>10} "
                       f"{row['unit']:<9} {row['percent']:>6.1f}%")
    for row in result["rows"]:
        if row["count"] >= WARN_AT * row["limit"]:
            report.warn(f"{row['lump']}: {row['count']} of {row['limit']} {row['unit']} "
                        f"({row['percent']}% of the {engine} limit)")
    return 0
