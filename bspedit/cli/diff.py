"""`diff`: what differs between two maps, down to entity keys and pakfile entries, and whether
their content is the same (only compression or layout differ)."""
from __future__ import annotations

import argparse
from typing import Any

from ..bsp import Bsp
from . import SUMMARIES
from .common import add_json, set_result


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("diff", help=SUMMARIES["diff"])
    parser.add_argument("a", metavar="A")
    parser.add_argument("b", metavar="B")
    add_json(parser)
    parser.set_defaults(run=run_diff)


def run_diff(args: argparse.Namespace) -> int:
    from ..features.diff import diff_maps

    with Bsp.open(args.a) as a, Bsp.open(args.b) as b:
        result = diff_maps(a, b)
    set_result(args, result)
    for line in _lines(result):
        args.report.say(line)
    return 0 if result["identical"] else 1


def _lines(result: dict[str, Any]) -> list[str]:
    lines = [f"header {field}: {old} -> {new}" for field, (old, new) in result["header"].items()]
    for lump in result["lumps"]:
        a, b = lump["a"], lump["b"]
        how = ""
        if lump["content"] == "same":
            stored = " (LZMA -> raw)" if a["compressed"] and not b["compressed"] else \
                " (raw -> LZMA)" if b["compressed"] and not a["compressed"] else ""
            how = f", same content{stored}"
        lines.append(f"lump {lump['index']} ({lump['name']}): {a['length']} -> {b['length']} "
                     f"bytes{how}")
    for lump in result["moved"]:
        lines.append(f"lump {lump['index']} ({lump['name']}) moved: offset {lump['a']['offset']} "
                     f"-> {lump['b']['offset']}, same bytes")
    entities = result.get("entities", {})
    for entity in entities.get("removed", []):
        lines.append(f"  removed entity {entity['index']} ({entity['classname']})")
    for entity in entities.get("added", []):
        pairs = " ".join(f'"{k}" "{v}"' for k, v in entity["pairs"])
        lines.append(f"  added entity {entity['index']} ({entity['classname']}): {pairs}")
    for entity in entities.get("changed", []):
        lines.append(f"  changed entity {entity['index'][0]} ({entity['classname']}):")
        lines += [f"    \"{change['key']}\": {change['before']} -> {change['after']}"
                  for change in entity["keys"]]
    for kind in ("added", "removed", "changed", "recompressed"):
        lines += [f"  pakfile {kind}: {name}" for name in result.get("pakfile", {}).get(kind, [])]
    lines.append(result["verdict"])
    return lines
