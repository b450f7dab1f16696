"""A game's `gameinfo.txt` read for its search paths (the rules are in `gamefs`' doc): the
file in any capitalisation, its `[$CONDITION]`s for the Windows PC game, the `SearchPaths` lines
and their path IDs, a value resolved to a folder; and what makes a folder a content root."""
from __future__ import annotations

import os
import re
from collections.abc import Mapping

from ...errors import BspError

#: Conditions true for the Windows PC game; every other `$FLAG` is false.
TRUE_FLAGS = frozenset({"$win32", "$windows", "$pc"})
#: The flags srctools gets for conditional blocks (its keys carry the `$`).
_KV_FLAGS = {f: True for f in TRUE_FLAGS} | {
    f: False for f in ("$x360", "$ps3", "$gameconsole", "$osx", "$linux", "$posix", "$deck")}

# a one-line `key value [condition] // comment`: the condition is evaluated here, before
# srctools parses, because srctools lets a true conditional line replace a preceding line of
# the same key (which would drop a search path)
_CONDITIONAL_LINE = re.compile(
    r'^(?P<head>[ \t]*(?:"[^"\n]*"|[^\s"{}\[\]]+)[ \t]+(?:"[^"\n]*"|[^\s"{}\[\]]+))'
    r'[ \t]*\[(?P<cond>[^\]\n]*)\][ \t]*(?P<tail>//[^\n]*)?$', re.M)
_APPID = re.compile(r"\|appid_(\d+)\|", re.I)
#: The top folders of a game's content (what a content root holds).
ASSET_FOLDERS = frozenset({"materials", "models", "sound", "particles", "scripts", "resource",
                           "maps", "scenes", "media"})


def condition_true(cond: str) -> bool:
    """A KeyValues condition (`$X360`, `!$WIN32`, `$WIN32 || $OSX`, `$A && !$B`) for the
    Windows PC game."""
    def flag(term: str) -> bool:
        term = term.strip()
        negate = term.startswith("!")
        name = term.lstrip("!").strip().lower()
        return (name in TRUE_FLAGS) != negate
    return any(all(flag(t) for t in alt.split("&&")) for alt in cond.split("||"))


def _apply_line_conditions(text: str) -> str:
    def keep(m: re.Match[str]) -> str:
        return m.group("head") if condition_true(m.group("cond")) else ""
    return _CONDITIONAL_LINE.sub(keep, text)


def find_gameinfo(game_dir: str) -> str | None:
    """GAMEDIR's `gameinfo.txt` in any capitalisation (the exact lower-case name first)."""
    exact = os.path.join(game_dir, "gameinfo.txt")
    if os.path.isfile(exact):
        return exact
    try:
        names = sorted(e.name for e in os.scandir(game_dir)
                       if e.name.lower() == "gameinfo.txt" and e.is_file())
    except OSError:
        return None
    return os.path.join(game_dir, names[0]) if names else None


def parse_search_paths(text: str, filename: str = "gameinfo.txt") -> list[tuple[str, str]]:
    """The `(key, value)` lines of `GameInfo/FileSystem/SearchPaths`, in order, conditions
    evaluated. Raises BspError when the text is not KeyValues or lacks the block."""
    from srctools.keyvalues import Keyvalues
    try:
        kv = Keyvalues.parse(_apply_line_conditions(text), filename, flags=_KV_FLAGS)
    except Exception as exc:  # noqa: BLE001 - srctools' KeyValError and tokenizer errors
        raise BspError(f"not a KeyValues file: {exc}", path=filename) from None
    for root in (*kv.find_all("GameInfo"), kv):
        for fs in root.find_all("FileSystem"):
            for block in fs.find_all("SearchPaths"):
                if block.has_children():
                    return [(c.real_name, c.value) for c in block if not c.has_children()]
    raise BspError("no GameInfo/FileSystem/SearchPaths block", path=filename)


def path_ids(key: str) -> set[str]:
    """The lower-case path IDs of a SearchPaths key (`game+mod+mod_write`)."""
    return {p.strip().lower() for p in key.split("+") if p.strip()}


def used_for_assets(key: str) -> bool:
    """A SearchPaths key whose path is searched for assets: its IDs include `game` or `mod`."""
    return bool(path_ids(key) & {"game", "mod"})


def read_gameinfo(game_dir: str | os.PathLike[str]) -> tuple[str, str, list[tuple[str, str]]]:
    """GAMEDIR (or its gameinfo.txt given in its place) as `(folder, gameinfo, SearchPaths
    lines)`; BspError when there is no such folder, no gameinfo or it cannot be read."""
    gdir = os.path.abspath(os.fspath(game_dir))
    if os.path.isfile(gdir) and os.path.basename(gdir).lower() == "gameinfo.txt":
        gdir = os.path.dirname(gdir)
    if not os.path.isdir(gdir):
        raise BspError("no such game folder", path=gdir)
    gameinfo = find_gameinfo(gdir)
    if gameinfo is None:
        raise BspError("no gameinfo.txt in the game folder", path=gdir)
    try:
        with open(gameinfo, "rb") as f:
            text = f.read().decode("utf-8-sig", errors="replace")
    except OSError as exc:
        raise BspError(f"cannot read: {exc.strerror or exc}", path=gameinfo) from None
    return gdir, gameinfo, parse_search_paths(text, gameinfo)


def content_folders(folder: str) -> list[str]:
    """The asset folders (`materials`, `models`, `sound`...) directly in `folder`, as named
    there: what makes it a content root."""
    try:
        with os.scandir(folder) as it:
            return sorted(e.name for e in it if e.name.lower() in ASSET_FOLDERS and e.is_dir())
    except OSError:
        return []


def resolve(value: str, gameinfo_dir: str, root: str,
            apps: Mapping[int, str | os.PathLike[str]]) -> str | None:
    """A SearchPaths value as an absolute path; None for an `|appid_N|` not in `apps`."""
    low = value.lower()
    appid = _APPID.match(value)
    if low.startswith("|gameinfo_path|"):
        start, rest = gameinfo_dir, value[len("|gameinfo_path|"):]
    elif low.startswith("|all_source_engine_paths|"):
        start, rest = root, value[len("|all_source_engine_paths|"):]
    elif appid:
        folder = apps.get(int(appid.group(1)))
        if folder is None:
            return None
        start, rest = os.path.abspath(os.fspath(folder)), value[appid.end():]
    else:
        start, rest = root, value
    return os.path.normpath(os.path.join(start, rest.replace("\\", "/")))
