"""The BSPX BRUSHLIST lump (ericw-tools, Quake 1): the brushes of each model for engines'
collision. Layout, little-endian, repeated per model: version (1), model number, brush count,
plane count (int32 each); then per brush: mins and maxs (3 float32 each), contents (int16),
plane count (uint16), then its planes (normal: 3 float32, dist: float32).

Floats are kept as their 32-bit patterns (NaN payloads and -0.0 survive) and shown in JSON as
numbers, or {"bits": n} where no JSON number gives them back. Bytes after the last model that
do not form one are kept in `tail`; a lump whose counts do not fit is kept in `raw`.
Read with `struct`: there is no Kaitai spec for BSPX lumps.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Any

from .structjson import blob, float_bits, float_json, unblob

_MODEL = struct.Struct("<4i")
_BRUSH = struct.Struct("<6IhH")
_PLANE = struct.Struct("<4I")


def _value(bits: int) -> float:
    found: float = struct.unpack("<f", struct.pack("<I", bits))[0]
    return found


@dataclass(eq=False, slots=True)
class Brush:
    """One brush: bounds and planes as float32 bit patterns, contents as stored."""

    bounds: tuple[int, ...]                      # mins x, y, z, maxs x, y, z
    contents: int
    planes: list[tuple[int, int, int, int]] = field(default_factory=list)  # normal, dist

    @property
    def mins(self) -> tuple[float, ...]:
        return tuple(_value(b) for b in self.bounds[:3])

    @property
    def maxs(self) -> tuple[float, ...]:
        return tuple(_value(b) for b in self.bounds[3:])

    def to_json(self) -> dict[str, Any]:
        return {"mins": [float_json(b) for b in self.bounds[:3]],
                "maxs": [float_json(b) for b in self.bounds[3:]], "contents": self.contents,
                "planes": [[float_json(b) for b in plane] for plane in self.planes]}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Brush:
        bounds = tuple(float_bits(v) for v in [*obj["mins"], *obj["maxs"]])
        planes = [tuple(float_bits(v) for v in plane) for plane in obj["planes"]]
        return cls(bounds, obj["contents"], planes)   # type: ignore[arg-type]


@dataclass(eq=False, slots=True)
class BrushModel:
    """One model's entry: its header as stored and its brushes."""

    version: int
    model: int
    num_planes: int                              # as stored (the sum of the brushes' planes)
    brushes: list[Brush] = field(default_factory=list)


@dataclass(eq=False, slots=True)
class BrushList:
    """The BRUSHLIST lump: `models`, then `tail`; or `raw` when it does not parse."""

    models: list[BrushModel] = field(default_factory=list)
    tail: bytes = b""
    raw: bytes | None = None

    @classmethod
    def parse(cls, data: bytes) -> BrushList:
        data, models, at = bytes(data), [], 0
        while at + _MODEL.size <= len(data):
            version, model, num_brushes, num_planes = _MODEL.unpack_from(data, at)
            found = _brushes(data, at + _MODEL.size, num_brushes)
            if version != 1 or found is None:
                break
            brushes, at = found
            models.append(BrushModel(version, model, num_planes, brushes))
        if not models and data:
            return cls(raw=data)
        return cls(models, data[at:])

    def to_bytes(self) -> bytes:
        if self.raw is not None:
            return self.raw
        out = bytearray()
        for entry in self.models:
            out += _MODEL.pack(entry.version, entry.model, len(entry.brushes), entry.num_planes)
            for brush in entry.brushes:
                out += _BRUSH.pack(*brush.bounds, brush.contents, len(brush.planes))
                for plane in brush.planes:
                    out += _PLANE.pack(*plane)
        return bytes(out) + self.tail

    def to_json(self) -> dict[str, Any]:
        if self.raw is not None:
            return {"raw": blob(self.raw)}
        return {"models": [{"version": m.version, "model": m.model, "num_planes": m.num_planes,
                            "brushes": [b.to_json() for b in m.brushes]} for m in self.models],
                "tail": blob(self.tail)}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> BrushList:
        if "raw" in obj:
            return cls(raw=unblob(obj["raw"]))
        return cls([BrushModel(m["version"], m["model"], m["num_planes"],
                               [Brush.from_json(b) for b in m["brushes"]])
                    for m in obj["models"]], unblob(obj["tail"]))


def _brushes(data: bytes, at: int, count: int) -> tuple[list[Brush], int] | None:
    """`count` brushes from `at` and where they end, or None when they do not fit."""
    if count < 0:
        return None
    brushes = []
    for _ in range(count):
        if at + _BRUSH.size > len(data):
            return None
        *bounds, contents, num_planes = _BRUSH.unpack_from(data, at)
        at += _BRUSH.size
        if at + num_planes * _PLANE.size > len(data):
            return None
        planes = [_PLANE.unpack_from(data, at + k * _PLANE.size) for k in range(num_planes)]
        at += num_planes * _PLANE.size
        brushes.append(Brush(tuple(bounds), contents, planes))
    return brushes, at
