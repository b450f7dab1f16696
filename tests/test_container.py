"""The open map on synthetic maps of every family: detection, round trips, edits, saving."""
from __future__ import annotations

import os
import struct

import pytest

import synthetic
from bspedit.bsp import Bsp
from bspedit.errors import BspError
from bspedit.format.bspx import bspx_directory
from bspedit.format.gamelumpdir import game_lump_directory

FAMILIES = {"q1": "q1", "bsp2": "bsp2", "2psb": "2psb", "goldsrc": "goldsrc", "bshift": "bshift",
            "q2": "q2", "q3": "q3", "ql": "q3", "rbsp": "rbsp", "fbsp": "fbsp", "source": "source"}


@pytest.mark.parametrize("kind", FAMILIES)
def test_detects_family_by_content(write_map, kind):
    path = write_map(synthetic.sample(kind), name="no_hint_in_this_name.dat")
    with Bsp.open(path) as bsp:
        assert bsp.family.key == FAMILIES[kind]
        entities = bsp.read_lump("entities")
        assert entities.startswith(b'{\n"classname" "worldspawn"')


@pytest.mark.parametrize("kind", FAMILIES)
@pytest.mark.parametrize("layout", ["stable", "compact"])
def test_unchanged_save_is_byte_identical_or_keeps_every_lump(write_map, tmp_path, kind, layout):
    original = synthetic.sample(kind)
    path = write_map(original)
    out = tmp_path / "out.bsp"
    with Bsp.open(path) as bsp:
        bsp.save(out, layout)
        with Bsp.open(out) as saved:
            for lump in bsp.lumps:
                if lump.name != "GAME_LUMP":
                    assert saved.read_lump(lump.index) == bsp.read_lump(lump.index), lump.name
    if layout == "stable":
        assert out.read_bytes() == original


def test_l4d2_lump_order_is_decided_by_the_directory(write_map):
    lumps = {0: synthetic.ENTITIES, 1: synthetic.records(20, 2), 40: b"PK\x05\x06" + bytes(18)}
    for l4d2 in (False, True):
        path = write_map(synthetic.make_map("source", lumps, version=21, l4d2=l4d2,
                                            versions={1: 1, 0: 0}), name=f"v21_{l4d2}.bsp")
        with Bsp.open(path) as bsp:
            assert bsp.header.lump_order == ("l4d2" if l4d2 else "standard")
            assert bsp.lumps[1].version == 1 and bsp.lumps[1].length == 40
            assert bsp.header.to_bytes() == path.read_bytes()[:1036]


def test_dirty_padding_and_markers_survive_an_edit_elsewhere(write_map, tmp_path):
    original = synthetic.sample("q3")
    path = write_map(original)
    with Bsp.open(path) as bsp:
        text = bsp.read_lump(0)
        bsp.replace_lump(0, text.replace(b"synthetic", b"edited!!!"))
        bsp.save(tmp_path / "out.bsp")
    saved = (tmp_path / "out.bsp").read_bytes()
    assert len(saved) == len(original)
    differing = [i for i, (a, b) in enumerate(zip(original, saved)) if a != b]
    start = original.index(b"synthetic")
    assert differing and all(start <= i < start + 9 for i in differing)
    assert b"I LOVE MY Q3MAP2 test\0na" in saved


def test_growing_lump_moves_to_the_end_and_nothing_else_moves(write_map, tmp_path):
    original = synthetic.sample("goldsrc")
    path = write_map(original)
    with Bsp.open(path) as bsp:
        bigger = bsp.read_lump(1) + synthetic.records(20, 10)
        bsp.replace_lump(1, bigger)
        report = bsp.save(tmp_path / "out.bsp")
        assert report.changed == ("lump 1 (PLANES)",) and report.moved == ("lump 1 (PLANES)",)
        with Bsp.open(tmp_path / "out.bsp") as saved:
            assert saved.read_lump(1) == bigger
            assert saved.lumps[1].offset >= len(original)
            for lump in bsp.lumps:
                if lump.index != 1:
                    assert saved.lumps[lump.index].offset == lump.offset
                    assert saved.read_lump(lump.index) == bsp.read_lump(lump.index)
            old = bsp.lumps[1]
            assert saved.read_range(old.offset, old.end) == bytes(old.length)


