"""What differs between games, as data: magic, versions, lump names, special lumps, checksums."""
from __future__ import annotations

from dataclasses import dataclass, field

_QUAKE1_LUMPS = ("ENTITIES", "PLANES", "TEXTURES", "VERTEXES", "VISIBILITY", "NODES", "TEXINFO",
                 "FACES", "LIGHTING", "CLIPNODES", "LEAFS", "MARKSURFACES", "EDGES", "SURFEDGES",
                 "MODELS")
_BLUE_SHIFT_LUMPS = ("PLANES", "ENTITIES") + _QUAKE1_LUMPS[2:]
_QUAKE2_LUMPS = ("ENTITIES", "PLANES", "VERTEXES", "VISIBILITY", "NODES", "TEXINFO", "FACES",
                 "LIGHTING", "LEAFS", "LEAFFACES", "LEAFBRUSHES", "EDGES", "SURFEDGES", "MODELS",
                 "BRUSHES", "BRUSHSIDES", "POP", "AREAS", "AREAPORTALS")
_QUAKE3_LUMPS = ("ENTITIES", "SHADERS", "PLANES", "NODES", "LEAFS", "LEAFSURFACES", "LEAFBRUSHES",
                 "MODELS", "BRUSHES", "BRUSHSIDES", "DRAWVERTS", "DRAWINDEXES", "FOGS", "SURFACES",
                 "LIGHTMAPS", "LIGHTGRID", "VISIBILITY")
_RAVEN_LUMPS = _QUAKE3_LUMPS + ("LIGHTARRAY",)
_SOURCE_LUMPS = (
    "ENTITIES", "PLANES", "TEXDATA", "VERTEXES", "VISIBILITY", "NODES", "TEXINFO", "FACES",
    "LIGHTING", "OCCLUSION", "LEAFS", "FACEIDS", "EDGES", "SURFEDGES", "MODELS", "WORLDLIGHTS",
    "LEAFFACES", "LEAFBRUSHES", "BRUSHES", "BRUSHSIDES", "AREAS", "AREAPORTALS", "PROPCOLLISION",
    "PROPHULLS", "PROPHULLVERTS", "PROPTRIS", "DISPINFO", "ORIGINALFACES", "PHYSDISP",
    "PHYSCOLLIDE", "VERTNORMALS", "VERTNORMALINDICES", "DISP_LIGHTMAP_ALPHAS", "DISP_VERTS",
    "DISP_LIGHTMAP_SAMPLE_POSITIONS", "GAME_LUMP", "LEAFWATERDATA", "PRIMITIVES", "PRIMVERTS",
    "PRIMINDICES", "PAKFILE", "CLIPPORTALVERTS", "CUBEMAPS", "TEXDATA_STRING_DATA",
    "TEXDATA_STRING_TABLE", "OVERLAYS", "LEAFMINDISTTOWATER", "FACE_MACRO_TEXTURE_INFO",
    "DISP_TRIS", "PROP_BLOB", "WATEROVERLAYS", "LEAF_AMBIENT_INDEX_HDR", "LEAF_AMBIENT_INDEX",
    "LIGHTING_HDR", "WORLDLIGHTS_HDR", "LEAF_AMBIENT_LIGHTING_HDR", "LEAF_AMBIENT_LIGHTING",
    "XZIPPAKFILE", "FACES_HDR", "MAP_FLAGS", "OVERLAY_FADES", "OVERLAY_SYSTEM_LEVELS",
    "PHYSLEVEL", "DISP_MULTIBLEND")

# Record sizes of fixed-size lumps, by lump name: a length that is not a multiple is corrupt.
_QUAKE1_RECORDS = {"PLANES": 20, "VERTEXES": 12, "NODES": 24, "TEXINFO": 40, "FACES": 20,
                   "CLIPNODES": 8, "LEAFS": 28, "MARKSURFACES": 2, "EDGES": 4, "SURFEDGES": 4,
                   "MODELS": 64}
_BSP2_RECORDS = {**_QUAKE1_RECORDS, "NODES": 44, "FACES": 28, "CLIPNODES": 12, "LEAFS": 44,
                 "MARKSURFACES": 4, "EDGES": 8}
_2PSB_RECORDS = {**_BSP2_RECORDS, "NODES": 32, "LEAFS": 32}
_QUAKE2_RECORDS = {"PLANES": 20, "VERTEXES": 12, "NODES": 28, "TEXINFO": 76, "FACES": 20,
                   "LEAFS": 28, "LEAFFACES": 2, "LEAFBRUSHES": 2, "EDGES": 4, "SURFEDGES": 4,
                   "MODELS": 48, "BRUSHES": 12, "BRUSHSIDES": 4, "AREAS": 8, "AREAPORTALS": 8}
