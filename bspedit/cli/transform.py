"""`transform --shift X,Y,Z` (move a Quake 1, GoldSrc or Quake 2 map) and `convert --to KEY`
(Quake 1 BSP 29 / BSP2 / 2PSB, GoldSrc / Blue Shift containers)."""
from __future__ import annotations

import argparse

from ..bsp import Bsp
from . import SUMMARIES
from .common import (
    add_output,
    add_target,
    add_verb,
    report_save,
    save,
    set_result,
    to_target,
)


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    transform = add_verb(commands, run_transform, "transform", help=SUMMARIES["transform"],
                         description="Move everything that holds a position (vertices, planes, "
                                     "bounds, texture offsets, entity origins, BSPX brush "
                                     "lists) by X,Y,Z.")
    transform.add_argument("--shift", required=True, type=parse_offset, metavar="X,Y,Z",
                           help="the translation in map units (whole units keep int16 bounds "
                                "exact; others round them outward)")
    add_output(transform, aas=False)       # Quake 1, GoldSrc, Quake 2 only: no bot files
    from ..features.merge.convert import TARGETS

    convert = add_verb(commands, run_convert, "convert", help=SUMMARIES["convert"],
                       description="Write the map in another container of its family, refusing "
                                   "what the target's limits cannot hold; converting back gives "
                                   "the original bytes.")
    convert.add_argument("--to", required=True, choices=sorted(TARGETS), dest="target_family",
                         help="bsp29, bsp2, 2psb (Quake 1); hl, bshift (GoldSrc, Blue Shift)")
    add_target(convert, in_place="replace MAP with the result (atomic: a new file renamed "
                                 "over it)")


def parse_offset(text: str) -> tuple[float, float, float]:
    """An argparse type: "X,Y,Z", three finite numbers."""
    parts = text.split(",")
    try:
        values = tuple(float(part) for part in parts)
    except ValueError:
        values = ()
    if len(values) != 3 or not all(abs(v) < float("inf") for v in values):
        raise argparse.ArgumentTypeError(f"want X,Y,Z (three numbers), not {text!r}")
    return values[0], values[1], values[2]


def run_transform(args: argparse.Namespace) -> int:
    from ..features.merge.transform import shift

    with Bsp.open(args.map) as bsp:
        moved = shift(bsp, args.shift)
        set_result(args, {"shift": moved.to_dict()})
        say = args.report.say
        say(f"shift {' '.join(f'{v:g}' for v in moved.offset)}: {moved.vertices} vertices, "
            f"{moved.planes} planes, {moved.nodes} nodes, {moved.leafs} leafs, {moved.models} "
            f"models, {moved.texinfo} texinfo, {moved.entity_keys} entity keys"
            + (f", {moved.brushes} BSPX brushes" if moved.brushes else ""))
        if moved.local_models:
            say(f"brush models placed by their origin key (only the key moves): "
                f"{', '.join(f'*{m}' for m in moved.local_models)}")
        for lump, count in moved.copied.items():
            say(f"{lump}: {count} records copied for those models (shared with the rest)")
        if moved.rounded_bounds:
            args.report.warn("the shift is not whole: int16 node and leaf bounds were "
                             "rounded outward")
        for key in moved.skipped_keys:
            args.report.warn(f"entity key not moved (not three numbers): {key}")
        save(bsp, args)
    return 0


def run_convert(args: argparse.Namespace) -> int:
    from ..container.outputs import guard
    from ..features.merge.convert import TARGETS, convert

    with Bsp.open(args.map) as bsp:
        target = bsp.path if args.in_place else args.output
        if not args.in_place:
            guard(target, [bsp.path])
        result = to_target(target, bsp.path, lambda path: convert(
            bsp, args.target_family, path, dry_run=args.dry_run, in_place=args.in_place))
        family = bsp.family
    set_result(args, {"from": family.key, "to": TARGETS[args.target_family].key})
    report_save(args, family, result)
    return 0
