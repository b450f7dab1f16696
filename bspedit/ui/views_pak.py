"""The Pakfile view's data: the entries (read from the zip's directory only), a preview of one
(text, an image, a VTF texture as PNG; size-capped), and the game's file system for deps,
audit and autopack from the paths typed on the page (a rename is `features.pack.rename`).

Pak paths are zip entry names (`Pakfile.find`), never file-system paths: nothing here reads or
writes a file."""
from __future__ import annotations

import io
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import BspError

if TYPE_CHECKING:
    from PIL import Image

    from ..features.pack.gamefs import GameFS
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
        return Preview("text", text.encode("utf-8"), cut)
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
    return Preview("image", out.getvalue(), width=image.width,
                   height=image.height, note=note)


# -- the game --------------------------------------------------------------------------------
def game(game_dir: str | None, content: Sequence[str] = (), vpk: Sequence[str] = ()
         ) -> GameFS:
    """The game's file system for deps, audit and autopack, from the folders and files typed
    on the page, each checked as the verbs check `--game`, `--content` and `--vpk`."""
    from ..features.pack.gamepaths import load, need_srctools

    need_srctools("pak deps, autopack and audit")
    if game_dir is None and not content:
        raise BspError("give the game: its folder (holding gameinfo.txt) or a folder of the "
                       "mod's materials/, models/, sound/...")
    return load(game_dir, content=content, vpk=vpk)
