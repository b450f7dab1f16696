"""The game's file system (bspedit.features.pack.gamefs): gameinfo.txt search paths, VPKs and
case-insensitive lookups, on the real mods in ../shared/content (skipped when absent) and on
synthetic game folders."""
from __future__ import annotations

import os
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from bspedit.errors import BspError
from bspedit.features.pack.gamefs import GameFS
from bspedit.features.pack.gameinfo import condition_true, parse_search_paths
from bspedit.features.pack.model import Location
from bspedit.features.pack.vpk import VpkMount, dir_file

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT.parent / "shared" / "content"
needs_content = pytest.mark.skipif(not (CONTENT / "README.md").is_file(),
                                   reason="../shared/content not present")
VPKS = CONTENT / "vpk"


def write_gameinfo(folder: Path, search_paths: str, name: str = "gameinfo.txt") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text('"GameInfo"\n{\n\tgame "Test"\n\tFileSystem\n\t{\n'
                               '\t\tSteamAppId 243730\n\t\tSearchPaths\n\t\t{\n'
                               f"{search_paths}\n\t\t}}\n\t}}\n}}\n")
    return folder


def write_vpk(dir_path: Path, files: dict[str, bytes]) -> Path:
    """A small VPK v2 with its data in a `_000` archive (srctools' writer)."""
    from srctools.vpk import VPK
    with VPK(str(dir_path), mode="w", dir_data_limit=0, version=2) as vpk:
        for name, data in files.items():
            vpk.add_file(name, data)
    return dir_path


# --- the real mods ---------------------------------------------------------------------------

@needs_content
def test_msrc_mod_files_and_missing_base_game():
    fs = GameFS.load(CONTENT / "msrc")
    assert os.path.basename(fs.gameinfo) == "gameinfo.txt"
    first = fs.search_paths[0]
    assert (first.kind, first.path, first.exists, first.base) == (
        "folder", str(CONTENT / "msrc"), True, False)
    # every other search path is the base game (HL2/EP2), absent here and reported
    assert all(sp.base and not sp.exists for sp in fs.search_paths[1:])
    assert len(fs.problems) == len(fs.search_paths) - 1
    assert any("hl2_textures_dir.vpk" in p for p in fs.problems)
    # `gamebin`, `game_lv` and `platform` lines are not asset search paths
    assert not any("platform" in sp.path or "bin" in sp.path.split(os.sep)
                   or "hl2_lv" in sp.path for sp in fs.search_paths)
    # the maps name textures with a leading slash and in capitals
    loc = fs.locate("/MATERIALS/MADDOOR.vmt")
    assert loc == Location("loose", str(CONTENT / "msrc"), True, False)
    data = fs.read("materials\\maddoor.vtf")
    assert data is not None and data == (CONTENT / "msrc/materials/maddoor.vtf").read_bytes()
    assert fs.locate("materials/sky_day01_01.vmt") is None      # base game, not installed
    assert fs.read("materials/sky_day01_01.vmt") is None


