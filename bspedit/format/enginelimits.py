"""Each engine's map limits (MAX_MAP_*), as data: what `bspedit stats` compares a map's counts
with (like bspguy's `info -limit` and ripent's `-chart`).

A limit is in records of its lump (the lump's length divided by its record size, see
`Family.record_size`) unless its unit says otherwise: "bytes" (the lump's length; for an LZMA
lump the uncompressed size), "entities" (entities in the entity lump) or "textures" (the miptex
count at the start of a Quake 1 / GoldSrc texture lump).

Sources, named per value below as `header: CONSTANT`:
  quake1   id Software's Quake bspfile.h (BSP 29)
  bsp2     the same, less the caps that came from 16-bit indices (BSP2 and 2PSB widen them)
  goldsrc  the Half-Life SDK's common/bspfile.h (BSP 30, Blue Shift too)
  quake2   id Software's Quake 2 qcommon/qfiles.h (IBSP 38)
  quake3   id Software's Quake 3 code/qcommon/qfiles.h (IBSP 46/47; used for RBSP and FBSP as
           well: Raven's and qfusion's own headers are not consulted)
  source   source-sdk-2013 public/bspfile.h (VBSP 17-24)
  strata   the Strata wiki's "BSP Version 25" page, its Limit Summary
           (https://wiki.stratasource.org/modding/formats/bsp-v25; VBSP 25). Limits it does not
           list (MAX_MAP_TEXINFO, MAX_MAP_WORLDLIGHTS) are left out rather than taken from
           Valve's headers; MAX_MAP_PRIMINDICES is left out too, as v25 PRIMINDICES has no
           established record size to count with. bsp_tool's Strata branch (third-party)
           gives BRUSHSIDES 655360; the wiki's MAX_MAP_BRUSHES * 10 = 1310720 is used
"""
from __future__ import annotations

from typing import NamedTuple


class Limit(NamedTuple):
    """One engine limit on one lump."""

    lump: str           # the lump's name (Family.lump_names)
    limit: int
    unit: str           # "records" | "bytes" | "entities" | "textures"
    constant: str       # the header's name for it


HEADERS = {"quake1": "Quake bspfile.h", "bsp2": "Quake bspfile.h (BSP2: 16-bit caps lifted)",
           "goldsrc": "Half-Life SDK bspfile.h", "quake2": "Quake 2 qfiles.h",
           "quake3": "Quake 3 qfiles.h", "source": "source-sdk-2013 public/bspfile.h",
           "strata": "Strata wiki, BSP Version 25 (Limit Summary)"}

