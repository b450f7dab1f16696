"""File names Windows can hold (issue 31), for the files bspedit names after data in a map:
pak entries (`pak extract`), game lump member ids (`dump`), texture names (`tex export`).

The rules are those of Microsoft's "Naming Files, Paths, and Namespaces" as CPython 3.13's
`ntpath.isreserved` reads them, applied to each '/'- or '\\'-separated component:
- the characters < > : " | ? * and the control characters 0-31 are written as `_`;
- a component ending in '.' or ' ' has that last character written as `_`;
- a device name (CON, PRN, AUX, NUL, CONIN$, CONOUT$, COM0-9, LPT0-9 and COM/LPT with a
  superscript 1, 2 or 3; any case) is the part before the first dot, trailing spaces left
  out, so `con.vmt`, `NUL.txt.bak` and `com1 .txt` name a device: `_` follows the device's
  name (`con_.vmt`);
- names differ only in case for Windows, so two paths may land on one file (`windows_paths`
  refuses them) and folders that differ only in case are one folder.

bspedit applies them on Windows and, elsewhere, when BSPEDIT_WINDOWS_NAMES=1 (a folder a Windows
machine will read); otherwise names are written as they are.
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from typing import NamedTuple

ENVIRONMENT = "BSPEDIT_WINDOWS_NAMES"
_DIGITS = "0123456789\u00b9\u00b2\u00b3"
RESERVED = frozenset({"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$",
                      *(f"COM{d}" for d in _DIGITS), *(f"LPT{d}" for d in _DIGITS)})
FORBIDDEN = frozenset('<>:"|?*') | frozenset(map(chr, range(32)))


def windows_names() -> bool:
    """Whether files named after map data follow Windows' rules: on Windows, or when the
    environment sets BSPEDIT_WINDOWS_NAMES=1."""
    return os.name == "nt" or os.environ.get(ENVIRONMENT) == "1"


class WindowsName(NamedTuple):
    """A path as Windows can hold it, and why it differs from the name it maps (empty when
    it does not)."""

    path: str
    reasons: tuple[str, ...]


def _shown(char: str) -> str:
    return f"{char!r}" if char.isprintable() else f"control character 0x{ord(char):02x}"


def device(part: str) -> str | None:
    """The device name (upper case) a path component names on Windows, or None."""
    base = part.partition(".")[0].rstrip(" ").upper()
    return base if base in RESERVED else None


def windows_component(part: str) -> WindowsName:
    """One path component (no separators) as Windows can hold it. Idempotent; '.' and '..'
    come out as '_' and '._', so no mapped name climbs out of its folder."""
    reasons = []
    bad = sorted({c for c in part if c in FORBIDDEN})
    if bad:
        part = "".join("_" if c in FORBIDDEN else c for c in part)
        reasons.append(f"Windows forbids {', '.join(map(_shown, bad))} in names")
    if part.endswith((".", " ")):
        reasons.append(f"a Windows name cannot end in {part[-1]!r}")
        part = part[:-1] + "_"
    name = device(part)
    if name is not None:
        base = len(part.partition(".")[0].rstrip(" "))
        part = part[:base] + "_" + part[base:]
        reasons.append(f"Windows reserves {name}")
    return WindowsName(part, tuple(reasons))


def windows_path(name: str) -> WindowsName:
    """A '/'-separated path ('\\' is a separator too, as on Windows) as Windows can hold it,
    written with '/'. Empty components stay empty."""
    parts, reasons = [], []
    for part in name.replace("\\", "/").split("/"):
        mapped = windows_component(part) if part else WindowsName(part, ())
        parts.append(mapped.path)
        reasons += [r for r in mapped.reasons if r not in reasons]
    return WindowsName("/".join(parts), tuple(reasons))


def windows_key(path: str) -> str:
    """What Windows compares of a path: each character upper-cased alone (as NTFS's upcase
    table does; 'ß' stays 'ß')."""
    return "".join(up if len(up := c.upper()) == 1 else c for c in path)


class Clash(ValueError):
    """Two paths of `windows_paths` land on one file, or a file lands on a folder: `first` and
    `second` index the names given, `path` is where they meet."""

    def __init__(self, first: int, second: int, path: str, folder: bool) -> None:
        what = "a file and a folder" if folder else "one file"
        super().__init__(f"names {first} and {second} are {what} on Windows: {path!r}")
        self.first, self.second, self.path, self.folder = first, second, path, folder


def windows_paths(names: Sequence[str]) -> list[WindowsName]:
    """Each of `names` (files, '/'-separated) mapped by `windows_path`, a folder spelled as
    the first path naming it spells it (Windows holds one folder for names differing in case).
    Clash when two land on one file, or a file on a folder another path puts files in."""
    folders: dict[str, tuple[str, int]] = {}      # key -> (spelling, index of the first user)
    files: dict[str, int] = {}                    # key -> index
    mapped = []
    for index, name in enumerate(names):
        path, reasons = windows_path(name)
        parts = path.split("/")
        spelled = ""
        for part in parts[:-1]:
            here = f"{spelled}/{part}" if spelled else part
            spelled = folders.setdefault(windows_key(here), (here, index))[0]
        path = f"{spelled}/{parts[-1]}" if spelled else parts[-1]
        key = windows_key(path)
        if key in files:
            raise Clash(files[key], index, path, folder=False)
        files[key] = index
        mapped.append(WindowsName(path, reasons))
    for key, index in files.items():
        if key in folders:
            first, second = sorted((index, folders[key][1]))
            raise Clash(first, second, mapped[index].path, folder=True)
    return mapped
