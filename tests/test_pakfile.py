"""The pakfile model: reading against zipfile, splices that keep untouched entries' bytes,
Valve's layout for new entries, corrupt zips, zip-slip and size caps."""
from __future__ import annotations

import io
import os
import struct
import zipfile
import zlib

import pytest

import synthetic
from bspedit.bsp import Bsp
from bspedit.errors import BspError
from bspedit.limits import LIMITS
from bspedit.format.names import game_path
from bspedit.lumps.pakfile import LZMA, STORED, VALVE_COMMENT, Pakfile
from conftest import corpus_maps

VMT = b'"LightmappedGeneric"\r\n{\r\n\t"$basetexture" "dev/dev_blendmeasure"\r\n}\r\n' * 8


def stdlib_zip(files: dict[str, bytes], comment: bytes = VALVE_COMMENT,
               method: int = zipfile.ZIP_STORED) -> bytes:
    """A zip written by Python's zipfile (an independent writer), Valve-like fields."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as archive:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0))
            info.compress_type = method
            archive.writestr(info, data)
        archive.comment = comment
    return out.getvalue()


def source_map(pak: bytes) -> bytes:
    """A small Source map (plain struct, not bspedit's writer) whose last lump is `pak`."""
    return synthetic.make_map("source", {0: synthetic.ENTITIES, 1: synthetic.records(20, 3),
                                         40: pak}, order=[1, 0, 40], revision=3)


def lump_bytes(path, index: int = 40) -> bytes:
    with Bsp.open(path) as bsp:
        return bsp.read_lump(index)


def check_other_lumps(before, after, index: int = 40) -> None:
    with Bsp.open(before) as old, Bsp.open(after) as new:
        for lump in old.lumps:
            if lump.index != index:
                assert new.read_lump(lump.index) == old.read_lump(lump.index), lump.name


def spans(pak: bytes) -> dict[str, bytes]:
    """Each entry's local header and data, as zipfile locates them."""
    with zipfile.ZipFile(io.BytesIO(pak)) as archive:
        out = {}
        for info in archive.infolist():
            name_length, extra = struct.unpack_from("<HH", pak, info.header_offset + 26)
            end = info.header_offset + 30 + name_length + extra + info.compress_size
            out[info.filename] = pak[info.header_offset:end]
        return out


# -- real maps ---------------------------------------------------------------------------------
@pytest.mark.parametrize("path", corpus_maps("source"))
def test_entries_and_contents_match_zipfile(path):
    with Bsp.open(path) as bsp:
        pak = Pakfile.of(bsp)
        raw = bsp.read_lump(40)
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            infos = archive.infolist()
            assert [(e.name, e.size, e.stored_size, e.crc, e.method, e.offset) for e in pak.entries] \
                == [(i.filename, i.file_size, i.compress_size, i.CRC, i.compress_type,
                     i.header_offset) for i in infos]
            for entry in pak.entries:
                assert pak.read(entry) == archive.read(entry.name)


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_add_then_remove_gives_the_original_map(path, tmp_path):
    original = path.read_bytes()
    added, removed = tmp_path / "added.bsp", tmp_path / "removed.bsp"
    with Bsp.open(path) as bsp:
        pak = Pakfile.of(bsp)
        pak.add("materials/BSPEDIT/Test.vmt", VMT, compress="lzma" in path.name)
        pak.apply(bsp)
        bsp.save(added)
    old_pak, new_pak = lump_bytes(path), lump_bytes(added)
    check_other_lumps(path, added)
    assert zipfile.ZipFile(io.BytesIO(new_pak)).testzip() is None
    old_spans, new_spans = spans(old_pak), spans(new_pak)
    assert {name: new_spans[name] for name in old_spans} == old_spans
    assert zipfile.ZipFile(io.BytesIO(new_pak)).read("materials/bspedit/test.vmt") == VMT
    with Bsp.open(added) as bsp:
        pak = Pakfile.of(bsp)
        pak.remove([pak.find("materials/bspedit/test.vmt")])
        pak.apply(bsp)
        bsp.save(removed)
    assert lump_bytes(removed) == old_pak
    # the padding after the pakfile (non-zero in sdk2013_sdk_vehicles_v19) travels with its end,
    # and a RepackBSP map's unpadded end (cp_stronghold_lzma) stays unpadded
    assert removed.read_bytes() == original


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_in_place_add_appends_only(path, tmp_path):
    original = path.read_bytes()
    target = tmp_path / "map.bsp"
    target.write_bytes(original)
    with Bsp.open(target) as bsp:
        header = bsp.header.size
        pak = Pakfile.of(bsp)
        names = [e.name for e in pak.entries]
        pak.add("maps/bspedit.txt", b"appended\n" * 100)
        if names:
            pak.add(names[0], b"replaced", update=True)
        pak.apply(bsp, in_place=True)
        bsp.save_in_place()
    result = target.read_bytes()
    assert result[header:len(original)] == original[header:]   # nothing written over, nothing zeroed
    check_other_lumps(path, target)
    new_pak = lump_bytes(target)
    with zipfile.ZipFile(io.BytesIO(new_pak)) as archive:
        assert archive.testzip() is None
        assert archive.namelist() == names + ["maps/bspedit.txt"]
        assert archive.read("maps/bspedit.txt") == b"appended\n" * 100
        if names:
            assert archive.read(names[0]) == b"replaced"
    old_spans, new_spans = spans(lump_bytes(path)), spans(new_pak)
    assert {n: new_spans[n] for n in names[1:]} == {n: old_spans[n] for n in names[1:]}


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_repack_round_trips_and_reproduces_valve_bytes(path):
    """Valve's own paks come back byte for byte from the other form: our entries are laid out
    as Valve's zip code lays them out, and pylzma 0.5.0 reproduces Valve's LZMA streams."""
    original = lump_bytes(path)
    stored_first = zipfile.ZipFile(io.BytesIO(original)).infolist()[:1]
    compressed_first = any(i.compress_type == LZMA for i in stored_first)
    contents = {i.filename: zipfile.ZipFile(io.BytesIO(original)).read(i)
                for i in zipfile.ZipFile(io.BytesIO(original)).infolist()}
    once = _repack(original, compress=not compressed_first)
    with zipfile.ZipFile(io.BytesIO(once)) as archive:
        assert archive.testzip() is None
        assert {i.filename: archive.read(i) for i in archive.infolist()} == contents
        if not compressed_first:
            assert all(i.compress_type == LZMA or i.compress_size <= len(contents[i.filename])
                       for i in archive.infolist())
    assert _repack(once, compress=compressed_first) == original


def _repack(data: bytes, *, compress: bool) -> bytes:
    pak = Pakfile.from_bytes(data)
    pak.repack(compress=compress)
    keep, extra = pak.splice()
    return data[:keep] + extra


# -- synthetic maps ----------------------------------------------------------------------------
def test_new_entries_follow_valves_layout():
    pak = Pakfile.from_bytes(b"")                  # an empty lump: a new zip
    pak.add("\\Materials\\Foo\\Bar.VMT", VMT)
    pak.add("sound/x.wav", bytes(4000), compress=True)
    keep, data = pak.splice()
    assert keep == 0
    local = struct.unpack_from("<4sHHHHHIIIHH", data, 0)
    assert local == (b"PK\x03\x04", 10, 0, STORED, 0, 0, zlib.crc32(VMT), len(VMT), len(VMT),
                     len("materials/foo/bar.vmt"), 0)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert archive.comment == VALVE_COMMENT
        first, second = archive.infolist()
        assert first.filename == "materials/foo/bar.vmt" and first.create_version == 20
        assert (second.compress_type, second.extract_version, second.flag_bits) == (LZMA, 63, 0)
        assert archive.read(second) == bytes(4000) and archive.testzip() is None
        lzma_header = data[second.header_offset + 30 + len("sound/x.wav"):][:9]
        assert lzma_header == bytes([9, 38, 5, 0, 0x5D, 0, 0, 0, 1])      # as Valve's entries


def test_aligned_pakfile_pads_new_entries_and_directory_like_valve():
    original = stdlib_zip({"a.txt": b"a" * 10}, comment=b"XZP1 2048".ljust(32, b"\0"))
    pak = Pakfile.from_bytes(original)
    assert pak.alignment == 2048
    pak.add("b.txt", b"b" * 5000)
    keep, extra = pak.splice()
    result = original[:keep] + extra
    with zipfile.ZipFile(io.BytesIO(result)) as archive:
        info = archive.getinfo("b.txt")
        data_start = info.header_offset + 30 + len("b.txt") + len(info.extra)
        assert data_start % 2048 == 0 and info.extra == bytes(len(info.extra))
        assert archive.read(info) == b"b" * 5000 and archive.testzip() is None
    offset = struct.unpack_from("<I", result, len(result) - 54 + 16)[0]
    assert offset % 2048 == 0 and not result[info.header_offset + 30 + 5 + 5000 + len(info.extra):
                                             offset].strip(b"\0")


def test_remove_moves_later_entries_verbatim_and_in_place_garbage_is_cleaned(write_map, tmp_path):
    files = {f"materials/m{i}.vmt": VMT[:50 + i] for i in range(4)}
    path = write_map(source_map(stdlib_zip(files)))
    before = spans(lump_bytes(path))
    with Bsp.open(path) as bsp:                    # fast: appends, the old entry stays behind
        pak = Pakfile.of(bsp)
        pak.remove(pak.matching(["MATERIALS/M1.*"]))
        pak.add("materials/new.vmt", b"new")
        pak.apply(bsp, in_place=True)
        bsp.save_in_place()
    fast = lump_bytes(path)
    assert before["materials/m1.vmt"] in fast
    with Bsp.open(path) as bsp:                    # clean: a -o save of any edit compacts
        pak = Pakfile.of(bsp)
        pak.add("materials/last.vmt", b"last")
        pak.apply(bsp)
        bsp.save(tmp_path / "clean.bsp")
    clean = lump_bytes(tmp_path / "clean.bsp")
    after = spans(clean)
    assert before["materials/m1.vmt"] not in clean
    assert {n: after[n] for n in ("materials/m2.vmt", "materials/m3.vmt")} == \
        {n: before[n] for n in ("materials/m2.vmt", "materials/m3.vmt")}
    cd_offset = struct.unpack_from("<I", clean, len(clean) - 54 + 16)[0]
    assert sum(len(s) for s in after.values()) == cd_offset          # no unreferenced bytes
    with zipfile.ZipFile(io.BytesIO(clean)) as archive:
        assert archive.namelist() == ["materials/m0.vmt", "materials/m2.vmt",
                                      "materials/m3.vmt", "materials/new.vmt",
                                      "materials/last.vmt"]


def test_names_are_looked_up_like_the_engine():
    pak = Pakfile.from_bytes(stdlib_zip({"materials/Foo/Bar.vmt": VMT}))
    assert game_path("\\Materials\\FOO/bar.VMT") == "materials/foo/bar.vmt"
    assert pak.find("/MATERIALS\\foo\\BAR.vmt") is pak.entries[0]
    with pytest.raises(BspError, match="'materials/Foo/Bar.vmt' already exists .*--update"):
        pak.add("materials/foo/bar.vmt", b"x")
    pak.add("materials/foo/bar.vmt", b"x", update=True)
    assert [(e.name, pak.read(e)) for e in pak.entries] == [("materials/foo/bar.vmt", b"x")]
    for bad in ("../up.txt", "a/../../b", "c:/x.txt", "a//b", ""):
        with pytest.raises(BspError, match="pak path"):
            pak.add(bad, b"x")


def test_families_without_pakfile_are_refused(write_map):
    path = write_map(synthetic.sample("q1"))
    with Bsp.open(path) as bsp, pytest.raises(BspError, match="Quake 1 .* maps have no pakfile"):
        Pakfile.of(bsp)


# -- corrupt zips ------------------------------------------------------------------------------
def raw_zip(members: list[tuple[bytes, bytes]],
            records: list[tuple[bytes, int, bytes]] | None = None) -> bytes:
    """Stored entries laid out one after the other; `records` (name, offset, data) replace
    the central directory (to point entries at crafted places)."""
    body, directory = b"", []
    for name, data in members:
        directory.append((name, len(body), data))
        body += struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 10, 0, 0, 0, 0, zlib.crc32(data),
                            len(data), len(data), len(name), 0) + name + data
    directory = directory if records is None else records
    cd = b"".join(struct.pack("<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", 20, 10, 0, 0, 0, 0,
                              zlib.crc32(data), len(data), len(data), len(name), 0, 0, 0, 0, 0,
                              offset) + name
                  for name, offset, data in directory)
    return body + cd + struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, len(directory),
                                   len(directory), len(cd), len(body), 32) + VALVE_COMMENT


