"""`dump MAP DIR`: a map as a folder of files to edit (CSV records, entity text, raw lumps and
a manifest); `build DIR -o MAP`: the map back, byte for byte when nothing was edited, else with
only the edited lumps changed (see `bspedit.features.dumpfolder`)."""
from __future__ import annotations

import argparse
from pathlib import Path

from ..bsp import Bsp
from ..errors import BspError
from . import SUMMARIES
from .common import add_json, add_target, report_save, set_result


def register(commands: argparse._SubParsersAction) -> None:
    dump = commands.add_parser("dump", help=SUMMARIES["dump"])
    dump.add_argument("map", metavar="MAP")
    dump.add_argument("folder", metavar="DIR", help="the folder to write (created if missing)")
    dump.add_argument("--force", action="store_true",
                      help="write into a DIR that is not empty (its files of the same names "
                           "are replaced)")
    add_json(dump)
    dump.set_defaults(run=run_dump)

    build = commands.add_parser("build", help=SUMMARIES["build"])
    build.add_argument("folder", metavar="DIR")
    add_target(build)
    add_json(build)
    build.set_defaults(run=run_build)


def run_dump(args: argparse.Namespace) -> int:
    from ..features.dumpfolder import dump
    from ..container.outputs import staged_folder

    folder = Path(args.folder)
    if folder.is_dir() and any(folder.iterdir()) and not args.force:
        raise BspError("refused: the folder is not empty (--force writes into it); nothing "
                       "written", path=args.folder)
    with Bsp.open(args.map) as bsp, staged_folder(folder, inputs=[args.map]) as staging:
        manifest = dump(bsp, staging)
        files = sorted(p for p in staging.rglob("*") if p.is_file())
        size = sum(p.stat().st_size for p in files)
    rows = [{key: entry[key] for key in ("index", "name", "file", "form", "type", "stored",
                                          "tail_file")}
            for entry in manifest["lumps"] if entry["file"]]
    set_result(args, {"directory": args.folder, "family": manifest["family"],
                      "files": len(files), "bytes": size, "lumps": rows})
    say = args.report.say
    for row in rows:
        packed = " (LZMA content)" if row["stored"] == "lzma" else ""
        tail = f" + {row['tail_file']}" if row["tail_file"] else ""
        say(f"{row['index']:>3} {row['name']:<28} {row['form']:<4} {row['file']}{tail}{packed}")
    say(f"wrote {args.folder}: {len(files)} files, {size} bytes")
    return 0


def run_build(args: argparse.Namespace) -> int:
    from ..features.dumpfolder import build

    if not args.output:
        raise BspError("say where to write: -o OUT (with --dry-run: what it would write)")
    args.report.map = args.output           # the map this command names: the one it writes
    edited, family, result = build(Path(args.folder), args.output, dry_run=args.dry_run)
    set_result(args, {"directory": args.folder, "edited": edited})
    args.report.say("edited: " + (", ".join(edited) or "nothing"))
    report_save(args, family, result)
    return 0
