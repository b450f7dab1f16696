"""The references a Source map makes by itself, before any chain through a material, model or
script: texdata materials, entity keys (by the table in `entity_assets`, then srctools'
entity database for the keys the table does not name), the VScripts entities' outputs and
code keys run (`vscripts`), what entity classes load by themselves (`classres`: srctools'
class resources, and its defaults for asset keys an entity leaves out; optional), static prop
and detail prop models, detail sprites, the sky, cubemaps, vbsp's patch materials and the
static props' lighting in the pakfile, the map-named side files the engine looks for, and the
VScript every map start runs. `fgd=False` leaves srctools' database out (the table alone);
without srctools installed it is left out anyway.

`map_references(bsp)` gives one reference per path, the first reason found (in the order
above), required over optional: a path that any reference needs is required, with the reason
of the first one that needs it. `all_references(bsp)` gives every reference with its own
reason, duplicates included.

Reasons: `texdata 12`, `entity 57 prop_dynamic 'model'` (the entity's index in the entity
lump, its class and the key as written), `entity 3 npc_antlion (class resources)`,
`entity 9 weapon_portalgun 'viewmodel' (default)`, `entity 5 func_button 'OnPressed'
RunScriptFile`, `static props 3, 7 (skins 0, 1)`, `static prop
dictionary 4` (a model no prop uses: the engine precaches it anyway), `detail prop
dictionary 0`, `detail sprites (worldspawn 'detailmaterial')`, `cubemap 2 (-128 64 0)`,
`cubemap default`, `vbsp patch material in the pakfile`, `static prop 4 lighting`,
`engine file in the pakfile`, `map-named file`, `run at every map start (VScript games)`.

Names that are not files are references with a prefix (`soundscript:`, `soundscape:`,
`particle:`, `breakable:`; see `model.SOUNDSCRIPT`).
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from . import entity_assets as ea
from .classres import class_references
from .keys import (
    SKY_FACES,
    SOUND_CHARS,
    key_references,
    material_reference,
    sky_faces,
    sound_references,
)
from .model import Reference, asset_path
from .vscripts import entity_script_references, mapspawn_references

if TYPE_CHECKING:
    from ...bsp import Bsp

Read = Callable[[str], "bytes | None"]

__all__ = [
    "SIDE_FILES",
    "SKY_FACES",
    "SOUND_CHARS",
    "all_references",
    "class_references",
    "compile_names",
    "cubemap_references",
    "detail_references",
    "entity_references",
    "key_references",
    "map_name",
    "map_references",
    "side_file_references",
    "sky_faces",
    "sound_references",
    "static_prop_references",
    "texdata_references",
]

DEFAULT_DETAIL_MATERIAL = "detail/detailsprites"
_PROP_LIGHTING = re.compile(r"(?:sp_(?:hdr_)?(\d+)\.vhv|texelslighting_(\d+)\.ppl)")
# Engine-written files a map packs at its pakfile's root (CS:GO, L4D2: the network string
# table dictionary vbsp or the engine builds).
PAK_ROOT_FILES = ("stringtable_dictionary.dct",)

# Files the engine (or the game's server or client) looks for by the map's name; none is
# needed, so every one is optional. `{map}` is the map's file name without `.bsp`.
SIDE_FILES = (
    "maps/{map}.nav",                    # the navigation mesh (servers of games with bots/NPCs)
    "maps/{map}.txt",                    # the map's description (CS:S, TF2, DoD:S info panel)
    "maps/{map}_level_sounds.txt",       # the map's soundscripts (soundemittersystem, EP2+)
    "maps/{map}_particles.txt",          # the map's particle manifest (EP2+)
    "maps/{map}_commentary.txt",         # developer commentary nodes
    "maps/{map}.res",                    # the server's download list (CS:S, TF2)
    "scripts/soundscapes_{map}.txt",     # the map's soundscapes (EP2+)
    "resource/overviews/{map}.txt",      # the overview (radar) description (CS:S, TF2, CS:GO)
    "resource/overviews/{map}_radar.dds",  # CS:GO's radar image (no material)
    "maps/{map}_manifest.txt",           # Mapbase's per-map manifest (scripts, soundscripts...)
)


def map_name(bsp: Bsp) -> str:
    """The name the engine knows the map by: its file name without `.bsp`, lower case."""
    base = os.path.basename(str(bsp.path))
    if base.lower().endswith(".bsp"):
        base = base[:-4]
    return base.lower()


def map_references(bsp: Bsp, name: str | None = None, *, fgd: bool = True,
                   database: ea.EntityDatabase | None = None,
                   read: Read | None = None) -> list[Reference]:
    """Every asset the map names by itself, one reference per path (see the module's doc).
    `name` overrides the map's name (`map_name`) for the map-named files and cubemaps; `fgd`
    False reads entity keys by the table alone (`entity_references`) and leaves class
    resources out; `database` is the entity database (default srctools'), `read` the files
    the class functions may read (`classres`)."""
    return dedupe(all_references(bsp, name, fgd=fgd, database=database, read=read))


def all_references(bsp: Bsp, name: str | None = None, *, fgd: bool = True,
                   database: ea.EntityDatabase | None = None,
                   read: Read | None = None) -> list[Reference]:
    """Every reference with its own reason, in the order texdata, entity keys, scripts the
    entities run, class resources, static props, detail props, cubemaps and patch materials,
    map-named files, the VScript every map start runs; duplicates kept."""
    name = map_name(bsp) if name is None else name
    out: list[Reference] = []
    out += texdata_references(bsp)
    out += entity_references(bsp, fgd=fgd, database=database)
    out += entity_script_references(bsp)
    if fgd:
        out += class_references(bsp, name, database=database, read=read)
    out += static_prop_references(bsp)
    out += detail_references(bsp)
    out += cubemap_references(bsp, name)
    out += side_file_references(bsp, name)
    out += mapspawn_references()
    return out


def dedupe(refs: Iterable[Reference]) -> list[Reference]:
    """One reference per path, in first-seen order: the first required one's reason, or the
    first one's when all are optional."""
    chosen: dict[str, Reference] = {}
    for ref in refs:
        old = chosen.get(ref.path)
        if old is None or (old.optional and not ref.optional):
            chosen[ref.path] = ref
    return list(chosen.values())


# -- texdata -----------------------------------------------------------------------------------
def texdata_references(bsp: Bsp) -> list[Reference]:
    """`materials/<name>.vmt` for every TEXDATA row (`texdata N`), patch materials included
    (their names are in the string data like any other)."""
    if not _has(bsp, "TEXDATA"):
        return []
    from ...lumps.texdata import TexdataStringData

    texdata = bsp.records("TEXDATA")
    table = bsp.records("TEXDATA_STRING_TABLE")["offset"].tolist()
    strings = TexdataStringData.parse(bsp.content("TEXDATA_STRING_DATA"))
    out = []
    for n, entry in enumerate(texdata["name_string_table_id"].tolist()):
        if not 0 <= entry < len(table):
            continue
        try:
            name = strings.string_at(int(table[entry]))
        except IndexError:
            continue
        path = material_reference(name)
        if path:
            out.append(Reference(path, (f"texdata {n}",)))
    return out


def _has(bsp: Bsp, lump: str) -> bool:
    try:
        return any(l.name == lump and l.length for l in bsp.lumps)
    except AttributeError:
        return False


# -- entities ----------------------------------------------------------------------------------
def entity_references(bsp: Bsp, *, fgd: bool = True,
                      database: ea.EntityDatabase | None = None) -> list[Reference]:
    """The assets entity keys name, by `entity_assets.ENTITY_ASSETS` and (with `fgd`) the
    entity database (`database`, default srctools') for the keys the table does not name, in
    file order (every value of a repeated key; the reason names the key as the entity writes
    it)."""
    keys = (database or ea.DATABASE).all_asset_keys if fgd else ea.asset_keys
    out: list[Reference] = []
    for index, entity in enumerate(bsp.entities(lenient=True)):
        classname = (entity.get("classname") or "").strip()
        kinds = {key.lower(): kind for key, kind in keys(classname)}
        for key, value in entity.pairs():
            kind = kinds.get(key.lower())
            if kind is not None:
                out += key_references(kind, value, (f"entity {index} {classname} {key!r}",))
    return out


def _worldspawn(bsp: Bsp) -> dict[str, str]:
    for entity in bsp.entities(lenient=True):
        if (entity.get("classname") or "").strip().lower() == "worldspawn":
            return {k.lower(): v for k, v in entity.items()}
    return {}


# -- static props and detail props -------------------------------------------------------------
def _ranges(numbers: list[int]) -> str:
    """`0-3, 7, 9-10`."""
    parts, start = [], None
    for i, n in enumerate(numbers):
        if start is None:
            start = n
        if i + 1 == len(numbers) or numbers[i + 1] != n + 1:
            parts.append(str(start) if start == n else f"{start}-{n}")
            start = None
    return ", ".join(parts)


def _game_member(bsp: Bsp, ident: str) -> bool:
    if not _has(bsp, "GAME_LUMP"):
        return False
    try:
        bsp.game_lump.member(ident)
    except Exception:  # noqa: BLE001 - absent or repeated: nothing to read
        return False
    return True


def static_prop_references(bsp: Bsp) -> list[Reference]:
    """One reference per static prop model: `static props 0, 3-5 (skins 0, 1)`; a dictionary
    entry no prop uses still gets one (`static prop dictionary N`): the engine precaches every
    entry. The model chain follows the skins named."""
    if not _game_member(bsp, "sprp"):
        return []
    props = bsp.static_props
    names = props.model_names()
    users: dict[int, list[int]] = {}
    skins: dict[int, set[int]] = {}
    has_skin = "skin" in props.layout.fields
    for index in range(len(props)):
        model = props.get(index, "model")
        if not isinstance(model, int) or not 0 <= model < len(names):
            continue
        users.setdefault(model, []).append(index)
        skin = props.get(index, "skin") if has_skin else 0
        skins.setdefault(model, set()).add(int(skin) if isinstance(skin, int) else 0)
    out = []
    for model, name in enumerate(names):
        path = asset_path(name)
        if not path:
            continue
        if model in users:
            used = users[model]
            word = "static prop" if len(used) == 1 else "static props"
            skin_list = sorted(skins[model])
            skin_word = "skin" if len(skin_list) == 1 else "skins"
            reason = f"{word} {_ranges(used)} ({skin_word} {', '.join(map(str, skin_list))})"
        else:
            reason = f"static prop dictionary {model}"
        out.append(Reference(path, (reason,)))
    return out


def detail_references(bsp: Bsp) -> list[Reference]:
    """Detail prop models (`detail prop dictionary N`) and the detail sprites' material:
    worldspawn `detailmaterial` (default `detail/detailsprites`), required when the map has
    detail sprites, optional when worldspawn names one and the map has none."""
    out = []
    sprites = 0
    if _game_member(bsp, "dprp"):
        from ...lumps.detailprops import DetailProps

        try:
            detail = DetailProps.parse(bsp.game_lump.payload("dprp"), bsp.game_lump.endian)
        except Exception:  # noqa: BLE001 - an unreadable member names nothing
            detail = None
        if detail is not None and detail.raw is None:
            for n, name in enumerate(detail.model_names):
                if asset_path(name):
                    out.append(Reference(asset_path(name), (f"detail prop dictionary {n}",)))
            sprites = len(detail.sprites) if detail.sprites is not None else 0
    named = _worldspawn(bsp).get("detailmaterial", "").strip()
    if sprites or named:
        material = material_reference(named or DEFAULT_DETAIL_MATERIAL)
        if material:
            out.append(Reference(material, ("detail sprites (worldspawn 'detailmaterial')",),
                                 optional=not sprites))
    return out


# -- cubemaps and vbsp's patch materials -------------------------------------------------------
def compile_names(bsp: Bsp, name: str) -> list[str]:
    """`name`, then the other names the map was compiled under, as vbsp's outputs show them:
    the `<x>` of texdata names `maps/<x>/...` and of pakfile entries `materials/maps/<x>/...`
    (a renamed map keeps them; the engine looks cubemaps up by the current name, but the
    patch materials the faces use name the old folder)."""
    names = [asset_path(name)]
    found = [p.split("/")[2] for p in _pak_names(bsp)
             if p.startswith("materials/maps/") and p.count("/") >= 3]
    found += [r.path.split("/")[2] for r in texdata_references(bsp)
              if r.path.startswith("materials/maps/") and r.path.count("/") >= 3]
    for other in found:
        if other and other not in names:
            names.append(other)
    return names


def cubemap_references(bsp: Bsp, name: str) -> list[Reference]:
    """The cubemap textures the CUBEMAPS lump names (`materials/maps/<map>/c<x>_<y>_<z>.vtf`
    and `.hdr.vtf`), `cubemapdefault(.hdr).vtf`, and every vbsp patch material the pakfile
    holds under `materials/maps/<map>/` (all optional: the engine goes on without them, and
    vbsp made them, so they are never unused), for the map's name and every name it was
    compiled under (`compile_names`). The patch materials the faces use are texdata
    references already. Then the static props' lighting the pakfile holds (`sp_<n>.vhv`,
    `sp_hdr_<n>.vhv`, `texelslighting_<n>.ppl` for prop n) and `PAK_ROOT_FILES`, optional."""
    out: list[Reference] = []
    pak = _pak_names(bsp)
    cubemaps: list[tuple[int, int, int]] = []
    if _has(bsp, "CUBEMAPS"):
        cubemaps = [(int(x), int(y), int(z))
                    for x, y, z in bsp.records("CUBEMAPS")["origin"].tolist()]
    for folder_name in compile_names(bsp, name):
        folder = f"materials/maps/{folder_name}/"
        for n, (x, y, z) in enumerate(cubemaps):
            reason = (f"cubemap {n} ({x} {y} {z})",)
            out.append(Reference(f"{folder}c{x}_{y}_{z}.vtf", reason, optional=True))
            out.append(Reference(f"{folder}c{x}_{y}_{z}.hdr.vtf", reason, optional=True))
        if cubemaps or any(p.startswith(folder + "cubemapdefault") for p in pak):
            for default in ("cubemapdefault.vtf", "cubemapdefault.hdr.vtf"):
                out.append(Reference(folder + default, ("cubemap default",), optional=True))
        for path in pak:
            if path.startswith(folder) and path.endswith(".vmt"):
                out.append(Reference(path, ("vbsp patch material in the pakfile",),
                                     optional=True))
    props = _static_prop_count(bsp)
    for path in pak:
        match = _PROP_LIGHTING.fullmatch(path)
        if match and int(match.group(1) or match.group(2)) < props:
            prop = int(match.group(1) or match.group(2))
            out.append(Reference(path, (f"static prop {prop} lighting",), optional=True))
        elif path in PAK_ROOT_FILES:
            out.append(Reference(path, ("engine file in the pakfile",), optional=True))
    return out


def _static_prop_count(bsp: Bsp) -> int:
    if not _game_member(bsp, "sprp"):
        return 0
    try:
        return len(bsp.static_props)
    except Exception:  # noqa: BLE001 - unreadable static props light nothing
        return 0


def _pak_names(bsp: Bsp) -> list[str]:
    if not _has(bsp, "PAKFILE"):
        return []
    try:
        return [asset_path(e.name) for e in bsp.pakfile.entries if not e.is_dir]
    except Exception:  # noqa: BLE001 - an unreadable pakfile holds nothing we can name
        return []


# -- map-named files ---------------------------------------------------------------------------
def side_file_references(bsp: Bsp, name: str) -> list[Reference]:
    """The files the engine and games look for by the map's name (`SIDE_FILES`), all optional
    (`map-named file`). What they name in turn (the overview's radar material, the level
    sounds' and particle manifest's files) is the chains' (`chains.follow`)."""
    return [Reference(pattern.format(map=asset_path(name)), ("map-named file",), optional=True)
            for pattern in SIDE_FILES]
