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

import contextlib
import dataclasses
import functools
import glob
import os
import signal
import sys
import threading
import time
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
        on_report: Callable[[Report], None] | None = None) -> list[Report]:
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
_BUSY = False               # this process is processing a map (inside `_working`)
_RAISED = False             # ... and Ctrl-C has interrupted it
_STOPPING = False           # Ctrl-C reached this process (a pool worker, or `jobs=1`): start no map


def _on_ctrl_c(signum: int, frame: Any) -> None:
    """SIGINT in a process that runs maps: no map is started after it, and the map being
    processed is interrupted, once: a second KeyboardInterrupt could land in the clean-up of
    the first (an atomic write removing its temporary file). Outside a map nothing is raised,
    so a pool worker is never killed half-way through its own code."""
    global _STOPPING, _RAISED
    _STOPPING = True
    if _BUSY and not _RAISED:
        _RAISED = True
        raise KeyboardInterrupt


def _lost_interrupt(previous: Callable[[Any], None], unraisable: Any) -> None:
    """`sys.unraisablehook` while maps run: a KeyboardInterrupt of `_on_ctrl_c` that landed in
    a finalizer (a `__del__`, a weakref callback) is lost, since Python cannot raise it there;
    let the next SIGINT (the pool passes Ctrl-C on after a second) raise it again, and print
    nothing. Anything else goes to the hook that was in place."""
    global _RAISED
    if unraisable.exc_type is KeyboardInterrupt and _RAISED:
        _RAISED = False
        return
    previous(unraisable)


@contextlib.contextmanager
def _working() -> Iterator[bool]:
    """Hold the process's map slot; yields False when Ctrl-C stopped the batch meanwhile."""
    global _BUSY, _RAISED
    with _LOCK:
        try:
            _RAISED = False
            _BUSY = True        # from here Ctrl-C raises; before, it is seen in _STOPPING
            yield not _STOPPING
        finally:
            _BUSY = False


def _worker_main(conn: Any, handle_ctrl_c: bool, inherited: Sequence[Any]) -> None:
    """A pool worker: run the maps handed over `conn` one at a time (`(call, item)` in,
    `(True, result)` or `(False, what went wrong)` out) until the pipe closes or brings None.
    It starts with SIGINT blocked (see `_blocked_ctrl_c`), so Ctrl-C cannot kill it before
    its handler is in place."""
    signal.signal(signal.SIGINT, _on_ctrl_c if handle_ctrl_c else signal.SIG_IGN)
    sys.unraisablehook = functools.partial(_lost_interrupt, sys.unraisablehook)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    for other in inherited:     # forked: the parent's ends of the pipes, so EOF gets through
        other.close()
    try:
        _serve(conn)
    finally:
        _reap_children()


def _serve(conn: Any) -> None:
    """The worker's loop: a map in, its answer out."""
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):         # the parent is gone or let this worker go
            return
        except Exception as exc:            # a task that does not unpickle here
            answer: tuple[bool, Any] = (False, f"{type(exc).__name__}: {exc}")
        else:
            if task is None:
                return
            call, item = task
            try:
                answer = (True, call(*item))
            except BaseException as exc:    # a bug of call's, SystemExit
                answer = (False, f"{type(exc).__name__}: {exc}")
        try:
            conn.send(answer)
        except (EOFError, OSError):
            return
        except Exception as exc:            # a result that does not pickle (sent nothing)
            conn.send((False, f"{type(exc).__name__}: {exc}"))


def _reap_children(wait: float = 1.0) -> None:
    """Collect any child process a map left behind (a subprocess abandoned to Ctrl-C, such as
    the `file` that `platform.architecture()` runs), waiting for it `wait` seconds at most,
    so that none outlives the worker, handed to init."""
    if os.name != "posix":
        return
    deadline = time.monotonic() + wait
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0] or time.monotonic() < deadline:
            time.sleep(0.01)


