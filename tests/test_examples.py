"""examples/ run on the corpus maps, and the guide's cookbook (docs/howto/scripts.md) runs as
written."""
from __future__ import annotations

import builtins
import math
import re
import shutil
import subprocess
import symtable
import sys
import textwrap
from pathlib import Path

import pytest

import bspedit
from bspedit.container.mapsums import COMPARED
from conftest import CORPUS, CORPUS_MAPS, ROOT, corpus_maps

EXAMPLES = ROOT / "examples"
# the srctools scripts of issue 15 took 16, 18 and 8 lines
LONGEST = {"halve_lights.py": 16, "rename_target.py": 18, "skynames.py": 8}
# what each corpus map names as its sky (None: none, the engine's default)
SKIES = {
    "goldsrc/csdocker_aim_map": "des", "goldsrc/hltopdown_test": None,
    "goldsrc/plague_zm_303": "trainyard", "goldsrc/plague_zm_castle_siege2": None,
    "goldsrc/plague_zm_downtown_dirtypad": "tsccity_", "goldsrc/svenquake2_q2dm1_13lumps": None,
    "q1/bsptool_quake_mp_lobby": None, "q1/bsptool_remakequake_mp_lobby_bsp2": None,
    "q1/ericw_q1_cube_bspx": None, "q1/librequake_box_indexorder": "sky_void",
    "q1/librequake_lq1m1_bsp2": "sky5", "q1/librequake_lqdm4_a8_dirtypad": "sky_dev",
    "q1/librequake_start_bspx": "sky1", "q1/slipgate_b_batt0": None,
    "q2/bsptool_q2_mp_lobby": None, "q2/opentdm_2box4": None, "q2/opentdm_kduel5": None,
    "q2/opentdm_q2pduel4_dirtypad": "space1", "q2/opentdm_q2rdm2_indexorder": "jal",
    "q2/opentdm_q3dm7": "q3dm7",
    "q3/bspconvert_test_nonsolid_patch": None, "q3/bsptool_q3_mp_lobby": None,
    "q3/bsptool_q3_test_bigbox": None, "q3/openarena_am_galmevish": "textures/skies/nitesky",
    "q3/openarena_oa_ctf2": "textures/common/sky_space",
    "q3/openarena_oacmpctf3": "textures/akom_sky/akomblacksky",
    "q3/turtlearena_sp1boss_dirtypad": "textures/skies/nightsky01",
    "source/bspsrc_csgo_tooltextures_v21": None, "source/bsptool_momentum_mp_lobby_v25": "mpa115",
    "source/bsptool_tf2_test_displacement": "sky_tf2_04",
    "source/inscrutable_rocket_turret": "sky_black_nofog",
    "source/opendm_background01": "sky_day02_09", "source/portalmp_background01": "sky_day01_01",
    "source/sdk2013_sdk_vehicles_v19": "sky_wasteland02",
    "source/tf2classified_cp_stronghold_lzma": "sky_dustbowl_01",
    "source/tf2classified_cp_stronghold_uncompressed_trailing": "sky_dustbowl_01",
    "source/tg1v1_am_grass2_csgo_v21": "jungle",
    "source/ths_l4d2_as_devtest_map_01_v21": "sky_l4d_c1_2_hdr",
    "source/ths_l4d2_test_mechanic01_v21": "sky_l4d_rural02_hdr",
    "source/valvebsp_testmap": "sky_day01_01"}


