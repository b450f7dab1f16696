"""The reference chains of features/pack: unit tests on bytes, then hand-checked lists on the
real mods of ../shared/content (skipped without them), with srctools' packlist as a second
opinion for models and materials."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from bspedit.features.pack.chains import follow
from bspedit.features.pack.materials import material_deps, texture_path
from bspedit.features.pack.model import Reference, asset_path
from bspedit.features.pack.sounds import sound_path

pytest.importorskip("srctools")

CONTENT = Path(__file__).resolve().parents[1].parent / "shared" / "content"
PORTAL = CONTENT / "portalcollab"
IAMBREAD = PORTAL / "maps" / "pcollab_26_iambread_test.bsp"
MAP = "pcollab_26_iambread_test"


def ref(path: str, optional: bool = False) -> Reference:
    return Reference(asset_path(path), ("test",), optional)


def reader(files: dict[str, str | bytes]):
    table = {asset_path(k): (v.encode() if isinstance(v, str) else v) for k, v in files.items()}
    return table.get


def paths(refs) -> dict[str, bool]:
    """path -> optional."""
    return {r.path: r.optional for r in refs}


# ---------------------------------------------------------------- materials, on bytes

WALL = """"LightmappedGeneric"
{
    "$basetexture" "Brick\\Wall01.VTF"
    "$bumpmap" "materials/brick/wall01_normal"
    "$envmap" "env_cubemap"
    "$envmapmask" "brick/wall01_mask"
    "$refracttexture" "_rt_WaterRefraction"
    "%tooltexture" "brick/wall01_tool"
    "$surfaceprop" "brick"
    "$basetexturetransform" "center .5 .5 scale 1 1 rotate 0 translate 0 0"
    "$myshaderparam" "brick/custom"
    "$myothervalue" "1"
    "$fallbackmaterial" "brick/wall01_cheap"
    "$bottommaterial" "brick/under"
    "$underwateroverlay" "effects/water_warp"
    ">=dx90" { "$detail" "detail/noise" }
    "Proxies" { "AnimatedTexture" { "animatedtexturevar" "$basetexture" } }
}"""


def test_material_params_rule():
    read = reader({"materials/brick/wall01.vmt": WALL,
                   "materials/brick/custom.vtf": b"VTF\0"})
    got = paths(material_deps(ref("materials/brick/wall01.vmt"), read))
    assert got == {
        "materials/brick/wall01.vtf": False,
        "materials/brick/wall01_normal.vtf": False,
        "materials/brick/wall01_mask.vtf": False,
        "materials/brick/custom.vtf": False,  # unknown param, existing texture
        "materials/brick/wall01_cheap.vmt": False,
        "materials/brick/under.vmt": False,
        "materials/effects/water_warp.vmt": False,
        "materials/detail/noise.vtf": False,
    }


def test_material_reason_is_chain():
    read = reader({"materials/a.vmt": '"UnlitGeneric" { "$basetexture" "a" }'})
    (dep,) = material_deps(Reference("materials/a.vmt", ("texdata 0",)), read)
    assert dep.reason == ("texdata 0", "materials/a.vmt $basetexture")


def test_texture_path_forms():
    assert texture_path("Brick\\Wall.VTF") == "materials/brick/wall.vtf"
    assert texture_path("materials/brick/wall") == "materials/brick/wall.vtf"
    assert texture_path("/brick//wall") == "materials/brick/wall.vtf"


PATCH = """"patch"
{
    "include" "materials/METAL/Wall.vmt"
    "insert" { "$envmap" "maps/mymap/c32_0_-64" "$detail" "metal/detail" }
    "replace" { "$basetexture" "metal/wall_b" }
}"""


def test_patch_material_parent_in_base_game():
    """The parent is read wherever `read` finds it, and its own textures count."""
    read = reader({
        "materials/maps/mymap/metal/wall_32_0_-64.vmt": PATCH,
        "materials/metal/wall.vmt": '"VertexLitGeneric" { "$basetexture" "metal/wall" '
                                    '"$envmap" "metal/shiny" }',
    })
    got = follow([ref("materials/maps/mymap/metal/wall_32_0_-64.vmt")], read)
    assert paths(got) == {
        "materials/maps/mymap/metal/wall_32_0_-64.vmt": False,
        "materials/metal/wall.vmt": False,
        "materials/maps/mymap/c32_0_-64.vtf": True,  # built by buildcubemaps
        "materials/maps/mymap/c32_0_-64.hdr.vtf": True,
        "materials/metal/detail.vtf": False,
        "materials/metal/wall_b.vtf": False,
        "materials/metal/wall.vtf": False,
        "materials/metal/shiny.vtf": False,  # an artist's cubemap: required
        "materials/metal/shiny.hdr.vtf": True,
    }
    by_path = {r.path: r for r in got}
    assert by_path["materials/metal/wall.vtf"].reason == (
        "test", "materials/maps/mymap/metal/wall_32_0_-64.vmt include",
        "materials/metal/wall.vmt $basetexture")


def test_cycles_and_missing():
    read = reader({
        "materials/a.vmt": '"patch" { "include" "materials/b.vmt" }',
        "materials/b.vmt": '"patch" { "include" "materials/a.vmt" '
                           '"insert" { "$basetexture" "gone" } }',
        "materials/broken.vmt": '"LightmappedGeneric" { "$basetexture" ',
    })
    got = follow([ref("materials/a.vmt"), ref("materials/broken.vmt"),
                  ref("materials/nowhere.vmt")], read)
    assert [r.path for r in got] == ["materials/a.vmt", "materials/broken.vmt",
                                     "materials/nowhere.vmt", "materials/b.vmt",
                                     "materials/gone.vtf"]


def test_follow_once_first_reason_required_wins():
    read = reader({
        "materials/a.vmt": '"UnlitGeneric" { "$basetexture" "t" "$bottommaterial" "c" }',
        "materials/b.vmt": '"UnlitGeneric" { "$basetexture" "t" }',
        "materials/c.vmt": '"UnlitGeneric" { "$basetexture" "u" }',
    })
    got = follow([ref("materials/a.vmt"), ref("materials/b.vmt"), ref("materials/a.vmt")], read)
    assert [r.path for r in got] == ["materials/a.vmt", "materials/b.vmt", "materials/t.vtf",
                                     "materials/c.vmt", "materials/u.vtf"]
    assert {r.path: r.reason[-1] for r in got}["materials/t.vtf"] == "materials/a.vmt $basetexture"
    # optional first, required later: the required route wins and its chain is required
    got = paths(follow([ref("materials/c.vmt", optional=True), ref("materials/a.vmt")], read))
    assert got["materials/c.vmt"] is False and got["materials/u.vtf"] is False
    got = paths(follow([ref("materials/c.vmt", optional=True)], read))
    assert got["materials/u.vtf"] is True


# ---------------------------------------------------------------- sounds, on bytes

MANIFEST = """game_sounds_manifest
{
    "precache_file" "scripts/game_sounds.txt"
    "preload_file" "scripts/game_sounds_world.txt"
}"""
GAME_SOUNDS = """"Door.Open"
{
    "channel" "CHAN_STATIC"
    "wave" "*doors/Door_Open.wav"
}
"Door.Close" { "rndwave" { "wave" ")doors/close1.wav" "wave" "#^doors\\close2.mp3" } }
"Npc.Talk" { "wave" "!HG_ALERT1" }
"""
WORLD_SOUNDS = '"World.Hum" { "wave" "ambient/hum.wav" }'
LEVEL_SOUNDS = '"Door.Open" { "wave" "mymap/custom_open.wav" }'
SCAPES_MANIFEST = 'soundscapes_manifest { "file" "scripts/soundscapes_world.txt" }'
SCAPES_WORLD = """"world.base"
{
    "dsp" "1"
    "playlooping" { "volume" "0.5" "wave" "ambient/wind.wav" }
    "playrandom" { "rndwave" { "wave" "~ambient/bird1.wav" "wave" "ambient/bird2.wav" } }
}"""
SCAPES_MAP = """"mymap.room"
{
    "playlooping" { "soundname" "World.Hum" }
    "playsoundscape" { "name" "world.base" "volume" "1" }
}"""
SOUND_FILES = {
    "scripts/game_sounds_manifest.txt": MANIFEST,
    "scripts/game_sounds.txt": GAME_SOUNDS,
    "scripts/game_sounds_world.txt": WORLD_SOUNDS,
    "maps/mymap_level_sounds.txt": LEVEL_SOUNDS,
    "scripts/soundscapes_manifest.txt": SCAPES_MANIFEST,
    "scripts/soundscapes_world.txt": SCAPES_WORLD,
    "scripts/soundscapes_mymap.txt": SCAPES_MAP,
}


def test_sound_path():
    assert sound_path("*#^Doors\\Door.wav") == "sound/doors/door.wav"
    assert sound_path(")sound/x.mp3") == "sound/x.mp3"
    assert sound_path("!HG_ALERT1") is None
    assert sound_path("") is None


def test_soundscripts():
    read = reader(SOUND_FILES)
    got = follow([ref("soundscript:Door.Close"), ref("soundscript:npc.talk"),
                  ref("soundscript:no.such")], read)
    # each defined name leads to the file that defines it, then to what it plays
    assert [r.path for r in got] == ["soundscript:door.close", "soundscript:npc.talk",
                                     "soundscript:no.such", "scripts/game_sounds.txt",
                                     "sound/doors/close1.wav", "sound/doors/close2.mp3"]
    assert got[3].reason == ("test", "soundscript:door.close defined in")
    # without the map, the game's entry; with it, the level sounds override it
    assert [r.path for r in follow([ref("soundscript:door.open")], read)][1:] == [
        "scripts/game_sounds.txt", "sound/doors/door_open.wav"]
    got = follow([ref("soundscript:door.open")], read, map_name="MyMap")
    assert [r.path for r in got][1:] == ["maps/mymap_level_sounds.txt",
                                         "sound/mymap/custom_open.wav"]
    # an optional name's file is optional, a required one's required
    got = paths(follow([ref("soundscript:door.close", optional=True)], read))
    assert got["scripts/game_sounds.txt"] is True


def test_soundscapes():
    got = follow([ref("soundscape:mymap.room")], reader(SOUND_FILES), map_name="mymap")
    assert [r.path for r in got] == [
        "soundscape:mymap.room", "scripts/soundscapes_mymap.txt", "soundscript:world.hum",
        "soundscape:world.base", "scripts/game_sounds_world.txt", "sound/ambient/hum.wav",
        "scripts/soundscapes_world.txt", "sound/ambient/wind.wav",
        "sound/ambient/bird1.wav", "sound/ambient/bird2.wav"]
    assert got[-1].reason == ("test", "soundscape:mymap.room playsoundscape",
                              "soundscape:world.base rndwave wave")


# ---------------------------------------------------------------- manifests, overviews

def test_particle_manifest_and_overview():
    read = reader({
        "maps/mymap_particles.txt": 'particles_manifest { "file" "!particles/Fire.pcf" '
                                    '"file" "particles\\\\rain.pcf" }',
        "resource/overviews/mymap.txt": '"mymap" { "material" "overviews/mymap" "pos_x" "-1" }',
    })
    got = follow([ref("maps/mymap_particles.txt"), ref("resource/overviews/mymap.txt")], read)
    assert [r.path for r in got][2:] == ["particles/fire.pcf", "particles/rain.pcf",
                                         "materials/overviews/mymap.vmt"]


def test_particle_index_engine_order_and_parsing():
    """A system is looked up in the map's manifest's files, then the game's, then the unlisted
    .pcf files; a file whose bytes do not hold the name is never parsed."""
    from bspedit.features.pack import particles
    from bspedit.features.pack.particles import ParticleIndex

    if not PORTAL.is_dir():
        pytest.skip("../shared/content is absent")
    fire = (PORTAL / "particles" / "fire_02.pcf").read_bytes()
    files = {"maps/mymap_particles.txt": 'particles_manifest { "file" "!particles/b.pcf" }',
             "particles/particles_manifest.txt": 'particles_manifest { "file" "particles/a.pcf" '
                                                 '"file" "particles/b.pcf" }',
             "particles/a.pcf": fire, "particles/b.pcf": fire, "particles/c.pcf": fire.replace(
                 b"fire_verysmall_01\0", b"fire_verysmall_77\0")}
    read = reader(files)
    parsed = []
    systems = particles._systems
    try:
        particles._systems = lambda data: parsed.append(len(data)) or systems(data)
        index = ParticleIndex(read, "mymap",
                              lambda folder: [p for p in files if p.endswith(".pcf")])
        assert [f for f, _ in index.files()] == ["particles/b.pcf", "particles/a.pcf",
                                                 "particles/c.pcf"]
        assert index.get("FIRE_MEDIUM_01") == ("particles/b.pcf", True)
        assert index.get("fire_verysmall_77") == ("particles/c.pcf", False)
        assert index.get("no_such_system") is None
    finally:
        particles._systems = systems
    assert len(parsed) == 2                 # b.pcf once, c.pcf once; a.pcf never
    without_listing = ParticleIndex(read, "mymap")
    assert without_listing.get("fire_verysmall_77") is None


# ---------------------------------------------------------------- the real mods

needs_content = pytest.mark.skipif(not PORTAL.is_dir(), reason="../shared/content is absent")


def loose(root: Path):
    """A case-insensitive loose-file `read` over a mod folder."""
    table = {}
    for folder, _dirs, files in os.walk(root):
        for name in files:
            full = os.path.join(folder, name)
            table[asset_path(os.path.relpath(full, root))] = full

    def read(path: str) -> bytes | None:
        full = table.get(path)
        return Path(full).read_bytes() if full else None

    read.table = table
    return read


def with_pak(bsp_path: Path, mod_read):
    """The map's pakfile first, then the mod's loose files."""
    import bspedit

    pak = bspedit.open(bsp_path).pakfile
    entries = {asset_path(e.name): e for e in pak.entries}

    def read(path: str) -> bytes | None:
        entry = entries.get(path)
        return pak.read(entry) if entry is not None else mod_read(path)

    read.entries = entries
    return read


@needs_content
def test_real_vmt_blocks_and_bottommaterial():
    """portalcollab materials/nature/hazard_liquid.vmt, checked by hand: `$basetexture`,
    `$envmap env_cubemap` (skipped), `$bottommaterial`, the `>=DX90` block's three textures,
    the `<DX90` block's bumpmap and the DX8 fallback's `$basetexture` (the same texture)."""
    got = material_deps(ref("materials/nature/hazard_liquid.vmt"), loose(PORTAL))
    assert [(r.path, r.reason[-1]) for r in got] == [
        ("materials/nature/hazard_liquid.vtf", "materials/nature/hazard_liquid.vmt $basetexture"),
        ("materials/nature/hazard_liquid_beneath.vmt",
         "materials/nature/hazard_liquid.vmt $bottommaterial"),
        ("materials/dev/watera_normal.vtf", "materials/nature/hazard_liquid.vmt $bumpmap"),
        ("materials/dev/waterb_normal.vtf", "materials/nature/hazard_liquid.vmt $bumpmap2"),
        ("materials/dev/flat_normal.vtf", "materials/nature/hazard_liquid.vmt $bumpmask"),
        ("materials/nature/slime_normal.vtf", "materials/nature/hazard_liquid.vmt $bumpmap"),
        ("materials/nature/hazard_liquid.vtf", "materials/nature/hazard_liquid.vmt $basetexture"),
    ]


@needs_content
def test_real_patch_material_from_pakfile():
    """The map's water patch (packed by vbsp): its parent is a loose override in the mod, its
    `$bottommaterial` another patch in the pakfile, its cubemap never built (optional)."""
    read = with_pak(IAMBREAD, loose(PORTAL))
    start = f"materials/maps/{MAP}/nature/hazard_liquid_32_0_64.vmt"
    got = paths(follow([ref(start)], read))
    assert got == {
        start: False,
        "materials/nature/hazard_liquid.vmt": False,
        f"materials/maps/{MAP}/c32_0_64.vtf": True,
        f"materials/maps/{MAP}/c32_0_64.hdr.vtf": True,
        f"materials/maps/{MAP}/nature/hazard_liquid_beneath_32_0_64.vmt": False,
        "materials/nature/hazard_liquid.vtf": False,
        "materials/nature/hazard_liquid_beneath.vmt": False,
        "materials/dev/watera_normal.vtf": False,
        "materials/dev/waterb_normal.vtf": False,
        "materials/dev/flat_normal.vtf": False,
        "materials/nature/slime_normal.vtf": False,
    }


@needs_content
def test_every_packed_patch_leads_to_its_parent():
    """All 49 vmts vbsp packed: each patch leads to its `include` parent (the nested
    `maps/<map>/maps/<map>/..._depth_112` ones included), and each cubemap patch to its
    cubemap, optional."""
    read = with_pak(IAMBREAD, loose(PORTAL))
    vmts = sorted(p for p in read.entries if p.endswith(".vmt"))
    assert len(vmts) == 49
    for vmt in vmts:
        text = read(vmt).decode()
        deps = paths(material_deps(ref(vmt), read))
        if text.lstrip().lower().startswith('"patch"'):
            parents = [p for p in deps if p.endswith(".vmt")]
            assert parents, vmt
            assert all(p in deps and deps[p] is False for p in parents)
            assert any(p in read.entries or read(p) is not None or p.startswith("materials/")
                       for p in parents)
        if "$envmap" in text and f"maps/{MAP}/c" in text:
            cubemaps = [p for p in deps if p.startswith(f"materials/maps/{MAP}/c")]
            assert cubemaps and all(deps[p] for p in cubemaps), vmt
    depth = f"materials/maps/{MAP}/maps/{MAP}/nature/hazard_liquid_32_0_64_depth_112.vmt"
    assert paths(material_deps(ref(depth), read)) == {
        f"materials/maps/{MAP}/nature/hazard_liquid_32_0_64.vmt": False}


METAL_BOX = {
    # hand-checked: the side files on disk, 3 skin families, each skin's vmt and its textures
    "models/props/metal_box.mdl": False,
    "models/props/metal_box.vvd": False,
    "models/props/metal_box.dx90.vtx": False,
    "models/props/metal_box.dx80.vtx": True,
    "models/props/metal_box.sw.vtx": True,
    "models/props/metal_box.vtx": True,
    "models/props/metal_box.phy": True,
    "materials/models/props/metal_box.vmt": False,
    "materials/models/props/metal_box_skin001.vmt": False,
    "materials/models/props/metal_box_skin002.vmt": False,
    "materials/models/props/metal_box.vtf": False,
    "materials/models/props/metal_box_normal.vtf": False,
    "materials/models/props/metal_box_exponent.vtf": False,
    "materials/models/props/metal_box_skin001.vtf": False,
    "materials/models/props/metal_box_lightwarp.vtf": False,
    "materials/models/props/metal_box_skin002.vtf": False,
}


@needs_content
def test_real_model_every_skin():
    got = follow([ref("models/props/metal_box.mdl")], loose(PORTAL))
    assert paths(got) == METAL_BOX
    reasons = {r.path: r.reason for r in got}
    assert reasons["materials/models/props/metal_box_lightwarp.vtf"] == (
        "test", "models/props/metal_box.mdl $cdmaterials metal_box_skin001",
        "materials/models/props/metal_box_skin001.vmt $lightwarptexture")


@needs_content
def test_real_pcf_materials():
    read = loose(PORTAL)
    got = follow([ref("particles/particles_manifest.txt")], read)
    pcfs = [r.path for r in got if r.path.endswith(".pcf")]
    assert len(pcfs) == 17 and "particles/rain_fx.pcf" in pcfs
    fire = [r for r in got if r.reason[-1].startswith("particles/fire_02.pcf ")]
    assert len({r.path for r in fire}) == 21
    # second opinion: srctools' own PCF reader, each system's `material`
    from srctools.particles import Particle

    with open(PORTAL / "particles" / "fire_02.pcf", "rb") as f:
        systems = Particle.parse(f)
    theirs = {asset_path("materials/" + s.options["material"].val_str.removesuffix(".vmt") + ".vmt")
              for s in systems.values() if "material" in s.options
              and s.options["material"].val_str.strip()}
    assert theirs == {r.path for r in fire}
    assert "materials/particle/smoke1/smoke1.vmt" in {r.path for r in fire}
    assert all(r.path.startswith("materials/") and r.path.endswith(".vmt") for r in fire)


@needs_content
@pytest.mark.parametrize("model", ["models/props/switch001.mdl", "models/props/metal_box.mdl",
                                   "models/weapons/w_portalgun.mdl"])
def test_packlist_second_opinion_models(model):
    """Every file srctools' packlist finds for a custom model, we find too."""
    from srctools.filesys import RawFileSystem
    from srctools.packlist import FileType, PackList

    packlist = PackList(RawFileSystem(str(PORTAL)))
    packlist.pack_file(model, FileType.MODEL)
    packlist.eval_dependencies()
    read = loose(PORTAL)
    theirs = {asset_path(name) for name in packlist.filenames()}
    theirs = {p for p in theirs if p in read.table}  # those that resolve in the mod
    ours = {p for p in paths(follow([ref(model)], read)) if p in read.table}
    assert theirs and theirs <= ours, theirs - ours


