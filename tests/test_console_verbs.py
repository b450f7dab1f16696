"""Every verb on console (PSBV, big-endian) Source maps: the real Xbox 360 map in
../shared/corpus-console and big-endian maps that tests/console.py makes from little-endian ones
(tiny.bsp always; corpus maps when ../shared is present). Through the CLI and the Python API;
the maps are read back here with struct, independently of bspedit."""
from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest

from bspedit import Bsp
from bspedit.features.checks import problems
from bspedit.format.lzma_lump import decompress
from conftest import CONSOLE_MAP, CORPUS, ROOT, run_cli
from console import convert, kept_lumps, to_big_endian, to_little_endian

GAME_LUMP, PAKFILE, MAP_FLAGS = 35, 40, 59
STORED_CRC = 645568690      # the real map's lump 59 version: the PC map's running CRC
# little-endian sources of the synthetic maps: v20 without props, v19 with props and dplt
SOURCES = {"tiny": ROOT / "tests" / "data" / "tiny.bsp",
           "portalmp": CORPUS / "source" / "portalmp_background01.bsp",
           "vehicles": CORPUS / "source" / "sdk2013_sdk_vehicles_v19.bsp"}


def _params(real: bool) -> list:
    found = [pytest.param(name, id=f"be-{name}") if path.is_file() else
             pytest.param(name, id=f"be-{name}", marks=pytest.mark.skip(reason=f"{path} absent"))
             for name, path in SOURCES.items()]
    if real:
        found.insert(0, pytest.param("real", id="real", marks=pytest.mark.skipif(
            not CONSOLE_MAP.is_file(), reason="../shared/corpus-console not present")))
    return found


ALL, SYNTHETIC = _params(True), _params(False)


def console_bytes(name: str) -> bytes:
    """The real console map, or the big-endian map made from source `name`."""
    if name == "real":
        return CONSOLE_MAP.read_bytes()
    return to_big_endian(SOURCES[name].read_bytes())


@pytest.fixture
def console_map(request, tmp_path) -> Path:
    path = tmp_path / f"{request.param}.bsp"
    path.write_bytes(console_bytes(request.param))
    return path


def directory(data: bytes) -> list[tuple[int, int, int, int]]:
    """The lump directory, big-endian (PSBV) or little-endian (VBSP): (offset, length, version,
    fourCC) per lump."""
    order = {b"PSBV": ">", b"VBSP": "<"}[data[:4]]
    return [struct.unpack_from(order + "4i", data, 8 + 16 * i) for i in range(64)]


def lump(data: bytes, index: int) -> bytes:
    offset, length, _, _ = directory(data)[index]
    return data[offset:offset + length]


def content(data: bytes, index: int) -> bytes:
    """A lump's bytes, decompressed when it is a Valve LZMA lump."""
    stored = lump(data, index)
    return decompress(stored) if stored[:4] == b"LZMA" else stored


def game_members(data: bytes) -> list[tuple[bytes, int, int, int, bytes]]:
    """The game lump's members (offsets relative to the lump): id as read, flags, version,
    length and the member's content (decompressed when flags say so)."""
    body = lump(data, GAME_LUMP)
    (count,) = struct.unpack_from(">i", body, 0)
    entries = [struct.unpack_from(">4sHHii", body, 4 + 16 * n) for n in range(count)]
    ends = [e[3] for e in entries[1:]] + [len(body)]
    members = []
    for (name, flags, version, offset, length), end in zip(entries, ends):
        raw = body[offset:end] if flags & 1 else body[offset:offset + length]
        members.append((name, flags, version, length,
                        decompress(raw) if flags & 1 and offset else raw if offset else b""))
    return members


