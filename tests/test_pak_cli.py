"""`bspedit pak`: bspzip's verbs on real and synthetic maps."""
from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

import synthetic
from conftest import corpus_maps, run_cli
from test_pakfile import VMT, lump_bytes, source_map, stdlib_zip

TINY = Path(__file__).resolve().parent / "data" / "tiny.bsp"


def zip_of(path) -> zipfile.ZipFile:
    return zipfile.ZipFile(io.BytesIO(lump_bytes(path)))


def ok(*args) -> str:
    result = run_cli(*args)
    assert result.returncode == 0, result.stderr
    return result.stdout


def refused(*args) -> str:
    result = run_cli(*args)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("bspedit: ") and result.stderr.count("\n") == 1, result.stderr
    return result.stderr


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_list_matches_zipfile(path):
    listed = json.loads(ok("pak", "list", path, "--json"))["result"]["entries"]
    infos = zip_of(path).infolist()
    assert [(e["name"], e["size"], e["stored_size"], e["crc32"], e["offset"]) for e in listed] == \
        [(i.filename, i.file_size, i.compress_size, i.CRC, i.header_offset) for i in infos]
    assert [e["method"] for e in listed] == [{0: "store", 14: "lzma"}[i.compress_type]
                                             for i in infos]
    text = ok("pak", "list", path).splitlines()
    assert len(text) == len(infos) + 2
    assert text[0].split() == ["size", "stored", "method", "crc32", "name"]
    assert all(line.endswith(f"  {i.filename}") and f"{i.CRC:08x}" in line
               for line, i in zip(text[1:], infos))


@pytest.mark.parametrize("path", [pytest.param(TINY, id="tiny"),
                                  *corpus_maps("source")[-1:]])
def test_add_then_remove_is_byte_identical(path, tmp_path):
    payload = tmp_path / "skybox.vmt"
    payload.write_bytes(VMT)
    ok("pak", "add", path, payload, "--as", "Materials\\Skybox\\Test.VMT", "-o", tmp_path / "a.bsp")
    with zip_of(tmp_path / "a.bsp") as archive:
        assert archive.read("materials/skybox/test.vmt") == VMT and archive.testzip() is None
    refused_message = refused("pak", "add", tmp_path / "a.bsp", payload, "--as",
                              "materials/skybox/test.vmt", "-o", tmp_path / "b.bsp")
    assert "'materials/skybox/test.vmt' already exists (use --update" in refused_message
    assert not (tmp_path / "b.bsp").exists()
    ok("pak", "remove", tmp_path / "a.bsp", "materials/SKYBOX/*.vmt", "-o", tmp_path / "r.bsp")
    assert (tmp_path / "r.bsp").read_bytes() == path.read_bytes()


def test_in_place_add_update_and_repack(write_map, tmp_path):
    path = write_map(source_map(stdlib_zip({"materials/a.vmt": VMT, "sound/b.wav": bytes(5000)})))
    size = path.stat().st_size
    original = path.read_bytes()
    new = tmp_path / "new.vmt"
    new.write_bytes(b"new content")
    ok("pak", "add", path, new, "--as", "materials/a.vmt", "--update", "--compress", "--in-place")
    assert path.read_bytes()[1036:size] == original[1036:size]
    with zip_of(path) as archive:
        assert archive.read("materials/a.vmt") == b"new content" and archive.testzip() is None
    out = ok("pak", "repack", path, "--compress", "--in-place")
    assert "1 files re-encoded" in out                 # sound/b.wav; the 11-byte file stays stored
    with zip_of(path) as archive:
        assert [i.compress_type for i in archive.infolist()] == [0, 14]
        assert archive.read("sound/b.wav") == bytes(5000) and archive.testzip() is None
    ok("pak", "repack", path, "-o", tmp_path / "stored.bsp")
    with zip_of(tmp_path / "stored.bsp") as archive:
        assert [(i.filename, i.compress_type) for i in archive.infolist()] == \
            [("materials/a.vmt", 0), ("sound/b.wav", 0)]
        assert archive.read("sound/b.wav") == bytes(5000)
    assert "already a clean zip" in ok("pak", "repack", tmp_path / "stored.bsp", "--in-place")


