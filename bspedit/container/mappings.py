"""Read-only mappings of map files, counted per file in this process.

Record arrays (`Bsp.records`) are zero-copy views of one such mapping. Touching a mapped page
past the end of a file kills the process (SIGBUS), so an in-place save never cuts a file below
a live mapping of it (`guard_plan`): the file keeps zeros at its end instead.
"""
from __future__ import annotations

import mmap
import os
import weakref

from .planner import Plan

# (device, inode) -> the live read-only mappings of that file in this process
_MAPPINGS: dict[tuple[int, int], weakref.WeakSet[mmap.mmap]] = {}


def _file_key(fd: int) -> tuple[int, int]:
    info = os.fstat(fd)
    return info.st_dev, info.st_ino


def map_file(fd: int) -> mmap.mmap:
    """A read-only mapping of the whole file, counted until it is closed or collected."""
    mapping = mmap.mmap(fd, 0, access=mmap.ACCESS_READ)
    _MAPPINGS.setdefault(_file_key(fd), weakref.WeakSet()).add(mapping)
    return mapping


def release(mapping: mmap.mmap) -> None:
    """Close `mapping` if no array uses it any more (else it lives on with them)."""
    try:
        mapping.close()
    except BufferError:
        pass


def mapped_floor(fd: int) -> int:
    """The size an in-place save may not cut the file below: the longest live mapping of it."""
    key = _file_key(fd)
    floor = max((len(m) for m in _MAPPINGS.get(key, ()) if not m.closed), default=0)
    if not floor:
        _MAPPINGS.pop(key, None)
    return floor


def guard_plan(fd: int, plan: Plan) -> Plan:
    """`plan` (in-place) with no commit cutting the file below a live mapping of it."""
    floor = mapped_floor(fd)
    if not floor or all(c.size >= floor for c in plan.commits):
        return plan
    commits = tuple(c.replace(size=max(c.size, floor)) for c in plan.commits)
    return plan.replace(commits=commits)
