"""Planner tests on layouts alone: no files."""
from __future__ import annotations

from bspedit.format.header import Lump
from bspedit.container.layout import Gap, Layout
from bspedit.container.planner import Piece, plan

# header 100 bytes; lumps 0 at 100 (10 bytes, 2 padding), 1 at 112 (8), 2 at 120 (5), tail 3 bytes
LUMPS = [Lump(0, "A", 100, 10), Lump(1, "B", 112, 8), Lump(2, "C", 120, 5), Lump(3, "D", 125, 0)]
LAYOUT = Layout(100, 128, (0, 1, 2), (Gap(110, 112, "padding"), Gap(125, 128, "padding")))


def test_unchanged_stable_is_one_copy_of_everything():
    result = plan(LUMPS, LAYOUT, {}, "stable")
    assert result.pieces == (Piece("copy", 28, src=100),)
    assert result.offsets == (100, 112, 120, 125)


def test_changed_lump_that_fits_goes_into_its_slot_with_zero_padding():
    result = plan(LUMPS, LAYOUT, {0: 12}, "stable")
    assert result.pieces == (Piece("lump", 12, index=0), Piece("copy", 16, src=112))
    assert result.offsets == LAYOUT_OFFSETS


LAYOUT_OFFSETS = (100, 112, 120, 125)


def test_same_size_change_keeps_the_padding_bytes():
    result = plan(LUMPS, LAYOUT, {0: 10}, "stable")
    assert result.pieces == (Piece("lump", 10, index=0), Piece("copy", 18, src=110))


def test_shorter_change_zero_fills_the_rest_of_the_slot():
    result = plan(LUMPS, LAYOUT, {1: 3}, "stable")
    assert result.pieces == (Piece("copy", 12, src=100), Piece("lump", 3, index=1),
                             Piece("zeros", 5), Piece("copy", 8, src=120))


def test_growing_lump_moves_to_the_end_and_its_slot_is_zeroed():
    result = plan(LUMPS, LAYOUT, {0: 20}, "stable")
    assert result.offsets[0] == 128
    assert result.offsets[1:] == (112, 120, 125)
    assert result.pieces == (Piece("zeros", 12), Piece("copy", 16, src=112),
                             Piece("lump", 20, index=0))


def test_a_last_lump_that_fits_a_zeroed_hole_exactly_goes_back_into_it():
    """The inverse of the test above: lump 0 (moved last, its 12-byte slot zeroed) shrinks
    back to 10 bytes and returns to its slot; the file ends where it ended before."""
    moved = [Lump(0, "A", 128, 20), Lump(1, "B", 112, 8), Lump(2, "C", 120, 5),
             Lump(3, "D", 125, 0)]
    layout = Layout(100, 148, (1, 2, 0), (Gap(100, 112, "unreferenced"),
                                          Gap(125, 128, "padding")))
    back = plan(moved, layout, {0: 10}, "stable", free=[(100, 112), (125, 128)])
    assert back.offsets == (100, 112, 120, 125)
    assert back.pieces == (Piece("lump", 10, index=0), Piece("zeros", 2),
                           Piece("copy", 16, src=112))
    assert back.end == 128
    # a hole it does not fill exactly (one byte more, or no hole at all) changes nothing
    assert plan(moved, layout, {0: 6}, "stable", free=[(100, 112)]).offsets[0] == 128
    assert plan(moved, layout, {0: 10}, "stable").offsets[0] == 128


def test_last_lump_grows_in_place():
    result = plan(LUMPS, LAYOUT, {2: 30}, "stable")
    assert result.offsets[2] == 120
    assert result.pieces == (Piece("copy", 20, src=100), Piece("lump", 30, index=2),
                             Piece("zeros", 2))
    assert result.end == 152


def test_emptied_lump_keeps_its_offset():
    result = plan(LUMPS, LAYOUT, {1: 0}, "stable")
    assert result.offsets[1] == 112
    assert result.pieces == (Piece("copy", 12, src=100), Piece("zeros", 8),
                             Piece("copy", 8, src=120))


