"""Strip presets: named sets of lumps (and game lump members) to empty, as data.

Sources (read in engine code): lumps 11, 27, 47 and, on v19/v20 maps, 22-25 are written by the
compile tools but loaded by no engine code; HDR lumps are used only when all of 53, 54 and 55
are present, else the engine falls back to the LDR lumps.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import BspError

if TYPE_CHECKING:
    from ..bsp import Bsp


@dataclass(frozen=True, slots=True)
class StripPreset:
    name: str
    removes: str
    cost: str
    lumps: tuple[str, ...]
    lumps_up_to_v20: tuple[str, ...] = ()      # lumps only unused in maps of version 20 or less
    game_lumps: tuple[str, ...] = ()
    # lump -> the lump that must hold data if this one is removed (HDR -> its LDR counterpart)
    fallbacks: dict[str, str] = field(default_factory=dict)


PRESETS = {preset.name: preset for preset in (
    StripPreset(
        "server-download",
        removes="compile-tool data no engine loads: FACEIDS, ORIGINALFACES, "
                "FACE_MACRO_TEXTURE_INFO, and on v19/v20 maps the unused portal and cluster lumps",
        cost="nothing in game; decompilers and vrad reuse lose that data. The map checksum "
             "changes: serve the stripped file to clients (fastdl) and the server alike",
        lumps=("FACEIDS", "ORIGINALFACES", "FACE_MACRO_TEXTURE_INFO"),
        lumps_up_to_v20=("PROPCOLLISION", "PROPHULLS", "PROPHULLVERTS", "PROPTRIS")),
    StripPreset(
        "no-hdr",
        removes="HDR lighting: LIGHTING_HDR, WORLDLIGHTS_HDR, LEAF_AMBIENT_LIGHTING_HDR, "
                "LEAF_AMBIENT_INDEX_HDR, FACES_HDR and the game lump dplh (HDR detail prop lighting)",
        cost="no HDR rendering (HDR lightmaps, tonemapping, bloom); the LDR lighting is used. "
             "HDR files in the pakfile (sp_hdr_*.vhv, *.hdr.vtf) are kept",
        lumps=("LIGHTING_HDR", "WORLDLIGHTS_HDR", "LEAF_AMBIENT_LIGHTING_HDR",
               "LEAF_AMBIENT_INDEX_HDR", "FACES_HDR"),
        game_lumps=("dplh",),
        fallbacks={"LIGHTING_HDR": "LIGHTING", "WORLDLIGHTS_HDR": "WORLDLIGHTS",
                   "LEAF_AMBIENT_LIGHTING_HDR": "LEAF_AMBIENT_LIGHTING",
                   "LEAF_AMBIENT_INDEX_HDR": "LEAF_AMBIENT_INDEX", "FACES_HDR": "FACES"}),
)}


@dataclass(frozen=True, slots=True)
class Stripped:
    """What `strip` did: the lumps emptied (their `facts.lump_row` before), the game lump
    members removed."""

    preset: StripPreset | None
    emptied: list[dict[str, Any]]
    game_lumps: tuple[str, ...]


def strip(bsp: Bsp, lumps: Sequence[str] = (), preset: str | None = None) -> Stripped:
    """Empty the named lumps and those of `preset` (and remove its game lump members) in
    `bsp`, saved by the caller (`lump strip`, the ui's Lumps view). BspError for a preset on a
    map it is not for, or one that would remove a lump whose fallback is empty."""
    from .facts import lump_row

    if not lumps and not preset:
        raise BspError("name the lumps to empty, or a --preset")
    names = list(lumps)
    chosen = PRESETS[preset] if preset else None
    if chosen is not None:
        names += preset_lumps(bsp, chosen)
    indices = sorted({bsp.lump_index(key) for key in names})
    emptied = [lump_row(bsp, bsp.lumps[i]) for i in indices if bsp.lumps[i].length]
    for row in emptied:
        bsp.replace_lump(row["index"], b"", version=0, fourcc=0)
    members = chosen.game_lumps if chosen else ()
    stripped = without_game_lumps(bsp, members) if members else None
    if stripped is not None:
        bsp.replace_lump(bsp.lump_index(str(bsp.family.game_lump)), stripped)
    return Stripped(chosen, emptied, members if stripped is not None else ())


def preset_lumps(bsp: Bsp, preset: StripPreset) -> list[str]:
    """The lumps `preset` empties in `bsp` (by name; with or without data). BspError when it
    is not for this map, or would remove a lump whose fallback is empty."""
    if bsp.family.engine != "source":
        raise BspError(f"preset {preset.name} is for Source maps", path=bsp.path)
    for removed, fallback in preset.fallbacks.items():
        if bsp.lumps[bsp.lump_index(removed)].length and \
                not bsp.lumps[bsp.lump_index(fallback)].length:
            raise BspError(f"preset {preset.name} would remove {removed} but {fallback} "
                           "is empty: the map would lose that data entirely", path=bsp.path)
    return list(preset.lumps) + list(preset.lumps_up_to_v20
                                     if (bsp.header.version or 0) <= 20 else ())


def without_game_lumps(bsp: Bsp, names: tuple[str, ...]) -> bytes | None:
    """The game lump without the members `names`, None when it holds none of them."""
    from ..lumps.gamelump import remove_members

    assert bsp.family.game_lump is not None        # a Source map's, as every preset's
    index = bsp.lump_index(bsp.family.game_lump)
    lump = bsp.lumps[index]
    if not lump.length:
        return None
    data = bsp.read_lump(index)
    stripped = remove_members(data, lump.offset, set(names), bsp.header.endian)
    return None if stripped is data else stripped
