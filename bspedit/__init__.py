"""bspedit: a lossless BSP map editor (Quake 1/2/3, GoldSrc, Source).

    import bspedit

    with bspedit.open("map.bsp") as bsp:
        for light in bsp.entities().find(classname="light"):
            light["_light"] = "255 0 0 200"
        bsp.pakfile.add("materials/x.vmt", b"...")
        result = bsp.save("out.bsp")       # or bsp.save(): in place
        assert not result.checksum_changed

An unchanged save is byte-identical; an edit changes only the bytes of the lumps it edits.
Every view of the map (`Bsp.entities()`, `Bsp.pakfile`, `Bsp.game_lump`, `Bsp.static_props`)
is edited in place and stored by one `Bsp.save()`. Bad input raises `BspError`, one line
naming the file, lump and offset. The names below load their modules on first use, so
`import bspedit` costs almost nothing. `bspedit.batch` runs a command line or a function over
many maps, in a local process pool or on a Dask cluster.
"""
from __future__ import annotations

import os

from .errors import BspError, CheckFailed

TYPE_CHECKING = False       # typing.TYPE_CHECKING, without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

    from . import batch
    from .bsp import Bsp
    from .lumps.connections import Output
    from .lumps.entities import Entity, EntityLump
    from .lumps.gamelump import GameLump
    from .lumps.pakfile import Entry, Pakfile
    from .patching.apply import Patched, Refused, patch
    from .container.saving import SaveResult
    from .features.sky import skyname
    from .lumps.staticprops import StaticProps

__version__ = "0.2.0"

_LAZY = {"Bsp": "bsp", "Entity": "lumps.entities", "EntityLump": "lumps.entities",
         "Output": "lumps.connections", "Pakfile": "lumps.pakfile", "Entry": "lumps.pakfile",
         "GameLump": "lumps.gamelump", "StaticProps": "lumps.staticprops",
         "SaveResult": "container.saving", "patch": "patching.apply",
         "Patched": "patching.apply", "Refused": "patching.apply", "skyname": "features.sky"}

__all__ = ["open", "patch", "skyname", "Bsp", "BspError", "CheckFailed", "SaveResult",
           "EntityLump", "Entity", "Output", "Pakfile", "Entry", "GameLump", "StaticProps",
           "Patched", "Refused", "batch", "__version__"]


def open(path: str | os.PathLike[str], *, check: bool = True) -> Bsp:  # noqa: A001
    """Open a map for reading and editing (a context manager: `with bspedit.open(p) as bsp`).

    The family is detected from the content. Bad input raises BspError; `check=False` opens a
    map whose lump directory is inconsistent (to inspect it).
    """
    from .bsp import Bsp

    return Bsp.open(path, check=check)


def __getattr__(name: str) -> Any:
    """Load an exported name's module on first use."""
    from importlib import import_module

    if name == "batch":                  # the batch runner: a module of its own
        value: Any = import_module(".batch", __name__)
    elif name in _LAZY:
        value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
