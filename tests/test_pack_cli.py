"""`pak deps`, `pak autopack`, `pak audit` on the real mods of ../shared/content (skipped
without them), through the command line, with srctools' packlist as the oracle: deps finds
every file it resolves, plus the right answers to its documented mistakes (issue 32, the
content's README). A plain run checks two maps; `--full` every content map."""
from __future__ import annotations

import shutil
import zlib
from pathlib import Path

import pytest
from packlist_oracle import packlist
from verbs import run_json

from bspedit.bsp import Bsp
from bspedit.cli import invoke
from bspedit.features.pack.model import asset_path
from bspedit.lumps.pakfile import pak_index

pytest.importorskip("srctools")

CONTENT = Path(__file__).resolve().parents[1].parent / "shared" / "content"
needs_content = pytest.mark.skipif(not CONTENT.is_dir(), reason="../shared/content not present")
MAPS = sorted(f"{p.parent.parent.name}/{p.name}" for p in CONTENT.glob("*/maps/*.bsp")) \
    if CONTENT.is_dir() else []
FAST = {"msrc/msrcdemo3.bsp", "portalcollab/pcollab_26_iambread_test.bsp"}
SPRITE_CLASSES = {"env_sprite": "model", "env_glow": "model", "env_sprite_oriented": "model",
                  "env_beam": "texture", "env_laser": "texture"}


def params():
    return [pytest.param(m, id=m, marks=() if m in FAST else pytest.mark.full) for m in MAPS]


def mod_of(name: str) -> Path:
    return CONTENT / name.split("/")[0]


def map_path(name: str) -> Path:
    mod, file = name.split("/")
    return CONTENT / mod / "maps" / file


def run(*argv: object) -> tuple[int, dict]:
    code, _, (report,) = run_json([*map(str, argv), "--json"])
    return code, report


# -- the oracle ----------------------------------------------------------------------------------
def sprite_values(bsp_path: Path) -> list[str]:
    """The sprite keys' values of the map, as srctools reads its entities."""
    from srctools.bsp import BSP

    ents = BSP(str(bsp_path)).ents
    return [ent[key] for classname, key in SPRITE_CLASSES.items()
            for ent in ents.by_class[classname] if ent[key]]


@needs_content
@pytest.mark.parametrize("name", params())
def test_deps_finds_what_packlist_resolves_and_its_mistakes_right(name):
    mod, path = mod_of(name), map_path(name)
    theirs = packlist([mod], path, vpks=sorted(mod.rglob("*_dir.vpk")))
    sprites = sprite_values(path)
    code, report = run("pak", "deps", path, "--game", mod)
    assert code == 0 and report["exit"] == 0
    files = {row["path"]: row for row in report["result"]["files"]}
    resolved = {p for p, row in files.items() if row["location"] != "missing"}
    # every file the packlist resolves (in the mod, a VPK or the pakfile), we resolve too, at
    # the same kind of place
    for file, kind in theirs.items():
        if kind == "missing":
            continue
        assert file in resolved, (file, kind)
        ours = files[file]["location"]
        assert ours == {"content": "loose", "vpk": "vpk", "pak": "pak"}[kind], (file, ours)
    # its mistakes, right: sprites are materials, never `.spr` files
    assert not [p for p in files if p.endswith(".spr")]
    for value in sprites:
        vmt = asset_path("materials/" + value.rsplit(".", 1)[0] + ".vmt") \
            if not asset_path(value).startswith("materials/") else asset_path(value)
        assert vmt in files, value
    # map-named side files are considered (optional)
    stem = path.stem.lower()
    for side in (f"maps/{stem}.nav", f"maps/{stem}_level_sounds.txt",
                 f"scripts/soundscapes_{stem}.txt", f"resource/overviews/{stem}.txt"):
        assert files[side]["optional"]
    # every pak entry vbsp made (cubemaps, patch materials) is a reference, found in the pak
    with Bsp.open(path) as bsp:
        packed = [asset_path(e.name) for e in bsp.pakfile.entries if not e.is_dir]
    for entry in packed:
        if entry.startswith("materials/maps/"):
            assert files[entry]["location"] == "pak", entry
    # a VPK entry whose archive is absent is reported unreadable, with the VPK named
    for row in files.values():
        if row["location"] == "vpk" and row["where"].endswith("shared_content_v7_0_dir.vpk"):
            assert row["readable"] is False