def test_corrupt_zips_name_the_lump_and_offset(write_map):
    good = raw_zip([(b"a.txt", b"A" * 64), (b"b.txt", b"B" * 64)])
    inner = raw_zip([(b"b.txt", b"B" * 64)])[:30 + 5 + 64]
    end = struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, 2, 2, 999, 0, 32) + VALVE_COMMENT
    cases = {                                     # problem: (pakfile, zip offset reported)
        "no zip end-of-central-directory record": (b"\0" * 80, 0),
        "runs past the end record": (good[:-54] + end, len(good) - 54),
        "local header does not match": (good.replace(b"b.txt", b"c.txt", 1), 30 + 5 + 64),
        "overlap": (raw_zip([(b"a.txt", inner)], [(b"a.txt", 0, inner), (b"b.txt", 35, b"B" * 64)]),
                    35),                          # b.txt's entry lies inside a.txt's data
    }
    for problem, (pak, offset) in cases.items():
        with Bsp.open(write_map(source_map(pak))) as bsp, pytest.raises(BspError) as caught:
            Pakfile.of(bsp)
        assert problem in caught.value.message
        assert (caught.value.lump, caught.value.offset) == ("lump 40 (PAKFILE)",
                                                            bsp.lumps[40].offset + offset)
        assert str(caught.value).startswith(f"{bsp.path}: lump 40 (PAKFILE): file offset ")