def test_game_lump_offsets_follow_the_game_lump_when_it_moves(write_map, tmp_path):
    path = write_map(synthetic.sample("source"))
    with Bsp.open(path) as bsp:
        bsp.replace_lump(1, bsp.read_lump(1) + synthetic.records(20, 3))   # before the game lump
        bsp.save(tmp_path / "out.bsp", "compact")
        old = bsp.lumps[35]
        with Bsp.open(tmp_path / "out.bsp") as saved:
            new = saved.lumps[35]
            assert new.offset == old.offset + 60
            for before, after in zip(game_lump_directory(bsp.read_lump(35)).entries,
                                     game_lump_directory(saved.read_lump(35)).entries):
                assert after.offset == before.offset + 60
                assert saved.read_range(after.offset, after.offset + after.length) == \
                    bsp.read_range(before.offset, before.offset + before.length)


def test_bspx_trailer_follows_the_last_lump_with_its_offsets(write_map, tmp_path):
    path = write_map(synthetic.sample("q1"))
    with Bsp.open(path) as bsp:
        last = bsp.layout.order[-1]
        bsp.replace_lump(last, bsp.read_lump(last) + b"\n// longer\n")
        bsp.save(tmp_path / "out.bsp")
        tail = bsp.layout.tail
        with Bsp.open(tmp_path / "out.bsp") as saved:
            new_tail = saved.layout.tail
            assert new_tail.start == saved.lumps[last].end + (-saved.lumps[last].end % 4)
            entry = bspx_directory(saved.read_range(new_tail.start, new_tail.end)).lumps[0]
            assert saved.read_range(entry.offset, entry.offset + entry.length) == b"\x10\x20\x30" * 5
            assert new_tail.length == tail.length


def test_in_place_save_appends_and_commits_the_header(write_map):
    original = synthetic.sample("source")
    path = write_map(original)
    with Bsp.open(path) as bsp:
        text = bsp.read_lump(0).replace(b"synthetic", b"in place, and longer than before")
        bsp.replace_lump(0, text)
        old = bsp.lumps[0]
        report = bsp.save_in_place()
        assert report.moved == ("lump 0 (ENTITIES)",)
        assert bsp.read_lump(0) == text
        assert bsp.lumps[0].offset >= len(original)
        assert bsp.read_range(old.offset, old.end) == bytes(old.length)
        for lump in bsp.lumps[1:]:
            if lump.length:
                assert bsp.read_lump(lump.index) == original[lump.offset:lump.end]


def test_replacing_with_identical_bytes_is_no_change(write_map, tmp_path):
    original = synthetic.sample("q2")
    path = write_map(original)
    with Bsp.open(path) as bsp:
        bsp.replace_lump("planes", bsp.read_lump("LUMP_PLANES"))
        assert not bsp.dirty
        bsp.save(tmp_path / "same.bsp")
    assert (tmp_path / "same.bsp").read_bytes() == original


def test_lzma_lump_replacement_sets_fourcc(write_map):
    path = write_map(synthetic.sample("source"))
    with Bsp.open(path) as bsp:
        bsp.replace_lump(3, b"LZMA" + struct.pack("<II", 60, 1) + bytes(5) + b"\0")
        header, _ = bsp.plan()
        assert header.lumps[3].fourcc == 60


def test_failed_save_leaves_target_and_folder_untouched(write_map, tmp_path, monkeypatch):
    path = write_map(synthetic.sample("q1"))
    target = tmp_path / "target.bsp"
    target.write_bytes(b"previous contents")
    with Bsp.open(path) as bsp:
        bsp.replace_lump(0, b"{\n}\n")

        def explode(*args):
            raise RuntimeError("disk on fire")
        monkeypatch.setattr(bsp, "materialise", explode)
        with pytest.raises(RuntimeError):
            bsp.save(target)
    assert target.read_bytes() == b"previous contents"
    assert sorted(os.listdir(tmp_path)) == ["map.bsp", "target.bsp"]


BAD_INPUTS = {
    "not a BSP": (b"PK\x03\x04" + bytes(200), "not a BSP file"),
    "empty file": (b"", "file too short"),
    "truncated header": (synthetic.sample("q2")[:100], "truncated header: 100 of 160 bytes"),
    "unknown version": (b"IBSP" + struct.pack("<i", 99) + bytes(200), "unknown IBSP version 99"),
    "unknown source version": (b"VBSP" + struct.pack("<i", 42) + bytes(1100),
                               "unknown VBSP version 42"),
    "console map, unknown version": (b"PSBV" + bytes(1100), "unknown PSBV version 0"),
    "Titanfall map": (b"rBSP" + bytes(1100), "Titanfall/Apex map (rBSP): not supported"),
}