# Quake bspfile.h (BSP 29)
QUAKE1 = (
    Limit("ENTITIES", 1024, "entities", "MAX_MAP_ENTITIES"),        # bspfile.h: MAX_MAP_ENTITIES
    Limit("ENTITIES", 65536, "bytes", "MAX_MAP_ENTSTRING"),         # bspfile.h: MAX_MAP_ENTSTRING
    Limit("PLANES", 32767, "records", "MAX_MAP_PLANES"),            # bspfile.h: MAX_MAP_PLANES
    Limit("TEXTURES", 512, "textures", "MAX_MAP_TEXTURES"),         # bspfile.h: MAX_MAP_TEXTURES
    Limit("TEXTURES", 0x200000, "bytes", "MAX_MAP_MIPTEX"),         # bspfile.h: MAX_MAP_MIPTEX
    Limit("VERTEXES", 65535, "records", "MAX_MAP_VERTS"),           # bspfile.h: MAX_MAP_VERTS
    Limit("VISIBILITY", 0x100000, "bytes", "MAX_MAP_VISIBILITY"),   # bspfile.h: MAX_MAP_VISIBILITY
    Limit("NODES", 32767, "records", "MAX_MAP_NODES"),              # bspfile.h: MAX_MAP_NODES
    Limit("TEXINFO", 4096, "records", "MAX_MAP_TEXINFO"),           # bspfile.h: MAX_MAP_TEXINFO
    Limit("FACES", 65535, "records", "MAX_MAP_FACES"),              # bspfile.h: MAX_MAP_FACES
    Limit("LIGHTING", 0x100000, "bytes", "MAX_MAP_LIGHTING"),       # bspfile.h: MAX_MAP_LIGHTING
    Limit("CLIPNODES", 32767, "records", "MAX_MAP_CLIPNODES"),      # bspfile.h: MAX_MAP_CLIPNODES
    Limit("LEAFS", 8192, "records", "MAX_MAP_LEAFS"),               # bspfile.h: MAX_MAP_LEAFS
    Limit("MARKSURFACES", 65535, "records", "MAX_MAP_MARKSURFACES"),  # bspfile.h: MAX_MAP_MARKSURFACES
    Limit("EDGES", 256000, "records", "MAX_MAP_EDGES"),             # bspfile.h: MAX_MAP_EDGES
    Limit("SURFEDGES", 512000, "records", "MAX_MAP_SURFEDGES"),     # bspfile.h: MAX_MAP_SURFEDGES
    Limit("MODELS", 256, "records", "MAX_MAP_MODELS"),              # bspfile.h: MAX_MAP_MODELS
)
# BSP2 / 2PSB: the Quake values, without the caps that 16-bit fields imposed (plane, node,
# clipnode, leaf, vertex, face and marksurface numbers are 32-bit in BSP2). The rest are id's
# array sizes, kept as the vanilla values (BSP2 engines mostly allocate them dynamically).
_WIDENED = ("PLANES", "NODES", "CLIPNODES", "LEAFS", "VERTEXES", "FACES", "MARKSURFACES")
BSP2 = tuple(limit for limit in QUAKE1 if limit.lump not in _WIDENED)

# Half-Life SDK common/bspfile.h (BSP 30): the Quake layout with larger arrays
GOLDSRC = (
    Limit("ENTITIES", 1024, "entities", "MAX_MAP_ENTITIES"),        # bspfile.h: MAX_MAP_ENTITIES
    Limit("ENTITIES", 128 * 1024, "bytes", "MAX_MAP_ENTSTRING"),    # bspfile.h: MAX_MAP_ENTSTRING
    Limit("PLANES", 32767, "records", "MAX_MAP_PLANES"),            # bspfile.h: MAX_MAP_PLANES
    Limit("TEXTURES", 512, "textures", "MAX_MAP_TEXTURES"),         # bspfile.h: MAX_MAP_TEXTURES
    Limit("TEXTURES", 0x200000, "bytes", "MAX_MAP_MIPTEX"),         # bspfile.h: MAX_MAP_MIPTEX
    Limit("VERTEXES", 65535, "records", "MAX_MAP_VERTS"),           # bspfile.h: MAX_MAP_VERTS
    Limit("VISIBILITY", 0x200000, "bytes", "MAX_MAP_VISIBILITY"),   # bspfile.h: MAX_MAP_VISIBILITY
    Limit("NODES", 32767, "records", "MAX_MAP_NODES"),              # bspfile.h: MAX_MAP_NODES
    Limit("TEXINFO", 8192, "records", "MAX_MAP_TEXINFO"),           # bspfile.h: MAX_MAP_TEXINFO
    Limit("FACES", 65535, "records", "MAX_MAP_FACES"),              # bspfile.h: MAX_MAP_FACES
    Limit("LIGHTING", 0x200000, "bytes", "MAX_MAP_LIGHTING"),       # bspfile.h: MAX_MAP_LIGHTING
    Limit("CLIPNODES", 32767, "records", "MAX_MAP_CLIPNODES"),      # bspfile.h: MAX_MAP_CLIPNODES
    Limit("LEAFS", 8192, "records", "MAX_MAP_LEAFS"),               # bspfile.h: MAX_MAP_LEAFS
    Limit("MARKSURFACES", 65535, "records", "MAX_MAP_MARKSURFACES"),  # bspfile.h: MAX_MAP_MARKSURFACES
    Limit("EDGES", 256000, "records", "MAX_MAP_EDGES"),             # bspfile.h: MAX_MAP_EDGES
    Limit("SURFEDGES", 512000, "records", "MAX_MAP_SURFEDGES"),     # bspfile.h: MAX_MAP_SURFEDGES
    Limit("MODELS", 400, "records", "MAX_MAP_MODELS"),              # bspfile.h: MAX_MAP_MODELS
)

