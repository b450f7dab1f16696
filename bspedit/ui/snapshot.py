"""A private copy of an opened map's state for the long reads of the views (the picture, pak
deps and audit): the file opened again and the pending edits applied to it, so the work runs
without holding the map's lock (the Entities view and new edits go on meanwhile) and nothing
it does touches the state the edits apply to."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from ..bsp import Bsp

if TYPE_CHECKING:
    from .session import OpenMap


@contextmanager
def replayed(opened: OpenMap) -> Iterator[tuple[Bsp, int]]:
    """The map as its pending edits leave it, opened apart, with the revision it shows."""
    with opened.lock:
        edits, revision = list(opened.edits), opened.revision
    bsp = Bsp.open(opened.path)
    try:
        for edit in edits:
            edit.apply(bsp)
        yield bsp, revision
    finally:
        bsp.close()
