"""What the engines that load each format refuse or break on, as data: the limits `merge`
checks a merged map against (the compilers' MAX_MAP_* that `stats` shows are
`bspedit.format.enginelimits`; most are array sizes of the tools, not of the engines).

Each limit names the engines (or tools) that have it. `every`: each engine that loads the format
has it, so a map past it loads nowhere (merge refuses); otherwise some engines load it and
others refuse or break (merge warns, naming them). A limit is counted as in `enginelimits`:
records of its lump unless its unit says bytes, entities or textures.

Sources, named per value below:
  WinQuake / GLQuake  id's Quake source: quakedef.h (MAX_EDICTS 600, MAX_MODELS 256 "sent over
                      the net as bytes"), model.c / gl_model.c (children, first face and first
                      marksurface read as signed shorts; Mod_DecompressVis's buffer of
                      MAX_MAP_LEAFS / 8 bytes, MAX_MAP_LEAFS 8192)
  QuakeSpasm          Quake/gl_model.c: BSP 29 leafs past 32767 are a Host_Error ("exceeds limit
                      of 32767"); faces, nodes, clipnodes and marksurfaces past 32767 and visleafs
                      past 8192 only a developer warning ("exceeds standard limit"); BSP2 and 2PSB
                      arrays are sized from the lumps, without caps (ironwail and FTE alike)
  mvdsv               src/cmodel.c: BSP 29 node and clipnode children read as signed shorts;
                      MAX_MAP_LEAFS 32767 arrays; BSP2 counts from the lumps
  id's compilers      Quake bspfile.h and the Half-Life SDK's common/bspfile.h (qbsp, vis, light
                      and their GoldSrc successors keep fixed arrays of these sizes: the engines
                      load past them, the classic tools do not read such a map back); ericw-tools,
                      the BSP2 compiler, sizes its arrays from the map
  GoldSrc             Valve's engine: 900 edicts by default (1200 since the 25th anniversary
                      update, "edicts" in liblist.gam up to 2048; Valve Developer Wiki, Entity
                      limit); the engine's own loader sizes its arrays from the lumps (Xash3D's
                      bspfile.h: its MAX_MAP_* are "not used by modelloader")
  Quake 2             id's qcommon/cmodel.c: fixed arrays of qfiles.h's MAX_MAP_* ("Map has too
                      many ..."), less the room CM_InitBoxHull takes after the map's own records
                      (6 nodes, 1 brush, 1 leaf brush, 6 brush sides, 12 planes, 1 leaf); area
                      portals are compared with MAX_MAP_AREAS (256), not MAX_MAP_AREAPORTALS
"""
from __future__ import annotations

from typing import NamedTuple

from .enginelimits import GOLDSRC, QUAKE1, Limit


class EngineLimit(NamedTuple):
    """One limit of the engines (or tools) that load a format."""

    lump: str           # the lump's name (Family.lump_names)
    limit: int
    unit: str           # "records" | "bytes" | "entities" | "textures"
    name: str           # the engine's or header's name for it
    engines: str        # who refuses or breaks past it
    every: bool         # every engine that loads the format has it (merge refuses)


# the engines that load each format (by `bspedit.features.stats.engine_of` key)
LOADERS = {"quake1": "WinQuake, GLQuake, QuakeSpasm, ironwail, FTE, mvdsv",
           "bsp2": "QuakeSpasm, ironwail, FTE, mvdsv",
           "goldsrc": "GoldSrc (Half-Life), Xash3D, mvdsv",
           "quake2": "Quake 2 (id's qcommon/cmodel.c)"}

_ID = "WinQuake, GLQuake"
_SIGNED = "WinQuake, GLQuake, mvdsv (signed 16-bit children; QuakeSpasm reads them unsigned)"


