"""The game lump, static props and detail props of console (PSBV, big-endian) Source maps: the
real Xbox 360 map (../shared/corpus-console) and game lumps converted here, with struct, from
little-endian PC ones (big-endian directory, offsets relative to the lump, members swapped)."""
from __future__ import annotations

import json
import math
import struct

import pytest

from bspedit.bsp import Bsp
from bspedit.format.gamelumpdir import game_lump_directory, relocate_game_lump
from bspedit.format.lzma_lump import decompress, lzma_header
from bspedit.lumps.detailprops import DetailPropLighting, DetailProps
from bspedit.lumps.gamelump import GameLump, fourcc, remove_members
from bspedit.lumps.staticprops import StaticProps
from conftest import CONSOLE_MAP, CORPUS, run_cli

GAME_LUMP, MODELS = 35, 14
VEHICLES = CORPUS / "source" / "sdk2013_sdk_vehicles_v19.bsp"     # sprp v5 props, dprp, dplt
needs_console = pytest.mark.skipif(not CONSOLE_MAP.is_file(),
                                   reason="../shared/corpus-console not present")
needs_vehicles = pytest.mark.skipif(not VEHICLES.is_file(), reason="../shared/corpus not present")

# struct formats of what the conversion swaps (SDK's StaticPropLump_t v5/v6, DetailObjectLump_t,
# DetailSpriteDictLump_t, DetailPropLightstyleLump_t)
SPRP_RECORD = {5: "3f3fHHHBBiff3ff", 6: "3f3fHHHBBiff3ffHH"}
DPRP_TABLES = ((128, "128s"), (32, "8f"), (52, "3f3fHH4BI5B3sB3sf"))
DPLT_TABLES = ((5, "5s"),)


def directory(data: bytes, endian: str) -> list[tuple[bytes, int, int, int, int]]:
    """A game lump's directory read with struct: (id bytes, flags, version, offset, length)."""
    (count,) = struct.unpack_from(endian + "i", data)
    return [struct.unpack_from(endian + "4sHHii", data, 4 + 16 * i) for i in range(count)]


def lumps(data: bytes) -> list[tuple[int, int]]:
    """The big-endian lump directory: (offset, length) per lump."""
    assert data[:4] == b"PSBV"
    return [struct.unpack_from(">2i", data, 8 + 16 * i) for i in range(64)]


def game_lump_bytes(data: bytes) -> bytes:
    offset, length = lumps(data)[GAME_LUMP]
    return data[offset:offset + length]


def _swap_tables(data: bytes, tables: tuple[tuple[int, str], ...], endian: str) -> bytes:
    """Counted tables of fixed-size records (size, struct format), little-endian to `endian`."""
    out, at = b"", 0
    for size, fmt in tables:
        (count,) = struct.unpack_from("<i", data, at)
        out += struct.pack(endian + "i", count)
        for i in range(count):
            values = struct.unpack_from("<" + fmt, data, at + 4 + size * i)
            out += struct.pack(endian + fmt, *values)
        at += 4 + size * count
    return out + data[at:]


def _swap_sprp(data: bytes, version: int) -> bytes:
    """A little-endian static prop member big-endian: counts, u16 leaves, records."""
    record = SPRP_RECORD[version]
    (names,) = struct.unpack_from("<i", data)
    leaves_at = 4 + 128 * names
    (leaves,) = struct.unpack_from("<i", data, leaves_at)
    return _swap_tables(data[:leaves_at], ((128, "128s"),), ">") + _swap_tables(
        data[leaves_at:], ((2, "H"), (struct.calcsize(record), record)), ">")


