"""What differs between two maps: header fields, lumps (stored bytes, then decoded content),
entities (by key), pakfile entries; and the verdict: identical, the same content stored with
other compression or in another layout, or different."""
from __future__ import annotations

import difflib
from typing import Any

from ..bsp import Bsp
from ..lumps.entities import Entity, EntityLump
from ..errors import BspError
from .facts import lump_row
from ..format.header import Lump

IDENTICAL = "identical"
COMPRESSION = "same content, different compression"
LAYOUT = "same content, different layout"
DIFFERENT = "different"


def diff_maps(a: Bsp, b: Bsp) -> dict[str, Any]:
    """A JSON-ready description of every difference and the `verdict`.

    A lump whose stored bytes differ is listed under `lumps` with `content` "same" when its
    decoded content is equal (LZMA lumps decoded; game lump members decoded, terminator entries
    ignored; pakfile entries by name, size and CRC-32) and `compression` true when the two
    store it compressed differently. A lump at another offset whose bytes are the same, or
    differ only where they hold absolute file offsets that moved with it (a PC game lump's
    member offsets), is `moved`, with `bytes` "same" or "relocated". Trailing data after the
    last lump (a BSPX directory and its lumps) is compared too: `trailing`, when it differs.
    """
    header = {field: [getattr(a.header, field), getattr(b.header, field)]
              for field in ("version", "revision", "lump_order")
              if getattr(a.header, field) != getattr(b.header, field)}
    if a.family != b.family:
        header["family"] = [a.family.key, b.family.key]
        return _result(DIFFERENT, header, [], [])
    lumps, moved = [], []
    for old, new in zip(a.lumps, b.lumps):
        stored = _Stored(a, old), _Stored(b, new)
        kept = stored[0].same_bytes(stored[1])
        if kept is not None:
            if old.offset != new.offset and old.length:
                moved.append({"index": old.index, "name": old.name, "a": lump_row(a, old),
                              "b": lump_row(b, new), "bytes": kept})
            continue
        same = _equal(stored[0].content(), stored[1].content())
        lumps.append({"index": old.index, "name": old.name, "a": lump_row(a, old),
                      "b": lump_row(b, new), "content": "same" if same else "different",
                      "compression": stored[0].compression() != stored[1].compression()})
    trailing = diff_trailing(a, b)
    if header or any(lump["content"] == "different" for lump in lumps) or \
            trailing is not None and trailing["content"] == "different":
        verdict = DIFFERENT
    elif any(lump["compression"] for lump in lumps):
        verdict = COMPRESSION
    elif lumps or moved or not _same_file(a, b):
        verdict = LAYOUT
    else:
        verdict = IDENTICAL
    result = _result(verdict, header, lumps, moved)
    if trailing is not None:
        result["trailing"] = trailing
    differing = {lump["index"] for lump in lumps if lump["content"] == "different"}
    if a.family.entities in differing:
        result["entities"] = diff_entities(a.entities(lenient=True), b.entities(lenient=True))
    pakfile = a.family.index_of(a.family.pakfile) if a.family.pakfile else None
    if pakfile in {lump["index"] for lump in lumps}:
        result["pakfile"] = diff_pakfiles(a.read_lump(pakfile), b.read_lump(pakfile))
    return result


def _result(verdict: str, header: dict, lumps: list, moved: list) -> dict[str, Any]:
    return {"identical": verdict == IDENTICAL, "same_content": verdict != DIFFERENT,
            "verdict": verdict, "header": header, "lumps": lumps, "moved": moved}


def _equal(a: Any, b: Any) -> bool:
    return a is not None and a == b


