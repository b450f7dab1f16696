"""What runs a map in a worker process (or the calling one): the command line or function of
one map, Ctrl-C taken only while a map is processed, and the pool worker's loop."""
from __future__ import annotations

import contextlib
import functools
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..cli import invoke
from ..cli.report import Report
from ..container.outputs import discard_unfinished

INTERRUPTED = 130


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


# -- work done in the workers --------------------------------------------------------------
_LOCK = threading.Lock()    # one map at a time per process: invoke redirects sys.stdout
_BUSY = False               # this process is processing a map (inside `_working`)
_RAISED = False             # ... and Ctrl-C has interrupted it
_STOPPING = False           # Ctrl-C reached this process (a pool worker, or `jobs=1`): start no map


def on_ctrl_c(signum: int, frame: Any) -> None:
    """SIGINT in a process that runs maps: no map is started after it, and the map being
    processed is interrupted, once: a second KeyboardInterrupt could land in the clean-up of
    the first (an atomic write removing its temporary file). Outside a map nothing is raised,
    so a pool worker is never killed half-way through its own code."""
    global _STOPPING, _RAISED
    _STOPPING = True
    if _BUSY and not _RAISED:
        _RAISED = True
        raise KeyboardInterrupt


def lost_interrupt(previous: Callable[[Any], None], unraisable: Any) -> None:
    """`sys.unraisablehook` while maps run: a KeyboardInterrupt of `on_ctrl_c` that landed in
    a finalizer (a `__del__`, a weakref callback) is lost, since Python cannot raise it there;
    let the next SIGINT (the pool passes Ctrl-C on after a second) raise it again, and print
    nothing. Anything else goes to the hook that was in place."""
    global _RAISED
    if unraisable.exc_type is KeyboardInterrupt and _RAISED:
        _RAISED = False
        return
    previous(unraisable)


def busy() -> bool:
    """Whether this process is processing a map."""
    return _BUSY


def go_on() -> None:
    """Forget a Ctrl-C seen by an earlier batch of this process: maps may start again."""
    global _STOPPING
    _STOPPING = False


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
            discard_unfinished()    # a write of this map that Ctrl-C stopped, however it landed


def windows_console() -> Any:
    """kernel32 on Windows (its console's Ctrl-C switch), else None."""
    if os.name != "nt":
        return None
    import ctypes

    return ctypes.WinDLL("kernel32")      # type: ignore[attr-defined]


def worker_main(conn: Any, handle_ctrl_c: bool, inherited: Sequence[Any]) -> None:
    """A pool worker: run the maps handed over `conn` one at a time (`(call, item)` in,
    `(True, result)` or `(False, what went wrong)` out) until the pipe closes or brings None.
    It starts with Ctrl-C blocked or ignored (see `_blocked_ctrl_c`), so it cannot kill it before
    its handler is in place."""
    signal.signal(signal.SIGINT, on_ctrl_c if handle_ctrl_c else signal.SIG_IGN)
    sys.unraisablehook = functools.partial(lost_interrupt, sys.unraisablehook)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    console = windows_console()
    if console is not None and handle_ctrl_c:
        console.SetConsoleCtrlHandler(None, False)      # started with Ctrl-C ignored
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


def run_line(path: str, line: list[str], verb: str) -> Report:
    """One map's command line, run in this process (a pool or cluster worker, or the caller)."""
    report, message = None, "interrupted; not run"
    try:
        with _working() as started:
            report = invoke(line, capture=True) if started else None
    except KeyboardInterrupt:       # invoke turns those in the command into its exit 130
        message = "interrupted"
    if report is None:
        return failed_report(path, line, verb, INTERRUPTED, message)
    report.map = report.map or path
    return report


def call(path: str, function: Callable[[str], Any]) -> Outcome:
    try:
        with _working() as started:
            if not started:
                return Outcome(path, error="interrupted; not run", kind="KeyboardInterrupt")
            return Outcome(path, function(path))
    except KeyboardInterrupt:
        return Outcome(path, error="interrupted", kind="KeyboardInterrupt")
    except Exception as exc:
        return Outcome(path, error=str(exc) or type(exc).__name__, kind=type(exc).__name__)


def failed_report(path: str, line: list[str], verb: str, code: int, message: str) -> Report:
    """The Report of a map whose command did not run to its end in a worker."""
    return Report(verb=verb, map=path, error=message, code=code,
                  stderr=f"bspedit: {path}: {message}\n")


def failed_outcome(path: str, function: Callable[[str], Any], code: int, message: str) -> Outcome:
    kind = "KeyboardInterrupt" if code == INTERRUPTED else "WorkerError"
    return Outcome(path, error=message, kind=kind)


def is_interrupt(result: Any) -> bool:
    return result.code == INTERRUPTED if isinstance(result, Report) else result.interrupted
