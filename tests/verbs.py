"""Every CLI verb, how to run it on a corpus map, and the input files it needs: shared by the
JSON schema test and the dry-run test, which both enumerate the verbs from the parser (a verb
missing here fails them)."""
from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import shutil
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest

from bspedit.bsp import Bsp
from bspedit.cli import build_parser, invoke
from bspedit.format.lumpfile import LumpFile
from conftest import CORPUS

# One small map per family; Source twice: a plain v19 map (static props, a pak entry) and the
# LZMA one (pak entries, compressed lumps and game lump members).
MAPS = {"q1": "q1/slipgate_b_batt0.bsp", "goldsrc": "goldsrc/hltopdown_test.bsp",
        "q2": "q2/bsptool_q2_mp_lobby.bsp", "q3": "q3/bspconvert_test_nonsolid_patch.bsp",
        "source": "source/sdk2013_sdk_vehicles_v19.bsp",
        "source-lzma": "source/tf2classified_cp_stronghold_lzma.bsp"}
SOURCE_ONLY = ("pak", "props", "gamelump", "compress", "decompress")
MIPTEX_ONLY = ("tex extract", "tex embed", "tex unembed", "tex export")     # Quake 1, GoldSrc
# Verbs for some families only (lightmaps: the maps above with light data)
FAMILIES_ONLY = {"transform": ("q1", "goldsrc", "q2"), "merge": ("q1", "goldsrc", "q2"),
                 "convert": ("q1", "goldsrc"), "lightmaps": ("q1", "q2", "source", "source-lzma")}
CONVERT_TO = {"q1": "bsp2", "goldsrc": "bshift"}
NEW_ENTITY = b'{\n"classname" "info_null"\n"targetname" "from_test"\n}\n'

# The words after the verb; TARGET is where an editing verb writes (-o OUT or --in-place).
ARGS: dict[str, list[str]] = {
    "info": ["{map}"],
    "verify": ["{map}"],
    "checksum": ["{map}"],
    "stats": ["{map}"],
    "tex list": ["{map}"],
    "tex rename": ["{map}", "(.{{0,14}}).*", r"\1x", "--match", "regex", "TARGET"],
    "tex extract": ["{map}", "-o", "{folder}/out.wad"],
    "tex unembed": ["{embedded}", "TARGET"],
    "tex embed": ["{unembedded}", "{wad}", "TARGET"],
    "tex export": ["{embedded}", "{folder}/png", "--palette", "{palette}"],
    "rewrite": ["{map}", "TARGET", "--layout", "compact"],
    "diff": ["{map}", "{other}"],
    "patch": ["{map}", "{config}", "TARGET"],
    "compress": ["{map}", "TARGET"],
    "decompress": ["{map}", "TARGET"],
    "each": ["--json", "-j", "1", "{map}", "{other}", "--", "info"],
    "ent export": ["{map}", "-o", "{folder}/out.ent"],
    "ent import": ["{map}", "{ent}", "TARGET"],
    "ent query": ["{map}", "--where", "classname=worldspawn"],
    "ent set": ["{map}", "--where", "classname=worldspawn", "message=from test", "TARGET"],
    "ent delete-key": ["{map}", "--where", "classname=worldspawn", "classname", "TARGET",
                       "--force"],
    "ent add": ["{map}", "classname=info_target", "targetname=t1", "TARGET"],
    "ent remove": ["{map}", "--where", "classname=worldspawn", "--force", "TARGET"],
    "lump list": ["{map}"],
    "lump show": ["{map}", "planes", "--rows", "0:3"],
    "dump": ["{map}", "{folder}/dumped"],
    "build": ["{dumped}", "TARGET"],
    "lump extract": ["{map}", "entities", "-o", "{folder}/entities.bin"],
    "lump replace": ["{map}", "entities", "{entities}", "TARGET"],
    "lump export": ["{map}", "entities", "-o", "{folder}/out_l_0.lmp"],
    "lump strip": ["{map}", "entities", "TARGET"],
    "lump merge": ["{map}", "{lmp}", "TARGET"],
    "props list": ["{map}"],
    "props set": ["{map}", "0", "skin=1", "origin=1,2,3", "TARGET"],
    "props remove": ["{map}", "0", "TARGET"],
    "gamelump list": ["{map}"],
    "gamelump extract": ["{map}", "sprp", "-o", "{folder}/sprp.bin"],
    "gamelump replace": ["{map}", "sprp", "{sprp}", "--version", "{sprp_version}", "TARGET"],
    "pak list": ["{map}"],
    "pak add": ["{map}", "{pack}", "--as", "custom", "TARGET"],
    "pak addlist": ["{map}", "{addlist}", "TARGET"],
    "pak addfiles": ["{map}", "materials/mine/", "{addfiles}", "TARGET"],
    "pak extract": ["{map}", "{folder}/unpacked", "{pak_entry}"],
    "pak remove": ["{map}", "{pak_entry}", "TARGET"],
    "pak rename": ["{map}", "{pak_entry}", "renamed/{pak_entry}", "--references", "TARGET"],
    "pak repack": ["{map}", "--compress", "TARGET"],
    "pak deps": ["{map}", "--game", "{game}"],
    "pak autopack": ["{map}", "--game", "{game}", "--allow-missing", "--exclude", "*.nav",
                     "TARGET"],
    "pak audit": ["{map}", "--game", "{game}"],
    "render": ["{map}", "-o", "{folder}/top.png"],
    "lightmaps": ["{map}", "-o", "{folder}/lightmaps"],
    "ent check": ["{map}"],
    "ent graph": ["{map}", "-o", "{folder}/graph.dot"],
    "transform": ["{map}", "--shift", "16,-32,8", "TARGET"],
    "convert": ["{map}", "--to", "{convert_to}", "TARGET"],
    "merge": ["{map}", "{other}", "--shift", "{other}=16384,0,0", "TARGET"],
}