class _Stored:
    """One map's lump, as stored and decoded."""

    def __init__(self, bsp: Bsp, lump: Lump) -> None:
        self.bsp, self.lump = bsp, lump
        self.data = bsp.read_lump(lump.index)
        family = bsp.family
        self.kind = "game" if family.game_lump and lump.index == family.index_of(
            family.game_lump) else "pak" if family.pakfile and lump.index == family.index_of(
            family.pakfile) else "lump"

    def same_bytes(self, other: _Stored) -> str | None:
        """With equal version and fourCC: "same" for equal stored bytes, "relocated" for a game
        lump whose bytes differ only in the absolute member offsets that moved with it (its
        members are stored alike); else None."""
        from ..format.gamelumpdir import relocate_game_lump

        if (self.lump.version, self.lump.fourcc) != (other.lump.version, other.lump.fourcc):
            return None
        if self.data == other.data:
            return "same"
        if self.kind == "game" and self.data and other.data and \
                self.lump.offset != other.lump.offset:
            try:
                moved = relocate_game_lump(self.data, self.lump.offset, other.lump.offset,
                                           self.bsp.header.endian)
            except BspError:
                return None
            return "relocated" if moved == other.data else None
        return None

    def _game(self) -> Any:
        from ..lumps.gamelump import GameLump

        try:
            return GameLump.parse(self.data, self.lump.offset, self.bsp.header.endian)
        except BspError:
            return None

    def content(self) -> Any:
        """The decoded content (None when it cannot be decoded: then it is never equal)."""
        from ..format.lzma_lump import decompress, lzma_header

        try:
            if self.kind == "pak":
                return {name: facts[:2] for name, facts in _entries(self.data).items()}
            if self.kind == "game" and self.data:
                game = self._game()
                return None if game is None else [
                    (m.ident, m.version, game.payload(m.name)) for m in game.members
                    if not m.terminator]
            version = self.lump.version
            return version, decompress(self.data) if lzma_header(self.data) else self.data
        except BspError:
            return None

    def compression(self) -> Any:
        """How the content is stored: LZMA or not (the lump, each game lump member), each pak
        entry's method."""
        from ..format.lzma_lump import lzma_header

        if self.kind == "pak":
            return {name: facts[2] for name, facts in _entries(self.data).items()}
        if self.kind == "game":
            game = self._game() if self.data else None
            return [] if game is None else [(m.ident, m.compressed) for m in game.members
                                            if not m.terminator]
        return lzma_header(self.data) is not None


def _entries(data: bytes) -> dict[str, tuple[int, int, str]]:
    """A pakfile's entries: name -> (size, CRC-32, method); {} for a zip that does not parse."""
    from ..lumps.pakfile import Pakfile

    try:
        return {e.name: (e.size, e.crc, e.method_name) for e in Pakfile.from_bytes(data).entries}
    except BspError:
        return {}


def _trailer(bsp: Bsp) -> tuple[int, bytes] | None:
    """Where the trailing data after the last lump starts, and its bytes (None: none)."""
    tail = bsp.layout.tail
    return None if tail is None else (tail.start, bsp.read_range(tail.start, tail.end))


def _trailer_content(bsp: Bsp, trailer: tuple[int, bytes] | None) -> Any:
    """What trailing data holds: None for none or zeros, a BSPX trailer's lumps by name (their
    bytes, None where an entry points outside it), else its bytes."""
    from ..format.bspx import bspx_directory

    if trailer is None or not trailer[1].strip(b"\0"):
        return None
    start, data = trailer
    directory = bspx_directory(data) if bsp.family.trailer == "bspx" else None
    if directory is None:
        return data
    lumps: dict[str, bytes | None] = {}
    for entry in directory.lumps:
        at = entry.offset - start
        name = entry.name.rstrip(b"\0").decode("latin-1")
        lumps[name] = data[at:at + entry.length] if 0 <= at and at + entry.length <= len(data) \
            else None
    return lumps


def diff_trailing(a: Bsp, b: Bsp) -> dict[str, Any] | None:
    """How the trailing data after the last lump differs, or None when it does not (or both
    maps have none but zeros): where it is in each map (`a`, `b`: offset and length, or None),
    what it `holds` ("bspx": a BSPX trailer in either map, else "data"), `bytes` "same",
    "relocated" (a BSPX directory whose offsets moved with it) or "different", `content`
    "same" or "different" (a BSPX trailer: its lumps by name and bytes), and for a BSPX
    trailer whose lumps differ, `bspx`: the lump names added, removed and changed."""
    from ..format.bspx import relocate_trailer

    ta, tb = _trailer(a), _trailer(b)
    ca, cb = _trailer_content(a, ta), _trailer_content(b, tb)
    if ca is None and cb is None or ta == tb:
        return None
    if ta is not None and tb is not None:
        kind = "same" if ta[1] == tb[1] else \
            "relocated" if relocate_trailer(ta[1], ta[0], tb[0]) == tb[1] else "different"
    else:
        kind = "different"
    result: dict[str, Any] = {
        "a": None if ta is None else {"offset": ta[0], "length": len(ta[1])},
        "b": None if tb is None else {"offset": tb[0], "length": len(tb[1])},
        "holds": "bspx" if isinstance(ca, dict) or isinstance(cb, dict) else "data",
        "bytes": kind, "content": "same" if ca == cb else "different"}
    if result["content"] == "different" and result["holds"] == "bspx":
        old = ca if isinstance(ca, dict) else {}
        new = cb if isinstance(cb, dict) else {}
        both = [name for name in old if name in new]
        result["bspx"] = {"added": [n for n in new if n not in old],
                          "removed": [n for n in old if n not in new],
                          "changed": [n for n in both if old[n] != new[n]]}
    return result


