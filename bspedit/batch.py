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
  started, and each of those is an interrupted result (exit 130).

On a cluster, workers read and write the paths as given (relative ones from their own working
folder): the maps and outputs must be on storage every worker sees at the same path.
"""
from __future__ import annotations

import contextlib
import dataclasses
import glob
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from .cli import COMMANDS, build_parser, invoke
from .cli.report import Report
from .errors import BspError
from .container.outputs import STDOUT, guard

PathLike = str | os.PathLike[str]
R = TypeVar("R")

#: Stand for the map in a command line: its path, its file name, its name without extension.
PLACEHOLDERS = ("{}", "{name}", "{stem}")
_OUTPUT = ("-o", "--output")
_GLOB = "*?["
INTERRUPTED = 130


# -- which maps ----------------------------------------------------------------------------
def expand(specs: Iterable[PathLike], *, recursive: bool = False) -> list[str]:
    """The maps named by `specs`, in order, each once: a folder gives its ``*.bsp`` files
    (any case, hidden ones skipped, sorted; with `recursive` those of its subfolders too), a
    glob pattern the files it matches (sorted; ``**`` spans folders), anything else itself.
    A folder without maps or a pattern matching nothing stands for itself, so the command
    reports it (exit 2), and so does a named file that is not a map."""
    found: list[str] = []
    for spec in (os.fspath(s) for s in specs):
        if os.path.isdir(spec):
            found += _maps_in(spec, recursive) or [spec]
        elif not os.path.lexists(spec) and any(c in spec for c in _GLOB):
            found += sorted(p for p in glob.glob(spec, recursive=True)
                            if not os.path.isdir(p)) or [spec]
        else:
            found.append(spec)
    return list(dict.fromkeys(found))


def _maps_in(folder: str, recursive: bool) -> list[str]:
    paths = Path(folder).glob("**/*" if recursive else "*")
    return sorted(str(p) for p in paths if p.suffix.lower() == ".bsp"
                  and not p.name.startswith(".") and p.is_file())


# -- the command line for each map ---------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Verb:
    """The shape of a command: how many words name it and its option strings."""

    words: int
    options: frozenset[str]

    @property
    def writes_maps(self) -> bool:
        return "--in-place" in self.options


def _verb(command: Sequence[str]) -> _Verb:
    """What the command words `command` name; BspError (usage) when they name no command."""
    name = command[0] if command else None
    if name not in COMMANDS or name == "each":
        choices = ", ".join(c for c in COMMANDS if c != "each")
        raise BspError(f"each: after -- give a command ({choices}), not {name!r}")
    commands = _subcommands(build_parser(name))
    assert commands is not None
    parser = commands[name]
    verbs = _subcommands(parser)
    if verbs is None:
        return _Verb(1, frozenset(parser._option_string_actions))
    if len(command) < 2 or command[1] not in verbs:
        raise BspError(f"each: {name} needs one of {', '.join(verbs)} after it")
    return _Verb(2, frozenset(verbs[command[1]]._option_string_actions))


def _subcommands(parser: Any) -> dict[str, Any] | None:
    for action in parser._actions:
        if action.choices is not None and action.nargs == "A...":     # add_subparsers
            return dict(action.choices)
    return None


@dataclass(frozen=True, slots=True)
class CommandLines:
    """The command line of each map, and the folder `-o DIR/` names (None without one)."""

    lines: list[list[str]]
    verb: str                   # the command's words, as a Report names them (`ent set`)
    folder: str | None


def command_lines(maps: Sequence[str], command: Sequence[str], options: Sequence[str] = (),
                  *, json: bool = False) -> CommandLines:
    """One bspedit command line per map: `options`, the command's words, the map, the rest of
    `command` with the placeholders filled in (the map is not inserted when the rest holds
    ``{}``), and `--json` with `json` when the command takes it. `-o DIR/` (a trailing slash
    or an existing folder) on a command that writes maps means `-o DIR/{name}`. Refused
    (BspError) before anything runs: a command that is not one, arguments it does not take,
    two maps written to one file, a map written onto an input map."""
    verb = _verb(command)
    words = list(command[:verb.words])
    rest, folder = _folder_output(list(command[verb.words:]), verb)
    if json and "--json" in verb.options and "--json" not in rest:
        rest.append("--json")
    inserted = not any("{}" in word for word in rest)
    lines = [[*options, *words, *([path] if inserted else []), *_filled(rest, path)]
             for path in maps]
    if lines:
        _check_usage(words[0], lines[0])
    _check_targets(maps, lines)
    return CommandLines(lines, " ".join(words), folder)


def _filled(words: list[str], path: str) -> list[str]:
    name = os.path.basename(path)
    values = {"{}": path, "{name}": name, "{stem}": os.path.splitext(name)[0]}
    filled = []
    for word in words:
        for placeholder, value in values.items():
            word = word.replace(placeholder, value)
        filled.append(word)
    return filled


def _output_at(words: list[str]) -> tuple[int, str] | None:
    """Where `-o`'s value is in `words` (index and the text before the value), if anywhere."""
    for index, word in enumerate(words):
        if word in _OUTPUT and index + 1 < len(words):
            return index + 1, ""
        if word.startswith("--output="):
            return index, "--output="
        if word.startswith("-o") and not word.startswith("--") and len(word) > 2:
            return index, "-o"
    return None


