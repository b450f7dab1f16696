"""The game's options of the Source verbs (`--game`, `--content`, `--vpk`, `--fgd`, `--base`)
handed to `features.pack.gamepaths`, which checks them (as it checks the ui's Pakfile view's
fields) and builds the game's file system."""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..features.pack.gamefs import GameFS


def _paths(args: argparse.Namespace) -> dict[str, Any]:
    """The game options `args` has (a verb without `--content` gives None: the hints differ)."""
    return {"game": getattr(args, "game", None), "content": getattr(args, "content", None),
            "vpk": getattr(args, "vpk", None) or (), "fgd": getattr(args, "fgd", None),
            "base": getattr(args, "base", None)}


def check_paths(args: argparse.Namespace) -> None:
    """Refuse (BspError) the first path among `args`' game options that is not what its option
    names. Options a verb lacks are skipped."""
    from ..features.pack.gamepaths import check_paths as check

    check(**_paths(args))


def load(args: argparse.Namespace) -> GameFS:
    """The game's file system from `--game` (or none) and `--content`/`--vpk` (when the verb
    takes them), each path checked first."""
    from ..features.pack.gamepaths import load as load_fs

    return load_fs(**_paths(args))
