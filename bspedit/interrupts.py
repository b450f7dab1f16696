"""Ctrl-C held back over a few statements that must run whole."""
from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator


@contextlib.contextmanager
def uninterrupted() -> Iterator[None]:
    """Hold Ctrl-C back until the block has run, then hand it to the handler that was in
    place (which raises KeyboardInterrupt, or only notes it); in the main thread only:
    elsewhere Python delivers no KeyboardInterrupt anyway."""
    caught: list[int] = []
    try:
        previous = signal.signal(signal.SIGINT, lambda number, frame: caught.append(number))
    except ValueError:          # not the main thread: only it may set a handler
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.SIG_DFL)
    if caught:
        if callable(previous):
            previous(caught[0], None)
        elif previous is not signal.SIG_IGN:
            raise KeyboardInterrupt