def to_big_endian(data: bytes, lump_offset: int) -> bytes:
    """An uncompressed PC game lump stored at `lump_offset` (absolute offsets) as a console one:
    a big-endian directory, offsets relative to the lump, sprp / dprp / dplt swapped, members
    in directory order."""
    entries = directory(data, "<")
    swap = {b"prps": _swap_sprp,
            b"prpd": lambda m, v: _swap_tables(m, DPRP_TABLES, ">"),
            b"tlpd": lambda m, v: _swap_tables(m, DPLT_TABLES, ">")}
    body, rows = b"", []
    for ident, flags, version, offset, length in entries:
        assert not flags & 1 and offset
        member = data[offset - lump_offset:offset - lump_offset + length]
        start = 4 + 16 * len(entries) + len(body)
        body += swap[ident](member, version) if ident in swap else member
        rows.append(struct.pack(">4sHHii", ident[::-1], flags, version, start, length))
    return struct.pack(">i", len(entries)) + b"".join(rows) + body


# ---- the real console map ----

@needs_console
def test_real_directory_is_big_endian_with_relative_offsets():
    data = game_lump_bytes(CONSOLE_MAP.read_bytes())
    raw = directory(data, ">")
    assert [(i, f, v) for i, f, v, _, _ in raw] == [(b"sprp", 1, 6), (b"dprp", 0, 4),
                                                   (bytes(4), 0, 0)]
    assert raw[0][3] == 52 and raw[1][4] == 12
    with Bsp.open(CONSOLE_MAP) as bsp:
        offset = bsp.lumps[GAME_LUMP].offset
        game = bsp.game_lump
        assert not game.absolute and game.endian == ">"
        assert [(m.name, m.flags, m.version, m.offset, m.length) for m in game.members] == \
            [("sprp", 1, 6, 52, raw[0][4]), ("dprp", 0, 4, raw[1][3], 12),
             ("\0" * 4, 0, 0, raw[2][3], 0)]
        assert game.member("sprp").ident == fourcc("sprp", ">") == b"sprp"
        assert fourcc("sprp", "<") == b"prps"
        assert game.to_bytes(offset) == data
        # relative offsets never move
        assert relocate_game_lump(data, offset, offset + 4096, ">") == data
        stripped = remove_members(data, offset, {"dprp"}, ">")
        # one entry less: the members move up 16 bytes, offsets still relative
        assert [r[:4] for r in directory(stripped, ">")] == [(b"sprp", 1, 6, 36),
                                                            (bytes(4), 0, 0, 200)]
        assert stripped[36:] == data[52:216]
        # sprp is a Valve LZMA blob of big-endian static props; dprp holds 3 big-endian counts
        stored = game.member("sprp").stored
        assert stored[:4] == b"LZMA" and lzma_header(stored).properties[1:] == \
            (1 << 18).to_bytes(4, "little")
        sprp = decompress(stored)
        assert game.payload("sprp") == sprp and len(sprp) == raw[0][4]
        assert struct.unpack(">3i", game.payload("dprp")) == (0, 0, 0)
        assert DetailProps.parse(game.payload("dprp"), ">").to_bytes() == game.payload("dprp")


@needs_console
def test_real_static_props_parse():
    with Bsp.open(CONSOLE_MAP) as bsp:
        props = bsp.static_props
        mins_maxs = struct.unpack_from(">6f", bsp.content(MODELS))       # the world model
    assert props.version == 6 and props.layout.size == 64 and len(props) > 0
    assert props.endian == ">"
    assert all(name.endswith(".mdl") for name in props.model_names())
    for index in range(len(props)):
        assert props.model(index) in props.model_names()
        origin = props.get(index, "origin")
        assert all(math.isfinite(v) for v in origin)
        assert all(lo <= v <= hi for lo, v, hi in zip(mins_maxs[:3], origin, mins_maxs[3:]))
    sprp = decompress(game_lump_bytes(CONSOLE_MAP.read_bytes())[52:])
    (names,) = struct.unpack_from(">i", sprp)
    (leaves,) = struct.unpack_from(">i", sprp, 4 + 128 * names)
    records = 4 + 128 * names + 4 + 2 * leaves + 4
    assert props.get(0, "origin") == struct.unpack_from(">3f", sprp, records)
    assert props.to_bytes() == sprp