def test_lump_that_was_empty_is_appended():
    result = plan(LUMPS, LAYOUT, {3: 4}, "stable")
    assert result.offsets[3] == 128
    assert result.pieces[-1] == Piece("lump", 4, index=3)


def test_trailing_data_follows_the_last_lump_when_the_file_grows():
    layout = Layout(100, 140, (0, 1, 2), (Gap(110, 112, "padding"), Gap(125, 128, "padding"),
                                          Gap(128, 140, "trailing")))
    unchanged = plan(LUMPS, layout, {1: 8}, "stable")
    assert unchanged.pieces[-1] == Piece("copy", 20, src=120)
    grown = plan(LUMPS, layout, {2: 9}, "stable")
    assert grown.pieces[-2:] == (Piece("zeros", 3), Piece("tail", 12, src=128))
    assert grown.end == 120 + 12 + 12
    shrunk = plan(LUMPS, layout, {2: 1}, "stable")
    assert shrunk.pieces[-3:] == (Piece("lump", 1, index=2), Piece("zeros", 3),
                                  Piece("tail", 12, src=128))


def test_compact_drops_holes_and_keeps_file_order():
    lumps = [Lump(0, "A", 160, 4), Lump(1, "B", 100, 6)]
    layout = Layout(100, 170, (1, 0), (Gap(106, 160, "unreferenced"), Gap(164, 170, "trailing")))
    result = plan(lumps, layout, {}, "compact", keep_tail=False)
    assert result.offsets == (108, 100)
    assert result.pieces == (Piece("copy", 6, src=100), Piece("zeros", 2),
                             Piece("lump", 4, index=0))


def test_compact_keeps_trailing_data_when_asked():
    lumps = [Lump(0, "A", 100, 4)]
    layout = Layout(100, 120, (0,), (Gap(104, 120, "trailing"),))
    assert plan(lumps, layout, {}, "compact", keep_tail=True).pieces == (Piece("copy", 20, src=100),)


def test_in_place_appends_after_the_end_and_cleans_up_after_commit():
    result = plan(LUMPS, LAYOUT, {0: 6}, "in-place")
    (commit,) = result.commits
    assert commit.writes == ((128, (Piece("lump", 6, index=0),)),)
    assert commit.cleanup == ((100, 10),) and commit.size == 136 and commit.final
    assert result.offsets == commit.offsets == (128, 112, 120, 125)
    assert result.start == 100 and result.end == 136       # pieces: the file as it reads after
    assert result.pieces == (Piece("zeros", 10), Piece("copy", 18, src=110),
                             Piece("lump", 6, index=0), Piece("zeros", 2))


def test_in_place_without_changes_writes_nothing():
    (commit,) = plan(LUMPS, LAYOUT, {}, "in-place").commits
    assert commit.writes == () and commit.cleanup == () and commit.size == 128


def test_in_place_edits_alternate_between_two_slots():
    """The first edit of a lump cannot overwrite its live slot and appends; the slot is free
    (zeroed) once that is committed, so the next edit of the same size goes back into it."""
    first = plan(LUMPS, LAYOUT, {0: 10}, "in-place")
    assert first.offsets[0] == 128 and first.commits[0].cleanup == ((100, 10),)
    moved = [Lump(0, "A", 128, 10), *LUMPS[1:]]
    layout = Layout(100, 138, (1, 2, 0), (Gap(100, 112, "unreferenced"),
                                          Gap(125, 128, "padding")))
    second = plan(moved, layout, {0: 9}, "in-place", free=[(100, 112), (125, 128)])
    (commit,) = second.commits
    assert commit.writes == ((100, (Piece("lump", 9, index=0),)),)
    assert second.offsets[0] == 100
    assert commit.cleanup == ((128, 10),) and commit.size == 128     # the free end cut off
    assert second.end == 128 and second.pieces[0] == Piece("lump", 9, index=0)