def _run_line(path: str, line: list[str], verb: str) -> Report:
    """One map's command line, run in this process (a pool or cluster worker, or the caller)."""
    report, message = None, "interrupted; not run"
    try:
        with _working() as started:
            report = invoke(line, capture=True) if started else None
    except KeyboardInterrupt:       # invoke turns those in the command into its exit 130
        message = "interrupted"
    if report is None:
        return _failed_report(path, line, verb, INTERRUPTED, message)
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


class _Results(list[Any]):
    """The results of a batch, in input order; `interrupted`: Ctrl-C arrived meanwhile (even
    if every map still finished)."""

    interrupted = False


class _CtrlC:
    """The Ctrl-Cs (SIGINT) a batch got in the calling process, turned into a flag for the
    whole run, so no KeyboardInterrupt lands at an arbitrary point of the pool's own work."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.stopped = False        # a map came back interrupted: start no more

    @property
    def stopping(self) -> bool:
        return self.stopped or bool(self.times)

    def handle(self, signum: int, frame: Any) -> None:
        self.times.append(time.monotonic())
        if len(self.times) >= 3 and _BUSY:      # `jobs=1`: the third one insists
            raise KeyboardInterrupt
        _on_ctrl_c(signum, frame)

    def deadlines(self) -> tuple[float, float]:
        """When to pass Ctrl-C on to a pool worker still busy (one may have been left out
        of it: `kill -INT` of this process alone), and when to kill it: 1 and 10 seconds
        after the first Ctrl-C; at once and 2 seconds after a second; at once on a third."""
        first = self.times[0]
        if len(self.times) == 1:
            return first + FORWARD_AFTER, first + KILL_AFTER
        second = self.times[1]
        if len(self.times) == 2:
            return second, min(first + KILL_AFTER, second + KILL_AFTER_SECOND)
        return second, self.times[2]


FORWARD_AFTER, KILL_AFTER, KILL_AFTER_SECOND = 1.0, 10.0, 2.0


def _gather(call: Callable[..., R], items: list[tuple[Any, ...]], *, jobs: int | None,
            scheduler: str | None, progress: bool, on_result: Callable[[R], None] | None,
            failure: Callable[..., R]) -> list[R]:
    """`call(*item)` for every item; results in input order (handed to `on_result` as soon
    as they are in order). A call that fails outside `call` (a worker that died) becomes
    `failure(*item, 3, message)`; an item not run after an interrupt `failure(..., 130, ...)`."""
    from . import progress as bars

    global _STOPPING
    results: dict[int, R] = {}
    printed = 0
    ctrl_c = _CtrlC()
    jobs = min(jobs or default_jobs(), len(items))
    previous = signal.getsignal(signal.SIGINT)
    workers_handle = previous is not signal.SIG_IGN
    # Ctrl-C becomes a flag for the whole run (not on a cluster: Dask's client is left to
    # its KeyboardInterrupt), where this thread may set a handler and the user has not
    # turned Ctrl-C off
    catch = (not scheduler and workers_handle
             and threading.current_thread() is threading.main_thread())
    drawn = bars.bar(len(items), "maps", unit="map", minimum=2, delay=0) if progress \
        else contextlib.nullcontext(bars.Progress())
    hook = sys.unraisablehook
    if catch:
        _STOPPING = False
        signal.signal(signal.SIGINT, ctrl_c.handle)
        sys.unraisablehook = functools.partial(_lost_interrupt, hook)
    try:
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

            if scheduler and items:
                _dask(call, items, done, scheduler=scheduler, failure=failure, ctrl_c=ctrl_c)
            elif jobs > 1:
                _pool(call, items, done, jobs=jobs, failure=failure, ctrl_c=ctrl_c,
                      workers_handle=workers_handle)
            else:
                _serial(call, items, done, ctrl_c)
            for index, item in enumerate(items):
                if index not in results:
                    done(index, failure(*item, INTERRUPTED, "interrupted; not run"))
    finally:
        if catch:
            signal.signal(signal.SIGINT, previous if previous is not None else signal.SIG_DFL)
            sys.unraisablehook = hook
            _STOPPING = False
    gathered = _Results(results[index] for index in range(len(items)))
    gathered.interrupted = bool(ctrl_c.times) or any(map(_is_interrupt, gathered))
    return gathered


Done = Callable[[int, Any], None]


@contextlib.contextmanager
def _uninterrupted() -> Iterator[None]:
    """Hold Ctrl-C back until the block has run, then hand it to the handler that was in
    place (which raises KeyboardInterrupt, or only notes it); in the main thread only:
    elsewhere Python delivers no KeyboardInterrupt anyway."""
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
        if callable(previous):
            previous(caught[0], None)
        elif previous is not signal.SIG_IGN:
            raise KeyboardInterrupt


def _serial(call: Callable[..., Any], items: list[tuple[Any, ...]], done: Done,
            ctrl_c: _CtrlC) -> None:
    """In this process, in order, until Ctrl-C or a map comes back interrupted."""
    try:
        for index, item in enumerate(items):
            if ctrl_c.stopping:
                return
            result = call(*item)
            done(index, result)
            if _is_interrupt(result):
                return
    except KeyboardInterrupt:       # raised only in a map, which turns it into its result
        ctrl_c.stopped = True


#: How pool workers start: forked on Linux (with bspedit imported), else the platform's
#: default (spawn on Windows and macOS).
_START_METHOD = "fork" if sys.platform == "linux" else None


@contextlib.contextmanager
def _blocked_ctrl_c() -> Iterator[None]:
    """SIGINT blocked in this thread, so a process started meanwhile starts with it blocked
    (a fork inherits the mask, and so does the program it execs) until its handler is set;
    one arriving here meanwhile is delivered after. Windows has no signal masks."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


