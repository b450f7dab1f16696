"""`props` (static props: list, set fields, remove) and `gamelump` (members: list, extract,
replace). Both edit only the game lump."""
from __future__ import annotations

import argparse
import math
import re
import struct
from typing import Any

from ..bsp import Bsp
from ..errors import BspError, CheckFailed
from ..features.facts import member_row
from ..lumps.gamelump import in_game_lump
from ..container.outputs import STDOUT, read_input, write_file
from ..lumps.staticprops import StaticProps
from . import SUMMARIES
from .common import add_output, add_verb, set_result, save

_VERTEX_LIGHTING = re.compile(r"(?:.*/)?sp_(?:hdr_)?\d+\.vhv")       # on game paths


def register(commands: argparse._SubParsersAction) -> None:
    props = commands.add_parser("props", help=SUMMARIES["props"])
    verbs = props.add_subparsers(dest="verb", required=True, metavar="VERB")

    add_verb(verbs, run_list, "list", help="every static prop: model, origin, angles, ...")

    edit = add_verb(verbs, run_set, "set",
                    help="set fields of one prop: origin=X,Y,Z angles=P,Y,R "
                         "model=models/x.mdl skin=N flags=N solid=N ...")
    edit.add_argument("index", type=int, metavar="INDEX")
    edit.add_argument("items", nargs="+", metavar="FIELD=VALUE")
    leaves = edit.add_mutually_exclusive_group()
    leaves.add_argument("--model-bounds", metavar="X0,Y0,Z0,X1,Y1,Z1", type=_bounds,
                        help="the model's box (model space, unscaled; write it with '=', as "
                             "in --model-bounds=-16,-16,0,16,16,64) for the leaves a moved "
                             "prop is listed in (default: the model's files in the pakfile, "
                             "else what the map's leaf lists imply)")
    leaves.add_argument("--keep-leaves", action="store_true",
                        help="keep the prop's leaf list as it is when it moves (the engine "
                             "then culls it by the leaves it used to be in)")
    add_output(edit)

    remove = add_verb(verbs, run_remove, "remove",
                      help="remove props (later props move down one index)")
    remove.add_argument("indices", nargs="+", type=int, metavar="INDEX")
    add_output(remove)

    gamelump = commands.add_parser("gamelump", help=SUMMARIES["gamelump"])
    verbs = gamelump.add_subparsers(dest="verb", required=True, metavar="VERB")

    add_verb(verbs, run_gamelump_list, "list", help="the game lump directory")

    extract = add_verb(verbs, run_gamelump_extract, "extract",
                       help="write a member's data (decompressed) to a file")
    extract.add_argument("id", metavar="ID", help="4-character id such as sprp, dprp, dplt")
    extract.add_argument("-o", "--output", required=True, metavar="FILE",
                         help="the file to write, or - for standard output")

    replace = add_verb(verbs, run_gamelump_replace, "replace",
                       help="give a member the data of FILE (compressed "
                            "again if the member was)")
    replace.add_argument("id", metavar="ID")
    replace.add_argument("data", metavar="FILE", help="the new data (- for standard input)")
    replace.add_argument("--version", type=int, help="the member's version (default: kept)")
    add_output(replace)


def _short(value: float) -> float:
    """A short decimal that reads back as the same 32-bit float (6 significant digits with
    trailing zeros dropped, more only when needed)."""
    packed = struct.pack("<f", value)
    for digits in range(6, 10):
        candidate = float(f"{value:.{digits}g}")
        if struct.pack("<f", candidate) == packed:
            return candidate
    return value


def _row(props: StaticProps, index: int) -> dict[str, Any]:
    return {"index": index, "model": props.model(index), "model_index": props.get(index, "model"),
            "origin": [_short(v) for v in props.get(index, "origin")],
            "angles": [_short(v) for v in props.get(index, "angles")],
            "skin": props.get(index, "skin"), "solid": props.get(index, "solid"),
            "flags": props.get(index, "flags")}