# Quake 2 qcommon/qfiles.h (IBSP 38)
QUAKE2 = (
    Limit("ENTITIES", 2048, "entities", "MAX_MAP_ENTITIES"),        # qfiles.h: MAX_MAP_ENTITIES
    Limit("ENTITIES", 0x40000, "bytes", "MAX_MAP_ENTSTRING"),       # qfiles.h: MAX_MAP_ENTSTRING
    Limit("PLANES", 65536, "records", "MAX_MAP_PLANES"),            # qfiles.h: MAX_MAP_PLANES
    Limit("VERTEXES", 65536, "records", "MAX_MAP_VERTS"),           # qfiles.h: MAX_MAP_VERTS
    Limit("VISIBILITY", 0x100000, "bytes", "MAX_MAP_VISIBILITY"),   # qfiles.h: MAX_MAP_VISIBILITY
    Limit("NODES", 65536, "records", "MAX_MAP_NODES"),              # qfiles.h: MAX_MAP_NODES
    Limit("TEXINFO", 8192, "records", "MAX_MAP_TEXINFO"),           # qfiles.h: MAX_MAP_TEXINFO
    Limit("FACES", 65536, "records", "MAX_MAP_FACES"),              # qfiles.h: MAX_MAP_FACES
    Limit("LIGHTING", 0x200000, "bytes", "MAX_MAP_LIGHTING"),       # qfiles.h: MAX_MAP_LIGHTING
    Limit("LEAFS", 65536, "records", "MAX_MAP_LEAFS"),              # qfiles.h: MAX_MAP_LEAFS
    Limit("LEAFFACES", 65536, "records", "MAX_MAP_LEAFFACES"),      # qfiles.h: MAX_MAP_LEAFFACES
    Limit("LEAFBRUSHES", 65536, "records", "MAX_MAP_LEAFBRUSHES"),  # qfiles.h: MAX_MAP_LEAFBRUSHES
    Limit("EDGES", 128000, "records", "MAX_MAP_EDGES"),             # qfiles.h: MAX_MAP_EDGES
    Limit("SURFEDGES", 256000, "records", "MAX_MAP_SURFEDGES"),     # qfiles.h: MAX_MAP_SURFEDGES
    Limit("MODELS", 1024, "records", "MAX_MAP_MODELS"),             # qfiles.h: MAX_MAP_MODELS
    Limit("BRUSHES", 8192, "records", "MAX_MAP_BRUSHES"),           # qfiles.h: MAX_MAP_BRUSHES
    Limit("BRUSHSIDES", 65536, "records", "MAX_MAP_BRUSHSIDES"),    # qfiles.h: MAX_MAP_BRUSHSIDES
    Limit("AREAS", 256, "records", "MAX_MAP_AREAS"),                # qfiles.h: MAX_MAP_AREAS
    Limit("AREAPORTALS", 1024, "records", "MAX_MAP_AREAPORTALS"),   # qfiles.h: MAX_MAP_AREAPORTALS
)