@needs_content
@pytest.mark.parametrize("mod", ["msrc", "portalcollab"])
@pytest.mark.parametrize("kind", ["vmt", "mdl"])
def test_packlist_second_opinion_every_loose_asset(mod, kind):
    """From every loose material (or model) of a mod, every file that srctools' packlist
    resolves in the mod, we find too. (Ours finds more: packlist's file system is case
    sensitive, so portalcollab's `vgui/playermodels/player/Chell.vtf`, named in lower case by
    its vmt, escapes it.)"""
    from srctools.filesys import RawFileSystem
    from srctools.packlist import FileType, PackList

    root = CONTENT / mod
    read = loose(root)
    starts = sorted(p for p in read.table if p.endswith("." + kind))
    if not starts:
        pytest.skip(f"no loose .{kind} in {mod}")
    packlist = PackList(RawFileSystem(str(root)))
    for path in starts:
        packlist.pack_file(path, FileType.MATERIAL if kind == "vmt" else FileType.MODEL)
    packlist.eval_dependencies()
    theirs = {asset_path(name) for name in packlist.filenames()} & set(read.table)
    ours = set(paths(follow([ref(p) for p in starts], read))) & set(read.table)
    assert theirs <= ours, sorted(theirs - ours)
    if mod == "portalcollab" and kind == "vmt":
        assert "materials/vgui/playermodels/player/chell.vtf" in ours - theirs


