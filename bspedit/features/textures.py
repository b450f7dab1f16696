"""Textures in every family (issue 18): list the names a map gives its faces, and rename them.

What differs between engines is the data table `KINDS`: the lump holding the names, the way
from a face to its texture row, the size of a name field, and how rows are read and renamed.
Quake 1 / GoldSrc / BSP2: miptex entries of TEXTURES (16-byte names); Quake 2: TEXINFO texture
names (32 bytes), one row per distinct name; Quake 3 / Raven: SHADERS (64 bytes); Source:
TEXDATA rows named through TEXDATA_STRING_TABLE offsets into TEXDATA_STRING_DATA (no limit:
the string data is rebuilt and the offsets with it). Names match case-insensitively, ASCII only,
the way the engines' stricmp compares them (`bspedit.format.names.fold`).
"""
from __future__ import annotations

import fnmatch
import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import BspError
from ..format.names import fold
from .lookups import face_lump

if TYPE_CHECKING:
    import numpy

    from ..bsp import Bsp

MATCHES = ("exact", "glob", "regex")


@dataclass(frozen=True, slots=True)
class TextureRow:
    """One texture: `index` of its row (miptex slot, first TEXINFO, SHADERS or TEXDATA record),
    its name, its size when the map stores it, the faces (Quake 3: surfaces) using it, and the
    family's own columns (`details`)."""

    index: int
    name: str
    width: int | None
    height: int | None
    faces: int
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "name": self.name, "width": self.width,
                "height": self.height, "faces": self.faces, "details": dict(self.details)}


@dataclass(frozen=True, slots=True)
class RenameReport:
    """What a rename did: (old, new) name pairs, the faces using them, the lumps changed."""

    renamed: list[tuple[str, str]]
    faces: int
    lumps: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {"renamed": [{"old": old, "new": new} for old, new in self.renamed],
                "faces": self.faces, "lumps": list(self.lumps)}


@dataclass(frozen=True, slots=True)
class Kind:
    """One engine's textures."""

    lump: str                                   # the lump holding the names
    hops: tuple[tuple[str, str], ...]           # (lump, field) from a face to its texture row
    name_size: int | None                       # bytes of a name field incl. NUL (None: any)
    rows: Callable[[Bsp, Any], list[TextureRow]]    # (bsp, face counts per row) -> rows
    rename: Callable[[Bsp, dict[str, str]], list[str]]  # (bsp, old -> new) -> changed lumps


def _face_counts(bsp: Bsp, hops: tuple[tuple[str, str], ...], size: int) -> numpy.ndarray[Any, Any]:
    """Faces per texture row (0..size-1), following `hops`; out-of-range indices are skipped."""
    import numpy as np

    lump, name = hops[0]
    index = bsp.records(face_lump(bsp, lump))[name].astype(np.int64)
    for lump, name in hops[1:]:
        table = bsp.records(lump)[name]
        index = table[index[(index >= 0) & (index < len(table))]].astype(np.int64)
    return np.bincount(index[(index >= 0) & (index < size)], minlength=size)


def structure(bsp: Bsp, lump: str) -> Any:
    """The model class of the map's `lump` (`bspedit.lumps.structures`, bound to the map's byte
    order on console maps); None when the map has no such lump or the lump no variable-size
    model."""
    from ..lumps.structures import structure_for

    try:
        stored = bsp.lumps[bsp.lump_index(lump)]
    except BspError:
        return None
    return structure_for(bsp.family.key, stored.name, stored.version, bsp.header.version,
                         bsp.header.endian)


def _model(bsp: Bsp, lump: str) -> Any:
    """The lump's structure model, parsed from its uncompressed bytes."""
    model: Any = structure(bsp, lump)
    if model is None:
        raise BspError(f"{lump} has no structure model in {bsp.family.key} maps", path=bsp.path)
    return model.parse(bsp.content(lump))


def _store(bsp: Bsp, lump: str, data: bytes) -> bool:
    """Give `lump` these uncompressed bytes (compressed again if it was stored so, the stored
    bytes kept when they hold the same); whether the lump changed."""
    if bsp.content(lump) == data:
        return False
    bsp.replace_content(lump, data)
    return True


def _text(raw: bytes) -> str:
    return raw.partition(b"\0")[0].decode("latin-1")


def _renamed_field(raw: bytes, new: str) -> bytes:
    """A name field's bytes (numpy's, trailing NULs dropped) with `new` written over the old
    name: zeros up to the old NUL, the bytes after it (compiler fill) kept."""
    name = new.encode("ascii")
    nul = raw.find(b"\0")
    old_end = len(raw) if nul < 0 else nul + 1
    head = name.ljust(max(old_end, len(name) + 1), b"\0")
    return head + raw[len(head):]


