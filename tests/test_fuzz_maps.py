"""Fuzzed maps through the API: mutated headers, directories, LZMA headers, game lump and BSPX
directories, and files cut at every structural boundary. Each input ends in BspError or in a
correct result (see fuzzing.check_map); the seeds are synthetic maps of every family, tiny.bsp
and, when ../shared is present, the small corpus maps; big-endian (console) seeds too: tiny.bsp
and small corpus maps converted by tests/console.py, and the real Xbox 360 map."""
from __future__ import annotations

import pytest
from hypothesis import given, settings

import fuzzing
from bspedit.bsp import Bsp
from bspedit.format.bspx import bspx_directory
from bspedit.features.checks import problems

pytestmark = pytest.mark.full      # fuzzing and conformance sets: `pytest --full` (CI)

FUZZ = fuzzing.FUZZ


@settings(FUZZ, max_examples=2500)
@given(case=fuzzing.map_cases())
def test_mutated_maps(case, tmp_path):
    fuzzing.run_map_case(case, tmp_path)


@settings(FUZZ, max_examples=500)
@given(case=fuzzing.map_cases(frozenset({"game-lump"})))
def test_game_lump_offsets_out_of_range(case, tmp_path):
    fuzzing.run_map_case(case, tmp_path)


@settings(FUZZ, max_examples=150)
@given(case=fuzzing.map_cases(frozenset({"lzma"})))
def test_lzma_lumps_with_lying_headers(case, tmp_path):
    fuzzing.run_map_case(case, tmp_path)


@settings(FUZZ, max_examples=400)
@given(case=fuzzing.map_cases(frozenset({"bspx"})))
def test_bspx_directories(case, tmp_path):
    fuzzing.run_map_case(case, tmp_path)


@settings(FUZZ, max_examples=200)
@given(case=fuzzing.map_cases(among=fuzzing.console_seeds()))
def test_mutated_console_maps(case, tmp_path):
    """Big-endian inputs (console PSBV maps): their header, directory and game lump directory
    mutated in their own byte order, LZMA headers and the zip in theirs."""
    fuzzing.run_map_case(case, tmp_path)


@settings(FUZZ, max_examples=100)
@given(case=fuzzing.map_cases(frozenset({"game-lump"}), among=fuzzing.console_seeds()))
def test_console_game_lump_offsets_out_of_range(case, tmp_path):
    """Console game lump member offsets are relative to the lump: lies about them."""
    fuzzing.run_map_case(case, tmp_path)


def test_console_fields_are_mutated_in_their_byte_order(tmp_path):
    """An "int>" edit writes a console map's directory big-endian: the map reads that value."""
    assert fuzzing.facts("console/tiny").big_endian == {"header", "directory", "game-lump"}
    entities_length = 8 + 4
    case = fuzzing.MapCase("console/tiny", (("int>", entities_length, 200),))
    path = tmp_path / "map.bsp"
    path.write_bytes(case.data())
    with Bsp.open(path) as bsp:
        assert bsp.header.endian == ">" and bsp.lumps[0].length == 200
    assert fuzzing.run_map_case(case, tmp_path) == "opened"


@pytest.mark.parametrize("seed", sorted(fuzzing.seeds()))
def test_truncated_at_every_boundary(seed, tmp_path):
    cases = [case for case in fuzzing.truncations() if case.seed == seed]
    outcomes = [fuzzing.run_map_case(case, tmp_path) for case in cases]
    assert outcomes[0] == "refused"      # cut at 0: an empty file
    assert len(outcomes) >= 10


@pytest.mark.parametrize("seed", sorted(fuzzing.seeds()))
def test_seeds_are_valid(seed, tmp_path):
    """The fuzzing starts from maps that open, verify clean and round-trip."""
    path = tmp_path / "seed.bsp"
    path.write_bytes(fuzzing.seeds()[seed])
    with Bsp.open(path) as bsp:
        assert problems(bsp) == []
    assert fuzzing.check_map(path, tmp_path) == "opened"


def test_bspx_offset_out_of_range_when_the_trailer_moves(tmp_path):
    """Found by fuzzing: a BSPX entry offset of 2**32-1 made relocating the trailer (an entity
    edit saved in place moves it) raise struct.error. The entry points nowhere; it is kept."""
    first_offset = fuzzing.facts("synthetic/q1").fields["bspx"][1]
    case = fuzzing.MapCase("synthetic/q1", (("int", first_offset, -1),))
    assert fuzzing.run_map_case(case, tmp_path) == "opened"
    with Bsp.open(tmp_path / "in-place.bsp") as saved:       # the trailer moved
        tail = saved.layout.tail
        assert tail.start > len(case.data())
        entry = bspx_directory(saved.read_range(tail.start, tail.end)).lumps[0]
        assert entry.offset == 2**32 - 1
