"""The game lump model: members by id, compressed members, terminators, gaps, relocation."""
from __future__ import annotations

import json
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import synthetic
from bspedit.bsp import Bsp
from bspedit.features.checks import problems
from bspedit.errors import BspError
from bspedit.lumps.gamelump import GameLump, fourcc
from bspedit.format.gamelumpdir import game_lump_directory, relocate_game_lump
from bspedit.format.lzma_lump import compress, decompress
from conftest import CORPUS, corpus_maps, run_cli

LZMA_MAP = CORPUS / "source" / "tf2classified_cp_stronghold_lzma.bsp"


def _lump(entries: list[tuple[bytes, int, int, int, int]], body: bytes) -> bytes:
    """A game lump from raw directory entries (id as read, flags, version, offset, length)."""
    return struct.pack("<i", len(entries)) + b"".join(
        fourcc(name.decode()) + struct.pack("<HHii", *fields) for name, *fields in entries) + body


def _members_at(data: bytes, lump_offset: int) -> dict[str, tuple[int, bytes]]:
    """Each member's version and stored bytes, read by its directory offset (like the engine)."""
    entries = game_lump_directory(data).entries
    base = lump_offset if any(e.offset >= lump_offset for e in entries) else 0
    ends = sorted({e.offset - base for e in entries if e.offset} | {len(data)})
    found = {}
    for e in entries:
        if e.offset and e.id != bytes(4):
            start = e.offset - base
            end = start + e.length if not e.flags & 1 else min(x for x in ends if x > start)
            found[e.id[::-1].decode()] = (e.version, data[start:end])
    return found


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_corpus_game_lumps_parse_and_write_back_byte_identical(path):
    with Bsp.open(path) as bsp:
        lump = bsp.lumps[35]
        data = bsp.read_lump(35)
    parsed = GameLump.parse(data, lump.offset)
    assert parsed.to_bytes(lump.offset) == data
    # written for another offset it is exactly the relocated lump
    assert parsed.to_bytes(lump.offset + 1000) == relocate_game_lump(data, lump.offset, lump.offset + 1000)
    for member in parsed.members:
        if not member.terminator:
            payload = parsed.payload(member.name)
            assert len(payload) == member.length
            if not member.compressed:
                assert payload == _members_at(data, lump.offset)[member.name][1]
            assert not parsed.replace_member(member.name, payload)    # its own data: no change
    assert parsed.to_bytes(lump.offset) == data


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_cli_lists_members_and_extract_then_replace_is_byte_identical(path, tmp_path):
    listing = run_cli("gamelump", "list", path, "--json")
    assert listing.returncode == 0, listing.stderr
    rows = json.loads(listing.stdout)["result"]["members"]
    with Bsp.open(path) as bsp:
        entries = game_lump_directory(bsp.read_lump(35)).entries
    assert [(r["id"] or "\0" * 4, r["flags"], r["version"], r["offset"], r["length"]) for r in rows] == \
        [(e.id[::-1].decode("latin-1"), e.flags, e.version, e.offset, e.length) for e in entries]
    payload = tmp_path / "sprp.bin"
    assert run_cli("gamelump", "extract", path, "sprp", "-o", payload).returncode == 0
    result = run_cli("gamelump", "replace", path, "sprp", payload, "-o", tmp_path / "same.bsp")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "same.bsp").read_bytes() == path.read_bytes()