@needs_content
def test_packlists_documented_misses_in_the_portal_map():
    """The 5 patch materials packlist misses (nested maps/<map>/maps/<map>/ names and
    hazard_liquid_beneath_*), each patch's parent, and the door model found only in the
    Mapbase VPK (unreadable: its archives are absent)."""
    mod, path = CONTENT / "portalcollab", map_path("portalcollab/pcollab_26_iambread_test.bsp")
    _, report = run("pak", "deps", path, "--game", mod)
    files = {row["path"]: row for row in report["result"]["files"]}
    nested = [p for p in files if "/maps/pcollab_26_iambread_test/maps/" in p]
    beneath = [p for p in files if "hazard_liquid_beneath_" in p]
    assert len(nested) >= 2 and len(beneath) >= 2
    for p in nested + beneath:
        assert files[p]["location"] == "pak"
    door = files["models/props_c17/door01_left.mdl"]
    assert door["location"] == "vpk" and not door["readable"] and not door["base"]
    assert door["where"].endswith("shared_content_v7_0_dir.vpk")
    # every patch material leads to its parent (the include), wherever that is, and to the
    # cubemaps vbsp patched in as $envmap
    import re

    with Bsp.open(path) as bsp:
        patches = {asset_path(e.name): bsp.pakfile.read(e) for e in bsp.pakfile.entries
                   if e.name.lower().endswith(".vmt")}
    included = 0
    for patch, text in patches.items():
        for parent in re.findall(rb'"?include"?\s+"([^"]+)"', text, re.IGNORECASE):
            assert asset_path(parent.decode()) in files, (patch, parent)
            included += 1
        for envmap in re.findall(rb'"?\$envmap"?\s+"(maps/[^"]+)"', text, re.IGNORECASE):
            assert asset_path(f"materials/{envmap.decode()}.vtf") in files, (patch, envmap)
    assert included >= 40


def stored(path: Path) -> dict[str, bytes]:
    """Each pak entry's stored bytes (local header to the end of its data)."""
    with Bsp.open(path) as bsp:
        lump = bsp.lumps[pak_index(bsp)]
        entries = [e for e in bsp.pakfile.entries if not e.is_dir]
    data = path.read_bytes()[lump.offset:lump.offset + lump.length]
    return {e.name: data[e.data_start:e.end] for e in entries}


@needs_content
@pytest.mark.parametrize("name", params())
def test_autopack_then_verify_keep_bytes_second_run_nothing(name, tmp_path):
    mod = mod_of(name)
    src = tmp_path / map_path(name).name
    shutil.copyfile(map_path(name), src)
    out = tmp_path / "packed" / src.name
    out.parent.mkdir()
    code, report = run("pak", "autopack", src, "--game", mod, "-o", out)
    result = report["result"]
    required = result["missing_required"]
    assert code == (1 if required else 0) == report["exit"]
    assert result["save"]["written"]
    assert invoke(["verify", str(out)], capture=True).code == 0
    # old entries keep their stored bytes
    before, after = stored(src), stored(out)
    for entry, data in before.items():
        assert after[entry] == data, entry
    # new names are lower case, and hold the mod's bytes
    added = set(after) - set(before)
    assert added == {row["path"] for row in result["packed"]}
    with Bsp.open(out) as bsp:
        for row in result["packed"]:
            assert row["path"] == row["path"].lower()
            assert not row["base"] and row["location"] in ("loose", "vpk")
            data = bsp.pakfile.read(row["path"])
            assert len(data) == row["size"]
            if row["location"] == "loose":
                assert zlib.crc32(data) == zlib.crc32((Path(row["where"]) /
                                                       row["path"]).read_bytes()) \
                    if (Path(row["where"]) / row["path"]).exists() else True
    # a second run packs nothing; deps then reports nothing of the mod outside the pak
    code2, again = run("pak", "autopack", out, "--game", mod, "--in-place", "--allow-missing")
    assert code2 == 0 and again["result"]["packed"] == []
    assert again["result"]["save"]["changed"] == []
    _, found = run("pak", "deps", out, "--game", mod)
    left = [row["path"] for row in found["result"]["files"]
            if row["location"] in ("loose", "vpk") and not row["base"] and row["readable"]]
    assert left == []
    # audit: the packed files are the mod's, nothing vbsp made is unused, what autopack packed
    # is used
    code3, audited = run("pak", "audit", out, "--game", mod)
    assert code3 == 0
    res = audited["result"]
    assert {row["path"] for row in res["in_mod"]} >= {row["path"] for row in result["packed"]}
    assert not set(res["unused"]) & {row["path"] for row in result["packed"]}
    assert not [p for p in res["unused"] if p.startswith("materials/maps/")]
    assert res["redundant"] == [] and res["overrides"] == []


