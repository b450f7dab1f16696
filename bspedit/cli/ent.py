"""`ent`: ripent-style export/import of the entity text, queries and edits."""
from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from ..bsp import Bsp
from ..errors import BspError, CheckFailed
from ..container.outputs import STDIN, STDOUT, read_input, write_file
from . import SUMMARIES
from .common import add_output, add_verb, set_result, save

if TYPE_CHECKING:       # lark loads only when a verb parses entity text
    from ..lumps.entities import EntityLump

MODES = ("exact", "glob", "regex")


def register(commands: argparse._SubParsersAction) -> None:
    ent = commands.add_parser("ent", help=SUMMARIES["ent"])
    verbs = ent.add_subparsers(dest="verb", required=True, metavar="VERB")

    export = add_verb(verbs, run_export, "export",
                      help="write the entity text to MAP.ent (ripent -export), as plain text: "
                           "without the lump's NUL terminator")
    export.add_argument("-o", "--output", metavar="FILE.ent",
                        help="where to write it (default: the map's name with .ent; - for "
                             "stdout; DIR/ for that name inside DIR)")
    export.add_argument("--force", action="store_true",
                        help="replace the default MAP.ent when it exists (refused otherwise)")
    export.set_defaults(output_name=lambda args: os.path.basename(_ent_path(args.map)))

    imp = add_verb(verbs, run_import, "import",
                   help="replace the entity text with FILE.ent (ripent -import; - reads "
                        "standard input); the lump keeps its NUL terminator")
    imp.add_argument("text", metavar="FILE.ent")
    _add_lenient(imp)
    _add_force(imp, "import text without a worldspawn entity")
    add_output(imp)

    query = add_verb(verbs, run_query, "query", help="print the entities matching every --where")
    _add_where(query)
    _add_lenient(query)

    edits = {
        "set": ("set KEY=VALUE on matching entities (first occurrence; added if absent)", True),
        "delete-key": ("delete every occurrence of KEY from matching entities", True),
        "add": ("add a new entity made of KEY=VALUE pairs", False),
        "remove": ("remove the entities matching every --where", False),
    }
    for verb, (text, takes_pairs) in edits.items():
        parser = add_verb(verbs, run_edit, verb, help=text)
        if verb != "add":
            _add_where(parser)
            parser.add_argument("--index", action="append", type=int, default=[], metavar="N",
                                help="the entity at index N (0 is the first, as `ent query` "
                                     "and `ent export` number them); repeat for several; "
                                     "with --where, those of them that match")
            parser.set_defaults(one_of=("where", "index"))
        if takes_pairs or verb == "add":
            metavar = "KEY" if verb == "delete-key" else "KEY=VALUE"
            parser.add_argument("items", nargs="+", metavar=metavar)
        if verb in ("set", "delete-key"):
            parser.add_argument("--occurrence", type=int, metavar="N",
                                help="only the Nth pair with KEY (1 is the first): another "
                                     "output of the same name; refused (exit 1) when an "
                                     "entity has fewer")
        if verb == "set":
            parser.add_argument("--append", action="store_true",
                                help="add the pair even when the entity has KEY (another "
                                     "output of the same name)")
        _add_lenient(parser)
        if verb != "add":
            _add_force(parser, "apply an edit that leaves no entity or no worldspawn")
        add_output(parser)
        parser.set_defaults(edit=verb)

    from . import ent_logic     # check, graph
    ent_logic.register(verbs)


def _add_where(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--where", action="append", default=[],
                        metavar="KEY=VALUE", help="match entities whose KEY equals VALUE "
                        "(case-insensitive); repeat to require several")
    parser.add_argument("--match", choices=MODES, default="exact",
                        help="how VALUE matches: exact (default), glob, or regex (unanchored)")


def _add_lenient(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lenient", action="store_true",
                        help="keep unparseable stretches of entity text verbatim instead of failing")


def _add_force(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--force", action="store_true",
                        help=f"{what} (refused otherwise: exit 1, nothing written)")


def _report_kept(args: argparse.Namespace, lump: EntityLump, source: str) -> None:
    """Warn about each stretch a lenient parse kept verbatim."""
    for stretch in lump.kept:
        args.report.warn(f"{source}: {stretch}")


