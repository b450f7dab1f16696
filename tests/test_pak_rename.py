"""`pak rename` (`Pakfile.rename`, `features.pack.rename`): the entry keeps its stored bytes
and its place, Python's zipfile (the oracle) reads the new name with the old content; with
--references the pakfile's materials and the entity keys that name it are rewritten in the
form each is written, and nothing else changes; refusals write nothing."""
from __future__ import annotations

import io
import json
import shutil
import zipfile

import pytest

from bspedit.bsp import Bsp
from bspedit.errors import BspError
from bspedit.features.pack.rename import find_references, rename, renamed_value
from bspedit.lumps.pakfile import pak_index
from conftest import CORPUS, run_cli

TESTMAP = CORPUS / "source" / "valvebsp_testmap.bsp"         # cubemaps, patch materials
LZMA_MAP = CORPUS / "source" / "tf2classified_cp_stronghold_lzma.bsp"
QUAKE = CORPUS / "q1" / "slipgate_b_batt0.bsp"
CUBEMAP = "materials/maps/testmap/c0_-384_96.vtf"
WATER = "materials/maps/testmap/water/water_sawmill_0_-384_96.vmt"


def needs(*maps):
    missing = [m for m in maps if not m.exists()]
    return pytest.mark.skipif(bool(missing), reason="../shared/corpus not present")


def zip_of(path) -> zipfile.ZipFile:
    with Bsp.open(str(path)) as bsp:
        return zipfile.ZipFile(io.BytesIO(bsp.read_lump(pak_index(bsp))))


