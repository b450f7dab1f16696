"""`lump`: list, extract, replace, export to and merge Valve lump files."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from ..bsp import Bsp
from ..errors import BspError
from ..format.header import lump_label
from ..features.facts import lump_row
from ..container.outputs import STDOUT, read_input, write_file
from . import SUMMARIES
from .common import add_output, add_verb, int32, set_result, save


def register(commands: argparse._SubParsersAction) -> None:
    lump = commands.add_parser("lump", help=SUMMARIES["lump"])
    verbs = lump.add_subparsers(dest="verb", required=True, metavar="VERB")

    add_verb(verbs, run_list, "list", help="the non-empty lumps (a short `info`)")

    show = add_verb(verbs, run_show, "show", help="a fixed-size lump's records as a table")
    show.add_argument("lump", metavar="LUMP", help="index or name (planes, LUMP_VERTEXES, ...)")
    show.add_argument("--rows", metavar="A:B", type=_row_slice,
                      help="only these records, a Python slice: 10:20, :3, --rows=-5: (= before a "
                           "negative start)")
    show.add_argument("--csv", action="store_true",
                      help="CSV (the form `dump` writes and `build` reads) instead of a table")

    extract = add_verb(verbs, run_extract, "extract", help="write a lump's stored bytes to a file")
    extract.add_argument("lump", metavar="LUMP", help="index or name (entities, LUMP_PAKFILE, ...)")
    extract.add_argument("-o", "--output", required=True, metavar="FILE",
                         help="the file to write, or - for standard output")

    replace = add_verb(verbs, run_replace, "replace", help="give a lump the bytes of FILE")
    replace.add_argument("lump", metavar="LUMP")
    replace.add_argument("data", metavar="FILE", help="the new bytes (- for standard input)")
    replace.add_argument("--lump-version", type=int32, help="the lump's version (default: kept)")
    add_output(replace)

    export = add_verb(verbs, run_export, "export", help="write a lump as the next free MAP_l_N.lmp")
    export.add_argument("lump", metavar="LUMP")
    export.add_argument("-o", "--output", metavar="FILE.lmp",
                        help="default: next free _l_N.lmp; - for standard output")

    strip = add_verb(verbs, run_strip, "strip", help="empty the named lumps")
    strip.add_argument("lumps", nargs="*", metavar="LUMP")
    strip.add_argument("--preset", choices=sorted(_preset_names()),
                       help="server-download: compile-tool data no engine loads; "
                            "no-hdr: HDR lighting lumps and the dplh game lump")
    add_output(strip, layout="compact")

    merge = add_verb(verbs, run_merge, "merge",
                     help="apply lump files in the engine's order (_l_0 first)")
    merge.add_argument("files", nargs="+", metavar="FILE.lmp",
                       help="lump files (- for one read from standard input)")
    merge.add_argument("--force", action="store_true",
                       help="apply files whose map revision or lump version differ from the map's")
    add_output(merge)


def _preset_names() -> list[str]:
    from ..features.presets import PRESETS
    return list(PRESETS)


def run_strip(args: argparse.Namespace) -> int:
    from ..features.presets import strip

    with Bsp.open(args.map) as bsp:
        say = args.report.say
        before = bsp.size
        done = strip(bsp, args.lumps, args.preset)
        if done.preset:
            say(f"preset {done.preset.name}: removes {done.preset.removes}; costs "
                f"{done.preset.cost}")
        set_result(args, {"preset": args.preset, "emptied": done.emptied,
                          "game_lump_members_removed": list(done.game_lumps),
                          "size_before": before})
        if done.game_lumps:
            say(f"removed game lump member(s): {', '.join(done.game_lumps)}")
        say("emptied: " + (", ".join(lump_label(bsp.lumps[row["index"]])
                                     for row in done.emptied) or "nothing"))
        report = save(bsp, args)
    saved = "would save" if args.dry_run else "saved"
    say(f"{saved} {before - report.size} bytes ({before} -> {report.size})")
    return 0


def run_list(args: argparse.Namespace) -> int:
    with Bsp.open(args.map) as bsp:
        rows = [lump_row(bsp, lump) for lump in bsp.lumps if lump.length]
    set_result(args, {"lumps": rows})
    for row in rows:
        packed = " lzma" if row["compressed"] else ""
        args.report.say(f"{row['index']:>3} {row['name']:<32} {row['length']:>10} bytes at "
                        f"{row['offset']:>10}  v{row['version']}{packed}")
    return 0


def _row_slice(text: str) -> slice:
    """An argparse type: `A:B` with optional, possibly negative, whole numbers."""
    parts = text.split(":")
    try:
        if len(parts) != 2:
            raise ValueError
        start, stop = (int(p) if p.strip() else None for p in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not A:B (a slice such as 10:20, -5: or :3): "
                                         f"{text!r}") from None
    return slice(start, stop)


def run_show(args: argparse.Namespace) -> int:
    from ..features.dumpfolder import lump_records, write_table_to
    from ..lumps.recordtable import columns, format_rows
    from ..format.recordtypes import type_dtype

    if args.csv and args.json:
        raise BspError("--csv and --json both print on standard output: choose one")
    with Bsp.open(args.map) as bsp:
        index = bsp.lump_index(args.lump)
        lump = bsp.lumps[index]
        records = lump_records(bsp, index)
        row = lump_row(bsp, lump)
        if records is None:
            return _show_structure(args, bsp, index, row)
        endian = bsp.header.endian
    type_name, whole, tail = records
    dtype = type_dtype(type_name, endian)
    cols = columns(dtype)
    count = len(whole) // dtype.itemsize
    shown = range(count)[args.rows or slice(None)]
    cells = format_rows(whole, dtype.itemsize, cols, shown)
    set_result(args, {"lump": row, "type": type_name, "count": count, "tail": len(tail),
                      "fields": [c.name for c in cols],
                      "rows": [{"index": n, "cells": list(r)} for n, r in zip(shown, cells)],
                      "structure": None})
    if args.csv:
        write_table_to(sys.stdout, cols, cells)
    elif not args.json:
        _print_table(["#"] + [c.name for c in cols],
                     [[str(n), *r] for n, r in zip(shown, cells)])
    if tail:
        args.report.warn(f"{lump_label(lump)}: {len(tail)} bytes after the last whole "
                         f"{dtype.itemsize}-byte record (not shown)")
    return 0


def _refusal(bsp: Bsp, index: int, content: bytes) -> None:
    """Raise the lump model's own error when it refuses the lump (such as a vphysics model on
    a console map), so `lump show` says why rather than only that it has no records."""
    from ..features.textures import structure

    model = structure(bsp, bsp.lumps[index].name)
    if model is not None:
        try:
            model.parse(content)
        except BspError as exc:
            exc.lump, exc.offset = lump_label(bsp.lumps[index]), bsp.lumps[index].offset
            exc.in_file = True
            raise exc.at(bsp.path)


def _show_structure(args: argparse.Namespace, bsp: Bsp, index: int, row: dict[str, Any]) -> int:
    """`lump show` of a variable-size lump with a model: the model's JSON; exit 2 for others."""
    import json

    from ..features.dumpfolder import lump_structure
    lump = bsp.lumps[index]
    content = bsp.content(index)
    model = lump_structure(bsp, lump, content) if content else None
    if model is None and content:
        _refusal(bsp, index, content)
    if model is None or args.csv or args.rows:
        why = "" if model is None else " (it has a model, shown without --csv and --rows)"
        raise BspError(f"{lump_label(lump)} has no fixed-size records: "
                       f"{_described(bsp, index)}{why}", path=args.map)
    set_result(args, {"lump": row, "type": model[0], "count": None, "tail": None, "fields": [],
                      "rows": [], "structure": model[1]})
    if not args.json:
        sys.stdout.write(json.dumps(model[1], indent=1) + "\n")
    return 0


