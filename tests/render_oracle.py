"""An independent reading of Quake 1, GoldSrc and Quake 2 maps for the render tests: the
upward faces straight from the lumps with `struct` (no bspedit code), and their footprint
rasterised at 1 unit per pixel by half-plane tests on pixel centres. It draws what
ericw-tools `bsputil --svg` draws: the upward-facing faces of the world and of brush
entities (moved to their entity's origin, as engines draw them), without nodraw and trigger
textures."""
from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy

# lump numbers: entities, planes, textures (Quake 1), vertexes, texinfo, faces, edges,
# surfedges, models
Q1 = {"ENTITIES": 0, "PLANES": 1, "TEXTURES": 2, "VERTEXES": 3, "TEXINFO": 6, "FACES": 7,
      "EDGES": 12, "SURFEDGES": 13, "MODELS": 14}
Q2 = {"ENTITIES": 0, "PLANES": 1, "VERTEXES": 2, "TEXINFO": 5, "FACES": 6, "EDGES": 11,
      "SURFEDGES": 12, "MODELS": 13}
SURF_NODRAW = 0x80


@dataclass
class Face:
    model: int
    height: float               # mean z of its corners
    normal_z: float
    points: numpy.ndarray       # (K, 3) world corners, the entity origin added


def _lumps(data: bytes) -> tuple[str, list[tuple[int, int]]]:
    if data[:4] == b"IBSP":
        return "q2", [struct.unpack_from("<ii", data, 8 + 8 * n) for n in range(19)]
    return "q1", [struct.unpack_from("<ii", data, 4 + 8 * n) for n in range(15)]


def read_faces(path: Path) -> list[Face]:
    """Every face of the map that the player sees, with its model and corners."""
    data = path.read_bytes()
    kind, lumps = _lumps(data)
    index = Q2 if kind == "q2" else Q1

    def lump(name: str) -> bytes:
        offset, length = lumps[index[name]]
        return data[offset:offset + length]

    planes = list(struct.iter_unpack("<4fi", lump("PLANES")))
    vertexes = list(struct.iter_unpack("<3f", lump("VERTEXES")))
    edges = list(struct.iter_unpack("<2H", lump("EDGES")))
    surfedges = [e[0] for e in struct.iter_unpack("<i", lump("SURFEDGES"))]
    if kind == "q2":
        texinfo = [(t[8], t[10].split(b"\0")[0].decode("latin-1"))
                   for t in struct.iter_unpack("<8fii32si", lump("TEXINFO"))]
        models = [(m[10], m[11]) for m in struct.iter_unpack("<9f3i", lump("MODELS"))]
    else:
        textures = lump("TEXTURES")
        count = struct.unpack_from("<i", textures)[0]
        offsets = struct.unpack_from(f"<{count}i", textures, 4)
        names = [textures[o:o + 16].split(b"\0")[0].decode("latin-1") if o >= 0 else ""
                 for o in offsets]
        texinfo = [(t[9], names[t[8]] if 0 <= t[8] < count else "")
                   for t in struct.iter_unpack("<8f2i", lump("TEXINFO"))]
        models = [(m[14], m[15]) for m in struct.iter_unpack("<9f4i3i", lump("MODELS"))]
    origins = {}
    for block in re.findall(r"\{([^{}]*)\}", lump("ENTITIES").decode("latin-1")):
        keys = dict(re.findall(r'"([^"]*)"\s+"([^"]*)"', block))
        if keys.get("model", "").startswith("*") and "origin" in keys:
            origins[int(keys["model"][1:])] = numpy.array([float(v) for v in
                                                           keys["origin"].split()])
    faces = []
    for number, (first, count) in enumerate(models):
        offset = origins.get(number, numpy.zeros(3))
        for face in range(first, first + count):
            plane, side, firstedge, numedges, tex, _s, _l = struct.unpack_from(
                "<HhihH4si", lump("FACES"), 20 * face)
            flags, name = texinfo[tex]
            low = name.lower().split("/")[-1]
            if flags & SURF_NODRAW or low in ("trigger", "aaatrigger", "nodraw", "null"):
                continue
            normal_z = planes[plane][2] * (-1 if side else 1)
            corners = []
            for n in range(numedges):
                edge = surfedges[firstedge + n]
                corners.append(vertexes[edges[edge][0]] if edge >= 0 else
                               vertexes[edges[-edge][1]])
            points = numpy.array(corners, numpy.float64) + offset
            faces.append(Face(number, float(points[:, 2].mean()), normal_z, points))
    return faces


def inside(points: numpy.ndarray, x: numpy.ndarray, y: numpy.ndarray) -> numpy.ndarray:
    """Which (x, y) lie inside the convex polygon `points` (its xy, either winding)."""
    px, py = points[:, 0], points[:, 1]
    qx, qy = numpy.roll(px, -1), numpy.roll(py, -1)
    cross = (qx - px)[:, None] * (y[None, :] - py[:, None]) - \
        (qy - py)[:, None] * (x[None, :] - px[:, None])
    area = numpy.sum(px * qy - qx * py)
    return (cross * numpy.sign(area) >= 0).all(axis=0) if area else numpy.zeros(len(x), bool)


def footprint(faces: list[Face], min_x: float, max_y: float, width: int,
              height: int) -> numpy.ndarray:
    """(height, width) bool: pixel centres at 1 unit per pixel covered by an upward face."""
    mask = numpy.zeros((height, width), bool)
    for face in faces:
        if face.normal_z <= 0:
            continue
        lo, hi = face.points[:, :2].min(axis=0), face.points[:, :2].max(axis=0)
        c0, c1 = max(int(lo[0] - min_x) - 1, 0), min(int(hi[0] - min_x) + 2, width)
        r0, r1 = max(int(max_y - hi[1]) - 1, 0), min(int(max_y - lo[1]) + 2, height)
        if c0 >= c1 or r0 >= r1:
            continue
        cols, rows = numpy.meshgrid(numpy.arange(c0, c1), numpy.arange(r0, r1))
        x, y = min_x + cols.ravel() + 0.5, max_y - rows.ravel() - 0.5
        mask[rows.ravel(), cols.ravel()] |= inside(face.points, x, y)
    return mask
