"""Many maps in one run: the engine of `bspedit each`, callable from scripts.

`run(maps, command)` runs one bspedit command line per map (exactly what `bspedit COMMAND MAP
...` does, in-process) and returns each map's `Report`; `each(function, maps)` runs a plain
Python callable on each map's path and returns an `Outcome` per map. Both:
- take maps as files, folders (their ``*.bsp`` files; with `recursive`, those of subfolders
  too) and glob patterns (see `expand`);
- run them in this process (`jobs=1`), in a pool of `jobs` worker processes (default: one per
  core), or on an existing Dask distributed cluster (`scheduler="tcp://host:8786"`, the
  `bspedit[dask]` extra). Pool workers start once and take maps one after another in input
  order (so results stream out in order);
- return (and hand `on_report`) the results in input order, whatever order they finish in;
- isolate failures: a map that fails is one result, the others go on;
- stop at Ctrl-C: maps being written are interrupted (their writes are atomic: a `-o` target
  is the old file or none, a temporary file is removed) or finish, maps not started are not
  started, and each of those is an interrupted result (exit 130). In the calling process
  (main thread) Ctrl-C is only noted while a batch runs, never raised into its own work; a
  pool worker gets it only while it processes a map, and a worker still busy is sent SIGINT
  after 1 second and killed after 10 (a second Ctrl-C: at once and after 2; a third kills).
  Every worker process has ended when `run` or `each` returns.

On a cluster, workers read and write the paths as given (relative ones from their own working
folder): the maps and outputs must be on storage every worker sees at the same path.
"""
from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..cli.report import Report
from .lines import PLACEHOLDERS, CommandLines, command_lines, expand
from .pool import Results, default_jobs, gather
from .work import INTERRUPTED, Outcome, call, failed_outcome, failed_report, run_line

PathLike = str | os.PathLike[str]

__all__ = ["run", "each", "expand", "command_lines", "CommandLines", "Outcome", "Summary",
           "Results", "default_jobs", "PLACEHOLDERS", "INTERRUPTED"]


@dataclass(frozen=True, slots=True)
class Summary:
    """The counts of a batch run and its exit code: the worst outcome, in the order 130
    (interrupted) > 3 (internal error) > 2 (bad input) > 1 (failed check or unchanged) > 0.

    `unchanged`: exit 1 with a reason (the command raised a refusal: nothing matched, or a
    check refused the edit), nothing written. `failed_checks`: exit 1 as the command's
    answer (verify found problems, diff found differences, a query matched nothing)."""

    maps: int
    done: int
    unchanged: int
    failed_checks: int
    bad_input: int
    internal_errors: int
    interrupted: int
    exit: int

    @classmethod
    def of(cls, reports: Sequence[Report], *, interrupted: bool | None = None) -> Summary:
        """The summary of `reports`; exit 130 also when `interrupted` (by default: the list
        `run` returned says Ctrl-C arrived, even if every map still finished)."""
        codes = [r.code for r in reports]
        worst = max(codes, key=_SEVERITY.index, default=2)
        if interrupted is None:
            interrupted = getattr(reports, "interrupted", False)
        if interrupted:
            worst = INTERRUPTED
        return cls(maps=len(reports), done=codes.count(0),
                   unchanged=sum(r.code == 1 and r.error is not None for r in reports),
                   failed_checks=sum(r.code == 1 and r.error is None for r in reports),
                   bad_input=codes.count(2), internal_errors=codes.count(3),
                   interrupted=codes.count(INTERRUPTED), exit=worst)

    def to_dict(self) -> dict[str, int]:
        return dataclasses.asdict(self)


_SEVERITY = [0, 1, 2, 3, INTERRUPTED]


# -- the public runners --------------------------------------------------------------------
def run(maps: Iterable[PathLike], command: Sequence[str], *, jobs: int | None = None,
        scheduler: str | None = None, progress: bool = False, recursive: bool = False,
        options: Sequence[str] = (), json: bool = False,
        on_report: Callable[[Report], None] | None = None) -> Results[Report]:
    """Run `bspedit COMMAND` on every map and return their Reports in input order.

    `command` is what follows ``--`` in `bspedit each`: the command's words, then its
    arguments, with the placeholders `{}`, `{name}`, `{stem}` (see `command_lines`).
    `json` gives the command `--json` where it takes it (some fill `result` only then).
    `options` go before the command on every line (`--max-lump-size=2G`). `progress` draws
    a bar of maps done on a terminal. `on_report` is called with each Report, in input order,
    as soon as it and those before it are done. Raises BspError, before anything runs, for a
    command line that cannot work. The list's `interrupted` is True when Ctrl-C arrived
    (`Summary.of` then gives exit 130, even if every map still finished).
    """
    paths = expand(maps, recursive=recursive)
    planned = command_lines(paths, command, options, json=json)
    if planned.folder:
        os.makedirs(planned.folder, exist_ok=True)
    items = [(path, line, planned.verb) for path, line in zip(paths, planned.lines, strict=True)]
    return gather(run_line, items, jobs=jobs, scheduler=scheduler, progress=progress,
                  on_result=on_report, failure=failed_report)


def each(function: Callable[[str], Any], maps: Iterable[PathLike], *, jobs: int | None = None,
         scheduler: str | None = None, recursive: bool = False) -> Results[Outcome]:
    """`function(path)` for every map, in the same pool or cluster as `run`; returns an
    Outcome per map in input order (an exception is that map's `error`). With `jobs` above 1
    `function` must be picklable (a module-level function); on a cluster cloudpickle carries
    it."""
    paths = expand(maps, recursive=recursive)
    return gather(call, [(path, function) for path in paths], jobs=jobs,
                  scheduler=scheduler, progress=False, on_result=None, failure=failed_outcome)