@needs_console
def test_real_props_list_cli():
    text = run_cli("props", "list", CONSOLE_MAP)
    assert text.returncode == 0, text.stderr
    assert "sprp v6 (v6 layout, 64-byte records)" in text.stdout and ".mdl" in text.stdout
    listing = run_cli("props", "list", CONSOLE_MAP, "--json")
    assert listing.returncode == 0, listing.stderr
    result = json.loads(listing.stdout)["result"]
    with Bsp.open(CONSOLE_MAP) as bsp:
        props = bsp.static_props
        assert result["version"] == 6 and result["record_size"] == 64
        assert result["models"] == props.model_names() and len(result["props"]) == len(props)
        assert [row["origin"] for row in result["props"]] == \
            [list(props.get(i, "origin")) for i in range(len(props))]
    members = json.loads(run_cli("gamelump", "list", CONSOLE_MAP, "--json").stdout)["result"]
    assert not members["absolute"]
    assert [m["id"] for m in members["members"]] == ["sprp", "dprp", None]


@needs_console
def test_real_props_set_changes_only_the_game_lump_and_sets_back(tmp_path):
    original = CONSOLE_MAP.read_bytes()
    old_game = game_lump_bytes(original)
    old_stored = GameLump.parse(old_game, 0, ">").member("sprp").stored
    edited, back = tmp_path / "edited.bsp", tmp_path / "back.bsp"
    with Bsp.open(CONSOLE_MAP) as bsp:
        before = bsp.static_props.get(1, "origin")
    result = run_cli("props", "set", CONSOLE_MAP, "1", "origin=10,-20.5,30", "-o", edited)
    assert result.returncode == 0, result.stderr
    saved = edited.read_bytes()
    for index, (old, new) in enumerate(zip(lumps(original), lumps(saved))):
        if index != GAME_LUMP:
            assert new == old and saved[new[0]:new[0] + new[1]] == \
                original[old[0]:old[0] + old[1]], index
    new_game = game_lump_bytes(saved)
    assert new_game != old_game
    raw = directory(new_game, ">")
    assert [r[:3] for r in raw] == [r[:3] for r in directory(old_game, ">")]
    stored = new_game[raw[0][3]:raw[1][3]]
    assert stored[:4] == b"LZMA" and stored[12:17] == old_stored[12:17]    # same LZMA settings
    sprp = decompress(stored)
    (names,) = struct.unpack_from(">i", sprp)
    (leaves,) = struct.unpack_from(">i", sprp, 4 + 128 * names)
    record = 4 + 128 * names + 4 + 2 * leaves + 4 + 64
    assert struct.unpack_from(">3f", sprp, record) == (10.0, -20.5, 30.0)
    with Bsp.open(edited) as bsp:
        assert bsp.static_props.get(1, "origin") == (10.0, -20.5, 30.0)
        assert bsp.game_lump.payload("dprp") == GameLump.parse(old_game, 0, ">").payload("dprp")
    value = ",".join(map(repr, before))
    assert run_cli("props", "set", edited, "1", f"origin={value}", "-o", back).returncode == 0
    restored = GameLump.parse(game_lump_bytes(back.read_bytes()), 0, ">")
    assert restored.payload("sprp") == decompress(old_stored)
    assert restored.member("sprp").stored[12:17] == old_stored[12:17]


@needs_console
def test_real_rewrite_compact_keeps_member_contents(tmp_path):
    out = tmp_path / "compact.bsp"
    result = run_cli("rewrite", CONSOLE_MAP, "--layout", "compact", "-o", out)
    assert result.returncode == 0, result.stderr
    old = game_lump_bytes(CONSOLE_MAP.read_bytes())
    new = game_lump_bytes(out.read_bytes())
    assert directory(new, ">") == directory(old, ">")         # relative: never rewritten
    before, after = GameLump.parse(old, 0, ">"), GameLump.parse(new, 0, ">")
    assert [(m.ident, m.stored) for m in after.members] == \
        [(m.ident, m.stored) for m in before.members]


# ---- PC game lumps converted to big-endian ----

