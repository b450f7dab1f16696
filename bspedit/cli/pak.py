"""`pak`: the Source pakfile, with the verbs of Valve's bspzip."""
from __future__ import annotations

import argparse
from pathlib import Path

from ..bsp import Bsp
from ..errors import BspError, CheckFailed
from ..layout import lump_label
from ..outputs import STDOUT, staged_folder, write_file
from ..pakfile import STORED, Entry, pak_index
from .common import add_output, add_verb, set_result, save


def register(commands: argparse._SubParsersAction) -> None:
    pak = commands.add_parser("pak", help="pakfile (Source lump 40): list, add, extract, remove, "
                                          "repack, as bspzip")
    verbs = pak.add_subparsers(dest="verb", required=True, metavar="VERB")

    listing = add_verb(verbs, run_list, "list", help="the packed files (bspzip -dir)")

    add = add_verb(verbs, run_add, "add", help="pack FILE as PATH (bspzip -addfile)")
    add.add_argument("file", metavar="FILE")
    add.add_argument("--as", dest="name", required=True, metavar="PATH",
                     help="its path inside the pakfile, such as materials/x/y.vmt")
    _add_packing(add)

    addlist = add_verb(verbs, run_addlist, "addlist",
                       help="pack the files of a bspzip list: an internal path "
                            "line, then an external file line, per file "
                            "(bspzip -addlist; with --update -addorupdatelist)")
    addlist.add_argument("list", metavar="LIST")
    _add_packing(addlist)

    addfiles = add_verb(verbs, run_addfiles, "addfiles",
                        help="pack the files listed one per line as "
                             "PREFIX + their file name (bspzip -addfiles)")
    addfiles.add_argument("prefix", metavar="PREFIX", help="such as materials/mymap/")
    addfiles.add_argument("list", metavar="LIST")
    _add_packing(addfiles)

    extract = add_verb(verbs, run_extract, "extract",
                       help="unpack into DIR (bspzip -extractfiles; "
                            "--cubemaps: -extractcubemaps) or copy the zip "
                            "(--to: bspzip -extract)")
    extract.add_argument("directory", nargs="?", metavar="DIR")
    extract.add_argument("--to", metavar="ZIP", help="write the pakfile's zip bytes as they are")
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

    repack = add_verb(verbs, run_repack, "repack",
                      help="rewrite the pakfile as a clean zip, every entry "
                           "stored or LZMA (bspzip -repack [-compress])")
    method = repack.add_mutually_exclusive_group()
    method.add_argument("--compress", action="store_true",
                        help="LZMA-compress every entry it makes smaller")
    method.add_argument("--store", action="store_true", help="store every entry (the default)")
    add_output(repack)


def _add_packing(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--compress", action="store_true",
                        help="store LZMA-compressed (when smaller); default: stored, as bspzip")
    parser.add_argument("--update", action="store_true",
                        help="replace files already packed under the same path")
    add_output(parser)


def run_list(args: argparse.Namespace) -> int:
    with Bsp.open(args.map) as bsp:
        entries = bsp.pakfile.entries
    if args.json:
        set_result(args, [{"name": e.name, "size": e.size, "stored_size": e.stored_size,
                     "method": e.method_name, "crc32": e.crc, "offset": e.offset}
                    for e in entries])
        return 0
    for e in entries:
        print(f"{e.size:>10} {e.stored_size:>10} {e.method_name:<7} {e.crc:08x}  {e.name}")
    print(f"{len(entries)} files, {sum(e.size for e in entries)} bytes "
          f"({sum(e.stored_size for e in entries)} stored)")
    return 0


def run_add(args: argparse.Namespace) -> int:
    return _pack(args, [(args.name, args.file)])


def run_addlist(args: argparse.Namespace) -> int:
    lines = _list_lines(args.list)
    if len(lines) % 2:
        number, name = lines[-1]
        raise BspError(f"line {number}: {name!r} has no external file line after it "
                       "(the list pairs an internal path line with an external file line)",
                       path=args.list)
    return _pack(args, [(name, file) for (_, name), (_, file) in zip(lines[::2], lines[1::2])])


