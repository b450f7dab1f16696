"""Crafted pakfiles: zip-slip names, bombs, bad CRCs, lying sizes and offsets, overlapping
entries, inside a Source map. Each ends in BspError or a correct result (fuzzing.check_pak):
reads are CRC-checked, extraction stays inside its folder and within the caps, and adding a
file (-o and in place) keeps every other entry as it was."""
from __future__ import annotations

import errno

import pytest
from hypothesis import given, settings

import fuzzing
from bspedit.bsp import Bsp
from bspedit.errors import BspError
from bspedit.limits import caps
from bspedit.lumps.pakfile import Pakfile

pytestmark = pytest.mark.full      # fuzzing and conformance sets: `pytest --full` (CI)

FUZZ = fuzzing.FUZZ


@settings(FUZZ, max_examples=1000)
@given(case=fuzzing.pak_cases())
def test_crafted_pakfiles(case, tmp_path):
    fuzzing.check_pak(case, tmp_path)


def open_pak(tmp_path, members, edits=()):
    path = tmp_path / "map.bsp"
    path.write_bytes(fuzzing.PakCase(tuple(members), tuple(edits)).data())
    return Bsp.open(path)


@pytest.mark.parametrize("name", [n for n in fuzzing.ZIP_SLIP if n])
def test_zip_slip_names_stay_inside(tmp_path, name):
    """Every hostile name is refused before anything is written, or lands inside the folder."""
    inside = tmp_path / "out" / "inside"
    with open_pak(tmp_path, [(b"ok.txt", b"fine", 0, 0), (name, b"payload", 0, 0)]) as bsp:
        pak = Pakfile.of(bsp)
        try:
            pak.extract(pak.entries, inside)
        except BspError:
            assert not inside.exists() or not any(inside.rglob("*"))
            return
        except OSError as exc:
            assert exc.errno == errno.ENAMETOOLONG
            return
    written = [p for p in (tmp_path / "out").rglob("*") if p.is_file()]
    assert written and all(inside in p.parents for p in written)


@pytest.mark.parametrize("method", [8, 14])
def test_bomb_over_the_cap_is_refused_and_raising_it_lets_it_through(tmp_path, method):
    with open_pak(tmp_path, [(b"bomb.bin", 1 << 20, method, 0)]) as bsp:
        pak = Pakfile.of(bsp)
        assert pak.entries[0].stored_size < 2000
        with caps(extract_entry=1 << 19), pytest.raises(BspError, match="limit"):
            pak.read(pak.entries[0])
        with caps(extract_entry=1 << 20):
            assert pak.read(pak.entries[0]) == bytes(1 << 20)


def test_bad_crc_is_refused(tmp_path):
    blob, _ = fuzzing.build_zip(((b"a.txt", b"hello", 0, 0),))
    central = blob.index(b"PK\x01\x02")
    edits = [("int", 14, 0xDEADBEEF), ("int", central + 16, 0xDEADBEEF)]    # both CRC fields
    with open_pak(tmp_path, [(b"a.txt", b"hello", 0, 0)], edits) as bsp:
        pak = Pakfile.of(bsp)
        with pytest.raises(BspError, match="CRC"):
            pak.read(pak.entries[0])


def test_two_records_naming_one_local_header_are_refused(tmp_path):
    """Overlapping entries: the second central record points at the first local header."""
    members = ((b"a.txt", b"hello", 0, 0), (b"a.txt", b"hello", 0, 0))
    blob, _ = fuzzing.build_zip(members)
    second_record = blob.index(b"PK\x01\x02", blob.index(b"PK\x01\x02") + 1)
    with open_pak(tmp_path, members, [("int", second_record + 42, 0)]) as bsp:
        with pytest.raises(BspError, match="overlap"):
            Pakfile.of(bsp)


def test_empty_entry_name_is_refused(tmp_path):
    """Found by fuzzing: an entry named "" was extracted onto the folder itself
    (IsADirectoryError instead of a BspError)."""
    with open_pak(tmp_path, [(b"", b"", 0, 0)]) as bsp:
        pak = Pakfile.of(bsp)
        with pytest.raises(BspError):
            pak.extract(pak.entries, tmp_path / "out")