def _patched(kind: str, index: int, offset: int, length: int) -> bytes:
    data = bytearray(synthetic.sample(kind))
    base = len(synthetic.PREFIX[kind])
    struct.pack_into("<ii", data, base + 8 * index, offset, length)
    return bytes(data)


BAD_INPUTS.update({
    "lump beyond end": (_patched("q1", 1, 124, 10_000), "lump 1 (PLANES): file offset 124: lump of "
                        "10000 bytes runs past the end of the file"),
    "negative length": (_patched("q2", 3, 200, -8), "lump 3 (VISIBILITY): file offset 200: negative "
                        "length -8"),
    "overlapping lumps": (_patched("q1", 3, 130, 8), "overlaps lump 1 (PLANES)"),
    "lump inside header": (_patched("q1", 3, 8, 8), "lump starts inside the 124-byte header"),
})


@pytest.mark.parametrize("case", BAD_INPUTS)
def test_bad_input_raises_one_line_bsp_error(write_map, case):
    data, message = BAD_INPUTS[case]
    path = write_map(data)
    with pytest.raises(BspError) as caught:
        Bsp.open(path).close()
    text = str(caught.value)
    assert text.startswith(str(path)) and message in text and "\n" not in text


@pytest.mark.parametrize("trailing", [b"", b"\0" * 9, b"\x01\x02"])
def test_last_lump_spliced_past_the_end_of_file(write_map, tmp_path, trailing):
    lumps = {0: synthetic.ENTITIES, 1: synthetic.records(20, 3), 40: b"PK" + bytes(21)}
    original = synthetic.make_map("source", lumps, order=[1, 0, 40], pad=b"", trailing=trailing)
    path = write_map(original)
    with Bsp.open(path) as bsp:
        pak = bsp.lumps[40]
        base = bsp.append_base(40)
        entities = bsp.lumps[0]                # not last: after its aligned end
        assert bsp.append_base(0) == -(-entities.end // 4) * 4 - entities.offset
        assert base == len(original) + (-len(original) % 4) - pak.offset
        bsp.splice_lump(40, base, b"new bytes")
        expected = original[pak.offset:] + bytes(-len(original) % 4) + b"new bytes"
        assert bsp.read_lump(40) == expected
        report = bsp.save(tmp_path / "out.bsp")
        assert report.moved == ()
        bsp.save_in_place()
        assert bsp.read_lump(40) == expected and bsp.lumps[40].offset == pak.offset
    written = (tmp_path / "out.bsp").read_bytes()
    assert written == path.read_bytes()
    size = len(original) + (-len(original) % 4)
    assert written[1036:len(original)] == original[1036:]     # nothing before the end rewritten
    assert len(written) == size + 9 + (-(size + 9) % 4)
    with Bsp.open(tmp_path / "out.bsp") as saved, Bsp.open(write_map(original, "o.bsp")) as old:
        for before, after in zip(old.lumps, saved.lumps):
            if before.index != 40:
                assert (before.offset, before.length) == (after.offset, after.length)


def test_splice_with_a_shorter_prefix_copies_it_and_keeps_other_lumps(write_map, tmp_path):
    original = synthetic.sample("source")
    path = write_map(original)
    with Bsp.open(path) as bsp:
        pak = bsp.lumps[40]
        bsp.splice_lump(40, 4, b"tail")
        assert bsp.read_lump(40) == original[pak.offset:pak.offset + 4] + b"tail"
        bsp.save(tmp_path / "out.bsp", "compact")
        bsp.save_in_place()
        assert bsp.read_lump(40) == original[pak.offset:pak.offset + 4] + b"tail"
    with Bsp.open(tmp_path / "out.bsp") as saved:
        assert saved.read_lump(40) == original[pak.offset:pak.offset + 4] + b"tail"
        assert saved.read_lump(35) != b"" and not saved.is_replaced(35)
    with pytest.raises(ValueError):
        with Bsp.open(tmp_path / "out.bsp") as saved:
            saved.splice_lump(35, 4, b"x")
