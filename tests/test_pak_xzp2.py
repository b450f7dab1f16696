"""XZP2 (console) pakfiles: Valve's non-compatible aligned zip with a preload section, read and
edited losslessly. A synthetic XZP2 zip built here byte by byte, and the real console map."""
from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import pytest

from bspedit import Bsp
from bspedit.errors import BspError
from bspedit.lumps.pakfile import PRELOAD_NAME, Pakfile
from conftest import CONSOLE_MAP, run_cli

ALIGN = 2048
PAKFILE = 40
CONSOLE_PAK = (196608, 16438)          # the console map's pakfile: file offset, length
needs_console = pytest.mark.skipif(not CONSOLE_MAP.is_file(),
                                   reason="../shared/corpus-console not present")

VMT = b'"patch"\r\n{\r\n\t"include"\t\t"materials/x.vmt"\r\n}\r\n'
VTF = b"VTFX" + bytes(range(200))
TXT = b"no preload for this one\n" * 3


# -- an XZP2 zip, written independently of bspedit ---------------------------------------------
def preload_section(names: list[str], preload: dict[str, bytes]) -> bytes:
    """A preload section for zip entries `names` (central directory order, the section first):
    big-endian header, (length, offset) per preload entry, remap per zip entry, data, padding."""
    directory, remap, data = [], [], b""
    for name in names:
        if name in preload:
            remap.append(len(directory))
            directory.append((len(preload[name]), len(data)))
            data += preload[name]
        else:
            remap.append(0xFFFF)
    body = struct.pack(">4I", 3, len(names), len(directory), ALIGN)
    body += b"".join(struct.pack(">2I", *pair) for pair in directory)
    body += struct.pack(f">{len(remap)}H", *remap) + data
    return body + bytes(-len(body) % ALIGN)


def xzp2_zip(files: dict[str, bytes], preload: dict[str, bytes]) -> bytes:
    """What Valve's xZip tool writes: the preload section then the files sorted by name, data
    aligned to 2048 by extra-field padding (a whole block when already aligned), central
    records declaring that padding without holding it, the directory padded to 2048 inside its
    size, comment 'XZP2 2048' padded to 32 bytes."""
    names = [PRELOAD_NAME] + sorted(files)
    contents = {PRELOAD_NAME: preload_section(names, preload), **files}
    out, central = b"", b""
    for name in names:
        raw, data = name.encode(), contents[name]
        padding = ALIGN - (len(out) + 30 + len(raw)) % ALIGN
        fields = (0, 0, 0, 0, zlib.crc32(data), len(data), len(data), len(raw), padding)
        central += struct.pack("<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", 20, 10, *fields,
                               0, 0, 0, 0, len(out)) + raw
        out += struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 10, *fields) + raw + bytes(padding)
        out += data
    out += bytes(-len(out) % ALIGN)
    start = len(out)
    out += central + bytes(-len(central) % ALIGN)
    comment = b"XZP2 2048".ljust(32, b"\0")
    return out + struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, len(names), len(names),
                             len(out) - start, start, len(comment)) + comment


def sample() -> bytes:
    return xzp2_zip({"materials/a.vmt": VMT, "materials/b.vtf": VTF, "scripts/c.txt": TXT},
                    {"materials/a.vmt": VMT, "materials/b.vtf": VTF[:40]})


def edited(pak: Pakfile, original: bytes) -> bytes:
    keep, extra = pak.splice()
    return original[:keep] + extra


def local_entries(zip_bytes: bytes) -> list[tuple[str, int, int, bytes]]:
    """(name, local header offset, data offset, stored bytes) per central record, walking the
    directory the XZP2 way (no extra-field bytes in a record)."""
    end = zip_bytes.rfind(b"PK\x05\x06")
    count, _, start = struct.unpack_from("<HII", zip_bytes, end + 10)
    found, position = [], start
    for _ in range(count):
        (stored, name_length, extra, offset) = (struct.unpack_from("<I", zip_bytes, position + 20)
                                               + struct.unpack_from("<HH", zip_bytes, position + 28)
                                               + struct.unpack_from("<I", zip_bytes, position + 42))
        name = zip_bytes[position + 46:position + 46 + name_length].decode()
        local_name, local_extra = struct.unpack_from("<HH", zip_bytes, offset + 26)
        assert (local_name, local_extra) == (name_length, extra)
        data = offset + 30 + name_length + extra
        found.append((name, offset, data, zip_bytes[data:data + stored]))
        position += 46 + name_length
    return found