def _folder_output(words: list[str], verb: _Verb) -> tuple[list[str], str | None]:
    """`words` with `-o DIR/` turned into `-o DIR/{name}`, and DIR."""
    found = _output_at(words)
    if found is None:
        return words, None
    index, prefix = found
    value = words[index][len(prefix):]
    if any(p in value for p in PLACEHOLDERS) or not (
            value.endswith(("/", os.sep)) or os.path.isdir(value)):
        return words, None
    if not verb.writes_maps:
        raise BspError(f"each: -o {value} names a folder of maps, but this command does not "
                       "write maps: name each output with {stem} (as in -o out/{stem}.ent)")
    named = prefix + os.path.join(value, "{name}")
    return [*words[:index], named, *words[index + 1:]], value


def _check_usage(command: str, line: list[str]) -> None:
    """Parse one map's command line, so a usage error is one message, not one per map."""
    import io

    with contextlib.redirect_stderr(io.StringIO()) as err, \
            contextlib.redirect_stdout(io.StringIO()):
        try:
            build_parser(command).parse_args(line)
            return
        except SystemExit:
            pass
    lines = err.getvalue().strip().splitlines()
    raise BspError(f"each: {lines[-1] if lines else 'a command is not given --help per map'}")


def _check_targets(maps: Sequence[str], lines: list[list[str]]) -> None:
    """Refuse two maps written to one file, and a file written that is an input map."""
    inputs = {os.path.realpath(path) for path in maps}
    seen: dict[str, str] = {}
    for path, line in zip(maps, lines, strict=True):
        found = _output_at(line)
        if found is None:
            continue
        index, prefix = found
        target = line[index][len(prefix):]
        if target == STDOUT:
            raise BspError("each: -o - (standard output) cannot carry the data of many maps: "
                           "name a file per map (-o out/{stem}.ent)")
        real = os.path.realpath(target)
        if real in inputs:
            raise BspError(f"each: refused: {target} is an input map; --in-place edits maps "
                           "where they are; nothing written")
        if real in seen:
            raise BspError(f"each: {seen[real]} and {path} would both be written to {target}; "
                           "nothing written")
        seen[real] = path
        if os.path.lexists(target):
            guard(target, maps)         # a link to an input map, a folder


# -- results -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Outcome:
    """What `each`'s function did with one map: its `value`, or the `error` it raised (one
    line; `kind` the exception's class name)."""

    map: str
    value: Any = None
    error: str | None = None
    kind: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def interrupted(self) -> bool:
        return self.kind == "KeyboardInterrupt"


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
    def of(cls, reports: Sequence[Report]) -> Summary:
        codes = [r.code for r in reports]
        worst = max(codes, key=_SEVERITY.index, default=2)
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
        on_report: Callable[[Report], None] | None = None) -> list[Report]:
    """Run `bspedit COMMAND` on every map and return their Reports in input order.

    `command` is what follows ``--`` in `bspedit each`: the command's words, then its
    arguments, with the placeholders `{}`, `{name}`, `{stem}` (see `command_lines`).
    `json` gives the command `--json` where it takes it (some fill `result` only then).
    `options` go before the command on every line (`--max-lump-size=2G`). `progress` draws
    a bar of maps done on a terminal. `on_report` is called with each Report, in input order,
    as soon as it and those before it are done. Raises BspError, before anything runs, for a
    command line that cannot work.
    """
    paths = expand(maps, recursive=recursive)
    planned = command_lines(paths, command, options, json=json)
    if planned.folder:
        os.makedirs(planned.folder, exist_ok=True)
    items = [(path, line, planned.verb) for path, line in zip(paths, planned.lines, strict=True)]
    return _gather(_run_line, items, jobs=jobs, scheduler=scheduler, progress=progress,
                   on_result=on_report, failure=_failed_report)


