"""The Pakfile view's data: the entries (read from the zip's directory only), a preview of one
(text, an image, a VTF texture as PNG; size-capped), and the references a rename can update:
the materials in the pakfile (.vmt text) and the entity keys that name the old path.

Pak paths are zip entry names (`Pakfile.find`), never file-system paths: nothing here reads or
writes a file."""
from __future__ import annotations

import io
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import BspError

if TYPE_CHECKING:
    from PIL import Image

    from ..features.pack.gamefs import GameFS
    from ..lumps.entities import Entity
    from ..lumps.pakfile import Entry, Pakfile

#: the largest entry previewed (bytes, uncompressed); larger ones are for download
PREVIEW_BYTES = 32 << 20
#: text shown of a text entry (its start); the page says when it is cut
TEXT_BYTES = 256 << 10
#: the longer side of a previewed picture (a VTF's mipmap, or a scaled image)
PREVIEW_SIDE = 1024
#: extensions previewed as text, as images (Pillow), as VTF textures
TEXT = (".vmt", ".txt", ".cfg", ".res", ".lst", ".nut", ".gnut", ".lua", ".vbsp", ".kv",
        ".vdf", ".json", ".xml", ".csv", ".ini", ".ent", ".cache", ".rad", ".fgd", ".vmf")
IMAGES = (".png", ".jpg", ".jpeg", ".tga", ".bmp", ".gif")
VTF = ".vtf"
#: the top folders where a value may leave out the folder (and, for materials, the extension)
_IMPLIED = {"materials": (".vmt", ".vtf"), "sound": ()}
#: the kind of value that may name a file without its extension
_BARE = {"material": ".vmt", "texture": ".vtf"}
#: a token of KeyValues text (a .vmt): a comment, a quoted string or a bare word
_TOKEN = re.compile(r'//[^\n]*|"([^"\n]*)"|([{}])|([^\s"{}]+)')


def listing(pak: Pakfile) -> dict[str, Any]:
    """Every entry (`facts.entry_row`: name, size, stored size, method, CRC-32...), the count
    and the bytes, from the zip's central directory alone."""
    from ..features.facts import entry_row

    entries = pak.entries
    return {"entries": [entry_row(e) for e in entries], "files": len(entries),
            "bytes": sum(e.size for e in entries),
            "stored_bytes": sum(e.stored_size for e in entries)}


def entry(pak: Pakfile, path: str) -> Entry:
    """The entry the engine finds for `path`; LookupError naming it when there is none."""
    found = pak.find(path)
    if found is None or found.is_dir:
        raise LookupError(f"no pak entry {path!r}")
    return found


@dataclass(frozen=True, slots=True)
class Preview:
    """What the page shows of an entry: `kind` "text" (UTF-8, `cut` when only its start is
    here) or "image" (PNG bytes; `width`, `height` as shown, `note` what it is)."""

    kind: str
    data: bytes
    media_type: str
    cut: bool = False
    width: int = 0
    height: int = 0
    note: str = ""


def preview(pak: Pakfile, path: str) -> Preview:
    """A preview of the entry at `path`: text files as text, images (PNG, JPEG, TGA...) and
    VTF textures as PNG no larger than `PREVIEW_SIDE`. LookupError for no such entry;
    BspError for an entry too large, of a kind not previewed, or that does not decode."""
    found = entry(pak, path)
    if found.size > PREVIEW_BYTES:
        raise BspError(f"{found.name}: {found.size} bytes, more than the {PREVIEW_BYTES}-byte "
                       "preview limit: download it")
    ext = os.path.splitext(found.name)[1].lower()
    data = pak.read(found)
    if ext == VTF:
        return _vtf(found.name, data)
    if ext in IMAGES:
        return _image(found.name, data)
    if ext in TEXT or _looks_like_text(data):
        cut = len(data) > TEXT_BYTES
        text = data[:TEXT_BYTES].decode("utf-8", errors="replace")
        return Preview("text", text.encode("utf-8"), "text/plain; charset=utf-8", cut)
    raise BspError(f"{found.name}: no preview for this kind of file ({ext or 'no extension'}, "
                   f"{found.size} bytes): download it")


