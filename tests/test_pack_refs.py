"""The references a Source map makes by itself (bspedit.features.pack.refs) and the entity
table (entity_assets): each rule on synthetic entity text in a copy of tests/data/tiny.bsp,
hand-checked lists for two small maps of ../shared/content, and properties over every map of
../shared/content and the Source corpus (skipped when absent)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import bspedit
from bspedit.features.pack import entity_assets as ea
from bspedit.features.pack.model import (
    PARTICLE,
    SOUNDSCAPE,
    SOUNDSCRIPT,
    Reference,
    asset_path,
    is_file,
)
from bspedit.features.pack.refs import (
    SIDE_FILES,
    SKY_FACES,
    all_references,
    dedupe,
    entity_references,
    key_references,
    map_references,
)
from bspedit.features.pack.vscripts import MAPSPAWN

HERE = Path(__file__).parent
TINY = HERE / "data" / "tiny.bsp"
CONTENT = HERE.parent.parent / "shared" / "content"
CORPUS = HERE.parent.parent / "shared" / "corpus" / "source"
CONTENT_MAPS = sorted(CONTENT.glob("*/maps/*.bsp"))
CORPUS_MAPS = sorted(CORPUS.glob("*.bsp"))

needs_content = pytest.mark.skipif(not CONTENT_MAPS, reason="../shared/content is absent")
try:
    import srctools  # noqa: F401
    HAVE_SRCTOOLS = True
except ImportError:
    HAVE_SRCTOOLS = False
needs_srctools = pytest.mark.skipif(not HAVE_SRCTOOLS, reason="srctools is not installed")


@pytest.fixture
def tiny(tmp_path):
    """A copy of tiny.bsp named `map.bsp`, opened; its entities are replaced in memory."""
    path = tmp_path / "map.bsp"
    shutil.copyfile(TINY, path)
    with bspedit.open(path) as bsp:
        yield bsp


def entity_refs(bsp, text: str) -> dict[str, tuple[tuple[str, ...], bool]]:
    """{path: (reason, optional)} of the entity references of worldspawn plus `text`."""
    body = '{\n"classname" "worldspawn"\n}\n' + text + "\x00"
    bsp.replace_entities(body.encode("latin-1"))
    return {r.path: (r.reason, r.optional) for r in dedupe(entity_references(bsp))}


def paths(bsp, text: str) -> set[str]:
    return set(entity_refs(bsp, text))


# -- the table's rules, one by one -------------------------------------------------------------
@pytest.mark.parametrize("text, expected", [
    # models: a file; case folded; `*N` brush models are no file
    ('{"classname" "prop_dynamic" "model" "Models/Props/Box.MDL"}', {"models/props/box.mdl"}),
    ('{"classname" "func_door" "model" "*3"}', set()),
    ('{"classname" "some_mod_entity" "model" "models/x.mdl"}', {"models/x.mdl"}),
    ('{"classname" "npc_turret_floor" "Model" "models/npcs/turret.mdl"}',
     {"models/npcs/turret.mdl"}),
    # sprites: .spr and .vmt values are materials under materials/
    ('{"classname" "env_sprite" "model" "sprites/glow01.spr"}', {"materials/sprites/glow01.vmt"}),
    ('{"classname" "env_glow" "model" "sprites/light_glow02.spr"}',
     {"materials/sprites/light_glow02.vmt"}),
    ('{"classname" "env_sprite_oriented" "model" "sprites/glow08.vmt"}',
     {"materials/sprites/glow08.vmt"}),
    ('{"classname" "env_spritetrail" "spritename" "sprites/bluelaser1.vmt"}',
     {"materials/sprites/bluelaser1.vmt"}),
    ('{"classname" "env_beam" "texture" "sprites/laserbeam.spr"}',
     {"materials/sprites/laserbeam.vmt"}),
    ('{"classname" "env_beam" "texture" "effects/redlaser1.vmt" "decalname" "Bigshot"}',
     {"materials/effects/redlaser1.vmt"}),
    ('{"classname" "env_laser" "texture" "sprites/laserbeam.spr" "EndSprite" "sprites/glow.vmt"}',
     {"materials/sprites/laserbeam.vmt", "materials/sprites/glow.vmt"}),
    ('{"classname" "env_explosion" "fireballsprite" "sprites/zerogxplode.spr"}',
     {"materials/sprites/zerogxplode.vmt"}),
    # materials: ropes, decals (leading slash, upper case), overlays, smoke, sun, overlays
    ('{"classname" "move_rope" "RopeMaterial" "cable/cable.vmt"}', {"materials/cable/cable.vmt"}),
    ('{"classname" "keyframe_rope" "ropematerial" "cable/rope"}', {"materials/cable/rope.vmt"}),
    ('{"classname" "infodecal" "texture" "/MADPOSTER5"}', {"materials/madposter5.vmt"}),
    ('{"classname" "info_overlay" "material" "decals/Graffiti01"}',
     {"materials/decals/graffiti01.vmt"}),
    ('{"classname" "env_smokestack" "SmokeMaterial" "particle/SmokeStack.vmt"}',
     {"materials/particle/smokestack.vmt"}),
    ('{"classname" "env_sun" "material" "sprites/light_glow02_add_noz" '
     '"overlaymaterial" "sprites/light_glow02_add_noz2"}',
     {"materials/sprites/light_glow02_add_noz.vmt", "materials/sprites/light_glow02_add_noz2.vmt"}),
    ('{"classname" "env_screenoverlay" "OverlayName1" "effects/combine_binocoverlay" '
     '"OverlayName10" "effects/tp_eyefx/tpeye"}',
     {"materials/effects/combine_binocoverlay.vmt", "materials/effects/tp_eyefx/tpeye.vmt"}),
    ('{"classname" "point_spotlight" "SpotlightMaterial" "sprites/glow_test02.vmt" '
     '"HaloMaterial" "sprites/light_glow03.vmt"}',
     {"materials/sprites/glow_test02.vmt", "materials/sprites/light_glow03.vmt"}),
    ('{"classname" "env_projectedtexture" "texturename" "effects/flashlight001"}',
     {"materials/effects/flashlight001.vtf"}),
    ('{"classname" "env_shooter" "shootmodel" "models/gibs/hgibs.mdl"}',
     {"models/gibs/hgibs.mdl"}),
    ('{"classname" "func_breakable" "gibmodel" "models/gibs/glass_shard01.mdl"}',
     {"models/gibs/glass_shard01.mdl"}),
    # sounds: raw files (sound characters stripped), soundscripts, sentences, HL1 numbers
    ('{"classname" "ambient_generic" "message" "ambient/machines/combine_terminal_idle4.wav"}',
     {"sound/ambient/machines/combine_terminal_idle4.wav"}),
    ('{"classname" "ambient_generic" "message" ")ambient/Alarms/klaxon1.wav"}',
     {"sound/ambient/alarms/klaxon1.wav"}),
    ('{"classname" "ambient_generic" "message" "*#music/hl2_song1.mp3"}',
     {"sound/music/hl2_song1.mp3"}),
    ('{"classname" "ambient_generic" "message" "Portal.button_down"}',
     {SOUNDSCRIPT + "portal.button_down"}),
    ('{"classname" "ambient_generic" "message" "!HG_ALERT"}', set()),
    ('{"classname" "func_button" "sounds" "0" "locked_sound" "0" "unlocked_sound" "0"}', set()),
    ('{"classname" "func_button" "sounds" "14" "locked_sound" "2" "unlocked_sound" "3"}',
     {SOUNDSCRIPT + "buttons.snd14", SOUNDSCRIPT + "buttons.snd2",
      SOUNDSCRIPT + "buttons.snd3"}),
    ('{"classname" "momentary_rot_button" "sounds" "5"}', {SOUNDSCRIPT + "buttons.snd5"}),
    ('{"classname" "func_button" "sounds" "buttons/button3.wav" '
     '"locked_sound" "buttons/button2.wav" "unlocked_sound" "Buttons.snd4"}',
     {"sound/buttons/button3.wav", "sound/buttons/button2.wav", SOUNDSCRIPT + "buttons.snd4"}),
    ('{"classname" "func_rotating" "message" "ambient/levels/labs/teleport_rings_loop2.wav"}',
     {"sound/ambient/levels/labs/teleport_rings_loop2.wav"}),
    ('{"classname" "func_door" "noise1" "door.wav" "noise2" "Doors.FullClose8" '
     '"startclosesound" "doorclose.wav"}',
     {"sound/door.wav", SOUNDSCRIPT + "doors.fullclose8", "sound/doorclose.wav"}),
    ('{"classname" "func_movelinear" "StartSound" "plats/crane/vertical_start.wav"}',
     {"sound/plats/crane/vertical_start.wav"}),
    ('{"classname" "prop_door_rotating" "model" "models/props_c17/door01_left.mdl" '
     '"soundopenoverride" "Doors.FullOpen1"}',
     {"models/props_c17/door01_left.mdl", SOUNDSCRIPT + "doors.fullopen1"}),
    ('{"classname" "env_soundscape" "soundscape" "Prison.Control_Room"}',
     {SOUNDSCAPE + "prison.control_room"}),
    ('{"classname" "info_particle_system" "effect_name" "Rain_Storm"}', {PARTICLE + "rain_storm"}),
    # files: colour correction, scenes, vehicle scripts, VScripts
    ('{"classname" "color_correction" "filename" "materials/correction/cc_death.raw"}',
     {"materials/correction/cc_death.raw"}),
    ('{"classname" "logic_choreographed_scene" "SceneFile" "scenes/a/b.vcd"}', {"scenes/a/b.vcd"}),
    ('{"classname" "prop_vehicle_jeep" "vehiclescript" "scripts/vehicles/jeep_test.txt" '
     '"model" "models/buggy.mdl"}', {"scripts/vehicles/jeep_test.txt", "models/buggy.mdl"}),
    ('{"classname" "logic_script" "vscripts" "maps/test/tasks  common.nut"}',
     {"scripts/vscripts/maps/test/tasks.nut", "scripts/vscripts/common.nut"}),
    ('{"classname" "info_target" "vscripts" "a.gnut" "thinkfunction" "Think"}',
     {"scripts/vscripts/a.gnut"}),
    # keys only srctools' entity database names (the long tail); compile-time comp_* skipped
    pytest.param('{"classname" "func_tank" "spritesmoke" "sprites/smoke.spr"}',
                 {"materials/sprites/smoke.vmt"}, marks=needs_srctools),
    pytest.param('{"classname" "item_teamflag" "flag_model" "models/flag/briefcase.mdl"}',
                 {"models/flag/briefcase.mdl"}, marks=needs_srctools),
    ('{"classname" "comp_pack" "model1" "models/a.mdl"}', set()),
    # classes that name nothing by themselves
    ('{"classname" "env_cubemap"}{"classname" "env_fog_controller" "fogcolor" "1 2 3"}'
     '{"classname" "point_template" "Template01" "box"}{"classname" "env_spark"}', set()),
])
def test_entity_rule(tiny, text, expected):
    assert paths(tiny, text) == expected


def test_fgd_database_off(tiny):
    tiny.replace_entities(b'{"classname" "worldspawn"}{"classname" "func_tank" '
                          b'"spritesmoke" "sprites/smoke.spr"}\x00')
    assert entity_references(tiny, fgd=False) == []


def test_entity_reason_names_index_class_and_key(tiny):
    refs = entity_refs(tiny, '{"classname" "info_target"}\n'
                             '{"classname" "prop_dynamic" "Model" "models/a.mdl"}')
    assert refs == {"models/a.mdl": (("entity 2 prop_dynamic 'Model'",), False)}


def test_repeated_keys_each_count(tiny):
    assert paths(tiny, '{"classname" "prop_dynamic" "model" "models/a.mdl" '
                       '"model" "models/b.mdl"}') == {"models/a.mdl", "models/b.mdl"}


def test_skyname_six_faces_and_optional_hdr(tiny):
    tiny.replace_entities(b'{\n"classname" "worldspawn"\n"skyname" "Sky_Day01_01"\n}\n\x00')
    refs = {r.path: r for r in entity_references(tiny)}
    assert set(refs) == ({f"materials/skybox/sky_day01_01{f}.vmt" for f in SKY_FACES}
                         | {f"materials/skybox/sky_day01_01_hdr{f}.vmt" for f in SKY_FACES})
    assert all(r.optional == ("_hdr" in p) for p, r in refs.items())
    assert refs["materials/skybox/sky_day01_01rt.vmt"].reason == ("entity 0 worldspawn 'skyname'",)


def test_worldspawn_detailmaterial_without_sprites_is_optional(tiny):
    from bspedit.features.pack.refs import detail_references

    tiny.replace_entities(b'{\n"classname" "worldspawn"\n"detailmaterial" "detail/Mine"\n}\n\x00')
    assert [(r.path, r.optional) for r in detail_references(tiny)] == [
        ("materials/detail/mine.vmt", True)]
    tiny.replace_entities(b'{\n"classname" "worldspawn"\n}\n\x00')
    assert detail_references(tiny) == []   # tiny has no detail sprites


def test_unknown_kind_is_an_error():
    with pytest.raises(ValueError):
        key_references("nonsense", "x", ("r",))


def test_table_is_data():
    """Every row is (key, kind) pairs of known kinds; class names are lower case."""
    assert "*" in ea.ENTITY_ASSETS
    for classname, row in ea.ENTITY_ASSETS.items():
        assert classname == classname.lower()
        for key, kind in row:
            assert isinstance(key, str) and key and kind in ea.KINDS
    keys = ea.asset_keys("ENV_SPRITE")
    assert ("model", ea.MODEL) in keys and ("vscripts", ea.VSCRIPT) in keys
    assert [k for k, _ in keys].count("model") == 1


def test_names_are_not_files():
    assert not is_file(SOUNDSCRIPT + "a.b") and not is_file(SOUNDSCAPE + "x")
    assert not is_file(PARTICLE + "x") and is_file("sound/a.wav")


# -- dedupe and the whole map ------------------------------------------------------------------
def test_dedupe_keeps_first_reason_and_prefers_required():
    a = Reference("materials/a.vmt", ("texdata 0",))
    b = Reference("materials/a.vmt", ("entity 1 infodecal 'texture'",))
    c = Reference("materials/b.vmt", ("x",), optional=True)
    d = Reference("materials/b.vmt", ("y",))
    assert dedupe([a, b, c, d]) == [a, d]
    assert dedupe([d, c]) == [d]


def test_map_named_files_are_optional(tiny):
    refs = {r.path: r for r in map_references(tiny)}
    for pattern in SIDE_FILES:
        ref = refs[pattern.format(map="map")]
        assert ref.optional and ref.reason == ("map-named file",)
    named = {r.path for r in map_references(tiny, name="Other")}
    assert "maps/other.nav" in named and "maps/map.nav" not in named


def test_paths_are_asset_paths(tiny):
    for ref in all_references(tiny):
        assert not is_file(ref.path) or ref.path == asset_path(ref.path)


def test_static_prop_skins_in_reason(tmp_path):
    source = CORPUS / "sdk2013_sdk_vehicles_v19.bsp"
    if not source.exists():
        pytest.skip("corpus map absent")
    from bspedit.features.pack.refs import static_prop_references

    with bspedit.open(source) as bsp:
        props = bsp.static_props
        first = props.model(0)
        props.set(0, "skin", 2)         # in memory only; never saved
        refs = {r.path: r.reason for r in static_prop_references(bsp)}
        reason = refs[asset_path(first)][0]
        assert reason.startswith("static props 0, ") and reason.endswith("(skins 0, 2)")
        names = {asset_path(props.model(i)) for i in range(len(props))}
        assert names <= set(refs)


# -- hand-checked lists ------------------------------------------------------------------------
def _side(name: str) -> set[tuple[str, bool]]:
    """The map-named files, and the VScript every map start runs (all optional)."""
    return {(p.format(map=name), True) for p in SIDE_FILES} | {(MAPSPAWN, True)}


def _sky(name: str) -> set[tuple[str, bool]]:
    return ({(f"materials/skybox/{name}{f}.vmt", False) for f in SKY_FACES}
            | {(f"materials/skybox/{name}_hdr{f}.vmt", True) for f in SKY_FACES})


MSRCTEST = {
    # TEXDATA_STRING_DATA: /MADWALL, /MADDOOREMPLOYEES, /MADDOOR
    ("materials/madwall.vmt", False), ("materials/maddooremployees.vmt", False),
    ("materials/maddoor.vmt", False),
    # entities 5-8: infodecal texture /madposter5, /madposter8, /madposter2, /madposter6
    ("materials/madposter5.vmt", False), ("materials/madposter8.vmt", False),
    ("materials/madposter2.vmt", False), ("materials/madposter6.vmt", False),
    # worldspawn detailmaterial, and the map has no detail sprites (dprp has none)
    ("materials/detail/detailsprites.vmt", True),
    # no CUBEMAPS; the pakfile holds cubemapdefault(.hdr).vtf
    ("materials/maps/msrctest/cubemapdefault.vtf", True),
    ("materials/maps/msrctest/cubemapdefault.hdr.vtf", True),
} | _sky("sky_day01_01") | _side("msrctest")
# entity 2 func_door: model *1, no sound keys; lights and info_player_start name nothing

MSRCDEMO3 = {
    # TEXDATA: /MADWALL /MADDOOR /MADDOOREMPLOYEES TOOLS/TOOLSPLAYERCLIP /MADWALL2
    # TOOLS/TOOLSTRIGGER
    ("materials/madwall.vmt", False), ("materials/maddoor.vmt", False),
    ("materials/maddooremployees.vmt", False), ("materials/tools/toolsplayerclip.vmt", False),
    ("materials/madwall2.vmt", False), ("materials/tools/toolstrigger.vmt", False),
    # 8 func_door: noise1 door.wav, startclosesound doorclose.wav (the mod's sound/*.wav)
    ("sound/door.wav", False), ("sound/doorclose.wav", False),
    # 9 infodecal: mademployeesonly (4 times), madposter1, 4, 6, 7, 8
    ("materials/mademployeesonly.vmt", False), ("materials/madposter1.vmt", False),
    ("materials/madposter4.vmt", False), ("materials/madposter6.vmt", False),
    ("materials/madposter7.vmt", False), ("materials/madposter8.vmt", False),
    ("materials/detail/detailsprites.vmt", True),
    ("materials/maps/msrcdemo3/cubemapdefault.vtf", True),
    ("materials/maps/msrcdemo3/cubemapdefault.hdr.vtf", True),
} | _sky("sky_day01_01") | _side("msrcdemo3")
# game_text, trigger_multiple (*N), item_suit, lights: nothing


@needs_content
@pytest.mark.parametrize("name, expected", [("msrctest", MSRCTEST), ("msrcdemo3", MSRCDEMO3)])
def test_hand_checked(name, expected):
    """The table alone (fgd=False: srctools' class resources are its facts, not the map's)."""
    with bspedit.open(CONTENT / "msrc" / "maps" / f"{name}.bsp") as bsp:
        got = {(r.path, r.optional) for r in map_references(bsp, fgd=False)}
    assert got == expected


@needs_content
@needs_srctools
def test_class_resources():
    """msrcdemo's classes load their own files (srctools' database): npc_antlion's model and
    gibs, weapon_shotgun's script, item_suit's model; all optional, naming the entity."""
    with bspedit.open(CONTENT / "msrc" / "maps" / "msrcdemo.bsp") as bsp:
        refs = {r.path: r for r in map_references(bsp)}
        classes = {i: e.get("classname") for i, e in enumerate(bsp.entities())}
    for path in ("models/antlion.mdl", "models/gibs/antlion_gib_large_1.mdl",
                 "scripts/weapon_shotgun.txt", "models/items/hevsuit.mdl"):
        ref = refs[path]
        assert ref.optional
        index, rest = ref.reason[0].removeprefix("entity ").split(" ", 1)
        assert rest == f"{classes[int(index)]} (class resources)"
    # what the map names itself stays required
    assert not refs["materials/madwall2.vmt"].optional


@needs_content
def test_portalcollab_iambread_specifics():
    with bspedit.open(CONTENT / "portalcollab" / "maps" / "pcollab_26_iambread_test.bsp") as bsp:
        refs = {r.path: r for r in map_references(bsp)}
    folder = "materials/maps/pcollab_26_iambread_test/"
    # CUBEMAPS lump entry 0 at (-224 -120 192)
    assert refs[folder + "c-224_-120_192.vtf"].optional
    assert refs[folder + "c-224_-120_192.hdr.vtf"].reason == ("cubemap 0 (-224 -120 192)",)
    # the nested patch name packlist misses
    nested = (folder + "maps/pcollab_26_iambread_test/nature/"
              "hazard_liquid_32_0_64_depth_112.vmt")
    assert nested in refs
    assert refs["materials/sprites/glow08.vmt"].reason[0].endswith("env_sprite 'model'")
    assert "sound/pcollab_26_iambread/weather/light-rain.wav" in refs
    assert refs["materials/correction/cc_death.raw"].reason[0].endswith(
        "color_correction 'filename'")
    assert refs["models/props_c17/door01_left.mdl"].reason == (
        "entity 17 prop_door_rotating 'model'",)
    assert refs["models/props/shelf128/shelf128.mdl"].reason == ("static props 0, 11 (skin 0)",)


# -- every real map ----------------------------------------------------------------------------
ALL_MAPS = CONTENT_MAPS + CORPUS_MAPS


@pytest.mark.skipif(not ALL_MAPS, reason="../shared is absent")
@pytest.mark.parametrize("path", ALL_MAPS, ids=lambda p: p.name)
def test_real_map(path):
    with bspedit.open(path) as bsp:
        refs = map_references(bsp)
        seen = [r.path for r in refs]
        assert len(seen) == len(set(seen))
        assert not any(p.endswith(".spr") for p in seen)        # sprites are materials
        assert all(r.reason for r in refs)
        pak = [asset_path(e.name) for e in bsp.pakfile.entries if not e.is_dir]
        texdata = {r.path for r in refs if r.reason[0].startswith("texdata")}
        cubemaps = len(bsp.records("CUBEMAPS"))
    found = set(seen)
    for entry in pak:
        parts = entry.split("/")
        # vbsp's outputs are never unused: patch materials, built cubemaps, prop lighting
        if entry.startswith("materials/maps/") and entry.endswith(".vmt"):
            assert entry in found
        if parts[-1].startswith("cubemapdefault") and (cubemaps or entry in found):
            assert entry in found
        if entry.endswith(".vhv"):
            assert entry in found
    assert texdata, "every Source map names materials"


@pytest.mark.skipif(not ALL_MAPS, reason="../shared is absent")
def test_fgd_database_second_opinion():
    """srctools' entity database (the FGDs of every Source game, the one its packlist uses)
    as a second opinion on which keys name assets: every key of an asset type (studio,
    sprite, material, decal, sound, scene, particlesystem, script) with a value, on every
    real map, gives a reference whose reason names that entity and key. Worldspawn's
    `detailmaterial` is the detail sprites' (reason `detail sprites ...`)."""
    pytest.importorskip("srctools")
    from srctools.fgd import EntityDef, ValueTypes

    asset_types = {t for t in ValueTypes if t.name.startswith("STR_")}
    missed = []
    for path in ALL_MAPS:
        with bspedit.open(path) as bsp:
            reasons = {r.reason[0] for r in all_references(bsp)}
            for index, entity in enumerate(bsp.entities(lenient=True)):
                classname = entity.get("classname", "")
                if classname.lower() == "worldspawn":
                    continue
                try:
                    definition = EntityDef.engine_def(classname.casefold())
                except KeyError:
                    continue
                for key, value in entity.pairs():
                    if key.casefold() not in definition.kv:
                        continue
                    kind = definition.kv[key.casefold()].type
                    if kind not in asset_types or not value.strip() or value.startswith("*"):
                        continue
                    if f"entity {index} {classname} {key!r}" not in reasons:
                        missed.append((path.name, index, classname, key, value))
    assert not missed