def run(script: str, *args: object, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([sys.executable, str(EXAMPLES / script), *map(str, args)],
                            capture_output=True, text=True, cwd=cwd)
    assert result.returncode == 0, result.stderr
    return result


def test_scripts_are_no_longer_than_their_srctools_counterparts():
    lengths = {path.name: len(path.read_text().splitlines()) for path in EXAMPLES.glob("*.py")}
    assert set(lengths) == set(LONGEST)
    assert all(lengths[name] <= LONGEST[name] for name in LONGEST), lengths


# -- halve_lights.py -------------------------------------------------------------------------
def brightness(entity: bspedit.Entity) -> tuple[str, list[str], float]:
    """(key, the other numbers, brightness) of a light: Source and GoldSrc `_light` "r g b v",
    Quake `light` (300 when absent, as the light compilers default)."""
    if "_light" in entity:
        *color, value = entity["_light"].split()
        return "_light", color, float(value)
    return "light", [], float(entity.get("light", "300"))


def lights(path: Path) -> list[tuple[str, list[str], float]]:
    with bspedit.open(path) as bsp:
        return [brightness(e) for e in bsp.entities() if e.get("classname", "").startswith("light")]


@pytest.mark.parametrize("path", corpus_maps())
def test_halve_lights_halves_every_light_and_keeps_the_checksum(path, tmp_path):
    copy, out = tmp_path / path.name, tmp_path / "out.bsp"
    shutil.copyfile(path, copy)
    result = run("halve_lights.py", copy, out)
    assert copy.read_bytes() == path.read_bytes()
    before, after = lights(path), lights(out)
    assert len(after) == len(before)
    for (key, color, value), (new_key, new_color, new_value) in zip(before, after):
        assert (new_key, new_color) == (key, color) and math.isclose(new_value, value / 2)
    with bspedit.open(path) as original, bspedit.open(out) as saved:
        for lump in original.lumps:        # the entity lump alone changed
            if lump.index != original.family.entities:
                assert saved.read_lump(lump.index) == original.read_lump(lump.index), lump.name
        sums, new_sums = original.checksums(), saved.checksums()
        engine = original.family.engine
        edited = saved.read_lump("ENTITIES") != original.read_lump("ENTITIES")
    compared = COMPARED[engine]
    if engine in ("source", "goldsrc"):
        assert new_sums["crc32"] == sums["crc32"]
    if engine in ("quake1", "goldsrc"):
        assert new_sums["map_checksum"] == sums["map_checksum"]
    kept = "changed" if edited and engine in ("quake2", "quake3") else "kept"   # whole file
    assert result.stdout == f"{out}: {compared} {kept}\n"


@pytest.mark.skipif(not CORPUS_MAPS, reason="../shared/corpus not present")
def test_halve_lights_in_place(tmp_path):
    copy = tmp_path / "map.bsp"
    shutil.copyfile(CORPUS / "source" / "valvebsp_testmap.bsp", copy)
    run("halve_lights.py", copy)
    assert [value for _, _, value in lights(copy)] == \
        [value / 2 for _, _, value in lights(CORPUS / "source" / "valvebsp_testmap.bsp")]


# -- rename_target.py ------------------------------------------------------------------------
def fold(text: str) -> str:
    return text.encode("latin-1", "replace").lower().decode("latin-1")


def retargeted(value: str, old: str, new: str) -> str:
    """An output value aimed at `old` aimed at `new` instead (fields split the engine's way:
    on 0x1B when the value holds one, else on commas); other values unchanged."""
    separator = "\x1b" if "\x1b" in value else ","
    fields = value.split(separator)
    if len(fields) == 5 and fold(fields[0]) == fold(old):
        return separator.join([new, *fields[1:]])
    return value


def most_targeted(path: Path) -> str | None:
    with bspedit.open(path) as bsp:
        lump = bsp.entities()
        names = {fold(e["targetname"]): e["targetname"] for e in lump if e.get("targetname")}
        ranked = sorted((len(lump.targeting(name)), name) for name in names.values())
    return ranked[-1][1] if ranked and ranked[-1][0] else None


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_rename_target_renames_the_target_and_its_outputs_and_packs_the_file(path, tmp_path):
    old = most_targeted(path)
    if old is None:
        pytest.skip("no output in this map is aimed at a named entity")
    new, name, data = "bspedit_renamed", "materials/bspedit/renamed.vmt", b'"UnlitGeneric" {}\n'
    (tmp_path / "file.vmt").write_bytes(data)
    out = tmp_path / "out.bsp"
    result = run("rename_target.py", path, tmp_path / "file.vmt", name, old, new, out)
    with bspedit.open(path) as original, bspedit.open(out) as saved:
        before, after = original.entities(), saved.entities()
        fired = [e in before.targeting(old) for e in before]
        assert fired == [e in after.targeting(new) for e in after] and any(fired)
        assert not after.by_targetname(old) and len(after.by_targetname(new)) == \
            len(before.by_targetname(old))
        renamed = 0
        for entity, edited in zip(before, after):
            for (key, value), (new_key, new_value) in zip(entity.pairs(), edited.pairs()):
                assert new_key == key
                if fold(key) in ("targetname", "target", "killtarget") and fold(value) == fold(old):
                    expected = new
                else:
                    expected = retargeted(value, old, new)
                assert new_value == expected
                renamed += new_value != value
        assert renamed and result.stdout.startswith(f"{out}: {renamed} keyvalues renamed")
        assert saved.pakfile.read(name) == data
        assert len(saved.pakfile.entries) == len(original.pakfile.entries) + 1
        for lump in original.lumps:
            if lump.name not in ("ENTITIES", "PAKFILE"):
                assert saved.read_lump(lump.index) == original.read_lump(lump.index), lump.name


@pytest.mark.skipif(not CORPUS_MAPS, reason="../shared/corpus not present")
def test_rename_target_in_place_and_a_name_nothing_has(tmp_path):
    copy = tmp_path / "map.bsp"
    shutil.copyfile(CORPUS / "source" / "inscrutable_rocket_turret.bsp", copy)
    (tmp_path / "file.txt").write_text("x")
    run("rename_target.py", copy, tmp_path / "file.txt", "maps/x.txt", "RocketSentry_Enable", "on")
    with bspedit.open(copy) as bsp:
        assert len(bsp.entities().targeting("on")) == 4 and bsp.pakfile.read("maps/x.txt") == b"x"
    result = subprocess.run([sys.executable, str(EXAMPLES / "rename_target.py"), copy,
                             tmp_path / "file.txt", "maps/y.txt", "nothing", "x"],
                            capture_output=True, text=True)
    assert result.returncode == 1 and "nothing is named 'nothing'" in result.stderr


# -- skynames.py -----------------------------------------------------------------------------
@pytest.mark.skipif(not CORPUS_MAPS, reason="../shared/corpus not present")
def test_skynames_names_the_sky_of_every_map_of_every_family():
    lines = run("skynames.py", CORPUS).stdout.splitlines()
    assert len(lines) == len(CORPUS_MAPS)
    found = {}
    for line in lines:
        path, _, sky = line.partition(": ")
        found[str(Path(path).relative_to(CORPUS).with_suffix(""))] = sky
    assert {key[:key.index("/")] for key in found} == {"goldsrc", "q1", "q2", "q3", "source"}
    for key, sky in SKIES.items():
        assert found[key] == (sky or "(none: the engine default)"), key


# -- the guide's cookbook -------------------------------------------------------------------------
COOKBOOK = ROOT / "docs" / "howto" / "scripts.md"


def cookbook() -> list[str]:
    text = COOKBOOK.read_text()
    return re.findall(r"```python\n(.*?)```", text[text.index("\n## Cookbook\n"):], re.S)


def test_the_cookbook_has_recipes():
    assert len(cookbook()) >= 8


@pytest.mark.parametrize("code", cookbook(), ids=[f"recipe{i}" for i in range(len(cookbook()))])
def test_cookbook_recipe_runs(code, tmp_path):
    shutil.copyfile(ROOT / "tests" / "data" / "tiny.bsp", tmp_path / "map.bsp")
    (tmp_path / "maps").mkdir()
    shutil.copyfile(ROOT / "tests" / "data" / "tiny.bsp", tmp_path / "maps" / "tiny.bsp")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    with bspedit.open(tmp_path / "map.bsp") as bsp:      # whatever it saved still reads
        bsp.entities()


def readme_python() -> list[str]:
    """Every Python block of the README and the guide (docs/), the cookbook's and the others."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    blocks = [block for page in pages
              for block in re.findall(r"```python\n(.*?)```", page.read_text(), re.S)]
    return [textwrap.dedent(block) for block in blocks]


def unbound(table: symtable.SymbolTable) -> set[str]:
    """Names a block reads that it never imports or assigns, in any of its scopes."""
    names = {s.get_name() for s in table.get_symbols()
             if s.is_referenced() and (s.is_global() or table.get_type() == "module")
             and not (s.is_imported() or s.is_assigned() or s.is_parameter())}
    for child in table.get_children():
        names |= unbound(child)
    return names


@pytest.mark.parametrize("code", readme_python(),
                         ids=[f"block{i}" for i in range(len(readme_python()))])
def test_every_readme_python_block_compiles_and_imports_what_it_uses(code):
    module = symtable.symtable(code, "guide", "exec")
    assigned = {s.get_name() for s in module.get_symbols() if s.is_imported() or s.is_assigned()}
    assert unbound(module) - assigned - set(dir(builtins)) == set()
