"""The guide's demo map, `docs/examples/demo.bsp`: a small Quake 1 (BSP 29) map made by
bspedit's own writer, so that every picture and example of the guide runs on a fresh clone.

It is no compiler's output: three rooms on a grid of 64-unit cells (a hall, a room up a stair,
a room with a ledge), brush entities (a door, its button, two triggers), lights (one switched:
light style 32), a patrol and one link on purpose left dangling (`ent check` finds it). The
tree splits on the grid lines, then on each cell's floor and ceiling; clip hulls 1 and 2 are
that tree (not widened for the player); the light is a point light per entity, its rays
stopped by the grid's walls and floors; no visibility (every leaf sees every leaf).

Usage: python docs/_build/demo_map.py OUT.bsp   (gives docs/examples/demo.bsp byte for byte)
"""
from __future__ import annotations

import math
import struct
import sys
from pathlib import Path

import numpy

from bspedit.features.build import create

CELL, CEILING, STEP = 64, 192, 16
#: the floor plan, north up: '#' solid, a digit the floor's height in steps of 16 units
LAYOUT = ("################",
          "#00000###444444#",
          "#00000###444444#",
          "#00000123444444#",
          "#00000###444444#",
          "###0########4###",
          "#0000002222#444#",
          "#00000122223444#",
          "#0000002222#444#",
          "################")
ROWS, COLS = len(LAYOUT), len(LAYOUT[0])
#: brush entities: class, keys, box (mins, maxs), texture
BRUSHES = [
    ("func_door", {"targetname": "gate", "angle": "-2", "lip": "8"},
     ((192, 280, 0), (256, 296, 96)), "door"),
    ("func_button", {"target": "gate", "angle": "0"}, ((64, 344, 40), (72, 376, 72)), "button"),
    ("trigger_multiple", {"target": "alarm", "wait": "2"}, ((384, 384, 32), (448, 448, 96)),
     "trigger"),
    ("trigger_once", {"target": "lift"}, ((448, 64, 32), (576, 192, 96)), "trigger"),
]
#: point entities: class, keys (origin as a tuple)
POINTS = [
    ("info_player_start", {"origin": (128, 448, 24), "angle": "0"}),
    ("info_player_deathmatch", {"origin": (832, 448, 88), "angle": "180"}),
    ("info_player_deathmatch", {"origin": (128, 128, 24), "angle": "90"}),
    ("light", {"origin": (128, 544, 160), "light": "300"}),
    ("light", {"origin": (256, 384, 160), "light": "300"}),
    ("light", {"origin": (448, 416, 176), "light": "220"}),
    ("light", {"origin": (704, 512, 176), "light": "300"}),
    ("light", {"origin": (832, 288, 176), "light": "260"}),
    ("light", {"origin": (160, 128, 160), "light": "280"}),
    ("light", {"origin": (544, 128, 176), "light": "300"}),
    ("light", {"origin": (832, 96, 176), "light": "240"}),
    ("light", {"origin": (704, 352, 176), "light": "350", "targetname": "alarm", "style": "32",
               "spawnflags": "1"}),
    ("monster_army", {"origin": (768, 416, 88), "target": "p1", "angle": "180"}),
    ("path_corner", {"origin": (640, 416, 88), "targetname": "p1", "target": "p2"}),
    ("path_corner", {"origin": (896, 256, 88), "targetname": "p2", "target": "p1"}),
    ("item_health", {"origin": (96, 96, 8)}),
    ("weapon_supershotgun", {"origin": (880, 80, 72)}),
]
TEXTURES = {"floor": 3, "wall": 6, "step": 9, "ceiling": 2, "door": 12, "button": 14,
            "trigger": 1}
AMBIENT, SWITCHED = 12, 32


def floors() -> numpy.ndarray:
    """Floor height per cell, [x, y] with y north; solid cells +inf."""
    grid = numpy.full((COLS, ROWS), numpy.inf)
    for row, line in enumerate(LAYOUT):
        assert len(line) == COLS, line
        for x, char in enumerate(line):
            if char != "#":
                grid[x, ROWS - 1 - row] = int(char) * STEP
    return grid


