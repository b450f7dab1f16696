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
        what = "same bytes" if lump["bytes"] == "same" else \
            "same members; stored bytes differ (its absolute member offsets moved with it)"
        lines.append(f"lump {lump['index']} ({lump['name']}) moved: offset {lump['a']['offset']} "
                     f"-> {lump['b']['offset']}, {what}")
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
    if "trailing" in result:
        lines.append(_trailing_line(result["trailing"]))
    lines.append(result["verdict"])
    return lines


def _trailing_line(trailing: dict[str, Any]) -> str:
    """The trailing data's line: where it moved or how its size changed, and what is the same."""
    a, b = trailing["a"], trailing["b"]
    label = "trailing data (BSPX)" if trailing["holds"] == "bspx" else "trailing data"
    if a is not None and b is not None and a["length"] == b["length"]:
        where = f"{label} moved: offset {a['offset']} -> {b['offset']}" \
            if a["offset"] != b["offset"] else f"{label} at offset {a['offset']}"
    else:
        where = f"{label}: {a['length'] if a else 0} -> {b['length'] if b else 0} bytes"
    if trailing["bytes"] == "same":
        return f"{where}, same bytes"
    if trailing["bytes"] == "relocated":
        return (f"{where}, same BSPX lumps; stored bytes differ (the directory's offsets moved "
                "with it)")
    if trailing["content"] == "same":
        return f"{where}, same content"
    changes = [f"{kind}: {', '.join(names)}" for kind, names in trailing.get("bspx", {}).items()
               if names]
    return f"{where}, different" + (f" (BSPX lumps {'; '.join(changes)})" if changes else "")