@pytest.mark.skipif(not LZMA_MAP.exists(), reason="../shared/corpus not present")
@pytest.mark.parametrize("in_place", [False, True])
def test_replacing_a_compressed_member_recompresses_it_and_keeps_the_rest(tmp_path, in_place):
    new_dprp = struct.pack("<i", 0) + struct.pack("<i", 0) + struct.pack("<i", 0) + b"extra" * 9
    (tmp_path / "dprp.bin").write_bytes(new_dprp)
    out = tmp_path / "out.bsp"
    if in_place:
        out.write_bytes(LZMA_MAP.read_bytes())
        target = ["--in-place"]
    else:
        target = ["-o", out]
    result = run_cli("gamelump", "replace", out if in_place else LZMA_MAP, "dprp",
                     tmp_path / "dprp.bin", "--version", "5", *target)
    assert result.returncode == 0, result.stderr
    with Bsp.open(LZMA_MAP) as original, Bsp.open(out, check=False) as saved:
        assert problems(saved) == []
        for lump in original.lumps:
            if lump.index != 35:
                assert saved.read_lump(lump.index) == original.read_lump(lump.index), lump.name
        old = GameLump.parse(original.read_lump(35), original.lumps[35].offset)
        new = GameLump.parse(saved.read_lump(35), saved.lumps[35].offset)
        assert saved.lumps[35].offset != original.lumps[35].offset or not in_place
        assert new.member("sprp").stored == old.member("sprp").stored
        assert new.payload("dprp") == new_dprp and new.member("dprp").version == 5
        assert decompress(new.member("dprp").stored) == new_dprp
        assert new.member("dprp").compressed and new.member("dprp").length == len(new_dprp)
        entries = game_lump_directory(saved.read_lump(35)).entries
        end, nowhere = entries[2:]
        assert end.id == nowhere.id == bytes(4)
        assert end.offset == saved.lumps[35].end and nowhere.offset == 0
        # the dprp blob sits where its entry says, 4-byte aligned like bspzip's
        dprp = entries[1]
        assert dprp.offset % 4 == 0
        assert saved.read_range(dprp.offset, dprp.offset + len(new.member("dprp").stored)) == \
            new.member("dprp").stored


def test_compressed_members_and_terminators_synthetic():
    sprp, dprp = b"static" * 10, b"D" * 9
    blob_s, blob_d = compress(sprp), compress(dprp)
    pad = bytes(-len(blob_s) % 4)
    assert pad and len(compress(b"T" * 1000)) % 4         # both need alignment padding
    offset = 20000
    start = offset + 4 + 16 * 4
    body = blob_s + pad + blob_d
    data = _lump([(b"sprp", 1, 10, start, len(sprp)),
                  (b"dprp", 1, 4, start + len(blob_s) + len(pad), len(dprp)),
                  (b"\0\0\0\0", 0, 0, start + len(body), 0), (b"\0\0\0\0", 0, 0, 0, 0)], body)
    lump = GameLump.parse(data, offset)
    assert lump.to_bytes(offset) == data
    assert lump.payload("sprp") == sprp and lump.payload("dprp") == dprp
    assert lump.member("sprp").gap == pad
    assert not lump.replace_member("sprp", sprp)               # same data: stored bytes kept
    assert lump.replace_member("sprp", b"T" * 1000)
    out = lump.to_bytes(offset)
    entries = game_lump_directory(out).entries
    assert [e.length for e in entries] == [1000, 9, 0, 0]
    blob = lump.member("sprp").stored
    start_s, start_d = entries[0].offset - offset, entries[1].offset - offset
    assert decompress(out[start_s:start_s + len(blob)]) == b"T" * 1000
    assert out[start_s + len(blob):start_d] == bytes(-len(blob) % 4)     # re-aligned
    assert entries[1].offset % 4 == 0 and entries[2].offset == offset + len(out)
    assert out[entries[1].offset - offset:entries[2].offset - offset] == blob_d
    assert GameLump.parse(out, offset).payload("dprp") == dprp


def test_a_lying_compressed_length_is_refused_on_access():
    blob = compress(b"abc")
    data = _lump([(b"sprp", 1, 10, 3000 + 20, 5)], blob)
    lump = GameLump.parse(data, 3000)
    with pytest.raises(BspError, match="'sprp' decompresses to 3 bytes, but its directory entry says 5"):
        lump.payload("sprp")


def test_relative_offsets_stay_relative(write_map, tmp_path):
    """Console maps address members relative to the lump: those offsets never change."""
    first, second = b"A" * 10, b"B" * 6
    data = _lump([(b"sprp", 0, 6, 36, len(first)), (b"dprp", 0, 4, 46, len(second))], first + second)
    path = write_map(synthetic.make_map("source", {1: synthetic.records(20, 2), 35: data}))
    with Bsp.open(path) as bsp:
        lump = GameLump.parse(bsp.read_lump(35), bsp.lumps[35].offset)
        assert not lump.absolute
        lump.replace_member("sprp", b"C" * 30)
        bsp.replace_lump(35, lump.to_bytes(bsp.lumps[35].offset))
        bsp.replace_lump(1, synthetic.records(20, 9))            # moves the game lump too
        bsp.save(tmp_path / "out.bsp", "compact")
    with Bsp.open(tmp_path / "out.bsp") as saved:
        stored = saved.read_lump(35)
        assert [e.offset for e in game_lump_directory(stored).entries] == [36, 66]
        assert _members_at(stored, saved.lumps[35].offset) == {"sprp": (6, b"C" * 30),
                                                               "dprp": (4, second)}


