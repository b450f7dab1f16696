"""Console (PSBV) maps keep their boundaries when lumps move: the pakfile on the boundary the
map shows (64 KiB on the real map, a 2 KiB DVD sector at least), the file end padded with zeros
to 2 KiB; PC layouts are untouched."""
from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from bspedit import Bsp
from bspedit.container.layout import Gap, Layout, console_boundaries
from bspedit.container.planner import Piece, plan
from bspedit.features.compression import decompress_map, write_repacked
from bspedit.format.families import SOURCE
from bspedit.format.header import Header, Lump
from bspedit.lumps.gamelump import read_game_lump
from conftest import CONSOLE_MAP, ROOT, run_cli

needs_console = pytest.mark.skipif(not CONSOLE_MAP.exists(),
                                   reason="../shared/corpus-console not present")
PAKFILE, GAME_LUMP = 40, 35
PAK_OFFSET, SIZE = 196608, 215040       # the real map's pakfile offset and file size


def _noise(length: int) -> bytes:
    """Text LZMA barely shrinks (hex digits of a hash chain), so a compressed lump grows."""
    out, block = b"", b"seed"
    while len(out) < length:
        block = hashlib.sha256(block).digest()
        out += block.hex().encode()
    return out[:length]


def _grow_entities(bsp: Bsp, extra: int) -> bytes:
    text = bytes(bsp.content(0)) + b'{\n"classname" "info_null"\n"targetname" "' + \
        _noise(extra) + b'"\n}\n'
    bsp.replace_entities(text)
    return text


def _members(bsp: Bsp) -> list[tuple[str, int, int, int, bytes]]:
    """The game lump's members by content (their offsets are lump-relative on console maps)."""
    return [(m.name, m.flags, m.version, m.length, m.stored) for m in read_game_lump(bsp).members]


def _assert_console_end(bsp: Bsp) -> None:
    """The file ends on a 2 KiB multiple, zeros after the last lump."""
    last = bsp.lumps[bsp.layout.order[-1]]
    assert bsp.size % 2048 == 0 and bsp.size - last.end < 2048 + 4
    assert bsp.read_range(last.end, bsp.size) == bytes(bsp.size - last.end)


def _assert_same_lumps(before: Bsp, after: Bsp, changed: dict[int, bytes]) -> None:
    for lump in before.lumps:
        if lump.index in changed:
            assert bytes(after.content(lump.index)) == changed[lump.index]
        elif lump.index != GAME_LUMP:
            assert after.read_lump(lump.index) == before.read_lump(lump.index), lump.name
            assert after.lumps[lump.index].version == lump.version
    assert _members(after) == _members(before)


# -- boundaries read from the map -----------------------------------------------------------------
@needs_console
def test_the_console_map_shows_a_64k_pakfile_and_a_2k_end():
    with Bsp.open(CONSOLE_MAP) as bsp:
        assert bsp.lumps[PAKFILE].offset == PAK_OFFSET and bsp.size == SIZE
        assert bsp.layout.boundaries == ((PAKFILE, 65536),)
        assert bsp.layout.end_boundary == 2048


@needs_console
def test_saves_padded_to_the_end_boundary_read_back_the_same(tmp_path):
    """A pakfile grown by 2048 bytes ends the file on a 4 KiB multiple: the end still reads as
    2 KiB, so shrinking it back gives the map back."""
    grown, back = tmp_path / "grown.bsp", tmp_path / "back.bsp"
    with Bsp.open(CONSOLE_MAP) as bsp:
        pak = bsp.read_lump(PAKFILE)
        bsp.replace_lump(PAKFILE, pak + bytes(2048))
        bsp.save(grown)
    with Bsp.open(grown) as bsp:
        assert bsp.size == SIZE + 2048 and bsp.size % 4096 == 0
        assert bsp.layout.end_boundary == 2048
        bsp.replace_lump(PAKFILE, pak)
        bsp.save(back)
    assert back.read_bytes() == CONSOLE_MAP.read_bytes()


def test_pc_maps_have_no_boundaries():
    with Bsp.open(ROOT / "tests" / "data" / "tiny.bsp") as bsp:
        assert not bsp.header.big_endian
        assert bsp.layout.boundaries == () and bsp.layout.end_boundary == 4


def _boundaries(lumps: list[tuple[int, int]], size: int) -> tuple:
    """`console_boundaries` of a big-endian Source map with lumps 0, 1, ... at (offset, length)."""
    placed = [Lump(i, SOURCE.lump_names[i], offset, length)
              for i, (offset, length) in enumerate(lumps)]
    header = Header(SOURCE, SOURCE.ident_big_endian, 20, placed + [
        Lump(i, SOURCE.lump_names[i], 0, 0) for i in range(len(lumps), SOURCE.lump_count)])
    assert header.big_endian
    return console_boundaries(header, placed, size)