def test_addlist_and_addfiles_read_bspzip_lists(write_map, tmp_path):
    path = write_map(source_map(stdlib_zip({"materials/old.vmt": b"old"})))
    (tmp_path / "one.vmt").write_bytes(b"one")
    (tmp_path / "two.txt").write_bytes(b"two")
    listing = tmp_path / "list.txt"
    listing.write_bytes(f"materials/one.vmt\r\n{tmp_path / 'one.vmt'}\r\n"
                        f"materials/old.vmt\r\n{tmp_path / 'two.txt'}\r\n\r\n".encode())
    stderr = refused("pak", "addlist", path, listing, "-o", tmp_path / "o.bsp")
    assert stderr.startswith(f"bspedit: {listing}:3: ") and "'materials/old.vmt' already exists" in stderr
    ok("pak", "addlist", path, listing, "--update", "-o", tmp_path / "o.bsp")
    with zip_of(tmp_path / "o.bsp") as archive:
        assert {i.filename: archive.read(i) for i in archive.infolist()} == \
            {"materials/old.vmt": b"two", "materials/one.vmt": b"one"}
    listing.write_text(f"materials/one.vmt\n{tmp_path / 'one.vmt'}\nmaterials/dangling.vmt\n")
    assert refused("pak", "addlist", path, listing, "-o", tmp_path / "x.bsp").startswith(
        f"bspedit: {listing}:3: 'materials/dangling.vmt' has no external file line")
    listing.write_text(f"materials/one.vmt\n{tmp_path / 'one.vmt'}\nmaterials/gone.vmt\n"
                       f"{tmp_path / 'gone.vmt'}\n")
    assert refused("pak", "addlist", path, listing, "-o", tmp_path / "x.bsp") == \
        f"bspedit: {listing}:4: {tmp_path / 'gone.vmt'}: No such file or directory\n"
    listing.write_text(f"{tmp_path / 'one.vmt'}\n{tmp_path / 'gone.txt'}\n")
    assert refused("pak", "addfiles", path, "x/", listing, "-o", tmp_path / "x.bsp") == \
        f"bspedit: {listing}:2: {tmp_path / 'gone.txt'}: No such file or directory\n"
    assert not (tmp_path / "x.bsp").exists()
    listing.write_text(f"{tmp_path / 'one.vmt'}\n{tmp_path / 'two.txt'}\n")
    ok("pak", "addfiles", path, "materials/mine/", listing, "-o", tmp_path / "f.bsp")
    assert zip_of(tmp_path / "f.bsp").namelist() == \
        ["materials/old.vmt", "materials/mine/one.vmt", "materials/mine/two.txt"]


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_extract_files_cubemaps_and_zip(path, tmp_path):
    archive = zip_of(path)
    ok("pak", "extract", path, tmp_path / "all")
    found = {p.relative_to(tmp_path / "all").as_posix(): p.read_bytes()
             for p in (tmp_path / "all").rglob("*") if p.is_file()}
    assert found == {i.filename: archive.read(i) for i in archive.infolist()}
    cubemaps = run_cli("pak", "extract", path, tmp_path / "cube", "--cubemaps")
    found = {p.relative_to(tmp_path / "cube").as_posix()
             for p in (tmp_path / "cube").rglob("*") if p.is_file()}
    assert found == {n for n in archive.namelist() if n.lower().endswith(".vtf")}
    assert cubemaps.returncode == (0 if found else 1)       # none: nothing matched
    ok("pak", "extract", path, "--to", tmp_path / "pak.zip")
    assert (tmp_path / "pak.zip").read_bytes() == lump_bytes(path)