def each(function: Callable[[str], Any], maps: Iterable[PathLike], *, jobs: int | None = None,
         scheduler: str | None = None, recursive: bool = False) -> list[Outcome]:
    """`function(path)` for every map, in the same pool or cluster as `run`; returns an
    Outcome per map in input order (an exception is that map's `error`). With `jobs` above 1
    `function` must be picklable (a module-level function); on a cluster cloudpickle carries
    it."""
    paths = expand(maps, recursive=recursive)
    return _gather(_call, [(path, function) for path in paths], jobs=jobs,
                   scheduler=scheduler, progress=False, on_result=None, failure=_failed_outcome)


# -- work done in the workers --------------------------------------------------------------
_LOCK = threading.Lock()    # one map at a time per process: invoke redirects sys.stdout
_STOP: Any = None           # in a pool worker: the pool's stop event
_BUSY = False               # in a pool worker: a map is being processed


def _start_worker(stop: Any) -> None:
    """Pool worker set-up: Ctrl-C interrupts the map being processed, not the idle worker."""
    global _STOP
    _STOP = stop
    signal.signal(signal.SIGINT, _interrupt_if_busy)


def _interrupt_if_busy(signum: int, frame: Any) -> None:
    if _BUSY:
        raise KeyboardInterrupt


@contextlib.contextmanager
def _working() -> Iterator[bool]:
    """Hold the process's map slot; yields False when the batch was stopped meanwhile."""
    global _BUSY
    with _LOCK:
        if _STOP is not None and _STOP.is_set():
            yield False
            return
        _BUSY = True
        try:
            yield True
        finally:
            _BUSY = False


def _run_line(path: str, line: list[str], verb: str) -> Report:
    """One map's command line, run in this process (a pool or cluster worker, or the caller)."""
    try:
        with _working() as started:
            report = invoke(line, capture=True) if started else None
    except KeyboardInterrupt:
        report = None
    if report is None:
        return _failed_report(path, line, verb, INTERRUPTED, "interrupted; not run")
    report.map = report.map or path
    return report


def _call(path: str, function: Callable[[str], Any]) -> Outcome:
    try:
        with _working() as started:
            if not started:
                return Outcome(path, error="interrupted; not run", kind="KeyboardInterrupt")
            return Outcome(path, function(path))
    except KeyboardInterrupt:
        return Outcome(path, error="interrupted", kind="KeyboardInterrupt")
    except Exception as exc:
        return Outcome(path, error=str(exc) or type(exc).__name__, kind=type(exc).__name__)


def _failed_report(path: str, line: list[str], verb: str, code: int, message: str) -> Report:
    """The Report of a map whose command did not run to its end in a worker."""
    return Report(verb=verb, map=path, error=message, code=code,
                  stderr=f"bspedit: {path}: {message}\n")


def _failed_outcome(path: str, function: Callable[[str], Any], code: int, message: str) -> Outcome:
    kind = "KeyboardInterrupt" if code == INTERRUPTED else "WorkerError"
    return Outcome(path, error=message, kind=kind)


def _is_interrupt(result: Any) -> bool:
    return result.code == INTERRUPTED if isinstance(result, Report) else result.interrupted


