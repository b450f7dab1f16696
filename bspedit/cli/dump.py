"""`dump MAP DIR`: a map as a folder of files to edit (CSV records, entity text, raw lumps and
a manifest); `build DIR -o MAP`: the map back, byte for byte when nothing was edited, else with
only the edited lumps changed (see `bspedit.dumpfolder`)."""
from __future__ import annotations

import argparse
import dataclasses
import os
from pathlib import Path

from ..bsp import Bsp
from ..errors import BspError
from .common import add_json, add_target, report_save, set_result, to_target


def register(commands: argparse._SubParsersAction) -> None:
    dump = commands.add_parser("dump", help="write a map as a folder of editable files")
    dump.add_argument("map", metavar="MAP")
    dump.add_argument("folder", metavar="DIR", help="the folder to write (created if missing)")
    dump.add_argument("--force", action="store_true",
                      help="write into a DIR that is not empty (its files of the same names "
                           "are replaced)")
    add_json(dump)
    dump.set_defaults(run=run_dump)

    build = commands.add_parser("build", help="write the map of a folder written by dump")
    build.add_argument("folder", metavar="DIR")
    add_target(build)
    add_json(build)
    build.set_defaults(run=run_build)


def run_dump(args: argparse.Namespace) -> int:
    from ..dumpfolder import dump
    from ..outputs import staged_folder

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
    import tempfile

    from ..dumpfolder import MANIFEST, check_base, rebuild, write_base
    from ..layout import lump_label
    from ..outputs import STDOUT, guard
    from ..saving import save

    if not args.output:
        raise BspError("say where to write: -o OUT (with --dry-run: what it would write)")
    args.report.map = args.output           # the map this command names: the one it writes
    folder = Path(args.folder)
    rebuilt = rebuild(folder)
    if args.output != STDOUT:
        guard(args.output, rebuilt.inputs)
    name = os.path.basename(args.output) if args.output != STDOUT else "map.bsp"
    with tempfile.TemporaryDirectory(prefix="bspedit-build-") as scratch:
        base = os.path.join(scratch, name)
        fd = os.open(base, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            write_base(rebuilt, folder, fd)
        finally:
            os.close(fd)
        manifest = folder / MANIFEST
        try:
            opened = Bsp.open(base)
        except BspError as exc:
            exc.path = None                 # the scratch file: name the manifest instead
            raise BspError(f"its header and lumps do not make a map: {exc}",
                           path=str(manifest)) from None
        with opened as bsp:
            check_base(bsp, rebuilt, manifest)
            edited = [lump_label(bsp.lumps[i]) for i in rebuilt.changed]
            for index in rebuilt.changed:
                bsp.replace_lump(index, rebuilt.stored[index])
            for name, data in rebuilt.members:
                bsp.game_lump.replace_member(name, data)
                edited.append(f"game lump member {name}")
            set_result(args, {"directory": args.folder, "edited": edited})
            args.report.say("edited: " + (", ".join(edited) or "nothing"))
            result = save(bsp, args.output, dry_run=True) if args.dry_run else \
                to_target(args.output, base, lambda path: save(bsp, path))
    before = rebuilt.manifest.get("checksums")
    if isinstance(before, dict) and before.keys() == result.checksums_before.keys() and \
            all(isinstance(v, int) for v in before.values()):
        result = dataclasses.replace(result, checksums_before=dict(before))
    report_save(args, bsp.family, result)
    return 0