def zip_entries(blob: bytes) -> dict[str, bytes]:
    """Name -> stored bytes of every entry of a zip (little-endian everywhere), read through its
    central directory. In XZP2 zips (console) a directory entry's extra length is the padding
    of the local header and no extra data follows the name (Python's zipfile misreads them)."""
    end = blob.rfind(b"PK\x05\x06")
    xzp2 = zip_comment(blob).startswith(b"XZP2")
    count, _, at = struct.unpack_from("<HII", blob, end + 10)
    entries = {}
    for _ in range(count):
        assert blob[at:at + 4] == b"PK\x01\x02"
        method, size, name_size, extra, comment, local = (
            struct.unpack_from("<H", blob, at + 10)[0], struct.unpack_from("<I", blob, at + 20)[0],
            *struct.unpack_from("<HHH", blob, at + 28), struct.unpack_from("<I", blob, at + 42)[0])
        assert method == 0, "only stored entries are compared"
        name = blob[at + 46:at + 46 + name_size].decode()
        start = local + 30 + sum(struct.unpack_from("<HH", blob, local + 26))
        entries[name] = blob[start:start + size]
        at += 46 + name_size + (0 if xzp2 else extra) + comment
    return entries


def zip_comment(blob: bytes) -> bytes:
    end = blob.rfind(b"PK\x05\x06")
    (size,) = struct.unpack_from("<H", blob, end + 20)
    return blob[end + 22:end + 22 + size]


def pc_and_console(name: str, tmp_path: Path) -> tuple[Path, Path]:
    """The little-endian source map `name` and the console map made from it, as files."""
    pc, be = tmp_path / "pc.bsp", tmp_path / "be.bsp"
    pc.write_bytes(SOURCES[name].read_bytes())
    be.write_bytes(to_big_endian(pc.read_bytes()))
    return pc, be


def cli_json(*args: object) -> dict:
    child = run_cli(*args, "--json")
    assert child.returncode in (0, 1), child.stderr
    assert "Traceback" not in child.stderr
    return json.loads(child.stdout)


def ok(*args: object) -> str:
    child = run_cli(*args)
    assert child.returncode == 0, child.stderr
    return child.stdout


def assert_only_entities_changed(before: bytes, after: bytes, pakfile_moves: bool) -> None:
    """Every lump but 0 keeps its bytes and offset; with `pakfile_moves` the pakfile, which
    console maps store last, may move to a later sector (when lump 0 outgrows the room before
    it, as on the synthetic maps; the real map has room)."""
    old, new = directory(before), directory(after)
    for index in range(1, 64):
        assert lump(after, index) == lump(before, index), f"lump {index}'s bytes changed"
        if index == PAKFILE and pakfile_moves and new[index] != old[index]:
            assert new[index][0] > old[index][0] and new[index][0] % 2048 == 0
            assert new[index][1:] == old[index][1:]
        else:
            assert new[index] == old[index], f"lump {index}'s directory entry changed"
    assert lump(after, 0) != lump(before, 0)
    last = max((entry for entry in new if entry[1]), key=lambda entry: entry[0])
    if old[PAKFILE][1]:
        assert last == new[PAKFILE], "the pakfile is no longer stored last"


# -- the converter -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", SYNTHETIC)
def test_converter_round_trip(name):
    """Converting back gives the little-endian map; the header, directory and records are
    byte-swapped, text and the pakfile are not; the pakfile and file end are moved to sector
    boundaries and nothing else moves."""
    pc = SOURCES[name].read_bytes()
    swapped = convert(pc, ">")
    assert convert(swapped, "<") == pc and len(swapped) == len(pc)
    be = to_big_endian(pc)
    assert len(be) % 2048 == 0 and directory(be)[PAKFILE][0] % 2048 == 0
    assert be[:4] == b"PSBV" and be[4:8] == pc[7:3:-1]
    pc_dir = directory(pc)
    assert [e for i, e in enumerate(directory(be)) if i != PAKFILE] == \
        [e for i, e in enumerate(pc_dir) if i != PAKFILE]
    assert directory(be)[PAKFILE][1:] == pc_dir[PAKFILE][1:]
    assert to_little_endian(be)[pc_dir[PAKFILE][0]:directory(be)[PAKFILE][0]].count(0) == \
        directory(be)[PAKFILE][0] - pc_dir[PAKFILE][0]          # zeros before the pakfile
    planes = lump(pc, 1)
    assert lump(be, 1) == b"".join(planes[at:at + 4][::-1] for at in range(0, len(planes), 4))
    for index in kept_lumps(pc) | {0, PAKFILE}:
        assert lump(be, index) == lump(pc, index)
    members = {m[0]: m for m in game_members(be)}
    assert b"sprp" in members       # the fourcc's bytes in reading order, as the console has it
    offset, length = pc_dir[GAME_LUMP][:2]
    (first,) = struct.unpack_from("<i", pc, offset + 4 + 8)
    assert struct.unpack_from(">i", be, offset + 4 + 8)[0] == first - offset    # relative


