"""`diff`: what differs between two maps, down to entity keys and pakfile entries."""
from __future__ import annotations

import argparse

from ..bsp import Bsp
from .common import add_json, set_result


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("diff", help="lumps, entities and pakfile entries that differ "
                                 "(exit 0 identical, 1 different)")
    parser.add_argument("a", metavar="A")
    parser.add_argument("b", metavar="B")
    add_json(parser)
    parser.set_defaults(run=run_diff)


def run_diff(args: argparse.Namespace) -> int:
    from ..diff import diff_maps

    with Bsp.open(args.a) as a, Bsp.open(args.b) as b:
        result = diff_maps(a, b)
    if args.json:
        set_result(args, result)
    else:
        _print(result)
    return 0 if result["identical"] else 1


def _print(result: dict) -> None:
    for field, (old, new) in result["header"].items():
        print(f"header {field}: {old} -> {new}")
    for lump in result["lumps"]:
        old, new = lump["length"]
        print(f"lump {lump['index']} ({lump['name']}): {old} -> {new} bytes")
    for lump in result["moved"]:
        old, new = lump["offset"]
        print(f"lump {lump['index']} ({lump['name']}) moved: offset {old} -> {new}, same bytes")
    entities = result.get("entities", {})
    for entity in entities.get("removed", []):
        print(f"  removed entity {entity['index']} ({entity['classname']})")
    for entity in entities.get("added", []):
        pairs = " ".join(f'"{k}" "{v}"' for k, v in entity["pairs"])
        print(f"  added entity {entity['index']} ({entity['classname']}): {pairs}")
    for entity in entities.get("changed", []):
        print(f"  changed entity {entity['index'][0]} ({entity['classname']}):")
        for change in entity["keys"]:
            print(f"    \"{change['key']}\": {change['before']} -> {change['after']}")
    for kind in ("added", "removed", "changed"):
        for name in result.get("pakfile", {}).get(kind, []):
            print(f"  pakfile {kind}: {name}")
    if result["identical"]:
        print("identical")