def test_gib_sets_from_propdata():
    from bspedit.features.pack.models import gib_models, model_path

    read = reader({"scripts/propdata.txt": """"PropData.txt"
{
    "sections" { "Metal.Small" { "health" "10" } }
}
"BreakableModels"
{
    "MetalChunks" { "models/gibs/metal_gib1.mdl" "1" "models/gibs/metal_gib2.mdl" "1" }
}"""})
    cache: dict = {}
    assert gib_models("metalchunks", read, cache) == ["models/gibs/metal_gib1.mdl",
                                                      "models/gibs/metal_gib2.mdl"]
    assert gib_models("Nothing", read, cache) == []
    assert model_path("gibs/x") == "models/gibs/x.mdl"
    assert model_path("Models\\Props\\Box.MDL") == "models/props/box.mdl"


def test_conditional_param_and_exists():
    read = reader({"materials/c.vmt": '"VertexLitGeneric" { "GPU>=2?$detail" "d/noise" '
                                      '"$customtex" "c/custom" }'})
    asked = []

    def exists(path: str) -> bool:
        asked.append(path)
        return not path.endswith(".hdr.vtf")

    got = follow([ref("materials/c.vmt")], read, exists=exists)
    assert [(r.path, r.reason[-1]) for r in got[1:]] == [
        ("materials/d/noise.vtf", "materials/c.vmt $detail"),
        ("materials/c/custom.vtf", "materials/c.vmt $customtex")]
    # the custom parameter's texture, then each texture's HDR sibling (absent here)
    assert asked == ["materials/c/custom.vtf", "materials/d/noise.hdr.vtf",
                     "materials/c/custom.hdr.vtf"]