def test_real_map_looks_like_the_synthetic_ones():
    """The facts the converter writes are the real map's: PSBV, sprp read as 'sprp' and member
    offsets relative to the game lump."""
    if not CONSOLE_MAP.is_file():
        pytest.skip("../shared/corpus-console not present")
    data = CONSOLE_MAP.read_bytes()
    members = game_members(data)
    assert [m[:3] for m in members] == [(b"sprp", 1, 6), (b"dprp", 0, 4), (b"\0\0\0\0", 0, 0)]
    assert struct.unpack_from(">i", members[0][4], 0)[0] >= 0     # model count, big-endian


# -- info, verify, checksum ----------------------------------------------------------------------

@pytest.mark.parametrize("console_map", ALL, indirect=True)
def test_info(console_map):
    data = console_map.read_bytes()
    result = cli_json("info", console_map)["result"]
    assert result["ident"] == "PSBV" and result["byte_order"] == "big"
    assert result["size"] == len(data)
    assert [(l["offset"], l["length"], l["version"]) for l in result["lumps"]] == \
        [entry[:3] for entry in directory(data)]
    assert "big-endian" in ok("info", console_map)
    with Bsp.open(console_map) as bsp:
        assert bsp.header.endian == ">" and bsp.header.big_endian
        assert [(l.offset, l.length) for l in bsp.lumps] == [e[:2] for e in directory(data)]


@pytest.mark.parametrize("console_map", ALL, indirect=True)
def test_verify(console_map):
    child = run_cli("verify", console_map, "--json")
    assert "Traceback" not in child.stderr
    report = json.loads(child.stdout)["result"]
    assert child.returncode == 0 and report["ok"], report["problems"]
    with Bsp.open(console_map) as bsp:
        assert problems(bsp) == []


@pytest.mark.parametrize("console_map", ALL, indirect=True)
def test_checksum(console_map):
    data = console_map.read_bytes()
    result = cli_json("checksum", console_map)["result"]
    with Bsp.open(console_map) as bsp:
        assert result["checksums"] == bsp.checksums()
    if console_map.stem == "real":
        # the console engine compares the CRC the converter stored in lump 59's version
        assert directory(data)[MAP_FLAGS][2] == STORED_CRC
        assert result["compared"] == "stored_crc32"
        assert result["checksums"]["stored_crc32"] == STORED_CRC ^ 0xFFFFFFFF     # finalised


# -- rewrite -------------------------------------------------------------------------------------

@pytest.mark.parametrize("console_map", ALL, indirect=True)
def test_rewrite_stable_is_byte_identical(console_map, tmp_path):
    data = console_map.read_bytes()
    ok("rewrite", console_map, "-o", tmp_path / "out.bsp")
    assert (tmp_path / "out.bsp").read_bytes() == data
    with Bsp.open(console_map) as bsp:
        bsp.save(tmp_path / "api.bsp")
    assert (tmp_path / "api.bsp").read_bytes() == data


@pytest.mark.parametrize("console_map", ALL, indirect=True)
def test_rewrite_compact_keeps_every_lump(console_map, tmp_path):
    data = console_map.read_bytes()
    ok("rewrite", console_map, "-o", tmp_path / "out.bsp", "--layout", "compact")
    out = (tmp_path / "out.bsp").read_bytes()
    assert out[:4] == b"PSBV" and out[4:8] == data[4:8]
    for index in range(64):
        if index != GAME_LUMP:
            assert lump(out, index) == lump(data, index), f"lump {index} differs"
        assert directory(out)[index][2:] == directory(data)[index][2:]
    assert game_members(out) == game_members(data)
    assert len(out) % 2048 == 0 and directory(out)[PAKFILE][0] % 2048 == 0     # DVD sectors
    if console_map.stem == "real":
        assert directory(out)[PAKFILE][0] % 65536 == 0
    with Bsp.open(console_map) as bsp:
        bsp.save(tmp_path / "api.bsp", "compact")
    assert (tmp_path / "api.bsp").read_bytes() == out
    ok("rewrite", tmp_path / "out.bsp", "-o", tmp_path / "again.bsp")
    assert (tmp_path / "again.bsp").read_bytes() == out


