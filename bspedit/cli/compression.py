"""`compress`, `decompress`: a whole Source map in or out of Valve's LZMA form (as bspzip does)."""
from __future__ import annotations

import argparse
import time

from ..bsp import Bsp
from .common import add_json, add_verb, print_checksums, set_result


def register(commands: argparse._SubParsersAction) -> None:
    for verb, summary in (
            ("compress", "LZMA-compress every lump and game lump member as Valve's bspzip does"),
            ("decompress", "decode every LZMA lump and game lump member (bspzip -repack)")):
        parser = add_verb(commands, run, verb, help=summary)
        target = parser.add_mutually_exclusive_group(required=True)
        target.add_argument("-o", "--output", metavar="OUT",
                            help="write the result to OUT (atomic)")
        target.add_argument("--in-place", action="store_true",
                            help="replace MAP with the result (atomic: a new file renamed over it)")
        add_json(parser)
        parser.set_defaults(verb=verb)


def run(args: argparse.Namespace) -> int:
    from ..compression import compress_map, decompress_map, repacked_plan
    from ..mapsums import SaveChecksums

    target = args.map if args.in_place else args.output
    started = time.perf_counter()
    with Bsp.open(args.map) as bsp:
        original, family = bsp.size, bsp.family
        changes = (compress_map if args.verb == "compress" else decompress_map)(bsp)
        # the checksums from the plan (the written map is not read again)
        header, plan = repacked_plan(bsp) if changes else bsp.plan("stable")
        sums = SaveChecksums(bsp, header, "repacked" if changes else "stable")
        if changes:
            size = bsp.save_planned(target, header, plan, "repacked").size
        else:       # nothing to do: the map as it is
            size = original if args.in_place else bsp.save_planned(target, header, plan,
                                                                    "stable").size
        sums.record(target)
        before, after = sums.before, sums.after
    seconds = round(time.perf_counter() - started, 3)
    if args.json:
        set_result(args, {
            "action": args.verb, "file": args.map, "output": target, "size_before": original,
            "size_after": size, "ratio": round(size / original, 4), "seconds": seconds,
            "changed": [{"name": c.name, "game_lump_member": c.member, "before": c.before,
                         "after": c.after} for c in changes],
            "checksums": {name: {"before": value, "after": after[name]}
                          for name, value in before.items()}})
        return 0
    for change in changes:
        print(f"  {change.name}: {change.before} -> {change.after} bytes")
    members = sum(c.member for c in changes)
    if changes:
        print(f"{args.verb}ed {len(changes) - members} lumps and {members} game lump members in "
              f"{seconds} s; wrote {target}: {original} -> {size} bytes "
              f"(ratio {size / original:.3f})")
    else:
        print(f"nothing to {args.verb}: {target} is {'unchanged' if args.in_place else 'a copy'}")
    print_checksums(family, before, after)
    return 0
