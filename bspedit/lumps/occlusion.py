"""The Source OCCLUSION lump (9) as a lossless model (issue 17).

Layout (ksy/source_bsp.ksy occlusion_v1 / occlusion_v2, bspfile.h doccluderdata_t): an occluder
count and the occluders, a polygon count and the polygons, a vertex index count and the indices.
Read with struct rather than the generated Kaitai reader: the model must write back, and the
floats are kept as their bit patterns so NaN payloads and -0.0 survive. Bytes after the vertex
indices are kept as `tail`; a lump whose counts run past its end is kept whole in `raw`, so any
bytes parse and write back. Console maps (PSBV) store the same numbers big-endian: `endian` ">".
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..errors import BspError
from .counts import read_count
from .structjson import float_bits, float_json

_POLY = "3i"          # doccluderpolydata_t, without its byte order
_POLY_SIZE = struct.calcsize(_POLY)


@dataclass
class Occluder:
    """doccluderdata_t; `mins` and `maxs` as float32 bit patterns, `area` None in version 1."""

    flags: int
    firstpoly: int
    polycount: int
    mins: tuple[int, int, int]
    maxs: tuple[int, int, int]
    area: int | None = None


@dataclass
class OccluderPoly:
    """doccluderpolydata_t."""

    firstvertexindex: int
    vertexcount: int
    planenum: int


@dataclass
class Occlusion:
    """OCCLUSION at lump version 2 (whole type source_bsp::occlusion_v2); `raw` holds a lump
    that does not parse (the other fields are then empty)."""

    occluders: list[Occluder] = field(default_factory=list)
    polys: list[OccluderPoly] = field(default_factory=list)
    vertex_indices: list[int] = field(default_factory=list)
    tail: bytes = b""
    raw: bytes | None = None
    endian: str = "<"            # byte order of the numbers (">" on console maps)

    RECORD: ClassVar[str] = "3i6Ii"      # doccluderdata_t, without its byte order
    VERSION: ClassVar[int] = 2

    @classmethod
    def parse(cls, data: bytes, endian: str = "<") -> Occlusion:
        """Read the lump's bytes (numbers in byte order `endian`); a lump whose counts run past
        its end is kept in `raw`."""
        try:
            return cls._parse(bytes(data), endian)
        except BspError:
            return cls(raw=bytes(data), endian=endian)

    @classmethod
    def _parse(cls, data: bytes, endian: str) -> Occlusion:
        record = struct.Struct(endian + cls.RECORD)
        count = read_count(data, 0, record.size, "occluders", endian)
        occluders = [cls._occluder(record.unpack_from(data, 4 + i * record.size))
                     for i in range(count)]
        at = 4 + count * record.size
        count = read_count(data, at, _POLY_SIZE, "occluder polygons", endian)
        flat = struct.unpack_from(f"{endian}{3 * count}i", data, at + 4)
        polys = [OccluderPoly(*flat[i:i + 3]) for i in range(0, len(flat), 3)]
        at += 4 + count * _POLY_SIZE
        count = read_count(data, at, 4, "occluder vertex indices", endian)
        indices = list(struct.unpack_from(f"{endian}{count}i", data, at + 4))
        at += 4 + 4 * count
        return cls(occluders, polys, indices, bytes(data[at:]), endian=endian)

    @staticmethod
    def _occluder(values: tuple[int, ...]) -> Occluder:
        area = values[9] if len(values) > 9 else None
        return Occluder(values[0], values[1], values[2], (values[3], values[4], values[5]),
                        (values[6], values[7], values[8]), area)

    def _record(self, o: Occluder) -> bytes:
        values = [o.flags, o.firstpoly, o.polycount, *o.mins, *o.maxs]
        return struct.pack(self.endian + self.RECORD, *values,
                           *([] if o.area is None else [o.area]))

    def to_bytes(self) -> bytes:
        """The lump's bytes."""
        if self.raw is not None:
            return self.raw
        order, count = self.endian, len(self.vertex_indices)
        polys = [v for p in self.polys for v in (p.firstvertexindex, p.vertexcount, p.planenum)]
        return b"".join([
            struct.pack(order + "i", len(self.occluders)), *map(self._record, self.occluders),
            struct.pack(f"{order}i{len(polys)}i", len(self.polys), *polys),
            struct.pack(f"{order}i{count}i", count, *self.vertex_indices), self.tail])

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict that `from_json` turns back into the same bytes."""
        if self.raw is not None:
            return {"version": self.VERSION, "raw": self.raw.hex()}

        def occluder(o: Occluder) -> dict[str, Any]:
            out: dict[str, Any] = {"flags": o.flags, "firstpoly": o.firstpoly,
                                   "polycount": o.polycount,
                                   "mins": [float_json(b) for b in o.mins],
                                   "maxs": [float_json(b) for b in o.maxs]}
            if o.area is not None:
                out["area"] = o.area
            return out
        out: dict[str, Any] = {
            "version": self.VERSION,
            "occluders": [occluder(o) for o in self.occluders],
            "polys": [[p.firstvertexindex, p.vertexcount, p.planenum] for p in self.polys],
            "vertex_indices": list(self.vertex_indices)}
        if self.tail:
            out["tail"] = self.tail.hex()
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any], endian: str = "<") -> Occlusion:
        """The model of a `to_json` dict, writing numbers in byte order `endian`."""
        if obj.get("version") != cls.VERSION:
            raise BspError(f"not OCCLUSION version {cls.VERSION} JSON: {obj.get('version')!r}")
        if "raw" in obj:
            return cls(raw=bytes.fromhex(obj["raw"]), endian=endian)

        def corner(values: list[Any]) -> tuple[int, int, int]:
            x, y, z = (float_bits(v) for v in values)
            return x, y, z
        occluders = [Occluder(o["flags"], o["firstpoly"], o["polycount"], corner(o["mins"]),
                              corner(o["maxs"]), o.get("area")) for o in obj["occluders"]]
        return cls(occluders, [OccluderPoly(*p) for p in obj["polys"]],
                   list(obj["vertex_indices"]), bytes.fromhex(obj.get("tail", "")), endian=endian)


@dataclass
class OcclusionV1(Occlusion):
    """OCCLUSION at lump version 1 (source_bsp::occlusion_v1): occluders without `area`."""

    RECORD: ClassVar[str] = "3i6I"
    VERSION: ClassVar[int] = 1
