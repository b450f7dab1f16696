"""Saving an edited map, for the API and every CLI verb alike: plan, engine checksums from the
plan (the written map is not read again), write or not (a dry run), give Quake 3 bot files the
new checksum, and one `SaveResult` saying what happened."""
from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .mapfile import MapFile, SaveReport
from ..errors import BspError, CheckFailed
from .outputs import guard
from .planner import LAYOUTS


@dataclass(frozen=True, slots=True)
class BotFile:
    """A Quake 3 bot navigation file (.aas) and the map checksum in its header."""

    path: str
    version: int
    before: int         # the checksum it held
    after: int          # the checksum it holds after the save (== before: already matched)


@dataclass(frozen=True, slots=True)
class SaveResult:
    """What a save did (or, with `written` False, would do)."""

    target: str
    layout: str                         # stable, compact or in-place
    size: int
    changed: tuple[str, ...]            # lumps whose bytes changed
    moved: tuple[str, ...]              # lumps whose offset changed
    checksums_before: dict[str, int]    # engine checksums (crc32, map_checksum, ...)
    checksums_after: dict[str, int]
    compared: str                       # the checksum the family's servers compare
    written: bool
    bot_files: tuple[BotFile, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def checksum_changed(self) -> bool:
        """Whether clients holding the original map will be refused."""
        return self.checksums_before[self.compared] != self.checksums_after[self.compared]

    def to_dict(self) -> dict[str, Any]:
        """As plain data (the CLI's JSON `result.save`)."""
        return {"target": self.target, "layout": self.layout, "size": self.size,
                "changed": list(self.changed), "moved": list(self.moved),
                "checksums": {name: {"before": value, "after": self.checksums_after[name]}
                              for name, value in self.checksums_before.items()},
                "compared": self.compared, "checksum_changed": self.checksum_changed,
                "written": self.written,
                "bot_files": [{"path": b.path, "version": b.version, "before": b.before,
                               "after": b.after} for b in self.bot_files]}


def save(bsp: MapFile, target: str | os.PathLike[str] | None = None, *, layout: str = "stable",
         keep_checksum: bool = False, aas: Iterable[str] = (), dry_run: bool = False,
         ) -> SaveResult:
    """Save `bsp`'s edits to `target` (atomic), or into the map itself when `target` is None
    (`layout` stable: crash-safe in place, or a copy renamed over the map when the trailing
    data changed; compact: a compacted copy renamed over the map).

    `keep_checksum` refuses (CheckFailed, nothing written) a save that would change the
    checksum the family's servers compare. Quake 3: bot files named in `aas`, and FILE.aas
    beside the saved map, get the new checksum. `dry_run` plans and reports, writing nothing.
    """
    from .mapsums import SaveChecksums, compared_checksum

    if layout not in LAYOUTS:
        raise BspError(f"unknown layout {layout!r} (choose {', '.join(LAYOUTS)})")
    in_place = target is None and layout == "stable" and not bsp.tail_replaced
    mode = "in-place" if in_place else layout
    path = bsp.path if target is None else os.fspath(target)
    if target is not None:
        guard(path, [bsp.path])
    warnings: list[str] = []
    bots = _bot_files(bsp, path, list(aas), warnings)
    header, plan = bsp.plan(mode)
    sums = SaveChecksums(bsp, header, mode)
    compared = compared_checksum(bsp.header)
    before, after = sums.before, sums.after
    if keep_checksum and after[compared] != before[compared]:
        raise CheckFailed(f"--keep-checksum: refused, {compared} would change from "
                          f"0x{before[compared]:08x} to 0x{after[compared]:08x} ({_why(bsp)}); "
                          "nothing written", path=bsp.path)
    if dry_run:
        report: SaveReport = bsp.planned_report(path, mode, header, plan)
    elif in_place:
        report = bsp.save_in_place()
    else:
        report = bsp.save_planned(path, header, plan, mode)     # reopened when over itself
    if not dry_run:
        sums.record(report.target)
    fixed = tuple(_fix(bot, before, after, dry_run) for bot in bots)
    return SaveResult(report.target, report.layout, report.size, report.changed, report.moved,
                      dict(before), dict(after), compared, not dry_run, fixed, tuple(warnings))


def _bot_files(bsp: MapFile, target: str, named: list[str], warnings: list[str]) -> list[Any]:
    """The .aas headers to fix after saving `target`: those named (refused when not Quake 3,
    before anything is written) and those beside `target` (unreadable ones: a warning)."""
    from . import aas

    if bsp.family.engine != "quake3":
        if named:
            raise BspError(f"--aas: {bsp.family.title} maps have no bot .aas files")
        return []
    headers = []
    for path in named:
        guard(path, [bsp.path])
        headers.append(aas.read_header(path))
    for path in aas.beside(target):
        if any(os.path.realpath(path) == os.path.realpath(h.path) for h in headers):
            continue
        try:
            headers.append(aas.read_header(path))
        except BspError as exc:
            warnings.append(f"{exc}; not fixed")
    return headers


def _fix(header: Any, before: dict[str, int], after: dict[str, int], dry_run: bool) -> BotFile:
    """Give one bot file the map's new checksum (unless it has it, or this is a dry run)."""
    from . import aas

    new = after["block_checksum"]
    old = header.checksum
    if old != new and not dry_run:
        aas.set_checksum(header, new)
    return BotFile(header.path, header.version, old, new)


def _why(bsp: MapFile) -> str:
    from .mapsums import WHOLE_FILE

    if bsp.family.engine in WHOLE_FILE:
        return f"{bsp.family.title} engines checksum the whole file"
    changed = [l.name for l in bsp.lumps if bsp.is_replaced(l.index)
               and l.index != bsp.family.entities]
    return "changed lumps the checksum covers: " + (", ".join(changed) or "lumps moved")
