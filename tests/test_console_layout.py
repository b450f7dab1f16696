"""Console (PSBV) maps keep their boundaries when lumps move: the pakfile on the boundary the
map shows (64 KiB on the real map, a 2 KiB DVD sector at least), the file end padded with zeros
to 2 KiB; and the pakfile stays the last lump (Valve's console conversion, LumpOffsetCompare):
lumps that move go before it. PC layouts are untouched."""
from __future__ import annotations

import contextlib
import hashlib
import shutil
import struct
from collections.abc import Callable
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


# the same, the pakfile-like lump 1 kept last (`Layout.last`): zeros before it are free
KEPT_LAST = LAYOUT.replace(last=1)
FREE = [(110, 2048), (2058, 4096)]


def test_stable_puts_a_moved_lump_into_the_zeros_before_the_lump_kept_last():
    """Its old slot and the zeros after it are one run: it starts where it was; lump 1 and
    the end stay."""
    result = plan(LUMPS, KEPT_LAST, {0: 20}, "stable", keep_tail=False, free=FREE)
    assert result.offsets == (100, 2048)
    assert result.pieces == (Piece("lump", 20, index=0), Piece("zeros", 2048 - 120),
                             Piece("copy", 4096 - 2048, src=2048))


def test_stable_moves_the_lump_kept_last_to_its_boundary_after_a_lump_that_does_not_fit():
    result = plan(LUMPS, KEPT_LAST, {0: 3000}, "stable", keep_tail=False, free=FREE)
    assert result.offsets == (100, 4096)
    assert result.pieces == (Piece("lump", 3000, index=0), Piece("zeros", 4096 - 3100),
                             Piece("lump", 10, index=1), Piece("zeros", 8192 - 4106))


def test_stable_leaves_a_lump_kept_last_off_its_boundary_where_it_is():
    """A big-endian map laid out as a PC one (its pakfile off a sector): a lump moved into
    the zeros before it leaves it where it is."""
    lumps = [Lump(0, "A", 100, 10), Lump(1, "B", 1000, 10)]
    layout = Layout(100, 1012, (0, 1), (Gap(110, 1000, "unreferenced"),
                                        Gap(1010, 1012, "padding")),
                    boundaries=((1, 2048),), last=1)
    result = plan(lumps, layout, {0: 20}, "stable", free=[(110, 1000), (1010, 1012)])
    assert result.offsets == (100, 1000) and result.end == 1012


def test_stable_keeps_non_zero_bytes_before_the_lump_kept_last():
    """Bytes no lump references that are not zeros are data: the lump goes after them and
    the lump kept last moves."""
    result = plan(LUMPS, KEPT_LAST, {0: 20}, "stable", keep_tail=False, free=[(2058, 4096)])
    assert result.offsets == (2048, 4096)
    assert result.pieces == (Piece("zeros", 10), Piece("copy", 2048 - 110, src=110),
                             Piece("lump", 20, index=0), Piece("zeros", 4096 - 2068),
                             Piece("lump", 10, index=1), Piece("zeros", 8192 - 4106))


def test_lumps_that_were_empty_go_before_the_lump_kept_last():
    lumps = LUMPS + [Lump(2, "C", 0, 0)]
    stable = plan(lumps, KEPT_LAST, {2: 100}, "stable", keep_tail=False, free=FREE)
    assert stable.offsets == (100, 2048, 112)
    compact = plan(lumps, KEPT_LAST, {2: 100}, "compact", keep_tail=False)
    assert compact.offsets == (100, 2048, 112)
    in_place = plan(lumps, KEPT_LAST, {2: 100}, "in-place", keep_tail=False, free=FREE)
    assert in_place.offsets == (100, 2048, 112) and len(in_place.commits) == 1
    grown = plan(lumps, KEPT_LAST, {2: 3000}, "compact", keep_tail=False)
    assert grown.offsets == (100, 4096, 112)


