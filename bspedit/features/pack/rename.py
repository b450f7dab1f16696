"""Renaming a pakfile entry (`pak rename`, the ui's Pakfile view), and with it, on request,
the references the map makes to it: the materials in the pakfile (.vmt text) and the entity
keys that name the old path, in whatever form they name it (`renamed_value`).

The entry keeps its stored bytes and its place in the zip (`Pakfile.rename`). A material is
rewritten token by token, every other byte kept, and packed again as it was stored (LZMA
when it was); an entity key's value is replaced in place. Texture data (TEXDATA_STRING_DATA)
is not a reference this renames (`tex rename` renames the map's materials): the TEXDATA rows
that name a renamed material are reported.
"""
from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...errors import BspError

if TYPE_CHECKING:
    from ...bsp import Bsp
    from ...lumps.entities import Entity
    from ...lumps.pakfile import Pakfile

#: the top folders where a value may leave out the folder (and, for materials, the extension)
_IMPLIED = {"materials": (".vmt", ".vtf"), "sound": ()}
#: the kind of value that may name a file without its extension
_BARE = {"material": ".vmt", "texture": ".vtf"}
#: a token of KeyValues text (a .vmt): a comment, a quoted string, a brace or a bare word
_TOKEN = re.compile(r'//[^\n]*|"([^"\n]*)"|([{}])|([^\s"{}]+)')
#: the largest material read for references (bytes)
MATERIAL_BYTES = 1 << 20


@dataclass
class References:
    """What names a pak path: materials in the pakfile (path -> their text with the old
    path's mentions replaced, and how many), entity keys ((entity index, key, occurrence
    among the entity's pairs of that key, old value, new value))."""

    materials: dict[str, tuple[bytes, int]] = field(default_factory=dict)
    keys: list[tuple[int, str, int, str, str]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"materials": [{"path": p, "mentions": n} for p, (_, n) in
                              self.materials.items()],
                "keys": [{"entity": i, "key": k, "occurrence": o, "before": b, "after": a}
                         for i, k, o, b, a in self.keys]}


def renamed_value(value: str, old: str, new: str, kind: str | None = None) -> str | None:
    """`value` rewritten to name `new` when it names `old` (both `asset_path`s) as a map's
    keys and materials do: the whole path; under materials/ and sound/, the path without that
    folder (sound characters such as `*` or `#` kept in front); a material (`kind`
    "material": .vmt) or texture ("texture": .vtf) without its extension too. None when it
    names something else, or when `new` cannot be named in its form (a material moved out of
    materials/)."""
    from .model import asset_path
    from .sounds import SOUND_CHARS

    top = old.partition("/")[0]
    lead, body = "", value.strip()
    if top == "sound":
        lead = body[:len(body) - len(body.lstrip(SOUND_CHARS))]
        body = body[len(lead):]
    path = asset_path(body)
    if not path or top not in _IMPLIED:
        return new if path == old else None
    ext = os.path.splitext(old)[1]
    prefixed = path.startswith(top + "/")
    bare = _BARE.get(kind or "") == ext and not path.endswith(ext)
    full = (path if prefixed else f"{top}/{path}") + (ext if bare else "")
    if full != old or not new.startswith(top + "/") or (bare and not new.endswith(ext)):
        return None
    out = new if prefixed else new[len(top) + 1:]
    return lead + (out[:-len(ext)] if bare else out)


def find_references(pak: Pakfile, entities: Sequence[Entity], old: str, new: str) -> References:
    """The materials in the pakfile and the entity keys that name `old`, and what they become
    when it is renamed `new` (`renamed_value`; a value without extension is judged by its key:
    a material's parameter type (srctools), an entity key's asset kind (`entity_assets`)).
    Material text is rewritten token by token, every other byte kept; a material that cannot
    be read is left alone."""
    from .entity_assets import asset_keys
    from .model import asset_path

    old, new = asset_path(old), asset_path(new)
    found = References()
    for item in pak.entries:
        if not item.key.endswith(".vmt") or item.key in (old, new) or item.size > MATERIAL_BYTES:
            continue
        try:
            text = pak.read(item).decode("utf-8", errors="surrogateescape")
        except BspError:
            continue
        changed, mentions = _rewrite_material(text, old, new)
        if mentions:
            found.materials[item.name] = (changed.encode("utf-8", errors="surrogateescape"),
                                          mentions)
    for index, entity in enumerate(entities):
        kinds = {key.lower(): kind for key, kind in asset_keys(entity.get("classname", ""))}
        seen: dict[str, int] = {}
        for key, value in entity.pairs():
            occurrence = seen.get(key, 0)
            seen[key] = occurrence + 1
            after = renamed_value(value, old, new, kinds.get(key.lower()))
            if after is not None and after != value:
                found.keys.append((index, key, occurrence, value, after))
    return found


