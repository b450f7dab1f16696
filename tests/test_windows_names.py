"""Windows' file name rules (issue 31, bspedit.format.winnames) where bspedit names files after
map data: `pak extract` (Windows, or BSPEDIT_WINDOWS_NAMES=1), `dump`'s game lump member files,
`tex export`'s PNG names; and backslashes in the pak paths a user types."""
from __future__ import annotations

import io
import json
import os
import random
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import CORPUS
from test_pakfile import VMT, lump_bytes, raw_zip, source_map, stdlib_zip

from bspedit.bsp import Bsp
from bspedit.errors import BspError
from bspedit.format.winnames import (ENVIRONMENT, Clash, device, windows_component,
                                     windows_key, windows_names, windows_path, windows_paths)
from bspedit.lumps.pakfile import Pakfile, unsafe_name

TINY = Path(__file__).resolve().parent / "data" / "tiny.bsp"
SOURCE = CORPUS / "source" / "bspsrc_csgo_tooltextures_v21.bsp"      # in FAST_MAPS, 118 kB
LOBBY = CORPUS / "q1" / "bsptool_quake_mp_lobby.bsp"                  # in FAST_MAPS, 28 kB
needs_corpus = pytest.mark.skipif(not SOURCE.is_file() or not LOBBY.is_file(),
                                  reason="../shared/corpus not present")
# pak paths Windows cannot hold, what they are written as, and why
WEIRD = [("materials/con.vmt", "materials/con_.vmt", "Windows reserves CON"),
         ("materials/x/a?b.vmt", "materials/x/a_b.vmt", "Windows forbids '?' in names"),
         ("materials/x/trail.", "materials/x/trail_", "a Windows name cannot end in '.'"),
         ("sound/com1 .wav", "sound/com1_ .wav", "Windows reserves COM1"),
         ("materials/nul.txt.bak", "materials/nul_.txt.bak", "Windows reserves NUL"),
         ("materials/lpt\u00b9/deep.vmt", "materials/lpt\u00b9_/deep.vmt",
          "Windows reserves LPT\u00b9")]


def cli(*args: object, windows: str | None = None) -> subprocess.CompletedProcess:
    """`python -m bspedit ARGS` with BSPEDIT_WINDOWS_NAMES set to `windows` (None: unset)."""
    env = {k: v for k, v in os.environ.items() if k != ENVIRONMENT}
    if windows is not None:
        env[ENVIRONMENT] = windows
    return subprocess.run([sys.executable, "-m", "bspedit", *map(str, args)],
                          capture_output=True, text=True, encoding="utf-8", env=env)


def ok(*args: object, windows: str | None = None) -> subprocess.CompletedProcess:
    result = cli(*args, windows=windows)
    assert result.returncode == 0, result.stderr
    return result


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def pak_files(path: Path) -> dict[str, bytes]:
    """The map's pak entries as Python's zipfile reads them."""
    with zipfile.ZipFile(io.BytesIO(lump_bytes(path))) as archive:
        return {i.filename: archive.read(i) for i in archive.infolist() if not i.is_dir()}


def with_entries(tmp_path: Path, base: Path, names: list[str], out: str = "map.bsp") -> Path:
    """A copy of `base` with `names` packed by bspedit's own `pak addlist`, each file holding
    its name."""
    lines = []
    for n, name in enumerate(names):
        source = tmp_path / f"source{n}.txt"
        source.write_bytes(name.encode())
        lines += [name, str(source)]
    listing = tmp_path / "list.txt"
    listing.write_text("\n".join(lines) + "\n", encoding="utf-8")
    ok("pak", "addlist", base, listing, "-o", tmp_path / out)
    return tmp_path / out


# -- the mapping -------------------------------------------------------------------------------
@pytest.mark.parametrize("char", list('<>:"|?*') + ["\x01", "\x1f", "\0"])
def test_forbidden_characters_become_underscores(char):
    assert windows_path(f"materials/a{char}b.vmt").path == "materials/a_b.vmt"
    reason = windows_component(f"a{char}{char}b").reasons
    assert len(reason) == 1 and reason[0].startswith("Windows forbids ")


@pytest.mark.parametrize("name, mapped", [("foo.", "foo_"), ("foo ", "foo_"), ("foo. .", "foo. _"),
                                          (" ", "_"), ("...", ".._"), ("a ./b", "a _/b")])
