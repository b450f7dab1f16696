"""`merge A B [C ...] -o OUT`: join Quake 1, GoldSrc or Quake 2 maps whose bounds do not
overlap (after `--shift MAP=X,Y,Z`) into one map."""
from __future__ import annotations

import argparse
import contextlib
from typing import TYPE_CHECKING, Any

from ..bsp import Bsp
from ..container.outputs import same_file
from ..errors import BspError
from . import SUMMARIES
from .common import add_target, add_verb, check_target, set_result, to_target

if TYPE_CHECKING:
    from ..container.saving import SaveResult
    from ..features.merge.report import MergeReport


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    merge = add_verb(commands, run_merge, "merge", help=SUMMARIES["merge"],
                     description="Join maps of one family into one: new root nodes and clipnodes "
                                 "on planes between the maps' bounds, every index remapped, "
                                 "planes and textures shared, one worldspawn, visibility merged "
                                 "per map, engine limits checked before anything is written.")
    merge.add_argument("others", nargs="+", metavar="MAP", help="the other maps")
    merge.add_argument("--shift", action="append", default=[], type=_shift,
                       metavar="MAP=X,Y,Z", help="move MAP (one of the maps given) first, as "
                                                 "`transform --shift` does; repeatable")
    merge.add_argument("--rename-conflicts", action="store_true",
                       help="rename targetnames used by several maps (in every map but the "
                            "first that uses one) with everything that targets them")
    merge.add_argument("--no-vis", action="store_true",
                       help="drop visibility instead of merging it (every leaf sees all)")
    merge.add_argument("--ignore-limits", action="store_true",
                       help="write a map past a limit every engine of its format has (a "
                            "warning each), for a port that raised it; limits only some "
                            "engines or tools have are always warnings")
    add_target(merge)


def _shift(text: str) -> tuple[str, tuple[float, float, float]]:
    """An argparse type: MAP=X,Y,Z."""
    from .transform import parse_offset

    name, sep, offset = text.rpartition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"want MAP=X,Y,Z, not {text!r}")
    return name, parse_offset(offset)


def _offsets(paths: list[str], shifts: list[tuple[str, tuple[float, float, float]]],
             ) -> dict[int, tuple[float, float, float]]:
    """Which map each --shift moves (by path, or the same file); BspError for another."""
    chosen: dict[int, tuple[float, float, float]] = {}
    for name, offset in shifts:
        hits = [i for i, path in enumerate(paths) if path == name] or \
               [i for i, path in enumerate(paths) if _same(path, name)]
        if not hits:
            raise BspError(f"--shift names {name}, which is not one of the maps to merge")
        if hits[0] in chosen:
            raise BspError(f"--shift names {name} twice")
        chosen[hits[0]] = offset
    return chosen


def _same(a: str, b: str) -> bool:
    try:
        return same_file(a, b)
    except OSError:
        return False


def run_merge(args: argparse.Namespace) -> int:
    from ..features.merge.limits import check_limits
    from ..features.merge.merge import merge
    from ..features.merge.output import write_merged
    from ..features.merge.report import SHAPES
    from ..features.merge.transform import shift

    check_target(args)
    paths = [args.map, *args.others]
    for i, path in enumerate(paths):
        for other in paths[:i]:
            if other == path or _same(other, path):
                raise BspError(f"{path} is given twice: merge a copy of it (shifted with "
                               f"--shift COPY=X,Y,Z)")
    offsets = _offsets(paths, args.shift)
    report = args.report
    with contextlib.ExitStack() as stack:
        bsps = [stack.enter_context(Bsp.open(path)) for path in paths]
        first = bsps[0]
        for bsp in bsps:
            if bsp.family.engine not in SHAPES:
                raise BspError(f"{bsp.family.title} maps cannot be merged: Quake 1, BSP2, 2PSB, "
                               f"GoldSrc and Quake 2 only", path=bsp.path)
            if bsp.family.key != first.family.key:
                raise BspError(f"{first.path} is {first.family.title}, {bsp.path} "
                               f"{bsp.family.title}: merge maps of one family (convert first)")
        shifts = []
        for i, offset in sorted(offsets.items()):
            moved = shift(bsps[i], offset)
            shifts.append({"map": paths[i], "shift": moved.to_dict()})
            report.say(f"{paths[i]}: shifted by {' '.join(f'{v:g}' for v in moved.offset)}")
        merged = merge(bsps, paths, keep_vis=not args.no_vis, rename=args.rename_conflicts)
        for message in check_limits(bsps, paths, merged, ignore=args.ignore_limits):
            report.warn(message)
        target = args.output or "-"
        if args.dry_run:
            result = write_merged(first, merged, target, paths, dry_run=True)
        else:
            result = to_target(target, first.path,
                               lambda out: write_merged(first, merged, out, paths))
    _say(args, merged.report, shifts, result)
    return 0


def _say(args: argparse.Namespace, merged: MergeReport, shifts: list[dict[str, Any]],
         result: SaveResult) -> None:
    """Report the merge: splits, shared records, visibility, entities, the save."""
    report = args.report
    facts = merged.to_dict()
    facts["shifts"] = shifts
    facts["save"] = result.to_dict()
    set_result(args, facts)
    for split in merged.splits:
        report.say(f"split plane {split['axis']} = {split['dist']:g}")
    report.say(f"shared: {merged.shared_planes} planes, {merged.shared_textures} textures, "
               f"{merged.shared_texinfo} texinfo; "
               f"visibility {merged.visibility}")
    if merged.unreadable_rows:
        report.warn(f"{merged.unreadable_rows} visibility rows could not be read: their leafs "
                    f"see everything")
    if merged.dropped_bspx:
        report.warn(f"BSPX lumps not carried over: {', '.join(merged.dropped_bspx)}")
    for conflict in merged.entities.conflicts:
        report.warn(f"worldspawn {conflict['key']}: kept {conflict['kept']!r} (first map), "
                    f"dropped {conflict['dropped']!r} ({conflict['map']})")
    for clash in merged.entities.clashes:
        if not merged.entities.renamed:
            report.warn(f"targetname {clash['name']!r} is used in {', '.join(clash['maps'])} "
                        f"(--rename-conflicts renames it)")
    for renamed in merged.entities.renamed:
        report.say(f"{renamed['map']}: targetname {renamed['old']!r} renamed {renamed['new']!r} "
                   f"with what targets it")
    wrote = "would write" if not result.written else "wrote"
    report.say(f"{wrote} {result.target} ({result.size} bytes)")
    for name, value in result.checksums_after.items():
        report.say(f"map checksum {name}: 0x{value:08x}")
