"""Embedded textures of Quake 1 (BSP 29, BSP2) and GoldSrc (BSP 30) maps and WAD files:
extract them as a WAD, drop their pixels (the map then loads them from WADs), embed them from
WADs, export them as PNG.

A WAD entry holds the map's entry bytes as they are (header, mips, GoldSrc palette and any
bytes up to the next entry), so extract -> unembed -> embed gives the TEXTURES lump back
byte for byte.
"""
from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..bsp import Bsp
from ..errors import BspError
from ..format.names import fold
from ..format.wad import MIPTEX_TYPE, Wad, WadEntry
from ..format.winnames import windows_component, windows_names
from ..lumps.miptex import HEADER_SIZE, Miptex, MiptexLump

PALETTE_SIZE = 768


def textures(bsp: Bsp) -> MiptexLump:
    """The map's TEXTURES lump as a model (BspError for families without one)."""
    from .textures import structure

    model = structure(bsp, "TEXTURES")
    if model is None or not issubclass(model, MiptexLump):
        raise BspError(f"{bsp.family.key} maps have no miptex textures (Quake 1 and GoldSrc "
                       f"only)", path=bsp.path)
    parsed = model.parse(bsp.read_lump("TEXTURES"))
    if parsed.raw is not None:
        raise BspError("the texture table does not fit the lump", path=bsp.path,
                       lump="TEXTURES")
    return parsed


def _wanted(only: Iterable[str] | None) -> set[str] | None:
    return None if only is None else {fold(name) for name in only}


def _picked(entry: Miptex, wanted: set[str] | None) -> bool:
    return wanted is None or fold(entry.text) in wanted


def extract_wad(bsp: Bsp) -> bytes:
    """The map's embedded textures as a WAD3 (GoldSrc) or WAD2 (Quake 1, BSP2) file."""
    model = textures(bsp)
    magic = b"WAD3" if model.GOLDSRC else b"WAD2"
    entries = [WadEntry(e.text.encode("latin-1"), MIPTEX_TYPE[magic], e.to_bytes())
               for e in model.entries if not e.external]
    return Wad(magic, entries).to_bytes()


def unembed(bsp: Bsp, only: Iterable[str] | None = None) -> int:
    """Drop the pixels of the embedded textures (those named in `only`, any ASCII case): each keeps
    its name and size with mip offsets 0. Returns the bytes the lump lost."""
    model = textures(bsp)
    wanted = _wanted(only)
    before = bsp.read_lump("TEXTURES")
    model.entries = [
        Miptex(e.offset, e.name, e.width, e.height, [0, 0, 0, 0], False)
        if not e.external and _picked(e, wanted) else e for e in model.entries]
    after = model.to_bytes()
    if after != before:
        bsp.replace_lump("TEXTURES", after)
    return len(before) - len(after)


def embed(bsp: Bsp, wads: Sequence[Wad], only: Iterable[str] | None = None) -> list[str]:
    """Embed the textures the map takes from WADs (those named in `only`, any ASCII case) from
    `wads` (the first holding a name wins). A texture whose size differs from the map's entry
    is refused (BspError). Returns the names embedded, in lump order."""
    model = textures(bsp)
    magic = b"WAD3" if model.GOLDSRC else b"WAD2"
    for wad in wads:
        if wad.magic != magic:
            raise BspError(f"{bsp.family.key} maps take {magic.decode()} textures, not "
                           f"{wad.magic.decode()}", path=bsp.path)
    found: dict[str, WadEntry] = {}
    for wad in wads:
        for name, entry in wad.textures().items():
            found.setdefault(name, entry)
    wanted = _wanted(only)
    done, entries = [], []
    for e in model.entries:
        source = found.get(fold(e.text)) if e.external and _picked(e, wanted) else None
        if source is None:
            entries.append(e)
            continue
        if len(source.data) < HEADER_SIZE:
            raise BspError(f"WAD texture {source.text!r} is shorter than a miptex header")
        new = Miptex.parse(e.offset, e.name + source.data[len(e.name):], model.GOLDSRC)
        if (new.width, new.height) != (e.width, e.height):
            raise BspError(f"texture {e.text!r}: the WAD's is {new.width}x{new.height}, the "
                           f"map's {e.width}x{e.height}", path=bsp.path)
        entries.append(new)
        done.append(e.text)
    if done:
        model.entries = entries
        bsp.replace_lump("TEXTURES", model.to_bytes())
    return done


