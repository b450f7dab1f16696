"""`diff` says "same bytes" only where the stored bytes are the same (issue 30, item 5).

A PC game lump that moves is rewritten (its member offsets are absolute file offsets), so its
bytes change though its members do not: `diff` says so ("same members; stored bytes differ",
JSON `bytes: "relocated"`). A BSPX trailer that follows a moved last lump is relocated alike
(its directory's offsets); a console game lump (relative offsets) moves with the same bytes.
Every claim is checked against the bytes of the two files.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import synthetic
from bspedit.bsp import Bsp
from bspedit.cli import invoke
from bspedit.format.bspx import bspx_directory
from bspedit.format.gamelumpdir import relocate_game_lump
from bspedit.lumps.gamelump import read_game_lump
from conftest import CONSOLE_MAP, CORPUS, corpus_maps, run_cli

VALVE = CORPUS / "source" / "valvebsp_testmap.bsp"
CUBE = CORPUS / "q1" / "ericw_q1_cube_bspx.bsp"
GAME_LUMP = 35
MOVED = re.compile(r"lump (\d+) \((\w+)\) moved: offset (\d+) -> (\d+), (.*)")
needs = {path: pytest.mark.skipif(not path.exists(), reason=f"{path.parent} not present")
         for path in (VALVE, CUBE, CONSOLE_MAP)}


def cli(*argv: object) -> tuple[int, str]:
    report = invoke([str(a) for a in argv], capture=True)
    return report.code, report.stdout


def diff(a: Path, b: Path) -> tuple[list[str], dict]:
    """`diff A B`'s lines of text and its JSON result."""
    code, text = cli("diff", a, b)
    assert code in (0, 1), text
    report = invoke(["diff", str(a), str(b), "--json"], capture=True)
    assert report.code == code
    return text.splitlines(), json.loads(json.dumps(report.result))


def members(bsp: Bsp) -> list[tuple]:
    game = read_game_lump(bsp)
    return [(m.name, m.flags, m.version, m.stored) for m in game.members]


def assert_every_claim_holds(a_path: Path, b_path: Path, lines: list[str], result: dict) -> None:
    """Each "moved" line and entry: "same bytes" only for equal stored bytes; "relocated" only
    for a game lump whose bytes differ and whose members are stored alike; trailing data alike."""
    with Bsp.open(a_path) as a, Bsp.open(b_path) as b:
        for line in lines:
            found = MOVED.fullmatch(line)
            if found is None:
                assert "same bytes" not in line or line.startswith("trailing data"), line
                continue
            index, old, new = int(found[1]), int(found[3]), int(found[4])
            assert (a.lumps[index].offset, b.lumps[index].offset) == (old, new)
            same = a.read_lump(index) == b.read_lump(index)
            assert (found[5] == "same bytes") == same, line
        by_index = {m["index"]: m for m in result["moved"]}
        assert sorted(by_index) == sorted(int(MOVED.fullmatch(l)[1]) for l in lines
                                          if MOVED.fullmatch(l))
        for index, entry in by_index.items():
            old, new = a.read_lump(index), b.read_lump(index)
            if entry["bytes"] == "same":
                assert old == new, entry["name"]
            else:
                assert entry["bytes"] == "relocated" and index == GAME_LUMP and old != new
                assert members(a) == members(b)
                assert relocate_game_lump(old, a.lumps[index].offset,
                                          b.lumps[index].offset) == new
        trailing = result.get("trailing")
        if trailing is not None:
            old = a.read_range(trailing["a"]["offset"], a.size) if trailing["a"] else b""
            new = b.read_range(trailing["b"]["offset"], b.size) if trailing["b"] else b""
            assert (trailing["bytes"] == "same") == (old == new)