class Builder:
    """Records of every lump, deduplicated where the compilers share them."""

    def __init__(self) -> None:
        self.planes: dict[tuple[int, float], int] = {}
        self.vertices: dict[tuple[float, float, float], int] = {}
        self.edges: dict[tuple[int, int], int] = {(0, 0): 0}
        self.surfedges: list[int] = []
        self.texinfo: dict[tuple, int] = {}
        self.faces: list[bytes] = []
        self.windings: list[tuple[int, numpy.ndarray, list]] = []   # per face: axis, normal, points
        self.nodes: list[list] = []
        self.leafs: list[bytes] = [struct.pack("<2i6h2H4B", -2, -1, 0, 0, 0, 0, 0, 0, 0, 0,
                                               0, 0, 0, 0)]
        self.marksurfaces: list[int] = []
        self.clipnodes: list[bytes] = []

    def plane(self, axis: int, dist: float) -> int:
        return self.planes.setdefault((axis, dist), len(self.planes))

    def face(self, axis: int, sign: int, dist: float, lo: tuple, hi: tuple, texture: str) -> int:
        """An axial rectangle on the plane `axis` = dist, facing `sign` along the axis, from
        `lo` to `hi` in the other two axes (x, y, z order); returns its index."""
        u, v = [a for a in range(3) if a != axis]
        corners = []
        for cu, cv in ((lo[0], lo[1]), (lo[0], hi[1]), (hi[0], hi[1]), (hi[0], lo[1])):
            point = [0.0, 0.0, 0.0]
            point[axis], point[u], point[v] = dist, cu, cv
            corners.append(tuple(point))
        normal = numpy.zeros(3)
        normal[axis] = sign
        a, b, c = (numpy.array(p) for p in corners[:3])
        if numpy.dot(numpy.cross(b - a, c - b), normal) > 0:      # clockwise seen from the front
            corners.reverse()
        first = len(self.surfedges)
        for i, point in enumerate(corners):
            start = self.vertices.setdefault(point, len(self.vertices))
            end = self.vertices.setdefault(corners[(i + 1) % 4], len(self.vertices))
            if (end, start) in self.edges:
                self.surfedges.append(-self.edges[(end, start)])
            else:
                self.surfedges.append(self.edges.setdefault((start, end), len(self.edges)))
        s, t = _axes(axis)
        info = self.texinfo.setdefault((s, t, texture), len(self.texinfo))
        self.faces.append(struct.pack("<HhihH", self.plane(axis, dist), int(sign < 0), first, 4,
                                      info))
        self.windings.append((axis, normal, corners))
        return len(self.faces) - 1

    def leaf(self, contents: int, mins: tuple, maxs: tuple, faces: list[int]) -> int:
        self.leafs.append(struct.pack("<2i6h2H4B", contents, -1, *mins, *maxs,
                                      len(self.marksurfaces), len(faces), 0, 0, 0, 0))
        self.marksurfaces.extend(faces)
        return len(self.leafs) - 1

    def node(self, axis: int, dist: float, mins: tuple, maxs: tuple, faces: list[int]) -> int:
        """A node (children set later by `link`); its faces must be consecutive."""
        assert faces == list(range(faces[0], faces[0] + len(faces))) if faces else True
        self.nodes.append([self.plane(axis, dist), [0, 0], mins, maxs,
                           faces[0] if faces else 0, len(faces)])
        return len(self.nodes) - 1


def _axes(axis: int) -> tuple[tuple, tuple]:
    """Quake's texture axes for a face on a plane of `axis` (qbsp's baseaxis)."""
    return {2: ((1, 0, 0), (0, -1, 0)), 0: ((0, 1, 0), (0, 0, -1)),
            1: ((1, 0, 0), (0, 0, -1))}[axis]


