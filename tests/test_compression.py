"""`compress` / `decompress`: whole Source maps in and out of Valve's LZMA form, byte for byte."""
from __future__ import annotations

import json
import struct

import pytest

import synthetic
from bspedit.bsp import Bsp
from bspedit.features.checks import problems
from bspedit.features.compression import compress_map, decompress_map, write_repacked
from bspedit.errors import BspError
from bspedit.format.gamelumpdir import game_lump_directory, relocate_game_lump
from bspedit.format.lzma_lump import decompress, lzma_header
from conftest import CONSOLE_MAP, CORPUS, corpus_maps, run_cli

LZMA_MAP = CORPUS / "source" / "tf2classified_cp_stronghold_lzma.bsp"
GAME_LUMP, PAKFILE = 35, 40
EMPTY_PAK = b"PK\x05\x06" + bytes(16) + b"\x20\x00" + b"XZP1 0".ljust(32, b"\0")
TERMINATOR = bytes(4)


def decoded(bsp: Bsp, index: int) -> bytes:
    data = bsp.read_lump(index)
    return decompress(data) if lzma_header(data) else data


def members(bsp: Bsp) -> list[tuple]:
    """The game lump's entries with decoded data: (id, flags but bit 0, version, length, data,
    has an offset)."""
    lump = bsp.lumps[GAME_LUMP]
    data = bsp.read_lump(GAME_LUMP)
    out = []
    for entry in game_lump_directory(data).entries:
        blob = data[entry.offset - lump.offset:] if entry.length else b""
        if blob and entry.flags & 1:
            blob = decompress(blob[:17 + lzma_header(blob).lzma_size])
        out.append((entry.id, entry.flags & ~1, entry.version, entry.length, blob[:entry.length],
                    entry.offset != 0))
    return out


def game_lump_at(bsp: Bsp, offset: int) -> bytes:
    """The game lump's bytes as they would read at `offset` (absolute member offsets moved)."""
    lump = bsp.lumps[GAME_LUMP]
    return relocate_game_lump(bsp.read_lump(GAME_LUMP), lump.offset, offset)


def assert_same_decoded_lumps(original: Bsp, other: Bsp) -> None:
    for old, new in zip(original.lumps, other.lumps):
        assert new.version == old.version, old.name
        if old.index == GAME_LUMP and old.length:
            assert game_lump_at(other, old.offset) == original.read_lump(GAME_LUMP)
        else:
            assert decoded(other, old.index) == decoded(original, old.index), old.name