# -- entities ------------------------------------------------------------------------------------

@pytest.mark.parametrize("console_map", ALL, indirect=True)
def test_ent_export_import_is_byte_identical(console_map, tmp_path):
    data = console_map.read_bytes()
    ok("ent", "export", console_map, "-o", tmp_path / "map.ent")
    text = (tmp_path / "map.ent").read_bytes()
    assert text == content(data, 0).split(b"\0", 1)[0]
    ok("ent", "import", console_map, tmp_path / "map.ent", "-o", tmp_path / "out.bsp")
    assert (tmp_path / "out.bsp").read_bytes() == data


@pytest.mark.parametrize("console_map", ALL, indirect=True)
def test_entity_edit_changes_only_the_entity_lump(console_map, tmp_path):
    data = console_map.read_bytes()
    out = tmp_path / "out.bsp"
    ok("ent", "set", console_map, "--where", "classname=worldspawn", "bspedit_test=console",
       "-o", out)
    edited = out.read_bytes()
    assert_only_entities_changed(data, edited, console_map.stem != "real")
    old, new = lump(data, 0), lump(edited, 0)
    if old[:4] == b"LZMA":          # re-compressed with the map's settings (2^18 dictionary)
        assert new[:4] == b"LZMA" and new[12:17] == old[12:17]
        assert directory(edited)[0][3] == len(decompress(new))      # fourCC: the real size
    text = content(edited, 0)
    assert b'"bspedit_test" "console"' in text
    assert text.replace(b'"bspedit_test" "console"\n', b"") == content(data, 0)
    ok("ent", "export", out, "-o", tmp_path / "out.ent")
    assert (tmp_path / "out.ent").read_bytes() == text.split(b"\0", 1)[0]
    if console_map.stem == "real":      # the stored CRC the console compares is kept
        assert directory(edited)[MAP_FLAGS] == directory(data)[MAP_FLAGS]
        assert cli_json("checksum", out)["result"]["checksums"]["stored_crc32"] == \
            STORED_CRC ^ 0xFFFFFFFF


@pytest.mark.parametrize("console_map", ALL, indirect=True)
def test_entity_edit_in_place_keeping_the_checksum(console_map):
    """`--in-place --keep-checksum`: the compared checksum skips the entity lump (the stored
    CRC on the real map), so the edit is allowed; only lump 0 changes."""
    data = console_map.read_bytes()
    ok("ent", "set", console_map, "--where", "classname=worldspawn", "bspedit_test=in place",
       "--in-place", "--keep-checksum")
    edited = console_map.read_bytes()
    assert_only_entities_changed(data, edited, console_map.stem != "real")
    assert b'"bspedit_test" "in place"' in content(edited, 0)
    assert edited[:4] == b"PSBV" and len(edited) % 2048 == 0


@pytest.mark.parametrize("console_map", ALL, indirect=True)
def test_entity_edit_through_the_api(console_map, tmp_path):
    data = console_map.read_bytes()
    with Bsp.open(console_map) as bsp:
        bsp.entities().add_entity({"classname": "info_target", "targetname": "console_test"})
        expected = bsp.entities().to_bytes()
        bsp.save(tmp_path / "out.bsp")
    edited = (tmp_path / "out.bsp").read_bytes()
    assert_only_entities_changed(data, edited, console_map.stem != "real")
    assert content(edited, 0) == expected
    assert content(edited, 0).startswith(content(data, 0).rstrip(b"\0"))
    with Bsp.open(tmp_path / "out.bsp") as bsp:
        assert bsp.entities().find(targetname="console_test")