def test_a_trailing_dot_or_space_becomes_an_underscore(name, mapped):
    assert windows_path(name).path == mapped


@pytest.mark.parametrize("name, mapped", [
    ("con", "con_"), ("CON", "CON_"), ("Con.vmt", "Con_.vmt"), ("NUL.txt.bak", "NUL_.txt.bak"),
    ("prn.x", "prn_.x"), ("aux", "aux_"), ("com1 .txt", "com1_ .txt"), ("COM9", "COM9_"),
    ("com0.vmt", "com0_.vmt"), ("lpt0", "lpt0_"), ("LPT5.vtf", "LPT5_.vtf"),
    ("COM\u00b9", "COM\u00b9_"), ("lpt\u00b2.x", "lpt\u00b2_.x"), ("com\u00b3", "com\u00b3_"),
    ("conin$", "conin$_"), ("CONOUT$.log", "CONOUT$_.log"), ("con/x.vmt", "con_/x.vmt"),
    ("con.", "con_"), ("nul. ", "nul_._")])
def test_device_names_get_an_underscore_after_them(name, mapped):
    assert windows_path(name).path == mapped
    assert device(name.partition("/")[0]) is not None


@pytest.mark.parametrize("name", [
    "console.vmt", "com10", "lpt", "com", "xcon", "a.con", "nul_", "auxiliary.vmt", "com1x.vmt",
    "materials/maps/cp_stronghold/c-896_120_320.hdr.vtf", "sp_hdr_0.vhv", ".hidden",
    "models/props/Crate01.mdl", "materials/Мир/été.vmt", "a b/c d.txt", "x..y", "~$tmp"])
def test_ordinary_names_are_unchanged(name):
    assert windows_path(name) == (name, ())


@needs_corpus
def test_the_corpus_pak_entries_are_unchanged():
    names = [e.name for e in Bsp.open(str(CORPUS / "source" /
                                          "tf2classified_cp_stronghold_lzma.bsp")).pakfile.entries]
    assert len(names) == 41
    assert all(windows_path(name) == (name, ()) for name in names)
    assert [m.path for m in windows_paths(names)] == names


def _random_names(count: int) -> list[str]:
    rng = random.Random(31)
    alphabet = "aB./\\ :?*<>|\"\x01\x1f" + "con" + "lptCOM1\u00b9$" + "é"
    return [rng.choice(["", "con", "lpt1", "..", "."]) +
            "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 14)))
            for _ in range(count)]


def test_mapping_is_idempotent_and_windows_safe():
    for name in _random_names(4000):
        path, reasons = windows_path(name)
        assert windows_path(path) == (path, ()), name
        assert (path != name.replace("\\", "/")) == bool(reasons), name
        for part in path.split("/"):
            assert not set(part) & set('<>:"|?*\\') and all(ord(c) > 31 for c in part), name
            assert part in ("",) or not part.endswith((".", " ")), name
            assert device(part) is None, name


def test_no_mapped_name_leaves_the_folder():
    for name in _random_names(4000) + ["a\\..\\..\\x", "..\\x", "a/../../x", "./x", "..."]:
        path = windows_path(name).path
        assert all(part not in (".", "..") for part in path.split("/")), name
        if unsafe_name(name) is None:          # what extract lets through stays inside
            assert unsafe_name(path) is None, (name, path)


def test_folders_differing_in_case_are_one_and_clashes_are_named():
    mapped = windows_paths(["Materials/a.vmt", "materials/b.vmt", "MATERIALS/Sub/c", "x"])
    assert [m.path for m in mapped] == ["Materials/a.vmt", "Materials/b.vmt",
                                        "Materials/Sub/c", "x"]
    for names, at, folder in ((["a/x?.vmt", "b", "a/x*.vmt"], "a/x_.vmt", False),
                              (["m/\u00e9.vmt", "m/\u00c9.VMT"], "m/\u00c9.VMT", False),
                              (["m/con.vmt", "m/con_.vmt"], "m/con_.vmt", False),
                              (["m/a.", "m/A_"], "m/A_", False),
                              (["m/\u00c9", "m/\u00e9/x.vmt"], "m/\u00c9", True),
                              (["m/e/x.vmt", "M/E"], "m/E", True)):
        with pytest.raises(Clash) as caught:
            windows_paths(names)
        clash = caught.value
        assert (clash.first, clash.second, clash.path, clash.folder) == \
            (0, len(names) - 1, at, folder)
    assert windows_key("straße/Ä") == "STRAßE/Ä"


