"""The soundscript and soundscape entries a packed map takes with it: `merged`, the new bytes
of the map's own `maps/<map>_level_sounds.txt` and `scripts/soundscapes_<map>.txt`.

The engine reads the soundscript files the game's `scripts/game_sounds_manifest.txt` lists,
then the map's `maps/<map>_level_sounds.txt`; soundscapes likewise from
`scripts/soundscapes_manifest.txt`, then `scripts/soundscapes_<map>.txt`. A script file that
autopack packs from the mod is on no manifest a player without the mod has: its entries reach
the engine only through the map's own file. So for each name the map uses whose entry is
defined in a script file autopack packs, that entry is appended to the map's file (the one in
the pakfile, which autopack has just packed from the mod if the mod has one), unless the
map's file defines the name already: the map's own entries win, and its bytes are kept as
they are when nothing is added.

Only the entries the map uses are copied, not the whole file: entries are copied byte for
byte from the file that defines them (comments and conditions inside them kept), and the files
they play are the ones autopack packs; an entry the map does not use would point at sounds
that are not packed, and would replace, for the whole map, the base game's entry of the same
name (a mod's `Weapon_Pistol.Single` silencing the base game's pistol).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from .deps import Name

Read = Callable[[str], "bytes | None"]

# The map's own file per kind of name (`{map}` is the map's name).
MAP_FILES = {"soundscript": "maps/{map}_level_sounds.txt",
             "soundscape": "scripts/soundscapes_{map}.txt"}
# KeyValues tokens: a quoted string, a comment, a brace, a condition, a bare word.
_TOKEN = re.compile(rb'"[^"\n]*"?|//[^\n]*|[{}]|\[[^\]\n]*\]|[^\s{}"\[\]]+')


def blocks(data: bytes) -> dict[str, tuple[int, int]]:
    """Top-level block name (case-folded) -> the byte span of its entry (the name through its
    closing brace) in a KeyValues file; a later entry of a name replaces an earlier one, as in
    the engine. Unbalanced text ends the scan."""
    out: dict[str, tuple[int, int]] = {}
    depth, name, start = 0, None, 0
    for token in _TOKEN.finditer(data):
        text = token.group()
        if text.startswith((b"//", b"[")):
            continue
        if text == b"{":
            depth += 1
        elif text == b"}":
            depth -= 1
            if depth < 0:
                break
            if depth == 0 and name is not None:
                out[name] = (start, token.end())
                name = None
        elif depth == 0:
            name = text.strip(b'"').decode("utf-8", "replace").casefold()
            start = token.start()
    return out


def merged(kind: str, map_name: str, names: Iterable[Name], packed: set[str],
           read: Read) -> tuple[str, bytes, list[str]] | None:
    """`(path, new bytes, names added)` of the map's own file of `kind` ("soundscript" or
    "soundscape"), with the entries of the `names` of that kind defined in a file of `packed`
    appended (see the module's doc); `read` reads the map's file as the map now has it (None
    when absent) and the defining files. None when nothing is to be added."""
    path = MAP_FILES[kind].format(map=map_name)
    wanted: dict[str, list[str]] = {}
    for name in names:
        source = name.defined_in
        if name.kind == kind and source is not None and source in packed and source != path:
            wanted.setdefault(source, []).append(name.name)
    if not wanted:
        return None
    own = read(path)
    have = set(blocks(own)) if own is not None else set()
    parts: list[bytes] = []
    added: list[str] = []
    for source, wanted_names in wanted.items():
        data = read(source)
        if data is None:
            continue
        spans = blocks(data)
        entries = []
        for entry in dict.fromkeys(wanted_names):
            if entry in have or entry not in spans:
                continue
            start, end = spans[entry]
            entries.append(data[start:end])
            added.append(entry)
            have.add(entry)
        if entries:
            parts.append(f"// bspedit autopack: from {source}\n".encode()
                         + b"\n".join(entries) + b"\n")
    if not parts:
        return None
    head = own if own is not None else b""
    if head and not head.endswith(b"\n"):
        head += b"\n"
    return path, head + b"".join(parts), added
