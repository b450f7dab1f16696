"""New maps from lump bytes, written by the regular writer; and the tiny demo map we ship.

Usage: python -m bspedit.features.build OUT.bsp   (writes the tiny Source map of the README)
"""
from __future__ import annotations

import os
import struct
import sys
from collections.abc import Mapping

from ..bsp import Bsp
from ..format.families import BY_KEY
from ..format.header import Header, Lump


def create(path: str | os.PathLike, family_key: str, lumps: Mapping[int | str, bytes], *,
           version: int | None = None, revision: int = 0,
           versions: Mapping[int, int] | None = None) -> None:
    """Write a new map of `family_key` holding `lumps`, placed in index order, 4-byte aligned.

    A game lump's member offsets are taken as if the lump started right after the header.
    """
    family = BY_KEY[family_key]
    if version is None and family.has_version:
        version = min(family.versions) if family.key != "source" else 20
    empty = [Lump(i, name, family.header_size, 0) for i, name in enumerate(family.lump_names)]
    header = Header(family, family.ident, version, empty,
                    revision if family.header == "vbsp" else None)
    path = os.fspath(path)
    skeleton = f"{path}.skeleton"
    with open(skeleton, "wb") as out:
        out.write(header.to_bytes())
    try:
        with Bsp.open(skeleton) as bsp:
            for key, data in lumps.items():
                index = bsp.lump_index(key)
                bsp.replace_lump(index, data, version=(versions or {}).get(index))
            bsp.save(path, "compact")
    finally:
        os.unlink(skeleton)


def tiny_source_map(path: str | os.PathLike) -> None:
    """A 1.5 KB Source map: entities, one plane, an empty static prop game lump, empty pakfile."""
    entities = (b'{\n"world_maxs" "64 64 64"\n"world_mins" "-64 -64 -64"\n"skyname" "sky_day01_01"\n'
                b'"classname" "worldspawn"\n}\n{\n"origin" "0 0 8"\n"classname" "info_player_start"\n}\n'
                b'{\n"origin" "0 0 48"\n"_light" "255 255 255 200"\n"classname" "light"\n}\n\x00')
    plane = struct.pack("<4fi", 0.0, 0.0, 1.0, 0.0, 2)
    static_props = struct.pack("<iii", 0, 0, 0)     # no models, no leaves, no props
    header_size = BY_KEY["source"].header_size
    game_lump = struct.pack("<i4sHHii", 1, b"prps", 0, 10, header_size + 20, len(static_props))
    pakfile = b"PK\x05\x06" + bytes(16) + struct.pack("<H", 32) + b"XZP1 0".ljust(32, b"\0")
    create(path, "source", {"ENTITIES": entities, "PLANES": plane,
                            "GAME_LUMP": game_lump + static_props, "PAKFILE": pakfile},
           version=20, revision=1)


if __name__ == "__main__":
    tiny_source_map(sys.argv[1])