def _rewrite_material(text: str, old: str, new: str) -> tuple[str, int]:
    """KeyValues text with the values naming `old` rewritten (each value judged by its key's
    parameter type), and how many were."""
    mentions = 0
    key: str | None = None

    def swap(match: re.Match[str]) -> str:
        nonlocal mentions, key
        quoted, brace, bare = match.group(1, 2, 3)
        token = quoted if quoted is not None else bare
        if brace is not None:                   # a block's name is not a key
            key = None
        if token is None:                       # a brace or a comment
            return match.group(0)
        if key is None:
            key = token
            return match.group(0)
        after = renamed_value(token, old, new, _param_kind(key))
        key = None
        if after is None:
            return match.group(0)
        mentions += 1
        return f'"{after}"' if quoted is not None else after

    return _TOKEN.sub(swap, text), mentions


def _param_kind(name: str) -> str | None:
    """A material parameter's kind ("texture", "material", ...; `materials.param_kind`),
    None without srctools (values with an extension are still recognised)."""
    from .materials import param_kind

    try:
        return param_kind(name)
    except ImportError:
        return None


@dataclass(frozen=True, slots=True)
class Renamed:
    """What `rename` did: the entry's old and new names, and the references it updated."""

    old: str
    new: str
    references: References | None
    texdata: list[int]          # the TEXDATA rows that name the old path (a material)

    def to_dict(self) -> dict[str, Any]:
        return {"old": self.old, "new": self.new,
                "references": None if self.references is None else self.references.to_dict(),
                "texdata": self.texdata}


def rename(bsp: Bsp, old: str, new: str, *, references: bool = False,
           lenient: bool = False) -> Renamed:
    """Rename the pak entry `old` to `new` in `bsp` (saved by the caller); with `references`,
    also the materials in the pakfile and the entity keys that name it (`find_references`;
    the entity text read with `lenient` as the ent verbs take it). BspError for no such entry,
    an unsafe new name, or one another entry has."""
    pak = bsp.pakfile
    entry = pak.find(old)
    if entry is None or entry.is_dir:
        raise BspError(f"no pak entry {old!r}", path=bsp.path)
    found = None
    if references:
        lump = bsp.entities(lenient=lenient)
        found = find_references(pak, list(lump), entry.key, new)
    texdata = texdata_rows(bsp, entry.key)
    renamed = pak.rename(entry, new)
    if found is not None:
        for name, (text, _) in found.materials.items():
            material = pak.find(name)
            assert material is not None
            pak.add(name, text, compress=material.method != 0, update=True)
        entities = list(bsp.entities(lenient=lenient))
        for index, key, occurrence, before, after in found.keys:
            _set_pair(entities[index], key, occurrence, before, after)
    return Renamed(entry.name, renamed.name, found, texdata)


def texdata_rows(bsp: Bsp, path: str) -> list[int]:
    """The TEXDATA rows whose material is `path` (an `asset_path`): faces drawn with it,
    which a rename leaves naming the old material (`tex rename` renames them)."""
    from .refs import texdata_references

    if not path.endswith(".vmt"):
        return []
    return [int(ref.reason[0].split()[1]) for ref in texdata_references(bsp) if ref.path == path]


def _set_pair(entity: Entity, key: str, occurrence: int, before: str, after: str) -> None:
    """Give the `occurrence`-th pair of `key` (counted as `Entity.pairs` lists them: the key
    as written) the value `after`, when it still holds `before`."""
    from ...lumps.entities import decode

    raw_after = after.encode("utf-8", "surrogateescape").decode("latin-1")
    seen = -1

    def edit(raw_key: str, raw_value: str) -> str | None:
        nonlocal seen
        if decode(raw_key) != key:
            return raw_value
        seen += 1
        return raw_after if seen == occurrence and decode(raw_value) == before else raw_value

    entity.rewrite(edit)
