"""The material chain: what a `.vmt` leads to (its textures, the materials it names, a patch
material's parent).

The rule for parameters: a `$` parameter is a texture when srctools' shader database (built
from the shaders' own parameter declarations, 1216 parameters) types it
`SHADER_PARAM_TYPE_TEXTURE`, and a material when it types it `SHADER_PARAM_TYPE_MATERIAL`
(`$bottommaterial`, `$crackmaterial`, `$translucent_material`). Two corrections, whose values
name materials although the database says otherwise: `$fallbackmaterial` (absent from it) and
`$underwateroverlay` (typed texture; the water shader hands it to the screen overlay, a
material). A parameter the database does not know is a texture only when
`materials/<value>.vtf` exists (asked of `read`), so custom shaders' textures are found and
their numbers and words are not. Values skipped: `env_cubemap` (the map's own cubemaps, which
vbsp packs), render targets (`_rt_*`), empty values, and `%` parameters (`%tooltexture`,
`%compile*`: read by the compile tools only).

Parameters are read at the top level, in the shader's fallback and condition blocks
(`">=dx90" {...}`, `"LightmappedGeneric_DX80" {...}`) and in a patch material's `insert` and
`replace` blocks; `Proxies` name parameters, not files. A patch material (vbsp writes them:
`materials/maps/<map>/..._wvt_patch.vmt`, `..._depth_<n>.vmt`, `..._<x>_<y>_<z>.vmt` for
cubemaps) leads to its `include` parent; `follow` then reads the parent wherever it is (the
base game's included), so the parent's own textures count too.

Cubemaps: a `$envmap` naming one of the map's built cubemaps (`maps/<map>/c<x>_<y>_<z>`, which
vbsp's patch materials insert) is optional: `buildcubemaps` writes those into the pakfile in
the game, no content folder provides them, and the engine draws without them. Any `$envmap`
that names a file leads to its `.hdr.vtf` sibling too, optional (an LDR-only cubemap is
valid). Skies' HDR faces are the sky reference's business (refs), not a material's.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from .model import Reference, asset_path

Read = Callable[[str], "bytes | None"]

# Names of parameters whose values are materials, beyond the shader database's MATERIAL type.
MATERIAL_PARAMS_EXTRA = frozenset({"$fallbackmaterial", "$underwateroverlay"})
# Values of texture parameters that name no file.
_NOT_FILES = ("env_cubemap",)
# A cubemap that the game's `buildcubemaps` writes: materials/maps/<map>/c<x>_<y>_<z>.vtf.
_BUILT_CUBEMAP = re.compile(r"materials/maps/[^/]+/c-?\d+_-?\d+_-?\d+\.vtf")
# Values that cannot be a texture's name (numbers, vectors, matrices), never looked up.
_NOT_A_NAME = re.compile(r"[-+.\d\s]*|[\[{].*|center .*", re.DOTALL)


def decode_text(data: bytes) -> str:
    """A text file's bytes as text (UTF-8, a BOM dropped, undecodable bytes replaced)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.decode("utf-8", errors="replace")


def parse_keyvalues(text: str, name: str):
    """srctools' KeyValues tree of `text` as the engine reads script files (no escapes,
    one-line blocks allowed); raises on a broken file."""
    from srctools.keyvalues import Keyvalues

    return Keyvalues.parse(text, name, allow_escapes=False, single_line=True)


def read_keyvalues(read: Callable[[str], bytes | None], path: str):
    """The KeyValues tree of the file at `path`; None when it is absent or broken (a broken
    script leads nowhere)."""
    data = read(path)
    if data is None:
        return None
    try:
        return parse_keyvalues(decode_text(data), path)
    except Exception:  # noqa: BLE001 - srctools raises its own errors
        return None


def leaf_values(read: Callable[[str], bytes | None], path: str, key: str) -> Iterator[str]:
    """The non-empty values of every `key` leaf of the KeyValues file at `path`."""
    root = read_keyvalues(read, path)
    for kv in root.iter_tree() if root is not None else ():
        if kv.name == key and not kv.has_children() and kv.value.strip():
            yield kv.value.strip()


def texture_path(value: str) -> str:
    """`materials/<value>.vtf` for a texture parameter's value (`Brick\\Wall.VTF` ->
    `materials/brick/wall.vtf`; a leading `materials/` is not doubled)."""
    path = asset_path(value)
    path = path.removesuffix(".vtf")
    if not path.startswith("materials/"):
        path = "materials/" + path
    return path + ".vtf"


def material_path(value: str) -> str:
    """`materials/<value>.vmt` for a material name (extension and `materials/` optional)."""
    path = asset_path(value)
    path = path.removesuffix(".vmt")
    if not path.startswith("materials/"):
        path = "materials/" + path
    return path + ".vmt"


def param_kind(name: str) -> str | None:
    """"texture", "material", "unknown" or None (a parameter that names no file)."""
    from srctools.vmt import VarType, get_parm_type

    name = name.casefold().rsplit("?", 1)[-1]  # `"GPU>=2?$detail"`: a condition first
    if name in MATERIAL_PARAMS_EXTRA:
        return "material"
    if not name.startswith("$"):
        return None
    kind = get_parm_type(name)
    if kind is VarType.TEXTURE:
        return "texture"
    if kind is VarType.MATERIAL:
        return "material"
    if kind is None:
        return "unknown"
    return None


def _params(material) -> Iterator[tuple[str, str]]:
    """Every (name, value) of a parsed material: the top level, then its blocks (fallback and
    condition blocks, a patch's insert/replace), depth first; proxies left out."""
    yield from material.items()

    def walk(block) -> Iterator[tuple[str, str]]:
        for kv in block:
            if kv.has_children():
                if kv.name != "proxies":
                    yield from walk(kv)
            else:
                yield kv.real_name, kv.value

    for block in material.blocks:
        yield from walk(block)


def material_deps(ref: Reference, read: Read, data: bytes | None = None,
                  exists: Callable[[str], bool] | None = None) -> list[Reference]:
    """What the material `ref` leads to (its own bytes read with `read` unless given): the
    textures and materials its parameters name, and a patch material's `include` parent.
    An unreadable or unparsable material leads nowhere. `exists(path)` answers whether an
    unknown parameter's texture exists (default: `read` gives bytes)."""
    from srctools.tokenizer import TokenSyntaxError
    from srctools.vmt import Material

    if data is None:
        data = read(ref.path)
        if data is None:
            return []
    try:
        material = Material.parse(decode_text(data), ref.path)
    except (TokenSyntaxError, ValueError):
        return []
    out: list[Reference] = []
    if material.shader.casefold() == "patch":
        parent = material.get("include", "")
        if parent:
            out.append(ref.via(f"{ref.path} include", material_path(parent)))
    for name, value in _params(material):
        value = value.strip()
        kind = param_kind(name)
        if kind is None or not value:
            continue
        lowered = value.casefold()
        if lowered in _NOT_FILES or lowered.startswith("_rt_"):
            continue
        name = name.casefold().rsplit("?", 1)[-1]
        step = f"{ref.path} {name}"
        if kind == "material":
            out.append(ref.via(step, material_path(value)))
            continue
        if kind == "unknown" and _NOT_A_NAME.fullmatch(value):
            continue
        path = texture_path(value)
        if kind == "unknown" and not (exists(path) if exists else read(path) is not None):
            continue
        if name == "$envmap":
            built = bool(_BUILT_CUBEMAP.fullmatch(path))
            out.append(ref.via(step, path, optional=built))
            out.append(ref.via(step, path[:-4] + ".hdr.vtf", optional=True))
        else:
            out.append(ref.via(step, path))
    return out
