"""Where a batch's maps run: in this process, in a pool of worker processes of our own, or on
a Dask cluster; results handed on in input order, Ctrl-C turned into a flag for the run."""
from __future__ import annotations

import contextlib
import functools
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from ..errors import BspError
from ..interrupts import uninterrupted
from . import work
from .work import INTERRUPTED, is_interrupt, lost_interrupt, on_ctrl_c, worker_main

R = TypeVar("R")


# -- where the work runs -------------------------------------------------------------------
def default_jobs() -> int:
    """The number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


class Results(list[R]):
    """The results of a batch, in input order; `interrupted`: Ctrl-C arrived meanwhile (even
    if every map still finished)."""

    interrupted: bool = False


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
        if len(self.times) >= 3 and work.busy():    # `jobs=1`: the third one insists
            raise KeyboardInterrupt
        on_ctrl_c(signum, frame)

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


def gather(call: Callable[..., R], items: list[tuple[Any, ...]], *, jobs: int | None,
            scheduler: str | None, progress: bool, on_result: Callable[[R], None] | None,
            failure: Callable[..., R]) -> Results[R]:
    """`call(*item)` for every item; results in input order (handed to `on_result` as soon
    as they are in order). A call that fails outside `call` (a worker that died) becomes
    `failure(*item, 3, message)`; an item not run after an interrupt `failure(..., 130, ...)`."""
    from .. import progress as bars

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
        work.go_on()
        signal.signal(signal.SIGINT, ctrl_c.handle)
        sys.unraisablehook = functools.partial(lost_interrupt, hook)
    try:
        with drawn as shown:

            def done(index: int, result: R) -> None:
                nonlocal printed
                with uninterrupted():      # a result is kept and printed whole, exactly once
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
            work.go_on()
    gathered: Results[R] = Results(results[index] for index in range(len(items)))
    gathered.interrupted = bool(ctrl_c.times) or any(map(is_interrupt, gathered))
    return gathered


Done = Callable[[int, Any], None]


def _serial(call: Callable[..., Any], items: list[tuple[Any, ...]], done: Done,
            ctrl_c: _CtrlC) -> None:
    """In this process, in order, until Ctrl-C or a map comes back interrupted."""
    try:
        for index, item in enumerate(items):
            if ctrl_c.stopping:
                return
            result = call(*item)
            done(index, result)
            if is_interrupt(result):
                return
    except KeyboardInterrupt:       # raised only in a map, which turns it into its result
        ctrl_c.stopped = True


#: How pool workers start: forked on Linux (with bspedit imported), else spawned (Windows and
#: macOS: fork is missing, or unsafe with the system's libraries).
_START_METHOD = "fork" if sys.platform == "linux" and hasattr(os, "fork") else "spawn"


@contextlib.contextmanager
def _blocked_ctrl_c() -> Iterator[None]:
    """Ctrl-C kept from a process started meanwhile until it sets its handler (`worker_main`),
    so none dies in its interpreter's start-up with a traceback:
    * POSIX: SIGINT blocked in this thread (a fork inherits the mask, and so does the program
      it execs); one arriving meanwhile is delivered after;
    * no signal masks (Windows): Ctrl-C ignored while the process starts, which it inherits (a
      Ctrl-C in those milliseconds is lost to this process too)."""
    if hasattr(signal, "pthread_sigmask"):
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        return
    console = work.windows_console()
    if console is not None:
        console.SetConsoleCtrlHandler(None, True)
        try:
            yield
        finally:
            console.SetConsoleCtrlHandler(None, False)
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.SIG_DFL)


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
        with _blocked_ctrl_c():
            resource_tracker.ensure_running()
    waiting = list(range(len(items)))[::-1]         # popped from the end: input order
    workers: list[_Worker] = []
    started: list[Any] = []

    def finish(worker: _Worker, result: Any) -> None:
        index, worker.task = worker.task, None
        assert index is not None
        done(index, result)
        if is_interrupt(result):
            ctrl_c.stopped = True

    def fail(worker: _Worker, message: str) -> None:
        assert worker.task is not None
        message = f"internal error: worker failed ({message})"
        finish(worker, failure(*items[worker.task], 3, message))

    def start() -> _Worker:
        mine, theirs = context.Pipe()
        inherited = [w.conn for w in workers] + [mine] if forked else []
        process = context.Process(target=worker_main, args=(theirs, workers_handle, inherited),
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
                if is_interrupt(handed):
                    raise KeyboardInterrupt
        except KeyboardInterrupt:
            ctrl_c.times.append(time.monotonic())
            client.cancel([future for future, _ in futures.values() if not future.done()])
            for future, index in futures.values():
                if future.status == "finished":
                    _hand(future, index, items, done, failure)
