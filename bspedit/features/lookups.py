"""Lookups across lumps, the same for every family (issue 17): a face's texture name, a model's
faces, a leaf's brushes. What differs between engines is the data table `SCHEMES`: which lumps
and fields lead from a face to its name. Records come from `Bsp.records` (read-only views).
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import BspError

if TYPE_CHECKING:
    import numpy

    from ..bsp import Bsp


@dataclass(frozen=True, slots=True)
class Scheme:
    """One engine's way through its lumps."""

    faces: str                              # the lump face numbers index
    texture_hops: tuple[tuple[str, str], ...]   # (lump, field) followed from the face's record
    texture_name: tuple[str, str, str]      # (kind, lump, field): "field" of a record,
    #                                         "miptex" directory entry, "strings" offset
    model_faces: tuple[str, str]            # MODELS fields: first face, face count
    leaf_brushes: tuple[str, str] | None    # LEAFS fields: first leaf brush, count (None: none)


_QUAKE1 = Scheme("FACES", (("FACES", "texinfo"), ("TEXINFO", "miptex")),
                 ("miptex", "TEXTURES", ""), ("firstface", "numfaces"), None)
SCHEMES: dict[str, Scheme] = {      # by Family.engine
    "quake1": _QUAKE1,
    "goldsrc": _QUAKE1,
    "quake2": Scheme("FACES", (("FACES", "texinfo"),), ("field", "TEXINFO", "texture"),
                     ("firstface", "numfaces"), ("firstleafbrush", "numleafbrushes")),
    "quake3": Scheme("SURFACES", (("SURFACES", "shader_num"),), ("field", "SHADERS", "shader"),
                     ("first_surface", "num_surfaces"), ("first_leaf_brush", "num_leaf_brushes")),
    "source": Scheme("FACES", (("FACES", "texinfo"), ("TEXINFO", "texdata"),
                               ("TEXDATA", "name_string_table_id"),
                               ("TEXDATA_STRING_TABLE", "offset")),
                     ("strings", "TEXDATA_STRING_DATA", ""), ("firstface", "numfaces"),
                     ("firstleafbrush", "numleafbrushes")),
}


def scheme(bsp: Bsp) -> Scheme:
    return SCHEMES[bsp.family.engine]


def face_lump(bsp: Bsp, lump: str) -> str:
    """`lump`, or its HDR twin when only that one holds records (Source maps compiled for HDR
    only, such as the Xbox 360 ones, store their faces in FACES_HDR)."""
    hdr = bsp.family.index_of(lump + "_HDR")
    if hdr is None or bsp.lumps[hdr].length <= 0 or bsp.lumps[bsp.lump_index(lump)].length > 0:
        return lump
    return lump + "_HDR"


def _record(bsp: Bsp, lump: str, index: int) -> Any:
    """Record `index` of `lump`; BspError naming both when the map has no such record."""
    records = bsp.records(lump)
    if not 0 <= index < len(records):
        raise BspError(f"{lump} has no record {index} ({len(records)} records)", path=bsp.path)
    return records[index]


def _cstring(data: bytes, start: int, where: str) -> str:
    if not 0 <= start < len(data):
        raise BspError(f"{where}: offset {start} is outside the lump ({len(data)} bytes)")
    end = data.find(b"\0", start)
    return data[start:end if end >= 0 else len(data)].decode("latin-1")


def _miptex_name(bsp: Bsp, lump: str, number: int) -> str:
    """The name of miptex `number` in a Quake 1 / GoldSrc texture lump: int32 count, int32
    offsets, each miptex starting with its 16-byte name. "" for offset -1: a texture the
    compiler left out (engines draw their checkerboard)."""
    data = bsp.content(lump)
    count = struct.unpack_from("<i", data)[0] if len(data) >= 4 else 0
    if not 0 <= number < count or len(data) < 4 + 4 * count:
        raise BspError(f"{lump} has no miptex {number} ({count} in its directory)", path=bsp.path)
    offset = struct.unpack_from("<i", data, 4 + 4 * number)[0]
    if offset == -1:
        return ""
    if offset < 0 or offset + 16 > len(data):
        raise BspError(f"{lump}: miptex {number} has no data (offset {offset})", path=bsp.path)
    return _cstring(data[offset:offset + 16], 0, f"{lump} miptex {number}")


def face_texture(bsp: Bsp, face: int) -> str:
    """The texture (Quake 1/2, GoldSrc), shader (Quake 3) or material (Source) name of face
    (Quake 3: surface) `face`; "" for a Quake 1 / GoldSrc texture left out of the map."""
    plan = scheme(bsp)
    value = face
    for hop, (lump, field) in enumerate(plan.texture_hops):
        value = int(_record(bsp, face_lump(bsp, lump) if hop == 0 else lump, value)[field])
    kind, lump, field = plan.texture_name
    if kind == "field":
        return bytes(_record(bsp, lump, value)[field]).split(b"\0", 1)[0].decode("latin-1")
    if kind == "miptex":
        return _miptex_name(bsp, lump, value)
    try:
        return _cstring(bsp.content(lump), value, lump)
    except BspError as exc:
        raise exc.at(bsp.path)


def model_faces(bsp: Bsp, model: int) -> range:
    """The faces (Quake 3: surfaces) of model `model`, from the MODELS lump."""
    first, count = scheme(bsp).model_faces
    record = _record(bsp, "MODELS", model)
    start = int(record[first])
    return range(start, start + int(record[count]))


def leaf_brushes(bsp: Bsp, leaf: int) -> numpy.ndarray[Any, Any]:
    """The brush indices of leaf `leaf` (through LEAFBRUSHES), a read-only array. BspError
    for families without brushes (Quake 1, GoldSrc)."""
    fields = scheme(bsp).leaf_brushes
    if fields is None:
        raise BspError(f"{bsp.family.key} maps have no brushes", path=bsp.path)
    record = _record(bsp, "LEAFS", leaf)
    start, count = int(record[fields[0]]), int(record[fields[1]])
    brushes = bsp.records("LEAFBRUSHES")["brush"]
    if start < 0 or count < 0 or start + count > len(brushes):
        raise BspError(f"leaf {leaf}: leaf brushes {start}..{start + count} outside LEAFBRUSHES "
                       f"({len(brushes)} records)", path=bsp.path)
    return brushes[start:start + count]