# -- where the work runs -------------------------------------------------------------------
def default_jobs() -> int:
    """The number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def _gather(call: Callable[..., R], items: list[tuple[Any, ...]], *, jobs: int | None,
            scheduler: str | None, progress: bool, on_result: Callable[[R], None] | None,
            failure: Callable[..., R]) -> list[R]:
    """`call(*item)` for every item; results in input order (handed to `on_result` as soon
    as they are in order). A call that fails outside `call` (a worker that died) becomes
    `failure(*item, 3, message)`; an item not run after an interrupt `failure(..., 130, ...)`."""
    from . import progress as bars

    results: dict[int, R] = {}
    printed = 0
    drawn = bars.bar(len(items), "maps", unit="map", minimum=2, delay=0) if progress \
        else contextlib.nullcontext(bars.Progress())
    with drawn as shown:

        def done(index: int, result: R) -> None:
            nonlocal printed
            with _uninterrupted():      # a result is kept and printed whole, exactly once
                if index in results:
                    return
                results[index] = result
                shown.advance()
                while printed in results:
                    if on_result is not None:
                        with shown.printing():
                            on_result(results[printed])
                    printed += 1

        jobs = min(jobs or default_jobs(), len(items))
        if scheduler and items:
            _dask(call, items, done, scheduler=scheduler, failure=failure)
        elif jobs > 1:
            _pool(call, items, done, jobs=jobs, failure=failure)
        else:
            _serial(call, items, done)
        for index, item in enumerate(items):
            if index not in results:
                done(index, failure(*item, INTERRUPTED, "interrupted; not run"))
    return [results[index] for index in range(len(items))]


Done = Callable[[int, Any], None]


@contextlib.contextmanager
def _uninterrupted() -> Iterator[None]:
    """Hold Ctrl-C back until the block has run, then raise it (in the main thread only:
    elsewhere Python delivers no KeyboardInterrupt anyway)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: caught.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.SIG_DFL)
    if caught:
        raise KeyboardInterrupt


def _serial(call: Callable[..., Any], items: list[tuple[Any, ...]], done: Done) -> None:
    """In this process, in order, until a map is interrupted."""
    try:
        for index, item in enumerate(items):
            result = call(*item)
            done(index, result)
            if _is_interrupt(result):
                return
    except KeyboardInterrupt:
        return


def _pool(call: Callable[..., Any], items: list[tuple[Any, ...]], done: Done, *, jobs: int,
          failure: Callable[..., Any]) -> None:
    """In `jobs` worker processes (forked on Linux: they start with bspedit imported)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
    stop = context.Event()
    pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=_start_worker,
                               initargs=(stop,))
    futures = {pool.submit(call, *item): index for index, item in enumerate(items)}
    try:
        for future in as_completed(list(futures)):
            handed = _hand(future, futures[future], items, done, failure)
            del futures[future]
            if _is_interrupt(handed):
                raise KeyboardInterrupt
    except KeyboardInterrupt:
        pass
    finally:        # maps not started are not started; those running finish or are interrupted
        stop.set()
        pool.shutdown(wait=True, cancel_futures=True)
    for future, index in futures.items():       # after an interrupt: what finished meanwhile
        if future.done() and not future.cancelled():
            _hand(future, index, items, done, failure)


def _hand(future: Any, index: int, items: list[tuple[Any, ...]], done: Done,
          failure: Callable[..., Any]) -> Any:
    """Hand the result of item `index` to `done` and return it."""
    try:
        result = future.result()
    except Exception as exc:        # the worker died (killed, out of memory) or the cluster failed
        result = failure(*items[index], 3,
                         f"internal error: worker failed ({type(exc).__name__}: {exc})")
    done(index, result)
    return result


def _dask(call: Callable[..., Any], items: list[tuple[Any, ...]], done: Done, *,
          scheduler: str, failure: Callable[..., Any]) -> None:
    """On the Dask distributed cluster at `scheduler`."""
    import importlib

    try:
        distributed: Any = importlib.import_module("distributed")      # untyped
    except ImportError:
        raise BspError("--scheduler needs Dask distributed: pip install 'bspedit[dask]'") from None
    try:
        client = distributed.Client(scheduler)
    except (OSError, ValueError) as exc:
        raise BspError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    with client:
        submitted = client.map(call, *zip(*items), pure=False)
        futures = {future.key: (future, index) for index, future in enumerate(submitted)}
        try:
            for future in distributed.as_completed(submitted):
                handed = _hand(future, futures[future.key][1], items, done, failure)
                del futures[future.key]
                if _is_interrupt(handed):
                    raise KeyboardInterrupt
        except KeyboardInterrupt:
            client.cancel([future for future, _ in futures.values() if not future.done()])
            for future, index in futures.values():
                if future.status == "finished":
                    _hand(future, index, items, done, failure)