# srctools' packlist mistakes on these maps (../shared/content/README.md and issue 32):
# `sprites/x.spr` listed as a file (it is materials/sprites/x.vmt, which we list), a decal
# *name* (`SecurityCamera.Detachment`, decals_subrect.txt) taken for a material, and a patch
# material's `$bottommaterial` with its `.vmt` doubled.
def _packlist_mistake(path: str) -> bool:
    return (path.endswith(".spr") or path.endswith(".vmt.vmt")
            or path == "materials/securitycamera.vmt")


@needs_srctools
@pytest.mark.skipif(not ALL_MAPS, reason="../shared is absent")
@pytest.mark.parametrize("path", ALL_MAPS, ids=lambda p: p.name)
def test_packlist_second_opinion(path):
    """Every file srctools' packlist takes from the map itself (`pack_from_bsp`, and
    `pack_from_ents` with its entity database: keys, defaults, class resources) is one of
    ours, except its recorded mistakes."""
    from srctools.bsp import BSP
    from srctools.filesys import VirtualFileSystem
    from srctools.packlist import PackList

    packlist = PackList(VirtualFileSystem({}))
    theirs_bsp = BSP(str(path))
    packlist.pack_from_bsp(theirs_bsp)
    packlist.pack_from_ents(theirs_bsp.ents, path.stem.lower())
    theirs = {asset_path(f.filename) for f in packlist}
    with bspedit.open(path) as bsp:
        ours = {r.path for r in all_references(bsp)}
    assert {p for p in theirs - ours if not _packlist_mistake(p)} == set()


