"""The entities of merged maps: one worldspawn (keys merged, the first map's value kept on a
conflict, GoldSrc `wad` lists joined), brush models renumbered (`model "*N"`), targetname
clashes between maps reported or renamed with everything that targets them."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...format.names import fold
from ...lumps.entities import EntityLump

JOINED = {"wad": ";"}           # worldspawn keys whose values are lists: joined, not conflicting


@dataclass
class EntityReport:
    """What merging the entities did."""

    conflicts: list[dict[str, str]] = field(default_factory=list)  # key, kept, dropped, map
    clashes: list[dict[str, Any]] = field(default_factory=list)     # name, maps
    renamed: list[dict[str, str]] = field(default_factory=list)     # map, old, new


def targetnames(lump: EntityLump) -> dict[str, str]:
    """Folded targetname -> the name as written."""
    names: dict[str, str] = {}
    for entity in lump:
        name = entity.get("targetname")
        if name:
            names.setdefault(fold(name), name)
    return names


def renumber_models(lump: EntityLump, first: int) -> None:
    """Give brush model keys `*N` (N >= 1) the number `first + N - 1`."""
    for entity in lump:
        model = entity.get("model", "")
        if model.startswith("*") and model[1:].isdigit() and int(model[1:]) >= 1:
            entity["model"] = f"*{first + int(model[1:]) - 1}"


def _join(kept: str, extra: str, separator: str) -> str:
    items = [item for item in kept.split(separator) if item]
    seen = {fold(item) for item in items}
    items += [item for item in extra.split(separator) if item and fold(item) not in seen]
    return separator.join(items)


def _merge_worldspawn(lumps: list[EntityLump], names: list[str], report: EntityReport) -> None:
    world = lumps[0].worldspawn
    for lump, name in zip(lumps[1:], names[1:]):
        for key, value in lump.worldspawn.pairs():
            kept = world.get(key)
            if kept is None:
                world[key] = value
            elif fold(key) in JOINED:
                world[key] = _join(kept, value, JOINED[fold(key)])
            elif kept != value:
                report.conflicts.append({"key": key, "kept": kept, "dropped": value, "map": name})


def clashes(lumps: list[EntityLump], names: list[str]) -> list[dict[str, Any]]:
    """Targetnames used in more than one map, with the maps that use them."""
    users: dict[str, tuple[str, list[str]]] = {}
    for lump, name in zip(lumps, names):
        for folded, written in targetnames(lump).items():
            users.setdefault(folded, (written, []))[1].append(name)
    return [{"name": written, "maps": maps} for written, maps in users.values() if len(maps) > 1]


def _rename_clashes(lumps: list[EntityLump], names: list[str], report: EntityReport) -> None:
    """Rename each clashing name in every map but the first that uses it, to `NAME_N` (N: the
    map's position, with a further suffix while that is taken)."""
    taken = {folded for lump in lumps for folded in targetnames(lump)}
    for clash in report.clashes:
        old = str(clash["name"])
        users = [i for i, lump in enumerate(lumps) if fold(old) in targetnames(lump)]
        for i in users[1:]:
            new, n = f"{old}_{i + 1}", 1
            while fold(new) in taken:
                n += 1
                new = f"{old}_{i + 1}_{n}"
            taken.add(fold(new))
            lumps[i].rename_target(old, new)
            report.renamed.append({"map": names[i], "old": old, "new": new})


def merge_entities(lumps: list[EntityLump], names: list[str], model_starts: list[int],
                   rename: bool) -> tuple[bytes, int, EntityReport]:
    """The merged entity text (the first map's, its worldspawn holding every map's keys, then
    every other map's entities but its worldspawn, as written), how many entities it holds,
    and what was done (`model_starts`: the merged number of each map's first brush model).
    The lumps are edited (renumbered, renamed, worldspawn taken out of all but the first)."""
    report = EntityReport()
    report.clashes = clashes(lumps, names)
    if rename:
        _rename_clashes(lumps, names, report)
    for lump, first in zip(lumps, model_starts):
        renumber_models(lump, first)
    _merge_worldspawn(lumps, names, report)
    for lump in lumps[1:]:
        lump.remove(lump.worldspawn)
    texts = [lump.to_bytes() for lump in lumps]
    end = b"\0" if texts[0].endswith(b"\0") else b""
    text = b"".join(t.rstrip(b"\0") for t in texts) + end
    return text, sum(len(lump) for lump in lumps), report
