"""Quake 3 variant maps made from real IBSP 46 maps, for tests: IBSP 47 (Return to Castle
Wolfenstein, Enemy Territory), Raven's RBSP 1 and qfusion's FBSP 1 (Warsow, Warfork).

Written with plain struct and numpy from the format facts in ksy/quake3_bsp.ksy and
ksy/raven_bsp.ksy, independently of bspedit's reader and writer:
- IBSP 47 has IBSP 46's records: only the version field changes.
- RBSP and FBSP have 18 lumps (LIGHTARRAY added) and four light styles: a brush side gains its
  drawn surface (8 -> 12 bytes, -1: none), a vertex four lightmap coordinates and four colours
  (44 -> 80), a surface four styles, lightmap numbers and corners (104 -> 148), a light grid
  point four ambient and directed colours and their styles (8 -> 30). The first style holds the
  Quake 3 map's values; the others are unused (style 255, lightmap -1, zero coordinates), as
  q3map2 writes a map lit with one style. LIGHTARRAY gives every grid point its own index.
- FBSP's lightmaps are 512 x 512 RGB (786,432 bytes each, QF_LIGHTMAP_WIDTH): every 128 x 128
  lightmap is scaled up four times (each texel a 4 x 4 block), its surfaces' rectangles with it
  (the vertices' lightmap coordinates are fractions of the lightmap: unchanged).

Lumps keep the input's file order (LIGHTARRAY last), 4-byte aligned with zero padding, and the
bytes between the header and the first lump (q3map2's marker) stay.

`deluxe` gives an IBSP 46 map the light pages of a map compiled with q3map2 `-deluxe`.
"""
from __future__ import annotations

import struct

import numpy

Q3_LUMPS = 17
RAVEN_LUMPS = 18
BRUSHSIDES, DRAWVERTS, SURFACES, LIGHTMAPS, LIGHTGRID, LIGHTARRAY = 9, 10, 13, 14, 15, 17
IDENTS = {"ql": (b"IBSP", 47), "rbsp": (b"RBSP", 1), "fbsp": (b"FBSP", 1)}
SCALE = 4               # FBSP lightmap side / Quake 3 lightmap side (512 / 128)


def _brush_sides(data: bytes) -> bytes:
    sides = numpy.frombuffer(data, "<i4").reshape(-1, 2)
    out = numpy.full((len(sides), 3), -1, "<i4")
    out[:, :2] = sides
    return out.tobytes()


def _draw_verts(data: bytes) -> bytes:
    verts = numpy.frombuffer(data, numpy.uint8).reshape(-1, 44)
    out = numpy.zeros((len(verts), 80), numpy.uint8)
    out[:, 0:20] = verts[:, 0:20]                     # xyz, st
    out[:, 20:28] = verts[:, 20:28]                   # lightmap[0]; styles 1-3 zero
    out[:, 52:64] = verts[:, 28:40]                   # normal
    out[:, 64:68] = verts[:, 40:44]                   # color[0]
    out[:, 68:80] = numpy.tile(verts[:, 40:44], 3)    # color[1..3]: q3map2 repeats the colour
    return out.tobytes()


def _surfaces(data: bytes, scale: int) -> bytes:
    out = bytearray()
    for at in range(0, len(data), 104):
        head = data[at:at + 28]                                   # shader .. numIndexes
        num, x, y, w, h = struct.unpack_from("<5i", data, at + 28)
        rest = data[at + 48:at + 104]                             # origin, vecs, patch size
        if num >= 0:
            x, y, w, h = x * scale, y * scale, w * scale, h * scale
        out += head + bytes((0, 255, 255, 255, 0, 255, 255, 255))  # lightmap and vertex styles
        out += struct.pack("<4i4i4i2i", num, -1, -1, -1, x, 0, 0, 0, y, 0, 0, 0, w, h) + rest
    return bytes(out)


def _light_grid(data: bytes) -> bytes:
    points = numpy.frombuffer(data, numpy.uint8).reshape(-1, 8)
    out = numpy.zeros((len(points), 30), numpy.uint8)
    out[:, 0:3] = points[:, 0:3]            # ambient of style 0
    out[:, 12:15] = points[:, 3:6]          # directed of style 0
    out[:, 24:28] = (0, 255, 255, 255)      # styles
    out[:, 28:30] = points[:, 6:8]          # lat, long
    return out.tobytes()


def _lightmaps_512(data: bytes) -> bytes:
    maps = numpy.frombuffer(data, numpy.uint8).reshape(-1, 128, 128, 3)
    return maps.repeat(SCALE, axis=1).repeat(SCALE, axis=2).tobytes()