def read_palette(spec: str) -> bytes:
    """The 256 RGB triples `--palette SPEC` names: a file of exactly 768 bytes (a game's
    gfx/palette.lmp; `-`: standard input) or ARCHIVE:ENTRY, an entry of a Quake PACK or WAD
    file (pak0.pak:gfx/palette.lmp, gfx.wad:palette). BspError for anything else: a file of
    another size is not a palette, and its first 768 bytes would draw garbage."""
    from ..container.outputs import read_input

    archive, sep, entry = spec.rpartition(":")
    if sep and archive and entry and not os.path.exists(spec) and os.path.isfile(archive):
        data = _archive_entry(read_input(archive), archive, entry)
    else:
        data = read_input(spec)
    if len(data) != PALETTE_SIZE:
        raise BspError(f"a palette is {PALETTE_SIZE} bytes (256 RGB colours, as a game's "
                       f"gfx/palette.lmp), not {len(data)}; an entry of a PACK or WAD file is "
                       f"named ARCHIVE:ENTRY (pak0.pak:gfx/palette.lmp)", path=spec)
    return bytes(data)


def _archive_entry(data: bytes, archive: str, name: str) -> bytes:
    """The bytes of entry `name` of a Quake PACK (by path) or WAD file (by entry name)."""
    from ..format.quakepak import MAGIC, pack_entries

    if data[:4] == MAGIC:
        entries = pack_entries(data, archive)
        found = entries.get(name.replace("\\", "/").lower())
        if found is None:
            raise BspError(f"no entry {name} among the PACK file's {len(entries)} (Quake's "
                           f"palette is gfx/palette.lmp)", path=archive)
        offset, size = found
        return data[offset:offset + size]
    if data[:4] in (b"WAD2", b"WAD3"):
        wad = Wad.parse(data, archive)
        for item in wad.entries:
            if fold(item.text) == fold(name):
                return item.data
        raise BspError(f"no entry {name} among the WAD file's {len(wad.entries)}",
                       path=archive)
    raise BspError(f"neither a Quake PACK nor a WAD file, so no entry {name} can be read from "
                   f"it", path=archive)


_UNSAFE = re.compile(r'[\\/:?"<>|\x00-\x1f]')


def png_name(name: str) -> str:
    """A file name for texture `name`: `*` (Quake liquids) as `#`, as Quake tools write it,
    other characters a file system refuses as `_`."""
    return _UNSAFE.sub("_", name.replace("*", "#")) or "_"


def export_png(bsp: Bsp, folder: str | os.PathLike[str], *,
               palette: bytes | None = None) -> list[Path]:
    """Write each embedded texture's mip 0 as NAME.png (8-bit, palette applied) into `folder`
    through the output guard (on Windows or with BSPEDIT_WINDOWS_NAMES=1, a device name as
    NAME_.png). GoldSrc textures carry their palette; Quake 1 maps do not, so
    `palette` (256 RGB triples, see `read_palette`) is needed for them. Returns the files."""
    # Pillow: the well-kept standard imaging library of Python; imported only here.
    from PIL import Image

    from ..container.outputs import staged_folder

    model = textures(bsp)
    if not model.GOLDSRC and palette is None:
        raise BspError("Quake 1 maps do not hold their palette: give the game's "
                       "gfx/palette.lmp (--palette FILE)", path=bsp.path)
    images, taken, windows = [], set(), windows_names()
    for e in model.entries:
        pixels = e.pixels(0)
        colours = e.colours if model.GOLDSRC else palette
        if e.external or pixels is None or colours is None or not e.width or not e.height:
            continue
        name = png_name(e.text)
        if windows:                 # a device name (con.png) gets _ after it: con_.png
            name = windows_component(f"{name}.png").path[:-len(".png")]
        while name.lower() in taken:
            name += "~"
        taken.add(name.lower())
        image = Image.frombytes("P", (e.width, e.height), pixels)
        image.putpalette(colours[:PALETTE_SIZE].ljust(PALETTE_SIZE, b"\0"))
        images.append((f"{name}.png", image))
    with staged_folder(folder, inputs=[bsp.path]) as staging:
        for file_name, image in images:
            image.save(staging / file_name, format="PNG")
    return [Path(folder) / file_name for file_name, _ in images]