def world(builder: Builder, grid: numpy.ndarray) -> tuple[int, list]:
    """Hull 0 of the world: faces first (each node's consecutive), then the tree. Returns the
    root node and the child links to set."""
    links: list = []

    def walls(line_axis: int, line: int, lo: int, hi: int) -> list[int]:
        """Risers and walls on grid line `line` of `line_axis`, for cells lo..hi along the other
        axis: each faces the lower (open) side."""
        made = []
        for k in range(lo, hi):
            a = (line - 1, k) if line_axis == 0 else (k, line - 1)
            b = (line, k) if line_axis == 0 else (k, line)
            fa, fb = grid[a], grid[b]
            if fa == fb or (math.isinf(fa) and math.isinf(fb)):
                continue
            low, sign = (fa, -1) if fa < fb else (fb, 1)
            top = min(max(fa, fb), CEILING)
            span = (k * CELL, (k + 1) * CELL)
            lo_, hi_ = ((span[0], low), (span[1], top))
            made.append(builder.face(line_axis, sign, line * CELL, lo_, hi_,
                                     "wall" if top == CEILING else "step"))
        return made

    def split(x0: int, y0: int, x1: int, y1: int) -> int:
        """Child value of the region of cells [x0, x1) x [y0, y1)."""
        if x1 - x0 == 1 and y1 - y0 == 1:
            return cell(x0, y0)
        axis = 0 if x1 - x0 >= y1 - y0 else 1
        line = (x0 + x1) // 2 if axis == 0 else (y0 + y1) // 2
        faces = walls(axis, line, y0, y1) if axis == 0 else walls(axis, line, x0, x1)
        region = grid[x0:x1, y0:y1]
        low = int(region[numpy.isfinite(region)].min()) if numpy.isfinite(region).any() else 0
        index = builder.node(axis, line * CELL, (x0 * CELL, y0 * CELL, low),
                             (x1 * CELL, y1 * CELL, CEILING), faces)
        front = split(line, y0, x1, y1) if axis == 0 else split(x0, line, x1, y1)
        back = split(x0, y0, line, y1) if axis == 0 else split(x0, y0, x1, line)
        links.append((index, front, back))
        return index

    def cell(x: int, y: int) -> int:
        height = grid[x, y]
        if math.isinf(height):
            return -1                                   # leaf 0, solid
        lo, hi = (x * CELL, y * CELL), ((x + 1) * CELL, (y + 1) * CELL)
        floor = builder.face(2, 1, height, lo, hi, "floor")
        below = builder.node(2, height, (*lo, int(height)), (*hi, CEILING), [floor])
        ceiling = builder.face(2, -1, CEILING, lo, hi, "ceiling")
        above = builder.node(2, CEILING, (*lo, int(height)), (*hi, CEILING), [ceiling])
        sides = [i for i, (axis, normal, corners) in enumerate(builder.windings)
                 if axis != 2 and _bounds(corners, x, y, axis, normal)]
        leaf = builder.leaf(-1, (*lo, int(height)), (*hi, CEILING), [floor, ceiling, *sides])
        links.append((below, above, -1))
        links.append((above, -1, -1 - leaf))
        return below

    root = split(0, 0, COLS, ROWS)
    return root, links


def _bounds(corners: list, x: int, y: int, axis: int, normal: numpy.ndarray) -> bool:
    """Whether an axial wall face bounds cell (x, y) on the cell's side it faces."""
    point = numpy.mean(numpy.array(corners), axis=0) + normal * 1
    return x * CELL < point[0] < (x + 1) * CELL and y * CELL < point[1] < (y + 1) * CELL


