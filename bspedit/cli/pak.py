"""`pak`: the Source pakfile, with the verbs of Valve's bspzip."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from ..bsp import Bsp
from ..errors import BspError, CheckFailed
from ..format.header import lump_label
from ..features.facts import entry_row
from ..container.outputs import STDIN, STDOUT, read_input, staged_folder, write_file
from ..lumps.pakfile import STORED, Entry, Pakfile, pak_index
from . import SUMMARIES
from .common import add_output, add_verb, set_result, save


#: A file to pack: its pak path, the external file, and where a list names each (LIST:LINE).
_File = tuple[str, str, str | None, str | None]


def register(commands: argparse._SubParsersAction) -> None:
    pak = commands.add_parser("pak", help=SUMMARIES["pak"])
    verbs = pak.add_subparsers(dest="verb", required=True, metavar="VERB")

    add_verb(verbs, run_list, "list", help="the packed files (bspzip -dir)")

    add = add_verb(verbs, run_add, "add",
                   help="pack FILE as PATH (bspzip -addfile), or every file under FOLDER as "
                        "PREFIX/its path in FOLDER")
    add.add_argument("file", metavar="FILE|FOLDER", help="a file (- for standard input) or a "
                                                         "folder, added recursively")
    add.add_argument("--as", dest="name", metavar="PATH|PREFIX",
                     help="a file's path inside the pakfile, such as materials/x/y.vmt "
                          "(required for a file); for a folder, a folder to put its files in "
                          "(default: the pakfile's top)")
    _add_packing(add)

    addlist = add_verb(verbs, run_addlist, "addlist",
                       help="pack the files of a bspzip list: an internal path "
                            "line, then an external file line, per file "
                            "(bspzip -addlist; with --update -addorupdatelist)")
    addlist.add_argument("list", metavar="LIST", help="the list file (- for standard input)")
    _add_packing(addlist)

    addfiles = add_verb(verbs, run_addfiles, "addfiles",
                        help="pack the files listed one per line as "
                             "PREFIX + their file name (bspzip -addfiles)")
    addfiles.add_argument("prefix", metavar="PREFIX", help="such as materials/mymap/")
    addfiles.add_argument("list", metavar="LIST", help="the list file (- for standard input)")
    _add_packing(addfiles)

    extract = add_verb(verbs, run_extract, "extract",
                       help="unpack every file or the NAMES into DIR (bspzip -extractfiles; "
                            "--cubemaps: -extractcubemaps) or copy the zip "
                            "(--to: bspzip -extract)",
                       epilog="On Windows, and elsewhere with BSPEDIT_WINDOWS_NAMES=1 (a folder "
                              "a Windows machine will read, such as a share), file names follow "
                              "Windows' rules: the characters < > \" | ? * and control "
                              "characters become _ (a name with : is refused everywhere), so "
                              "does a trailing dot or space, and a device name gets _ after "
                              "it (con.vmt is written as con_.vmt); "
                              "each name changed is printed on stderr (and is in --json's "
                              "renamed); folders differing only in case are one folder; two "
                              "entries that would be one file are refused (exit 2) before "
                              "anything is written.")
    extract.add_argument("directory", nargs="?", metavar="DIR",
                         help="the folder to unpack into (- writes the one file NAMES choose "
                              "to standard output)")
    extract.add_argument("names", nargs="*", metavar="NAME|GLOB",
                         help="only these files (paths or globs, case-insensitive)")
    extract.add_argument("--to", metavar="ZIP",
                         help="write the pakfile's zip bytes as they are (- for standard output)")
    extract.add_argument("--cubemaps", action="store_true",
                         help="only the cubemap textures (materials/maps/<map>/c*.vtf, "
                              "cubemapdefault*.vtf)")

    remove = add_verb(verbs, run_remove, "remove",
                      help="remove files by path or glob (--cubemaps: "
                           "bspzip -deletecubemaps)")
    remove.add_argument("patterns", nargs="*", metavar="PATH|GLOB")
    remove.add_argument("--cubemaps", action="store_true",
                        help="the cubemap textures vbsp packed (bspzip removes every .vtf; "
                             "use '*.vtf' for that)")
    add_output(remove)

    rename = add_verb(verbs, run_rename, "rename",
                      help="give a packed file another path, its bytes kept; --references: "
                           "also the materials in the pakfile and the entity keys that name it")
    rename.add_argument("old", metavar="OLD", help="the packed file (its path, any case)")
    rename.add_argument("new", metavar="NEW", help="its new path (no file may have it)")
    rename.add_argument("--references", action="store_true",
                        help="rewrite what names OLD to name NEW: values of the pakfile's "
                             ".vmt materials ($basetexture maps/x/foo) and entity keys "
                             "(model, texture, sound...), in the form each is written")
    rename.add_argument("--lenient", action="store_true",
                        help="with --references: keep unparseable stretches of entity text "
                             "verbatim instead of failing")
    add_output(rename)

    repack = add_verb(verbs, run_repack, "repack",
                      help="rewrite the pakfile as a clean zip, every entry "
                           "stored or LZMA (bspzip -repack [-compress])")
    method = repack.add_mutually_exclusive_group()
    method.add_argument("--compress", action="store_true",
                        help="LZMA-compress every entry it makes smaller")
    method.add_argument("--store", action="store_true", help="store every entry (the default)")
    add_output(repack)

    from .pak_deps import register as register_deps
    register_deps(verbs)


def _add_packing(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--compress", action="store_true",
                        help="store LZMA-compressed (when smaller); default: stored, as bspzip")
    parser.add_argument("--update", action="store_true",
                        help="replace files already packed under the same path")
    add_output(parser)


def run_list(args: argparse.Namespace) -> int:
    with Bsp.open(args.map) as bsp:
        entries = bsp.pakfile.entries
    set_result(args, {"entries": [entry_row(e) for e in entries], "files": len(entries),
                      "bytes": sum(e.size for e in entries),
                      "stored_bytes": sum(e.stored_size for e in entries)})
    args.report.say(f"{'size':>10} {'stored':>10} {'method':<7} {'crc32':<8}  name")
    for e in entries:
        mark = "  (preload section: rebuilt by every edit)" if e.is_preload else ""
        args.report.say(f"{e.size:>10} {e.stored_size:>10} {e.method_name:<7} {e.crc:08x}  "
                        f"{e.name}{mark}")
    args.report.say(f"{len(entries)} files, {sum(e.size for e in entries)} bytes "
                    f"({sum(e.stored_size for e in entries)} stored)")
    return 0


def run_add(args: argparse.Namespace) -> int:
    if args.file != STDIN and Path(args.file).is_dir():
        return _pack(args, _folder(Path(args.file), args.name or ""))
    if not args.name:
        raise BspError("--as PATH names a file inside the pakfile (only a folder's files are "
                       "named after their place in it)")
    return _pack(args, [(args.name, args.file, None, None)])


def _folder(folder: Path, prefix: str) -> list[_File]:
    """Every file under `folder` (recursively, symbolic links to files read through, links to
    folders not followed) as `prefix/its path in folder`, '/'-separated, sorted by name: what
    a bspzip addlist naming them would pack."""
    prefix = prefix.replace("\\", "/").strip("/")
    found = sorted((Path(top) / name).relative_to(folder).as_posix()
                   for top, _, names in os.walk(folder) for name in names
                   if (Path(top) / name).is_file())
    if not found:
        raise CheckFailed("no files in this folder; nothing written", path=str(folder))
    return [(f"{prefix}/{name}" if prefix else name, str(folder / name), None, None)
            for name in found]


def run_addlist(args: argparse.Namespace) -> int:
    lines = _list_lines(args.list)
    if len(lines) % 2:
        number, name = lines[-1]
        raise BspError(f"{name!r} has no external file line after it (the list pairs an "
                       "internal path line with an external file line)",
                       path=f"{args.list}:{number}")
    return _pack(args, [(name, file, f"{args.list}:{at}", f"{args.list}:{number}")
                        for (at, name), (number, file) in zip(lines[::2], lines[1::2])])


def run_addfiles(args: argparse.Namespace) -> int:
    return _pack(args, [(args.prefix + Path(file.replace("\\", "/")).name, file,
                         f"{args.list}:{number}", f"{args.list}:{number}")
                        for number, file in _list_lines(args.list)])


def _list_lines(path: str) -> list[tuple[int, str]]:
    """A bspzip list file's lines with their numbers; blank lines only at the end."""
    try:
        text = read_input(path).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BspError(f"not UTF-8 text: {exc.reason} at byte {exc.start}", path=path) from exc
    lines = [line.rstrip("\r") for line in text.split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            raise BspError("empty line", path=f"{path}:{number}")
    return list(enumerate(lines, 1))


def _pack(args: argparse.Namespace, files: list[_File]) -> int:
    """Pack each file and save; errors in a list name it and the line (`LIST:LINE: ...`)."""
    with Bsp.open(args.map) as bsp:
        pak = bsp.pakfile
        done, lines = [], []
        for name, file, name_at, file_at in files:
            action = "updated" if pak.find(name) else "added"
            try:
                data = read_input(file)
            except OSError as exc:
                if file_at is None:
                    raise
                raise BspError(f"{file}: {exc.strerror or exc}", path=file_at) from None
            try:
                entry = pak.add(name, data, compress=args.compress, update=args.update)
            except BspError as exc:
                raise BspError(str(exc), path=name_at) if name_at else exc from None
            done.append({**entry_row(entry), "source": file, "action": action})
            lines.append(f"{action} {entry.name} from {file}: {_describe(entry)}")
        for line in lines:      # once every file is packed: a failure prints only its error
            args.report.say(line)
        set_result(args, {"entries": done})
        save(bsp, args)
    return 0


def _describe(entry: Entry) -> str:
    if entry.method == STORED:
        return f"{entry.size} bytes, stored"
    return f"{entry.size} bytes, {entry.method_name} to {entry.stored_size}"


def run_extract(args: argparse.Namespace) -> int:
    if (args.directory is None) == (args.to is None):
        raise BspError("give either DIR to unpack into or --to ZIP")
    if args.to and (args.cubemaps or args.names):
        raise BspError("--to copies the whole zip; NAMES and --cubemaps choose files to unpack "
                       "into DIR")
    with Bsp.open(args.map) as bsp:
        if args.to:
            return _copy_zip(args, bsp, args.to)
        pak = bsp.pakfile
        entries = _chosen(pak, args.names, args.cubemaps, args.map) \
            if args.names or args.cubemaps else list(pak.entries)
        files = [e for e in entries if not e.is_dir]
        renamed: list[dict[str, Any]] = []      # files written under another name (Windows)
        if args.directory == STDOUT:
            if len(files) != 1:
                raise BspError(f"- writes one file to standard output, but {len(files)} match: "
                               "name one file")
            written = write_file(STDOUT, pak.read(files[0]))
        else:
            plan = pak.extract_plan(entries)    # refused names: before DIR is touched
            with staged_folder(args.directory, inputs=[args.map]) as staging:
                written = pak.extract(entries, staging)
            renamed = [{"name": t.entry.name, "written_as": t.path, "reasons": list(t.reasons)}
                       for t in plan if t.reasons]
    result: dict[str, Any] = {"output": args.directory, "entries": [e.name for e in files],
                              "files": len(files), "bytes": written}
    if renamed:
        result["renamed"] = renamed
        for row in renamed:
            print(f"pak extract: {row['name']!r} written as {row['written_as']!r} "
                  f"({'; '.join(row['reasons'])})", file=sys.stderr)
    set_result(args, result)
    kind = "cubemap files" if args.cubemaps and not args.names else "files"
    if args.directory != STDOUT:
        args.report.say(f"wrote {len(files)} {kind} ({written} bytes) to {args.directory}, "
                        "CRC-checked")
    return 0


def _chosen(pak: Pakfile, patterns: list[str], cubemaps: bool, map_path: str) -> list[Entry]:
    """The entries matching `patterns` (and the cubemaps, with `cubemaps`), in directory
    order; CheckFailed (exit 1) naming a pattern that matches nothing, or --cubemaps without
    any."""
    for pattern in patterns:
        if not pak.matching(pattern):
            raise CheckFailed(f"no pak entry matches {pattern!r}; nothing written",
                              path=map_path, lump=pak.label)
    chosen = pak.matching(patterns)
    if cubemaps:
        found = pak.cubemaps()
        if not found:
            raise CheckFailed("no cubemap textures in the pakfile; nothing written",
                              path=map_path)
        chosen += [e for e in found if e not in chosen]
    return chosen


def _copy_zip(args: argparse.Namespace, bsp: Bsp, target: str) -> int:
    """The pakfile lump's bytes, as stored, streamed to `target`."""
    from ..container.digests import read_chunks

    lump = bsp.lumps[pak_index(bsp)]
    write_file(target, read_chunks(bsp.fileno(), lump.offset, lump.length), inputs=[bsp.path])
    set_result(args, {"output": target, "bytes": lump.length})
    if target != STDOUT:
        args.report.say(f"wrote {target}: {lump_label(lump)}, {lump.length} bytes")
    return 0


def run_remove(args: argparse.Namespace) -> int:
    if not args.patterns and not args.cubemaps:
        raise BspError("name the files to remove (paths or globs), or --cubemaps")
    with Bsp.open(args.map) as bsp:
        pak = bsp.pakfile
        chosen = _chosen(pak, args.patterns, args.cubemaps, args.map)
        pak.remove(chosen)
        set_result(args, {"removed": [e.name for e in chosen], "remaining": len(pak.entries)})
        for entry in chosen:
            args.report.say(f"removed {entry.name}")
        args.report.say(f"{len(chosen)} files removed, {len(pak.entries)} left")
        save(bsp, args)
    return 0


def run_rename(args: argparse.Namespace) -> int:
    from ..features.pack.rename import rename

    if args.lenient and not args.references:
        raise BspError("--lenient reads the entity text, which only --references edits")
    with Bsp.open(args.map) as bsp:
        done = rename(bsp, args.old, args.new, references=args.references,
                      lenient=args.lenient)
        set_result(args, done.to_dict())
        args.report.say(f"renamed {done.old} to {done.new}")
        if done.references is not None:
            for path, (_, mentions) in done.references.materials.items():
                args.report.say(f"  {path}: {mentions} mention(s) rewritten")
            for index, key, _, before, after in done.references.keys:
                args.report.say(f"  entity {index} {key}: {before} -> {after}")
        if done.texdata:
            args.report.warn(f"{len(done.texdata)} TEXDATA row(s) name {done.old} (faces "
                             "drawn with it): they still name it; tex rename renames them")
        save(bsp, args)
    return 0


def run_repack(args: argparse.Namespace) -> int:
    with Bsp.open(args.map) as bsp:
        pak = bsp.pakfile
        index = pak_index(bsp)
        changed = pak.repack(compress=args.compress)
        method = "lzma" if args.compress else "store"
        args.report.say(f"repack ({method}): {len(changed)} files re-encoded, "
                        f"{len(pak.entries) - len(changed)} kept as they were")
        content = bsp.new_content(index)
        before = bsp.lumps[index].length
        after = before if content is None else content[0] + len(content[1])
        set_result(args, {"method": method, "reencoded": len(changed),
                          "kept": len(pak.entries) - len(changed), "length_before": before,
                          "length_after": after})
        if content is None:
            args.report.say("the pakfile is already a clean zip in that form")
        else:
            args.report.say(f"pakfile: {before} -> {after} bytes")
        save(bsp, args)
    return 0