def parsed_preload(zip_bytes: bytes) -> tuple[int, list[tuple[int, int]], list[int], bytes]:
    """The preload section's zip entry count, directory, remap table and data."""
    section = local_entries(zip_bytes)[0][3]
    version, count, preloads, alignment = struct.unpack_from(">4I", section)
    assert (version, alignment) == (3, ALIGN) and len(section) % ALIGN == 0
    directory = [struct.unpack_from(">2I", section, 16 + 8 * k) for k in range(preloads)]
    remap = list(struct.unpack_from(f">{count}H", section, 16 + 8 * preloads))
    return count, directory, remap, section[16 + 8 * preloads + 2 * count:]


def preload_of(zip_bytes: bytes, name: str) -> bytes | None:
    """The preload data the engine finds for `name`."""
    names = [entry[0] for entry in local_entries(zip_bytes)]
    _, directory, remap, data = parsed_preload(zip_bytes)
    index = remap[names.index(name)]
    if index == 0xFFFF:
        return None
    length, offset = directory[index]
    return data[offset:offset + length]


# -- synthetic ---------------------------------------------------------------------------------
def test_reads_the_entries_the_xzp2_way():
    data = sample()
    pak = Pakfile.from_bytes(data)
    assert not pak.compatible and pak.alignment == ALIGN
    assert [e.name for e in pak.entries] == [PRELOAD_NAME, "materials/a.vmt", "materials/b.vtf",
                                             "scripts/c.txt"]
    assert [e.is_preload for e in pak.entries] == [True, False, False, False]
    for entry, (name, offset, start, stored) in zip(pak.entries, local_entries(data)):
        assert (entry.name, entry.offset, entry.data_start) == (name, offset, start)
        assert start % ALIGN == 0
        assert pak.read(entry) == stored and zlib.crc32(stored) == entry.crc
    assert pak.read("materials/b.vtf") == VTF


def test_unchanged_splice_gives_the_zip_back():
    data = sample()
    pak = Pakfile.from_bytes(data)
    assert not pak.dirty
    assert edited(pak, data) == data


def test_add_lays_out_xzp2_and_extends_the_preload_remap():
    data = sample()
    pak = Pakfile.from_bytes(data)
    pak.add("models/new.mdl", b"IDST" * 100)
    out = edited(pak, data)
    entries = local_entries(out)
    assert [e[0] for e in entries][-1] == "models/new.mdl"
    assert all(start % ALIGN == 0 for _, _, start, _ in entries)
    # the earlier entries keep their bytes and places; the directory holds no padding bytes
    for (name, offset, start, stored), old in zip(entries, local_entries(data)):
        if name != PRELOAD_NAME:
            assert (name, offset, start, stored) == old
    end = out.rfind(b"PK\x05\x06")
    size, start = struct.unpack_from("<II", out, end + 12)
    assert start % ALIGN == 0 and size % ALIGN == 0 and end == start + size
    assert out[end + 22:] == b"XZP2 2048".ljust(32, b"\0")
    count, directory, remap, _ = parsed_preload(out)
    assert count == 5 and remap == [0xFFFF, 0, 1, 0xFFFF, 0xFFFF] and len(directory) == 2
    assert preload_of(out, "materials/a.vmt") == VMT
    assert preload_of(out, "materials/b.vtf") == VTF[:40]
    again = Pakfile.from_bytes(out)
    assert again.read("models/new.mdl") == b"IDST" * 100
    assert not again.dirty


def test_add_then_remove_gives_the_original_bytes():
    data = sample()
    pak = Pakfile.from_bytes(data)
    pak.add("models/new.mdl", b"IDST" * 100)
    added = edited(pak, data)
    pak.remove(pak.find("models/new.mdl"))
    assert not pak.dirty and edited(pak, data) == data
    later = Pakfile.from_bytes(added)
    later.remove(later.find("models/new.mdl"))
    assert edited(later, added) == data


def test_remove_drops_the_preload_data_and_realigns_moved_entries():
    data = sample()
    pak = Pakfile.from_bytes(data)
    pak.remove(pak.find("materials/a.vmt"))
    out = edited(pak, data)
    entries = local_entries(out)
    assert [e[0] for e in entries] == [PRELOAD_NAME, "materials/b.vtf", "scripts/c.txt"]
    assert all(start % ALIGN == 0 for _, _, start, _ in entries)
    count, directory, remap, section_data = parsed_preload(out)
    assert count == 3 and remap == [0xFFFF, 0, 0xFFFF] and directory == [(40, 0)]
    assert section_data[:40] == VTF[:40] and not any(section_data[40:])
    assert preload_of(out, "materials/b.vtf") == VTF[:40]
    again = Pakfile.from_bytes(out)
    assert again.read("materials/b.vtf") == VTF and again.read("scripts/c.txt") == TXT