# Quake 3 code/qcommon/qfiles.h (IBSP 46; also applied to RTCW/ET 47, RBSP and FBSP)
QUAKE3 = (
    Limit("ENTITIES", 0x800, "entities", "MAX_MAP_ENTITIES"),       # qfiles.h: MAX_MAP_ENTITIES
    Limit("ENTITIES", 0x40000, "bytes", "MAX_MAP_ENTSTRING"),       # qfiles.h: MAX_MAP_ENTSTRING
    Limit("SHADERS", 0x400, "records", "MAX_MAP_SHADERS"),          # qfiles.h: MAX_MAP_SHADERS
    Limit("PLANES", 0x20000, "records", "MAX_MAP_PLANES"),          # qfiles.h: MAX_MAP_PLANES
    Limit("NODES", 0x20000, "records", "MAX_MAP_NODES"),            # qfiles.h: MAX_MAP_NODES
    Limit("LEAFS", 0x20000, "records", "MAX_MAP_LEAFS"),            # qfiles.h: MAX_MAP_LEAFS
    Limit("LEAFSURFACES", 0x20000, "records", "MAX_MAP_LEAFFACES"),  # qfiles.h: MAX_MAP_LEAFFACES
    Limit("LEAFBRUSHES", 0x40000, "records", "MAX_MAP_LEAFBRUSHES"),  # qfiles.h: MAX_MAP_LEAFBRUSHES
    Limit("MODELS", 0x400, "records", "MAX_MAP_MODELS"),            # qfiles.h: MAX_MAP_MODELS
    Limit("BRUSHES", 0x8000, "records", "MAX_MAP_BRUSHES"),         # qfiles.h: MAX_MAP_BRUSHES
    Limit("BRUSHSIDES", 0x20000, "records", "MAX_MAP_BRUSHSIDES"),  # qfiles.h: MAX_MAP_BRUSHSIDES
    Limit("DRAWVERTS", 0x80000, "records", "MAX_MAP_DRAW_VERTS"),   # qfiles.h: MAX_MAP_DRAW_VERTS
    Limit("DRAWINDEXES", 0x80000, "records", "MAX_MAP_DRAW_INDEXES"),  # qfiles.h: MAX_MAP_DRAW_INDEXES
    Limit("FOGS", 0x100, "records", "MAX_MAP_FOGS"),                # qfiles.h: MAX_MAP_FOGS
    Limit("SURFACES", 0x20000, "records", "MAX_MAP_DRAW_SURFS"),    # qfiles.h: MAX_MAP_DRAW_SURFS
    Limit("LIGHTMAPS", 0x800000, "bytes", "MAX_MAP_LIGHTING"),      # qfiles.h: MAX_MAP_LIGHTING
    Limit("LIGHTGRID", 0x800000, "bytes", "MAX_MAP_LIGHTGRID"),     # qfiles.h: MAX_MAP_LIGHTGRID
    Limit("VISIBILITY", 0x200000, "bytes", "MAX_MAP_VISIBILITY"),   # qfiles.h: MAX_MAP_VISIBILITY
)

