"""The model chain: what a `.mdl` leads to.

- Its side files: `.vvd` (required), `.dx90.vtx` (required: the engine of these games loads
  it), `.dx80.vtx`, `.sw.vtx`, `.vtx` (optional: older renderers' variants), `.phy`
  (optional: a model without physics has none), and the `.ani` file the header names
  (required, only when the header counts external animation blocks: `numanimblocks` > 0).
- Materials: every skin family's textures (the skin table as srctools reads it: every family,
  the columns the meshes use) × the `$cdmaterials` folders: the first folder whose
  `materials/<folder>/<texture>.vmt` exists (asked of `read`), as the engine searches them; a
  texture found in no folder is listed under the first folder, so it shows as missing.
- `$includemodel` models.
- srctools reads the model (versions 44-49); for one it refuses (a later version), the
  `$cdmaterials`, skin table and includes are read straight from the header (`_header`), and
  the gibs and sounds below are not looked for.
- Gibs: the `.phy` keyvalues' `break` blocks' `model`, and the model keyvalues' `prop_data`
  `breakable_model` gib set, looked up in `scripts/propdata.txt`'s `BreakableModels`.
- What its animation events name (`event_references`): the sounds they play, the footstep
  soundscripts of NPC foot events, the particle systems they start, and `env_particlescript`'s
  sprite materials.
"""
from __future__ import annotations

import struct
from collections.abc import Callable

from .materials import decode_text, material_path, parse_keyvalues
from .model import Reference, asset_path
from .sounds import sound_reference

Read = Callable[[str], "bytes | None"]

SIDE_FILES: tuple[tuple[str, bool], ...] = (
    # (extension, optional)
    (".vvd", False),
    (".dx90.vtx", False),
    (".dx80.vtx", True),
    (".sw.vtx", True),
    (".vtx", True),
    (".phy", True),
)
# studiohdr_t (versions 44-49): `szanimblocknameindex` (the `.ani` file's name) at byte 348,
# then `numanimblocks`.
_ANIMBLOCKS_OFFSET = 352
# Animation events whose options name a sound: a soundscript, or a file when it ends in a
# sound extension (AE_CL_PLAYSOUND, AE_SV_PLAYSOUND, the NPC and generic sound events).
_SOUND_EVENTS = frozenset({"AE_CL_PLAYSOUND", "AE_SV_PLAYSOUND", "CL_EVENT_SOUND",
                           "SCRIPT_EVENT_SOUND", "SCRIPT_EVENT_SOUND_VOICE",
                           "AE_NPC_PLAYSOUND"})
# NPC foot events: the options name the NPC's sound prefix (`NPC_Citizen`; default
# `NPC_CombineS`, as CAI_BaseNPC::HandleAnimEvent), which plays `<prefix>.RunFootstepLeft`...
_FOOT_EVENTS = frozenset({"AE_NPC_LEFTFOOT", "AE_NPC_RIGHTFOOT"})
_FOOTSTEPS = ("RunFootstepLeft", "RunFootstepRight", "FootstepLeft", "FootstepRight")


def model_path(value: str) -> str:
    """`models/<value>` with `.mdl` (a leading `models/` not doubled)."""
    path = asset_path(value)
    if not path.endswith(".mdl"):
        path = path.rsplit(".", 1)[0] if path.rsplit("/", 1)[-1].count(".") else path
        path += ".mdl"
    if not path.startswith("models/"):
        path = "models/" + path
    return path


def gib_models(gib_set: str, read: Read, cache: dict | None = None) -> list[str]:
    """The models of the gib set `gib_set` in `scripts/propdata.txt`'s `BreakableModels`."""
    if cache is not None and "propdata" in cache:
        sets = cache["propdata"]
    else:
        sets: dict[str, list[str]] = {}
        data = read("scripts/propdata.txt")
        if data is not None:
            try:
                root = parse_keyvalues(decode_text(data), "scripts/propdata.txt")
                for block in root.iter_tree(blocks=True):
                    if block.name != "breakablemodels" or not block.has_children():
                        continue
                    for group in block:
                        if group.has_children():
                            sets.setdefault(group.name, []).extend(kv.real_name for kv in group)
            except Exception:  # noqa: BLE001 - a broken propdata leads nowhere
                sets = {}
        if cache is not None:
            cache["propdata"] = sets
    return sets.get(gib_set.casefold(), [])