def test_vscript_literal_calls():
    read = reader({
        "scripts/vscripts/mymap/main.nut": b'IncludeScript("mymap/util")\n'
            b'DoIncludeScript( "shared.nut", self )\nself.PrecacheScriptSound("Door.Open")\n'
            b'PrecacheModel("models/props/box.mdl")\nIncludeScript(name)\n',
        "scripts/vscripts/mymap/util.nut": b'IncludeScript("mymap/main")',
    })
    got = follow([ref("scripts/vscripts/mymap/main.nut")], read)
    assert [r.path for r in got] == [
        "scripts/vscripts/mymap/main.nut", "scripts/vscripts/mymap/util.nut",
        "scripts/vscripts/shared.nut", "soundscript:door.open", "models/props/box.mdl",
        "models/props/box.vvd", "models/props/box.dx90.vtx", "models/props/box.dx80.vtx",
        "models/props/box.sw.vtx", "models/props/box.vtx", "models/props/box.phy"]


@needs_content
def test_model_header_fallback():
    """For models srctools refuses (a version past 49), the materials come from the header:
    on every loose portalcollab model the header agrees with srctools, and metal_box with its
    version byte set to 53 still leads to every skin's material."""
    from bspedit.features.pack.models import _header, _parse, model_deps

    def norm(folders):
        return [asset_path(f) for f in folders if f]

    read = loose(PORTAL)
    models = sorted(p for p in read.table if p.endswith(".mdl"))
    assert len(models) == 13
    for path in models:
        data = read(path)
        cdmaterials, skins, includes = _header(data)
        model = _parse(path, data, None)
        assert norm(cdmaterials) == norm(model.cdmaterials), path
        assert {t for f in model.skins for t in f} <= {t for f in skins for t in f}, path
        assert includes == [i.filename for i in model.included_models], path
    data = bytearray(read("models/props/metal_box.mdl"))
    data[4] = 53
    assert _parse("models/props/metal_box.mdl", bytes(data), None) is None
    got = paths(model_deps(ref("models/props/metal_box.mdl"), read, bytes(data)))
    assert {p for p in got if p.endswith(".vmt")} == {
        p for p in METAL_BOX if p.endswith(".vmt")}