# source-sdk-2013 public/bspfile.h (the "Common limits", not BSP_USE_LESS_MEMORY). It has no
# MAX_MAP_ENTSTRING, so Source has no entity text limit here.
_DISP_VERTS = 2048 * ((1 << 4) + 1) ** 2    # MAX_MAP_DISPINFO * NUM_DISP_POWER_VERTS(MAX_MAP_DISP_POWER 4)
SOURCE = (
    Limit("ENTITIES", 8192, "entities", "MAX_MAP_ENTITIES"),        # bspfile.h: MAX_MAP_ENTITIES
    Limit("PLANES", 65536, "records", "MAX_MAP_PLANES"),            # bspfile.h: MAX_MAP_PLANES
    Limit("TEXDATA", 2048, "records", "MAX_MAP_TEXDATA"),           # bspfile.h: MAX_MAP_TEXDATA
    Limit("VERTEXES", 65536, "records", "MAX_MAP_VERTS"),           # bspfile.h: MAX_MAP_VERTS
    Limit("VISIBILITY", 0x1000000, "bytes", "MAX_MAP_VISIBILITY"),  # bspfile.h: MAX_MAP_VISIBILITY
    Limit("NODES", 65536, "records", "MAX_MAP_NODES"),              # bspfile.h: MAX_MAP_NODES
    Limit("TEXINFO", 12288, "records", "MAX_MAP_TEXINFO"),          # bspfile.h: MAX_MAP_TEXINFO
    Limit("FACES", 65536, "records", "MAX_MAP_FACES"),              # bspfile.h: MAX_MAP_FACES
    Limit("LIGHTING", 0x1000000, "bytes", "MAX_MAP_LIGHTING"),      # bspfile.h: MAX_MAP_LIGHTING
    Limit("LEAFS", 65536, "records", "MAX_MAP_LEAFS"),              # bspfile.h: MAX_MAP_LEAFS
    Limit("EDGES", 256000, "records", "MAX_MAP_EDGES"),             # bspfile.h: MAX_MAP_EDGES
    Limit("SURFEDGES", 512000, "records", "MAX_MAP_SURFEDGES"),     # bspfile.h: MAX_MAP_SURFEDGES
    Limit("MODELS", 1024, "records", "MAX_MAP_MODELS"),             # bspfile.h: MAX_MAP_MODELS
    Limit("WORLDLIGHTS", 8192, "records", "MAX_MAP_WORLDLIGHTS"),   # bspfile.h: MAX_MAP_WORLDLIGHTS
    Limit("LEAFFACES", 65536, "records", "MAX_MAP_LEAFFACES"),      # bspfile.h: MAX_MAP_LEAFFACES
    Limit("LEAFBRUSHES", 65536, "records", "MAX_MAP_LEAFBRUSHES"),  # bspfile.h: MAX_MAP_LEAFBRUSHES
    Limit("BRUSHES", 8192, "records", "MAX_MAP_BRUSHES"),           # bspfile.h: MAX_MAP_BRUSHES
    Limit("BRUSHSIDES", 65536, "records", "MAX_MAP_BRUSHSIDES"),    # bspfile.h: MAX_MAP_BRUSHSIDES
    Limit("AREAS", 256, "records", "MAX_MAP_AREAS"),                # bspfile.h: MAX_MAP_AREAS
    Limit("AREAPORTALS", 1024, "records", "MAX_MAP_AREAPORTALS"),   # bspfile.h: MAX_MAP_AREAPORTALS
    Limit("DISPINFO", 2048, "records", "MAX_MAP_DISPINFO"),         # bspfile.h: MAX_MAP_DISPINFO
    Limit("ORIGINALFACES", 65536, "records", "MAX_MAP_FACES"),      # bspfile.h: MAX_MAP_FACES (dorigfaces)
    Limit("VERTNORMALS", 256000, "records", "MAX_MAP_VERTNORMALS"),  # bspfile.h: MAX_MAP_VERTNORMALS
    Limit("VERTNORMALINDICES", 256000, "records",                   # bspfile.h:
          "MAX_MAP_VERTNORMALINDICES"),                             # MAX_MAP_VERTNORMALINDICES
    Limit("DISP_VERTS", _DISP_VERTS, "records", "MAX_MAP_DISP_VERTS"),  # bspfile.h: MAX_MAP_DISP_VERTS
    Limit("LEAFWATERDATA", 32768, "records", "MAX_MAP_LEAFWATERDATA"),  # bspfile.h: MAX_MAP_LEAFWATERDATA
    Limit("PRIMITIVES", 32768, "records", "MAX_MAP_PRIMITIVES"),    # bspfile.h: MAX_MAP_PRIMITIVES
    Limit("PRIMVERTS", 65536, "records", "MAX_MAP_PRIMVERTS"),      # bspfile.h: MAX_MAP_PRIMVERTS
    Limit("PRIMINDICES", 65536, "records", "MAX_MAP_PRIMINDICES"),  # bspfile.h: MAX_MAP_PRIMINDICES
    Limit("CLIPPORTALVERTS", 128000, "records", "MAX_MAP_PORTALVERTS"),  # bspfile.h: MAX_MAP_PORTALVERTS
    Limit("CUBEMAPS", 1024, "records", "MAX_MAP_CUBEMAPSAMPLES"),   # bspfile.h: MAX_MAP_CUBEMAPSAMPLES
    Limit("TEXDATA_STRING_DATA", 256000, "bytes",                   # bspfile.h:
          "MAX_MAP_TEXDATA_STRING_DATA"),                           # MAX_MAP_TEXDATA_STRING_DATA
    Limit("TEXDATA_STRING_TABLE", 65536, "records",                 # bspfile.h:
          "MAX_MAP_TEXDATA_STRING_TABLE"),                          # MAX_MAP_TEXDATA_STRING_TABLE
    Limit("OVERLAYS", 512, "records", "MAX_MAP_OVERLAYS"),          # bspfile.h: MAX_MAP_OVERLAYS
    Limit("WATEROVERLAYS", 16384, "records", "MAX_MAP_WATEROVERLAYS"),  # bspfile.h: MAX_MAP_WATEROVERLAYS
    Limit("LIGHTING_HDR", 0x1000000, "bytes", "MAX_MAP_LIGHTING"),  # bspfile.h: MAX_MAP_LIGHTING
    Limit("WORLDLIGHTS_HDR", 8192, "records", "MAX_MAP_WORLDLIGHTS"),  # bspfile.h: MAX_MAP_WORLDLIGHTS
    Limit("FACES_HDR", 65536, "records", "MAX_MAP_FACES"),          # bspfile.h: MAX_MAP_FACES
)