def assert_valve_layout(bsp: Bsp) -> None:
    """Lumps 4-aligned after the header in file order, the pakfile 2048-aligned, zero padding,
    empty lumps at offset 0 with fourCC 0, every lump but the game lump and pakfile compressed
    with its uncompressed size as fourCC, every game lump member compressed."""
    position = bsp.header.size
    for index in bsp.layout.order:
        lump = bsp.lumps[index]
        alignment = 2048 if index == PAKFILE else 4
        assert lump.offset == -(-position // alignment) * alignment, lump.name
        assert bsp.read_range(position, lump.offset) == bytes(lump.offset - position)
        position = lump.end
        header = lzma_header(bsp.read_lump(index))
        if index in (GAME_LUMP, PAKFILE):
            assert header is None and lump.fourcc == 0
        else:
            assert header is not None and lump.fourcc == header.actual_size, lump.name
            assert lump.length == 17 + header.lzma_size
    assert all(l.offset == 0 and l.fourcc == 0 for l in bsp.lumps if not l.length)
    entries = game_lump_directory(bsp.read_lump(GAME_LUMP)).entries
    assert all(e.flags & 1 for e in entries if e.length)
    assert any(e.id == TERMINATOR and e.offset == bsp.lumps[GAME_LUMP].end for e in entries)


# -- the corpus -------------------------------------------------------------------------------
@pytest.mark.skipif(not LZMA_MAP.exists(), reason="../shared/corpus not present")
def test_decompressing_then_compressing_the_lzma_map_gives_it_back_byte_for_byte(tmp_path):
    plain, packed = tmp_path / "plain.bsp", tmp_path / "packed.bsp"
    result = run_cli("decompress", LZMA_MAP, "-o", plain)
    assert result.returncode == 0, result.stderr
    assert "decompressed 42 lumps and 2 game lump members" in result.stdout
    assert run_cli("verify", plain).returncode == 0
    with Bsp.open(LZMA_MAP) as original, Bsp.open(plain) as bsp:
        assert not any(lzma_header(bsp.read_lump(l.index)) or l.fourcc for l in bsp.lumps)
        for lump in original.lumps:
            if lump.index != GAME_LUMP:
                assert bsp.read_lump(lump.index) == decoded(original, lump.index), lump.name
            assert bsp.lumps[lump.index].version == lump.version
        assert members(bsp) == members(original)       # both terminators kept
        assert [e.flags for e in game_lump_directory(bsp.read_lump(GAME_LUMP)).entries] == [0] * 4
    result = run_cli("compress", plain, "-o", packed, "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)["result"]
    assert (report["size_before"], report["save"]["size"]) == (plain.stat().st_size, 228455)
    assert sum(not c["game_lump_member"] for c in report["converted"]) == 42
    assert report["save"]["layout"] == "repacked" and report["save"]["written"]
    assert packed.read_bytes() == LZMA_MAP.read_bytes()


PADDED_MAP = CORPUS / "source" / "tf2classified_cp_stronghold_uncompressed_trailing.bsp"


@pytest.mark.skipif(not LZMA_MAP.exists(), reason="../shared/corpus not present")
def test_diff_says_same_content_when_only_compression_or_layout_differ(tmp_path):
    plain, compact, edited = (tmp_path / f"{n}.bsp" for n in ("plain", "compact", "edited"))
    assert run_cli("decompress", LZMA_MAP, "-o", plain).returncode == 0
    result = run_cli("diff", LZMA_MAP, plain)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[-1] == "same content, different compression"
    assert "lump 0 (ENTITIES): 1620 -> 7178 bytes, same content (LZMA -> raw)" in lines
    report = json.loads(run_cli("diff", LZMA_MAP, plain, "--json").stdout)["result"]
    assert (report["identical"], report["same_content"]) == (False, True)
    assert len(report["lumps"]) == 43 and {l["content"] for l in report["lumps"]} == {"same"}
    assert [l["name"] for l in report["lumps"] if not l["compression"]] == []
    assert [l["name"] for l in report["moved"]] == ["PAKFILE"]
    assert run_cli("rewrite", plain, "-o", compact, "--layout", "compact").returncode == 0
    assert run_cli("diff", plain, compact).stdout.splitlines()[-1] == \
        "same content, different layout"
    assert run_cli("ent", "set", plain, "--where", "classname=worldspawn", "message=x", "-o",
                   edited).returncode == 0
    different = json.loads(run_cli("diff", LZMA_MAP, edited, "--json").stdout)["result"]
    assert different["verdict"] == "different" and not different["same_content"]
    assert [l["name"] for l in different["lumps"] if l["content"] == "different"] == ["ENTITIES"]
    assert different["entities"]["changed"][0]["keys"][0]["after"] == ["x"]


@pytest.mark.skipif(not PADDED_MAP.exists(), reason="../shared/corpus not present")
def test_a_file_end_zero_padded_to_1_kib_survives_compress_and_decompress(tmp_path):
    """The real uncompressed map ending with 741 zeros (its size a multiple of 1 KiB): compress
    keeps those zeros after the LZMA map's last lump (RepackBSP writes none, so they are kept
    as trailing bytes are), and decompress then gives the original bytes back."""
    from bspedit.cli.container import describe
    from bspedit.features.compression import end_padded

    original = PADDED_MAP.read_bytes()
    assert len(original) % 1024 == 0 and original.endswith(bytes(741))
    with Bsp.open(PADDED_MAP) as bsp:
        assert end_padded(bsp) and describe(bsp)["end_padded_1k"]
        tail = bsp.layout.tail.length                  # after the last lump's 4-byte alignment
    packed, plain, again = (tmp_path / f"{name}.bsp" for name in ("packed", "plain", "again"))
    converted(PADDED_MAP, packed, compress_map)
    with Bsp.open(packed) as bsp:
        end = bsp.lumps[bsp.layout.order[-1]].end
    assert packed.read_bytes()[end:] == bytes(-end % 4 + tail)
    converted(packed, plain, decompress_map)
    assert plain.read_bytes() == original
    converted(plain, again, compress_map)
    assert again.read_bytes() == packed.read_bytes()
    with Bsp.open(LZMA_MAP) as bsp:                    # its end is not padded
        assert not end_padded(bsp) and not describe(bsp)["end_padded_1k"]


@pytest.mark.skipif(not LZMA_MAP.exists(), reason="../shared/corpus not present")
@pytest.mark.parametrize("extra_kib", [0, pytest.param(1, marks=pytest.mark.full),
                                       pytest.param(2, marks=pytest.mark.full)])
def test_an_lzma_map_padded_past_the_next_kib_decompresses_and_compresses_back(tmp_path,
                                                                             extra_kib):
    """Issue 30: a Valve-repacked TF2 map ends with 1,624 zeros (to the next KiB and one KiB
    more); decompress then compress gave it back 1,024 bytes shorter. The corpus LZMA map
    padded the same way (and to the next KiB only, and two KiB more) comes back byte for byte,
    and so does its decompressed form through compress then decompress."""
    data = LZMA_MAP.read_bytes()
    size = -(-len(data) // 1024) * 1024 + 1024 * extra_kib
    padded, plain, packed, again = (tmp_path / f"{n}.bsp"
                                    for n in ("padded", "plain", "packed", "again"))
    padded.write_bytes(data + bytes(size - len(data)))
    assert "file end zero-padded to 1 KiB" in run_cli("info", padded).stdout
    result = run_cli("decompress", padded, "-o", plain)
    assert result.returncode == 0, result.stderr
    plain_bytes = plain.read_bytes()
    with Bsp.open(plain) as bsp:                       # the zeros follow the new last lump
        end = bsp.lumps[bsp.layout.order[-1]].end
        assert bsp.layout.tail.length == size - (len(data) + -len(data) % 4)
    assert plain_bytes[end:] == bytes(len(plain_bytes) - end)
    result = run_cli("compress", plain, "-o", packed)
    assert result.returncode == 0, result.stderr
    assert packed.read_bytes() == padded.read_bytes()
    assert run_cli("decompress", packed, "-o", again).returncode == 0
    assert again.read_bytes() == plain_bytes
    # compressing the compressed map changes nothing, its end included
    assert run_cli("compress", padded, "-o", tmp_path / "same.bsp").returncode == 0
    assert (tmp_path / "same.bsp").read_bytes() == padded.read_bytes()


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_each_corpus_map_compresses_verifies_and_decompresses_to_its_lumps(path, tmp_path):
    packed, plain = tmp_path / "packed.bsp", tmp_path / "plain.bsp"
    result = run_cli("compress", path, "-o", packed)
    assert result.returncode == 0, result.stderr
    if path == LZMA_MAP:            # already compressed: compressing changes nothing
        assert "nothing to compress" in result.stdout
        assert packed.read_bytes() == path.read_bytes()
        return
    assert packed.stat().st_size < path.stat().st_size
    with Bsp.open(packed, check=False) as bsp:
        assert problems(bsp) == []                              # what `verify` checks
        assert_valve_layout(bsp)
    converted(packed, plain, decompress_map)
    with Bsp.open(path) as original, Bsp.open(plain, check=False) as bsp:
        assert problems(bsp) == []
        assert_same_decoded_lumps(original, bsp)
        assert all(not lzma_header(bsp.read_lump(l.index)) for l in bsp.lumps)


# -- synthetic maps ---------------------------------------------------------------------------
def source_map(game_lump=None, trailing: bytes = b"") -> bytes:
    """A vbsp-style map: lumps out of index order, dirty padding, empty lumps at non-zero
    offsets, a versioned empty lump, a game lump with two members and an empty one."""
    game_lump = game_lump or synthetic.game_lump([
        (b"sprp", 0, 10, synthetic.STATIC_PROPS), (b"dprp", 0, 4, synthetic.records(1, 13, 2)),
        (b"dplt", 0, 0, b"")])
    lumps = {0: synthetic.ENTITIES, 1: synthetic.records(20, 30), 3: synthetic.records(12, 50),
             7: synthetic.records(56, 5, 3), GAME_LUMP: game_lump, PAKFILE: EMPTY_PAK}
    return synthetic.make_map("source", lumps, order=[1, 3, 7, 0, GAME_LUMP, PAKFILE],
                              pad=b"\xbc\xbc\xb2", versions={7: 1, 8: 1}, trailing=trailing)


def converted(path, target, convert) -> None:
    with Bsp.open(path) as bsp:
        assert convert(bsp)
        write_repacked(bsp, target)


def test_synthetic_map_compresses_as_valve_does_and_decompresses_back(write_map, tmp_path):
    path = write_map(source_map())
    converted(path, tmp_path / "packed.bsp", compress_map)
    with Bsp.open(tmp_path / "packed.bsp") as bsp:
        assert problems(bsp) == []
        assert_valve_layout(bsp)
        assert bsp.lumps[8].version == 1                       # empty, offset 0, version kept
        lump = bsp.lumps[GAME_LUMP]
        entries = game_lump_directory(bsp.read_lump(GAME_LUMP)).entries
        assert [(e.id, e.flags, e.version, e.length) for e in entries] == [
            (b"prps", 1, 10, len(synthetic.STATIC_PROPS)), (b"prpd", 1, 4, 13), (b"tlpd", 0, 0, 0),
            (TERMINATOR, 0, 0, 0)]
        sprp, dprp = (bsp.read_range(e.offset, e.offset + 17 + lzma_header(
            bsp.read_range(e.offset, e.offset + 17)).lzma_size) for e in entries[:2])
        assert entries[0].offset == lump.offset + 4 + 16 * 4   # members follow the directory
        assert entries[1].offset == -(-(entries[0].offset + len(sprp)) // 4) * 4
        assert entries[2].offset == entries[3].offset == entries[1].offset + len(dprp) == lump.end
        assert (decompress(sprp), decompress(dprp)) == (synthetic.STATIC_PROPS,
                                                        synthetic.records(1, 13, 2))
    converted(tmp_path / "packed.bsp", tmp_path / "plain.bsp", decompress_map)
    with Bsp.open(path) as original, Bsp.open(tmp_path / "plain.bsp") as plain:
        assert problems(plain) == []
        assert_same_decoded_lumps(original, plain)
        assert [l.fourcc for l in plain.lumps] == [0] * 64
    # and compressing the decompressed map again gives the same compressed file
    converted(tmp_path / "plain.bsp", tmp_path / "again.bsp", compress_map)
    assert (tmp_path / "again.bsp").read_bytes() == (tmp_path / "packed.bsp").read_bytes()


def test_compressed_and_uncompressed_maps_are_left_as_they_are(write_map, tmp_path):
    path = write_map(source_map())
    with Bsp.open(path) as bsp:
        assert decompress_map(bsp) == [] and not bsp.dirty
    converted(path, tmp_path / "packed.bsp", compress_map)
    with Bsp.open(tmp_path / "packed.bsp") as bsp:
        assert compress_map(bsp) == [] and not bsp.dirty
    result = run_cli("compress", tmp_path / "packed.bsp", "-o", tmp_path / "same.bsp")
    assert result.returncode == 0 and "nothing to compress" in result.stdout
    assert (tmp_path / "same.bsp").read_bytes() == (tmp_path / "packed.bsp").read_bytes()


def double_terminated(offset: int) -> bytes:
    """A game lump as bspzip leaves it after two repacks: members, then an id-0 entry at the end
    and one at offset 0 (Valve's repack appends a zero entry and never fills in its offset)."""
    sprp, dprp = synthetic.records(1, 30), synthetic.records(1, 13, 2)
    first = offset + 4 + 16 * 4
    entries = [(b"prps", 10, first, 30), (b"prpd", 4, first + 30, 13),
               (TERMINATOR, 0, first + 43, 0), (TERMINATOR, 0, 0, 0)]
    return struct.pack("<i", 4) + b"".join(i + struct.pack("<HHii", 0, v, o, n)
                                           for i, v, o, n in entries) + sprp + dprp


def test_two_terminators_one_at_offset_zero_survive_both_ways(write_map, tmp_path):
    path = write_map(source_map(double_terminated))
    converted(path, tmp_path / "packed.bsp", compress_map)
    with Bsp.open(tmp_path / "packed.bsp") as bsp:
        entries = game_lump_directory(bsp.read_lump(GAME_LUMP)).entries
        assert [(e.id, e.flags, e.offset == bsp.lumps[GAME_LUMP].end) for e in entries] == [
            (b"prps", 1, False), (b"prpd", 1, False), (TERMINATOR, 0, True), (TERMINATOR, 0, False)]
        assert entries[3].offset == 0                          # nothing appended, zero kept
    converted(tmp_path / "packed.bsp", tmp_path / "plain.bsp", decompress_map)
    with Bsp.open(path) as original, Bsp.open(tmp_path / "plain.bsp") as plain:
        assert_same_decoded_lumps(original, plain)             # terminators kept as they were
    converted(tmp_path / "plain.bsp", tmp_path / "again.bsp", compress_map)
    assert (tmp_path / "again.bsp").read_bytes() == (tmp_path / "packed.bsp").read_bytes()


def test_trailing_bytes_are_kept_zeros_too(write_map, tmp_path):
    """RepackBSP writes nothing after the last lump, so what follows it (data, or zeros of any
    length) is kept as it is, after the new last lump's 4-byte alignment, both ways."""
    for trailing in (b"extra data\0\0", bytes(700), bytes(1024)):
        path = write_map(source_map(trailing=trailing))
        packed, plain, again = (tmp_path / f"{n}.bsp" for n in ("packed", "plain", "again"))
        converted(path, packed, compress_map)
        converted(packed, plain, decompress_map)
        for written in (packed, plain):
            with Bsp.open(written) as bsp:
                end = bsp.lumps[PAKFILE].end
            assert written.read_bytes()[end:] == bytes(-end % 4) + trailing
        converted(plain, again, compress_map)
        assert again.read_bytes() == packed.read_bytes()


def test_cli_in_place_and_json(write_map):
    path = write_map(source_map())
    original = path.read_bytes()
    result = run_cli("compress", path, "--in-place", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)["result"]
    assert report["save"]["target"] == str(path) and report["save"]["size"] == path.stat().st_size
    assert report["size_before"] == len(original) and json.loads(result.stdout)["verb"] == "compress"
    assert [c["name"] for c in report["converted"]] == [
        "lump 0 (ENTITIES)", "lump 1 (PLANES)", "lump 3 (VERTEXES)", "lump 7 (FACES)",
        "game lump sprp", "game lump dprp"]
    assert report["save"]["checksums"]["crc32"]["before"] != report["save"]["checksums"]["crc32"]["after"]
    result = run_cli("decompress", path, "--in-place")
    assert result.returncode == 0, result.stderr
    assert "decompressed 4 lumps and 2 game lump members" in result.stdout
    assert "map checksum crc32" in result.stdout
    with Bsp.open(path) as bsp:
        assert [decoded(bsp, i) for i in (0, 1, 3, 7)] == [synthetic.ENTITIES,
                                                           synthetic.records(20, 30),
                                                           synthetic.records(12, 50),
                                                           synthetic.records(56, 5, 3)]


def test_other_families_and_broken_input_are_one_line_errors(write_map, tmp_path):
    quake = write_map(synthetic.sample("q1"), "q1.bsp")
    result = run_cli("compress", quake, "-o", tmp_path / "out.bsp")
    assert result.returncode == 2 and not (tmp_path / "out.bsp").exists()
    assert result.stderr == (f"bspedit: {quake}: compress: only Source maps have LZMA lumps, "
                             "this is a Quake 1 (BSP 29) map\n")
    props = bytes([93]) + struct.pack("<I", 1 << 24)
    liar = b"LZMA" + struct.pack("<II", 5000, 20) + props + bytes(20)
    broken = write_map(synthetic.make_map("source", {1: liar, PAKFILE: EMPTY_PAK},
                                          fourccs={1: 5000}), "broken.bsp")
    result = run_cli("decompress", broken, "-o", tmp_path / "out.bsp")
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert f"bspedit: {broken}: lump 1 (PLANES): file offset 1053: " in result.stderr
    flagged = synthetic.game_lump([(b"sprp", 1, 10, b"not lzma data")])
    with Bsp.open(write_map(source_map(flagged), "flagged.bsp")) as bsp:
        member = game_lump_directory(bsp.read_lump(GAME_LUMP)).entries[0].offset
        with pytest.raises(BspError, match=rf"lump 35 \(GAME_LUMP\): file offset {member}: game lump "
                                           "member 'sprp': not an LZMA lump"):
            decompress_map(bsp)


@pytest.mark.skipif(not CONSOLE_MAP.exists(), reason="../shared/corpus-console not present")
def test_console_map_decompressed_then_compressed_is_stored_as_the_console_stores_it(tmp_path):
    """The console rule: the 256 KiB dictionary, and lumps or members LZMA does not shrink stay
    raw; so the real Xbox 360 map decompressed and compressed again stores the same lumps raw
    and compressed, with the same property bytes, and every lump's content is the same."""
    from bspedit.format.lzma_lump import lzma_header, properties_of

    flat, packed = tmp_path / "flat.bsp", tmp_path / "packed.bsp"
    with Bsp.open(CONSOLE_MAP) as bsp:
        decompress_map(bsp)
        write_repacked(bsp, flat)
    with Bsp.open(flat) as bsp:
        assert not any(lzma_header(bsp.read_lump(l.index)) for l in bsp.lumps if l.length)
        compress_map(bsp)
        write_repacked(bsp, packed)
    with Bsp.open(CONSOLE_MAP) as old, Bsp.open(packed) as new:
        assert new.header.big_endian and not problems(new)
        for a, b in zip(old.lumps, new.lumps):
            stored_a, stored_b = old.read_lump(a.index), new.read_lump(b.index)
            assert properties_of(stored_a) == properties_of(stored_b), a.name
            assert old.content(a.index) == new.content(b.index), a.name
        members = [(m.name, m.flags, m.version, m.offset, m.length)
                   for m in new.game_lump.members]
        assert members == [(m.name, m.flags, m.version, m.offset, m.length)
                           for m in old.game_lump.members]
        assert new.lumps[40].offset % 65536 == 0 and new.size % 2048 == 0