@needs_content
def test_portalcollab_capitalised_gameinfo_and_vpk_without_archives():
    fs = GameFS.load(CONTENT / "portalcollab")
    assert os.path.basename(fs.gameinfo) == "GameInfo.txt"
    kinds = [(sp.kind, os.path.basename(sp.path), sp.base) for sp in fs.search_paths[:3]]
    assert kinds == [("folder", "portalcollab", False),
                     ("vpk", "shared_content_v7_0_dir.vpk", False),
                     ("vpk", "portal_sound_vo_english_dir.vpk", True)]
    # `mod+mod_write |gameinfo_path|.` repeats the first path: listed once
    assert sum(sp.path == str(CONTENT / "portalcollab") for sp in fs.search_paths) == 1
    # `../Portal/portal` is relative to the root (the folder above GAMEDIR)
    assert str(CONTENT.parent / "Portal" / "portal") in [sp.path for sp in fs.search_paths]

    # the mod's loose model
    loc = fs.locate("models/props/metal_box.mdl")
    assert loc is not None and (loc.kind, loc.readable, loc.base) == ("loose", True, False)
    assert fs.read("models/props/metal_box.mdl") == \
        (CONTENT / "portalcollab/models/props/metal_box.mdl").read_bytes()

    # a model only in the Mapbase VPK, whose archives are absent: found, not readable
    before = list(fs.problems)
    loc = fs.locate("models/props_c17/door01_left.mdl")
    vpk = str(CONTENT / "portalcollab/mapbase/mapbase_shared/shared_content_v7_0_dir.vpk")
    assert loc == Location("vpk", vpk, False, False)
    assert fs.read("models/props_c17/door01_left.mdl") is None
    assert fs.read("models/props_c17/door01_left.vvd") is None
    new = fs.problems[len(before):]
    assert len(new) == 2 and all("is absent" in p for p in new)          # _000 and _001, once
    assert "shared_content_v7_0_000.vpk" in new[0] and "shared_content_v7_0_001.vpk" in new[1]
    assert fs.locate_all("models/props_c17/door01_left.mdl") == [loc]


@needs_content
def test_portalcollab_lookup_lists_only_the_folders_on_its_way():
    fs = GameFS.load(CONTENT / "portalcollab")
    assert fs.scandir_calls == 0
    root = CONTENT / "portalcollab"
    # the real name has capitals, so the exact lower-case path misses and the walk lists
    loc = fs.locate("materials/vgui/playermodels/player/mel.vmt")
    assert loc is not None and loc.kind == "loose"
    way = [root, root / "materials", root / "materials/vgui",
           root / "materials/vgui/playermodels", root / "materials/vgui/playermodels/player"]
    assert fs.listed_folders() == [str(p) for p in way]
    assert fs.scandir_calls == 5
    assert fs.read("Materials/VGUI/PlayerModels/Player/Chell.VMT") == \
        (root / "materials/vgui/playermodels/player/Chell.vmt").read_bytes()
    assert fs.scandir_calls == 5                                         # listings are cached
    # a path that leaves the tree early stops listing there
    assert fs.locate("materials/nosuchfolder/x/y/z.vmt") is None
    assert fs.scandir_calls == 5
    # a lower-case path that exists is found without listing anything
    fresh = GameFS.load(root)
    assert fresh.locate("models/props/metal_box.mdl") is not None
    assert fresh.scandir_calls == 0
    assert fresh.locate("materials/concrete") is None                   # a folder, not a file
    assert fresh.scandir_calls == 2


@needs_content
def test_vpk_v2_multi_chunk_and_single_file(tmp_path):
    game = write_gameinfo(tmp_path / "mod", "\t\t\tgame+mod |gameinfo_path|.")
    fs = GameFS.load(game, vpks=[VPKS / "steamdb_test_dir.vpk", VPKS / "steamdb_test_single.vpk"])
    assert [(sp.kind, os.path.basename(sp.path), sp.base, sp.source) for sp in fs.search_paths] == [
        ("folder", "mod", False, "game+mod |gameinfo_path|."),
        ("vpk", "steamdb_test_dir.vpk", True, "--vpk"),
        ("vpk", "steamdb_test_single.vpk", True, "--vpk")]
    expected = {"steammessages_clientserver.proto": 39177, "steammessages_base.proto": 2563,
                "kitten.jpg": 16361}
    for source in ("steamdb_test_dir.vpk", "steamdb_test_single.vpk"):
        mount = VpkMount(str(VPKS / source))
        assert sorted(mount.names()) == sorted(expected)
        for name, size in expected.items():
            info = mount.find(name)
            assert info is not None and info.size == size
            data = mount.read(info)
            assert data is not None and len(data) == size
            assert zlib.crc32(data) == info.crc            # the directory's CRC32 field
    locs = fs.locate_all("KITTEN.JPG")
    assert [os.path.basename(loc.where or "") for loc in locs] == [
        "steamdb_test_dir.vpk", "steamdb_test_single.vpk"]
    data = fs.read("kitten.jpg")
    assert data is not None and len(data) == 16361 and data[:3] == b"\xff\xd8\xff"
    assert fs.problems == []