def test_corrupt_entry_is_reported_by_name(write_map):
    pak = bytearray(raw_zip([(b"good.txt", b"G" * 40), (b"bad.txt", b"B" * 40)]))
    pak[30 + 8 + 40 + 30 + 7 + 5] ^= 0xFF          # one byte of bad.txt's data
    with Bsp.open(write_map(source_map(bytes(pak)))) as bsp:
        pakfile = Pakfile.of(bsp)
        assert pakfile.read("good.txt") == b"G" * 40
        with pytest.raises(BspError, match="pak entry 'bad.txt': CRC-32 .* does not match"):
            pakfile.read("bad.txt")


# -- extraction safety -------------------------------------------------------------------------
@pytest.mark.parametrize("name", [b"../evil.txt", b"/abs.txt", b"C:/evil.txt", b"c:evil.txt",
                                  b"a\\..\\..\\evil.txt", b"ok/../../evil.txt", b"a//evil.txt"])
def test_zip_slip_is_refused_before_writing(name, tmp_path):
    pak = Pakfile.from_bytes(raw_zip([(b"fine.txt", b"ok"), (name, b"evil")]))
    target = tmp_path / "out" / "deep"
    with pytest.raises(BspError, match="refused to extract"):
        pak.extract(pak.entries, target)
    assert not (tmp_path / "out").exists() and not list(tmp_path.rglob("evil.txt"))