def test_replace_drops_only_that_entrys_preload_data():
    data = sample()
    pak = Pakfile.from_bytes(data)
    pak.add("materials/b.vtf", b"VTFX changed", update=True)
    out = edited(pak, data)
    _, directory, remap, _ = parsed_preload(out)
    names = [e[0] for e in local_entries(out)]
    assert names == [PRELOAD_NAME, "materials/a.vmt", "materials/b.vtf", "scripts/c.txt"]
    assert remap == [0xFFFF, 0, 0xFFFF, 0xFFFF] and directory == [(len(VMT), 0)]
    assert preload_of(out, "materials/a.vmt") == VMT
    assert Pakfile.from_bytes(out).read("materials/b.vtf") == b"VTFX changed"


def test_repack_keeps_the_preload_section_and_its_data():
    data = sample()
    pak = Pakfile.from_bytes(data)
    changed = pak.repack(compress=True)
    assert PRELOAD_NAME not in [e.name for e in changed] and changed
    out = edited(pak, data)
    assert local_entries(out)[0] == local_entries(data)[0]           # the section as it was
    assert all(start % ALIGN == 0 for _, _, start, _ in local_entries(out))
    again = Pakfile.from_bytes(out)
    assert again.read("scripts/c.txt") == TXT and again.read("materials/a.vmt") == VMT


def test_the_preload_section_cannot_be_removed_or_replaced():
    pak = Pakfile.from_bytes(sample())
    with pytest.raises(BspError, match="preload section"):
        pak.remove(pak.matching("*"))
    with pytest.raises(BspError, match="preload section"):
        pak.add(PRELOAD_NAME, b"x", update=True)
    assert not pak.dirty


def test_a_preload_section_that_does_not_fit_refuses_edits_but_reads():
    data = bytearray(sample())
    start = local_entries(bytes(data))[0][2]
    struct.pack_into(">I", data, start + 4, 9)           # claims 9 zip entries, the zip has 4
    crc = zlib.crc32(local_entries(bytes(data))[0][3])
    struct.pack_into("<I", data, 14, crc)
    end = data.rfind(b"PK\x05\x06")
    struct.pack_into("<I", data, struct.unpack_from("<I", data, end + 16)[0] + 16, crc)
    pak = Pakfile.from_bytes(bytes(data))
    assert pak.read("materials/a.vmt") == VMT
    assert pak.preload_problem == (f"its preload section {PRELOAD_NAME} indexes 9 zip entries "
                                   "but the central directory has 4")
    with pytest.raises(BspError, match="indexes 9 zip entries but the central directory has 4"):
        pak.add("x.txt", b"x")
    with pytest.raises(BspError, match="refused to edit"):
        pak.remove(pak.find("scripts/c.txt"))


# -- the real console map ----------------------------------------------------------------------
def console_lump(path: Path) -> bytes:
    offset, length = CONSOLE_PAK
    return path.read_bytes()[offset:offset + length]


@needs_console
def test_console_pak_lists_and_reads_the_stored_bytes():
    raw = console_lump(CONSOLE_MAP)
    stored = local_entries(raw)
    with Bsp.open(CONSOLE_MAP) as bsp:
        pak = bsp.pakfile
        assert (bsp.lumps[PAKFILE].offset, bsp.lumps[PAKFILE].length) == CONSOLE_PAK
        assert [e.name for e in pak.entries] == [name for name, *_ in stored]
        assert len(pak.entries) == 5 and pak.entries[0].is_preload
        for entry, (_, offset, start, data) in zip(pak.entries, stored):
            assert (entry.offset, entry.data_start) == (offset, start)
            assert pak.read(entry) == data and zlib.crc32(data) == entry.crc
    count, directory, remap, _ = parsed_preload(raw)
    assert count == 5 and remap == [0xFFFF, 0, 1, 2, 3] and len(directory) == 4
    vmt = "materials/maps/shack/concrete/concretefloor005a_0_0_0.vmt"
    assert preload_of(raw, vmt) == dict((n, d) for n, _, _, d in stored)[vmt]   # whole file


