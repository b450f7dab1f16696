"""Progress bars for long work (tqdm, on standard error).

A bar is shown only when standard error is a terminal, `--quiet` was not given, and the work is
big enough to take a while: below `minimum` units nothing is drawn and tqdm is not even
imported (start-up time), and tqdm itself waits `DELAY` seconds before drawing, so quick work
never flickers a bar. Batch workers capture standard error, so they never draw one.
"""
from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

#: Byte counts below this are quick enough to need no bar (a copy of 64 MiB takes well under
#: a second).
BIG_WORK = 64 << 20
#: Bytes that Valve's LZMA settings take seconds to compress (bspzip's repack).
LZMA_WORK = 4 << 20
DELAY = 0.5                     # seconds of work before a bar appears

_quiet: ContextVar[bool] = ContextVar("bspedit_quiet", default=False)


@contextlib.contextmanager
def quiet(on: bool = True) -> Iterator[None]:
    """No bars inside this block when `on` (the CLI's `--quiet`)."""
    token = _quiet.set(on or _quiet.get())
    try:
        yield
    finally:
        _quiet.reset(token)


class Progress:
    """What a caller of `bar` gets: `advance(n)` and `printing()` (a block in which lines
    may be printed without tearing the bar). Without a bar both do nothing."""

    def __init__(self, shown: Any = None) -> None:
        self._bar = shown

    def advance(self, n: int = 1) -> None:
        if self._bar is not None:
            self._bar.update(n)

    def printing(self) -> contextlib.AbstractContextManager[Any]:
        if self._bar is None:
            return contextlib.nullcontext()
        writing: contextlib.AbstractContextManager[Any] = self._bar.external_write_mode()
        return writing


def shown(total: int, minimum: int = BIG_WORK) -> bool:
    """Whether work of `total` units gets a bar here and now."""
    return total >= minimum and not _quiet.get() and _is_terminal(sys.stderr)


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


@contextlib.contextmanager
def bar(total: int, description: str, *, unit: str = "B", minimum: int = BIG_WORK,
        delay: float = DELAY) -> Iterator[Progress]:
    """A bar for `total` units of work (bytes by default) while the block runs, drawn after
    `delay` seconds (0 for one that `printing` redraws: tqdm does not clear a bar drawn
    before its delay); removed at its end. See the module's docstring for when it is drawn."""
    if not shown(total, minimum):
        yield Progress()
        return
    from tqdm import tqdm  # type: ignore[import-untyped]

    tqdm.monitor_interval = 0        # no monitor thread (batch pools fork after a bar)
    in_bytes = unit == "B"
    with tqdm(total=total, desc=description, unit=unit, unit_scale=in_bytes,
              unit_divisor=1024 if in_bytes else 1000, file=sys.stderr, delay=delay,
              leave=False, dynamic_ncols=True) as drawn:
        yield Progress(drawn)