# Strata wiki "BSP Version 25", Limit Summary (wiki: CONSTANT below). No MAX_MAP_ENTSTRING.
_STRATA_BRUSHES = 131072                        # wiki: MAX_MAP_BRUSHES
_STRATA_DISPINFO = 262144                       # wiki: MAX_MAP_DISPINFO
_STRATA_DISP_VERTS = _STRATA_DISPINFO * ((1 << 4) + 1) ** 2  # MAX_MAP_DISPINFO * 17 * 17 (DISP_POWER 4)
STRATA = (
    Limit("ENTITIES", 20480, "entities", "MAX_MAP_ENTITIES"),       # wiki: MAX_MAP_ENTITIES
    Limit("PLANES", 1048576, "records", "MAX_MAP_PLANES"),          # wiki: MAX_MAP_PLANES
    Limit("TEXDATA", 16384, "records", "MAX_MAP_TEXDATA"),          # wiki: MAX_MAP_TEXDATA
    Limit("VERTEXES", 1048576, "records", "MAX_MAP_VERTS"),         # wiki: MAX_MAP_VERTS
    Limit("VISIBILITY", 0x1000000, "bytes", "MAX_MAP_VISIBILITY"),  # wiki: MAX_MAP_VISIBILITY
    Limit("NODES", 1048576, "records", "MAX_MAP_NODES"),            # wiki: MAX_MAP_NODES
    Limit("FACES", 1048576, "records", "MAX_MAP_FACES"),            # wiki: MAX_MAP_FACES
    Limit("LIGHTING", 0x1000000, "bytes", "MAX_MAP_LIGHTING"),      # wiki: MAX_MAP_LIGHTING
    Limit("LEAFS", 1048576, "records", "MAX_MAP_LEAFS"),            # wiki: MAX_MAP_LEAFS
    Limit("EDGES", 4096000, "records", "MAX_MAP_EDGES"),            # wiki: MAX_MAP_EDGES
    Limit("SURFEDGES", 8192000, "records", "MAX_MAP_SURFEDGES"),    # wiki: MAX_MAP_SURFEDGES
    Limit("MODELS", 65536, "records", "MAX_MAP_MODELS"),            # wiki: MAX_MAP_MODELS
    Limit("LEAFFACES", 1048576, "records", "MAX_MAP_LEAFFACES"),    # wiki: MAX_MAP_LEAFFACES
    Limit("LEAFBRUSHES", 1048576, "records", "MAX_MAP_LEAFBRUSHES"),  # wiki: MAX_MAP_LEAFBRUSHES
    Limit("BRUSHES", _STRATA_BRUSHES, "records", "MAX_MAP_BRUSHES"),  # wiki: MAX_MAP_BRUSHES
    Limit("BRUSHSIDES", _STRATA_BRUSHES * 10, "records",            # wiki: MAX_MAP_BRUSHSIDES
          "MAX_MAP_BRUSHSIDES"),                                    # (MAX_MAP_BRUSHES * 10)
    Limit("AREAS", 65536, "records", "MAX_MAP_AREAS"),              # wiki: MAX_MAP_AREAS
    Limit("AREAPORTALS", 65536, "records", "MAX_MAP_AREAPORTALS"),  # wiki: MAX_MAP_AREAPORTALS
    Limit("DISPINFO", _STRATA_DISPINFO, "records", "MAX_MAP_DISPINFO"),  # wiki: MAX_MAP_DISPINFO
    Limit("ORIGINALFACES", 1048576, "records", "MAX_MAP_FACES"),    # wiki: MAX_MAP_FACES (dorigfaces)
    Limit("VERTNORMALS", 1048576, "records", "MAX_MAP_VERTNORMALS"),  # wiki: MAX_MAP_VERTNORMALS
    Limit("VERTNORMALINDICES", 1048576, "records",                  # wiki:
          "MAX_MAP_VERTNORMALINDICES"),                             # MAX_MAP_VERTNORMALINDICES
    Limit("DISP_VERTS", _STRATA_DISP_VERTS, "records",              # wiki: MAX_MAP_DISP_VERTS
          "MAX_MAP_DISP_VERTS"),
    Limit("LEAFWATERDATA", 32768, "records", "MAX_MAP_LEAFWATERDATA"),  # wiki: MAX_MAP_LEAFWATERDATA
    Limit("PRIMITIVES", 1048576, "records", "MAX_MAP_PRIMITIVES"),  # wiki: MAX_MAP_PRIMITIVES
    Limit("PRIMVERTS", 1048576, "records", "MAX_MAP_PRIMVERTS"),    # wiki: MAX_MAP_PRIMVERTS
    Limit("CLIPPORTALVERTS", 128000, "records", "MAX_MAP_PORTALVERTS"),  # wiki: MAX_MAP_PORTALVERTS
    Limit("CUBEMAPS", 16384, "records", "MAX_MAP_CUBEMAPSAMPLES"),  # wiki: MAX_MAP_CUBEMAPSAMPLES
    Limit("TEXDATA_STRING_DATA", 256000, "bytes",                   # wiki:
          "MAX_MAP_TEXDATA_STRING_DATA"),                           # MAX_MAP_TEXDATA_STRING_DATA
    Limit("TEXDATA_STRING_TABLE", 1048576, "records",               # wiki:
          "MAX_MAP_TEXDATA_STRING_TABLE"),                          # MAX_MAP_TEXDATA_STRING_TABLE
    Limit("OVERLAYS", 16384, "records", "MAX_MAP_OVERLAYS"),        # wiki: MAX_MAP_OVERLAYS
    Limit("WATEROVERLAYS", 16384, "records", "MAX_MAP_WATEROVERLAYS"),  # wiki: MAX_MAP_WATEROVERLAYS
    Limit("LIGHTING_HDR", 0x1000000, "bytes", "MAX_MAP_LIGHTING"),  # wiki: MAX_MAP_LIGHTING
    Limit("FACES_HDR", 1048576, "records", "MAX_MAP_FACES"),        # wiki: MAX_MAP_FACES
)

LIMITS: dict[str, tuple[Limit, ...]] = {"quake1": QUAKE1, "bsp2": BSP2, "goldsrc": GOLDSRC,
                                        "quake2": QUAKE2, "quake3": QUAKE3, "source": SOURCE,
                                        "strata": STRATA}