def run_addfiles(args: argparse.Namespace) -> int:
    files = [file for _, file in _list_lines(args.list)]
    return _pack(args, [(args.prefix + Path(file.replace("\\", "/")).name, file)
                        for file in files])


def _list_lines(path: str) -> list[tuple[int, str]]:
    """A bspzip list file's lines with their numbers; blank lines only at the end."""
    try:
        text = Path(path).read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BspError(f"not UTF-8 text: {exc.reason} at byte {exc.start}", path=path) from exc
    lines = [line.rstrip("\r") for line in text.split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            raise BspError(f"line {number} is empty", path=path)
    return list(enumerate(lines, 1))


def _pack(args: argparse.Namespace, files: list[tuple[str, str]]) -> int:
    with Bsp.open(args.map) as bsp:
        pak = bsp.pakfile
        done = []
        for name, file in files:
            verb = "updated" if pak.find(name) else "added"
            entry = pak.add(name, Path(file).read_bytes(), compress=args.compress,
                            update=args.update)
            done.append(f"{verb} {entry.name} from {file}: {_describe(entry)}")
        print("\n".join(done))
        save(bsp, args)
    return 0


def _describe(entry: Entry) -> str:
    if entry.method == STORED:
        return f"{entry.size} bytes, stored"
    return f"{entry.size} bytes, {entry.method_name} to {entry.stored_size}"


def run_extract(args: argparse.Namespace) -> int:
    if (args.directory is None) == (args.to is None):
        raise BspError("give either DIR to unpack into or --to ZIP")
    if args.to and args.cubemaps:
        raise BspError("--cubemaps unpacks files into DIR; --to copies the whole zip")
    with Bsp.open(args.map) as bsp:
        if args.to:
            return _copy_zip(bsp, args.to)
        pak = bsp.pakfile
        entries = pak.cubemaps() if args.cubemaps else pak.entries
        with staged_folder(args.directory, inputs=[args.map]) as staging:
            written = pak.extract(entries, staging)
    kind = "cubemap files" if args.cubemaps else "files"
    print(f"wrote {sum(not e.is_dir for e in entries)} {kind} ({written} bytes) to "
          f"{args.directory}, CRC-checked")
    return 0


def _copy_zip(bsp: Bsp, target: str) -> int:
    """The pakfile lump's bytes, as stored, streamed to `target`."""
    from ..digests import read_chunks

    lump = bsp.lumps[pak_index(bsp)]
    write_file(target, read_chunks(bsp.fileno(), lump.offset, lump.length), inputs=[bsp.path])
    if target != STDOUT:
        print(f"wrote {target}: {lump_label(lump)}, {lump.length} bytes")
    return 0


def run_remove(args: argparse.Namespace) -> int:
    if not args.patterns and not args.cubemaps:
        raise BspError("name the files to remove (paths or globs), or --cubemaps")
    with Bsp.open(args.map) as bsp:
        pak = bsp.pakfile
        for pattern in args.patterns:
            if not pak.matching(pattern):
                raise CheckFailed(f"no pak entry matches {pattern!r}; nothing written",
                                  path=bsp.path, lump=pak.label)
        chosen = pak.matching(args.patterns)
        if args.cubemaps:
            cubemaps = pak.cubemaps()
            if not cubemaps:
                raise CheckFailed("no cubemap textures in the pakfile; nothing written",
                                  path=args.map)
            chosen += [e for e in cubemaps if e not in chosen]
        pak.remove(chosen)
        for entry in chosen:
            print(f"removed {entry.name}")
        print(f"{len(chosen)} files removed, {len(pak.entries)} left")
        save(bsp, args)
    return 0


def run_repack(args: argparse.Namespace) -> int:
    with Bsp.open(args.map) as bsp:
        pak = bsp.pakfile
        index = pak_index(bsp)
        changed = pak.repack(compress=args.compress)
        method = "lzma" if args.compress else "store"
        print(f"repack ({method}): {len(changed)} files re-encoded, "
              f"{len(pak.entries) - len(changed)} kept as they were")
        content = bsp.new_content(index)
        if content is None:
            print("the pakfile is already a clean zip in that form")
        else:
            print(f"pakfile: {bsp.lumps[index].length} -> {content[0] + len(content[1])} bytes")
        save(bsp, args)
    return 0
