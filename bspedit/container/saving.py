"""Saving an edited map, for the API and every CLI verb alike: plan, engine checksums from the
plan (the written map is not read again), write or not (a dry run), give Quake 3 bot files the
new checksum, and one `SaveResult` saying what happened."""
from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from ..errors import BspError, CheckFailed
from ..values import Value
from .mapfile import MapFile, SaveReport
from .outputs import guard
from .planner import LAYOUTS


class BotFile(Value):
    """A Quake 3 bot navigation file (.aas) and the map checksum in its header."""

    __slots__ = ("path", "version", "before", "after")

    def __init__(self, path: str, version: int, before: int, after: int) -> None:
        self.path, self.version = path, version
        self.before = before        # the checksum it held
        self.after = after          # the checksum it holds after the save (== before: matched)


class SaveResult(Value):
    """What a save did (or, with `written` False, would do)."""

    __slots__ = ("target", "layout", "size", "changed", "moved", "checksums_before",
                 "checksums_after", "compared", "written", "bot_files", "warnings")

    def __init__(self, target: str, layout: str, size: int, changed: tuple[str, ...],
                 moved: tuple[str, ...], checksums_before: dict[str, int],
                 checksums_after: dict[str, int], compared: str, written: bool,
                 bot_files: tuple[BotFile, ...] = (), warnings: tuple[str, ...] = ()) -> None:
        self.target = target
        self.layout = layout                        # stable, compact or in-place
        self.size = size
        self.changed = changed                      # lumps whose bytes changed
        self.moved = moved                          # lumps whose offset changed
        self.checksums_before = checksums_before    # engine checksums (crc32, map_checksum, ...)
        self.checksums_after = checksums_after
        self.compared = compared                    # the checksum the family's servers compare
        self.written = written
        self.bot_files = bot_files
        self.warnings = warnings

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
    if bsp.family.engine != "quake3":
        if named:
            raise BspError(f"--aas: {bsp.family.title} maps have no bot .aas files")
        return []
    # only Quake 3 maps have bot files: the module loads for them alone (start-up time)
    from . import aas

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