@needs_content
def test_vpk_v1_odd_names():
    mount = VpkMount(str(VPKS / "broken_dir.vpk"))
    sizes = {"folder with space/space_extension. txt": 30,
             "uppercasefolder/bad_file_forfun.txt": 2,
             "folder with space/file name with space.txt": 9,
             "uppercasefolder/uppercasefile.txt": 43,
             "folder with space/test": 41,
             "test": 39}
    assert sorted(mount.names()) == sorted(sizes)
    for name, size in sizes.items():
        info = mount.find(name)
        assert info is not None and info.size == size
        data = mount.read(info)
        assert data is not None and len(data) == size and zlib.crc32(data) == info.crc
    # the stored name keeps its case; the lookup is by the lower-case asset path
    upper = mount.find("uppercasefolder/uppercasefile.txt")
    assert upper is not None and upper.filename == "UpperCaseFolder/UpperCaseFile.txt"
    assert mount.version == 1
    assert mount.problems == []


@needs_content
@pytest.mark.parametrize("name", ["steamdb_test_dir.vpk", "steamdb_test_single.vpk",
                                  "broken_dir.vpk", "platform_misc_dir.vpk",
                                  "../portalcollab/mapbase/mapbase_shared/shared_content_v7_0_dir.vpk"])
def test_vpk_reader_agrees_with_srctools(name):
    """srctools' VPK reader as the oracle: the same entries, CRCs, sizes, archives, bytes."""
    from srctools.vpk import VPK
    path = str(VPKS / name)
    oracle = VPK(path)
    mount = VpkMount(path)
    assert mount.version == 0 and mount.names() and mount.version == oracle.version
    assert len(mount.names()) == len(oracle)
    for info in oracle:
        entry = mount.find(info.filename.lower())
        assert entry is not None and entry.filename == info.filename
        assert (entry.crc, entry.size, entry.archive) == (info.crc, info.size, info.arch_index)
        if mount.readable(entry):
            assert mount.read(entry) == info.read()
        else:
            assert mount.read(entry) is None


def test_damaged_vpk_directories_are_problems(tmp_path):
    good = write_vpk(tmp_path / "good_dir.vpk", {"materials/a.vmt": b"a", "b.txt": b"b"})
    raw = good.read_bytes()
    cases = {"notvpk_dir.vpk": b"PK\3\4" + bytes(40), "short_dir.vpk": raw[:20],
             "cut_dir.vpk": raw[:-6]}
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
        problems: list[str] = []
        mount = VpkMount(str(tmp_path / name), problems)
        assert mount.find("materials/a.vmt") is None and mount.names() == []
        assert len(problems) == 1 and "not a readable VPK" in problems[0], name
    assert VpkMount(str(good)).read(VpkMount(str(good)).find("b.txt")) == b"b"  # type: ignore[arg-type]


@needs_content
def test_signed_vpk_whose_archive_is_absent(tmp_path):
    game = write_gameinfo(tmp_path / "mod", "\t\t\tgame+mod |gameinfo_path|.")
    fs = GameFS.load(game, vpks=[VPKS / "platform_misc.vpk"])          # the `foo.vpk` form
    assert fs.search_paths[1].path == str(VPKS / "platform_misc_dir.vpk")
    loc = fs.locate("materials/vgui/white.vtf")
    assert loc == Location("vpk", str(VPKS / "platform_misc_dir.vpk"), False, True)
    assert fs.read("materials/vgui/white.vtf") is None
    assert fs.read("materials/debug/defaultlightmap.vtf") is None
    assert len(fs.problems) == 1 and "platform_misc_000.vpk is absent" in fs.problems[0]
    assert "393 entries" in fs.problems[0]