def model_deps(ref: Reference, read: Read, data: bytes | None = None,
               cache: dict | None = None,
               exists: Callable[[str], bool] | None = None) -> list[Reference]:
    """What the model `ref` leads to (see the module's docstring). An unreadable model leads
    only to its side files. `exists(path)` answers the `$cdmaterials` search (default: `read`
    gives bytes)."""
    if exists is None:
        def exists(path: str) -> bool:
            return read(path) is not None

    stem = ref.path.removesuffix(".mdl")
    out = [ref.via(f"{ref.path} model file", stem + ext, optional=optional)
           for ext, optional in SIDE_FILES]
    if data is None:
        data = read(ref.path)
    if data is None:
        return out
    ani = _ani_file(data)
    if ani is not None:
        out.append(ref.via(f"{ref.path} animation blocks", ani or stem + ".ani"))
    model = _parse(ref.path, data, read(stem + ".phy"))
    if model is None:
        header = _header(data)
        if header is None:
            return out
        cdmaterials, skins, includes = header
    else:
        cdmaterials, skins = model.cdmaterials, model.skins
        includes = [included.filename for included in model.included_models]
    folders = [asset_path(f) for f in cdmaterials] or [""]
    textures: list[str] = []
    for family in skins:
        for texture in family:
            if texture.casefold() not in (t.casefold() for t in textures):
                textures.append(texture)
    for texture in textures:
        candidates = [material_path(f"{folder}/{texture}" if folder else texture)
                      for folder in folders]
        found = next((c for c in candidates if exists(c)), candidates[0])
        out.append(ref.via(f"{ref.path} $cdmaterials {texture}", found))
    for included in includes:
        out.append(ref.via(f"{ref.path} $includemodel", model_path(included)))
    if model is None:
        return out
    for brk in model.phys_keyvalues.find_all("break"):
        for kv in brk.find_all("model"):
            out.append(ref.via(f"{ref.path} break model", model_path(kv.value)))
    if model.keyvalues:
        try:
            kvs = parse_keyvalues(model.keyvalues, ref.path + ":keyvalues")
            for prop_data in kvs.find_all("prop_data"):
                for gib_set in prop_data.find_all("breakable_model"):
                    for gib in gib_models(gib_set.value, read, cache):
                        out.append(ref.via(f"{ref.path} prop_data breakable_model "
                                           f"{gib_set.value}", model_path(gib)))
        except Exception:  # noqa: BLE001, S110 - broken keyvalues lead nowhere
            pass
    for sequence in model.sequences:
        for event in sequence.events:
            out += event_references(ref, sequence.label,
                                    getattr(event.type, "name", str(event.type)), event.options)
    return out


def event_references(ref: Reference, sequence: str, event: str,
                     options: str) -> list[Reference]:
    """What animation event `event` (its srctools `AnimEvents` name) of sequence `sequence` of
    the model `ref` names with `options`: a sound event its soundscript (or `sound/` file), an
    NPC foot event the four footstep soundscripts of its prefix, `AE_CL_CREATE_PARTICLE_EFFECT`
    (`<system> <attach type> <attachment>`) its particle system, and
    `CL_EVENT_SPRITEGROUP_CREATE` (`<attachment> <sprite>`, env_particlescript) its sprite's
    material."""
    step = f"{ref.path} sequence {sequence}"
    value = options.strip()
    words = value.split()
    if event in _SOUND_EVENTS:
        sound = sound_reference(ref, step, value)
        return [sound] if sound else []
    if event in _FOOT_EVENTS:
        prefix = value or "NPC_CombineS"
        return [ref.named(f"soundscript:{prefix}.{foot}".casefold(), step) for foot in _FOOTSTEPS]
    if event == "AE_CL_CREATE_PARTICLE_EFFECT" and len(words) == 3:
        return [ref.named(f"particle:{words[0].casefold()}", step)]
    if event == "CL_EVENT_SPRITEGROUP_CREATE" and len(words) == 2:
        sprite = asset_path(words[1])
        return [ref.via(step, material_path(sprite.removesuffix(".spr")))]
    return []


