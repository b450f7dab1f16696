"""What differs between games, as data: magic, versions, lump names, special lumps, checksums."""
from __future__ import annotations

from .. import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

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

class Family:
    """One game family's file layout, as data (one instance per family, below)."""

    __slots__ = ("key", "title", "engine", "header", "ident", "ident_big_endian", "versions",
                 "lump_names", "pakfile", "pakfile_alignment", "console_pakfile_alignment",
                 "console_file_alignment", "console_lzma_dictionary", "game_lump", "trailer")

    def __init__(self, key: str, title: str, engine: str, header: str, *, ident: bytes = b"",
                 ident_big_endian: bytes = b"", versions: frozenset[int] = frozenset(),
                 lump_names: tuple[str, ...] = (), pakfile: str | None = None,
                 pakfile_alignment: int | None = None,
                 console_pakfile_alignment: int | None = None,
                 console_file_alignment: int | None = None,
                 console_lzma_dictionary: int | None = None, game_lump: str | None = None,
                 trailer: str | None = None) -> None:
        self.key = key              # short name used in output and JSON
        self.title = title
        self.engine = engine        # quake1 | goldsrc | quake2 | quake3 | source: the checksums
        self.header = header        # quake | vbsp: which generated reader parses the header
        self.ident = ident          # magic at offset 0 ("" when the file starts with the version)
        # magic of the family's big-endian (console) maps: the same int as `ident` written
        # big-endian; every number of the header, the directory and the records follows it
        self.ident_big_endian = ident_big_endian
        self.versions = versions    # accepted version numbers (empty: no version field)
        self.lump_names = lump_names
        self.pakfile = pakfile
        # Valve's RepackBSP (bspzip, LZMA repacks) starts the pakfile on this boundary and
        # writes no padding after it: a pakfile stored last so is a sign of that writer
        self.pakfile_alignment = pakfile_alignment
        # Valve's console conversion (bsplib.cpp: SetPakFileLump, SwapBSPFile) starts the
        # pakfile on a DVD sector and pads the file end to one: the boundaries big-endian maps
        # keep (a larger one the map shows wins, see container.layout.console_boundaries)
        self.console_pakfile_alignment = console_pakfile_alignment
        self.console_file_alignment = console_file_alignment
        # the LZMA dictionary of console maps' compressed lumps (the real Xbox 360 map: 256 KiB)
        self.console_lzma_dictionary = console_lzma_dictionary
        self.game_lump = game_lump
        self.trailer = trailer      # bspx: Quake 1 maps may carry a BSPX directory at the end

    def __repr__(self) -> str:
        return f"Family({self.key!r}, {self.title!r})"

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

    def lump_entry(self, lump: str, lump_version: int = 0,
                   map_version: int | None = None) -> tuple[Any, ...] | None:
        """The entry of the Kaitai specs' lump tables (bspedit/format/generated/record_types.py) that
        describes `lump` at `lump_version` in a map of `map_version` (None: the family's lowest
        version), or None: (type, lump version, map versions, whole, record size)."""
        from .generated.record_types import LUMP_TABLES    # 15 ms of data: only when asked

        if map_version is None and self.versions:
            map_version = min(self.versions)
        for entry in LUMP_TABLES.get(self.key, {}).get(lump, ()):
            if entry[1] is not None and entry[1] != lump_version:
                continue
            if entry[2] is not None and map_version not in entry[2]:
                continue
            return tuple(entry)
        return None

    def record_size(self, index: int, lump_version: int = 0,
                    map_version: int | None = None) -> int | None:
        """The record size of lump `index` in a map of `map_version`, if the specs give its
        records a fixed size (None for variable-sized and unknown lumps): a length that is not
        a multiple is corrupt."""
        entry = self.lump_entry(self.lump_names[index], lump_version, map_version)
        return None if entry is None or entry[3] else entry[4]


QUAKE1 = Family("q1", "Quake 1 (BSP 29)", "quake1", "quake", versions=frozenset({29}),
                lump_names=_QUAKE1_LUMPS, trailer="bspx")
BSP2 = Family("bsp2", "Quake 1 (BSP2)", "quake1", "quake", ident=b"BSP2",
              lump_names=_QUAKE1_LUMPS, trailer="bspx")
BSP2_RMQ = Family("2psb", "Quake 1 (2PSB, RemakeQuake)", "quake1", "quake", ident=b"2PSB",
                  lump_names=_QUAKE1_LUMPS, trailer="bspx")
GOLDSRC = Family("goldsrc", "GoldSrc / Half-Life (BSP 30)", "goldsrc", "quake",
                 versions=frozenset({30}), lump_names=_QUAKE1_LUMPS)
BLUE_SHIFT = Family("bshift", "Half-Life: Blue Shift (BSP 30, lumps 0 and 1 swapped)", "goldsrc",
                    "quake", versions=frozenset({30}), lump_names=_BLUE_SHIFT_LUMPS)
QUAKE2 = Family("q2", "Quake 2 (IBSP 38)", "quake2", "quake", ident=b"IBSP",
                versions=frozenset({38}), lump_names=_QUAKE2_LUMPS)
QUAKE3 = Family("q3", "Quake 3 (IBSP 46; 47: RTCW, Enemy Territory)", "quake3", "quake",
                ident=b"IBSP", versions=frozenset({46, 47}), lump_names=_QUAKE3_LUMPS)
RAVEN = Family("rbsp", "Raven Quake 3 (RBSP 1: Jedi Outcast, Jedi Academy, SoF2)", "quake3",
               "quake", ident=b"RBSP", versions=frozenset({1}), lump_names=_RAVEN_LUMPS)
FUSION = Family("fbsp", "Quake 3 derivative (FBSP 1: Warsow / qfusion)", "quake3", "quake",
                ident=b"FBSP", versions=frozenset({1}), lump_names=_RAVEN_LUMPS)
SOURCE = Family("source", "Source engine (VBSP)", "source", "vbsp", ident=b"VBSP",
                versions=frozenset(range(17, 26)), lump_names=_SOURCE_LUMPS,
                pakfile="PAKFILE", pakfile_alignment=2048, game_lump="GAME_LUMP",
                ident_big_endian=b"PSBV", console_lzma_dictionary=1 << 18,
                console_pakfile_alignment=2048,
                console_file_alignment=2048)

FAMILIES = (QUAKE1, BSP2, BSP2_RMQ, GOLDSRC, BLUE_SHIFT, QUAKE2, QUAKE3, RAVEN, FUSION, SOURCE)
BY_KEY = {family.key: family for family in FAMILIES}

# Files that start with an ident; the rest start with a little-endian version number.
BY_IDENT: dict[bytes, tuple[Family, ...]] = {}
for _family in FAMILIES:
    for _ident in filter(None, (_family.ident, _family.ident_big_endian)):
        BY_IDENT[_ident] = BY_IDENT.get(_ident, ()) + (_family,)
BY_VERSION = {29: QUAKE1, 30: GOLDSRC}
KNOWN_UNSUPPORTED = {b"rBSP": "Titanfall/Apex map",
                     b"FAKK": "Ritual (FAKK2/MoHAA) map", b"EF2!": "Ritual (Elite Force 2) map"}