def test_a_lump_kept_last_that_was_empty_goes_after_the_other_new_lumps():
    """A console map whose pakfile was empty: it gets content, and so does a lump of a higher
    index; the pakfile goes last."""
    lumps = [Lump(0, "A", 100, 10), Lump(1, "B", 0, 0), Lump(2, "C", 0, 0)]
    layout = Layout(100, 112, (0,), (Gap(110, 112, "padding"),), boundaries=((1, 2048),),
                    end_boundary=2048, last=1)
    for policy in ("compact", "stable", "in-place"):
        result = plan(lumps, layout, {1: 10, 2: 20}, policy, keep_tail=False, free=[(110, 112)])
        assert result.offsets == (100, 2048, 112), policy


def test_in_place_fills_a_hole_before_the_lump_kept_last_not_the_zeros_after_it():
    """Lump 0 (1900 bytes) fits the 1938 zeros before lump 1 (its old slot is not free yet)."""
    result = plan(LUMPS, KEPT_LAST, {0: 1900}, "in-place", keep_tail=False, free=FREE)
    assert result.offsets == (112, 2048)
    assert len(result.commits) == 1 and result.commits[0].size == 4096
    # 1990 bytes fit only the 2038 zeros after lump 1: lump 1 moves instead (see below)
    assert plan(LUMPS, KEPT_LAST, {0: 1990}, "in-place", keep_tail=False,
                free=FREE).offsets == (112, 4096)


def test_in_place_moves_the_lump_kept_last_first_to_make_room_before_it():
    """Commit 1 writes lump 1 (unchanged) past the end, on its boundary, and frees its old
    bytes; commit 2 writes lump 0 into the room before it."""
    result = plan(LUMPS, KEPT_LAST, {0: 3000}, "in-place", keep_tail=False, free=FREE)
    first, final = result.commits
    assert (first.offsets, first.final, first.size) == ((100, 4096), False, 8192)
    assert first.writes == ((4096, (Piece("lump", 10, index=1),)),)
    assert first.cleanup == ((2048, 10),)
    assert (final.offsets, final.final) == ((112, 4096), True)
    assert final.writes == ((112, (Piece("lump", 3000, index=0),)),)
    assert final.cleanup == ((100, 10),)
    assert result.end == 8192


def test_in_place_writes_a_changed_lump_kept_last_after_the_others():
    """Both change, lump 0 finds no hole: one commit appends lump 0, then lump 1 after it."""
    result = plan(LUMPS, KEPT_LAST, {0: 3000, 1: 20}, "in-place", keep_tail=False, free=FREE)
    assert result.offsets == (4096, 8192)
    (final,) = result.commits
    assert [at for at, _ in final.writes] == [4096, 8192] and final.size == 12288


def test_in_place_rewrites_a_lump_kept_last_growing_at_the_end_when_the_others_need_room():
    """Lump 1 grows after its kept bytes at the end of the file while lump 0 finds no room
    before it: lump 1 is written whole after lump 0 (its kept bytes copied)."""
    result = plan(LUMPS, KEPT_LAST, {0: 3000, 1: 2100}, "in-place", keep_tail=False,
                  kept={1: 2048}, free=FREE)
    assert result.offsets == (4096, 8192)
    writes = dict(result.commits[-1].writes)
    assert writes[8192] == (Piece("copy", 2048, src=2048), Piece("lump", 52, src=2048, index=1))


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
            assert saved.layout.order[-1] == PAKFILE
    assert run_cli("verify", out).returncode == 0