@needs[VALVE]
def test_a_stripped_maps_game_lump_is_said_to_keep_its_members_not_its_bytes(tmp_path):
    """The reproducer: `lump strip MAP --preset server-download -o OUT`, then `diff MAP OUT`
    said `lump 35 (GAME_LUMP) moved: offset A -> B, same bytes`."""
    out = tmp_path / "stripped.bsp"
    code, text = cli("lump", "strip", VALVE, "--preset", "server-download", "-o", out)
    assert code == 0, text
    with Bsp.open(VALVE) as a, Bsp.open(out) as b:
        old, new = a.lumps[GAME_LUMP], b.lumps[GAME_LUMP]
        assert old.offset != new.offset and old.length == new.length
        assert a.read_lump(GAME_LUMP) != b.read_lump(GAME_LUMP)         # the real bytes differ
        assert members(a) == members(b)
    lines, result = diff(VALVE, out)
    assert (f"lump 35 (GAME_LUMP) moved: offset {old.offset} -> {new.offset}, same members; "
            "stored bytes differ (its absolute member offsets moved with it)") in lines
    assert not any(line.startswith("lump 35 ") and "same bytes" in line for line in lines)
    entry = next(m for m in result["moved"] if m["index"] == GAME_LUMP)
    assert entry["bytes"] == "relocated"
    assert (entry["a"]["offset"], entry["b"]["offset"]) == (old.offset, new.offset)
    assert {m["bytes"] for m in result["moved"] if m["index"] != GAME_LUMP} == {"same"}
    assert result["verdict"] == "different"                  # three lumps were emptied
    assert_every_claim_holds(VALVE, out, lines, result)
    from test_json_schema import RESULTS, check

    check(result, RESULTS["diff"])


@needs[VALVE]
def test_a_game_lump_relocated_alone_is_a_layout_difference(tmp_path):
    """Only the layout changes (the stripped map's holes closed by a compact rewrite): the game
    lump is relocated, its members the same, and the verdict is the same content."""
    holes, packed = tmp_path / "holes.bsp", tmp_path / "packed.bsp"
    code, text = cli("lump", "strip", VALVE, "--preset", "server-download", "--layout", "stable",
                     "-o", holes)
    assert code == 0, text
    code, text = cli("rewrite", holes, "--layout", "compact", "-o", packed)
    assert code == 0, text
    lines, result = diff(holes, packed)
    assert any(line.startswith("lump 35 (GAME_LUMP) moved:") and line.endswith(
        "same members; stored bytes differ (its absolute member offsets moved with it)")
        for line in lines)
    assert result["lumps"] == [] and result["verdict"] == "same content, different layout"
    assert_every_claim_holds(holes, packed, lines, result)


@pytest.mark.parametrize("path", corpus_maps())
def test_every_same_bytes_claim_after_an_edit_that_moves_lumps_holds(path, tmp_path):
    """An entity added with the compact layout moves what follows the entity lump (game lumps,
    BSPX trailers): whatever `diff` then calls the same bytes is."""
    out = tmp_path / "edited.bsp"
    code, text = cli("ent", "add", path, "classname=info_target", "targetname=" + "t" * 300,
                     "--layout", "compact", "-o", out)
    assert code == 0, text
    lines, result = diff(path, out)
    assert result["verdict"] == "different" and lines[-1] == "different"
    assert_every_claim_holds(path, out, lines, result)


@needs[CONSOLE_MAP]
def test_a_console_game_lump_moves_with_the_same_bytes(tmp_path):
    """Console member offsets are relative to the lump: moved, its bytes are the same."""
    out = tmp_path / "stripped.bsp"
    code, text = cli("lump", "strip", CONSOLE_MAP, "OCCLUSION", "-o", out)
    assert code == 0, text
    with Bsp.open(CONSOLE_MAP) as a, Bsp.open(out) as b:
        assert a.lumps[GAME_LUMP].offset != b.lumps[GAME_LUMP].offset
        assert a.read_lump(GAME_LUMP) == b.read_lump(GAME_LUMP)
        old, new = a.lumps[GAME_LUMP].offset, b.lumps[GAME_LUMP].offset
    lines, result = diff(CONSOLE_MAP, out)
    assert f"lump 35 (GAME_LUMP) moved: offset {old} -> {new}, same bytes" in lines
    assert next(m for m in result["moved"] if m["index"] == GAME_LUMP)["bytes"] == "same"
    assert_every_claim_holds(CONSOLE_MAP, out, lines, result)


