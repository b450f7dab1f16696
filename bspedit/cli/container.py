"""`info`, `rewrite`, `verify`: the container as a whole."""
from __future__ import annotations

import argparse

from ..bsp import Bsp
from ..features.facts import describe
from . import SUMMARIES
from .common import add_output, add_verb, set_result, save


def register(commands: argparse._SubParsersAction) -> None:
    add_verb(commands, run_info, "info", help=SUMMARIES["info"])

    rewrite = add_verb(commands, run_rewrite, "rewrite", help=SUMMARIES["rewrite"])
    add_output(rewrite)

    add_verb(commands, run_verify, "verify", help=SUMMARIES["verify"])


def run_info(args: argparse.Namespace) -> int:
    with Bsp.open(args.map) as bsp:
        facts = describe(bsp)
    set_result(args, facts)
    say = args.report.say
    say(f"{args.map}: {facts['title']}")
    details = ["console map, big-endian" if facts["byte_order"] == "big" else None,
               f"version {facts['version']}" if facts["version"] is not None else None,
               f"map revision {facts['revision']}" if facts["revision"] is not None else None,
               f"lump_t order {facts['lump_t_order']}" if facts["lump_t_order"] else None,
               f"{facts['size']} bytes", f"header {facts['header_size']} bytes",
               "file end zero-padded to 1 KiB" if facts["end_padded_1k"] else None]
    say("  " + ", ".join(d for d in details if d))
    say(f"  {'#':>3} {'name':<32} {'offset':>10} {'length':>10} {'version':>7} "
          f"{'compressed':>10} {'order':>5}")
    for lump in facts["lumps"]:
        packed = f"{lump['uncompressed_length']}" if lump["compressed"] else "-"
        order = "-" if lump["file_order"] is None else lump["file_order"]
        say(f"  {lump['index']:>3} {lump['name']:<32} {lump['offset']:>10} {lump['length']:>10} "
              f"{lump['version']:>7} {packed:>10} {order:>5}")
    for gap in facts["gaps"]:
        content = "zeros" if gap["zero"] else "non-zero bytes"
        say(f"  {gap['kind']}: {gap['length']} bytes at {gap['start']}..{gap['end']} ({content})")
    for entry in facts["bspx_lumps"]:
        say(f"  BSPX lump {entry['name']}: {entry['length']} bytes at {entry['offset']}")
    return 0


def run_rewrite(args: argparse.Namespace) -> int:
    with Bsp.open(args.map) as bsp:
        save(bsp, args)
    return 0


def run_verify(args: argparse.Namespace) -> int:
    from ..features.checks import problems

    with Bsp.open(args.map, check=False) as bsp:
        found = problems(bsp)
        if not found:       # the truth from the bytes: refresh the digest cache
            from ..container.mapsums import map_checksums
            map_checksums(bsp)
        summary = f"{bsp.family.key} v{bsp.header.version}" \
            if bsp.header.version is not None else bsp.family.key
        lumps = sum(1 for lump in bsp.lumps if lump.length)
    set_result(args, {"ok": not found, "problems": [
        {"lump": p.lump, "offset": p.offset, "message": p.message} for p in found]})
    for problem in found:
        args.report.say(str(problem))
    if not found:
        args.report.say(f"{args.map}: OK ({summary}, {lumps} lumps, round trip identical)")
    return 1 if found else 0