# --- synthetic game folders ------------------------------------------------------------------

def test_appid_and_missing_custom_and_no_steam(tmp_path):
    game = write_gameinfo(tmp_path / "root" / "mymod", "\n".join([
        "\t\t\tgame+mod |gameinfo_path|custom/*",
        "\t\t\tgame+mod |gameinfo_path|.",
        "\t\t\tgame |appid_620|portal2/pak01_dir.vpk",
        "\t\t\tgame |all_source_engine_paths|hl2",
        "\t\t\tplatform |all_source_engine_paths|platform"]))
    (game / "materials").mkdir()
    (game / "materials" / "Wall.VMT").write_bytes(b"x")
    fs = GameFS.load(game)
    assert [(sp.kind, sp.path, sp.exists, sp.base) for sp in fs.search_paths] == [
        ("folder", str(game), True, False),
        ("folder", str(tmp_path / "root" / "hl2"), False, True)]
    assert len(fs.problems) == 2
    assert "|appid_620|" in fs.problems[0] and "Steam" in fs.problems[0]
    assert str(tmp_path / "root" / "hl2") in fs.problems[1]
    assert fs.locate("materials/wall.vmt") == Location("loose", str(game), True, False)


def test_appid_folder_given_by_the_caller(tmp_path):
    game = write_gameinfo(tmp_path / "mymod", "\n".join([
        "\t\t\tgame+mod |gameinfo_path|.",
        "\t\t\tgame |appid_620|portal2"]))
    portal2 = tmp_path / "Portal 2"
    (portal2 / "portal2" / "materials").mkdir(parents=True)
    (portal2 / "portal2" / "materials" / "p2.vmt").write_bytes(b"p2")
    fs = GameFS.load(game, apps={620: portal2})
    assert [(sp.path, sp.base) for sp in fs.search_paths] == [
        (str(game), False), (str(portal2 / "portal2"), True)]
    assert fs.read("materials/p2.vmt") == b"p2" and fs.problems == []


def test_custom_wildcard_order_and_vpks(tmp_path):
    game = write_gameinfo(tmp_path / "mymod", "\n".join([
        "\t\t\tgame+mod |gameinfo_path|custom/*",
        "\t\t\tgame+mod |gameinfo_path|."]))
    custom = game / "custom"
    for sub in ("b_second", "A_first", ".hidden"):
        (custom / sub / "materials").mkdir(parents=True)
        (custom / sub / "materials" / "same.vmt").write_bytes(sub.encode())
    (custom / "readme.txt").write_bytes(b"not a search path")
    write_vpk(custom / "c_pack_dir.vpk", {"materials/inpack.vmt": b"packed"})
    assert (custom / "c_pack_000.vpk").is_file()
    fs = GameFS.load(game)
    assert [(sp.kind, os.path.relpath(sp.path, game), sp.base) for sp in fs.search_paths] == [
        ("folder", os.path.join("custom", "A_first"), False),
        ("folder", os.path.join("custom", "b_second"), False),
        ("vpk", os.path.join("custom", "c_pack_dir.vpk"), False),
        ("folder", ".", False)]
    assert fs.read("materials/same.vmt") == b"A_first"
    assert [os.path.basename(loc.where or "") for loc in fs.locate_all("materials/same.vmt")] == [
        "A_first", "b_second"]
    assert fs.read("materials/inpack.vmt") == b"packed"
    assert fs.locate("materials/inpack.vmt") == Location(
        "vpk", str(custom / "c_pack_dir.vpk"), True, False)
    assert fs.problems == []