@needs_vehicles
def test_converted_pc_game_lump_gives_the_same_props():
    with Bsp.open(VEHICLES) as bsp:
        offset = bsp.lumps[GAME_LUMP].offset
        pc = bsp.read_lump(GAME_LUMP)
    be = to_big_endian(pc, offset)
    little, big = GameLump.parse(pc, offset, "<"), GameLump.parse(be, offset, ">")
    assert little.absolute and not big.absolute
    assert [(m.name, m.version, m.length) for m in big.members] == \
        [(m.name, m.version, m.length) for m in little.members]
    assert big.to_bytes(offset) == be and big.to_bytes(offset + 1000) == be
    assert relocate_game_lump(be, offset, offset + 1000, ">") == be

    pc_props = StaticProps.parse(little.payload("sprp"), 5)
    be_props = StaticProps.parse(big.payload("sprp"), 5, ">")
    assert len(be_props) == len(pc_props) > 0 and be_props.names == pc_props.names
    assert be_props.leaf_entries == pc_props.leaf_entries
    for index in range(len(pc_props)):
        for field in pc_props.layout.fields:
            assert be_props.get(index, field) == pc_props.get(index, field), (index, field)
    assert be_props.to_bytes() == big.payload("sprp")

    pc_detail = DetailProps.parse(little.payload("dprp"))
    be_detail = DetailProps.parse(big.payload("dprp"), ">")
    assert len(be_detail.props) == len(pc_detail.props) > 0
    assert be_detail.to_json() == pc_detail.to_json()
    assert be_detail.to_bytes() == big.payload("dprp")
    assert DetailProps.from_json(pc_detail.to_json(), ">").to_bytes() == big.payload("dprp")
    lighting = DetailPropLighting.parse(big.payload("dplt"), ">")
    assert lighting.to_json() == DetailPropLighting.parse(little.payload("dplt")).to_json()
    assert lighting.to_bytes() == big.payload("dplt")


@needs_vehicles
def test_converted_static_prop_edit_writes_big_endian():
    with Bsp.open(VEHICLES) as bsp:
        be = to_big_endian(bsp.read_lump(GAME_LUMP), bsp.lumps[GAME_LUMP].offset)
    game = GameLump.parse(be, 0, ">")
    original = game.payload("sprp")
    props = StaticProps.parse(original, 5, ">")
    props.set(0, "origin", (1.5, -2.0, 3.25))
    props.set(0, "skin", 7)
    assert game.replace_member("sprp", props.to_bytes())
    out = game.to_bytes(0)
    raw = directory(out, ">")
    assert [r[0] for r in raw] == [r[0] for r in directory(be, ">")]
    sprp = out[raw[0][3]:raw[0][3] + raw[0][4]]
    (names,) = struct.unpack_from(">i", sprp)
    (leaves,) = struct.unpack_from(">i", sprp, 4 + 128 * names)
    record = 4 + 128 * names + 4 + 2 * leaves + 4
    assert struct.unpack_from(">3f", sprp, record) == (1.5, -2.0, 3.25)
    assert struct.unpack_from(">i", sprp, record + 32) == (7,)
    assert sprp[:record] == original[:record] and sprp[record + 60:] == original[record + 60:]
    assert sprp[record + 12:record + 32] == original[record + 12:record + 32]


def test_big_endian_directory_with_absolute_offsets_moves():
    """Absolute offsets (as PC writes them) move with the lump in the map's byte order."""
    offset, body = 5000, b"abcdefgh"
    data = struct.pack(">i4sHHii4sHHii", 2, b"sprp", 0, 6, offset + 36, 8,
                       bytes(4), 0, 0, offset + 44, 0) + body
    assert [e.offset for e in game_lump_directory(data, ">").entries] == [5036, 5044]
    moved = relocate_game_lump(data, offset, offset + 100, ">")
    assert [r[3] for r in directory(moved, ">")] == [5136, 5144] and moved[36:] == body
    game = GameLump.parse(moved, offset + 100, ">")
    assert game.absolute and game.payload("sprp") == body
    assert game.to_bytes(offset + 300)[:4] == struct.pack(">i", 2)
    assert [r[3] for r in directory(game.to_bytes(offset + 300), ">")] == [5336, 5344]
