"""The sky a map names, read the way each family's engines find it."""
from __future__ import annotations

import struct
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..bsp import Bsp

# Worldspawn keys naming a sky box, by engine, in the order the engines look.
_KEYS = {"source": ("skyname",), "goldsrc": ("skyname",), "quake2": ("sky",),
         "quake1": ("sky", "skyname", "qlsky")}     # Quakespasm's and FTE's sky box keys
_SHADER = struct.Struct("<64sii")                   # Quake 3 dshader_t: name, surface, contents
_SURF_SKY = {"rbsp": 0x2000}                        # Jedi Outcast/Academy; id Tech 3: 0x4


def skyname(bsp: Bsp) -> str | None:
    """The sky `bsp` names, or None when it names none (the engine then shows its default).

    Source and GoldSrc: worldspawn `skyname` (a sky box). Quake 2: worldspawn `sky` (a sky
    box). Quake 3: the first shader with the sky surface flag (its `skyparms` name the box).
    Quake 1: worldspawn `sky` (a sky box in Quakespasm and FTE), else the first texture whose
    name starts with `sky` (the scrolling sky every engine draws).
    """
    engine = bsp.family.engine
    if engine == "quake3":
        flag = _SURF_SKY.get(bsp.family.key, 0x4)
        shaders = bsp.read_lump("SHADERS")
        whole = len(shaders) - len(shaders) % _SHADER.size
        for name, surface, _ in _SHADER.iter_unpack(shaders[:whole]):
            if surface & flag:
                return _text(name)
        return None
    worldspawn = next(iter(bsp.entities().find(classname="worldspawn")), None)
    for key in _KEYS[engine]:
        value = worldspawn.get(key) if worldspawn is not None else None
        if value:
            return value
    return _sky_texture(bsp.read_lump("TEXTURES")) if engine == "quake1" else None


def _sky_texture(lump: bytes) -> str | None:
    """The first miptex named sky* in a Quake 1 texture lump (count, offsets, 16-byte names)."""
    if len(lump) < 4:
        return None
    count = min(int.from_bytes(lump[:4], "little", signed=True), (len(lump) - 4) // 4)
    for offset in struct.unpack_from(f"<{max(count, 0)}i", lump, 4):
        name = _text(lump[offset:offset + 16]) if 0 <= offset else ""
        if name.lower().startswith("sky"):
            return name
    return None


def _text(raw: bytes) -> str:
    return raw.split(b"\0", 1)[0].decode("latin-1")
