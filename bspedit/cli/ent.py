"""`ent`: ripent-style export/import of the entity text, queries and edits."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..bsp import Bsp
from ..errors import BspError
from ..outputs import STDOUT, write_file
from .common import add_json, add_output, add_verb, print_json, save

MODES = ("exact", "glob", "regex")


def register(commands: argparse._SubParsersAction) -> None:
    ent = commands.add_parser("ent", help="entity lump: export, import, query, edit")
    verbs = ent.add_subparsers(dest="verb", required=True, metavar="VERB")

    export = add_verb(verbs, run_export, "export",
                      help="write the entity text to MAP.ent (ripent -export)")
    export.add_argument("-o", "--output", metavar="FILE.ent",
                        help="where to write it (default: the map's name with .ent; - for stdout)")

    imp = add_verb(verbs, run_import, "import",
                   help="replace the entity text with FILE.ent (ripent -import)")
    imp.add_argument("text", metavar="FILE.ent")
    _add_lenient(imp)
    add_output(imp)

    query = add_verb(verbs, run_query, "query", help="print the entities matching every --where")
    _add_where(query, required=False)
    add_json(query)
    _add_lenient(query)

    edits = {
        "set": ("set KEY=VALUE on matching entities (first occurrence; added if absent)", True),
        "delete-key": ("delete every occurrence of KEY from matching entities", True),
        "add": ("add a new entity made of KEY=VALUE pairs", False),
        "remove": ("remove the entities matching every --where", False),
    }
    for verb, (text, takes_pairs) in edits.items():
        parser = verbs.add_parser(verb, help=text)
        parser.add_argument("map", metavar="MAP")
        if verb != "add":
            _add_where(parser, required=True)
        if takes_pairs or verb == "add":
            metavar = "KEY" if verb == "delete-key" else "KEY=VALUE"
            parser.add_argument("items", nargs="+", metavar=metavar)
        _add_lenient(parser)
        add_output(parser)
        parser.set_defaults(run=run_edit, edit=verb)


def _add_where(parser: argparse.ArgumentParser, required: bool) -> None:
    parser.add_argument("--where", action="append", default=[], required=required,
                        metavar="KEY=VALUE", help="match entities whose KEY equals VALUE "
                        "(case-insensitive); repeat to require several")
    parser.add_argument("--match", choices=MODES, default="exact",
                        help="how VALUE matches: exact (default), glob, or regex (unanchored)")


def _add_lenient(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lenient", action="store_true",
                        help="keep unparseable stretches of entity text verbatim instead of failing")


def _pair(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise BspError(f"expected KEY=VALUE, got {text!r}")
    return key, value


def run_export(args: argparse.Namespace) -> int:
    with Bsp.open(args.map) as bsp:
        text = bsp.entities(lenient=True).to_bytes()
    target = args.output or str(Path(args.map).with_suffix(".ent"))
    write_file(target, text, inputs=[args.map])
    if target != STDOUT:
        print(f"wrote {target} ({len(text)} bytes)")
    return 0


def run_import(args: argparse.Namespace) -> int:
    text = Path(args.text).read_bytes()
    with Bsp.open(args.map) as bsp:
        try:
            bsp.replace_entities(text, lenient=args.lenient)
        except BspError as exc:
            raise exc.at(args.text)
        save(bsp, args)
    return 0


def run_query(args: argparse.Namespace) -> int:
    with Bsp.open(args.map) as bsp:
        lump = bsp.entities(lenient=args.lenient)
        position = {id(e): n for n, e in enumerate(lump)}
        found = lump.find([_pair(w) for w in args.where], mode=args.match)
        rows = [{"index": position[id(e)], "pairs": e.pairs()} for e in found]
    if args.json:
        print_json(rows)
    else:
        for row in rows:
            print(f"// entity {row['index']}")
            print("{")
            for key, value in row["pairs"]:
                print(f'"{key}" "{value}"')
            print("}")
    return 0 if rows else 1


def run_edit(args: argparse.Namespace) -> int:
    with Bsp.open(args.map) as bsp:
        lump = bsp.entities(lenient=args.lenient)
        if args.edit == "add":
            lump.add_entity([_pair(item) for item in args.items])
            print("added 1 entity")
        else:
            found = lump.find([_pair(w) for w in args.where], mode=args.match)
            if not found:
                print("no entity matches; nothing written", file=sys.stderr)
                return 1
            for entity in found:
                if args.edit == "set":
                    for key, value in map(_pair, args.items):
                        entity.set(key, value)
                elif args.edit == "delete-key":
                    for key in args.items:
                        entity.delete(key)
                else:
                    lump.remove(entity)
            print(f"{args.edit}: {len(found)} entit{'y' if len(found) == 1 else 'ies'} matched")
        save(bsp, args)
    return 0