def _described(bsp: Bsp, index: int) -> str:
    """What the specs say a lump without fixed-size records holds."""
    from ..format.recordtypes import lump_type

    lump = bsp.lumps[index]
    family = bsp.family
    if index == family.entities:
        return "it is the entity text (bspedit ent export, ent query)"
    if lump.name in (family.pakfile, family.game_lump):
        return "it is the " + ("pakfile (bspedit pak list)" if lump.name == family.pakfile
                               else "game lump (bspedit gamelump list)")
    entry = lump_type(family.key, lump.name, lump.version, bsp.header.version)
    if entry is not None:
        return f"variable-size data, described as {entry.type} (bspedit lump extract)"
    return (f"no record type is described for version {lump.version} of it (bspedit lump "
            "extract gives its bytes)")


def _print_table(header: list[str], rows: list[list[str]]) -> None:
    """Aligned columns: text left, numbers right."""
    widths = [max([len(h)] + [len(r[n]) for r in rows]) for n, h in enumerate(header)]
    numeric = [all(_numeric(r[n]) for r in rows) for n in range(len(header))]
    for line in [header] + rows:
        sys.stdout.write("  ".join(c.rjust(w) if num else c.ljust(w)
                                   for c, w, num in zip(line, widths, numeric)).rstrip() + "\n")