@needs_content
def test_autopack_dry_run_base_list_include_exclude(tmp_path):
    mod = CONTENT / "msrc"
    src = tmp_path / "msrcdemo3.bsp"
    shutil.copyfile(map_path("msrc/msrcdemo3.bsp"), src)
    data = src.read_bytes()
    code, dry = run("pak", "autopack", src, "--game", mod, "--in-place", "--dry-run",
                    "--allow-missing")
    assert code == 0 and src.read_bytes() == data and not dry["result"]["save"]["written"]
    packed = [row["path"] for row in dry["result"]["packed"]]
    assert packed and any(p.endswith(".wav") for p in packed)
    # a base list names two of them: they are left to the base game; --exclude drops the wavs
    listing = tmp_path / "base.txt"
    listing.write_text(f"{packed[0].upper()}\n// comment\n\n{packed[1]}\n")
    code, run2 = run("pak", "autopack", src, "--game", mod, "--in-place", "--dry-run",
                     "--allow-missing", "--base", listing, "--exclude", "sound/*")
    got = [row["path"] for row in run2["result"]["packed"]]
    assert packed[0] not in got and packed[1] not in got
    assert {row["path"] for row in run2["result"]["left_to_base"]} >= {packed[0], packed[1]}
    assert not [p for p in got if p.startswith("sound/")]
    assert [row["path"] for row in run2["result"]["excluded"]]
    # files found nowhere while the base game (HL2, EP2) is absent are unknown, not missing:
    # exit 0, the map written (test_pack_content shows exit 1 for a missing one)
    out = tmp_path / "out.bsp"
    code, real = run("pak", "autopack", src, "--game", mod, "-o", out)
    assert code == 0 and real["result"]["missing_required"] == 0 and out.exists()
    assert real["result"]["unknown"] and real["result"]["unknown_reason"]


@needs_content
def test_audit_redundant_override_unused(tmp_path):
    """Entries identical to a mod file, one changed (an override), one nothing references."""
    mod = CONTENT / "msrc"
    src = tmp_path / "msrctest.bsp"
    shutil.copyfile(map_path("msrc/msrctest.bsp"), src)
    vmt = "materials/madwall.vmt"
    original = (mod / vmt).read_bytes()
    with Bsp.open(src) as bsp:
        bsp.pakfile.add(vmt, original + b"\n// changed\n")
        bsp.pakfile.add("materials/madwall.vtf", (mod / "materials/madwall.vtf").read_bytes())
        bsp.pakfile.add("materials/nothing/uses_this.vmt", b'"UnlitGeneric" {}\n')
        bsp.save()
    code, report = run("pak", "audit", src, "--game", mod)
    res = report["result"]
    assert code == 0
    assert [r["path"] for r in res["overrides"]] == [vmt]
    assert "materials/madwall.vtf" in [r["path"] for r in res["in_mod"]]
    assert res["unused"] == ["materials/nothing/uses_this.vmt"]
    assert all(p.startswith("materials/maps/") for p in res["compile_outputs"])


@needs_content
def test_missing_search_paths_are_reported_not_fatal(tmp_path):
    """msrc's gameinfo names HL2 and EP2 folders this machine lacks: listed, exit 0; what
    only they could hold is unknown, which --strict does not fail on."""
    code, report = run("pak", "deps", map_path("msrc/msrctest.bsp"), "--game",
                       CONTENT / "msrc")
    assert code == 0
    assert any("not on this machine" in p for p in report["result"]["problems"])
    assert report["warnings"]
    assert report["result"]["counts"]["unknown"] > 0 == report["result"]["counts"]["missing"]
    code, _ = run("pak", "deps", map_path("msrc/msrctest.bsp"), "--game",
                       CONTENT / "msrc", "--strict")
    assert code == 0


def test_no_gameinfo_is_bad_input(tmp_path):
    report = invoke(["pak", "deps", str(tmp_path / "x.bsp"), "--game", str(tmp_path)],
                    capture=True)
    assert report.code == 2


