"""The top-level Python API: `import bspedit`, its views, one save, Stripper from Python."""
from __future__ import annotations

import shutil
import struct
import subprocess
import sys
import zipfile
from io import BytesIO
from pathlib import Path

import pytest

import bspedit
import synthetic
from bspedit.patching.stripper import parse_config
from conftest import CORPUS, ROOT, corpus_maps, run_cli

TINY = ROOT / "tests" / "data" / "tiny.bsp"
PROPS_MAP = CORPUS / "source" / "sdk2013_sdk_vehicles_v19.bsp"     # 31 props, a pak entry
VMT = b'"UnlitGeneric"\n{\n\t"$basetexture" "dev/dev_measuregeneric01"\n}\n'
CONFIG = ('modify:\n{\nmatch:\n{\n"classname" "worldspawn"\n}\ninsert:\n{\n"bspedit_patched" "1"\n}\n}\n'
          'filter:\n{\n"classname" "/^light_spot$/"\n}\n'
          'add:\n{\n"classname" "info_target"\n"targetname" "patched"\n}\n')


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.bsp"
    shutil.copyfile(TINY, path)
    return path


def lumps_of(path: Path) -> list[bytes]:
    with bspedit.open(path) as bsp:
        return [bsp.read_lump(lump.index) for lump in bsp.lumps]