def test_the_switch(monkeypatch):
    monkeypatch.delenv(ENVIRONMENT, raising=False)
    assert windows_names() is (os.name == "nt")
    for value, on in (("1", True), ("0", os.name == "nt"), ("", os.name == "nt")):
        monkeypatch.setenv(ENVIRONMENT, value)
        assert windows_names() is on
    monkeypatch.delenv(ENVIRONMENT)
    monkeypatch.setattr(os, "name", "nt")
    assert windows_names()


# -- Pakfile.extract ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", [b"a\\..\\..\\evil.txt", b"..\\evil.txt", b"\\evil.txt",
                                  b"c:evil.txt", b"a/../../evil.txt", b"con/../../evil.txt"])
@pytest.mark.parametrize("windows", [True, False])
def test_escapes_are_refused_with_either_rules(name, windows, tmp_path):
    pak = Pakfile.from_bytes(raw_zip([(b"fine.txt", b"ok"), (name, b"evil")]))
    with pytest.raises(BspError, match="refused to extract"):
        pak.extract(pak.entries, tmp_path / "out" / "deep", windows=windows)
    assert not (tmp_path / "out").exists() and not list(tmp_path.rglob("evil.txt"))


def test_extract_writes_the_mapped_names(tmp_path):
    pak = Pakfile.from_bytes(stdlib_zip({"m/con.vmt": b"c", "m/a?.vmt": b"q", "m/ok.vmt": b"o",
                                         "M/Sub/x.vmt": b"x"}))
    plan = pak.extract_plan(pak.entries, windows=True)
    assert [(t.path, t.reasons) for t in plan] == [
        ("m/con_.vmt", ("Windows reserves CON",)),
        ("m/a_.vmt", ("Windows forbids '?' in names",)), ("m/ok.vmt", ()), ("m/Sub/x.vmt", ())]
    assert pak.extract(pak.entries, tmp_path / "out", windows=True) == 4
    assert tree(tmp_path / "out") == {"m/con_.vmt": b"c", "m/a_.vmt": b"q", "m/ok.vmt": b"o",
                                      "m/Sub/x.vmt": b"x"}
    pak.extract(pak.entries, tmp_path / "plain", windows=False)
    assert tree(tmp_path / "plain") == {"m/con.vmt": b"c", "m/a?.vmt": b"q", "m/ok.vmt": b"o",
                                        "M/Sub/x.vmt": b"x"}


# -- pak extract -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def weird_map(tmp_path_factory) -> Path:
    """The corpus map with WEIRD's entries and an ordinary one, packed by `pak addlist`."""
    if not SOURCE.is_file():
        pytest.skip("../shared/corpus not present")
    folder = tmp_path_factory.mktemp("weird")
    return with_entries(folder, SOURCE, [name for name, _, _ in WEIRD] + ["materials/ok.vmt"])


def test_pak_extract_with_the_variable_maps_names(weird_map, tmp_path):
    result = ok("pak", "extract", weird_map, tmp_path / "out", windows="1")
    expected = {name: data for name, data in pak_files(weird_map).items()}
    for name, mapped, _ in WEIRD:
        assert expected.pop(name) == name.encode()
        expected[mapped] = name.encode()
    assert tree(tmp_path / "out") == expected
    assert result.stderr.splitlines() == [
        f"pak extract: {name!r} written as {mapped!r} ({why})" for name, mapped, why in WEIRD]
    files = len(expected)
    assert result.stdout.startswith(f"wrote {files} files (")
    envelope = json.loads(ok("pak", "extract", weird_map, tmp_path / "json", "--json",
                             windows="1").stdout)
    assert envelope["result"]["renamed"] == [
        {"name": name, "written_as": mapped, "reasons": [why]} for name, mapped, why in WEIRD]
    assert envelope["result"]["files"] == files and envelope["exit"] == 0
    assert tree(tmp_path / "json") == expected


def test_pak_extract_without_the_variable_is_as_before(weird_map, tmp_path):
    if os.name == "nt":
        pytest.skip("Windows always maps names")
    result = ok("pak", "extract", weird_map, tmp_path / "out")
    stored = pak_files(weird_map)
    assert tree(tmp_path / "out") == stored
    assert result.stderr == ""
    assert result.stdout == f"wrote {len(stored)} files ({sum(map(len, stored.values()))} " \
                            f"bytes) to {tmp_path / 'out'}, CRC-checked\n"
    for value in ("0", ""):
        again = ok("pak", "extract", weird_map, tmp_path / f"out{value}", windows=value)
        assert tree(tmp_path / f"out{value}") == stored and again.stderr == ""
    envelope = json.loads(ok("pak", "extract", weird_map, tmp_path / "json", "--json").stdout)
    assert envelope["result"] == {"output": str(tmp_path / "json"), "entries": list(stored),
                                  "files": len(stored),
                                  "bytes": sum(map(len, stored.values()))}