_QUAKE3_RECORDS = {"SHADERS": 72, "PLANES": 16, "NODES": 36, "LEAFS": 48, "LEAFSURFACES": 4,
                   "LEAFBRUSHES": 4, "MODELS": 40, "BRUSHES": 12, "BRUSHSIDES": 8,
                   "DRAWVERTS": 44, "DRAWINDEXES": 4, "FOGS": 72, "SURFACES": 104,
                   "LIGHTGRID": 8}
# Raven's RBSP and qfusion's FBSP: four lightmaps per surface and vertex, a side's surface number
_RAVEN_RECORDS = {**_QUAKE3_RECORDS, "BRUSHSIDES": 12, "DRAWVERTS": 80, "SURFACES": 148,
                  "LIGHTGRID": 30, "LIGHTARRAY": 2}
# Source (bspfile.h). A dict maps the lump's version to its record size where that changed.
_SOURCE_RECORDS: dict[str, int | dict[int, int]] = {
    "PLANES": 20, "TEXDATA": 32, "VERTEXES": 12, "NODES": 32, "TEXINFO": 72, "FACES": 56,
    "LEAFS": {0: 56, 1: 32}, "FACEIDS": 2, "EDGES": 4, "SURFEDGES": 4, "MODELS": 48,
    "WORLDLIGHTS": {0: 88, 1: 100}, "LEAFFACES": 2, "LEAFBRUSHES": 2, "BRUSHES": 12,
    "BRUSHSIDES": 8, "AREAS": 8, "AREAPORTALS": 12, "DISPINFO": 176, "ORIGINALFACES": 56,
    "VERTNORMALS": 12, "VERTNORMALINDICES": 2, "DISP_VERTS": 20, "LEAFWATERDATA": 12,
    "PRIMITIVES": 10, "PRIMVERTS": 12, "PRIMINDICES": 2, "CLIPPORTALVERTS": 12, "CUBEMAPS": 16,
    "TEXDATA_STRING_TABLE": 4, "OVERLAYS": 352, "LEAFMINDISTTOWATER": 2,
    "FACE_MACRO_TEXTURE_INFO": 2, "DISP_TRIS": 2, "WATEROVERLAYS": 1120,
    "LEAF_AMBIENT_INDEX_HDR": 4, "LEAF_AMBIENT_INDEX": 4, "WORLDLIGHTS_HDR": {0: 88, 1: 100},
    "LEAF_AMBIENT_LIGHTING_HDR": 28, "LEAF_AMBIENT_LIGHTING": 28, "FACES_HDR": 56,
    "MAP_FLAGS": 4, "OVERLAY_FADES": 8, "OVERLAY_SYSTEM_LEVELS": 4}
# Strata Source (VBSP 25) widens indices to 32 bits; its displacement, overlay and primitive
# records are left unchecked (their sizes are not established).
_STRATA_RECORDS = {name: size for name, size in (_SOURCE_RECORDS | {
    "NODES": 48, "FACES": 72, "FACES_HDR": 72, "ORIGINALFACES": 72, "LEAFS": 56, "FACEIDS": 4,
    "EDGES": 8, "LEAFFACES": 4, "LEAFBRUSHES": 4, "VERTNORMALINDICES": 4, "BRUSHSIDES": 16,
    "AREAPORTALS": 20, "LEAF_AMBIENT_INDEX_HDR": 8, "LEAF_AMBIENT_INDEX": 8}).items()
    if name not in ("DISPINFO", "OVERLAYS", "PRIMITIVES", "WATEROVERLAYS")}


@dataclass(frozen=True, slots=True)
class Family:
    """One game family's file layout, as data."""

    key: str                      # short name used in output and JSON
    title: str
    engine: str                   # quake1 | goldsrc | quake2 | quake3 | source: decides checksums
    header: str                   # quake | vbsp: which generated reader parses the header
    ident: bytes = b""            # magic at offset 0 ("" when the file starts with the version)
    versions: frozenset[int] = frozenset()   # accepted version numbers (empty: no version field)
    lump_names: tuple[str, ...] = ()
    record_sizes: dict[str, int | dict[int, int]] = field(default_factory=dict)
    version_record_sizes: dict[int, dict[str, int | dict[int, int]]] = field(default_factory=dict)
    pakfile: str | None = None
    # Valve's RepackBSP (bspzip, LZMA repacks) starts the pakfile on this boundary and writes
    # no padding after it: a pakfile stored last so is a sign of that writer
    pakfile_alignment: int | None = None
    game_lump: str | None = None
    trailer: str | None = None    # bspx: Quake 1 maps may carry a BSPX directory after the last lump

    @property
    def lump_count(self) -> int:
        return len(self.lump_names)

    @property
    def has_version(self) -> bool:
        return bool(self.versions)

    @property
    def header_size(self) -> int:
        if self.header == "vbsp":
            return 8 + 16 * self.lump_count + 4
        return len(self.ident) + 4 * self.has_version + 8 * self.lump_count

    @property
    def entities(self) -> int:
        return self.lump_names.index("ENTITIES")

    def index_of(self, name: str) -> int | None:
        return self.lump_names.index(name) if name in self.lump_names else None

    def record_size(self, index: int, lump_version: int = 0,
                    map_version: int | None = None) -> int | None:
        """The record size of lump `index` in a map of `map_version`, if its records have a
        fixed size (None for variable-sized and unknown lumps)."""
        size = self.version_record_sizes.get(map_version, self.record_sizes) \
            .get(self.lump_names[index])
        return size.get(lump_version) if isinstance(size, dict) else size


