"""Every verb's --json output against one schema (README, "JSON output"): the envelope, and per
verb its result with the shared rows (lumps, pak entries, game lump members, saves). The verbs
come from the parser, so a new verb without a schema here fails."""
from __future__ import annotations

from typing import Any

import pytest

from verbs import ARGS, cases, command, prepare, run_json, verbs


class Map:
    """A JSON object with any keys, every value matching `value`."""

    def __init__(self, value: Any) -> None:
        self.value = value


class Maybe:
    """`value` or null."""

    def __init__(self, value: Any) -> None:
        self.value = value


def check(value: Any, schema: Any, where: str = "$") -> None:
    """Assert `value` matches `schema`: a type (bool is not an int), a dict (exactly these
    keys), a one-item list (a list of those), Map, Maybe, or a tuple of allowed literals."""
    if isinstance(schema, Maybe):
        if value is not None:
            check(value, schema.value, where)
    elif isinstance(schema, Map):
        assert isinstance(value, dict), f"{where}: {value!r} is not an object"
        for key, item in value.items():
            assert isinstance(key, str), f"{where}: key {key!r}"
            check(item, schema.value, f"{where}.{key}")
    elif isinstance(schema, dict):
        assert isinstance(value, dict), f"{where}: {value!r} is not an object"
        assert value.keys() == schema.keys(), f"{where}: keys {sorted(value)} != {sorted(schema)}"
        for key, item in schema.items():
            check(value[key], item, f"{where}.{key}")
    elif isinstance(schema, list):
        assert isinstance(value, list), f"{where}: {value!r} is not a list"
        for n, item in enumerate(value):
            check(item, schema[0], f"{where}[{n}]")
    elif isinstance(schema, tuple):
        assert value in schema, f"{where}: {value!r} not one of {schema}"
    elif schema is float:
        assert isinstance(value, (int, float)) and not isinstance(value, bool), f"{where}: {value!r}"
    else:
        assert isinstance(value, schema) and not (schema is int and isinstance(value, bool)), \
            f"{where}: {value!r} is not {schema.__name__}"


LUMP = {"index": int, "name": str, "offset": int, "length": int, "version": int, "fourcc": int,
        "compressed": bool, "uncompressed_length": Maybe(int), "file_order": Maybe(int)}
ENTRY = {"name": str, "size": int, "stored_size": int, "method": str, "crc32": int,
         "offset": int, "preload": bool}
MEMBER = {"id": Maybe(str), "flags": int, "version": int, "offset": int, "stored_length": int,
          "length": int, "compressed": bool}
SAVE = {"target": str, "layout": ("stable", "compact", "in-place", "repacked", "converted"),
        "size": int, "changed": [str], "moved": [str], "checksums": Map({"before": int, "after": int}),
        "compared": str, "checksum_changed": bool, "written": bool,
        "bot_files": [{"path": str, "version": int, "before": int, "after": int}]}
PAIRS = [[str]]
LUMP_PAIR = {"index": int, "name": str, "a": LUMP, "b": LUMP}