@needs_console
def test_console_pak_cli_list_and_extract(tmp_path):
    raw = console_lump(CONSOLE_MAP)
    stored = {name: data for name, _, _, data in local_entries(raw)}
    child = run_cli("pak", "list", CONSOLE_MAP, "--json")
    assert child.returncode == 0, child.stderr
    rows = json.loads(child.stdout)["result"]["entries"]
    assert [row["name"] for row in rows] == list(stored)
    child = run_cli("pak", "extract", CONSOLE_MAP, tmp_path / "out")
    assert child.returncode == 0, child.stderr
    for name, data in stored.items():
        assert (tmp_path / "out" / name).read_bytes() == data


@needs_console
def test_console_pak_add_then_remove_in_one_session_keeps_the_file(tmp_path):
    with Bsp.open(CONSOLE_MAP) as bsp:
        bsp.pakfile.add("custom/console.txt", b"console\n")
        bsp.pakfile.remove(bsp.pakfile.find("custom/console.txt"))
        bsp.save(tmp_path / "same.bsp")
    assert (tmp_path / "same.bsp").read_bytes() == CONSOLE_MAP.read_bytes()


@needs_console
def test_console_pak_cli_add_then_remove(tmp_path):
    original = CONSOLE_MAP.read_bytes()
    extra = tmp_path / "extra.txt"
    extra.write_bytes(b"console pak test\n" * 20)
    child = run_cli("pak", "add", CONSOLE_MAP, extra, "--as", "custom/console_test.txt",
                    "-o", tmp_path / "added.bsp")
    assert child.returncode == 0, child.stderr
    with Bsp.open(tmp_path / "added.bsp") as bsp:
        pak = bsp.pakfile
        assert pak.read("custom/console_test.txt") == extra.read_bytes()
        added = bsp.read_lump(PAKFILE)
    entries = local_entries(added)
    assert entries[-1][0] == "custom/console_test.txt"
    assert all(start % ALIGN == 0 for _, _, start, _ in entries)
    assert entries[1:5] == local_entries(console_lump(CONSOLE_MAP))[1:]
    count, _, remap, _ = parsed_preload(added)
    assert count == 6 and remap == [0xFFFF, 0, 1, 2, 3, 0xFFFF]
    child = run_cli("pak", "remove", tmp_path / "added.bsp", "custom/console_test.txt",
                    "-o", tmp_path / "removed.bsp")
    assert child.returncode == 0, child.stderr
    removed = (tmp_path / "removed.bsp").read_bytes()
    assert console_lump(tmp_path / "removed.bsp") == console_lump(CONSOLE_MAP)
    # the whole map as it was, up to the zeros the stable layout leaves after the grown lump
    assert removed[:len(original)] == original and not any(removed[len(original):])


@needs_console
def test_console_pak_remove_with_preload_data(tmp_path):
    vmt = "materials/maps/shack/concrete/concretefloor005a_0_0_0.vmt"
    with Bsp.open(CONSOLE_MAP) as bsp:
        pak = bsp.pakfile
        contents = {e.name: pak.read(e) for e in pak.entries}
        pak.remove(pak.find(vmt))
        bsp.save(tmp_path / "removed.bsp")
    with Bsp.open(tmp_path / "removed.bsp") as bsp:
        pak = bsp.pakfile
        raw = bsp.read_lump(PAKFILE)
        assert [e.name for e in pak.entries] == [n for n in contents if n != vmt]
        for entry in pak.entries[1:]:
            assert pak.read(entry) == contents[entry.name] and entry.data_start % ALIGN == 0
    count, directory, remap, _ = parsed_preload(raw)
    assert count == 4 and remap == [0xFFFF, 0, 1, 2] and len(directory) == 3
    vtf = "materials/maps/shack/cubemapdefault.hdr.360.vtf"
    assert preload_of(raw, vtf) == contents[vtf][:92]          # a VTF's preload: its header


@needs_console
def test_console_pak_in_place_save_writes_a_clean_xzp2_zip(tmp_path):
    path = tmp_path / "map.bsp"
    path.write_bytes(CONSOLE_MAP.read_bytes())
    with Bsp.open(path) as bsp:
        bsp.pakfile.add("custom/in_place.txt", b"in place\n")
        bsp.save()
    with Bsp.open(path) as bsp:
        raw = bsp.read_lump(PAKFILE)
        assert bsp.pakfile.read("custom/in_place.txt") == b"in place\n"
    assert [e[0] for e in local_entries(raw)][-1] == "custom/in_place.txt"
    assert parsed_preload(raw)[2] == [0xFFFF, 0, 1, 2, 3, 0xFFFF]