def test_version_and_info_do_not_import_srctools(tmp_path):
    import subprocess
    import sys

    for argv in (["--version"], ["info", str(Path(__file__).parent / "data" / "tiny.bsp")],
                 ["pak", "list", str(Path(__file__).parent / "data" / "tiny.bsp")]):
        done = subprocess.run([sys.executable, "-X", "importtime", "-m", "bspedit", *argv],
                              check=False, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert "srctools" not in done.stderr, argv


GAMEINFO = ('"GameInfo"\n{\n\tFileSystem\n\t{\n\t\tSearchPaths\n\t\t{\n'
            '\t\t\tgame |gameinfo_path|.\n\t\t\tgame |all_source_engine_paths|base\n'
            '\t\t\tgame |all_source_engine_paths|gone\n\t\t}\n\t}\n}\n')


def test_audit_and_autopack_on_a_synthetic_game(tmp_path):
    """A mod over a base game, no content needed: an entry identical to the base game's file
    is redundant, one that differs an override; autopack leaves base files to the base game
    (or packs them with --include) and packs the mod's; a missing search path is reported."""
    mod, base = tmp_path / "mod", tmp_path / "base"
    for folder, text in ((mod, "mod"), (base, "base")):
        (folder / "materials" / "x").mkdir(parents=True)
        (folder / "materials" / "x" / f"{text}.vmt").write_text('"UnlitGeneric" {}\n')
    (mod / "GameInfo.txt").write_text(GAMEINFO)
    (base / "materials" / "x" / "same.vmt").write_text('"UnlitGeneric" { "$a" "1" }\n')
    (base / "materials" / "x" / "other.vmt").write_text('"UnlitGeneric" { "$a" "2" }\n')
    src = tmp_path / "tiny.bsp"
    shutil.copyfile(Path(__file__).parent / "data" / "tiny.bsp", src)
    with Bsp.open(src) as bsp:
        bsp.pakfile.add("materials/x/same.vmt", b'"UnlitGeneric" { "$a" "1" }\n')
        bsp.pakfile.add("materials/x/other.vmt", b'"UnlitGeneric" { "$a" "3" }\n')
        bsp.save()
    code, report = run("pak", "audit", src, "--game", mod)
    res = report["result"]
    assert code == 0
    assert [r["path"] for r in res["redundant"]] == ["materials/x/same.vmt"]
    assert [r["path"] for r in res["overrides"]] == ["materials/x/other.vmt"]
    assert res["redundant"][0]["base"] and res["redundant"][0]["location"] == "loose"
    assert set(res["unused"]) == {"materials/x/same.vmt", "materials/x/other.vmt"}
    assert any("gone" in p for p in res["problems"])
    # the map references neither mod.vmt nor base.vmt: give it entities that do
    with Bsp.open(src) as bsp:
        text = bsp.entities(lenient=True).to_bytes().rstrip(b"\0")
    ents = tmp_path / "ents.txt"
    ents.write_bytes(text + b'{\n"classname" "infodecal"\n"texture" "x/mod"\n}\n'
                     b'{\n"classname" "infodecal"\n"texture" "x/base"\n}\n')
    assert invoke(["ent", "import", str(src), str(ents), "--in-place"], capture=True).code == 0
    code, auto = run("pak", "autopack", src, "--game", mod, "-o", tmp_path / "a.bsp")
    assert [r["path"] for r in auto["result"]["packed"]] == ["materials/x/mod.vmt"]
    assert "materials/x/base.vmt" in [r["path"] for r in auto["result"]["left_to_base"]]
    code, forced = run("pak", "autopack", src, "--game", mod, "-o", tmp_path / "b.bsp",
                       "--include", "materials/x/", "--allow-missing")
    assert code == 0
    assert {r["path"] for r in forced["result"]["packed"]} == {"materials/x/mod.vmt",
                                                               "materials/x/base.vmt"}


@needs_content
def test_audit_compares_an_unreadable_vpk_entry_by_its_crc(tmp_path):
    mod = CONTENT / "portalcollab"
    src = tmp_path / "pcollab_26_iambread_test.bsp"
    shutil.copyfile(map_path("portalcollab/pcollab_26_iambread_test.bsp"), src)
    with Bsp.open(src) as bsp:
        bsp.pakfile.add("models/props_c17/door01_left.mdl", b"not the model")
        bsp.save()
    _, report = run("pak", "audit", src, "--game", mod)
    (row,) = report["result"]["overrides"]
    assert row["path"] == "models/props_c17/door01_left.mdl"
    assert row["location"] == "vpk" and row["readable"] is False and row["same"] is False


def test_a_map_without_a_pakfile_is_refused(tmp_path):
    from conftest import CORPUS

    quake = CORPUS / "q1" / "slipgate_b_batt0.bsp"
    if not quake.exists():
        pytest.skip("../shared/corpus not present")
    (tmp_path / "gameinfo.txt").write_text(GAMEINFO)
    for verb in ("deps", "audit"):
        assert invoke(["pak", verb, str(quake), "--game", str(tmp_path)],
                      capture=True).code == 2
    assert invoke(["pak", "autopack", str(quake), "--game", str(tmp_path), "-o",
                   str(tmp_path / "x.bsp")], capture=True).code == 2