def verbs(parser: argparse.ArgumentParser | None = None) -> dict[str, argparse.ArgumentParser]:
    """Every verb of the command line ("info", "ent export", ...) and its parser (of
    `parser`, or of the whole command line, built once)."""
    return _verbs(parser) if parser is not None else _every_verb()


@functools.cache
def _every_verb() -> dict[str, argparse.ArgumentParser]:
    return _verbs(build_parser(complete=True))


# commands that serve until Ctrl-C instead of running on a map: tests/test_ui_*.py test `ui`
SERVING = ("ui",)


def _verbs(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    found = {}
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, command in commands.choices.items():
        if name in SERVING:
            continue
        inner = [a for a in command._actions if isinstance(a, argparse._SubParsersAction)]
        if inner:
            found.update((f"{name} {verb}", sub) for verb, sub in inner[0].choices.items())
        else:
            found[name] = command
    return found


def editing(parser: argparse.ArgumentParser) -> bool:
    """Whether a verb writes a map (it takes --dry-run). `render` writes pictures; only its
    `--radar ... --pack` saves the map (tests/test_radar.py runs that with --dry-run)."""
    return "--dry-run" in parser._option_string_actions and parser.prog.split()[-1] != "render"


def cases(verb: str) -> list[Any]:
    """pytest parameters: the verb on each family's map it applies to (skipped without the
    corpus). The fast run takes one family per verb, chosen by the verb's name so that the
    verbs spread over every family; the full run (CI) takes them all."""
    families = [f for f in MAPS if f.startswith("source") or not verb.startswith(SOURCE_ONLY)]
    if verb.startswith(MIPTEX_ONLY):
        families = [f for f in families if f in ("q1", "goldsrc")]
    if verb in FAMILIES_ONLY:
        families = [f for f in families if f in FAMILIES_ONLY[verb]]
    fast = families[zlib.crc32(verb.encode()) % len(families)]
    return [pytest.param(verb, family, id=f"{verb}-{family}",
                         marks=[pytest.mark.skipif(not (CORPUS / MAPS[family]).exists(),
                                                   reason="../shared/corpus not present"),
                                *([] if family == fast else [pytest.mark.full])])
            for family in families]


def prepare(folder: Path, family: str) -> dict[str, str]:
    """A copy of the family's map in `folder` and every input file a verb reads; returns the
    values of the argument templates' {placeholders}."""
    source = CORPUS / MAPS[family]
    path = folder / "map.bsp"
    shutil.copyfile(source, path)
    other = folder / "other.bsp"
    shutil.copyfile(source, other)
    values = {"map": str(path), "other": str(other), "folder": str(folder),
              "convert_to": CONVERT_TO.get(family, "")}
    with Bsp.open(path) as bsp:
        text = bsp.entities(lenient=True).to_bytes()
        text = text[:text.find(b"\0")] if b"\0" in text else text
        index = bsp.family.entities
        lump = bsp.lumps[index]
        (folder / "new.ent").write_bytes(text + NEW_ENTITY)
        (folder / "entities.bin").write_bytes(text + NEW_ENTITY + b"\0")
        (folder / "map_l_0.lmp").write_bytes(LumpFile(index, lump.version, bsp.header.revision or 0,
                                                      text + NEW_ENTITY + b"\0").to_bytes())
        if bsp.family.key == "source":
            values["pak_entry"] = next(e.name for e in bsp.pakfile.entries if not e.is_dir)
            (folder / "sprp.bin").write_bytes(bsp.game_lump.payload("sprp"))
            values["sprp_version"] = str(bsp.game_lump.member("sprp").version)
            values["game"] = str(_game_folder(bsp, folder / "game"))
        if bsp.family.key in ("q1", "goldsrc"):
            values.update(_miptex_inputs(bsp, folder))
    (folder / "pack" / "materials" / "x").mkdir(parents=True)
    (folder / "pack" / "materials" / "x" / "a.vmt").write_bytes(b'"UnlitGeneric" {}\n')
    (folder / "pack" / "b.txt").write_bytes(b"text\n")
    (folder / "addlist.txt").write_text(f"materials/list/a.vmt\n{folder}/pack/materials/x/a.vmt\n"
                                        f"list/b.txt\n{folder}/pack/b.txt\n")
    (folder / "addfiles.txt").write_text(f"{folder}/pack/b.txt\n")
    (folder / "patch.cfg").write_text('add:\n{\n"classname" "info_target"\n'
                                      '"targetname" "patched"\n}\n')
    values.update(ent=str(folder / "new.ent"), entities=str(folder / "entities.bin"),
                  lmp=str(folder / "map_l_0.lmp"), sprp=str(folder / "sprp.bin"),
                  pack=str(folder / "pack"), addlist=str(folder / "addlist.txt"),
                  addfiles=str(folder / "addfiles.txt"), config=str(folder / "patch.cfg"))
    return values


def _game_folder(bsp: Bsp, game: Path) -> Path:
    """For the pack verbs: a mod folder with a minimal gameinfo.txt (no base game) and the
    first material the map's texdata names, which the map does not pack."""
    from bspedit.features.pack.refs import texdata_references

    game.mkdir()
    (game / "gameinfo.txt").write_text('"GameInfo"\n{\n\tgame "test"\n\tFileSystem\n\t{\n'
                                       '\t\tSearchPaths\n\t\t{\n\t\t\tgame |gameinfo_path|.\n'
                                       '\t\t}\n\t}\n}\n')
    packed = {e.name.lower() for e in bsp.pakfile.entries}
    for ref in texdata_references(bsp):
        if ref.path not in packed:
            target = game / ref.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(b'"UnlitGeneric"\n{\n}\n')
            break
    return game


def _miptex_inputs(bsp: Bsp, folder: Path) -> dict[str, str]:
    """For the WAD verbs: a copy of the map with every texture embedded (zero pixels where the
    map had none), one with none embedded, a WAD holding every texture the map names at its size
    (the embedded pixels where the map has them) and a palette file."""
    from bspedit.features.texwad import extract_wad, textures, unembed
    from bspedit.format.wad import Wad, WadEntry
    from bspedit.lumps.miptex import HEADER_SIZE, mip_sizes

    goldsrc = bsp.family.key == "goldsrc"
    have = {e.name.lower(): e for e in Wad.parse(extract_wad(bsp)).entries}
    wad = Wad(b"WAD3" if goldsrc else b"WAD2")
    model = textures(bsp)
    for slot, name in enumerate(model.names):
        texture = model.texture(slot)
        if texture is None or name.lower().encode() in {n.rstrip(b"\0") for n in have}:
            continue
        sizes = mip_sizes(texture.width, texture.height)
        offsets = [HEADER_SIZE + sum(sizes[:level]) for level in range(4)]
        data = struct.pack("<16s6I", name.encode(), texture.width, texture.height, *offsets) \
            + bytes(sum(sizes))
        if goldsrc:
            data += struct.pack("<H", 256) + bytes(range(256)) * 3 + bytes(2)
        wad.entries.append(WadEntry(name.encode().ljust(16, b"\0"), 0x43 if goldsrc else 0x44,
                                    data))
    wad.entries += have.values()
    (folder / "textures.wad").write_bytes(wad.to_bytes())
    shutil.copyfile(bsp.path, folder / "unembedded.bsp")
    shutil.copyfile(bsp.path, folder / "embedded.bsp")
    with Bsp.open(folder / "unembedded.bsp") as copy:
        unembed(copy)
        copy.save()
    assert invoke(["tex", "embed", str(folder / "unembedded.bsp"), str(folder / "textures.wad"),
                   "-o", str(folder / "embedded.bsp")], capture=True).code == 0
    (folder / "palette.lmp").write_bytes(bytes(range(256)) * 3)
    return {"embedded": str(folder / "embedded.bsp"), "unembedded": str(folder / "unembedded.bsp"),
            "wad": str(folder / "textures.wad"), "palette": str(folder / "palette.lmp")}


def command(verb: str, values: dict[str, str], target: list[str]) -> list[str]:
    """The command line of `verb` with the placeholders filled and TARGET replaced; {dumped}
    is the map dumped to a folder beside `folder` (made on first use, as dumps take a while;
    outside `folder`, whose files the dry-run test compares before and after)."""
    if "{dumped}" in ARGS[verb] and "dumped" not in values:
        values["dumped"] = f"{values['folder']}-dumped"
        assert invoke(["dump", values["map"], values["dumped"]], capture=True).code == 0
    words = []
    for word in ARGS[verb]:
        words += target if word == "TARGET" else [word.format(**values)]
    return verb.split() + words


def run_json(argv: list[str]) -> tuple[int, str, list[Any]]:
    """Run a command line in this process with --json; its exit code, stderr, and what it
    printed on stdout as JSON values (one, or one per line for `each`)."""
    out, err = io.StringIO(), io.StringIO()
    argv = argv if "--json" in argv else argv + ["--json"]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = invoke(argv).code
    text = out.getvalue()
    values = [json.loads(line) for line in text.splitlines()] if argv[0] == "each" \
        else [json.loads(text)]
    return code, err.getvalue(), values