def test_in_place_takes_the_smallest_hole_that_fits_and_never_non_zero_bytes():
    lumps = [Lump(0, "A", 100, 4), Lump(1, "B", 200, 4), Lump(2, "C", 300, 8)]
    layout = Layout(100, 308, (0, 1, 2), (Gap(104, 200, "unreferenced"),
                                          Gap(204, 300, "unreferenced")))
    holes = [(104, 200), (220, 240)]       # 204..220 and 240..300 hold non-zero bytes
    result = plan(lumps, layout, {2: 12}, "in-place", free=holes)
    assert result.offsets[2] == 220 and result.commits[0].size == 308
    assert plan(lumps, layout, {2: 30}, "in-place", free=holes).offsets[2] == 104
    assert plan(lumps, layout, {2: 120}, "in-place", free=holes).offsets[2] == 308


def test_in_place_growth_of_a_big_lump_that_is_not_last_moves_the_small_lumps_first():
    """Two commits: the small lump after the big one moves into a hole (the big one's bytes
    stay live), then the big one grows after its kept bytes into the room that made."""
    lumps = [Lump(0, "SMALL", 100, 8), Lump(1, "BIG", 1000, 4000), Lump(2, "AFTER", 5000, 16)]
    layout = Layout(100, 5016, (0, 1, 2), (Gap(108, 1000, "unreferenced"),))
    result = plan(lumps, layout, {1: 4100}, "in-place", kept={1: 4000}, free=[(108, 1000)])
    move, grow = result.commits
    assert move.writes == ((108, (Piece("lump", 16, index=2),)),)     # moved: materialised
    assert move.offsets == (100, 1000, 108) and not move.final
    assert move.cleanup == ((5000, 16),) and move.size == 5000
    assert grow.writes == ((5000, (Piece("lump", 100, src=4000, index=1),)),)
    assert grow.offsets == (100, 1000, 108) and grow.final and grow.size == 5100
    assert result.pieces == (Piece("copy", 8, src=100), Piece("lump", 16, index=2),
                             Piece("copy", 4876, src=124), Piece("lump", 100, src=4000, index=1))
    # no hole: the small lump goes after the room the big one grows into
    move, grow = plan(lumps, layout, {1: 4100}, "in-place", kept={1: 4000}).commits
    assert move.offsets[2] == 5100 and grow.size == 5116
    # lumps after it that weigh more than it: the big one moves instead, in one commit
    heavy = [*lumps[:2], Lump(2, "AFTER", 5000, 6000)]
    layout = Layout(100, 11000, (0, 1, 2), (Gap(108, 1000, "unreferenced"),))
    (single,) = plan(heavy, layout, {1: 4100}, "in-place", kept={1: 4000}).commits
    assert single.offsets[1] == 11000 and single.cleanup == ((1000, 4000),)


def test_in_place_cut_to_a_prefix_stays_and_the_free_end_is_cut_off():
    lumps = [Lump(0, "A", 100, 10), Lump(1, "PAK", 112, 300)]
    layout = Layout(100, 412, (0, 1), (Gap(110, 112, "padding"),))
    result = plan(lumps, layout, {1: 122}, "in-place", kept={1: 122})
    (commit,) = result.commits
    assert commit.writes == () and commit.cleanup == ((234, 178),)
    assert commit.size == 236 and result.offsets == (100, 112)
    assert result.pieces == (Piece("copy", 134, src=100), Piece("zeros", 2))


def test_in_place_trailing_data_follows_an_appended_lump():
    lumps = [Lump(0, "A", 100, 4), Lump(1, "B", 104, 4)]
    layout = Layout(100, 120, (0, 1), (Gap(108, 120, "trailing"),))
    result = plan(lumps, layout, {0: 8}, "in-place")
    (commit,) = result.commits
    assert commit.writes == ((120, (Piece("lump", 8, index=0),)),
                             (128, (Piece("tail", 12, src=108),)))
    assert commit.cleanup == ((100, 4), (108, 12)) and commit.size == 140
    assert result.pieces == (Piece("zeros", 4), Piece("copy", 4, src=104), Piece("zeros", 12),
                             Piece("lump", 8, index=0), Piece("tail", 12, src=108))