QUAKE1 = Family("q1", "Quake 1 (BSP 29)", "quake1", "quake", versions=frozenset({29}),
                lump_names=_QUAKE1_LUMPS, record_sizes=_QUAKE1_RECORDS, trailer="bspx")
BSP2 = Family("bsp2", "Quake 1 (BSP2)", "quake1", "quake", ident=b"BSP2",
              lump_names=_QUAKE1_LUMPS, record_sizes=_BSP2_RECORDS, trailer="bspx")
BSP2_RMQ = Family("2psb", "Quake 1 (2PSB, RemakeQuake)", "quake1", "quake", ident=b"2PSB",
                  lump_names=_QUAKE1_LUMPS, record_sizes=_2PSB_RECORDS, trailer="bspx")
GOLDSRC = Family("goldsrc", "GoldSrc / Half-Life (BSP 30)", "goldsrc", "quake",
                 versions=frozenset({30}), lump_names=_QUAKE1_LUMPS, record_sizes=_QUAKE1_RECORDS)
BLUE_SHIFT = Family("bshift", "Half-Life: Blue Shift (BSP 30, lumps 0 and 1 swapped)", "goldsrc",
                    "quake", versions=frozenset({30}), lump_names=_BLUE_SHIFT_LUMPS,
                    record_sizes=_QUAKE1_RECORDS)
QUAKE2 = Family("q2", "Quake 2 (IBSP 38)", "quake2", "quake", ident=b"IBSP",
                versions=frozenset({38}), lump_names=_QUAKE2_LUMPS, record_sizes=_QUAKE2_RECORDS)
QUAKE3 = Family("q3", "Quake 3 (IBSP 46; 47: RTCW, Enemy Territory)", "quake3", "quake",
                ident=b"IBSP", versions=frozenset({46, 47}), lump_names=_QUAKE3_LUMPS,
                record_sizes=_QUAKE3_RECORDS)
RAVEN = Family("rbsp", "Raven Quake 3 (RBSP 1: Jedi Outcast, Jedi Academy, SoF2)", "quake3",
               "quake", ident=b"RBSP", versions=frozenset({1}), lump_names=_RAVEN_LUMPS,
               record_sizes=_RAVEN_RECORDS)
FUSION = Family("fbsp", "Quake 3 derivative (FBSP 1: Warsow / qfusion)", "quake3", "quake",
                ident=b"FBSP", versions=frozenset({1}), lump_names=_RAVEN_LUMPS,
                record_sizes=_RAVEN_RECORDS)
SOURCE = Family("source", "Source engine (VBSP)", "source", "vbsp", ident=b"VBSP",
                versions=frozenset(range(17, 26)), lump_names=_SOURCE_LUMPS,
                record_sizes=_SOURCE_RECORDS, version_record_sizes={25: _STRATA_RECORDS},
                pakfile="PAKFILE", pakfile_alignment=2048, game_lump="GAME_LUMP")

FAMILIES = (QUAKE1, BSP2, BSP2_RMQ, GOLDSRC, BLUE_SHIFT, QUAKE2, QUAKE3, RAVEN, FUSION, SOURCE)
BY_KEY = {family.key: family for family in FAMILIES}

# Files that start with an ident; the rest start with a little-endian version number.
BY_IDENT: dict[bytes, tuple[Family, ...]] = {}
for _family in FAMILIES:
    if _family.ident:
        BY_IDENT.setdefault(_family.ident, ())
        BY_IDENT[_family.ident] += (_family,)
BY_VERSION = {29: QUAKE1, 30: GOLDSRC}
KNOWN_UNSUPPORTED = {b"PSBV": "big-endian (console) Source map", b"rBSP": "Titanfall/Apex map",
                     b"FAKK": "Ritual (FAKK2/MoHAA) map", b"EF2!": "Ritual (Elite Force 2) map"}