def box_model(builder: Builder, mins: tuple, maxs: tuple, texture: str) -> tuple[int, list, int]:
    """A brush model of one box: its 6 faces, a chain of 6 nodes and one empty leaf."""
    first = len(builder.faces)
    empty = builder.leaf(-1, mins, maxs, [])
    chain, links = [], []
    for axis in range(3):
        u, v = [a for a in range(3) if a != axis]
        for sign, dist in ((-1, mins[axis]), (1, maxs[axis])):
            face = builder.face(axis, sign, dist, (mins[u], mins[v]), (maxs[u], maxs[v]), texture)
            chain.append(builder.node(axis, dist, mins, maxs, [face]))
    for i, node in enumerate(chain):
        inward = chain[i + 1] if i + 1 < len(chain) else -1
        # even nodes: the min plane (inside is in front); odd: the max plane (inside behind)
        links.append((node, inward, -1 - empty) if i % 2 == 0 else (node, -1 - empty, inward))
    return chain[0], links, first


def textures() -> bytes:
    """A miptex lump of 16 x 16 textures with their 4 mip levels (palette indices)."""
    entries = []
    for name, colour in TEXTURES.items():
        pixels = b"".join(bytes((colour * 16 + (x ^ y) % 4) for x in range(16 >> level)
                                for y in range(16 >> level)) for level in range(4))
        offsets = [40, 40 + 256, 40 + 256 + 64, 40 + 256 + 64 + 16]
        entries.append(struct.pack("<16s2I4I", name.encode(), 16, 16, *offsets) + pixels)
    start = 4 + 4 * len(entries)
    offsets = [start + sum(len(e) for e in entries[:i]) for i in range(len(entries))]
    return struct.pack(f"<i{len(entries)}i", len(entries), *offsets) + b"".join(entries)


def lighting(builder: Builder, grid: numpy.ndarray, faces: list[bytes]) -> tuple[list, bytes]:
    """Each face's luxels (16 units apart, from its texture extents as the engines find them)
    lit by the light entities, rays stopped by solid cells and floors; style 0 for the fixed
    lights, style 32 for the switched one. Returns the faces with styles and lightofs."""
    lights = [(numpy.array(keys["origin"], float), float(keys["light"]), "targetname" in keys)
              for name, keys in POINTS if name == "light"]
    data = bytearray()
    done = []
    for record, (axis, normal, corners) in zip(faces, builder.windings):
        s_axis, t_axis = (numpy.array(a, float) for a in _axes(axis))
        points = numpy.array(corners, float)
        s, t = points @ s_axis, points @ t_axis
        smin, tmin = math.floor(s.min() / 16), math.floor(t.min() / 16)
        width, height = math.ceil(s.max() / 16) - smin + 1, math.ceil(t.max() / 16) - tmin + 1
        ss, tt = numpy.meshgrid((smin + numpy.arange(width)) * 16,
                                (tmin + numpy.arange(height)) * 16)
        world_points = numpy.zeros((ss.size, 3))
        world_points += ss.reshape(-1, 1) * s_axis + tt.reshape(-1, 1) * t_axis
        world_points[:, axis] = points[0, axis]
        world_points += normal * 1.0                      # just in front of the face
        styles, blocks = [], []
        for switched in (False, True):
            total = numpy.full(len(world_points), float(AMBIENT if not switched else 0))
            for origin, value, named in lights:
                if named == switched:
                    total += _light(world_points, normal, origin, value, grid)
            if switched and not total.any():
                continue
            styles.append(SWITCHED if switched else 0)
            blocks.append(numpy.clip(total, 0, 255).astype(numpy.uint8).tobytes())
        done.append(record + struct.pack("<4Bi", *styles, *[255] * (4 - len(styles)), len(data)))
        data += b"".join(blocks)
    return done, bytes(data)


