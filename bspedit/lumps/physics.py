"""The Source PHYSCOLLIDE (29) and PHYSDISP (28) lumps as lossless models (issue 17).

Layouts: ksy/source_bsp.ksy phys_collide, phys_disp and phys_disp_v2 (bspfile.h dphysmodel_t,
dphysdisp_t; Strata's version 2 widens the count and sizes to u4).
Read with struct rather than the generated Kaitai readers: the models must write back, and the
collision blobs are opaque bytes that need no field-by-field reading. The physics engine's
blobs and the key-values text are kept as bytes; bytes after the end are kept as `tail`, and a
lump whose sizes run past its end is kept whole in `raw`, so any bytes parse and write back.
Console maps (PSBV, big-endian) are not supported: the layout of their vphysics blobs is not
established, so `parse` and `from_json` refuse `endian` ">" (BspError) rather than misread.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..errors import BspError
from .structjson import blob, unblob

_HEADER = struct.Struct("<4i")
_SIZE = struct.Struct("<i")


def _little_endian_only(endian: str, lump: str) -> None:
    """BspError unless `endian` is "<": these models read PC maps only."""
    if endian != "<":
        raise BspError(f"{lump} is not supported on big-endian (console) maps: the layout of "
                       "their vphysics data is not established")


@dataclass
class PhysModel:
    """dphysmodel_t and what it counts. `data_size` is kept as stored (the terminator's is -1);
    keydataSize and solidCount are the lengths of `key_data` and `solids`."""

    model_index: int
    data_size: int
    solids: list[bytes] = field(default_factory=list)
    key_data: bytes = b""

    @property
    def terminator(self) -> bool:
        """The modelIndex -1 entry that ends the lump."""
        return self.model_index == -1

    def to_bytes(self) -> bytes:
        """The header, the solids (each with its size) and the key text."""
        return b"".join([_HEADER.pack(self.model_index, self.data_size, len(self.key_data),
                                      len(self.solids)),
                         *(_SIZE.pack(len(s)) + s for s in self.solids), self.key_data])


@dataclass
class PhysCollide:
    """PHYSCOLLIDE (whole type source_bsp::phys_collide): the models, the last one the
    modelIndex -1 terminator, then any bytes after it; `raw` holds a lump that does not parse."""

    models: list[PhysModel] = field(default_factory=list)
    tail: bytes = b""
    raw: bytes | None = None

    @classmethod
    def parse(cls, data: bytes, endian: str = "<") -> PhysCollide:
        """Read the lump's bytes; one whose sizes run past its end or that has no terminator is
        kept in `raw`. BspError for a big-endian map's lump (`endian` ">")."""
        _little_endian_only(endian, "PHYSCOLLIDE")
        try:
            return cls._parse(bytes(data))
        except BspError:
            return cls(raw=bytes(data))

    @classmethod
    def _parse(cls, data: bytes) -> PhysCollide:
        """The model; BspError where a size runs past the end or the terminator is missing."""
        models, at = list[PhysModel](), 0
        while True:
            if at + _HEADER.size > len(data):
                raise BspError(f"PHYSCOLLIDE ends at {len(data)} bytes before the modelIndex -1 "
                               "terminator", offset=at)
            index, data_size, key_size, solid_count = _HEADER.unpack_from(data, at)
            at += _HEADER.size
            if key_size < 0 or solid_count < 0:
                raise BspError(f"PHYSCOLLIDE model {index}: negative key data size or solid "
                               "count", offset=at - _HEADER.size)
            solids = []
            for _ in range(solid_count):
                size = _SIZE.unpack_from(data, at)[0] if at + 4 <= len(data) else -1
                if size < 0 or at + 4 + size > len(data):
                    raise BspError(f"PHYSCOLLIDE model {index}: a solid runs past the lump's "
                                   f"{len(data)} bytes", offset=at)
                solids.append(bytes(data[at + 4:at + 4 + size]))
                at += 4 + size
            if at + key_size > len(data):
                raise BspError(f"PHYSCOLLIDE model {index}: key data runs past the lump's "
                               f"{len(data)} bytes", offset=at)
            models.append(PhysModel(index, data_size, solids, bytes(data[at:at + key_size])))
            at += key_size
            if index == -1:
                return cls(models, bytes(data[at:]))

    def to_bytes(self) -> bytes:
        """The lump's bytes."""
        if self.raw is not None:
            return self.raw
        return b"".join(m.to_bytes() for m in self.models) + self.tail

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict that `from_json` turns back into the same bytes: solids in
        base64, the key-values text as a string (Latin-1, so any byte survives)."""
        if self.raw is not None:
            return {"raw": blob(self.raw)}
        out: dict[str, Any] = {"models": [
            {"model_index": m.model_index, "data_size": m.data_size,
             "solids": [blob(s) for s in m.solids], "key_data": m.key_data.decode("latin-1")}
            for m in self.models]}
        if self.tail:
            out["tail"] = blob(self.tail)
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any], endian: str = "<") -> PhysCollide:
        """The model of a `to_json` dict (little-endian maps only)."""
        _little_endian_only(endian, "PHYSCOLLIDE")
        if "raw" in obj:
            return cls(raw=unblob(obj["raw"]))
        return cls([PhysModel(m["model_index"], m["data_size"], [unblob(s) for s in m["solids"]],
                              m["key_data"].encode("latin-1")) for m in obj["models"]],
                   unblob(obj.get("tail", "")))


@dataclass
class PhysDisp:
    """PHYSDISP at lump version 0 (whole type source_bsp::phys_disp): one collision blob per
    displacement; the count and the u2 sizes are those of `blobs`. `raw` holds a lump that
    does not parse."""

    blobs: list[bytes] = field(default_factory=list)
    tail: bytes = b""
    raw: bytes | None = None

    WORD: ClassVar[str] = "H"        # the struct format of the count and the sizes

    @classmethod
    def parse(cls, data: bytes, endian: str = "<") -> PhysDisp:
        """Read the lump's bytes; one whose sizes run past its end is kept in `raw`. BspError
        for a big-endian map's lump (`endian` ">")."""
        _little_endian_only(endian, "PHYSDISP")
        try:
            return cls._parse(bytes(data))
        except BspError:
            return cls(raw=bytes(data))

    @classmethod
    def _parse(cls, data: bytes) -> PhysDisp:
        """The model; BspError where the count or a size runs past the end."""
        width = struct.calcsize(cls.WORD)
        if len(data) < width:
            raise BspError(f"PHYSDISP has {len(data)} bytes, fewer than its count", offset=0)
        count = struct.unpack_from(f"<{cls.WORD}", data)[0]
        if width * (1 + count) > len(data):
            raise BspError(f"PHYSDISP's {count} sizes run past its {len(data)} bytes",
                           offset=width)
        sizes = struct.unpack_from(f"<{count}{cls.WORD}", data, width)
        at, blobs = width * (1 + count), list[bytes]()
        for size in sizes:
            if at + size > len(data):
                raise BspError(f"PHYSDISP blob {len(blobs)} runs past its {len(data)} bytes",
                               offset=at)
            blobs.append(bytes(data[at:at + size]))
            at += size
        return cls(blobs, bytes(data[at:]))

    def to_bytes(self) -> bytes:
        """The lump's bytes; struct.error if a blob is longer than a size holds."""
        if self.raw is not None:
            return self.raw
        return struct.pack(f"<{1 + len(self.blobs)}{self.WORD}", len(self.blobs),
                           *map(len, self.blobs)) + b"".join(self.blobs) + self.tail

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict that `from_json` turns back into the same bytes (base64 blobs)."""
        if self.raw is not None:
            return {"raw": blob(self.raw)}
        out: dict[str, Any] = {"blobs": [blob(b) for b in self.blobs]}
        if self.tail:
            out["tail"] = blob(self.tail)
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any], endian: str = "<") -> PhysDisp:
        """The model of a `to_json` dict (little-endian maps only)."""
        _little_endian_only(endian, "PHYSDISP")
        if "raw" in obj:
            return cls(raw=unblob(obj["raw"]))
        return cls([unblob(b) for b in obj["blobs"]], unblob(obj.get("tail", "")))


@dataclass
class PhysDispV2(PhysDisp):
    """PHYSDISP at lump version 2 of Strata Source v25 maps (source_bsp::phys_disp_v2): the
    count and the sizes are u4."""

    WORD: ClassVar[str] = "I"