def _saved(tmp_path: Path, in_place: bool, edit: Callable[[Bsp], object]) -> Path:
    """The real map after `edit(bsp)` and a stable save: to a new file or in place."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    path, out = tmp_path / "map.bsp", tmp_path / "out.bsp"
    shutil.copyfile(CONSOLE_MAP, path)
    with Bsp.open(path) as bsp:
        edit(bsp)
        bsp.save(None if in_place else out)
    return path if in_place else out


def _assert_only_moved(original: Bsp, saved: Bsp, moved: set[int]) -> None:
    """Every lump but `moved` keeps its bytes, version and offset; the pakfile is last."""
    for lump in original.lumps:
        if lump.index not in moved:
            assert saved.lumps[lump.index].offset == lump.offset, lump.name
            assert saved.read_lump(lump.index) == original.read_lump(lump.index), lump.name
            assert saved.lumps[lump.index].version == lump.version, lump.name
    assert saved.layout.order[-1] == PAKFILE
    assert saved.layout.order[0] == original.layout.order[0] == 59      # MAP_FLAGS, first
    assert saved.read_lump(PAKFILE) == original.read_lump(PAKFILE)


@needs_console
@pytest.mark.parametrize("in_place", [False, True], ids=["stable", "in-place"])
def test_a_small_entity_edit_fills_the_zeros_before_the_pakfile(tmp_path, in_place):
    """17 more bytes of entities (stored: 470 -> 503) no longer fit their slot: they go into
    the 709 zeros between LIGHTING_HDR and the pakfile; nothing else moves, the size stays."""
    def edit(bsp: Bsp) -> None:
        bsp.entities().worldspawn.set("bspedit_x", "ab")    # "bspedit_x" "ab"\n: 17 bytes

    saved_path = _saved(tmp_path, in_place, edit)
    with Bsp.open(CONSOLE_MAP) as original, Bsp.open(saved_path) as saved:
        assert len(saved.content(0)) == len(original.content(0)) + 17
        assert saved.lumps[0].length > original.lumps[0].length
        assert saved.lumps[0].offset == 195900 == original.lumps[53].end + 1
        assert saved.read_range(86348, 86348 + 470) == bytes(470)       # the old slot
        _assert_only_moved(original, saved, {0})
        assert saved.lumps[PAKFILE].offset == PAK_OFFSET and saved.size == SIZE
        assert saved.read_range(saved.lumps[0].end, PAK_OFFSET) == \
            bytes(PAK_OFFSET - saved.lumps[0].end)
    assert run_cli("verify", saved_path).returncode == 0


@needs_console
@pytest.mark.parametrize("in_place", [False, True], ids=["stable", "in-place"])
def test_a_large_entity_edit_moves_the_pakfile_after_it(tmp_path, in_place):
    """2000 more bytes do not fit before the pakfile: the entities go after LIGHTING_HDR and
    the pakfile (bytes unchanged) to the next 64 KiB boundary after them, the end on 2 KiB.
    Setting the entities back (stable) gives every lump its original bytes."""
    saved_path = _saved(tmp_path, in_place, lambda bsp: _grow_entities(bsp, 2000))
    back = tmp_path / "back.bsp"
    with Bsp.open(CONSOLE_MAP) as original, Bsp.open(saved_path) as saved:
        assert saved.lumps[0].offset == 195900
        assert saved.lumps[0].length > 709
        _assert_only_moved(original, saved, {0, PAKFILE})
        assert saved.lumps[PAKFILE].offset == 4 * 65536 > saved.lumps[0].end
        assert saved.read_range(saved.lumps[0].end, 4 * 65536) == \
            bytes(4 * 65536 - saved.lumps[0].end)
        _assert_console_end(saved)
        assert saved.size == 280576         # 262144 + 16438, padded to 2 KiB
        saved.replace_lump(0, original.read_lump(0))
        saved.save(back)
        with Bsp.open(back) as restored:
            for lump in original.lumps:
                assert restored.read_lump(lump.index) == original.read_lump(lump.index)
                assert restored.lumps[lump.index].version == lump.version
            assert restored.layout.order[-1] == PAKFILE
            assert restored.lumps[PAKFILE].offset % 65536 == 0
            _assert_console_end(restored)
    for path in (saved_path, back):
        assert run_cli("verify", path).returncode == 0


@needs_console
@pytest.mark.parametrize("in_place", [False, True], ids=["stable", "in-place"])
def test_a_lump_that_was_empty_goes_before_the_pakfile(tmp_path, in_place):
    cubemap = struct.pack(">4i", 16, -32, 64, 0)       # origin, default size
    saved_path = _saved(tmp_path, in_place, lambda bsp: bsp.replace_lump(42, cubemap))
    with Bsp.open(CONSOLE_MAP) as original, Bsp.open(saved_path) as saved:
        assert saved.read_lump(42) == cubemap and saved.lumps[42].offset == 195900
        _assert_only_moved(original, saved, {42})
        assert saved.lumps[PAKFILE].offset == PAK_OFFSET and saved.size == SIZE
    assert run_cli("verify", saved_path).returncode == 0


@needs_console
def test_in_place_and_stable_saves_of_a_large_edit_give_the_same_file(tmp_path):
    edit = lambda bsp: _grow_entities(bsp, 2000)     # noqa: E731
    stable = _saved(tmp_path / "stable", False, edit)
    in_place = _saved(tmp_path / "in-place", True, edit)
    assert stable.read_bytes() == in_place.read_bytes()


@needs_console
def test_a_crash_during_the_in_place_move_of_the_pakfile_leaves_a_valid_map(tmp_path):
    """Two commits (the pakfile moves first, then the entities take the room before it): a
    crash before any step leaves a map with every lump as before or as after the save, the
    pakfile last."""
    from test_faults import InjectedCrash, faults, header_steps

    def save(path: Path) -> None:
        with Bsp.open(path) as bsp:
            _grow_entities(bsp, 2000)
            bsp.save()

    def lumps_of(path: Path) -> list[bytes]:
        with Bsp.open(path) as bsp:
            assert bsp.layout.order[-1] == PAKFILE
            return [bsp.read_lump(l.index) for l in bsp.lumps]

    reference = tmp_path / "map.bsp"
    shutil.copyfile(CONSOLE_MAP, reference)
    with faults() as steps:
        save(reference)
    commits = header_steps(steps)
    assert len(commits) == 2
    before, after = lumps_of(CONSOLE_MAP), lumps_of(reference)
    seen = set()
    for step in range(1, len(steps) + 1):
        path = tmp_path / f"step{step}.bsp"
        shutil.copyfile(CONSOLE_MAP, path)
        # the reference run may have taken more steps than this one (a short copy_file_range
        # under load is called again): a run that ends before its crash step must be whole
        with contextlib.suppress(InjectedCrash), faults(step):
            save(path)
        lumps = lumps_of(path)
        assert lumps in (before, after), step
        with Bsp.open(path) as crashed:
            seen.add(crashed.lumps[PAKFILE].offset)
    assert seen == {PAK_OFFSET, 4 * 65536}      # crashes before and after the first commit


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
def test_a_pakfile_edit_in_place_returns_to_its_boundary(tmp_path):
    """An XZP2 edit rebuilds the preload section, so the pakfile is written anew: in place
    (crash-safe, into free space) past the end first, then back down to its boundary, the
    file cut: it grows by what was added, and removing the file gives the map back."""
    path = tmp_path / "map.bsp"
    shutil.copyfile(CONSOLE_MAP, path)
    with Bsp.open(path) as bsp:
        bsp.pakfile.add("materials/added.txt", _noise(4000))
        bsp.save()
        assert bsp.lumps[PAKFILE].offset == PAK_OFFSET
        assert bsp.size == PAK_OFFSET + -(-bsp.lumps[PAKFILE].length // 2048) * 2048
        _assert_console_end(bsp)
        assert bsp.pakfile.read("materials/added.txt") == _noise(4000)
        with Bsp.open(CONSOLE_MAP) as original:
            _assert_same_lumps(original, bsp, {PAKFILE: bsp.read_lump(PAKFILE)})
        assert run_cli("verify", path).returncode == 0
        bsp.pakfile.remove(bsp.pakfile.find("materials/added.txt"))
        bsp.save()
    assert path.read_bytes() == CONSOLE_MAP.read_bytes()


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