def _same_file(a: Bsp, b: Bsp) -> bool:
    """Whether the two files hold the same bytes (the gaps and trailing data included)."""
    from ..container.digests import read_chunks

    if a.size != b.size:
        return False
    theirs = iter(read_chunks(b.fileno(), 0, b.size))
    return all(bytes(mine) == bytes(next(theirs)) for mine in read_chunks(a.fileno(), 0, a.size))


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
    """Pakfile entries added, removed, `changed` (size or CRC-32) and `recompressed` (the same
    size and CRC-32, another compression method)."""
    old, new = _entries(a), _entries(b)
    both = sorted(old.keys() & new.keys())
    return {"added": sorted(new.keys() - old.keys()), "removed": sorted(old.keys() - new.keys()),
            "changed": [n for n in both if old[n][:2] != new[n][:2]],
            "recompressed": [n for n in both if old[n][:2] == new[n][:2] and old[n] != new[n]]}


def diff_lines(result: dict[str, Any]) -> list[str]:
    """`diff_maps`'s result as the lines `bspedit diff` prints (the page shows them too)."""
    lines = [f"header {field}: {old} -> {new}" for field, (old, new) in result["header"].items()]
    for lump in result["lumps"]:
        a, b = lump["a"], lump["b"]
        how = ""
        if lump["content"] == "same":
            stored = " (LZMA -> raw)" if a["compressed"] and not b["compressed"] else \
                " (raw -> LZMA)" if b["compressed"] and not a["compressed"] else ""
            how = f", same content{stored}"
        lines.append(f"lump {lump['index']} ({lump['name']}): {a['length']} -> {b['length']} "
                     f"bytes{how}")
    for lump in result["moved"]:
        what = "same bytes" if lump["bytes"] == "same" else \
            "same members; stored bytes differ (its absolute member offsets moved with it)"
        lines.append(f"lump {lump['index']} ({lump['name']}) moved: offset {lump['a']['offset']} "
                     f"-> {lump['b']['offset']}, {what}")
    entities = result.get("entities", {})
    for entity in entities.get("removed", []):
        lines.append(f"  removed entity {entity['index']} ({entity['classname']})")
    for entity in entities.get("added", []):
        pairs = " ".join(f'"{k}" "{v}"' for k, v in entity["pairs"])
        lines.append(f"  added entity {entity['index']} ({entity['classname']}): {pairs}")
    for entity in entities.get("changed", []):
        lines.append(f"  changed entity {entity['index'][0]} ({entity['classname']}):")
        lines += [f"    \"{change['key']}\": {change['before']} -> {change['after']}"
                  for change in entity["keys"]]
    for kind in ("added", "removed", "changed", "recompressed"):
        lines += [f"  pakfile {kind}: {name}" for name in result.get("pakfile", {}).get(kind, [])]
    if "trailing" in result:
        lines.append(_trailing_line(result["trailing"]))
    lines.append(result["verdict"])
    return lines


def _trailing_line(trailing: dict[str, Any]) -> str:
    """The trailing data's line: where it moved or how its size changed, and what is the same."""
    a, b = trailing["a"], trailing["b"]
    label = "trailing data (BSPX)" if trailing["holds"] == "bspx" else "trailing data"
    if a is not None and b is not None and a["length"] == b["length"]:
        where = f"{label} moved: offset {a['offset']} -> {b['offset']}" \
            if a["offset"] != b["offset"] else f"{label} at offset {a['offset']}"
    else:
        where = f"{label}: {a['length'] if a else 0} -> {b['length'] if b else 0} bytes"
    if trailing["bytes"] == "same":
        return f"{where}, same bytes"
    if trailing["bytes"] == "relocated":
        return (f"{where}, same BSPX lumps; stored bytes differ (the directory's offsets moved "
                "with it)")
    if trailing["content"] == "same":
        return f"{where}, same content"
    changes = [f"{kind}: {', '.join(names)}" for kind, names in trailing.get("bspx", {}).items()
               if names]
    return f"{where}, different" + (f" (BSPX lumps {'; '.join(changes)})" if changes else "")