def _looks_like_text(data: bytes) -> bool:
    head = data[:4096]
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:       # a character cut at the end is still text
        return exc.start >= len(head) - 3 and b"\0" not in head
    return b"\0" not in head


def _image(name: str, data: bytes) -> Preview:
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.width * image.height > 64 * PREVIEW_SIDE * PREVIEW_SIDE:
                raise BspError(f"{name}: {image.width} x {image.height} pixels, too large to "
                               "preview: download it")
            note = f"{image.format} {image.width} x {image.height} {image.mode}"
            shown = image.convert("RGBA")
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise BspError(f"{name}: not a picture Pillow reads ({exc})") from None
    return _png(shown, note)


def _vtf(name: str, data: bytes) -> Preview:
    """A VTF's first frame at the largest mipmap that fits `PREVIEW_SIDE` (srctools' reader);
    a cubemap's six faces side by side (right, left, back, front, up, down)."""
    from PIL import Image
    from srctools.vtf import VTF, CubeSide, VTFFlags

    try:
        texture = VTF.read(io.BytesIO(data))
        mip = 0
        while mip + 1 < texture.mipmap_count and \
                max(texture.width, texture.height) >> mip > PREVIEW_SIDE:
            mip += 1
        note = (f"VTF {texture.version[0]}.{texture.version[1]} {texture.width} x "
                f"{texture.height} {texture.format.name}, {texture.frame_count} frame(s), "
                f"{texture.mipmap_count} mipmap(s)" + (f", shown at mipmap {mip}" if mip else ""))
        if VTFFlags.ENVMAP in texture.flags:
            faces = [texture.get(side=side, mipmap=mip).to_PIL() for side in list(CubeSide)[:6]]
            shown = Image.new("RGBA", (sum(f.width for f in faces), faces[0].height))
            for n, face in enumerate(faces):
                shown.paste(face.convert("RGBA"), (n * faces[0].width, 0))
            note += ", cubemap: right, left, back, front, up, down"
        else:
            shown = texture.get(mipmap=mip).to_PIL().convert("RGBA")
    except BspError:
        raise
    except Exception as exc:  # noqa: BLE001 - srctools raises many kinds on a damaged file
        raise BspError(f"{name}: not a VTF srctools reads ({type(exc).__name__}: {exc})") \
            from None
    return _png(shown, note)


def _png(image: Image.Image, note: str) -> Preview:
    image.thumbnail((PREVIEW_SIDE, PREVIEW_SIDE))
    out = io.BytesIO()
    image.save(out, "PNG")
    return Preview("image", out.getvalue(), "image/png", width=image.width,
                   height=image.height, note=note)


# -- rename ---------------------------------------------------------------------------------
@dataclass
class References:
    """What names a pak path: materials in the pakfile (path -> their text with the old
    path's mentions replaced, and how many), entity keys ((entity index, key, occurrence
    among the entity's pairs of that key, old value, new value))."""

    materials: dict[str, tuple[bytes, int]] = field(default_factory=dict)
    keys: list[tuple[int, str, int, str, str]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"materials": [{"path": p, "mentions": n} for p, (_, n) in
                              self.materials.items()],
                "keys": [{"entity": i, "key": k, "occurrence": o, "before": b, "after": a}
                         for i, k, o, b, a in self.keys]}


def renamed_value(value: str, old: str, new: str, kind: str | None = None) -> str | None:
    """`value` rewritten to name `new` when it names `old` (both `asset_path`s) as a map's
    keys and materials do: the whole path; under materials/ and sound/, the path without that
    folder (sound characters such as `*` or `#` kept in front); a material (`kind`
    "material": .vmt) or texture ("texture": .vtf) without its extension too. None when it
    names something else, or when `new` cannot be named in its form (a material moved out of
    materials/)."""
    from ..features.pack.model import asset_path
    from ..features.pack.sounds import SOUND_CHARS

    top = old.partition("/")[0]
    lead, body = "", value.strip()
    if top == "sound":
        lead = body[:len(body) - len(body.lstrip(SOUND_CHARS))]
        body = body[len(lead):]
    path = asset_path(body)
    if not path or top not in _IMPLIED:
        return new if path == old else None
    ext = os.path.splitext(old)[1]
    prefixed = path.startswith(top + "/")
    bare = _BARE.get(kind or "") == ext and not path.endswith(ext)
    full = (path if prefixed else f"{top}/{path}") + (ext if bare else "")
    if full != old or not new.startswith(top + "/") or (bare and not new.endswith(ext)):
        return None
    out = new if prefixed else new[len(top) + 1:]
    return lead + (out[:-len(ext)] if bare else out)