@pytest.mark.skipif(not hasattr(os, "symlink") or os.name == "nt", reason="needs symlinks")
def test_extraction_does_not_follow_symlinks(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "root"
    root.mkdir()
    (root / "materials").symlink_to(outside, target_is_directory=True)
    (root / "file.txt").symlink_to(outside / "file.txt")
    pak = Pakfile.from_bytes(stdlib_zip({"materials/x.vmt": b"x"}))
    with pytest.raises(BspError, match="symbolic link"):
        pak.extract(pak.entries, root)
    pak = Pakfile.from_bytes(stdlib_zip({"file.txt": b"x"}))
    with pytest.raises(BspError, match="symbolic link"):
        pak.extract(pak.entries, root)
    assert list(outside.iterdir()) == []


def test_lying_sizes_and_bombs_are_caught(tmp_path, monkeypatch):
    bomb = Pakfile.from_bytes(b"")
    bomb.add("zeros.bin", bytes(4 << 20), compress=True)          # 4 MiB in about a kilobyte
    entry = bomb.entries[0]
    assert entry.stored_size < 2048
    keep, data = bomb.splice()
    monkeypatch.setattr(LIMITS, "extract_entry", 1 << 20)
    pak = Pakfile.from_bytes(data)
    with pytest.raises(BspError, match="claims 4194304 bytes, over the 1048576-byte limit"):
        pak.extract(pak.entries, tmp_path / "out")
    assert not (tmp_path / "out").exists()
    monkeypatch.setattr(LIMITS, "extract_entry", 8 << 20)
    monkeypatch.setattr(LIMITS, "extract_total", 6 << 20)
    twice = Pakfile.from_bytes(data)
    twice.add("more.bin", bytes(3 << 20), compress=True)
    with pytest.raises(BspError, match="would write 7340032 bytes, over the 6291456-byte limit"):
        twice.extract(twice.entries, tmp_path / "out")
    assert not (tmp_path / "out").exists()
    # a header that under-declares the size: decoding stops at the declared size, CRC fails
    lying = bytearray(data)
    for at in (22, len(data) - 54 - 46 - len("zeros.bin") + 24):  # local, central uncompressed size
        struct.pack_into("<I", lying, at, 1000)
    pak = Pakfile.from_bytes(bytes(lying))
    with pytest.raises(BspError, match="pak entry 'zeros.bin': CRC-32"):
        pak.read("zeros.bin")
    # and a stored entry whose sizes disagree
    stored = bytearray(raw_zip([(b"s.bin", b"S" * 100)]))
    struct.pack_into("<I", stored, 22, 5000)
    struct.pack_into("<I", stored, 30 + 5 + 100 + 24, 5000)
    with pytest.raises(BspError, match="holds 100 bytes but claims 5000"):
        Pakfile.from_bytes(bytes(stored)).read("s.bin")


def test_extract_writes_exactly_the_stored_files(tmp_path):
    files = {"materials/a/b.vmt": VMT, "sound/c.wav": bytes(range(256)) * 40, "d.txt": b""}
    pak = Pakfile.from_bytes(stdlib_zip(files))
    pak.add("e.bin", b"e" * 3000, compress=True)
    written = pak.extract(pak.entries, tmp_path / "out")
    found = {p.relative_to(tmp_path / "out").as_posix(): p.read_bytes()
             for p in (tmp_path / "out").rglob("*") if p.is_file()}
    assert found == {**files, "e.bin": b"e" * 3000}
    assert written == sum(map(len, found.values()))


def test_extract_writes_the_entry_the_engine_finds_when_names_repeat(write_map, tmp_path):
    pak = raw_zip([(b"maps/a.txt", b"first"), (b"MAPS/A.txt", b"second")])
    with Bsp.open(write_map(source_map(pak))) as bsp:
        archive = Pakfile.of(bsp)
        assert archive.read("maps/a.txt") == b"first"
        assert archive.extract(archive.entries, tmp_path / "out") == len(b"first")
    assert (tmp_path / "out" / "maps" / "a.txt").read_bytes() == b"first"


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_an_unpadded_end_is_told_from_the_writer(path):
    """bspzip/RepackBSP leave the file unpadded after a pakfile they start on a 2048-byte
    boundary; vbsp pads the last lump to 4 bytes. The layout says which."""
    with Bsp.open(path) as bsp:
        pak = bsp.lumps[bsp.lump_index("PAKFILE")]
        repacked = pak.offset % 2048 == 0 and pak.end == bsp.size
        unaligned = bsp.size % 4 != 0 and pak.end == bsp.size
        assert bsp.layout.open_end == (repacked or unaligned)
    assert ("stronghold_lzma" in path.name) <= bsp.layout.open_end
