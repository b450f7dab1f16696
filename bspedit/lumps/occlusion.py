"""The Source OCCLUSION lump (9) as a lossless model (issue 17).

Layout (ksy/source_bsp.ksy occlusion_v1 / occlusion_v2, bspfile.h doccluderdata_t): an occluder
count and the occluders, a polygon count and the polygons, a vertex index count and the indices.
Read with struct rather than the generated Kaitai reader: the model must write back, and the
floats are kept as their bit patterns so NaN payloads and -0.0 survive. Bytes after the vertex
indices are kept as `tail`; a lump whose counts run past its end is kept whole in `raw`, so any
bytes parse and write back.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..errors import BspError
from .structjson import float_bits, float_json

_COUNT = struct.Struct("<i")
_POLY = struct.Struct("<3i")


def read_count(data: bytes, offset: int, item: int, what: str) -> int:
    """A non-negative s4 count at `offset` whose `item`-byte entries fit in `data`."""
    if offset + 4 > len(data):
        raise BspError(f"the lump ends at {len(data)} bytes before the count of {what}",
                       offset=offset)
    count = _COUNT.unpack_from(data, offset)[0]
    if count < 0 or offset + 4 + count * item > len(data):
        raise BspError(f"{count} {what} do not fit in the lump's {len(data)} bytes",
                       offset=offset)
    return int(count)


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

    RECORD: ClassVar[struct.Struct] = struct.Struct("<3i6Ii")
    VERSION: ClassVar[int] = 2

    @classmethod
    def parse(cls, data: bytes) -> Occlusion:
        """Read the lump's bytes; a lump whose counts run past its end is kept in `raw`."""
        try:
            return cls._parse(bytes(data))
        except BspError:
            return cls(raw=bytes(data))

    @classmethod
    def _parse(cls, data: bytes) -> Occlusion:
        size = cls.RECORD.size
        count = read_count(data, 0, size, "occluders")
        occluders = [cls._occluder(cls.RECORD.unpack_from(data, 4 + i * size))
                     for i in range(count)]
        at = 4 + count * size
        count = read_count(data, at, _POLY.size, "occluder polygons")
        polys = [OccluderPoly(*_POLY.unpack_from(data, at + 4 + i * _POLY.size))
                 for i in range(count)]
        at += 4 + count * _POLY.size
        count = read_count(data, at, 4, "occluder vertex indices")
        indices = list(struct.unpack_from(f"<{count}i", data, at + 4))
        at += 4 + 4 * count
        return cls(occluders, polys, indices, bytes(data[at:]))

    @staticmethod
    def _occluder(values: tuple[int, ...]) -> Occluder:
        area = values[9] if len(values) > 9 else None
        return Occluder(values[0], values[1], values[2], (values[3], values[4], values[5]),
                        (values[6], values[7], values[8]), area)

    def _record(self, o: Occluder) -> bytes:
        values = [o.flags, o.firstpoly, o.polycount, *o.mins, *o.maxs]
        return self.RECORD.pack(*values, *([] if o.area is None else [o.area]))

    def to_bytes(self) -> bytes:
        """The lump's bytes."""
        if self.raw is not None:
            return self.raw
        return b"".join([
            _COUNT.pack(len(self.occluders)), *map(self._record, self.occluders),
            _COUNT.pack(len(self.polys)),
            *(_POLY.pack(p.firstvertexindex, p.vertexcount, p.planenum) for p in self.polys),
            _COUNT.pack(len(self.vertex_indices)),
            struct.pack(f"<{len(self.vertex_indices)}i", *self.vertex_indices), self.tail])

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
    def from_json(cls, obj: dict[str, Any]) -> Occlusion:
        """The model of a `to_json` dict."""
        if obj.get("version") != cls.VERSION:
            raise BspError(f"not OCCLUSION version {cls.VERSION} JSON: {obj.get('version')!r}")
        if "raw" in obj:
            return cls(raw=bytes.fromhex(obj["raw"]))

        def corner(values: list[Any]) -> tuple[int, int, int]:
            x, y, z = (float_bits(v) for v in values)
            return x, y, z
        occluders = [Occluder(o["flags"], o["firstpoly"], o["polycount"], corner(o["mins"]),
                              corner(o["maxs"]), o.get("area")) for o in obj["occluders"]]
        return cls(occluders, [OccluderPoly(*p) for p in obj["polys"]],
                   list(obj["vertex_indices"]), bytes.fromhex(obj.get("tail", "")))


@dataclass
class OcclusionV1(Occlusion):
    """OCCLUSION at lump version 1 (source_bsp::occlusion_v1): occluders without `area`."""

    RECORD: ClassVar[struct.Struct] = struct.Struct("<3i6I")
    VERSION: ClassVar[int] = 1
