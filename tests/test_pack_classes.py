"""Issue 40: what entity classes load by themselves (weapon scripts, the resources of entities
they spawn, breakable gib sets, scenes, models' animation events, `.hdr.vtf` siblings), the
soundscript files that define the sounds a map uses, and the VScripts its outputs and keys run.

On a mod assembled here in tmp_path (skipped without ../shared/content): models, textures and
sounds copied from ../shared/content, the scripts written here (weapon scripts, a soundscript
manifest, propdata, scenes, VScripts), a real map given entities with bspedit's own API. srctools'
packlist (`pack_from_bsp` + `pack_from_ents` + `eval_dependencies`, its soundscript and
soundscape manifests loaded) is the oracle: `deps` names every file it resolves, `autopack`
packs every one of the mod's. A plain run checks the assembled mod and two content maps;
`--full` every content map and every Source map of the corpus inside the assembled mod."""
from __future__ import annotations

import shutil
import struct
from pathlib import Path

import pytest
from packlist_oracle import packlist
from verbs import run_json

from bspedit.bsp import Bsp
from bspedit.cli import invoke
from bspedit.features.pack.model import asset_path

pytest.importorskip("srctools")

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CONTENT = SHARED / "content"
PORTAL, MSRC = CONTENT / "portalcollab", CONTENT / "msrc"
needs_content = pytest.mark.skipif(not CONTENT.is_dir(), reason="../shared/content not present")
CONTENT_MAPS = sorted(CONTENT.glob("*/maps/*.bsp")) if CONTENT.is_dir() else []
FAST_CONTENT = {"msrcdemo3.bsp", "pcollab_26_iambread_test.bsp"}
SOURCE_MAPS = sorted((SHARED / "corpus" / "source").glob("*.bsp"))
FAST_SOURCE = {"ths_l4d2_test_mechanic01_v21.bsp"}
MAP = "mymap"

GAMEINFO = ('"GameInfo"\n{\n\tgame "test"\n\tFileSystem\n\t{\n\t\tSearchPaths\n\t\t{\n'
            '\t\t\tgame |gameinfo_path|.\n\t\t\tgame |all_source_engine_paths|base\n'
            '\t\t}\n\t}\n}\n')

# The mod's scripts. The weapon script names a view and a world model, sounds (a soundscript
# and a file), a muzzle flash particle, a font glyph and a crosshair texture.
WEAPON_SCRIPT = """// a comment first, as Valve's have
WeaponData
{
    "printname" "#HL2_Crowbar"
    "viewmodel" "models/weapons/v_crowbar.mdl"
    "playermodel" "models/weapons/w_crowbar.mdl"
    "MuzzleFlashEffect_1stPerson" "test_muzzle"
    SoundData
    {
        "single_shot" "Weapon_Crowbar.Single"
        "melee_miss" "weapons/crowbar_miss.wav"
    }
    TextureData
    {
        "weapon"
        {
            "font" "WeaponIcons"
            "character" "c"
        }
        "crosshair"
        {
            "file" "sprites/crosshairs"
            "x" "0"
            "y" "48"
            "width" "24"
            "height" "24"
        }
    }
}
"""
MANIFEST = 'game_sounds_manifest\n{\n\t"precache_file" "scripts/game_sounds_mymod.txt"\n}\n'
SOUNDS = {  # name -> wave: each entry written as the mod's soundscript file holds it
    "Weapon_Crowbar.Single": "weapons/crowbar_single.wav",
    "HealthKit.Touch": "items/smallmedkit1.wav",
    "Test.Beep": "test/beep.wav",
    "NPC_Test.RunFootstepLeft": "test/step1.wav", "NPC_Test.RunFootstepRight": "test/step2.wav",
    "NPC_Test.FootstepLeft": "test/step3.wav", "NPC_Test.FootstepRight": "test/step4.wav",
    "Scene.Line": "test/line.wav", "Ambient.Hum": "test/hum.wav",
    "DoorTest.Open": "test/door_open.wav", "DoorTest.Locked": "test/door_locked.wav",
    "Unused.Entry": "test/unused.wav",
}
# A door model's door_options: prop_door_rotating's class function reads them from the model.
DOOR_OPTIONS = ('door_options { "defaults" { "open" "DoorTest.Open" "damage1" '
                '"models/gibs/wood_gib01a.mdl" } "hardware1" { "locked" "DoorTest.Locked" } }')
# BreakableModels at the top, where srctools' packlist looks for it (bspedit finds it at any
# depth)
PROPDATA = ('"BreakableModels"\n{\n\t"WoodChunks"\n\t{\n'
            '\t\t"models/gibs/wood_gib01a.mdl" "1"\n\t}\n}\n')

SCENE = """// Choreo version 1
actor "alyx"
{
  channel "audio"
  {
    event speak "line"
    {
      time 0.0 1.0
      param "Scene.Line"
      fixedlength
      cctype "cc_master"
      cctoken ""
    }
  }
}
event subscene "more"
{
  time 1.0 2.0
  param "scenes/mymap/sub.vcd"
}
scalesettings
{
  "CChoreoView" "100"
}
fps 60
snap off
"""
SUBSCENE = SCENE.replace('"Scene.Line"', '"test/raw_line.wav"').replace(
    'param "scenes/mymap/sub.vcd"', 'param "scenes/mymap/intro.vcd"')
VSCRIPTS = {
    "mapspawn": b"printl(\"mapspawn\")\n",
    "mymap/start": b'IncludeScript("mymap/util")\nself.PrecacheScriptSound("Test.Beep")\n',
    "mymap/util": b"function Util() {}\n",
    "mymap/keyed": b"function Think() { return 1 }\n",
    "mymap/init": b"x <- 1\n",
    "shared/helper": b"function Help() {}\n",
    "mymap/quotable": b"",
    "mymap/director": b"DirectorOptions <- {}\n",
}
# What HammerAddons' postcompiler packs into the map: scripts run by an output and by a
# `vscripts` key, and one nothing runs (a script may be run by a name built at run time).
INJECTED = {"scripts/vscripts/inject/INJECT_444f539a.nut": b'IncludeScript("mymap/util")\n',
            "scripts/vscripts/inject/INJECT_1a2b.nut": b"y <- 2\n",
            "scripts/vscripts/inject/INJECT_dead.nut": b"z <- 3\n"}