def _tools(limits: tuple[Limit, ...], tools: str,
           engines: tuple[EngineLimit, ...]) -> tuple[EngineLimit, ...]:
    """The compilers' MAX_MAP_* not already among the engines' limits, as warnings."""
    known = {(limit.lump, limit.unit, limit.limit) for limit in engines}
    return tuple(EngineLimit(limit.lump, limit.limit, limit.unit, limit.constant, tools, False)
                 for limit in limits if (limit.lump, limit.unit, limit.limit) not in known)


_QUAKE1_ENGINES = (
    EngineLimit("LEAFS", 32767, "records", "Mod_LoadLeafs", "QuakeSpasm, ironwail, mvdsv "
                "(MAX_MAP_LEAFS), WinQuake, GLQuake (fewer)", True),
    EngineLimit("LEAFS", 8192, "records", "MAX_MAP_LEAFS (Mod_DecompressVis)", _ID, False),
    EngineLimit("NODES", 32767, "records", "MAX_MAP_NODES", _SIGNED, False),
    EngineLimit("CLIPNODES", 32767, "records", "MAX_MAP_CLIPNODES", _SIGNED, False),
    EngineLimit("FACES", 32767, "records", "signed face numbers", _ID, False),
    EngineLimit("MARKSURFACES", 32767, "records", "signed marksurface numbers", _ID, False),
    EngineLimit("MODELS", 256, "records", "MAX_MODELS", f"{_ID}, QuakeWorld servers (model "
                "numbers are bytes on the wire; QuakeSpasm: 2048)", False),
    EngineLimit("ENTITIES", 600, "entities", "MAX_EDICTS", _ID, False),
)
_BSP2 = (
    EngineLimit("MODELS", 2048, "records", "MAX_MODELS", "QuakeSpasm, ironwail", False),
)
_GOLDSRC_ENGINES = (
    EngineLimit("ENTITIES", 900, "entities", "edicts", "GoldSrc (Half-Life) before the 25th "
                "anniversary update, with no \"edicts\" in liblist.gam", False),
)
_Q2 = "Quake 2 (id's qcommon/cmodel.c)"
_QUAKE2 = (
    EngineLimit("ENTITIES", 0x40000, "bytes", "MAX_MAP_ENTSTRING", _Q2, True),
    EngineLimit("PLANES", 65536 - 12, "records", "MAX_MAP_PLANES - 12", _Q2, True),
    EngineLimit("VISIBILITY", 0x100000, "bytes", "MAX_MAP_VISIBILITY", _Q2, True),
    EngineLimit("NODES", 65536 - 6, "records", "MAX_MAP_NODES - 6", _Q2, True),
    EngineLimit("TEXINFO", 8192, "records", "MAX_MAP_TEXINFO", _Q2, True),
    EngineLimit("LEAFS", 65536 - 1, "records", "MAX_MAP_LEAFS - 1", _Q2, True),
    EngineLimit("LEAFBRUSHES", 65536 - 1, "records", "MAX_MAP_LEAFBRUSHES - 1", _Q2, True),
    EngineLimit("MODELS", 1024, "records", "MAX_MAP_MODELS", _Q2, True),
    EngineLimit("BRUSHES", 8192 - 1, "records", "MAX_MAP_BRUSHES - 1", _Q2, True),
    EngineLimit("BRUSHSIDES", 65536 - 6, "records", "MAX_MAP_BRUSHSIDES - 6", _Q2, True),
    EngineLimit("AREAS", 256, "records", "MAX_MAP_AREAS", _Q2, True),
    EngineLimit("AREAPORTALS", 256, "records", "MAX_MAP_AREAS", _Q2, True),
)

LIMITS: dict[str, tuple[EngineLimit, ...]] = {
    "quake1": _QUAKE1_ENGINES + _tools(QUAKE1, "id's qbsp, vis and light (Quake bspfile.h)",
                                       _QUAKE1_ENGINES),
    "bsp2": _BSP2,
    "goldsrc": _GOLDSRC_ENGINES + _tools(GOLDSRC, "the Half-Life SDK's compilers (bspfile.h)",
                                         _GOLDSRC_ENGINES),
    "quake2": _QUAKE2,
}