def test_gaps_between_untouched_members_are_kept():
    offset = 8000
    start = offset + 4 + 16 * 3
    a, b, c = b"a" * 5, b"b" * 7, b"c" * 3
    body = b"LEAD" + a + b"\x01\x02" + b + b"junk!" + c + b"tail"
    data = _lump([(b"aaaa", 0, 1, start + 4, 5), (b"bbbb", 0, 2, start + 11, 7),
                  (b"cccc", 0, 3, start + 23, 3)], body)
    lump = GameLump.parse(data, offset)
    assert lump.to_bytes(offset) == data
    assert (lump.lead, lump.member("aaaa").gap, lump.member("cccc").gap) == (b"LEAD", b"\x01\x02", b"tail")
    lump.replace_member("bbbb", b"B" * 2)
    out = lump.to_bytes(offset)
    assert _members_at(out, offset) == {"aaaa": (1, a), "bbbb": (2, b"BB"), "cccc": (3, c)}
    assert out.endswith(b"LEAD" + a + b"\x01\x02" + b"BB" + c + b"tail")   # no alignment here


def test_members_are_found_by_data_order_not_directory_order():
    offset = 4000
    start = offset + 4 + 32
    data = _lump([(b"late", 0, 1, start + 3, 4), (b"erly", 0, 1, start, 3)], b"123" + b"4567")
    lump = GameLump.parse(data, offset)
    assert [m.name for m in lump.placed] == ["erly", "late"]
    lump.replace_member("erly", b"xy")
    assert _members_at(lump.to_bytes(offset), offset) == {"erly": (1, b"xy"), "late": (1, b"4567")}


def test_an_entry_pointing_nowhere_is_placed_before_the_terminators():
    offset = 5000
    start = offset + 4 + 48
    data = _lump([(b"sprp", 0, 10, start, 4), (b"dplh", 0, 0, 0, 0), (b"\0\0\0\0", 0, 0, start + 4, 0)],
                 b"SSSS")
    lump = GameLump.parse(data, offset)
    assert lump.payload("dplh") == b"" and lump.to_bytes(offset) == data
    lump.replace_member("dplh", b"HH")
    out = lump.to_bytes(offset)
    entries = game_lump_directory(out).entries
    assert [e.offset - offset for e in entries] == [52, 56, 58] and out[56:58] == b"HH"
    # a lump whose entries all point nowhere gets absolute offsets, as PC maps have
    bare = GameLump.parse(_lump([(b"dplh", 0, 0, 0, 0)], b""), offset)
    bare.replace_member("dplh", b"HH")
    assert game_lump_directory(bare.to_bytes(offset)).entries[0].offset == offset + 20


@pytest.mark.parametrize("entries, body, message", [
    ([(b"sprp", 0, 10, 100, 4)], b"xxxx", "member 'sprp' offset 100 lies outside the game lump's data"),
    ([(b"sprp", 0, 10, 9020, 8)], b"xxxx", "member 'sprp' at offset 9020 of 8 bytes runs past the end"),
    ([(b"sprp", 0, 10, 9036, 6), (b"dprp", 0, 4, 9040, 4)], b"x" * 8,
     "member 'sprp' at offset 9036 of 6 bytes overlaps the next member (at offset 9040)"),
    ([(b"sprp", 0, 10, 9020, -1)], b"", "member 'sprp' at offset 9020 declares -1 bytes"),
])
def test_bad_member_offsets_name_the_member(entries, body, message):
    with pytest.raises(BspError, match=message.replace("(", r"\(").replace(")", r"\)")):
        GameLump.parse(_lump(entries, body), 9000)


