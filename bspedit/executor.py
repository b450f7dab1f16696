"""Writing a plan to disk: the only module that writes map files.

`-o` saves go to a temporary file in the target's folder, are fsynced and renamed over the
target, so the target is either the old file or the complete new one. In-place saves append
new data beyond the end, fsync, rewrite the header last, fsync, then zero what is no longer
referenced.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable

from .outputs import atomic_file, write_all as _write_all
from .planner import Piece, Plan

CHUNK = 1 << 20
_ZEROS = bytes(CHUNK)

# Content of a piece that is not a plain copy: (piece, offset where it lands) -> bytes.
Materialise = Callable[[Piece, int], bytes]


def copy_range(src_fd: int, dst_fd: int, offset: int, length: int) -> None:
    """Copy `length` bytes at `offset` of src to dst's current position, in the kernel if possible."""
    while length > 0:
        try:
            done = os.copy_file_range(src_fd, dst_fd, min(length, 1 << 30), offset)
        except OSError:
            done = 0
        if done <= 0:
            _copy_range_userspace(src_fd, dst_fd, offset, length)
            return
        offset += done
        length -= done


def _copy_range_userspace(src_fd: int, dst_fd: int, offset: int, length: int) -> None:
    while length > 0:
        chunk = os.pread(src_fd, min(length, CHUNK), offset)
        if not chunk:
            raise OSError(f"unexpected end of file at offset {offset}")
        _write_all(dst_fd, chunk)
        offset += len(chunk)
        length -= len(chunk)



def _write_zeros(fd: int, length: int) -> None:
    while length > 0:
        step = min(length, CHUNK)
        _write_all(fd, _ZEROS[:step])
        length -= step


def write_pieces(src_fd: int, dst_fd: int, pieces: Iterable[Piece], start: int,
                 materialise: Materialise) -> None:
    """Write pieces one after another at dst's current position (which is `start`)."""
    position = start
    for piece in pieces:
        if piece.kind == "copy":
            copy_range(src_fd, dst_fd, piece.src, piece.length)
        elif piece.kind == "zeros":
            _write_zeros(dst_fd, piece.length)
        else:
            data = materialise(piece, position)
            if len(data) != piece.length:
                raise AssertionError(f"{piece.kind} piece is {len(data)} bytes, planned {piece.length}")
            _write_all(dst_fd, data)
        position += piece.length


def save_as(src_fd: int, target: str, header: bytes, plan: Plan, materialise: Materialise) -> None:
    """Write header and plan to a new file and atomically put it at `target` (see outputs)."""
    with atomic_file(target, mode_from=src_fd) as fd:
        _write_all(fd, header)
        write_pieces(src_fd, fd, plan.pieces, plan.start, materialise)


def save_in_place(fd: int, header: bytes, plan: Plan, materialise: Materialise) -> None:
    """Append the plan's pieces, commit the header, then zero the places no longer used."""
    if plan.pieces:
        os.lseek(fd, plan.start, os.SEEK_SET)
        write_pieces(fd, fd, plan.pieces, plan.start, materialise)
        os.fsync(fd)
    os.pwrite(fd, header, 0)
    os.fsync(fd)
    for offset, length in plan.cleanup:
        os.lseek(fd, offset, os.SEEK_SET)
        _write_zeros(fd, length)
    if plan.cleanup:
        os.fsync(fd)