# -- Quake 1, GoldSrc, BSP2: the miptex directory ----------------------------------------------
def _miptex_rows(bsp: Bsp, counts: Callable[[int], Any]) -> list[TextureRow]:
    lump = _model(bsp, "TEXTURES")
    faces = counts(len(lump.offsets))
    rows = []
    for slot in range(len(lump.offsets)):
        entry = lump.texture(slot)
        if entry is None:       # offset -1: left out by the compiler (a checkerboard in game)
            rows.append(TextureRow(slot, "", None, None, int(faces[slot]),
                                   {"external": False, "missing": True}))
        else:
            rows.append(TextureRow(slot, entry.text, entry.width, entry.height, int(faces[slot]),
                                   {"external": entry.external, "missing": False}))
    return rows


def _miptex_rename(bsp: Bsp, plan: dict[str, str]) -> list[str]:
    lump = _model(bsp, "TEXTURES")
    for entry in lump.entries:
        if entry.text in plan:
            entry.rename(plan[entry.text])
    return ["TEXTURES"] if _store(bsp, "TEXTURES", lump.to_bytes()) else []


# -- Quake 2 (TEXINFO names), Quake 3 / Raven (SHADERS): a name field in the records ----------
def _texinfo_rows(bsp: Bsp, counts: Callable[[int], Any]) -> list[TextureRow]:
    texinfo = bsp.records("TEXINFO")
    faces = counts(len(texinfo))
    rows: dict[str, dict[str, Any]] = {}
    for n, record in enumerate(texinfo):
        row = rows.setdefault(_text(bytes(record["texture"])),
                              {"index": n, "faces": 0, "texinfos": 0, "flags": set(), "value": set()})
        row["faces"] += int(faces[n])
        row["texinfos"] += 1
        row["flags"].add(int(record["flags"]))
        row["value"].add(int(record["value"]))
    return [TextureRow(row["index"], name, None, None, row["faces"],
                       {"texinfos": row["texinfos"], "flags": sorted(row["flags"]),
                        "value": sorted(row["value"])}) for name, row in rows.items()]


def _shader_rows(bsp: Bsp, counts: Callable[[int], Any]) -> list[TextureRow]:
    shaders = bsp.records("SHADERS")
    faces = counts(len(shaders))
    return [TextureRow(n, _text(bytes(record["shader"])), None, None, int(faces[n]),
                       {"surface_flags": int(record["surface_flags"]),
                        "content_flags": int(record["content_flags"])})
            for n, record in enumerate(shaders)]


def _field_rename(lump: str, name: str) -> Callable[[Bsp, dict[str, str]], list[str]]:
    """Renaming in the `name` field of `lump`'s records (through the writable records)."""
    def rename(bsp: Bsp, plan: dict[str, str]) -> list[str]:
        records = bsp.records(lump, writable=True)
        column, changed = records[name], False
        for n, raw in enumerate(column.tolist()):
            old = _text(raw)
            if old in plan:
                column[n] = _renamed_field(raw, plan[old])
                changed = changed or column[n] != raw
        return [lump] if changed else []
    return rename


# -- Source: TEXDATA named through the string table --------------------------------------------
def _texdata_rows(bsp: Bsp, counts: Callable[[int], Any]) -> list[TextureRow]:
    texdata = bsp.records("TEXDATA")
    table = bsp.records("TEXDATA_STRING_TABLE")["offset"]
    strings = _model(bsp, "TEXDATA_STRING_DATA")
    faces = counts(len(texdata))
    rows = []
    for n, record in enumerate(texdata):
        entry = int(record["name_string_table_id"])
        if not 0 <= entry < len(table):
            raise BspError(f"TEXDATA {n}: string table entry {entry} outside "
                           f"TEXDATA_STRING_TABLE ({len(table)} entries)", path=bsp.path)
        try:
            name = strings.string_at(int(table[entry]))
        except IndexError as exc:
            raise BspError(f"TEXDATA {n}: {exc}", path=bsp.path) from None
        reflectivity = record["reflectivity"]
        rows.append(TextureRow(n, name, int(record["width"]), int(record["height"]),
                               int(faces[n]), {"reflectivity": [float(reflectivity[axis])
                                                                for axis in "xyz"],
                                               "string_table_id": entry}))
    return rows