def test_unknown_or_ambiguous_ids_and_bad_versions_are_errors():
    data = _lump([(b"sprp", 0, 10, 36, 2), (b"sprp", 0, 10, 38, 2)], b"abcd")
    lump = GameLump.parse(data, 7000)
    with pytest.raises(BspError, match="2 entries for game lump member 'sprp'"):
        lump.payload("sprp")
    with pytest.raises(BspError, match="no game lump member 'dprp' \\(members: 'sprp', 'sprp'\\)"):
        lump.member("dprp")
    with pytest.raises(BspError, match="4 ASCII characters"):
        lump.member("toolong")
    single = GameLump.parse(_lump([(b"sprp", 0, 10, 20, 2)], b"ab"), 7000)
    with pytest.raises(BspError, match="does not fit in 16 bits"):
        single.replace_member("sprp", b"x", version=70000)


@pytest.mark.parametrize("in_place", [False, True])
def test_cli_replace_on_a_synthetic_map_points_offsets_at_the_new_bytes(write_map, tmp_path, in_place):
    path = write_map(synthetic.sample("source"))
    # static props with one model name and no leaves or props (verify parses them)
    new = (1).to_bytes(4, "little") + b"models/x.mdl".ljust(128, b"\0") + bytes(8)
    (tmp_path / "new.bin").write_bytes(new)
    target = ["--in-place"] if in_place else ["-o", tmp_path / "out.bsp"]
    result = run_cli("gamelump", "replace", path, "sprp", tmp_path / "new.bin", *target)
    assert result.returncode == 0, result.stderr
    assert "changed: lump 35 (GAME_LUMP)" in result.stdout
    saved_path = path if in_place else tmp_path / "out.bsp"
    with Bsp.open(saved_path, check=False) as saved:
        assert problems(saved) == []
        members = _members_at(saved.read_lump(35), saved.lumps[35].offset)
        assert members == {"sprp": (10, new), "dprp": (4, b"\0" * 4)}
        original = synthetic.sample("source")
        with Bsp.open(write_map(original, "orig.bsp")) as before:
            for lump in before.lumps:
                if lump.index != 35:
                    assert saved.read_lump(lump.index) == before.read_lump(lump.index)


def test_cli_lists_members_and_refuses_other_families(write_map, tmp_path):
    path = write_map(synthetic.sample("source"))
    result = run_cli("gamelump", "list", path)
    assert result.returncode == 0
    assert [line.split()[0] for line in result.stdout.splitlines()[1:]] == ["sprp", "dprp"]
    q2 = write_map(synthetic.sample("q2"), "q2.bsp")
    for args in (("gamelump", "list", q2), ("props", "list", q2)):
        result = run_cli(*args)
        assert result.returncode == 2
        assert result.stderr == f"bspedit: {q2}: Quake 2 (IBSP 38) maps have no game lump\n"
    missing = run_cli("gamelump", "extract", path, "dplh", "-o", tmp_path / "x.bin")
    assert missing.returncode == 2 and "no game lump member 'dplh'" in missing.stderr
    assert len(missing.stderr.splitlines()) == 1 and not (tmp_path / "x.bin").exists()


_MEMBER = st.tuples(st.sampled_from([b"sprp", b"dprp", b"dplt", b"dplh", b"abcd"]),
                    st.integers(0, 65535), st.binary(max_size=40), st.binary(max_size=5))


@settings(max_examples=150, deadline=None)
@given(members=st.lists(_MEMBER, max_size=5, unique_by=lambda m: m[0]), lead=st.binary(max_size=6),
       offset=st.integers(1036, 1 << 20).map(lambda n: n * 4), shift=st.integers(-1000, 1000),
       new=st.binary(max_size=50), pick=st.integers(0, 4))
def test_any_uncompressed_lump_round_trips_and_edits_keep_the_others(members, lead, offset, shift,
                                                                     new, pick):
    start = offset + 4 + 16 * len(members) + len(lead)
    entries, body = [], lead
    for ident, version, data, gap in members:
        entries.append((ident, 0, version, start + len(body) - len(lead), len(data)))
        body += data + gap
    data = _lump(entries, body)
    lump = GameLump.parse(data, offset)
    assert lump.to_bytes(offset) == data
    assert lump.to_bytes(offset + shift * 4) == relocate_game_lump(data, offset, offset + shift * 4)
    if members:
        ident, version = members[pick % len(members)][:2]
        lump.replace_member(ident.decode(), new)
        out = lump.to_bytes(offset)
        expected = {m[0].decode(): (m[1], m[2]) for m in members} | {ident.decode(): (version, new)}
        assert _members_at(out, offset) == expected