def test_kept_prefix_is_copied_and_only_the_rest_materialised():
    same_size = plan(LUMPS, LAYOUT, {1: 8}, "stable", kept={1: 5})
    assert same_size.pieces == (Piece("copy", 17, src=100), Piece("lump", 3, src=5, index=1),
                                Piece("copy", 8, src=120))
    moved = plan(LUMPS, LAYOUT, {1: 12}, "stable", kept={1: 5})
    assert moved.offsets[1] == 128
    assert moved.pieces[-2:] == (Piece("copy", 5, src=112), Piece("lump", 7, src=5, index=1))


def test_last_lump_kept_to_the_end_of_file_grows_in_place_over_its_padding():
    layout = Layout(100, 140, (0, 1, 2), (Gap(110, 112, "padding"), Gap(125, 128, "padding"),
                                          Gap(128, 140, "trailing")))
    base = 140 - 120                                       # append_base of lump 2
    stable = plan(LUMPS, layout, {2: base + 6}, "stable", kept={2: base})
    assert stable.pieces == (Piece("copy", 40, src=100), Piece("lump", 6, src=base, index=2),
                             Piece("zeros", 2))
    in_place = plan(LUMPS, layout, {2: base + 6}, "in-place", kept={2: base})
    (commit,) = in_place.commits
    assert commit.writes == ((140, (Piece("lump", 6, src=base, index=2),)),)
    assert commit.cleanup == () and commit.size == 148
    assert in_place.pieces == stable.pieces
    assert in_place.offsets == (100, 112, 120, 125)


def test_in_place_with_a_partial_prefix_appends_the_whole_lump():
    result = plan(LUMPS, LAYOUT, {2: 9}, "in-place", kept={2: 3})
    (commit,) = result.commits
    assert commit.writes == ((128, (Piece("copy", 3, src=120), Piece("lump", 6, src=3, index=2))),)
    assert result.offsets[2] == 128 and commit.cleanup == ((120, 5),)


def test_last_lump_ending_the_file_unaligned_gets_no_padding_when_resized():
    lumps = [Lump(0, "A", 100, 10), Lump(1, "B", 112, 7)]
    layout = Layout(100, 119, (0, 1), (Gap(110, 112, "padding"),), open_end=True)
    result = plan(lumps, layout, {1: 9}, "stable")
    assert result.pieces == (Piece("copy", 12, src=100), Piece("lump", 9, index=1))
    assert result.end == 121


def test_in_place_lumps_behind_a_large_free_region_settle_into_it_and_the_file_is_cut():
    """A pakfile cut back leaves a large free region with a small lump behind it: a last
    commit moves that lump down (its new content, so the header has the new lengths)."""
    lumps = [Lump(0, "A", 100, 10), Lump(1, "PAK", 112, 200000), Lump(2, "E", 200112, 50)]
    layout = Layout(100, 200164, (0, 1, 2), (Gap(110, 112, "padding"),
                                              Gap(200162, 200164, "padding")))
    result = plan(lumps, layout, {1: 100}, "in-place", kept={1: 100},
                  free=[(110, 112), (200162, 200164)])
    cut, settle = result.commits
    assert cut.final and cut.writes == () and cut.cleanup == ((212, 199900),)
    assert cut.size == 200164                       # E still lies at the end
    assert settle.final and settle.writes == ((212, (Piece("lump", 50, index=2),)),)
    assert settle.offsets == result.offsets == (100, 112, 212)
    assert settle.cleanup == ((200112, 50),) and settle.size == 264
    assert result.pieces == (Piece("copy", 112, src=100), Piece("lump", 50, index=2),
                             Piece("zeros", 2))