RESULTS: dict[str, Any] = {
    "info": {"family": str, "title": str, "ident": str, "byte_order": ("little", "big"),
             "version": Maybe(int),
             "revision": Maybe(int), "lump_t_order": Maybe(str), "size": int,
             "header_size": int, "lumps": [LUMP],
             "gaps": [{"start": int, "end": int, "length": int, "kind": str, "zero": bool}],
             "trailing_bytes": int, "end_padded_1k": bool,
             "bspx_lumps": [{"name": str, "offset": int, "length": int}]},
    "verify": {"ok": bool, "problems": [{"lump": Maybe(str), "offset": Maybe(int),
                                         "message": str}]},
    "checksum": {"checksums": Map(int), "compared": str},
    "stats": {"engine": ("quake1", "bsp2", "goldsrc", "quake2", "quake3", "source", "strata"),
              "rows": [{"lump": str, "count": int, "limit": int,
                        "unit": ("records", "bytes", "entities", "textures"),
                        "percent": float}]},
    "rewrite": {"save": SAVE},
    "tex list": {"family": str, "textures": [{"index": int, "name": str, "width": Maybe(int),
                                              "height": Maybe(int), "faces": int,
                                              "details": Map(object)}]},
    "tex extract": {"output": str, "format": ("WAD2", "WAD3"), "textures": [str],
                    "bytes": int},
    "tex embed": {"embedded": [str], "save": SAVE},
    "tex unembed": {"bytes_saved": int, "save": SAVE},
    "tex export": {"directory": str, "files": [str]},
    "tex rename": {"renamed": [{"old": str, "new": str}], "faces": int, "lumps": [str],
                   "save": SAVE},
    "diff": {"identical": bool, "same_content": bool,
             "verdict": ("identical", "same content, different compression",
                         "same content, different layout", "different"),
             "header": Map([object]),
             "lumps": [{**LUMP_PAIR, "content": ("same", "different"), "compression": bool}],
             "moved": [{**LUMP_PAIR, "bytes": ("same", "relocated")}]},
    "patch": {"save": SAVE, "configs": [str], "diagnostics": [dict],
              "blocks": [{"source": str, "line": int, "end": int, "kind": str, "matched": int,
                          "removed": [str], "added": [str], "modified": [str],
                          "keyvalues": Map(int), "hint": Maybe(str)}],
              "totals": Map(int), "entities": {"before": int, "after": int}, "loss": Maybe(str),
              "plugin_output": bool, "refused": Maybe(str), "written": Maybe(str)},
    "compress": {"converted": [{"name": str, "game_lump_member": bool, "before": int,
                                "after": int}],
                 "size_before": int, "ratio": float, "save": SAVE},
    "ent export": {"output": str, "bytes": int, "terminator": int},
    "ent import": {"source": str, "bytes": int, "entities": int, "kept_verbatim": int,
                   "save": SAVE},
    "ent query": {"entities": [{"index": int, "pairs": PAIRS}]},
    "ent set": {"entities": [int], "keyvalues_deleted": int, "save": SAVE},
    "lump list": {"lumps": [LUMP]},
    "lump show": {"lump": LUMP, "type": str, "count": Maybe(int), "tail": Maybe(int),
                  "fields": [str], "rows": [{"index": int, "cells": [str]}],
                  "structure": Maybe(dict)},
    "dump": {"directory": str, "family": str, "files": int, "bytes": int,
             "lumps": [{"index": int, "name": str, "file": str, "form": ("csv", "ent", "json", "raw"),
                        "type": Maybe(str), "stored": ("lzma", "raw"),
                        "tail_file": Maybe(str)}]},
    "build": {"directory": str, "edited": [str], "save": SAVE},
    "lump extract": {"lump": LUMP, "output": str, "bytes": int},
    "lump replace": {"lump": LUMP, "bytes": int, "save": SAVE},
    "lump export": {"lump": LUMP, "output": str, "bytes": int, "revision": int},
    "lump strip": {"preset": Maybe(str), "emptied": [LUMP], "game_lump_members_removed": [str],
                   "size_before": int, "save": SAVE},
    "lump merge": {"files": [{"file": str, "lump": LUMP, "bytes": int}], "save": SAVE},
    "props list": {"version": int, "layout": str, "record_size": int, "models": [str],
                   "leaf_entries": int,
                   "props": [{"index": int, "model": Maybe(str), "model_index": int,
                              "origin": [float], "angles": [float], "skin": int, "solid": int,
                              "flags": int}]},
    "props set": {"prop": int, "changes": [{"field": str, "before": object, "after": object,
                                            "model_added": Maybe(int)}], "save": SAVE},
    "props remove": {"removed": [int], "remaining": int, "vertex_lighting_files": int,
                     "save": SAVE},
    "gamelump list": {"absolute": bool, "members": [MEMBER]},
    "gamelump extract": {"member": MEMBER, "output": str, "bytes": int},
    "gamelump replace": {"member": MEMBER, "changed": bool, "save": SAVE},
    "pak list": {"entries": [ENTRY], "files": int, "bytes": int, "stored_bytes": int},
    "pak add": {"entries": [{**ENTRY, "source": str, "action": ("added", "updated")}],
                "save": SAVE},
    "pak extract": {"output": str, "entries": [str], "files": int, "bytes": int},
    "pak remove": {"removed": [str], "remaining": int, "save": SAVE},
    "pak rename": {"old": str, "new": str, "texdata": [int], "save": SAVE,
                   "references": Maybe({"materials": [{"path": str, "mentions": int}],
                                        "keys": [{"entity": int, "key": str, "occurrence": int,
                                                  "before": str, "after": str}]})},
    "pak repack": {"method": ("store", "lzma"), "reencoded": int, "kept": int,
                   "length_before": int, "length_after": int, "save": SAVE},
}
NEED = {"path": str, "reason": [str], "optional": bool, "class_resource": bool,
        "location": ("pak", "loose", "vpk", "missing", "unknown"), "where": Maybe(str),
        "readable": bool,
        "base": bool}
COMPARED = {"path": str, "size": int, "crc32": int, "location": ("loose", "vpk"),
            "where": Maybe(str), "base": bool, "readable": bool, "same": Maybe(bool)}
GAME = {"gameinfo": Maybe(str), "base_game": [str], "unknown_reason": Maybe(str),
        "problems": [str]}
SHIFT = {"offset": [float], "vertices": int, "planes": int, "nodes": int, "leafs": int,
         "models": int, "texinfo": int, "entity_keys": int, "brushes": int, "local_models": [int],
         "copied": Map(int), "rounded_bounds": bool, "skipped_keys": [str]}