def run_list(args: argparse.Namespace) -> int:
    with Bsp.open(args.map) as bsp:
        props = bsp.static_props
    rows = [_row(props, i) for i in range(len(props))]
    set_result(args, {"version": props.version, "layout": props.layout.name,
                      "record_size": props.layout.size, "models": props.model_names(),
                      "leaf_entries": props.leaf_entries, "props": rows})
    say = args.report.say
    say(f"sprp v{props.version} ({props.layout.name} layout, {props.layout.size}-byte records): "
        f"{len(props)} props, {len(props.names)} models, {props.leaf_entries} leaf entries")
    for row in rows:
        model = row["model"] or f"(model index {row['model_index']} out of range)"
        say(f"{row['index']:>5}  {model}  origin {' '.join(map(str, row['origin']))}  "
            f"angles {' '.join(map(str, row['angles']))}  skin {row['skin']}  "
            f"solid {row['solid']}  flags {row['flags']}")
    return 0


def _values(props: StaticProps, field: str, text: str) -> list[int | float]:
    fmt = props.field(field)[1]
    try:
        values = [float(v) if fmt.endswith("f") else int(v, 0)
                  for v in re.split(r"[,\s]+", text.strip())]
    except ValueError:
        values = [math.nan]
    if not all(math.isfinite(v) for v in values):      # nan and inf place a prop nowhere
        kind = "finite numbers" if fmt.endswith("f") else "integers"
        raise BspError(f"{field}: expected {kind} separated by commas, got {text!r}")
    return values


def _bounds(text: str) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """An argparse type: six numbers, a box's mins then maxs."""
    try:
        values = [float(v) for v in re.split(r"[,\s]+", text.strip())]
    except ValueError:
        values = []
    if len(values) != 6 or any(a > b for a, b in zip(values[:3], values[3:])) or \
            not all(math.isfinite(v) for v in values):
        raise argparse.ArgumentTypeError(f"expected X0,Y0,Z0,X1,Y1,Z1 (mins, then maxs), got "
                                         f"{text!r}")
    return tuple(values[:3]), tuple(values[3:])


def run_set(args: argparse.Namespace) -> int:
    from ..features.leaves import placement, relink

    with Bsp.open(args.map) as bsp:
        props = bsp.static_props
        try:
            props.check_index(args.index)
        except BspError as exc:      # no such prop: nothing matched, as for `props remove`
            raise CheckFailed(f"{exc.message}; nothing written", path=args.map) from None
        changes = []
        before = placement(props, args.index)
        try:
            for item in args.items:
                changes.append(_set(props, args.index, item))
                args.report.say(_described(args.index, changes[-1]))
            moved = None if args.keep_leaves else \
                relink(bsp, args.index, before, args.model_bounds)
        except BspError as exc:
            raise exc.at(args.map)
        if moved is not None:
            changes.append(moved.to_change())
            args.report.say(f"prop {args.index}: leaves {_leaf_text(moved.before)} -> "
                            f"{_leaf_text(moved.after)} (bounds from {moved.bounds})")
            if not moved.after:
                args.report.warn(f"static prop {args.index} now reaches no open leaf (outside "
                                 "the map or inside solid): the engine will not draw it (vbsp "
                                 "leaves such props out)")
        elif args.keep_leaves and placement(props, args.index) != before:
            args.report.say(f"prop {args.index}: leaves kept as they were "
                            f"({_leaf_text(props.prop_leaves(args.index))})")
        set_result(args, {"prop": args.index, "changes": changes})
        save(bsp, args)
    return 0


def _leaf_text(leaves: list[int]) -> str:
    return ",".join(map(str, leaves)) or "none"


def _set(props: StaticProps, index: int, item: str) -> dict[str, Any]:
    """Apply one FIELD=VALUE to prop `index`: {field, before, after, model_added}."""
    field, sep, text = item.partition("=")
    if not sep:
        raise BspError(f"expected FIELD=VALUE, got {item!r}")
    if field == "model":
        before = props.model(index)
        added = props.set_model(index, text)
        return {"field": field, "before": before, "after": text,
                "model_added": len(props.names) - 1 if added else None}
    before = props.get(index, field)
    props.set(index, field, _values(props, field, text))
    return {"field": field, "before": _plain(before), "after": _plain(props.get(index, field)),
            "model_added": None}