@dataclass(eq=False)
class _Worker:
    process: Any
    conn: Any
    task: int | None = None         # the item it is running
    signalled: bool = False         # Ctrl-C passed on to it
    killed: bool = False


def _pool(call: Callable[..., Any], items: list[tuple[Any, ...]], done: Done, *, jobs: int,
          failure: Callable[..., Any], ctrl_c: _CtrlC, workers_handle: bool) -> None:
    """In `jobs` worker processes, each with a pipe of its own (nothing shared between them,
    so a worker stopped anywhere blocks no other), handed one item at a time in input order.
    A worker that dies fails its item (exit 3) and another takes its place. After Ctrl-C no
    item is handed out; busy workers finish or are interrupted (see `_CtrlC.deadlines`).
    Every process is ended and joined before this returns."""
    import multiprocessing
    from multiprocessing.connection import wait

    context: Any = multiprocessing.get_context(_START_METHOD)
    forked = context.get_start_method() == "fork"
    if not forked and os.name == "posix":
        # spawned workers need multiprocessing's resource tracker, which unblocks SIGINT
        # once it has started it: started now, it leaves `_blocked_ctrl_c` alone
        from multiprocessing import resource_tracker
        resource_tracker.ensure_running()
    waiting = list(range(len(items)))[::-1]         # popped from the end: input order
    workers: list[_Worker] = []
    started: list[Any] = []

    def finish(worker: _Worker, result: Any) -> None:
        index, worker.task = worker.task, None
        assert index is not None
        done(index, result)
        if _is_interrupt(result):
            ctrl_c.stopped = True

    def fail(worker: _Worker, message: str) -> None:
        assert worker.task is not None
        finish(worker, failure(*items[worker.task], 3, f"internal error: worker failed ({message})"))

    def start() -> _Worker:
        mine, theirs = context.Pipe()
        inherited = [w.conn for w in workers] + [mine] if forked else []
        process = context.Process(target=_worker_main, args=(theirs, workers_handle, inherited),
                                  name=f"bspedit-worker-{len(started) + 1}")
        with _blocked_ctrl_c():
            process.start()
        started.append(process)
        theirs.close()
        worker = _Worker(process, mine)
        workers.append(worker)
        return worker

    def hand(worker: _Worker, index: int) -> None:
        worker.task = index
        try:
            worker.conn.send((call, items[index]))
        except (EOFError, OSError):
            bury(worker)
        except Exception as exc:        # does not pickle: nothing was sent
            fail(worker, f"{type(exc).__name__}: {exc}")

    def collect(worker: _Worker) -> None:
        try:
            if worker.conn.poll():
                ok, payload = worker.conn.recv()
                if ok:
                    finish(worker, payload)
                else:
                    fail(worker, payload)
                return
        except (EOFError, OSError):     # its end of the pipe closed: it is ending
            bury(worker)
            return
        except Exception as exc:        # a result that does not unpickle here
            fail(worker, f"{type(exc).__name__}: {exc}")
            return
        if not worker.process.is_alive():
            bury(worker)

    def bury(worker: _Worker) -> None:
        """A worker that is gone: its item fails."""
        workers.remove(worker)
        worker.conn.close()
        _end(worker.process, 5.0)
        if worker.task is None:
            return
        if worker.killed or ctrl_c.stopping:
            finish(worker, failure(*items[worker.task], INTERRUPTED, "interrupted"))
        else:
            fail(worker, f"its process {_death(worker.process.exitcode)}")

    def retire(worker: _Worker) -> None:
        workers.remove(worker)
        worker.conn.close()             # an idle worker ends at EOF

    def escalate() -> None:
        forward, kill = ctrl_c.deadlines()
        now = time.monotonic()
        for worker in workers:
            if worker.task is None or worker.killed:
                continue
            if now >= kill:
                worker.killed = True
                worker.process.kill()
            elif now >= forward and not worker.signalled and os.name == "posix":
                worker.signalled = True
                with contextlib.suppress(ProcessLookupError):
                    os.kill(worker.process.pid, signal.SIGINT)

    try:
        while True:
            if ctrl_c.stopping:
                waiting.clear()
            for worker in [w for w in workers if w.task is None]:
                if worker.process.exitcode is not None:
                    bury(worker)
                elif waiting:
                    hand(worker, waiting.pop())
                else:
                    retire(worker)
            while waiting and len(workers) < jobs:
                hand(start(), waiting.pop())
            busy = [w for w in workers if w.task is not None]
            if not busy:
                if waiting:
                    continue
                break
            ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy],
                         timeout=0.1)
            for worker in busy:
                if worker.conn in ready or worker.process.sentinel in ready:
                    collect(worker)
            if ctrl_c.times:
                escalate()
    finally:
        _shut_down(workers, started)