RESULTS.update({
    "pak deps": {"map_name": str, "counts": Map(int), "files": [NEED],
                 "names": [{"kind": ("soundscript", "soundscape", "particle", "breakable"),
                            "name": str, "reason": [str], "optional": bool,
                            "class_resource": bool, "resolved": Maybe(bool),
                            "defined_in": Maybe(str)}],
                 **GAME},
    "pak autopack": {"packed": [{**NEED, "size": int}], "left_to_base": [NEED],
                     "already_packed": [str], "excluded": [NEED], "unreadable": [NEED],
                     "missing": [NEED], "missing_required": int, "unknown": [NEED],
                     "packed_bytes": int,
                     "level_sounds": [{"path": str, "added": [str], "existed": bool}],
                     **GAME, "save": SAVE},
    "pak audit": {"entries": int, "redundant": [COMPARED], "overrides": [COMPARED],
                  "in_mod": [COMPARED], "not_compared": [COMPARED], "unused": [str],
                  "scripts_not_reached": [str], "compile_outputs": [str],
                  "unresolved": [NEED], "unknown": [NEED], **GAME},
    "ent check": {"findings": [{"kind": ("dangling", "input", "duplicate", "outside", "asset",
                                         "untargeted"),
                                "severity": ("problem", "warning", "note", "unknown"),
                                "entity": {"index": int, "classname": str, "targetname": str},
                                "key": str, "value": str, "message": str}],
                  "counts": {"problem": int, "warning": int, "note": int, "unknown": int}},
    "transform": {"shift": SHIFT, "save": SAVE},
    "merge": {"maps": [str], "shifts": [{"map": str, "shift": SHIFT}],
              "splits": [{"axis": ("x", "y", "z"), "dist": float}], "counts": Map(int),
              "shared_planes": int, "shared_textures": int, "shared_texinfo": int,
              "visibility": str, "unreadable_rows": int, "dropped_bspx": [str],
              "worldspawn_conflicts": [{"key": str, "kept": str, "dropped": str, "map": str}],
              "targetname_clashes": [{"name": str, "maps": [str]}],
              "renamed": [{"map": str, "old": str, "new": str}], "save": SAVE},
    "convert": {"from": str, "to": str, "save": SAVE},
    "render": {"output": str, "format": ("png", "svg"), "models": ("all", "world"),
               "frame": {"min_x": float, "min_y": float, "max_x": float, "max_y": float,
                         "units_per_pixel": float, "width": int, "height": int},
               "color": ("height", "texture", "lightmap"), "faces_drawn": int,
               "faces_skipped": Map(int), "legend": Maybe({"min_z": float, "max_z": float}),
               "playable": {"skybox": {"areas": [int], "faces": int, "models": [int],
                                       "left_out": bool, "reason": Maybe(str)},
                            "overhead_models": [int]}},
    "lightmaps": {"directory": str, "family": str, "files": [str], "width": Maybe(int),
                  "height": Maybe(int), "faces": int, "styles": [int], "hdr": bool,
                  "deluxe": bool, "broken": int},
    "ent graph": {"output": str, "format": ("dot", "svg", "png"), "nodes": int, "edges": int,
                  "dangling": int, "bytes": int},
})
for same, as_ in (("decompress", "compress"), ("ent delete-key", "ent set"),
                  ("ent add", "ent set"), ("ent remove", "ent set"),
                  ("pak addlist", "pak add"), ("pak addfiles", "pak add")):
    RESULTS[same] = RESULTS[as_]
SUMMARY = {"summary": {"maps": int, "done": int, "unchanged": int, "failed_checks": int,
                       "bad_input": int, "internal_errors": int, "interrupted": int,
                       "exit": int}}


def envelope(verb: str, result: Any) -> dict[str, Any]:
    return {"map": Maybe(str), "verb": (verb,), "result": result, "warnings": [str],
            "error": Maybe(str), "exit": int}


def test_every_verb_has_a_schema_and_a_command_line():
    assert set(verbs()) == set(RESULTS) | {"each"} == set(ARGS)


@pytest.mark.parametrize("verb,family", [c for verb in ARGS for c in cases(verb)])
def test_json_output_matches_the_schema(verb, family, tmp_path):
    values = prepare(tmp_path, family)
    code, stderr, printed = run_json(command(verb, values, ["-o", str(tmp_path / "out.bsp")]))
    assert code == 0, stderr
    if verb == "each":          # JSON Lines: each map's envelope, then the summary
        *reports, summary = printed
        assert [r["map"] for r in reports] == [values["map"], values["other"]]
        for report in reports:
            check(report, envelope("info", RESULTS["info"]))
        check(summary, SUMMARY)
        return
    (report,) = printed
    check(report, envelope(verb, RESULTS[verb]))
    assert report["exit"] == code and report["error"] is None
    # the map the command line names (build: the map it writes)
    named = str(tmp_path / "out.bsp") if verb == "build" else ARGS[verb][0].format(**values)
    assert report["map"] == named
    if isinstance(report["result"].get("save"), dict):
        assert report["result"]["save"]["written"] and \
            report["result"]["save"]["target"] == str(tmp_path / "out.bsp")
