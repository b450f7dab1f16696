"""Strip presets: named sets of lumps (and game lump members) to empty, as data.

Sources (read in engine code): lumps 11, 27, 47 and, on v19/v20 maps, 22-25 are written by the
compile tools but loaded by no engine code; HDR lumps are used only when all of 53, 54 and 55
are present, else the engine falls back to the LDR lumps.
"""
from __future__ import annotations

from dataclasses import dataclass, field


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