@pytest.mark.parametrize("console_map", ALL, indirect=True)
def test_diff(console_map, tmp_path):
    same = cli_json("diff", console_map, console_map)
    assert same["exit"] == 0 and same["result"]["identical"]
    ok("ent", "set", console_map, "--where", "classname=worldspawn", "bspedit_test=1",
       "-o", tmp_path / "edited.bsp")
    result = cli_json("diff", console_map, tmp_path / "edited.bsp")["result"]
    assert not result["identical"]
    assert [entry["index"] for entry in result["lumps"]] == [0]
    assert result["header"] == {}


# -- pakfile -------------------------------------------------------------------------------------

@pytest.mark.parametrize("console_map", ALL, indirect=True)
def test_pak_list_and_extract(console_map, tmp_path):
    data = console_map.read_bytes()
    entries = zip_entries(lump(data, PAKFILE))
    listed = cli_json("pak", "list", console_map)["result"]
    assert [entry["name"] for entry in listed["entries"]] == list(entries)
    ok("pak", "extract", console_map, tmp_path / "unpacked")
    for name, stored in entries.items():
        assert (tmp_path / "unpacked" / name).read_bytes() == stored
    ok("pak", "extract", console_map, "--to", tmp_path / "pak.zip")
    assert (tmp_path / "pak.zip").read_bytes() == lump(data, PAKFILE)
    if console_map.stem == "real":
        assert zip_comment(lump(data, PAKFILE)).rstrip(b"\0") == b"XZP2 2048"
        assert "__preload_section.pre" in entries and len(entries) == 5


@pytest.mark.parametrize("console_map", ALL, indirect=True)
def test_pak_add_then_remove_gives_the_original(console_map, tmp_path):
    data = console_map.read_bytes()
    extra = tmp_path / "extra.txt"
    extra.write_bytes(b"console pak test\n" * 20)
    ok("pak", "add", console_map, extra, "--as", "custom/console_test.txt",
       "-o", tmp_path / "added.bsp")
    added = (tmp_path / "added.bsp").read_bytes()
    entries = zip_entries(lump(added, PAKFILE))
    assert entries["custom/console_test.txt"] == extra.read_bytes()
    kept = zip_entries(lump(data, PAKFILE))
    assert list(entries) == [*kept, "custom/console_test.txt"]
    for name in set(kept) - {"__preload_section.pre"}:     # XZP2's preload lists the entries
        assert entries[name] == kept[name]
    for index in set(range(64)) - {PAKFILE}:
        assert lump(added, index) == lump(data, index)
    if console_map.stem == "real":
        assert directory(added)[PAKFILE][0] % 65536 == 0 and len(added) % 2048 == 0
        assert zip_comment(lump(added, PAKFILE)).rstrip(b"\0") == b"XZP2 2048"
    ok("pak", "remove", tmp_path / "added.bsp", "custom/console_test.txt",
       "-o", tmp_path / "removed.bsp")
    assert (tmp_path / "removed.bsp").read_bytes() == data
    with Bsp.open(console_map) as bsp:
        assert [entry.name for entry in bsp.pakfile.entries] == list(zip_entries(
            lump(data, PAKFILE)))
        bsp.pakfile.add("custom/console_test.txt", extra.read_bytes())
        bsp.save(tmp_path / "api-added.bsp")
    with Bsp.open(tmp_path / "api-added.bsp") as bsp:
        assert bsp.pakfile.read("custom/console_test.txt") == extra.read_bytes()
        bsp.pakfile.remove(bsp.pakfile.find("custom/console_test.txt"))
        bsp.save(tmp_path / "api-removed.bsp")
    assert (tmp_path / "api-removed.bsp").read_bytes() == data