# -- import bspedit ----------------------------------------------------------------------------
def test_import_is_cheap_and_names_load_on_first_use():
    code = ("import sys, bspedit; before = sorted(m for m in sys.modules if m.startswith(('bspedit',"
            " 'lark', 'pylzma', 'kaitaistruct'))); bspedit.Pakfile; print(before, 'bspedit.lumps.pakfile'"
            " in sys.modules, 'bspedit.patching.stripper' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["['bspedit',", "'bspedit.errors']", "True", "False"]


def test_exported_names_are_the_modules_own():
    from bspedit import bsp
    from bspedit.lumps import entities, pakfile, staticprops
    from bspedit.patching import apply as patching
    from bspedit.container import saving
    from bspedit.features import sky

    assert bspedit.Bsp is bsp.Bsp and bspedit.SaveResult is saving.SaveResult
    assert bspedit.EntityLump is entities.EntityLump and bspedit.Pakfile is pakfile.Pakfile
    assert bspedit.StaticProps is staticprops.StaticProps and bspedit.patch is patching.patch
    assert bspedit.skyname is sky.skyname and bspedit.__version__ == "0.2.0"
    assert set(bspedit.__all__) <= set(dir(bspedit))
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        bspedit.nothing  # noqa: B018


def test_open_is_a_context_manager_and_refuses_folders(tmp_path):
    with bspedit.open(TINY) as bsp:
        assert bsp.family.key == "source" and bsp.fileno() >= 0
    assert bsp.fileno() == -1
    with pytest.raises(bspedit.BspError, match="a folder, not a map file"):
        bspedit.open(tmp_path)


# -- save ----------------------------------------------------------------------------------------
def test_save_to_a_new_file_reports_checksums_and_leaves_the_map(tiny, tmp_path):
    original = tiny.read_bytes()
    with bspedit.open(tiny) as bsp:
        bsp.entities().find(classname="light")[0]["_light"] = "255 0 0 100"
        result = bsp.save(tmp_path / "out.bsp")
    assert tiny.read_bytes() == original
    assert result.written and result.target == str(tmp_path / "out.bsp")
    assert result.changed == ("lump 0 (ENTITIES)",) and not result.checksum_changed
    with bspedit.open(tmp_path / "out.bsp") as saved:
        assert saved.checksums() == result.checksums_after == result.checksums_before
        assert saved.entities().find(classname="light")[0]["_light"] == "255 0 0 100"


def test_save_in_place_then_compact_in_place_then_in_place_again(tiny):
    with bspedit.open(tiny) as bsp:
        bsp.entities().worldspawn["skyname"] = "sky_one"
        assert bsp.save().layout == "in-place"
        assert bspedit.skyname(bsp) == "sky_one"          # the map was read again
        bsp.entities().worldspawn["message"] = "two"
        assert bsp.save(layout="compact").layout == "compact"
        bsp.entities().worldspawn["skyname"] = "sky_three"     # on the file renamed over it
        bsp.save()
    with bspedit.open(tiny) as saved:
        world = saved.entities().worldspawn
        assert (world["skyname"], world["message"]) == ("sky_three", "two")


def test_save_refuses_the_map_itself_as_target(tiny):
    original = tiny.read_bytes()
    with bspedit.open(tiny) as bsp:
        bsp.entities().worldspawn["message"] = "x"
        with pytest.raises(bspedit.BspError, match="the output is the input map"):
            bsp.save(tiny)
    assert tiny.read_bytes() == original


def test_dry_run_and_keep_checksum(tiny, tmp_path):
    with bspedit.open(tiny) as bsp:
        bsp.replace_lump("PLANES", bytes(20))
        dry = bsp.save(tmp_path / "out.bsp", dry_run=True)
        assert not dry.written and dry.checksum_changed and not (tmp_path / "out.bsp").exists()
        with pytest.raises(bspedit.CheckFailed, match="would change"):
            bsp.save(tmp_path / "out.bsp", keep_checksum=True)
    assert not (tmp_path / "out.bsp").exists()


# -- views: one save stores them all -------------------------------------------------------------
@pytest.mark.skipif(not PROPS_MAP.exists(), reason="../shared/corpus not present")
@pytest.mark.parametrize("in_place", [False, True])
def test_one_save_stores_entities_pakfile_and_static_props(tmp_path, in_place):
    path = tmp_path / "map.bsp"
    shutil.copyfile(PROPS_MAP, path)
    target = None if in_place else tmp_path / "out.bsp"
    with bspedit.open(path) as bsp:
        old_pak = bsp.read_lump("PAKFILE")
        bsp.entities().worldspawn["message"] = "edited"
        bsp.pakfile.add("materials/bspedit/api.vmt", VMT)
        bsp.static_props.set(0, "origin", (1, 2, 3))
        result = bsp.save(target)
    assert set(result.changed) == {"lump 0 (ENTITIES)", "lump 35 (GAME_LUMP)", "lump 40 (PAKFILE)"}
    with bspedit.open(target or path) as saved, bspedit.open(PROPS_MAP) as original:
        assert saved.entities().worldspawn["message"] == "edited"
        assert saved.pakfile.read("materials/bspedit/api.vmt") == VMT
        assert saved.static_props.get(0, "origin") == (1.0, 2.0, 3.0)
        assert saved.static_props.records[1:] == original.static_props.records[1:]
        new_pak = saved.read_lump("PAKFILE")
        for lump in original.lumps:
            if lump.name not in ("ENTITIES", "GAME_LUMP", "PAKFILE"):
                assert saved.read_lump(lump.index) == original.read_lump(lump.index), lump.name
    assert zipfile.ZipFile(BytesIO(new_pak)).read("materials/bspedit/api.vmt") == VMT
    # in place only the new entry, a directory and an end record follow the old zip's bytes;
    # a new file gets a clean zip (the old directory is gone)
    assert new_pak.startswith(old_pak) == in_place


@pytest.mark.skipif(not PROPS_MAP.exists(), reason="../shared/corpus not present")
def test_edits_undone_in_every_view_save_the_same_bytes(tmp_path):
    with bspedit.open(PROPS_MAP) as bsp:
        pak, props = bsp.pakfile, bsp.static_props
        entry = pak.add("materials/bspedit/api.vmt", VMT)
        origin = props.get(0, "origin")
        props.set(0, "origin", (1, 2, 3))
        bsp.save(tmp_path / "edited.bsp")
        pak.remove(entry)
        props.set(0, "origin", origin)
        assert not bsp.dirty
        result = bsp.save(tmp_path / "same.bsp")
    assert result.changed == () and (tmp_path / "same.bsp").read_bytes() == PROPS_MAP.read_bytes()


def test_game_lump_view_is_saved(tiny, tmp_path):
    with bspedit.open(tiny) as bsp:
        assert not bsp.game_lump.replace_member("sprp", bsp.game_lump.payload("sprp"))
        assert not bsp.dirty
        bsp.game_lump.remove(["sprp"])
        bsp.save(tmp_path / "out.bsp")
    with bspedit.open(tmp_path / "out.bsp") as saved:
        assert [m.name for m in saved.game_lump.members] == []


def test_views_refuse_families_without_them(write_map):
    path = write_map(synthetic.sample("q1"))
    with bspedit.open(path) as bsp:
        with pytest.raises(bspedit.BspError, match="have no pakfile"):
            bsp.pakfile
        with pytest.raises(bspedit.BspError, match="have no game lump"):
            bsp.static_props


@pytest.mark.skipif(not PROPS_MAP.exists(), reason="../shared/corpus not present")
def test_matching_returns_nothing_quietly_and_the_cli_still_exits_1(tmp_path):
    with bspedit.open(PROPS_MAP) as bsp:
        names = [e.name for e in bsp.pakfile.entries]
        assert bsp.pakfile.matching("nothing/*") == []
        assert [e.name for e in bsp.pakfile.matching(["NOTHING", names[-1].upper(), "*"])] == names
    result = run_cli("pak", "remove", PROPS_MAP, "nothing/*", "-o", tmp_path / "out.bsp")
    assert result.returncode == 1 and "no pak entry matches 'nothing/*'" in result.stderr


# -- Stripper from Python --------------------------------------------------------------------------
@pytest.mark.parametrize("plugin_output", [False, True], ids=["model", "plugin-output"])
@pytest.mark.parametrize("path", corpus_maps("source"))
def test_patch_gives_the_bytes_the_cli_writes(path, plugin_output, tmp_path):
    config = tmp_path / "patch.cfg"
    config.write_text(CONFIG)
    flag = ["--plugin-output"] if plugin_output else []
    cli = run_cli("patch", path, config, "-o", tmp_path / "cli.bsp", *flag)
    assert cli.returncode == 0, cli.stderr
    with bspedit.open(path) as bsp:
        patched = bspedit.patch(bsp, [config], plugin_output=plugin_output)
        bsp.save(tmp_path / "api.bsp")
    assert patched.changed and [r.added for r in patched.report.results][2] == ["info_target 'patched'"]
    assert (tmp_path / "api.bsp").read_bytes() == (tmp_path / "cli.bsp").read_bytes()


def test_patch_that_matches_nothing_leaves_the_map(tiny):
    with bspedit.open(tiny) as bsp:
        patched = bspedit.patch(bsp, [parse_config('filter:\n{\n"classname" "nothing"\n}\n')])
        assert not patched.changed and patched.report.results[0].idle and not bsp.dirty


def test_refused_patch_leaves_the_entities_and_force_applies_it(tiny, tmp_path):
    config = tmp_path / "world.cfg"
    config.write_text('filter:\n{\n"classname" "worldspawn"\n}\n')
    with bspedit.open(tiny) as bsp:
        before = bsp.entities().to_bytes()
        with pytest.raises(bspedit.Refused, match="removes worldspawn") as refused:
            bspedit.patch(bsp, [config])
        assert refused.value.patched.report.after.entities == 2
        assert bsp.entities().to_bytes() == before and not bsp.dirty
        assert bspedit.patch(bsp, [config], force=True).changed
        assert bsp.entities().census().worldspawn is False


# -- skyname ------------------------------------------------------------------------------------
def _textures(*names: str) -> bytes:
    """A Quake 1 texture lump holding miptex headers named `names`."""
    heads = [name.encode().ljust(16, b"\0") + bytes(24) for name in names]
    offsets = [4 + 4 * len(names) + 40 * i for i in range(len(names))]
    return struct.pack(f"<i{len(names)}i", len(names), *offsets) + b"".join(heads)


@pytest.mark.parametrize("family, lumps, expected", [
    ("q1", {2: _textures("wall", "sky4", "sky5")}, "sky4"),
    ("q1", {0: b'{\n"classname" "worldspawn"\n"sky" "box_"\n}\n\0', 2: _textures("sky4")}, "box_"),
    ("q1", {2: _textures("wall")}, None),
    ("q2", {0: b'{\n"classname" "worldspawn"\n"sky" "unit2_"\n}\n\0'}, "unit2_"),
    ("goldsrc", {0: b'{\n"classname" "worldspawn"\n"skyname" ""\n}\n\0'}, None),
    ("q3", {1: struct.pack("<64sii", b"textures/skies/a", 0x2000, 0)
            + struct.pack("<64sii", b"textures/skies/b", 0x4, 0)}, "textures/skies/b"),
    ("rbsp", {1: struct.pack("<64sii", b"textures/skies/a", 0x4, 0)
              + struct.pack("<64sii", b"textures/skies/b", 0x2000, 0)}, "textures/skies/b"),
])
def test_skyname_is_read_the_way_each_family_finds_it(write_map, family, lumps, expected):
    lumps = {0: synthetic.ENTITIES} | lumps
    with bspedit.open(write_map(synthetic.make_map(family, lumps))) as bsp:
        assert bspedit.skyname(bsp) == expected