@needs[CUBE]
def test_a_relocated_bspx_trailer_keeps_its_lumps_not_its_bytes(tmp_path):
    """An entity edit moves the BSPX trailer after the last lump: its directory's offsets move,
    so its bytes differ; its lumps are the same."""
    out = tmp_path / "edited.bsp"
    code, text = cli("ent", "set", CUBE, "--where", "classname=worldspawn",
                     "message=" + "m" * 64, "-o", out)
    assert code == 0, text
    with Bsp.open(CUBE) as a, Bsp.open(out) as b:
        ta, tb = a.layout.tail, b.layout.tail
        old, new = a.read_range(ta.start, ta.end), b.read_range(tb.start, tb.end)
    assert ta.start != tb.start and old != new and bspx_directory(old) is not None
    lines, result = diff(CUBE, out)
    assert (f"trailing data (BSPX) moved: offset {ta.start} -> {tb.start}, same BSPX lumps; "
            "stored bytes differ (the directory's offsets moved with it)") in lines
    assert result["trailing"] == {"a": {"offset": ta.start, "length": len(old)},
                                  "b": {"offset": tb.start, "length": len(new)},
                                  "holds": "bspx", "bytes": "relocated", "content": "same"}
    assert_every_claim_holds(CUBE, out, lines, result)


@needs[CUBE]
def test_a_changed_bspx_lump_is_a_different_map_not_a_layout(tmp_path):
    """Before: a BSPX lump's bytes changed and diff said `same content, different layout`."""
    data = bytearray(CUBE.read_bytes())
    with Bsp.open(CUBE) as bsp:
        tail = bsp.layout.tail
        entry = bspx_directory(bsp.read_range(tail.start, tail.end)).lumps[0]
        name = entry.name.rstrip(b"\0").decode()
    data[entry.offset] ^= 0xFF
    edited = tmp_path / "edited.bsp"
    edited.write_bytes(bytes(data))
    lines, result = diff(CUBE, edited)
    assert lines == [f"trailing data (BSPX) at offset {tail.start}, different (BSPX lumps "
                     f"changed: {name})", "different"]
    assert result["trailing"]["bspx"] == {"added": [], "removed": [], "changed": [name]}
    assert (result["verdict"], result["same_content"]) == ("different", False)
    assert run_cli("diff", CUBE, edited).returncode == 1


def test_a_game_lump_laid_out_again_in_place_is_listed_not_hidden(write_map):
    """The same members at the same offset, laid out differently (a gap between them): the
    bytes differ, so the lump is listed (same content), never passed over as the same bytes."""
    members_ = [(b"sprp", 0, 10, synthetic.STATIC_PROPS), (b"dprp", 0, 4, bytes(4))]

    def spaced(offset: int) -> bytes:        # the second member 4 bytes further on
        packed = synthetic.game_lump(members_)(offset)
        head = 4 + 16 * len(members_)
        second = int.from_bytes(packed[4 + 16 + 8:4 + 16 + 12], "little")
        out = bytearray(packed)
        out[4 + 16 + 8:4 + 16 + 12] = (second + 4).to_bytes(4, "little")
        cut = second - offset
        return bytes(out[:cut]) + bytes(4) + bytes(out[cut:]) if cut >= head else bytes(out)

    lumps = {0: synthetic.ENTITIES, 1: synthetic.records(20, 3)}
    a = write_map(synthetic.make_map("source", {**lumps, GAME_LUMP: synthetic.game_lump(members_)},
                                     order=[1, 0, GAME_LUMP]), "a.bsp")
    b = write_map(synthetic.make_map("source", {**lumps, GAME_LUMP: spaced},
                                     order=[1, 0, GAME_LUMP]), "b.bsp")
    with Bsp.open(a) as x, Bsp.open(b) as y:
        assert x.lumps[GAME_LUMP].offset == y.lumps[GAME_LUMP].offset
        assert x.read_lump(GAME_LUMP) != y.read_lump(GAME_LUMP)
    lines, result = diff(a, b)
    assert [l["name"] for l in result["lumps"]] == ["GAME_LUMP"]
    assert result["lumps"][0]["content"] == "same" and result["moved"] == []
    assert lines[-1] == "same content, different layout"
    assert_every_claim_holds(a, b, lines, result)