def test_remove_cubemaps_and_unknown_names(tmp_path):
    path = tmp_path / "map.bsp"
    path.write_bytes(source_map(stdlib_zip({
        "materials/maps/m/c0_-384_96.vtf": b"c", "materials/maps/m/c0_-384_96.hdr.vtf": b"h",
        "materials/maps/m/cubemapdefault.vtf": b"d", "materials/custom/wall.vtf": b"w",
        "materials/maps/m/wall_0_-384_96.vmt": b"p"})))
    result = run_cli("pak", "remove", path, "nothing/*.txt", "-o", tmp_path / "o.bsp")
    assert result.returncode == 1 and not (tmp_path / "o.bsp").exists()
    assert result.stderr == f"bspedit: {path}: lump 40 (PAKFILE): no pak entry matches " \
        "'nothing/*.txt'; nothing written\n"
    ok("pak", "remove", path, "--cubemaps", "-o", tmp_path / "o.bsp")
    assert zip_of(tmp_path / "o.bsp").namelist() == ["materials/custom/wall.vtf",
                                                     "materials/maps/m/wall_0_-384_96.vmt"]


def test_zip_slip_and_other_families_are_refused(write_map, tmp_path):
    evil = stdlib_zip({"fine.txt": b"ok", "../../evil.txt": b"evil"})
    path = write_map(source_map(evil))
    assert "'../../evil.txt' has a '.' or '..' component: refused to extract" in \
        refused("pak", "extract", path, tmp_path / "out" / "x")
    assert not list(tmp_path.rglob("evil.txt")) and not (tmp_path / "out").exists()
    quake = write_map(synthetic.sample("q2"), "q2.bsp")
    for args in (("list", quake), ("extract", quake, "--to", tmp_path / "q.zip"),
                 ("add", quake, TINY, "--as", "x.txt", "-o", tmp_path / "q.bsp")):
        assert refused("pak", *args).endswith("Quake 2 (IBSP 38) maps have no pakfile\n")


@pytest.mark.parametrize("prefix", ["custom", "", "materials/custom/"])
def test_folder_add_then_extract_gives_the_same_files(prefix, tmp_path):
    folder = tmp_path / "custom"
    files = {"materials/custom/wall.vmt": b'"LightmappedGeneric" {}\n',
             "materials/custom/wall.vtf": bytes(range(256)) * 40,
             "sound/custom/hit.wav": b"RIFF" + bytes(100), "readme.txt": b"hello\r\n"}
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    out = tmp_path / "out.bsp"
    added = json.loads(ok("pak", "add", TINY, folder, *(["--as", prefix] if prefix else []),
                          "--compress", "-o", out, "--json"))["result"]
    base = prefix.strip("/") + "/" if prefix else ""
    assert [e["name"] for e in added["entries"]] == [base + name for name in sorted(files)]
    assert {e["source"] for e in added["entries"]} == {str(folder / name) for name in files}
    extracted = tmp_path / "extracted"
    ok("pak", "extract", out, extracted, *(f"{base}{name}" for name in files))
    found = {p.relative_to(extracted / base).as_posix(): p.read_bytes()
             for p in extracted.rglob("*") if p.is_file()}
    assert found == files


def test_extract_chosen_names_and_one_file_to_stdout(tmp_path):
    path = tmp_path / "map.bsp"
    path.write_bytes(source_map(stdlib_zip({"materials/a.vmt": VMT, "sound/b.wav": b"wave",
                                            "sound/c.wav": b"other"})))
    ok("pak", "extract", path, tmp_path / "some", "SOUND/*.wav")
    assert sorted(p.name for p in (tmp_path / "some").rglob("*") if p.is_file()) == \
        ["b.wav", "c.wav"]
    assert ok("pak", "extract", path, "-", "sound/b.wav") == "wave"
    assert "2 match: name one file" in refused("pak", "extract", path, "-", "sound/*")
    missing = run_cli("pak", "extract", path, tmp_path / "none", "nothing/*")
    assert missing.returncode == 1 and not (tmp_path / "none").exists()
    assert "no pak entry matches 'nothing/*'; nothing written" in missing.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run_cli("pak", "add", path, empty, "-o", tmp_path / "o.bsp")
    assert result.returncode == 1 and not (tmp_path / "o.bsp").exists()
    assert "--as PATH names a file" in refused("pak", "add", path, tmp_path / "some" / "sound" /
                                               "b.wav", "-o", tmp_path / "o.bsp")
