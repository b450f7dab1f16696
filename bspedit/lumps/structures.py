"""Models of the variable-size lumps and game lump members, looked up by the Kaitai type
names the generated lump tables mark `whole` (bspedit.format.recordtypes).

Every model class has `parse(data) -> model` (classmethod), `to_bytes()`, `to_json()` (a
JSON-safe dict) and `from_json(obj)` (classmethod), with `parse(d).to_bytes() == d` and
`from_json(to_json()).to_bytes() == d` for any bytes. Lumps that are only bytes (lighting,
Quake 2's POP, BSPX RGBLIGHTING; for now Strata's OVERLAYS version 3) have no model: the
lookups return None for them. Model modules are imported when looked up, so importing this
module stays cheap.

Models of the types whose specs switch byte order (Source: `BYTE_ORDER_SPECS`) also take
`endian` ("<" or ">") in `parse` and `from_json`: console maps (PSBV) are big-endian. The lookups
given `endian` ">" return the model bound to that order (`InByteOrder`); a model whose console
layout is unknown raises BspError there.
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any, Protocol

from ..format.recordtypes import game_lump_type, lump_type


class Structure(Protocol):
    """What every model offers (the dump CLI relies on exactly these four names)."""

    @classmethod
    def parse(cls, data: bytes) -> Structure: ...

    def to_bytes(self) -> bytes: ...

    def to_json(self) -> dict[str, Any]: ...

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Structure: ...


class Model(Protocol):
    """What the lookups return: a model class, or one bound to a byte order (`InByteOrder`)."""

    def parse(self, data: bytes) -> Structure: ...

    def from_json(self, obj: dict[str, Any]) -> Structure: ...


# Kaitai type ("spec::type") -> "module:Class" under bspedit.
LUMP_MODELS: dict[str, str] = {
    "quake1_bsp::miptex_lump": "miptex:MiptexLump",
    "quake1_bsp::miptex_lump_goldsrc": "miptex:GoldSrcMiptexLump",
    "quake1_bsp::visibility": "visibility:Quake1Visibility",
    "quake2_bsp::visibility": "visibility:ClusterVisibility",
    "source_bsp::visibility": "visibility:ClusterVisibility",
    "quake3_bsp::visibility": "visibility:Quake3Visibility",
    "source_bsp::texdata_string_data": "texdata:TexdataStringData",
    "source_bsp::occlusion_v1": "occlusion:OcclusionV1",
    "source_bsp::occlusion_v2": "occlusion:Occlusion",
    "source_bsp::phys_collide": "physics:PhysCollide",
    "source_bsp::phys_disp": "physics:PhysDisp",
    "source_bsp::phys_disp_v2": "physics:PhysDispV2",
}

GAME_LUMP_MODELS: dict[str, str] = {
    "source_game_lumps::detail_props_v4": "detailprops:DetailProps",
    "source_game_lumps::detail_prop_lighting": "detailprops:DetailPropLighting",
}

# BSPX lump name -> "module:Class"; lumps that are only bytes (RGBLIGHTING, LIGHTINGDIR) have none.
BSPX_MODELS: dict[str, str] = {
    "BRUSHLIST": "brushlist:BrushList",
}


def _load(target: str | None) -> type | None:
    if target is None:
        return None
    module, name = target.split(":")
    found: type = getattr(import_module(f"{__package__}.{module}"), name)
    return found


@dataclass(frozen=True, slots=True)
class InByteOrder:
    """A model class reading and writing numbers in byte order `endian` (">": console maps)."""

    model: Any
    endian: str

    def parse(self, data: bytes) -> Structure:
        """The model of `data`, read in this byte order."""
        found: Structure = self.model.parse(data, endian=self.endian)
        return found

    def from_json(self, obj: dict[str, Any]) -> Structure:
        """The model of `obj` (`to_json`'s), written back in this byte order."""
        found: Structure = self.model.from_json(obj, endian=self.endian)
        return found


def _in_order(model: Any, endian: str) -> Model | None:
    """`model` itself for little-endian maps, else bound to `endian`."""
    return model if model is None or endian == "<" else InByteOrder(model, endian)


def model_for_type(type_name: str, endian: str = "<") -> Model | None:
    """The model class of Kaitai type `type_name` (bound to byte order `endian` when ">"), or
    None."""
    return _in_order(_load(LUMP_MODELS.get(type_name) or GAME_LUMP_MODELS.get(type_name)), endian)


def structure_for(family_key: str, lump: str, lump_version: int = 0,
                  map_version: int | None = None, endian: str = "<") -> Model | None:
    """The model class of `lump` in a map of family `family_key` (e.g. "goldsrc",
    "TEXTURES", 0, 30), bound to byte order `endian` when ">", or None when the lump has no
    variable-size model."""
    entry = lump_type(family_key, lump, lump_version, map_version)
    return None if entry is None or not entry.whole \
        else _in_order(_load(LUMP_MODELS.get(entry.type)), endian)


def game_structure_for(family_key: str, lump_id: str, version: int,
                       endian: str = "<") -> Model | None:
    """The model class of game lump member `lump_id` (e.g. "dprp") at `version` (bound to
    byte order `endian` when ">"), or None."""
    entry = game_lump_type(family_key, lump_id, version)
    return None if entry is None or not entry.whole \
        else _in_order(_load(GAME_LUMP_MODELS.get(entry.type)), endian)


def bspx_structure_for(name: str) -> type | None:
    """The model class of the BSPX lump `name` (e.g. "BRUSHLIST"), or None."""
    return _load(BSPX_MODELS.get(name.upper()))
