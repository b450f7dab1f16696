"""A tiny independent reader of Quake 1 / BSP2 / 2PSB / GoldSrc / Quake 2 maps for the transform
and convert tests: header and records with `struct` (not bspedit's Kaitai dtypes), and a BSP
tree walker giving a point's contents in hull 0 and in clip hull 1."""
from __future__ import annotations

import struct
from pathlib import Path

# record formats per container: lump name -> struct format
_Q1 = {"PLANES": "<4fi", "VERTEXES": "<3f", "NODES": "<i2h6h2H", "LEAFS": "<2i6h2H4B",
       "TEXINFO": "<8f2i", "FACES": "<HhihH4Bi", "EDGES": "<2H", "SURFEDGES": "<i",
       "MODELS": "<9f7i", "CLIPNODES": "<i2h", "MARKSURFACES": "<H"}
_BSP2 = dict(_Q1, NODES="<3i6f2I", LEAFS="<2i6f2I4B", FACES="<5i4Bi", EDGES="<2I",
             CLIPNODES="<3i", MARKSURFACES="<I")
_2PSB = dict(_BSP2, NODES="<3i6h2I", LEAFS="<2i6h2I4B")
_Q2 = {"PLANES": "<4fi", "VERTEXES": "<3f", "NODES": "<3i6h2H", "LEAFS": "<i2h6h4H",
       "TEXINFO": "<8f2i32si", "FACES": "<Hhihh4Bi", "EDGES": "<2H", "SURFEDGES": "<i",
       "MODELS": "<9f3i"}
_Q1_NAMES = ("ENTITIES", "PLANES", "TEXTURES", "VERTEXES", "VISIBILITY", "NODES", "TEXINFO",
             "FACES", "LIGHTING", "CLIPNODES", "LEAFS", "MARKSURFACES", "EDGES", "SURFEDGES",
             "MODELS")
_Q2_NAMES = ("ENTITIES", "PLANES", "VERTEXES", "VISIBILITY", "NODES", "TEXINFO", "FACES",
             "LIGHTING", "LEAFS", "LEAFFACES", "LEAFBRUSHES", "EDGES", "SURFEDGES", "MODELS",
             "BRUSHES", "BRUSHSIDES", "POP", "AREAS", "AREAPORTALS")


class Map:
    """A map's header and records, read with struct."""

    def __init__(self, path: Path | str) -> None:
        self.data = Path(path).read_bytes()
        head = self.data[:4]
        if head == b"IBSP":
            self.kind, names, start, formats = "q2", _Q2_NAMES, 8, _Q2
        elif head in (b"BSP2", b"2PSB"):
            self.kind, names, start = head.decode(), _Q1_NAMES, 4
            formats = _BSP2 if head == b"BSP2" else _2PSB
        else:
            version = struct.unpack("<i", head)[0]
            self.kind, names, start, formats = f"v{version}", _Q1_NAMES, 4, _Q1
            if version == 30 and self.data[struct.unpack_from("<i", self.data, 12)[0]:][:1] \
                    == b"{":
                names = ("PLANES", "ENTITIES") + _Q1_NAMES[2:]       # Blue Shift
        self.lumps = {name: struct.unpack_from("<2i", self.data, start + 8 * i)
                      for i, name in enumerate(names)}
        self.formats = formats

    def raw(self, name: str) -> bytes:
        offset, length = self.lumps[name]
        return self.data[offset:offset + length]

    def records(self, name: str) -> list[tuple]:
        return [tuple(r) for r in struct.iter_unpack(self.formats[name], self.raw(name))]

    def entities(self) -> str:
        return self.raw("ENTITIES").split(b"\0")[0].decode("latin-1")


class Walker:
    """Point contents by walking a map's trees."""

    def __init__(self, bsp: Map) -> None:
        self.planes = bsp.records("PLANES")
        self.nodes = [(r[0], r[1], r[2]) for r in bsp.records("NODES")]
        self.leafs = [r[0] for r in bsp.records("LEAFS")]
        self.clipnodes = bsp.records("CLIPNODES") if "CLIPNODES" in bsp.formats else []
        model = bsp.records("MODELS")[0]
        self.heads = model[9:13] if bsp.kind != "q2" else (model[9],)
        self.bounds = (model[0:3], model[3:6])

    def _side(self, planenum: int, point: tuple[float, float, float]) -> float:
        nx, ny, nz, dist, _ = self.planes[planenum]
        return nx * point[0] + ny * point[1] + nz * point[2] - dist

    def contents(self, point: tuple[float, float, float]) -> tuple[int, float]:
        """Hull 0 contents and the smallest distance to a plane on the way."""
        node, near = self.heads[0], float("inf")
        while node >= 0:
            planenum, front, back = self.nodes[node]
            d = self._side(planenum, point)
            near = min(near, abs(d))
            node = front if d >= 0 else back
        return self.leafs[-1 - node], near

    def clip_contents(self, point: tuple[float, float, float]) -> tuple[int, float]:
        """Clip hull 1 (player) contents, Quake 1 / GoldSrc only."""
        node, near = self.heads[1], float("inf")
        while node >= 0:
            planenum, front, back = self.clipnodes[node]
            d = self._side(planenum, point)
            near = min(near, abs(d))
            node = front if d >= 0 else back
        return node, near