def test_folder_mounts_its_pak01_dir_vpk_first(tmp_path):
    game = write_gameinfo(tmp_path / "mymod", "\t\t\tgame+mod |gameinfo_path|.")
    (game / "materials").mkdir()
    (game / "materials" / "both.vmt").write_bytes(b"loose")
    write_vpk(game / "pak01_dir.vpk", {"materials/both.vmt": b"vpk", "materials/only.vmt": b"1"})
    write_vpk(game / "pak03_dir.vpk", {"materials/three.vmt": b"3"})     # after a gap: not mounted
    fs = GameFS.load(game)
    assert [(sp.kind, os.path.basename(sp.path), sp.base) for sp in fs.search_paths] == [
        ("vpk", "pak01_dir.vpk", False), ("folder", "mymod", False)]
    assert fs.search_paths[0].source == "pak01_dir.vpk of game+mod |gameinfo_path|."
    assert fs.read("materials/both.vmt") == b"vpk"
    assert [loc.kind for loc in fs.locate_all("materials/both.vmt")] == ["vpk", "loose"]
    assert fs.read("materials/only.vmt") == b"1"
    assert fs.locate("materials/three.vmt") is None


def test_iter_files_lists_a_folder_once_per_name(tmp_path):
    game = write_gameinfo(tmp_path / "mymod", "\t\t\tgame+mod |gameinfo_path|.")
    (game / "Materials" / "Props").mkdir(parents=True)
    (game / "Materials" / "Props" / "Crate.VMT").write_bytes(b"loose")
    (game / "materials_other").mkdir()
    (game / "materials_other" / "no.vmt").write_bytes(b"")
    write_vpk(game / "pak01_dir.vpk", {"materials/props/crate.vmt": b"vpk",
                                       "materials/props/barrel.vmt": b"b",
                                       "models/x.mdl": b"m"})
    fs = GameFS.load(game)
    got = {name: (loc.kind, loc.readable) for name, loc in fs.iter_files("MATERIALS/")}
    assert got == {"materials/props/crate.vmt": ("vpk", True),
                   "materials/props/barrel.vmt": ("vpk", True)}
    assert [name for name, _ in fs.iter_files("materials/props/crate.vmt")] == []
    assert {name for name, _ in fs.iter_files("")} == {
        "materials/props/crate.vmt", "materials/props/barrel.vmt", "models/x.mdl",
        "materials_other/no.vmt", "gameinfo.txt", "pak01_dir.vpk", "pak01_000.vpk"}


def test_vpk_with_absent_archive_falls_through_to_the_next_location(tmp_path):
    game = write_gameinfo(tmp_path / "mymod", "\n".join([
        "\t\t\tgame+mod |gameinfo_path|pak.vpk",
        "\t\t\tgame+mod |gameinfo_path|."]))
    write_vpk(game / "pak_dir.vpk", {"materials/a.vmt": b"from vpk"})
    (game / "pak_000.vpk").unlink()
    (game / "materials").mkdir()
    (game / "materials" / "a.vmt").write_bytes(b"loose copy")
    fs = GameFS.load(game)
    assert [loc.readable for loc in fs.locate_all("materials/a.vmt")] == [False, True]
    first, second = fs.hits("MATERIALS/A.VMT")
    assert (first.location.kind, first.size, first.crc, first.read()) == (
        "vpk", 8, zlib.crc32(b"from vpk"), None)
    assert (second.location.kind, second.size, second.crc, second.read()) == (
        "loose", 10, None, b"loose copy")
    assert fs.read("materials/a.vmt") == b"loose copy"
    assert fs.read("materials/a.vmt") == b"loose copy"
    assert len(fs.problems) == 1 and "pak_000.vpk is absent" in fs.problems[0]