def _texdata_rename(bsp: Bsp, plan: dict[str, str]) -> list[str]:
    """Rebuild the string data with the renamed strings in their places (every other byte
    kept) and move the string table's offsets with their strings. String data as vbsp writes
    it (the table's strings in its order, each once) stays so, so a rename and its inverse
    give back the lump's bytes whatever the length of the name between them."""
    strings = _model(bsp, "TEXDATA_STRING_DATA")
    table = bsp.records("TEXDATA_STRING_TABLE", writable=True)
    offsets: list[int] = table["offset"].tolist()
    referenced = set(offsets)
    parts: list[bytes] = []
    starts: list[int] = []
    moved: list[int] = []
    at = 0
    renamed: set[int] = set()
    for start, name in strings.strings:
        new = plan.get(name) if start in referenced else None
        if new is not None:
            renamed.add(start)
        text = (name if new is None else new).encode("latin-1")
        starts.append(start)
        moved.append(at - start)
        parts.append(text + b"\0")
        at += len(text) + 1
    tail_start = len(strings.data) - len(strings.tail)
    starts.append(tail_start)
    moved.append(at - tail_start)
    parts.append(strings.tail)

    def relocated(offset: int) -> int:
        k = bisect_right(starts, offset) - 1
        if not 0 <= offset < len(strings.data) or k < 0:
            return offset
        if starts[k] in renamed and offset != starts[k]:
            raise BspError(f"TEXDATA_STRING_TABLE offset {offset} points into the renamed "
                           f"name at {starts[k]}; refused, nothing changed", path=bsp.path)
        return offset + moved[k]

    new_offsets = [relocated(o) for o in offsets]
    changed = []
    if new_offsets != offsets:
        table["offset"] = new_offsets
        changed.append("TEXDATA_STRING_TABLE")
    strings.data = b"".join(parts)
    if _store(bsp, "TEXDATA_STRING_DATA", strings.to_bytes()):
        changed.insert(0, "TEXDATA_STRING_DATA")
    return changed


_MIPTEX = Kind("TEXTURES", (("FACES", "texinfo"), ("TEXINFO", "miptex")), 16,
               _miptex_rows, _miptex_rename)
KINDS: dict[str, Kind] = {      # by Family.engine
    "quake1": _MIPTEX,
    "goldsrc": _MIPTEX,
    "quake2": Kind("TEXINFO", (("FACES", "texinfo"),), 32, _texinfo_rows,
                   _field_rename("TEXINFO", "texture")),
    "quake3": Kind("SHADERS", (("SURFACES", "shader_num"),), 64, _shader_rows,
                   _field_rename("SHADERS", "shader")),
    "source": Kind("TEXDATA_STRING_DATA", (("FACES", "texinfo"), ("TEXINFO", "texdata")), None,
                   _texdata_rows, _texdata_rename),
}


def kind(bsp: Bsp) -> Kind:
    return KINDS[bsp.family.engine]


def list_textures(bsp: Bsp) -> list[TextureRow]:
    """Every texture (material, shader) the map names, with the faces using it."""
    plan = kind(bsp)
    return plan.rows(bsp, lambda size: _face_counts(bsp, plan.hops, size))


def matcher(old: str, new: str, match: str = "exact") -> Callable[[str], str | None]:
    """name -> its new name, or None when `old` does not match it (case-insensitively, ASCII).
    exact: the whole name; glob: an fnmatch pattern (`new` is the name); regex: a full match,
    `new` a replacement template (\\1, \\g<name>)."""
    if match == "exact":
        wanted = fold(old)
        return lambda name: new if fold(name) == wanted else None
    if match == "glob":
        pattern = fold(old)
        return lambda name: new if fnmatch.fnmatchcase(fold(name), pattern) else None
    if match == "regex":
        try:
            regex = re.compile(old, re.IGNORECASE | re.ASCII)
        except re.error as exc:
            raise BspError(f"bad regular expression {old!r}: {exc}") from None

        def replace(name: str) -> str | None:
            found = regex.fullmatch(name)
            try:
                return None if found is None else found.expand(new)
            except (re.error, IndexError) as exc:
                raise BspError(f"bad replacement {new!r}: {exc}") from None
        return replace
    raise BspError(f"unknown match {match!r} (one of {', '.join(MATCHES)})")


def rename_textures(bsp: Bsp, old: str, new: str, match: str = "exact") -> RenameReport:
    """Rename the textures matching `old` (see `matcher`) in the map's views (`save` stores
    them). A new name that is empty, not ASCII or too long for the family's name field is
    refused with BspError naming the limit, nothing changed. Nothing matched: an empty report."""
    plan_of = matcher(old, new, match)
    textures = kind(bsp)
    rows = list_textures(bsp)
    plan: dict[str, str] = {}
    faces = 0
    for row in rows:
        renamed = plan_of(row.name) if row.name else None      # a missing miptex has no name
        if renamed is not None:
            plan[row.name] = renamed
            faces += row.faces
    for name in plan.values():
        if not name or not name.isascii() or "\0" in name:
            raise BspError(f"texture name {name!r}: needs 1 or more ASCII characters, no NUL; "
                           f"nothing changed", path=bsp.path)
        if textures.name_size is not None and len(name) >= textures.name_size:
            raise BspError(f"texture name {name!r} has {len(name)} characters: {textures.lump} "
                           f"names hold at most {textures.name_size - 1} ({textures.name_size} "
                           f"bytes with the NUL); nothing changed", path=bsp.path)
    lumps = textures.rename(bsp, plan) if plan else []
    return RenameReport(sorted(plan.items()), faces, lumps)
