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
    from .edits import Edit
    from .session import OpenMap

#: the edits that change the pakfile alone (a picture of the map is the same without them)
PAK_ONLY = frozenset({"pak_add", "pak_upload", "pak_remove", "autopack"})


def pending(opened: OpenMap, *, pakfile: bool = True) -> tuple[tuple[Edit, ...], int]:
    """The map's pending edits (without those that change only the pakfile, unless
    `pakfile`) and its revision: together they say which state a view shows."""
    with opened.lock:
        edits, revision = list(opened.edits), opened.revision
    return tuple(e for e in edits if pakfile or e.op not in PAK_ONLY), revision


@contextmanager
def replayed(opened: OpenMap, edits: tuple[Edit, ...] | None = None
             ) -> Iterator[tuple[Bsp, int]]:
    """The map as its pending edits (or `edits`, some of them: `pending`) leave it, opened
    apart, with the revision it shows."""
    chosen, revision = pending(opened)
    bsp = Bsp.open(opened.path)
    edits = chosen if edits is None else edits
    try:
        for edit in edits:
            edit.apply(bsp)
        yield bsp, revision
    finally:
        bsp.close()