def _light(points: numpy.ndarray, normal: numpy.ndarray, origin: numpy.ndarray, value: float,
           grid: numpy.ndarray) -> numpy.ndarray:
    """Quake's linear point light (value minus distance, half of it at a grazing angle), zero
    where the ray to the light passes through a solid cell or under a floor."""
    ray = origin - points
    distance = numpy.linalg.norm(ray, axis=1)
    angle = (ray @ normal) / numpy.maximum(distance, 1e-6)
    light = numpy.where(angle > 0, numpy.maximum(value - distance, 0) * (0.5 + 0.5 * angle), 0)
    steps = numpy.linspace(0.02, 0.98, 48)
    samples = points[:, None, :] + ray[:, None, :] * steps[None, :, None]
    cx = numpy.clip((samples[..., 0] // CELL).astype(int), 0, COLS - 1)
    cy = numpy.clip((samples[..., 1] // CELL).astype(int), 0, ROWS - 1)
    blocked = (samples[..., 2] < grid[cx, cy]).any(axis=1)
    return numpy.where(blocked, 0, light)


def entities(models: list[str]) -> bytes:
    def block(pairs: dict) -> str:
        lines = []
        for key, value in pairs.items():
            if isinstance(value, tuple):
                value = " ".join(str(v) for v in value)
            lines.append(f'"{key}" "{value}"')
        return "{\n" + "\n".join(lines) + "\n}\n"
    text = block({"classname": "worldspawn", "message": "bspedit demo map", "worldtype": "2"})
    for (name, keys, _, _), model in zip(BRUSHES, models):
        text += block({"classname": name, "model": model, **keys})
    for name, keys in POINTS:
        text += block({"classname": name, **keys})
    return text.encode("ascii") + b"\0"


def demo_map(path: str | Path) -> None:
    """Write the demo map to `path`."""
    grid = floors()
    builder = Builder()
    root, links = world(builder, grid)
    world_faces, world_leaves = len(builder.faces), len(builder.leafs) - 1
    heads, firsts = [root], [0]
    for _, _, (mins, maxs), texture in BRUSHES:
        head, more, first = box_model(builder, mins, maxs, texture)
        heads.append(head)
        firsts.append(first)
        links.extend(more)
    for index, front, back in links:
        builder.nodes[index][1] = [front, back]
    nodes = b"".join(struct.pack("<i2h6h2H", plane, *children, *mins, *maxs, first, count)
                     for plane, children, mins, maxs, first, count in builder.nodes)
    # clip hulls 1 and 2: the same tree, leaves as their contents
    contents = [struct.unpack_from("<i", leaf)[0] for leaf in builder.leafs]
    clip = b"".join(struct.pack("<i2h", plane, *[c if c >= 0 else contents[-1 - c]
                                                 for c in children])
                    for plane, children, *_ in builder.nodes)
    faces, light = lighting(builder, grid, builder.faces)
    planes = b"".join(struct.pack("<4fi", *[float(axis == a) for a in range(3)], dist, axis)
                      for (axis, dist) in builder.planes)
    texinfo = b"".join(struct.pack("<8f2i", *s, 0, *t, 0, list(TEXTURES).index(name), 0)
                       for (s, t, name) in builder.texinfo)
    models = b""
    counts = [*firsts[1:], len(builder.faces)]
    for i, head in enumerate(heads):
        if i == 0:
            mins, maxs = (0, 0, 0), (COLS * CELL, ROWS * CELL, CEILING)
            count = world_faces
        else:
            mins, maxs = BRUSHES[i - 1][2]
            count = counts[i] - firsts[i]
        models += struct.pack("<9f7i", *mins, *maxs, 0, 0, 0, head, head, head, 0,
                              world_leaves if i == 0 else 0, firsts[i], count)
    vertices = b"".join(struct.pack("<3f", *v) for v in builder.vertices)
    edges = b"".join(struct.pack("<2H", *e) for e in builder.edges)
    create(path, "q1", {
        "ENTITIES": entities([f"*{i}" for i in range(1, len(heads))]),
        "PLANES": planes, "TEXTURES": textures(), "VERTEXES": vertices, "NODES": nodes,
        "TEXINFO": texinfo, "FACES": b"".join(faces), "LIGHTING": light, "CLIPNODES": clip,
        "LEAFS": b"".join(builder.leafs),
        "MARKSURFACES": struct.pack(f"<{len(builder.marksurfaces)}H", *builder.marksurfaces),
        "EDGES": edges,
        "SURFEDGES": struct.pack(f"<{len(builder.surfedges)}i", *builder.surfedges),
        "MODELS": models})


if __name__ == "__main__":
    demo_map(sys.argv[1])