def _death(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"was killed by {name}" + ("; out of memory?" if name == "SIGKILL" else "")
    return f"ended with exit code {code}"


def _end(process: Any, wait: float) -> None:
    """Wait for `process` to end, at most `wait` seconds, then kill it."""
    process.join(wait)
    if process.exitcode is None:
        process.kill()
        process.join()


def _shut_down(workers: list[_Worker], started: list[Any]) -> None:
    """End every worker: the idle at once (EOF), the busy (only when an error stops the
    pool) interrupted, killed if they do not end within 10 seconds."""
    for worker in workers:
        worker.conn.close()
        if worker.task is not None and os.name == "posix" and worker.process.exitcode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(worker.process.pid, signal.SIGINT)
    deadline = time.monotonic() + KILL_AFTER
    for process in started:
        _end(process, max(0.0, deadline - time.monotonic()))
        process.close()


def _hand(future: Any, index: int, items: list[tuple[Any, ...]], done: Done,
          failure: Callable[..., Any]) -> Any:
    """Hand the result of item `index` (a cluster's future) to `done` and return it."""
    try:
        result = future.result()
    except Exception as exc:        # the cluster failed
        result = failure(*items[index], 3,
                         f"internal error: worker failed ({type(exc).__name__}: {exc})")
    done(index, result)
    return result


def _dask(call: Callable[..., Any], items: list[tuple[Any, ...]], done: Done, *,
          scheduler: str, failure: Callable[..., Any], ctrl_c: _CtrlC) -> None:
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
            ctrl_c.times.append(time.monotonic())
            client.cancel([future for future, _ in futures.values() if not future.done()])
            for future, index in futures.values():
                if future.status == "finished":
                    _hand(future, index, items, done, failure)