def test_a_boundary_counts_when_the_gap_before_it_is_explained():
    start, pak = SOURCE.header_size, (SOURCE.index_of("PAKFILE"), 2048)     # 1036
    # lump 1 after a 2960-byte gap at 4096; lump 2 right after lump 1 (no gap) on a 4104;
    # lump 3 after a 2036-byte gap at 6144 = 3 * 2048; the file end on no sector: the default
    assert _boundaries([(start, 100), (4096, 8), (4104, 4), (6144, 4)], 6150) == \
        (((1, 4096), (3, 2048), pak), 2048)
    # a gap shorter than 64 KiB before 2 ** 17: 64 KiB (no more); an end after 2044 zeros
    assert _boundaries([(start, 100), (1136, 128000), (1 << 17, 4)], (1 << 17) + 4 + 2044) == \
        (((2, 65536), pak), 2048)
    # a gap longer than the boundary it leads to is not explained by it; the end keeps the
    # smallest boundary that explains the zeros after the last lump
    assert _boundaries([(start, 100), (6144, 4)], 8192) == ((pak,), 2048)
    assert _boundaries([(start, 100), (6144, 4)], 16384) == ((pak,), 16384)


# -- the planner, on layouts alone --------------------------------------------------------------
# header 100 bytes; lump 0 at 100 (10 bytes), the pakfile-like lump 1 at 2048 (10 bytes),
# zeros to 4096; lump 1 keeps a 2048 boundary, the end 4096
LUMPS = [Lump(0, "A", 100, 10), Lump(1, "B", 2048, 10)]
LAYOUT = Layout(100, 4096, (0, 1), (Gap(110, 2048, "unreferenced"), Gap(2058, 2060, "padding"),
                                    Gap(2060, 4096, "trailing")),
                boundaries=((1, 2048),), end_boundary=4096)


def test_unchanged_console_layout_is_copied_as_it_is():
    result = plan(LUMPS, LAYOUT, {}, "stable", keep_tail=False)
    assert result.pieces == (Piece("copy", 3996, src=100),)


def test_compact_puts_a_lump_on_its_boundary_and_pads_the_end():
    result = plan(LUMPS, LAYOUT, {0: 3000}, "compact", keep_tail=False)
    assert result.offsets == (100, 4096)
    assert result.pieces == (Piece("lump", 3000, index=0), Piece("zeros", 4096 - 3100),
                             Piece("lump", 10, index=1), Piece("zeros", 8192 - 4106))


def test_stable_append_after_the_last_lump_pads_the_end_anew():
    result = plan(LUMPS, LAYOUT, {0: 20}, "stable", keep_tail=False)
    assert result.offsets == (2060, 2048)
    assert result.pieces == (Piece("zeros", 10), Piece("copy", 1950, src=110),
                             Piece("lump", 20, index=0), Piece("zeros", 4096 - 2080))


def test_stable_growth_of_the_last_lump_keeps_its_offset():
    result = plan(LUMPS, LAYOUT, {1: 5000}, "stable", keep_tail=False, end_padding=bytes(2))
    assert result.offsets == (100, 2048)
    assert result.end == 8192
    assert result.pieces[-1] == Piece("zeros", 8192 - 7048)


def test_trailing_data_is_not_end_padding():
    """Non-zero trailing bytes (`keep_tail`) travel as data: no sector padding after them."""
    result = plan(LUMPS, LAYOUT, {0: 20}, "stable", keep_tail=True)
    assert result.pieces[-1] == Piece("tail", 2036, src=2060)


def test_in_place_takes_a_hole_on_the_lump_boundary():
    lumps = [Lump(0, "A", 100, 10), Lump(1, "B", 200, 10)]
    layout = Layout(100, 1000, (0, 1), (Gap(110, 200, "unreferenced"),
                                        Gap(210, 1000, "trailing")),
                    boundaries=((0, 512),), end_boundary=1024)
    result = plan(lumps, layout, {0: 300}, "in-place", keep_tail=False,
                  free=[(110, 200), (210, 1000)])
    assert result.offsets == (512, 200)
    assert result.end == 1000
    grown = plan(lumps, layout, {0: 900}, "in-place", keep_tail=False,
                 free=[(110, 200), (210, 1000)])
    assert grown.offsets == (1024, 200) and grown.commits[-1].size == 2048