def _pair(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise BspError(f"expected KEY=VALUE, got {text!r}")
    return key, value


def _ent_path(map_path: str) -> str:
    """MAP.ent: the map's path with .ent for its suffix (pathlib loads here: the edit verbs
    do without it, start-up time)."""
    from pathlib import Path

    return str(Path(map_path).with_suffix(".ent"))


def run_export(args: argparse.Namespace) -> int:
    from ..lumps.entities import split_terminator

    with Bsp.open(args.map) as bsp:
        text, terminator = split_terminator(bsp.entities(lenient=True).to_bytes())
    target = args.output or _ent_path(args.map)
    if not args.output and os.path.lexists(target) and not args.force:
        raise BspError(f"refused: {target} exists (an earlier export, perhaps edited); nothing "
                       f"written. Replace it with -o {target} or --force, or name another "
                       "file with -o", path=args.map)
    write_file(target, text, inputs=[args.map])
    set_result(args, {"output": target, "bytes": len(text), "terminator": len(terminator)})
    if target != STDOUT:
        args.report.say(f"wrote {target} ({len(text)} bytes)")
    return 0


def run_import(args: argparse.Namespace) -> int:
    from ..lumps.entities import split_terminator

    source = "standard input" if args.text == STDIN else args.text
    text = read_input(args.text)
    with Bsp.open(args.map) as bsp:
        if b"\0" not in text:      # plain text (ent export's): the lump keeps its terminator
            text += split_terminator(bsp.entities(lenient=True).to_bytes())[1]
        try:
            bsp.replace_entities(text, lenient=args.lenient)
        except BspError as exc:
            raise exc.at(source)
        lump = bsp.entities()
        _report_kept(args, lump, source)
        if not lump.census().worldspawn and not args.force:
            kept = f" ({len(lump.kept)} stretch(es) kept verbatim)" if lump.kept else ""
            raise CheckFailed(f"the text has no worldspawn entity{kept}; refused, nothing "
                              "written (--force imports it anyway)", path=source)
        set_result(args, {"source": args.text, "bytes": len(text), "entities": len(list(lump)),
                          "kept_verbatim": len(lump.kept)})
        save(bsp, args)
    return 0


def run_query(args: argparse.Namespace) -> int:
    with Bsp.open(args.map) as bsp:
        lump = bsp.entities(lenient=args.lenient)
        position = {id(e): n for n, e in enumerate(lump)}
        found = lump.find([_pair(w) for w in args.where], match=args.match)
        rows = [{"index": position[id(e)], "pairs": e.pairs()} for e in found]
    set_result(args, {"entities": rows})
    for row in rows:
        args.report.say(f"// entity {row['index']}")
        args.report.say("{")
        for key, value in row["pairs"]:
            args.report.say(f'"{key}" "{value}"')
        args.report.say("}")
    return 0 if rows else 1


def run_edit(args: argparse.Namespace) -> int:
    _check_map_first(args)
    with Bsp.open(args.map) as bsp:
        lump = bsp.entities(lenient=args.lenient)
        _report_kept(args, lump, f"{args.map}: entities")
        if args.edit == "add":
            lump.add_entity([_pair(item) for item in args.items])
            set_result(args, {"entities": [len(list(lump)) - 1], "keyvalues_deleted": 0})
            args.report.say("added 1 entity")
        else:
            _edit(args, lump)
        save(bsp, args)
    return 0


def _check_map_first(args: argparse.Namespace) -> None:
    """A KEY=VALUE where MAP goes, and a map among the KEY=VALUEs: say the map comes first."""
    if "=" in args.map and not os.path.exists(args.map):
        maps = [item for item in args.items if os.path.isfile(item)]
        if maps:
            raise BspError(f"{args.map} is not a map and {maps[0]} is: the map comes first, "
                           f"right after the verb (bspedit ent {args.edit} MAP ... KEY=VALUE)")


def _edit(args: argparse.Namespace, lump: EntityLump) -> None:
    """set, delete-key or remove on the entities matching --where; CheckFailed, before anything
    is written, when nothing matches or the edit would leave no entity or no worldspawn."""
    found = lump.find([_pair(w) for w in args.where], match=args.match)
    position = {id(e): n for n, e in enumerate(lump)}
    if args.index:
        count = len(position)
        wrong = [n for n in args.index if not 0 <= n < count]
        if wrong:
            raise BspError(f"--index {wrong[0]}: the map has {count} entities (0 to "
                           f"{count - 1})", path=args.map)
        chosen = set(args.index)
        found = [e for e in found if position[id(e)] in chosen]
    indices = [position[id(e)] for e in found]
    where = " ".join([f"--where {w}" for w in args.where] +
                     [f"--index {n}" for n in args.index])
    if not found:
        raise CheckFailed(f"no entity matches {where}; nothing written", path=args.map)
    before, deleted = lump.census(), 0
    occurrence = getattr(args, "occurrence", None)
    if occurrence is not None and (occurrence < 1 or getattr(args, "append", False)):
        raise BspError("--occurrence counts from 1, and does not go with --append")
    for entity in found:
        if args.edit == "set":
            for key, value in map(_pair, args.items):
                if args.append:
                    entity.add(key, value)
                    continue
                try:
                    entity.set(key, value, occurrence=occurrence or 1)
                except KeyError:
                    raise CheckFailed(f"an entity matching {where} has fewer than {occurrence} "
                                      f"pairs with {key!r}; nothing written",
                                      path=args.map) from None
        elif args.edit == "delete-key":
            deleted += sum(entity.delete(key, occurrence=occurrence) for key in args.items)
        else:
            lump.remove(entity)
    matched = f"{len(found)} entit{'y' if len(found) == 1 else 'ies'} matching {where}"
    if args.edit == "delete-key" and not deleted:
        raise CheckFailed(f"none of the {matched} has {', '.join(args.items)}; nothing written",
                          path=args.map)
    loss = before.loss(lump.census())
    if loss and not args.force:
        raise CheckFailed(f"{args.edit} {where} {loss}; refused, nothing written (--force "
                          "applies it anyway)", path=args.map)
    set_result(args, {"entities": indices, "keyvalues_deleted": deleted})
    args.report.say(f"{args.edit}: {matched}" +
                    (f", {deleted} keyvalue(s) deleted" if deleted else ""))