@needs_corpus
@pytest.mark.parametrize("names, landing", [
    (["materials/a?.vmt", "materials/a*.vmt"], "one file"),
    (["materials/\u00e9.vmt", "materials/\u00c9.vmt"], "one file"),
    (["materials/\u00c9", "materials/\u00e9/x.vmt"], "a file and a folder")],
    ids=["mapped", "case", "folder"])
def test_pak_extract_refuses_entries_landing_on_one_file(names, landing, tmp_path):
    path = with_entries(tmp_path, SOURCE, names)
    existing = tmp_path / "existing"
    existing.mkdir()
    (existing / "keep.txt").write_bytes(b"kept")
    for target in (tmp_path / "new", existing):
        result = cli("pak", "extract", path, target, windows="1")
        assert result.returncode == 2 and result.stdout == ""
        assert result.stderr.count("\n") == 1
        assert f"pak entries {names[0]!r} and {names[1]!r} would be {landing} on Windows (" \
            in result.stderr and result.stderr.endswith("): refused to extract\n")
    assert not (tmp_path / "new").exists() and tree(existing) == {"keep.txt": b"kept"}
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]   # no staging left
    if os.name != "nt":                  # Linux holds both, as it always did
        ok("pak", "extract", path, tmp_path / "plain")
        assert tree(tmp_path / "plain") == pak_files(path)


def test_pak_extract_refuses_backslash_escapes_with_the_variable(tmp_path):
    path = tmp_path / "map.bsp"
    path.write_bytes(source_map(raw_zip([(b"fine.txt", b"ok"),
                                         (b"a\\..\\..\\evil.txt", b"evil")])))
    for value in ("1", None):
        result = cli("pak", "extract", path, tmp_path / "out" / "x", windows=value)
        assert result.returncode == 2
        assert "'a\\\\..\\\\..\\\\evil.txt' has a '.' or '..' component: refused to extract" \
            in result.stderr
    assert not (tmp_path / "out").exists() and not list(tmp_path.rglob("evil.txt"))


# -- backslashes in the pak paths a user types ---------------------------------------------------
def test_backslash_paths_are_pak_paths(tmp_path):
    payload = tmp_path / "bar.vmt"
    payload.write_bytes(VMT)
    added = tmp_path / "added.bsp"
    ok("pak", "add", TINY, payload, "--as", "Materials\\Foo\\Bar.vmt", "-o", added)
    assert pak_files(added)["materials/foo/bar.vmt"] == VMT
    one = subprocess.run([sys.executable, "-m", "bspedit", "pak", "extract", str(added), "-",
                          "materials\\foo\\bar.vmt"], capture_output=True)
    assert one.returncode == 0 and one.stdout == VMT
    ok("pak", "extract", added, tmp_path / "out", "MATERIALS\\foo\\*.vmt")
    assert tree(tmp_path / "out") == {"materials/foo/bar.vmt": VMT}
    update = json.loads(ok("pak", "add", added, payload, "--as", "materials\\foo\\bar.vmt",
                           "--update", "-o", tmp_path / "u.bsp", "--json").stdout)
    assert [(e["name"], e["action"]) for e in update["result"]["entries"]] == \
        [("materials/foo/bar.vmt", "updated")]
    for pattern in ("materials\\foo\\bar.vmt", "Materials\\FOO\\*.vmt"):
        removed = tmp_path / "removed.bsp"
        out = json.loads(ok("pak", "remove", added, pattern, "-o", removed, "--json").stdout)
        assert out["result"]["removed"] == ["materials/foo/bar.vmt"]
        assert removed.read_bytes() == TINY.read_bytes()