def _ani_file(data: bytes) -> str | None:
    """The `.ani` file a model's header names when it counts external animation blocks ("" if
    the name is unreadable), None when it has none."""
    if len(data) < _ANIMBLOCKS_OFFSET + 4:
        return None
    name_at, blocks = struct.unpack_from("<ii", data, _ANIMBLOCKS_OFFSET - 4)
    if blocks <= 0:
        return None
    if 0 < name_at < len(data):
        end = data.find(b"\0", name_at)
        name = data[name_at:end if end >= 0 else len(data)].decode("ascii", "replace")
        if name.strip():
            return asset_path(name)
    return ""


def _cstr(data: bytes, at: int) -> str:
    if not 0 < at < len(data):
        return ""
    end = data.find(b"\0", at)
    return data[at:end if end >= 0 else len(data)].decode("utf-8", "replace")


def _header(data: bytes) -> tuple[list[str], list[list[str]], list[str]] | None:
    """`$cdmaterials`, the skin families' texture names and `$includemodel`s read straight
    from studiohdr_t, for models srctools cannot read (versions past 49): the texture table
    (byte 204: count, offset; 64-byte mstudiotexture_t whose name offset is relative to it),
    the cdmaterials table (212: count, offset of name offsets), the skin table (220: columns,
    families, offset of shorts) and the include table (336: count, offset; 8-byte entries whose
    name offset is relative to each). None when the header is not one."""
    if len(data) < 344 or data[:4] != b"IDST":
        return None
    try:
        n_tex, tex_at, n_cd, cd_at, n_ref, n_fam, skin_at = struct.unpack_from("<7i", data, 204)
        n_inc, inc_at = struct.unpack_from("<2i", data, 336)
        if not (0 <= n_tex <= 4096 and 0 <= n_cd <= 256 and 0 <= n_ref <= 4096
                and 0 <= n_fam <= 4096 and 0 <= n_inc <= 256):
            return None
        names = [_cstr(data, tex_at + 64 * i + struct.unpack_from("<i", data, tex_at + 64 * i)[0])
                 for i in range(n_tex)]
        cdmaterials = [_cstr(data, struct.unpack_from("<i", data, cd_at + 4 * i)[0])
                       for i in range(n_cd)]
        skins = []
        for family in range(n_fam):
            row = struct.unpack_from(f"<{n_ref}h", data, skin_at + 2 * n_ref * family)
            skins.append([names[i] for i in row if 0 <= i < n_tex and names[i]])
        if not skins:
            skins = [[name for name in names if name]]
        includes = [_cstr(data, inc_at + 8 * i + struct.unpack_from("<i", data, inc_at + 8 * i + 4)[0])
                    for i in range(n_inc)]
    except struct.error:
        return None
    return cdmaterials, skins, [name for name in includes if name]


def _parse(path: str, data: bytes, phy: bytes | None):
    """srctools' Model of the bytes (and the `.phy` beside them), or None when unreadable."""
    from srctools.filesys import VirtualFileSystem
    from srctools.mdl import Model

    files = {path: data}
    if phy is not None:
        files[path[:-4] + ".phy"] = phy
    fsys = VirtualFileSystem(files)
    try:
        return Model(fsys, fsys[path])
    except Exception:  # noqa: BLE001 - any malformed model: nothing more to follow
        try:  # a broken .phy must not hide the materials
            fsys = VirtualFileSystem({path: data})
            return Model(fsys, fsys[path])
        except Exception:  # noqa: BLE001
            return None