def _numeric(text: str) -> bool:
    return text[:2].lstrip("-")[:1].isdigit() or text[:3] in ("nan", "inf")


def run_extract(args: argparse.Namespace) -> int:
    with Bsp.open(args.map) as bsp:
        index = bsp.lump_index(args.lump)
        data = bsp.read_lump(index)
        row = lump_row(bsp, bsp.lumps[index])
        label = lump_label(bsp.lumps[index])
    write_file(args.output, data, inputs=[args.map])
    set_result(args, {"lump": row, "output": args.output, "bytes": len(data)})
    if args.output != STDOUT:
        args.report.say(f"wrote {args.output}: {label}, {len(data)} bytes")
    return 0


def run_replace(args: argparse.Namespace) -> int:
    data = read_input(args.data)
    with Bsp.open(args.map) as bsp:
        index = bsp.lump_index(args.lump)
        set_result(args, {"lump": lump_row(bsp, bsp.lumps[index]), "bytes": len(data)})
        bsp.replace_lump(index, data, version=args.lump_version)
        save(bsp, args)
    return 0


def run_export(args: argparse.Namespace) -> int:
    from ..format.lumpfile import LumpFile, next_free

    with Bsp.open(args.map) as bsp:
        index = bsp.lump_index(args.lump)
        lump = bsp.lumps[index]
        record = LumpFile(index, lump.version, bsp.header.revision or 0, bsp.read_lump(index),
                          bsp.header.endian)
        row = lump_row(bsp, lump)
    target = args.output or str(next_free(args.map))
    data = record.to_bytes()
    write_file(target, data, inputs=[args.map])
    set_result(args, {"lump": row, "output": target, "bytes": len(data),
                      "revision": record.revision})
    if target != STDOUT:
        args.report.say(f"wrote {target}: {lump_label(lump)}, {len(record.data)} bytes, "
                        f"map revision {record.revision}")
    return 0


def run_merge(args: argparse.Namespace) -> int:
    from ..format.lumpfile import LumpFile, engine_order

    with Bsp.open(args.map) as bsp:
        revision = bsp.header.revision or 0
        applied = []
        for path in engine_order(args.files):
            record = LumpFile.parse(read_input(path), path, bsp.header.endian)
            if not 0 <= record.index < bsp.family.lump_count:
                raise BspError(f"lump id {record.index} does not exist in {bsp.family.key} maps",
                               path=path, offset=4, in_file=True)
            current = bsp.lumps[record.index]
            if not args.force and record.revision != revision:
                raise BspError(f"made for map revision {record.revision}, but {args.map} is "
                               f"revision {revision} (--force to apply anyway)", path=path,
                               offset=16, in_file=True)
            if not args.force and record.version != current.version:
                raise BspError(f"{lump_label(current)} version {record.version} differs from the "
                               f"map's {current.version} (--force to apply anyway)", path=path,
                               offset=8, in_file=True)
            bsp.replace_lump(record.index, record.data, version=record.version)
            applied.append({"file": path, "lump": lump_row(bsp, current),
                            "bytes": len(record.data)})
            args.report.say(f"{path}: {lump_label(current)}, {len(record.data)} bytes")
        set_result(args, {"files": applied})
        save(bsp, args)
    return 0