def test_backslash_paths_in_lists_and_prefixes(tmp_path):
    (tmp_path / "in" / "sub").mkdir(parents=True)
    (tmp_path / "in" / "sub" / "x.vmt").write_bytes(b"x")
    listing = tmp_path / "list.txt"
    listing.write_text(f"materials\\listed\\y.vmt\n{tmp_path / 'in' / 'sub' / 'x.vmt'}\n")
    ok("pak", "addlist", TINY, listing, "-o", tmp_path / "a.bsp")
    ok("pak", "add", tmp_path / "a.bsp", tmp_path / "in", "--as", "materials\\pre\\", "-o",
       tmp_path / "b.bsp")
    files = (tmp_path / "files.txt")
    files.write_text(f"{tmp_path / 'in' / 'sub' / 'x.vmt'}\n")
    ok("pak", "addfiles", tmp_path / "b.bsp", "materials\\files\\", files, "-o",
       tmp_path / "c.bsp")
    names = set(pak_files(tmp_path / "c.bsp"))
    assert {"materials/listed/y.vmt", "materials/pre/sub/x.vmt",
            "materials/files/x.vmt"} <= names


# -- dump: game lump member ids ----------------------------------------------------------------
def _renamed_member(tmp_path: Path, new: bytes) -> Path:
    """The corpus map with its second game lump member's id stored as `new` (4 bytes, as the
    file holds it: little-endian)."""
    data = bytearray(SOURCE.read_bytes())
    with Bsp.open(str(SOURCE)) as bsp:
        lump = bsp.lumps[bsp.lump_index("GAME_LUMP")]
        assert [m.name for m in bsp.game_lump.members] == ["sprp", "dprp"]
    assert struct.unpack_from("<i", data, lump.offset)[0] == 2
    data[lump.offset + 4 + 16:lump.offset + 4 + 20] = new
    path = tmp_path / "members.bsp"
    path.write_bytes(bytes(data))
    return path


def _members(folder: Path) -> list[tuple[str, str]]:
    manifest = json.loads((folder / "manifest.json").read_text())
    return [(m["id"], m["file"]) for entry in manifest["lumps"]
            for m in entry.get("members") or ()]


@needs_corpus
def test_dump_member_named_like_a_device(tmp_path):
    path = _renamed_member(tmp_path, b"1MOC")       # id COM1
    ok("dump", path, tmp_path / "win", windows="1")
    members = _members(tmp_path / "win")
    assert [(i, f.rpartition("/")[2]) for i, f in members] == [("sprp", "sprp.bin"),
                                                               ("COM1", "COM1_.bin")]
    assert all((tmp_path / "win" / f).is_file() for _, f in members)
    ok("build", tmp_path / "win", "-o", tmp_path / "back.bsp")
    assert (tmp_path / "back.bsp").read_bytes() == path.read_bytes()
    if os.name != "nt":
        ok("dump", path, tmp_path / "plain")
        assert [f.rpartition("/")[2] for _, f in _members(tmp_path / "plain")] == \
            ["sprp.bin", "COM1.bin"]


@needs_corpus
def test_dump_member_ids_differing_in_case(tmp_path):
    path = _renamed_member(tmp_path, b"PRPS")       # id SPRP beside sprp
    ok("dump", path, tmp_path / "win", windows="1")
    assert _members(tmp_path / "win") == []          # both stay in the whole lump's file
    ok("build", tmp_path / "win", "-o", tmp_path / "back.bsp")
    assert (tmp_path / "back.bsp").read_bytes() == path.read_bytes()
    if os.name != "nt":
        ok("dump", path, tmp_path / "plain")
        assert [i for i, _ in _members(tmp_path / "plain")] == ["sprp", "SPRP"]


# -- tex export: PNG names -------------------------------------------------------------------------
@needs_corpus
def test_tex_export_of_a_texture_named_like_a_device(tmp_path):
    renamed = tmp_path / "con.bsp"
    ok("tex", "rename", LOBBY, "128_grey_3", "con", "-o", renamed)
    palette = tmp_path / "palette.lmp"
    palette.write_bytes(bytes(range(256)) * 3)
    win = json.loads(ok("tex", "export", renamed, tmp_path / "win", "--palette", palette,
                        "--json", windows="1").stdout)
    assert [Path(f).name for f in win["result"]["files"]] == ["con_.png"]
    assert sorted(tree(tmp_path / "win")) == ["con_.png"]
    if os.name != "nt":
        ok("tex", "export", renamed, tmp_path / "plain", "--palette", palette)
        assert sorted(tree(tmp_path / "plain")) == ["con.png"]
        assert tree(tmp_path / "plain")["con.png"] == tree(tmp_path / "win")["con_.png"]