def _described(index: int, change: dict[str, Any]) -> str:
    shown = [",".join(map(str, v)) if isinstance(v, list) else str(v)
             for v in (change["before"], change["after"])]
    added = change["model_added"]
    note = f" (added to the model dictionary as #{added})" if added is not None else ""
    return f"prop {index}: {change['field']} {shown[0]} -> {shown[1]}{note}"


def _plain(value: int | float | tuple) -> int | float | list[int | float]:
    """A field's value as JSON data (floats as their short decimal)."""
    if isinstance(value, tuple):
        return [_short(v) if isinstance(v, float) else v for v in value]
    return _short(value) if isinstance(value, float) else value


def run_remove(args: argparse.Namespace) -> int:
    with Bsp.open(args.map) as bsp:
        props = bsp.static_props
        count = len(props)
        try:
            props.remove(args.indices)
        except BspError as exc:      # an index with no prop
            raise CheckFailed(f"{exc.message}; nothing written", path=args.map) from None
        args.report.say(f"removed {count - len(props)} static prop(s), {len(props)} remain "
                        "(leaf list and model dictionary kept)")
        lighting = _vertex_lighting_files(bsp)
        if lighting:
            args.report.say(f"note: the pakfile holds {lighting} baked static prop lighting "
                            "file(s) (sp_N.vhv), matched to props by index: props after a "
                            "removed one now get the wrong file until the map is relit (vrad)")
        set_result(args, {"removed": sorted(set(args.indices)), "remaining": len(props),
                          "vertex_lighting_files": lighting})
        save(bsp, args)
    return 0


def _vertex_lighting_files(bsp: Bsp) -> int:
    """How many per-prop vertex lighting files the pakfile holds (its directory only is read)."""
    try:
        entries = bsp.pakfile.entries
    except BspError:
        return 0
    return sum(1 for entry in entries if _VERTEX_LIGHTING.fullmatch(entry.key))


def run_gamelump_list(args: argparse.Namespace) -> int:
    with Bsp.open(args.map) as bsp:
        lump = bsp.game_lump
    rows = [member_row(member) for member in lump.members]
    set_result(args, {"absolute": lump.absolute, "members": rows})
    args.report.say(f"{len(rows)} entries, offsets "
                    f"{'absolute' if lump.absolute else 'relative to the lump'}")
    for row in rows:
        packed = " lzma" if row["compressed"] else ""
        args.report.say(f"{row['id'] or '(end)':<8} v{row['version']:<3} flags {row['flags']}  "
                        f"offset {row['offset']:>10}  {row['stored_length']:>9} bytes stored, "
                        f"length {row['length']}{packed}")
    return 0


def run_gamelump_extract(args: argparse.Namespace) -> int:
    with Bsp.open(args.map) as bsp:
        lump = bsp.game_lump
        try:
            data = lump.payload(args.id)
        except BspError as exc:
            raise in_game_lump(exc, bsp)
        member = lump.member(args.id)
    write_file(args.output, data, inputs=[args.map])
    set_result(args, {"member": member_row(member), "output": args.output, "bytes": len(data)})
    if args.output != STDOUT:
        packed = f", decompressed from {len(member.stored)}" if member.compressed else ""
        args.report.say(f"wrote {args.output}: game lump {args.id} v{member.version}, "
                        f"{len(data)} bytes{packed}")
    return 0


def run_gamelump_replace(args: argparse.Namespace) -> int:
    data = read_input(args.data)
    with Bsp.open(args.map) as bsp:
        lump = bsp.game_lump
        try:
            changed = lump.replace_member(args.id, data, args.version)
        except BspError as exc:
            raise in_game_lump(exc, bsp)
        member = lump.member(args.id)
        set_result(args, {"member": member_row(member), "changed": changed})
        if changed:
            args.report.say(f"game lump {args.id}: {len(data)} bytes"
                            + (", compressed" if member.compressed else ""))
        else:
            args.report.say(f"game lump {args.id}: same data and version, nothing to change")
        save(bsp, args)
    return 0