# -- helpers -------------------------------------------------------------------------------------
def run(*argv: object) -> tuple[int, dict]:
    code, _, (report,) = run_json([*map(str, argv), "--json"])
    return code, report


def write(root: Path, path: str, data: str | bytes) -> None:
    target = root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data.encode() if isinstance(data, str) else data)


Event = tuple[int, int, str, str]


def copy_model(source: Path, dest: Path, events: list[Event] | None = None,
               keyvalues: str = "") -> None:
    """A content model with its side files under a new name, given `events` and `keyvalues`
    (`patched`)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    stem = source.name[:-4]
    for side in source.parent.glob(stem + ".*"):
        data = side.read_bytes()
        if side.suffix == ".mdl":
            data = patched(data, events or [], keyvalues)
        (dest.parent / (dest.name[:-4] + side.name[len(stem):])).write_bytes(data)


def patched(data: bytes, events: list[Event], keyvalues: str) -> bytes:
    """A model whose first sequence has `events`, each `(event, flags, options, name)` as
    mstudioevent_t (cycle, event, type, options[64], name offset), and whose keyvalues are
    `keyvalues` (when given): both appended at the end of the file, the header pointing at
    them (studiohdr_t: length at 76, the sequences' offset at 192, the keyvalues' offset and
    size at 312)."""
    out = bytearray(data)
    if events:
        seq = struct.unpack_from("<i", out, 192)[0]
        at, names, blob = len(out), b"", b""
        for n, (event, flags, options, name) in enumerate(events):
            name_at = 80 * len(events) - 80 * n + len(names)
            blob += struct.pack("<fii64si", 0.5, event, flags, options.encode(), name_at)
            names += name.encode() + b"\0"
        out += blob + names
        struct.pack_into("<ii", out, seq + 24, len(events), at - seq)
    if keyvalues:
        struct.pack_into("<ii", out, 312, len(out), len(keyvalues) + 1)
        out += keyvalues.encode() + b"\0"
    struct.pack_into("<i", out, 76, len(out))
    return bytes(out)


def assemble(root: Path, bsp_source: Path, name: str = MAP) -> Path:
    """The test mod in `root` and its map `maps/<name>.bsp` (a copy of `bsp_source`)."""
    write(root, "gameinfo.txt", GAMEINFO)
    props, weapons = PORTAL / "models" / "props", PORTAL / "models" / "weapons"
    copy_model(props / "switch001.mdl", root / "models/weapons/v_crowbar.mdl")
    copy_model(weapons / "w_portalgun.mdl", root / "models/weapons/w_crowbar.mdl")
    # the health kit: NPC foot events, a sound, a particle effect, env_particlescript's sprite
    copy_model(props / "metal_box.mdl", root / "models/items/healthkit.mdl", events=[
        (1, 1 << 10, "NPC_Test", "AE_NPC_LEFTFOOT"),
        (14, 1 << 10, "Test.Beep", "AE_CL_PLAYSOUND"),
        (31, 1 << 10, "test_sparks follow_attachment eyes", "AE_CL_CREATE_PARTICLE_EFFECT"),
        (6002, 0, "eyes sprites/testglow", "")])
    copy_model(props / "box_socket_top_reference.mdl", root / "models/gibs/wood_gib01a.mdl")
    copy_model(props / "box_socket_base_reference.mdl", root / "models/props/testdoor.mdl",
               keyvalues=DOOR_OPTIONS)
    for folder in ("materials/models/props", "materials/models/weapons"):
        shutil.copytree(PORTAL / folder, root / folder, dirs_exist_ok=True)
    texture = (MSRC / "materials" / "madwall.vtf").read_bytes()
    for stem in ("sprites/crosshairs", "sprites/testglow"):
        write(root, f"materials/{stem}.vmt", f'"UnlitGeneric" {{ "$basetexture" "{stem}" }}\n')
        write(root, f"materials/{stem}.vtf", texture)
    write(root, "materials/sprites/crosshairs.hdr.vtf", texture)
    wave = (MSRC / "sound" / "door.wav").read_bytes()
    for path in [*SOUNDS.values(), "weapons/crowbar_miss.wav", "test/raw_line.wav"]:
        write(root, f"sound/{path}", wave)
    write(root, "scripts/weapon_crowbar.txt", WEAPON_SCRIPT)
    write(root, "scripts/game_sounds_manifest.txt", MANIFEST)
    write(root, "scripts/game_sounds_mymod.txt", "".join(
        f'"{name}"\n{{\n\t"channel" "CHAN_AUTO"\n\t"wave" "{wave}"\n}}\n\n'
        for name, wave in SOUNDS.items()))
    write(root, "scripts/propdata.txt", PROPDATA)
    # a real .pcf listed by the game's particle manifest, and a copy whose one system is
    # renamed (same length) that no manifest lists
    fire = (PORTAL / "particles" / "fire_02.pcf").read_bytes()
    write(root, "particles/fire_02.pcf", fire)
    assert fire.count(b"fire_verysmall_01\0") == 1
    write(root, "particles/mymap_unlisted.pcf", fire.replace(b"fire_verysmall_01\0",
                                                             b"fire_verysmall_99\0"))
    write(root, "particles/particles_manifest.txt",
          'particles_manifest\n{\n\t"file" "particles/fire_02.pcf"\n}\n')
    write(root, "scenes/mymap/intro.vcd", SCENE)
    write(root, "scenes/mymap/sub.vcd", SUBSCENE)
    for script, data in VSCRIPTS.items():
        write(root, f"scripts/vscripts/{script}.nut", data)
    bsp_path = root / "maps" / f"{name}.bsp"
    bsp_path.parent.mkdir(exist_ok=True)
    shutil.copyfile(bsp_source, bsp_path)
    add_entities(bsp_path)
    return bsp_path


def add_entities(bsp_path: Path) -> None:
    """The entities of the test, added with bspedit's entity API, and the postcompiler's
    scripts in the pakfile."""
    with Bsp.open(bsp_path) as bsp:
        ents = bsp.entities(lenient=True)
        ents.add_entity({"classname": "weapon_crowbar", "origin": "0 0 0"})
        ents.add_entity({"classname": "item_healthkit", "origin": "0 0 0"})
        ents.add_entity({"classname": "npc_headcrab", "spawnflags": "8", "origin": "0 0 0"})
        ents.add_entity({"classname": "func_breakable", "model": "*1", "material": "1"})
        ents.add_entity({"classname": "logic_choreographed_scene",
                         "SceneFile": "scenes/mymap/intro.vcd"})
        ents.add_entity({"classname": "ambient_generic", "message": "Ambient.Hum"})
        ents.add_entity({"classname": "info_particle_system", "effect_name": "Fire_Medium_01"})
        ents.add_entity({"classname": "info_particle_system",
                         "effect_name": "fire_verysmall_99"})
        ents.add_entity({"classname": "prop_door_rotating", "model": "models/props/testdoor.mdl",
                         "hardware": "1"})
        button = ents.add_entity({"classname": "func_button", "model": "*1"})
        # an ESC output, its input in mixed case, a script name without folder or extension
        button.outputs.add("OnPressed", "!self", "rUnScRiPtFiLe", "inject/INJECT_444f539a",
                           separator="\x1b")
        button.outputs.add("OnDamaged", "!self", "RunScriptCode",
                           "IncludeScript(`shared/helper`)", separator=",")
        button.outputs.add("OnUseLocked", "!self", "RunScriptCodeQuotable",
                           "DoIncludeScript(''mymap/quotable'', self)", separator="\x1b")
        ents.add_entity({"classname": "point_servercommand", "targetname": "cmd"})
        auto = ents.add_entity({"classname": "logic_auto"})
        auto.outputs.add("OnMapSpawn", "cmd", "Command",
                         "echo hi; script_execute mymap/start.nut", separator=",")
        auto.outputs.add("OnMapSpawn", "@director", "BeginScript", "mymap/director",
                         separator=",")
        ents.add_entity({"classname": "info_target", "vscripts": "Inject/INJECT_1a2b mymap/keyed",
                         "thinkfunction": "Think",
                         "vscript_init_code": "DoIncludeScript(`mymap/init`, self)"})
        for path, data in INJECTED.items():
            bsp.pakfile.add(path, data)
        bsp.save()


def check_against_packlist(root: Path, bsp_path: Path, tmp_path: Path) -> dict:
    """deps names every file packlist resolves, at the same kind of place; autopack packs
    every one of the mod's; audit then calls none of them (nor any VScript, soundscript file
    or class resource) unused. The deps report."""
    theirs = packlist([root], bsp_path, manifests=True)
    code, report = run("pak", "deps", bsp_path, "--game", root)
    assert code == 0
    files = {row["path"]: row for row in report["result"]["files"]}
    for path, kind in theirs.items():
        if kind == "missing":
            continue
        assert path in files, (path, kind)
        assert files[path]["location"] == {"content": "loose", "pak": "pak"}[kind], path
    out = tmp_path / ("packed_" + bsp_path.name)
    code, auto = run("pak", "autopack", bsp_path, "--game", root, "-o", out, "--allow-missing")
    assert code == 0
    packed = {row["path"] for row in auto["result"]["packed"]}
    already = set(auto["result"]["already_packed"])
    for path, kind in theirs.items():
        if kind == "content":
            assert path in packed or path in already, path
    code, audited = run("pak", "audit", out, "--game", root)
    assert code == 0
    unused = set(audited["result"]["unused"])
    assert not unused & (packed | set(theirs)), unused & (packed | set(theirs))
    assert not [p for p in unused if p.endswith(".nut") or p.startswith("scripts/")]
    return report["result"]


# -- the assembled mod ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def mod(tmp_path_factory) -> tuple[Path, Path]:
    if not CONTENT.is_dir():
        pytest.skip("../shared/content not present")
    root = tmp_path_factory.mktemp("mod")
    return root, assemble(root, MSRC / "maps" / "msrcdemo3.bsp")


@pytest.fixture(scope="module")
def report(mod) -> dict:
    root, bsp_path = mod
    code, found = run("pak", "deps", bsp_path, "--game", root)
    assert code == 0
    return found["result"]


def rows(report: dict) -> dict[str, dict]:
    return {row["path"]: row for row in report["files"]}


def names(report: dict) -> dict[str, dict]:
    return {f"{row['kind']}:{row['name']}": row for row in report["names"]}


@needs_content
def test_assembled_mod_against_packlist(mod, tmp_path):
    root, bsp_path = mod
    check_against_packlist(root, bsp_path, tmp_path)


@needs_content
def test_weapon_script_chain(report):
    """weapon_crowbar's class resource is its weapon script; the script's models (with their
    side files and materials), sounds, particle and HUD crosshair follow, each a class
    resource whose reason is the whole chain."""
    files, named = rows(report), names(report)
    script = files["scripts/weapon_crowbar.txt"]
    assert script["class_resource"] and script["optional"] and script["location"] == "loose"
    index = int(script["reason"][0].split()[1])
    assert script["reason"] == [f"entity {index} weapon_crowbar (class resources)"]
    view = files["models/weapons/v_crowbar.mdl"]
    assert view["reason"] == [*script["reason"], "scripts/weapon_crowbar.txt viewmodel"]
    assert view["class_resource"] and view["location"] == "loose"
    assert files["models/weapons/w_crowbar.mdl"]["reason"][-1] == \
        "scripts/weapon_crowbar.txt playermodel"
    for side in (".vvd", ".dx90.vtx", ".phy"):
        assert files["models/weapons/v_crowbar" + side]["location"] == "loose"
    assert files["materials/models/props/switch001.vmt"]["class_resource"]
    # SoundData: a soundscript, defined in the mod's file, and a file
    single = named["soundscript:weapon_crowbar.single"]
    assert single["resolved"] and single["defined_in"] == "scripts/game_sounds_mymod.txt"
    assert single["reason"][-1] == "scripts/weapon_crowbar.txt SoundData single_shot"
    assert files["sound/weapons/crowbar_single.wav"]["location"] == "loose"
    assert files["sound/weapons/crowbar_miss.wav"]["reason"][-1] == \
        "scripts/weapon_crowbar.txt SoundData melee_miss"
    assert named["particle:test_muzzle"]["resolved"] is None
    # the crosshair: the material the engine draws, the texture packlist names, its HDR
    # sibling; the font glyph names nothing
    vmt = files["materials/sprites/crosshairs.vmt"]
    assert vmt["reason"][-1] == "scripts/weapon_crowbar.txt TextureData crosshair file"
    assert "packlist" in files["materials/sprites/crosshairs.vtf"]["reason"][-1] or \
        files["materials/sprites/crosshairs.vtf"]["reason"][-1].endswith("$basetexture")
    assert files["materials/sprites/crosshairs.hdr.vtf"]["reason"][-1].endswith("HDR sibling")
    assert not [p for p in files if "weaponicons" in p]


@needs_content
def test_spawned_entities_gibs_scenes_and_events(report):
    files, named = rows(report), names(report)
    # npc_headcrab with spawnflag 8 drops an item_healthkit: that class's resources, with
    # the NPC's reason
    kit = files["models/items/healthkit.mdl"]
    assert kit["class_resource"] and kit["location"] == "loose"
    reasons = {tuple(row["reason"][:1]) for row in report["names"]
               if row["name"] == "healthkit.touch"}
    assert reasons and all(r[0].endswith("(class resources)") for r in reasons)
    # the model's animation events: footsteps of its prefix, a sound, a particle, a sprite
    for foot in ("runfootstepleft", "runfootstepright", "footstepleft", "footstepright"):
        row = named[f"soundscript:npc_test.{foot}"]
        assert row["resolved"] and row["reason"][-1].startswith("models/items/healthkit.mdl")
    assert named["soundscript:test.beep"]["resolved"]
    assert "particle:test_sparks" in named
    assert files["materials/sprites/testglow.vmt"]["reason"][-1].startswith(
        "models/items/healthkit.mdl sequence")
    # func_breakable's gib set, looked up in the mod's propdata
    gibs = named["breakable:woodchunks"]
    assert gibs["resolved"] and gibs["defined_in"] == "scripts/propdata.txt"
    assert files["models/gibs/wood_gib01a.mdl"]["location"] == "loose"
    assert files["scripts/propdata.txt"]["class_resource"]
    # prop_door_rotating's class function reads the door's model: its sounds and damage model
    for sound in ("doortest.open", "doortest.locked"):
        assert named[f"soundscript:{sound}"]["reason"][0].endswith(
            "prop_door_rotating (class resources)")
    assert files["sound/test/door_locked.wav"]["location"] == "loose"
    # the scene: its line (a soundscript), its sub-scene and that one's raw sound
    assert named["soundscript:scene.line"]["reason"][-1] == "scenes/mymap/intro.vcd speak"
    assert files["scenes/mymap/sub.vcd"]["reason"][-1] == "scenes/mymap/intro.vcd subscene"
    assert files["sound/test/raw_line.wav"]["location"] == "loose"


@needs_content
def test_soundscript_names_lead_to_their_file(report):
    """Each used name names the file that defines it: required when a key the map wrote
    needs the name (ambient_generic), optional when only class resources do."""
    files, named = rows(report), names(report)
    hum = named["soundscript:ambient.hum"]
    assert hum["defined_in"] == "scripts/game_sounds_mymod.txt" and not hum["optional"]
    row = files["scripts/game_sounds_mymod.txt"]
    assert not row["optional"] and row["reason"][-1] == "soundscript:ambient.hum defined in"
    assert "soundscript:unused.entry" not in named
    assert "sound/test/unused.wav" not in files


@needs_content
def test_particle_names_lead_to_their_pcf(report):
    """A system name (any case) leads to the .pcf a particle manifest lists that defines it;
    one only an unlisted .pcf defines leads there, the reason saying the engine will not load
    it; a name no .pcf here defines is unknown (the mod's base search path is not here)."""
    files, found = rows(report), names(report)
    listed = found["particle:fire_medium_01"]
    assert listed["resolved"] is True and listed["defined_in"] == "particles/fire_02.pcf"
    assert files["particles/fire_02.pcf"]["location"] == "loose"
    assert any("particle:fire_medium_01 defined in" in step
               for step in files["particles/fire_02.pcf"]["reason"])
    unlisted = found["particle:fire_verysmall_99"]
    assert unlisted["defined_in"] == "particles/mymap_unlisted.pcf"
    assert "not in a particle manifest" in files["particles/mymap_unlisted.pcf"]["reason"][-1]
    assert found["particle:test_muzzle"]["resolved"] is None and report["unknown_reason"]
    # the systems' materials follow from the file
    assert any(p.startswith("materials/") and "fire_02.pcf" in " ".join(r["reason"])
               for p, r in files.items())


@needs_content
def test_vscripts_from_outputs_and_keys(report):
    files = rows(report)
    want = {
        "scripts/vscripts/inject/inject_444f539a.nut": ("pak", "RunScriptFile"),
        "scripts/vscripts/shared/helper.nut": ("loose", "IncludeScript"),
        "scripts/vscripts/mymap/quotable.nut": ("loose", "DoIncludeScript"),
        "scripts/vscripts/mymap/start.nut": ("loose", "script_execute"),
        "scripts/vscripts/mymap/director.nut": ("loose", "BeginScript"),
        "scripts/vscripts/inject/inject_1a2b.nut": ("pak", "'vscripts'"),
        "scripts/vscripts/mymap/keyed.nut": ("loose", "'vscripts'"),
        "scripts/vscripts/mymap/init.nut": ("loose", "DoIncludeScript"),
        # what the scripts include in turn
        "scripts/vscripts/mymap/util.nut": ("loose", "IncludeScript"),
    }
    for path, (where, word) in want.items():
        row = files[path]
        assert row["location"] == where and not row["optional"], path
        assert word in " ".join(row["reason"]), (path, row["reason"])
    assert files["scripts/vscripts/mapspawn.nut"]["optional"]
    assert files["scripts/vscripts/mapspawn.nut"]["location"] == "loose"
    # thinkfunction names a function, not a file
    assert not [p for p in files if "think" in p]
    assert "scripts/vscripts/inject/inject_dead.nut" not in files


@needs_content
def test_autopack_level_sounds_and_audit(mod, tmp_path):
    """autopack packs the mod's soundscript file and appends the entries the map uses to its
    level sounds, byte for byte; on the base game alone (no mod) every used name is then
    defined, by the map's own file; audit keeps the unreached injected script apart."""
    root, bsp_path = mod
    out = tmp_path / f"{MAP}.bsp"
    code, auto = run("pak", "autopack", bsp_path, "--game", root, "-o", out, "--allow-missing")
    assert code == 0
    result = auto["result"]
    packed = {row["path"]: row for row in result["packed"]}
    assert packed["scripts/game_sounds_mymod.txt"]["size"] > 0
    assert packed["models/weapons/v_crowbar.mdl"]["class_resource"]
    (level,) = result["level_sounds"]
    assert level["path"] == f"maps/{MAP}_level_sounds.txt" and not level["existed"]
    used = {n.casefold() for n in SOUNDS} - {"unused.entry"}
    assert set(level["added"]) == used
    source = (root / "scripts/game_sounds_mymod.txt").read_bytes()
    with Bsp.open(out) as bsp:
        text = bsp.pakfile.read(level["path"])
    for name in SOUNDS:
        entry = source[source.index(f'"{name}"'.encode()):]
        entry = entry[:entry.index(b"}") + 1]
        assert (entry in text) == (name != "Unused.Entry"), name
    # the base game alone: an empty game with the packed map
    base = tmp_path / "base"
    write(base, "gameinfo.txt", GAMEINFO)
    code, alone = run("pak", "deps", out, "--game", base)
    assert code == 0
    for row in alone["result"]["names"]:
        if row["kind"] == "soundscript" and row["name"] in used:
            assert row["defined_in"] == level["path"], row
    for wave in (v for k, v in SOUNDS.items() if k != "Unused.Entry"):
        assert rows(alone["result"])[f"sound/{wave}"]["location"] == "pak"
    # a second run adds nothing and keeps the file's bytes
    code, again = run("pak", "autopack", out, "--game", root, "--in-place", "--allow-missing")
    assert code == 0 and again["result"]["level_sounds"] == []
    assert again["result"]["save"]["changed"] == []
    code, audited = run("pak", "audit", out, "--game", root)
    assert code == 0
    res = audited["result"]
    # the injected script nothing runs, and the packed soundscript file, whose used entries
    # the map's level sounds now define: not reached, never unused
    assert set(res["scripts_not_reached"]) == {"scripts/vscripts/inject/inject_dead.nut",
                                               "scripts/game_sounds_mymod.txt"}
    assert res["unused"] == []


@needs_content
def test_the_maps_own_level_sounds_win(tmp_path):
    """A map whose own level sounds define a name keeps its entry and its bytes; the other
    used entries are appended after them; when it defines all, nothing changes."""
    root = tmp_path / "mod"
    bsp_path = assemble(root, MSRC / "maps" / "msrctest.bsp")
    own = b'// the map\'s own\n"Test.Beep"\n{\n\t"wave" "test/own_beep.wav"\n}'
    with Bsp.open(bsp_path) as bsp:
        bsp.pakfile.add(f"maps/{MAP}_level_sounds.txt", own)
        bsp.save()
    out = tmp_path / "out.bsp"
    code, auto = run("pak", "autopack", bsp_path, "--game", root, "-o", out, "--allow-missing")
    assert code == 0
    (level,) = auto["result"]["level_sounds"]
    assert level["existed"] and "test.beep" not in level["added"]
    with Bsp.open(out) as bsp:
        text = bsp.pakfile.read(level["path"])
    assert text.startswith(own + b"\n") and text.count(b'"Test.Beep"') == 1
    assert b'"Weapon_Crowbar.Single"' in text
    # a mod whose own level sounds file for the map defines every name: packed as it is
    root = tmp_path / "mod2"
    bsp_path = assemble(root, MSRC / "maps" / "msrctest.bsp")
    complete = (root / "scripts/game_sounds_mymod.txt").read_bytes()
    write(root, f"maps/{MAP}_level_sounds.txt", complete)
    out2 = tmp_path / "out2.bsp"
    code, auto = run("pak", "autopack", bsp_path, "--game", root, "-o", out2, "--allow-missing")
    assert code == 0 and auto["result"]["level_sounds"] == []
    assert f"maps/{MAP}_level_sounds.txt" in {r["path"] for r in auto["result"]["packed"]}
    with Bsp.open(out2) as bsp:
        assert bsp.pakfile.read(f"maps/{MAP}_level_sounds.txt") == complete


FGD = """@PointClass base(Targetname) = monster_scientist : "Half-Life: Source's scientist"
[
    body(integer) : "Body" : 0
    @resources
    [
        mdl "models/scientist.mdl"
        snd "Scientist.Pain"
        weapon_script "scripts/gameplay/weapons/weapon_sci.dmx"
        entity item_healthkit
    ]
]
@PointClass = weapon_crowbar : "a crowbar of this mod"
[
    @resources
    [
        weapon_script "scripts/weapon_mycrowbar.txt"
    ]
]
"""


@needs_content
def test_fgd_adds_and_overrides_classes(tmp_path):
    """--fgd: a class the database lacks (HL:S monster_scientist), with a DMX weapon script
    (Black Mesa's form) and another class's resources; a class it overrides. Oracle: srctools'
    packlist packing the FGD's resources (`get_resources`) and evaluating them."""
    from srctools.dmx import Element
    from srctools.fgd import ResourceCtx
    from srctools.filesys import FileSystemChain, RawFileSystem
    from srctools.packlist import PackList
    from srctools.vmf import VMF, Entity

    from bspedit.features.pack.entity_assets import EntityDatabase

    root = tmp_path / "mod"
    bsp_path = assemble(root, MSRC / "maps" / "msrctest.bsp")
    copy_model(PORTAL / "models/props/switch001.mdl", root / "models/scientist.mdl")
    copy_model(PORTAL / "models/weapons/w_portalgun.mdl", root / "models/sci_gun.mdl")
    write(root, "scripts/weapon_mycrowbar.txt", WEAPON_SCRIPT.replace("v_crowbar", "v_mine"))
    copy_model(PORTAL / "models/props/metal_box.mdl", root / "models/weapons/v_mine.mdl")
    weapon = Element("weapon_sci", "DmElement")
    weapon["viewmodel"] = "models/sci_gun.mdl"
    sounds = Element("sounds", "DmElement")
    sounds["fire"] = "Test.Beep"
    weapon["sounds"] = sounds
    target = root / "scripts/gameplay/weapons/weapon_sci.dmx"
    target.parent.mkdir(parents=True)
    with target.open("wb") as f:
        weapon.export_binary(f, fmt_name="weapon", fmt_ver=1)
    fgd = tmp_path / "hls.fgd"
    fgd.write_text(FGD)
    with Bsp.open(bsp_path) as bsp:
        bsp.entities(lenient=True).add_entity({"classname": "monster_scientist"})
        bsp.save()
    code, without = run("pak", "deps", bsp_path, "--game", root)
    assert "models/scientist.mdl" not in rows(without["result"])
    code, report = run("pak", "deps", bsp_path, "--game", root, "--fgd", fgd)
    assert code == 0
    files = rows(report["result"])
    for path in ("models/scientist.mdl", "scripts/gameplay/weapons/weapon_sci.dmx",
                 "models/sci_gun.mdl", "models/items/healthkit.mdl",
                 "scripts/weapon_mycrowbar.txt", "models/weapons/v_mine.mdl"):
        assert files[path]["location"] == "loose" and files[path]["class_resource"], path
    assert files["models/sci_gun.mdl"]["reason"][-1] == \
        "scripts/gameplay/weapons/weapon_sci.dmx viewmodel"
    assert "scripts/weapon_crowbar.txt" not in files        # the override replaced it
    assert names(report["result"])["soundscript:test.beep"]["resolved"]
    # the oracle: packlist packs what the FGD's classes load, and evaluates it
    database = EntityDatabase([fgd])
    packer = PackList(FileSystemChain(RawFileSystem(str(root))))
    packer.load_soundscript_manifest()
    ctx = ResourceCtx(fgd=database.resources, fsys=packer.fsys)
    for classname in ("monster_scientist", "weapon_crowbar"):
        ent = Entity(VMF(), keys={"classname": classname})
        for kind, value in database.resources(classname).get_resources(ctx, ent=ent):
            packer.pack_file(value, kind)
    packer.eval_dependencies()
    resolved = {asset_path(f.filename) for f in packer if asset_path(f.filename) in
                packer.fsys}
    assert resolved and resolved <= set(files), resolved - set(files)
    # a missing or broken FGD is bad input: exit 2, one line
    for bad in (tmp_path / "none.fgd", bsp_path):
        done = invoke(["pak", "deps", str(bsp_path), "--game", str(root), "--fgd", str(bad)],
                      capture=True)
        assert done.code == 2 and len(done.stderr.strip().splitlines()) == 1


# -- every map -----------------------------------------------------------------------------------
@needs_content
@pytest.mark.parametrize("bsp_path", [pytest.param(p, id=f"{p.parent.parent.name}/{p.name}",
                                                   marks=() if p.name in FAST_CONTENT
                                                   else pytest.mark.full)
                                      for p in CONTENT_MAPS])
def test_content_maps_against_packlist_with_manifests(bsp_path, tmp_path):
    """The real mods as they are, packlist's manifests loaded."""
    root = bsp_path.parent.parent
    src = tmp_path / bsp_path.name
    shutil.copyfile(bsp_path, src)
    theirs = packlist([root], bsp_path, manifests=True)
    code, report = run("pak", "deps", src, "--game", root)
    assert code == 0
    files = rows(report["result"])
    assert [p for p, kind in theirs.items() if kind != "missing" and p not in files] == []


@needs_content
@pytest.mark.parametrize("bsp_source", [pytest.param(p, id=p.name,
                                                     marks=() if p.name in FAST_SOURCE
                                                     else pytest.mark.full)
                                        for p in SOURCE_MAPS])
def test_corpus_maps_in_the_assembled_mod(bsp_source, tmp_path):
    """Every Source map of the corpus, given the test's entities, in the assembled mod."""
    root = tmp_path / "mod"
    bsp_path = assemble(root, bsp_source, name=bsp_source.stem.lower())
    check_against_packlist(root, bsp_path, tmp_path)


# -- the rules, on bytes (no content needed) ----------------------------------------------------
TINY = Path(__file__).parent / "data" / "tiny.bsp"


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "map.bsp"
    shutil.copyfile(TINY, path)
    with Bsp.open(path) as bsp:
        yield bsp


def test_script_names_resolve_like_the_engine():
    from bspedit.features.pack.vscripts import script_path

    for name in ("inject/INJECT_444f539a", "Inject\\INJECT_444f539a.nut",
                 "scripts/vscripts/inject/inject_444f539a.nut", " inject//inject_444f539a "):
        assert script_path(name) == "scripts/vscripts/inject/inject_444f539a.nut", name
    assert script_path("a.gnut") == "scripts/vscripts/a.gnut"


def test_scripts_outputs_and_code_keys_run(tiny):
    """Every form of running a script, input names in any case, both separators; what names
    a function (thinkfunction, CallScriptFunction) or runs no literal include names nothing."""
    from bspedit.features.pack.vscripts import entity_script_references

    esc = "\x1b"
    tiny.replace_entities((
        '{"classname" "worldspawn"}\n'
        '{"classname" "func_button" '
        f'"OnPressed" "!self{esc}RUNSCRIPTFILE{esc}a/one{esc}0{esc}-1" '
        '"OnDamaged" "!self,runscriptcode,IncludeScript(`b/two`),0,-1" '
        f'"OnUser1" "!self{esc}RunScriptCode{esc}DoIncludeScript(`c`, self){esc}0{esc}-1" '
        '"OnUser2" "x,RunScriptCode,Think(),0,-1" '
        '"OnUser3" "x,CallScriptFunction,Think,0,-1" '
        f'"OnUser4" "!self{esc}RunScriptCodeQuotable{esc}IncludeScript(\'\'d\'\'){esc}0{esc}-1"}}\n'
        '{"classname" "point_clientcommand" "targetname" "cc"}\n'
        '{"classname" "logic_auto" "OnMapSpawn" "cc,Command,script_execute e.nut,0,-1" '
        '"OnMapSpawn" "cc,Command,script IncludeScript(`f`),0,-1" '
        '"OnMapSpawn" "cc,Command,ent_fire x runscriptfile g;echo,0,-1" '
        '"OnMapSpawn" "@director,BeginScript,h,0,-1"}\n'
        '{"classname" "info_target" "thinkfunction" "Think" '
        '"vscript_init_code3" "IncludeScript(`i`)"}\n\x00').encode())
    got = {r.path[len("scripts/vscripts/"):]: r.reason for r in entity_script_references(tiny)}
    assert got == {
        "a/one.nut": ("entity 1 func_button 'OnPressed'", "RunScriptFile"),
        "b/two.nut": ("entity 1 func_button 'OnDamaged'", "RunScriptCode", "IncludeScript"),
        "c.nut": ("entity 1 func_button 'OnUser1'", "RunScriptCode", "DoIncludeScript"),
        "d.nut": ("entity 1 func_button 'OnUser4'", "RunScriptCodeQuotable", "IncludeScript"),
        "e.nut": ("entity 3 logic_auto 'OnMapSpawn'", "Command", "script_execute"),
        "f.nut": ("entity 3 logic_auto 'OnMapSpawn'", "Command", "script", "IncludeScript"),
        "g.nut": ("entity 3 logic_auto 'OnMapSpawn'", "Command", "ent_fire", "RunScriptFile"),
        "h.nut": ("entity 3 logic_auto 'OnMapSpawn'", "BeginScript"),
        "i.nut": ("entity 4 info_target 'vscript_init_code3'", "IncludeScript"),
    }


@pytest.mark.skipif(not (SHARED / "corpus" / "source").is_dir(), reason="../shared is absent")
def test_real_l4d2_map_runs_its_director_scripts():
    """The corpus's L4D2 maps start director scripts with BeginScript outputs (ESC-separated)
    and a finale script by trigger_finale's ScriptFile: each is a required reference."""
    from bspedit.features.pack.refs import map_references

    path = SHARED / "corpus" / "source" / "ths_l4d2_as_devtest_map_01_v21.bsp"
    with Bsp.open(path) as bsp:
        refs = {r.path: r for r in map_references(bsp)}
    for script in ("as_m1_p2_disable_panic", "as_m1_p1_panic", "as_map_director_intro",
                   "assaultgmmanager", "maps/as_l4d_devtest_map_01/as_tasks_list"):
        ref = refs[f"scripts/vscripts/{script}.nut"]
        assert not ref.optional and not ref.class_resource, script
    with Bsp.open(SHARED / "corpus" / "source" / "ths_l4d2_test_mechanic01_v21.bsp") as bsp:
        refs = {r.path: r for r in map_references(bsp)}
    assert refs["scripts/vscripts/d_thsdev_test_mechanic_01.nut"].reason[-1] == "BeginScript"
    assert "scripts/vscripts/thsdev_test_mechanic_01_finale.nut" in refs


def test_level_sounds_blocks():
    from bspedit.features.pack.levelsounds import blocks

    text = (b'// "Not.A" { }\n"A.One" [$X360] { "wave" "a.wav" "rndwave" { "wave" "{x}.wav" } }\n'
            b'B.Two\n{\n\twave b.wav // } not the end\n}\n"a.one" { "wave" "later.wav" }\n'
            b'"Open" {')
    spans = blocks(text)
    assert set(spans) == {"a.one", "b.two"}
    start, end = spans["b.two"]
    assert text[start:end] == b'B.Two\n{\n\twave b.wav // } not the end\n}'
    assert text[slice(*spans["a.one"])] == b'"a.one" { "wave" "later.wav" }'  # the later one


def test_animation_event_references():
    from bspedit.features.pack.model import Reference
    from bspedit.features.pack.models import event_references

    ref = Reference("models/x.mdl", ("test",), class_resource=True)

    def got(event: str, options: str) -> list[str]:
        out = event_references(ref, "idle", event, options)
        assert all(r.class_resource and r.reason == ("test", "models/x.mdl sequence idle")
                   for r in out)
        return [r.path for r in out]

    assert got("AE_NPC_LEFTFOOT", "") == [f"soundscript:npc_combines.{f}" for f in (
        "runfootstepleft", "runfootstepright", "footstepleft", "footstepright")]
    assert got("AE_NPC_RIGHTFOOT", "NPC_Citizen")[0] == "soundscript:npc_citizen.runfootstepleft"
    assert got("AE_SV_PLAYSOUND", "Weapon.Fire") == ["soundscript:weapon.fire"]
    assert got("SCRIPT_EVENT_SOUND", "*Weapons\\Fire.WAV") == ["sound/weapons/fire.wav"]
    assert got("AE_CL_CREATE_PARTICLE_EFFECT", "Sparks follow_attachment muzzle") == \
        ["particle:sparks"]
    assert got("AE_CL_CREATE_PARTICLE_EFFECT", "Sparks") == []
    assert got("CL_EVENT_SPRITEGROUP_CREATE", "eyes sprites/Glow01.spr") == \
        ["materials/sprites/glow01.vmt"]
    assert got("AE_NPC_BODYDROP_HEAVY", "x") == []


def test_weapon_script_forms():
    """One-line blocks, a TextureFileRefs key, a .txt that is no weapon script, DMX."""
    import io

    from srctools.dmx import Element

    from bspedit.features.pack.chains import follow
    from bspedit.features.pack.model import Reference

    script = (b'"WeaponData" { "viewmodel" "v_gun" "EjectBrassEffect" "Brass" '
              b'"TextureFileRefs" { "file_hi" { "prefix" "hi_" } } '
              b'"TextureData" { "ammo" { "file_hi" "hud/ammo_hi" "file" "hud/ammo" } '
              b'"icon" { "font" "Icons" "character" "a" } } '
              b'"SoundData" { "empty" "Weapon.Empty" "reload" "" } }')
    dmx = Element("weapon", "DmElement")
    dmx["playermodel_multiplayer"] = "models/w_gun_mp.mdl"
    buffer = io.BytesIO()
    dmx.export_binary(buffer, fmt_name="weapon", fmt_ver=1)
    files = {"scripts/weapon_gun.txt": script, "scripts/chapters.txt": b'"chapters" { "1" "c1" }',
             "materials/hud/ammo.vtf": b"",
             "scripts/gameplay/weapons/weapon_gun.dmx": buffer.getvalue()}
    got = {r.path: r.reason[-1] for r in follow(
        [Reference(p, ("test",)) for p in ("scripts/weapon_gun.txt", "scripts/chapters.txt",
                                          "scripts/gameplay/weapons/weapon_gun.dmx")],
        files.get) if r.reason != ("test",)}
    assert got == {
        "models/v_gun.mdl": "scripts/weapon_gun.txt viewmodel",
        "particle:brass": "scripts/weapon_gun.txt EjectBrassEffect",
        "materials/hud/ammo_hi.vmt": "scripts/weapon_gun.txt TextureData ammo file_hi",
        "materials/hud/ammo.vmt": "scripts/weapon_gun.txt TextureData ammo file",
        "materials/hud/ammo.vtf": "scripts/weapon_gun.txt TextureData ammo file (srctools' "
                                  "packlist's reading: the engine loads the .vmt)",
        "soundscript:weapon.empty": "scripts/weapon_gun.txt SoundData empty",
        "models/w_gun_mp.mdl": "scripts/gameplay/weapons/weapon_gun.dmx "
                               "playermodel_multiplayer",
    } | {p: "models/v_gun.mdl model file" for p in (
        "models/v_gun.vvd", "models/v_gun.dx90.vtx", "models/v_gun.dx80.vtx",
        "models/v_gun.sw.vtx", "models/v_gun.vtx", "models/v_gun.phy")} | {
        p: "models/w_gun_mp.mdl model file" for p in (
        "models/w_gun_mp.vvd", "models/w_gun_mp.dx90.vtx", "models/w_gun_mp.dx80.vtx",
        "models/w_gun_mp.sw.vtx", "models/w_gun_mp.vtx", "models/w_gun_mp.phy")}


def test_class_resources_are_marked_and_follow_keys(tiny):
    """Class resources are optional and marked; spawnflags and the keys that spawn another
    class follow the map's values (npc_* with flag 8 drops a health kit, additionalequipment
    gives a weapon and its script); a map key naming the same path is required, unmarked."""
    from bspedit.features.pack.classres import class_references
    from bspedit.features.pack.refs import map_references

    tiny.replace_entities(b'{"classname" "worldspawn"}'
                          b'{"classname" "npc_headcrab"}'
                          b'{"classname" "npc_headcrab" "spawnflags" "8"}'
                          b'{"classname" "npc_combine_s" "additionalequipment" "weapon_smg1"}'
                          b'{"classname" "prop_dynamic" "model" "models/items/healthkit.mdl"}'
                          b'\x00')
    refs = class_references(tiny, "map")
    assert all(r.optional and r.class_resource for r in refs)
    by_entity: dict[int, set[str]] = {}
    for r in refs:
        by_entity.setdefault(int(r.reason[0].split()[1]), set()).add(r.path)
    assert "models/items/healthkit.mdl" not in by_entity[1]
    assert "models/items/healthkit.mdl" in by_entity[2]
    assert "scripts/weapon_smg1.txt" in by_entity[3]
    mapped = {r.path: r for r in map_references(tiny)}
    kit = mapped["models/items/healthkit.mdl"]
    assert not kit.optional and not kit.class_resource
    assert kit.reason == ("entity 4 prop_dynamic 'model'",)


def test_mapbase_manifest():
    """Mapbase's per-map manifest: a map-named file whose entries load files and scripts."""
    from bspedit.features.pack.chains import follow
    from bspedit.features.pack.model import Reference
    from bspedit.features.pack.refs import SIDE_FILES

    assert "maps/{map}_manifest.txt" in SIDE_FILES
    manifest = (b'"MapManifest"\n{\n\t"NoErrors" "1"\n\t"vscript" "maps/%mapname%_spawn"\n'
                b'\t"talker" "maps/%mapname%_talker.txt"\n'
                b'\t"localization" "maps/%mapname%_%language%.txt"\n}\n')
    got = follow([Reference("maps/mymap_manifest.txt", ("map-named file",), True)],
                 {"maps/mymap_manifest.txt": manifest}.get, map_name="MyMap")
    assert {r.path: r.reason[-1] for r in got[1:]} == {
        "scripts/vscripts/maps/mymap_spawn.nut": "maps/mymap_manifest.txt vscript",
        "maps/mymap_talker.txt": "maps/mymap_manifest.txt talker",
        "maps/mymap_english.txt": "maps/mymap_manifest.txt localization"}
    assert all(r.optional for r in got)