@pytest.mark.parametrize("kind", ["stored", "lzma"])
def test_rename_keeps_the_bytes_and_the_place(kind, tmp_path):
    source = {"stored": TESTMAP, "lzma": LZMA_MAP}[kind]
    if not source.exists():
        pytest.skip("../shared/corpus not present")
    before = zip_of(source)
    names = before.namelist()
    old = names[len(names) // 2]
    out = tmp_path / "renamed.bsp"
    done = run_cli("pak", "rename", source, old.upper(), "renamed/Moved.bin", "-o", out,
                   "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["result"]["new"] == "renamed/moved.bin"
    after = zip_of(out)
    assert after.testzip() is None
    assert after.namelist() == [n if n != old else "renamed/moved.bin" for n in names]
    info_old, info_new = before.getinfo(old), after.getinfo("renamed/moved.bin")
    assert (info_new.compress_type, info_new.CRC, info_new.compress_size, info_new.file_size) \
        == (info_old.compress_type, info_old.CRC, info_old.compress_size, info_old.file_size)
    assert after.read("renamed/moved.bin") == before.read(old)
    for name in names:
        if name != old:
            assert after.read(name) == before.read(name)


@needs(TESTMAP)
def test_references_rewrite_only_the_values_that_name_it(tmp_path):
    """Renaming a cubemap texture: the two patch materials whose $envmap names it (without
    folder or extension) now name the new one; every other byte of them is kept."""
    before = zip_of(TESTMAP)
    out = tmp_path / "renamed.bsp"
    done = run_cli("pak", "rename", TESTMAP, CUBEMAP, "materials/maps/testmap/moved/cube.vtf",
                   "--references", "-o", out, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)["result"]
    changed = {row["path"] for row in result["references"]["materials"]}
    assert changed == {"materials/maps/testmap/water/water_doublecross_0_-384_96.vmt", WATER}
    after = zip_of(out)
    for name in before.namelist():
        if name in changed:
            text = before.read(name)
            assert b'"maps/testmap/c0_-384_96"' in text
            assert after.read(name) == text.replace(b'"maps/testmap/c0_-384_96"',
                                                    b'"maps/testmap/moved/cube"')
        elif name != CUBEMAP:
            assert after.read(name) == before.read(name)
    with Bsp.open(str(TESTMAP)) as old, Bsp.open(str(out)) as new:
        assert new.entities().to_bytes() == old.entities().to_bytes()


@needs(TESTMAP)
def test_entity_keys_and_the_texdata_warning(tmp_path):
    """A model packed and named by an entity's key (as written, in another case) is renamed
    with the key; a renamed material that faces use is warned about (TEXDATA keeps it)."""
    copy = tmp_path / "map.bsp"
    with Bsp.open(str(TESTMAP)) as bsp:
        bsp.pakfile.add("models/props/crate.mdl", b"IDST fake model")
        world = next(e for e in bsp.entities() if e.get("classname") == "worldspawn")
        world.set("model_note", "models/Props/Crate.mdl")
        world.set("other", "models/props/crate.mdl.bak")
        bsp.save(str(copy))
    with Bsp.open(str(copy)) as bsp:
        done = rename(bsp, "models/props/crate.mdl", "models/props/box.mdl", references=True)
        assert done.references is not None
        assert [(k[1], k[3], k[4]) for k in done.references.keys] == \
            [("model_note", "models/Props/Crate.mdl", "models/props/box.mdl")]
        world = next(e for e in bsp.entities() if e.get("classname") == "worldspawn")
        assert world["model_note"] == "models/props/box.mdl"
        assert world["other"] == "models/props/crate.mdl.bak"
        assert rename(bsp, WATER, "materials/w.vmt").texdata == [13]
    warned = run_cli("pak", "rename", copy, WATER, "materials/w.vmt", "-o", tmp_path / "w.bsp")
    assert warned.returncode == 0 and "1 TEXDATA row(s) name" in warned.stderr


@pytest.mark.parametrize("value,old,new,kind,expected", [
    ("maps/x/foo", "materials/maps/x/foo.vtf", "materials/maps/y/bar.vtf", "texture",
     "maps/y/bar"),
    ("maps/x/foo", "materials/maps/x/foo.vtf", "materials/maps/y/bar.vtf", "material", None),
    ("maps/x/foo", "materials/maps/x/foo.vmt", "materials/maps/y/bar.vmt", "material",
     "maps/y/bar"),
    ("Maps\\X\\Foo.VTF", "materials/maps/x/foo.vtf", "materials/a.vtf", None, "a.vtf"),
    ("materials/maps/x/foo.vmt", "materials/maps/x/foo.vmt", "materials/b.vmt", None,
     "materials/b.vmt"),
    ("*#weapons/Shot.wav", "sound/weapons/shot.wav", "sound/w/s.wav", None, "*#w/s.wav"),
    ("weapons/shot.wav", "sound/weapons/shot.wav", "other/s.wav", None, None),
    ("maps/x/foo", "materials/maps/x/foo.vtf", "textures/bar.vtf", "texture", None),
    ("models/a.mdl", "models/a.mdl", "models/b.mdl", None, "models/b.mdl"),
    ("a.mdl", "models/a.mdl", "models/b.mdl", None, None),
    ("", "models/a.mdl", "models/b.mdl", None, None),
])
def test_renamed_value(value, old, new, kind, expected):
    assert renamed_value(value, old, new, kind) == expected


@needs(TESTMAP)
def test_material_parameters_are_judged_by_their_type():
    """A value without extension names a texture under a texture parameter ($envmap) and a
    material under a material one (include), never both."""
    with Bsp.open(str(TESTMAP)) as bsp:
        pak = bsp.pakfile
        as_texture = find_references(pak, [], CUBEMAP, "materials/t.vtf")
        as_material = find_references(pak, [], WATER, "materials/m.vmt")
    assert len(as_texture.materials) == 2
    assert list(as_material.materials) == [
        "materials/maps/testmap/maps/testmap/water/water_sawmill_0_-384_96_depth_48.vmt"]


@needs(TESTMAP, QUAKE)
@pytest.mark.parametrize("old,new,message", [
    ("materials/none.vtf", "materials/x.vtf", "no pak entry 'materials/none.vtf'"),
    (CUBEMAP, "materials/maps/testmap/c0_384_96.vtf", "already exists: remove it first"),
    (CUBEMAP, CUBEMAP.upper(), "already exists (the same path)"),
    (CUBEMAP, "../escape.vtf", "has a '.' or '..' component"),
    (CUBEMAP, "/abs.vtf", "materials"),      # a leading slash is dropped, as the engine does
    (CUBEMAP, "c:/x.vtf", "contains ':'"),
    (CUBEMAP, "materials/", "names no file"),
])
def test_refusals_write_nothing(tmp_path, old, new, message):
    out = tmp_path / "out.bsp"
    done = run_cli("pak", "rename", TESTMAP, old, new, "-o", out)
    if message == "materials":
        assert done.returncode == 0 and zip_of(out).namelist().count("abs.vtf") == 1
        return
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not out.exists()


@needs(QUAKE)
def test_a_map_without_a_pakfile(tmp_path):
    copy = tmp_path / "q1.bsp"
    shutil.copyfile(QUAKE, copy)
    done = run_cli("pak", "rename", copy, "a", "b", "--in-place")
    assert done.returncode == 2 and "maps have no pakfile" in done.stderr
    assert copy.read_bytes() == QUAKE.read_bytes()


def test_a_console_pakfile_keeps_its_preload_section(tmp_path):
    """XZP2 (Xbox 360): the renamed entry keeps its preload data; the map saved reads back
    with a preload section that matches its directory."""
    from conftest import CONSOLE_MAP

    if not CONSOLE_MAP.exists():
        pytest.skip("../shared/corpus-console not present")
    out = tmp_path / "renamed.bsp"
    with Bsp.open(str(CONSOLE_MAP)) as bsp:
        pak = bsp.pakfile
        assert not pak.compatible
        entry = next(e for e in pak.entries if e.name.endswith(".vmt"))
        data, names = pak.read(entry), [e.name for e in pak.entries]
        with pytest.raises(BspError, match="preload section"):
            pak.rename(pak.entries[0], "materials/preload.bin")
        pak.rename(entry, "materials/renamed.vmt")
        bsp.save(str(out))
    with Bsp.open(str(out)) as bsp:
        pak = bsp.pakfile
        assert pak.preload_problem is None
        assert [e.name for e in pak.entries] == \
            [n if n != entry.name else "materials/renamed.vmt" for n in names]
        assert pak.read("materials/renamed.vmt") == data