# -- the real map -------------------------------------------------------------------------------
@needs_console
def test_rewrite_stable_and_compact_give_the_map_back(tmp_path):
    """Valve's console layout is compact already: lumps 4-byte aligned in their order, the
    pakfile on its boundary, the end padded to a sector."""
    for layout in ("stable", "compact"):
        out = tmp_path / f"{layout}.bsp"
        child = run_cli("rewrite", CONSOLE_MAP, "--layout", layout, "-o", out)
        assert child.returncode == 0, child.stderr
        assert out.read_bytes() == CONSOLE_MAP.read_bytes(), layout


@needs_console
def test_compact_with_moved_lumps_keeps_every_lump_and_the_boundaries(tmp_path):
    """Entities grown by more than the gap before the pakfile: the pakfile goes to the next
    64 KiB boundary, the end is padded to 2 KiB, every other lump keeps its content."""
    out = tmp_path / "compact.bsp"
    with Bsp.open(CONSOLE_MAP) as bsp:
        text = _grow_entities(bsp, 3000)
        grown = bsp.lumps[0].length
        bsp.save(out, layout="compact")
        with Bsp.open(out) as saved:
            assert saved.lumps[0].length > grown + 709
            assert saved.lumps[PAKFILE].offset == 4 * 65536
            assert saved.read_range(saved.lumps[53].end, 4 * 65536) == \
                bytes(4 * 65536 - saved.lumps[53].end)
            _assert_console_end(saved)
            _assert_same_lumps(bsp, saved, {0: text})
            assert [saved.lumps[i].offset for i in saved.layout.order] == \
                sorted(saved.lumps[i].offset for i in saved.layout.order)
            assert saved.layout.order == bsp.layout.order
    assert run_cli("verify", out).returncode == 0


@needs_console
@pytest.mark.parametrize("in_place", [False, True], ids=["stable", "in-place"])
def test_grown_entities_keep_the_pakfile_offset_and_the_end_aligned(tmp_path, in_place):
    path = tmp_path / "map.bsp"
    shutil.copyfile(CONSOLE_MAP, path)
    out = tmp_path / "out.bsp"
    with Bsp.open(CONSOLE_MAP) as original, Bsp.open(path) as bsp:
        text = _grow_entities(bsp, 3000)
        bsp.save(None if in_place else out)
        with Bsp.open(path if in_place else out) as saved:
            assert saved.lumps[0].offset != original.lumps[0].offset
            assert saved.lumps[PAKFILE].offset == PAK_OFFSET
            _assert_console_end(saved)
            _assert_same_lumps(original, saved, {0: text})
            others = [i for i in original.layout.order if i != 0]
            assert [saved.lumps[i].offset for i in others] == \
                [original.lumps[i].offset for i in others]


@needs_console
@pytest.mark.parametrize("layout", ["stable", "compact"])
def test_a_grown_pakfile_keeps_its_offset(tmp_path, layout):
    out = tmp_path / "out.bsp"
    with Bsp.open(CONSOLE_MAP) as bsp:
        pak = bsp.read_lump(PAKFILE) + bytes(5000)
        bsp.replace_lump(PAKFILE, pak)
        bsp.save(out, layout=layout)
        with Bsp.open(out) as saved:
            assert saved.lumps[PAKFILE].offset == PAK_OFFSET
            assert saved.size == 219136         # 196608 + 21438, padded to 2 KiB
            _assert_console_end(saved)
            _assert_same_lumps(bsp, saved, {PAKFILE: pak})


@needs_console
def test_a_pakfile_edit_in_place_lands_on_its_boundary(tmp_path):
    """An XZP2 edit rebuilds the preload section, so the pakfile is written anew: in place
    (crash-safe, into free space) on the next 64 KiB boundary past the end, the end padded."""
    path = tmp_path / "map.bsp"
    shutil.copyfile(CONSOLE_MAP, path)
    with Bsp.open(path) as bsp:
        bsp.pakfile.add("materials/added.txt", _noise(4000))
        bsp.save()
        assert bsp.lumps[PAKFILE].offset == 4 * 65536
        _assert_console_end(bsp)
        assert bsp.pakfile.read("materials/added.txt") == _noise(4000)
        with Bsp.open(CONSOLE_MAP) as original:
            _assert_same_lumps(original, bsp, {PAKFILE: bsp.read_lump(PAKFILE)})
    assert run_cli("verify", path).returncode == 0


@needs_console
def test_decompress_and_compress_keep_the_boundaries(tmp_path):
    out = tmp_path / "decompressed.bsp"
    with Bsp.open(CONSOLE_MAP) as bsp:
        decompress_map(bsp)
        write_repacked(bsp, out)
    with Bsp.open(out) as saved:
        assert saved.lumps[PAKFILE].offset % 65536 == 0
        _assert_console_end(saved)
        assert saved.read_lump(PAKFILE) == Path(CONSOLE_MAP).read_bytes()[PAK_OFFSET:PAK_OFFSET + 16438]