def test_content_and_vpk_options_go_after_the_mod(tmp_path):
    root = tmp_path / "root"
    game = write_gameinfo(root / "mymod", "\n".join([
        "\t\t\tgame+mod |gameinfo_path|.",
        "\t\t\tgame |all_source_engine_paths|hl2"]))
    (root / "hl2" / "materials").mkdir(parents=True)
    (root / "hl2" / "materials" / "x.vmt").write_bytes(b"base")
    extra = tmp_path / "extra"
    (extra / "materials").mkdir(parents=True)
    (extra / "materials" / "x.vmt").write_bytes(b"extra")
    basevpk = write_vpk(tmp_path / "base_dir.vpk", {"materials/y.vmt": b"y"})
    fs = GameFS.load(game, content=[extra], vpks=[tmp_path / "base.vpk"])
    assert [(sp.kind, sp.path, sp.base, sp.source) for sp in fs.search_paths] == [
        ("folder", str(game), False, "game+mod |gameinfo_path|."),
        ("folder", str(extra), False, "--content"),
        ("vpk", str(basevpk), True, "--vpk"),
        ("folder", str(root / "hl2"), True, "game |all_source_engine_paths|hl2")]
    assert fs.read("materials/x.vmt") == b"extra"
    assert [loc.base for loc in fs.locate_all("materials/x.vmt")] == [False, True]
    assert fs.locate("materials/y.vmt") == Location("vpk", str(basevpk), True, True)
    assert fs.problems == []


def test_conditions_are_evaluated_for_the_windows_pc_game(tmp_path):
    game = write_gameinfo(tmp_path / "mymod", "\n".join([
        "\t\t\tgame+mod |gameinfo_path|.",
        "\t\t\tgame |gameinfo_path|console [$X360]",
        "\t\t\tgame |gameinfo_path|pc [!$X360]",
        "\t\t\tgame |gameinfo_path|win [$WIN32] // a comment",
        "\t\t\tgame |gameinfo_path|linux [$LINUX]",
        '\t\t\t"game" "|gameinfo_path|either" [$X360||$WINDOWS]']))
    for sub in ("console", "pc", "win", "linux", "either"):
        (game / sub).mkdir()
    fs = GameFS.load(game)
    assert [os.path.basename(sp.path) for sp in fs.search_paths] == ["mymod", "pc", "win", "either"]
    assert condition_true("$WIN32 && !$OSX") and not condition_true("$PS3 || $GAMECONSOLE")


def test_gameinfo_mistakes(tmp_path):
    with pytest.raises(BspError, match="no gameinfo.txt"):
        GameFS.load(tmp_path)
    with pytest.raises(BspError, match="no such game folder"):
        GameFS.load(tmp_path / "absent")
    (tmp_path / "GAMEINFO.TXT").write_text('"GameInfo" { game "x" }')
    with pytest.raises(BspError, match="SearchPaths"):
        GameFS.load(tmp_path)
    with pytest.raises(BspError, match="SearchPaths"):
        parse_search_paths('"GameInfo" { FileSystem { } }')


def test_lookups_refuse_paths_that_leave_the_search_path(tmp_path):
    game = write_gameinfo(tmp_path / "root" / "mymod", "\t\t\tgame+mod |gameinfo_path|.")
    (tmp_path / "root" / "secret.txt").write_bytes(b"no")
    fs = GameFS.load(game)
    assert fs.locate("../secret.txt") is None and fs.read("../secret.txt") is None
    assert fs.locate("") is None
    assert fs.locate("gameinfo.txt") is not None


def test_dir_file_names():
    assert dir_file("/x/pak01_dir.vpk") == "/x/pak01_dir.vpk"
    assert dir_file("/nowhere/hl2_textures.vpk") == "/nowhere/hl2_textures_dir.vpk"


def test_importing_gamefs_does_not_import_srctools():
    code = ("import sys, bspedit.cli, bspedit.features.pack.gamefs; "
            "print('srctools' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("argv", [["--version"], ["info", str(ROOT / "tests/data/tiny.bsp")]])
def test_other_verbs_do_not_import_srctools(argv):
    code = ("import atexit, sys\n"
            "atexit.register(lambda: print('srctools loaded:', 'srctools' in sys.modules))\n"
            f"sys.argv = ['bspedit', *{argv!r}]\n"
            "from bspedit.cli import main\n"
            "sys.exit(main())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "srctools loaded: False"