# -- lumps ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("console_map", ALL, indirect=True)
def test_lump_list_extract_replace(console_map, tmp_path):
    data = console_map.read_bytes()
    lumps = cli_json("lump", "list", console_map)["result"]["lumps"]
    table = directory(data)
    for entry in lumps:
        assert (entry["offset"], entry["length"], entry["version"], entry["fourcc"]) == \
            table[entry["index"]]
    assert {entry["index"] for entry in lumps} >= {i for i, e in enumerate(table) if e[1]}
    for name, index in (("entities", 0), ("planes", 1), ("game_lump", GAME_LUMP)):
        ok("lump", "extract", console_map, name, "-o", tmp_path / f"{index}.bin")
        assert (tmp_path / f"{index}.bin").read_bytes() == lump(data, index)
    ok("lump", "replace", console_map, "planes", tmp_path / "1.bin", "-o", tmp_path / "same.bsp")
    assert (tmp_path / "same.bsp").read_bytes() == data
    planes = bytearray(content(data, 1))
    planes[12:16] = struct.pack(">f", 1234.5)       # plane 0's distance, big-endian
    (tmp_path / "planes.bin").write_bytes(planes)
    ok("lump", "replace", console_map, "planes", tmp_path / "planes.bin",
       "-o", tmp_path / "out.bsp")
    out = (tmp_path / "out.bsp").read_bytes()
    assert content(out, 1) == planes
    for index in set(range(64)) - {1}:
        assert lump(out, index) == lump(data, index)
    shown = cli_json("lump", "show", tmp_path / "out.bsp", "planes", "--rows", "0:1")["result"]
    assert shown["rows"][0]["cells"][3] == "1234.5"
    with Bsp.open(console_map) as bsp:
        assert all(bsp.read_lump(index) == lump(data, index) for index in range(64))
        bsp.replace_lump(1, bsp.read_lump(1))
        bsp.save(tmp_path / "api-same.bsp")
    assert (tmp_path / "api-same.bsp").read_bytes() == data


@pytest.mark.full
@pytest.mark.parametrize("name", SYNTHETIC)
def test_lump_show_and_records_equal_the_little_endian_source(name, tmp_path):
    pc, be = pc_and_console(name, tmp_path)
    for table in ("planes", "vertexes", "texinfo", "faces", "models", "map_flags"):
        little = cli_json("lump", "show", pc, table)["result"]
        big = cli_json("lump", "show", be, table)["result"]
        assert big["rows"] == little["rows"] and big["count"] == little["count"], table
    with Bsp.open(pc) as a, Bsp.open(be) as b:
        for table in ("PLANES", "FACES", "TEXINFO"):
            assert b.records(table).dtype.names == a.records(table).dtype.names
            assert b.records(table).tobytes() == content(be.read_bytes(), a.lump_index(table))
            little = a.records(table)
            assert b.records(table).astype(little.dtype).tobytes() == little.tobytes()


# -- static props --------------------------------------------------------------------------------

@pytest.mark.parametrize("name", SYNTHETIC)
def test_props_list_equals_the_little_endian_source(name, tmp_path):
    pc, be = pc_and_console(name, tmp_path)
    little = cli_json("props", "list", pc)["result"]
    big = cli_json("props", "list", be)["result"]
    assert big == little
    with Bsp.open(pc) as a, Bsp.open(be) as b:
        props_a, props_b = a.static_props, b.static_props
        assert len(props_b) == len(props_a)
        for index in range(len(props_a)):
            for field in ("origin", "angles", "model", "skin", "fade_max"):
                assert props_b.get(index, field) == props_a.get(index, field)


def test_props_list_on_the_real_map():
    if not CONSOLE_MAP.is_file():
        pytest.skip("../shared/corpus-console not present")
    result = cli_json("props", "list", CONSOLE_MAP)["result"]
    sprp = game_members(CONSOLE_MAP.read_bytes())[0][4]
    (models,) = struct.unpack_from(">i", sprp, 0)
    leaves_at = 4 + 128 * models
    (leaves,) = struct.unpack_from(">i", sprp, leaves_at)
    (props,) = struct.unpack_from(">i", sprp, leaves_at + 4 + 2 * leaves)
    assert result["version"] == 6 and result["record_size"] == 64
    assert len(result["models"]) == models and len(result["props"]) == props
    assert result["leaf_entries"] == leaves
    if props:
        at = leaves_at + 8 + 2 * leaves
        origin = struct.unpack_from(">3f", sprp, at)
        with Bsp.open(CONSOLE_MAP) as bsp:
            assert bsp.static_props.get(0, "origin") == origin