@needs_srctools
def test_table_keys_are_known_to_the_database():
    """Every (class, key) of the table exists in srctools' entity database (no invented
    keys), for the classes it knows."""
    unknown = []
    for classname, row in ea.ENTITY_ASSETS.items():
        definition = ea.engine_def(classname)
        if classname == "*" or definition is None:
            continue
        unknown += [(classname, key) for key, _ in row if key.casefold() not in definition.kv]
    assert unknown == []


@needs_srctools
def test_defaults_and_class_resources(tiny):
    from bspedit.features.pack.refs import class_references

    tiny.replace_entities(b'{"classname" "worldspawn"}{"classname" "weapon_portalgun"}'
                          b'{"classname" "env_projectedtexture" "texturename" "x/y"}'
                          b'{"classname" "comp_pack" "model1" "models/a.mdl"}'
                          b'{"classname" "item_suit"}\x00')
    refs = {r.path: r for r in class_references(tiny, "map")}
    viewmodel = refs["models/weapons/v_portalgun.mdl"]
    assert viewmodel.optional
    assert viewmodel.reason == ("entity 1 weapon_portalgun 'viewmodel' (default)",)
    assert "materials/effects/flashlight001.vtf" not in refs     # the key is set: no default
    assert refs["models/items/hevsuit.mdl"].reason == ("entity 4 item_suit (class resources)",)
    assert not any(r.reason[0].startswith("entity 3 ") for r in refs.values())   # comp_*
    # a key the entity sets is required, the same path as a default stays optional
    tiny.replace_entities(b'{"classname" "worldspawn"}{"classname" "weapon_portalgun" '
                          b'"viewmodel" "models/weapons/v_portalgun.mdl"}\x00')
    ref = {r.path: r for r in map_references(tiny)}["models/weapons/v_portalgun.mdl"]
    assert not ref.optional and ref.reason == ("entity 1 weapon_portalgun 'viewmodel'",)
