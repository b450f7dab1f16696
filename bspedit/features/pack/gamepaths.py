"""The game's paths the Source verbs take (`--game`, `--content`, `--vpk`, `--fgd`, `--base`,
or the same fields of the ui's Pakfile view), checked as typed before anything is read: a path
that is not there, or is not what its option names, is the user's mistake (exit 2, one line,
nothing written), unlike a search path the gameinfo names that this machine lacks (reported,
never fatal). `load` then builds the game's file system from them."""
from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ...errors import BspError

if TYPE_CHECKING:
    from .gamefs import GameFS


def check_paths(*, game: str | None = None, content: Iterable[str] | None = None,
                vpk: Iterable[str] = (), fgd: str | Sequence[str] | None = None,
                base: str | None = None) -> None:
    """Refuse (BspError) the first path that is not what its option names. `content`: None
    when the verb takes no `--content` (the hint for a content folder then says so)."""
    if game is not None:
        _game(game, content is not None)
    for folder in content or ():
        _content(folder)
    for path in vpk:
        _vpk(path)
    for option, value, what in (("fgd", fgd, "FGD file"), ("base", base, "list file")):
        for path in [value] if isinstance(value, str) else value or ():
            _file(option, path, what)


def need_srctools(what: str) -> None:
    """BspError naming `what` when srctools, whose KeyValues, VMT and MDL readers the game's
    file system and the pack modules use, is not installed."""
    try:
        import srctools  # noqa: F401
    except ImportError:
        raise BspError(f"{what} need srctools 2.7 (pip install srctools==2.7.0; it has no "
                       "wheel for Linux aarch64)") from None


def load(game: str | None, *, content: Sequence[str] | None = None, vpk: Sequence[str] = (),
         fgd: str | Sequence[str] | None = None, base: str | None = None) -> GameFS:
    """The game's file system from `game` (or none) and the `content` folders and `vpk` files,
    every path (`fgd`, `base` too) checked first (`check_paths`)."""
    from .gamefs import GameFS

    check_paths(game=game, content=content, vpk=vpk, fgd=fgd, base=base)
    return GameFS.load(game, content=content or (), vpks=vpk)


def _typed(option: str, path: str) -> None:
    if not path.strip():        # `--content "$UNSET"`: not the current folder
        raise BspError(f"--{option}: an empty path")


def _there(option: str, path: str, what: str) -> None:
    _typed(option, path)
    if not os.path.exists(path):
        raise BspError(f"--{option} {path}: no such {what}")


def _game(path: str, content: bool) -> None:
    """`content`: the verb takes `--content` (the hint for a content folder names it)."""
    from .gameinfo import content_folders, find_gameinfo

    _there("game", path, "folder")
    if not os.path.isdir(path):
        if os.path.basename(path).lower() == "gameinfo.txt":
            return
        raise BspError(f"--game {path}: a file; give the mod's folder, the one holding "
                       f"gameinfo.txt{_other_option(path)}")
    if find_gameinfo(path) is not None:
        return
    assets = content_folders(path)
    if assets:
        raise BspError(f"--game {path}: no gameinfo.txt in it, but it holds "
                       f"{', '.join(a + '/' for a in assets)}: " +
                       (f"a folder of the mod's files without a gameinfo is --content {path}"
                        if content else "the files are checked through a gameinfo's search "
                        "paths (pak deps takes such a folder as --content)"))
    parent = os.path.dirname(os.path.abspath(path))
    hint = next((os.path.join(path, sub) for sub in _subfolders(path)
                 if find_gameinfo(os.path.join(path, sub))), None)
    if hint is None and find_gameinfo(parent):
        hint = parent
    raise BspError(f"--game {path}: no gameinfo.txt in it" +
                   (f"; --game {hint} has one" if hint else
                    " (give the mod's folder, the one holding it)"))


def _content(path: str) -> None:
    from .gameinfo import ASSET_FOLDERS, content_folders

    _there("content", path, "folder")
    if not os.path.isdir(path):
        raise BspError(f"--content {path}: a file, not a folder of the mod's files"
                       f"{_other_option(path)}")
    full = os.path.normpath(os.path.abspath(path))
    name = os.path.basename(full).lower()
    if name in ASSET_FOLDERS and name in map(str.lower, content_folders(os.path.dirname(full))):
        raise BspError(f"--content {path}: a {name}/ folder; give the folder above it, the one "
                       f"holding {name}/")         # materials/ holds models/: check it first
    if content_folders(path):
        return
    inner = next((sub for sub in _subfolders(path) if content_folders(os.path.join(path, sub))),
                 None)
    raise BspError(f"--content {path}: holds no materials/, models/, sound/... folder, so "
                   "nothing the map uses can be in it" +
                   (f"; --content {os.path.join(path, inner)} does" if inner else ""))


def _vpk(path: str) -> None:
    from .vpk import dir_file, not_a_vpk

    _typed("vpk", path)
    if os.path.isdir(path):
        raise BspError(f"--vpk {path}: a folder; a folder of loose files is --content {path}")
    real = dir_file(path)       # `foo.vpk` names `foo_dir.vpk`, as in a gameinfo
    if not os.path.isfile(real):
        raise BspError(f"--vpk {path}: no such VPK")
    problem = not_a_vpk(real)
    if problem is not None:
        raise BspError(f"--vpk {path}: {problem}")


def _file(option: str, path: str, what: str) -> None:
    from .vpk import not_a_vpk

    _there(option, path, what)
    if os.path.isdir(path):
        raise BspError(f"--{option} {path}: a folder, not a file")
    if option == "base":
        if not_a_vpk(path) is None:
            raise BspError(f"--base {path}: a VPK, not a list of files; list it (vpk -l) or "
                           f"give it as --vpk {path}")
        try:
            with open(path, "rb") as f:
                binary = b"\0" in f.read(4096)
        except OSError as exc:
            raise BspError(f"--base {path}: cannot read: {exc.strerror or exc}") from None
        if binary:
            raise BspError(f"--base {path}: not a text list of files (one path a line)")


def _other_option(path: str) -> str:
    """A hint when a file given to one game option belongs to another."""
    low = os.path.basename(path).lower()
    if low == "gameinfo.txt":
        return f" (a gameinfo: --game {os.path.dirname(path) or '.'})"
    if low.endswith(".vpk"):
        return f" (a VPK: --vpk {path})"
    return ""


def _subfolders(path: str) -> list[str]:
    try:
        with os.scandir(path) as it:
            return sorted(e.name for e in it if e.is_dir() and not e.name.startswith("."))
    except OSError:
        return []
