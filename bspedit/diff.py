"""What differs between two maps: header fields, lumps, entities (by key), pakfile entries."""
from __future__ import annotations

import difflib
import zipfile
from io import BytesIO
from typing import Any

from .bsp import Bsp
from .entities import Entity, EntityLump


def diff_maps(a: Bsp, b: Bsp) -> dict[str, Any]:
    """A JSON-ready description of every difference; `identical` when there is none."""
    header = {field: [getattr(a.header, field), getattr(b.header, field)]
              for field in ("version", "revision", "lump_order")
              if getattr(a.header, field) != getattr(b.header, field)}
    if a.family != b.family:
        header["family"] = [a.family.key, b.family.key]
        return {"identical": False, "header": header, "lumps": [], "moved": []}
    lumps, moved = [], []
    for old, new in zip(a.lumps, b.lumps):
        if a.read_lump(old.index) != b.read_lump(new.index) or \
                (old.version, old.fourcc) != (new.version, new.fourcc):
            lumps.append({"index": old.index, "name": old.name, "length": [old.length, new.length],
                          "version": [old.version, new.version]})
        elif old.offset != new.offset and old.length:
            moved.append({"index": old.index, "name": old.name, "offset": [old.offset, new.offset]})
    result: dict[str, Any] = {"identical": not (header or lumps or moved), "header": header,
                              "lumps": lumps, "moved": moved}
    changed = {entry["index"] for entry in lumps}
    if a.family.entities in changed:
        result["entities"] = diff_entities(a.entities(lenient=True), b.entities(lenient=True))
    pakfile = a.family.index_of(a.family.pakfile) if a.family.pakfile else None
    if pakfile in changed:
        result["pakfile"] = diff_pakfiles(a.read_lump(pakfile), b.read_lump(pakfile))
    return result


def diff_entities(a: EntityLump, b: EntityLump) -> dict[str, list]:
    """Entities added, removed, and changed (matched in file order, by classname)."""
    old, new = list(a), list(b)
    matcher = difflib.SequenceMatcher(a=[tuple(e.pairs()) for e in old],
                                      b=[tuple(e.pairs()) for e in new], autojunk=False)
    added, removed, changed = [], [], []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        unmatched = list(range(j1, j2))
        for i in range(i1, i2):
            partner = next((j for j in unmatched if _classname(new[j]) == _classname(old[i])), None)
            if partner is None:
                removed.append(_describe(i, old[i]))
                continue
            unmatched.remove(partner)
            changed.append({"index": [i, partner], "classname": _classname(old[i]),
                            "keys": _key_changes(old[i].pairs(), new[partner].pairs())})
        added += [_describe(j, new[j]) for j in unmatched]
    return {"added": added, "removed": removed, "changed": changed}


def _classname(entity: Entity) -> str | None:
    return entity.get("classname")


def _describe(index: int, entity: Entity) -> dict[str, Any]:
    return {"index": index, "classname": _classname(entity), "pairs": entity.pairs()}


def _key_changes(old: list[tuple[str, str]], new: list[tuple[str, str]]) -> list[dict]:
    def by_key(pairs: list[tuple[str, str]]) -> dict[str, tuple[str, list[str]]]:
        grouped: dict[str, tuple[str, list[str]]] = {}
        for key, value in pairs:
            grouped.setdefault(key.casefold(), (key, []))[1].append(value)
        return grouped
    before, after = by_key(old), by_key(new)
    changes = []
    for folded in list(before) + [k for k in after if k not in before]:
        old_values = before.get(folded, ("", []))[1]
        new_values = after.get(folded, ("", []))[1]
        if old_values != new_values:
            key = (before.get(folded) or after[folded])[0]
            changes.append({"key": key, "before": old_values, "after": new_values})
    return changes


def diff_pakfiles(a: bytes, b: bytes) -> dict[str, list[str]]:
    """Pakfile entries added, removed, or changed (CRC, size or compression)."""
    def entries(data: bytes) -> dict[str, tuple[int, int, int]]:
        try:
            with zipfile.ZipFile(BytesIO(data)) as pak:
                return {i.filename: (i.CRC, i.file_size, i.compress_type) for i in pak.infolist()}
        except zipfile.BadZipFile:
            return {}
    old, new = entries(a), entries(b)
    return {"added": sorted(new.keys() - old.keys()), "removed": sorted(old.keys() - new.keys()),
            "changed": sorted(n for n in old.keys() & new.keys() if old[n] != new[n])}