def convert(data: bytes, family: str) -> bytes:
    """An IBSP 46 map's bytes as a map of `family` ("ql": IBSP 47, "rbsp", "fbsp")."""
    if data[:4] != b"IBSP" or struct.unpack_from("<i", data, 4)[0] != 46:
        raise ValueError("not a Quake 3 IBSP 46 map")
    ident, version = IDENTS[family]
    entries = [struct.unpack_from("<ii", data, 8 + 8 * i) for i in range(Q3_LUMPS)]
    if family == "ql":
        return ident + struct.pack("<i", version) + data[8:]
    lumps = {i: data[o:o + n] for i, (o, n) in enumerate(entries)}
    lumps[BRUSHSIDES] = _brush_sides(lumps[BRUSHSIDES])
    lumps[DRAWVERTS] = _draw_verts(lumps[DRAWVERTS])
    lumps[SURFACES] = _surfaces(lumps[SURFACES], SCALE if family == "fbsp" else 1)
    points = len(lumps[LIGHTGRID]) // 8
    lumps[LIGHTGRID] = _light_grid(lumps[LIGHTGRID])
    lumps[LIGHTARRAY] = numpy.arange(points, dtype="<u2").tobytes()
    if family == "fbsp":
        lumps[LIGHTMAPS] = _lightmaps_512(lumps[LIGHTMAPS])
    return _assemble(data, entries, lumps, ident, version)


def _assemble(data: bytes, entries: list[tuple[int, int]], lumps: dict[int, bytes],
              ident: bytes, version: int) -> bytes:
    """A map of `lumps` in the input's file order (lumps past Quake 3's last), the bytes of
    `data` between its header and first lump kept."""
    order = sorted(range(Q3_LUMPS), key=lambda i: (entries[i][0], i)) + \
        sorted(i for i in lumps if i >= Q3_LUMPS)
    header = 8 + 8 * len(lumps)
    first = min((o for o, n in entries if n), default=8 + 8 * Q3_LUMPS)
    marker = data[8 + 8 * Q3_LUMPS:first]          # q3map2's marker before the first lump
    body, position = bytearray(marker), header + len(marker)
    directory = [(0, 0)] * len(lumps)
    for index in order:
        blob = lumps[index]
        directory[index] = (position, len(blob))       # q3map2: empty lumps where they are
        body += blob + bytes(-len(blob) % 4)
        position += len(blob) + -len(blob) % 4
    head = ident + struct.pack("<i", version) + b"".join(struct.pack("<ii", *e) for e in directory)
    return head + bytes(body)


def deluxe(data: bytes) -> bytes:
    """An IBSP 46 map's bytes with its light stored as q3map2 `-deluxe` stores it: each
    lightmap followed by a light direction page, the surfaces' lightmap numbers doubled. A
    lit surface's direction texels (those its vertices' lightmap coordinates cover, with half
    a texel around) hold its vertices' mean normal encoded as q3map2 encodes a direction,
    (d + 1) * 127.5: light along the normal; the rest of a direction page is black."""
    if data[:4] != b"IBSP" or struct.unpack_from("<i", data, 4)[0] != 46:
        raise ValueError("not a Quake 3 IBSP 46 map")
    entries = [struct.unpack_from("<ii", data, 8 + 8 * i) for i in range(Q3_LUMPS)]
    lumps = {i: data[o:o + n] for i, (o, n) in enumerate(entries)}
    pages = numpy.frombuffer(lumps[LIGHTMAPS], numpy.uint8).reshape(-1, 128, 128, 3)
    directions = numpy.zeros_like(pages)
    verts = numpy.frombuffer(lumps[DRAWVERTS], numpy.uint8).reshape(-1, 44)
    texel = verts[:, 20:28].copy().view("<f4") * 128          # lightmap[0], in texels
    normal = verts[:, 28:40].copy().view("<f4").astype(numpy.float64)
    surfaces = bytearray(lumps[SURFACES])
    for at in range(0, len(surfaces), 104):
        first, count = struct.unpack_from("<2i", surfaces, at + 12)
        number = struct.unpack_from("<i", surfaces, at + 28)[0]
        if number < 0:
            continue
        low = numpy.clip(numpy.floor(texel[first:first + count].min(axis=0) - 0.5), 0, 128)
        high = numpy.clip(numpy.ceil(texel[first:first + count].max(axis=0) + 0.5), 0, 128)
        mean = normal[first:first + count].mean(axis=0)
        mean /= max(numpy.linalg.norm(mean), 1e-9)
        (x, y), (x1, y1) = low.astype(int), high.astype(int)
        directions[number, y:y1, x:x1] = numpy.rint((mean + 1) * 127.5)
        struct.pack_into("<i", surfaces, at + 28, 2 * number)
    lumps[SURFACES] = bytes(surfaces)
    lumps[LIGHTMAPS] = numpy.stack([pages, directions], axis=1).tobytes()
    return _assemble(data, entries, lumps, b"IBSP", 46)