def references(pak: Pakfile, entities: Sequence[Entity], old: str, new: str) -> References:
    """The materials in the pakfile and the entity keys that name `old`, and what they become
    when it is renamed `new` (`renamed_value`; a value without extension is judged by its key:
    a material's parameter type (srctools), an entity key's asset kind (`entity_assets`)).
    Material text is rewritten token by token, every other byte kept; a material that cannot
    be read is left alone."""
    from ..features.pack.entity_assets import asset_keys
    from ..features.pack.model import asset_path

    old, new = asset_path(old), asset_path(new)
    found = References()
    for item in pak.entries:
        if not item.key.endswith(".vmt") or item.key in (old, new) or item.size > PREVIEW_BYTES:
            continue
        try:
            text = pak.read(item).decode("utf-8", errors="surrogateescape")
        except BspError:
            continue
        changed, mentions = _rewrite_material(text, old, new)
        if mentions:
            found.materials[item.name] = (changed.encode("utf-8", errors="surrogateescape"),
                                          mentions)
    for index, entity in enumerate(entities):
        kinds = {key.lower(): kind for key, kind in asset_keys(entity.get("classname", ""))}
        seen: dict[str, int] = {}
        for key, value in entity.pairs():
            occurrence = seen.get(key, 0)
            seen[key] = occurrence + 1
            after = renamed_value(value, old, new, kinds.get(key.lower()))
            if after is not None and after != value:
                found.keys.append((index, key, occurrence, value, after))
    return found


def _rewrite_material(text: str, old: str, new: str) -> tuple[str, int]:
    """KeyValues text with the values naming `old` rewritten (each value judged by its key's
    parameter type), and how many were."""
    mentions = 0
    key: str | None = None

    def swap(match: re.Match[str]) -> str:
        nonlocal mentions, key
        quoted, brace, bare = match.group(1, 2, 3)
        token = quoted if quoted is not None else bare
        if brace is not None:                   # a block's name is not a key
            key = None
        if token is None:                       # a brace or a comment
            return match.group(0)
        if key is None:
            key = token
            return match.group(0)
        after = renamed_value(token, old, new, _param_kind(key))
        key = None
        if after is None:
            return match.group(0)
        mentions += 1
        return f'"{after}"' if quoted is not None else after

    return _TOKEN.sub(swap, text), mentions


def _param_kind(name: str) -> str | None:
    """A material parameter's kind ("texture", "material", ...; `materials.param_kind`),
    None without srctools (values with an extension are still recognised)."""
    from ..features.pack.materials import param_kind

    try:
        return param_kind(name)
    except ImportError:
        return None


# -- the game --------------------------------------------------------------------------------
def game(game_dir: str | None, content: Sequence[str] = (), vpk: Sequence[str] = ()
         ) -> GameFS:
    """The game's file system for deps, audit and autopack, from the folders and files typed
    on the page, each checked as the verbs check `--game`, `--content` and `--vpk`."""
    from ..features.pack.gamepaths import load

    try:
        import srctools  # noqa: F401 - the pack modules' KeyValues, VMT and MDL readers
    except ImportError:
        raise BspError("pak deps, autopack and audit need srctools 2.7 (pip install "
                       "srctools==2.7.0)") from None
    game_dir = game_dir or None
    content = [c for c in content if c.strip()]
    vpk = [v for v in vpk if v.strip()]
    if game_dir is None and not content:
        raise BspError("give the game: its folder (holding gameinfo.txt) or a folder of the "
                       "mod's materials/, models/, sound/...")
    return load(game_dir, content=content, vpk=vpk)
