"""Writing a plan to disk: the only module that writes map files.

`-o` saves go to a temporary file in the target's folder, are fsynced and renamed over the
target, so the target is either the old file or the complete new one. In-place saves go in
commits: write new data into free space only (zeros nothing references, or past the end),
fsync, rewrite the header, fsync, then zero what is no longer referenced (punching holes where
the file system can), cut a free end off the file, fsync.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable

from .. import progress
from .digests import CHUNK, read_chunks
from .fileio import kernel_copy, punch_hole, pwrite, write_all as _write_all
from .outputs import atomic_file
from .planner import Piece, Plan

_ZEROS = bytes(CHUNK)
_COPY_STEP = 1 << 26        # bytes per kernel copy call: a progress bar moves this often

# Content of a piece that is not a plain copy: (piece, offset where it lands) -> its bytes, or
# the offset of the source file's bytes it is as they are (copied in the kernel).
Materialise = Callable[[Piece, int], bytes | int]
# Told how many more bytes are written (a progress bar).
Advance = Callable[[int], None]


def _unseen(_: int) -> None:
    """An `Advance` nobody watches."""


def copy_range(src_fd: int, dst_fd: int, offset: int, length: int,
               advance: Advance = _unseen) -> None:
    """Copy `length` bytes at `offset` of src to dst's current position, in the kernel if possible."""
    while length > 0:
        done = kernel_copy(src_fd, dst_fd, min(length, _COPY_STEP), offset)
        if done <= 0:
            _copy_range_userspace(src_fd, dst_fd, offset, length)
            advance(length)
            return
        offset += done
        length -= done
        advance(done)


def _copy_range_userspace(src_fd: int, dst_fd: int, offset: int, length: int) -> None:
    for chunk in read_chunks(src_fd, offset, length):
        _write_all(dst_fd, chunk)


def _write_zeros(fd: int, length: int) -> None:
    while length > 0:
        step = min(length, CHUNK)
        _write_all(fd, _ZEROS[:step])
        length -= step


def write_pieces(src_fd: int, dst_fd: int, pieces: Iterable[Piece], start: int,
                 materialise: Materialise, advance: Advance = _unseen) -> None:
    """Write pieces one after another at dst's current position (which is `start`)."""
    position = start
    for piece in pieces:
        data = b"" if piece.kind == "zeros" else piece.src if piece.kind == "copy" \
            else materialise(piece, position)
        if isinstance(data, int):           # the source's bytes at that offset, as they are
            copy_range(src_fd, dst_fd, data, piece.length, advance)
        elif piece.kind == "zeros":
            _write_zeros(dst_fd, piece.length)
            advance(piece.length)
        elif len(data) != piece.length:
            raise AssertionError(f"{piece.kind} piece is {len(data)} bytes, planned {piece.length}")
        else:
            _write_all(dst_fd, data)
            advance(piece.length)
        position += piece.length


def save_as(src_fd: int, target: str, header: bytes, plan: Plan, materialise: Materialise,
            let_go: Callable[[], None] | None = None) -> None:
    """Write header and plan to a new file and atomically put it at `target` (see outputs;
    `let_go` closes the source first when it is the target); a big one shows a progress bar
    on a terminal."""
    total = len(header) + sum(piece.length for piece in plan.pieces)
    with atomic_file(target, mode_from=src_fd, let_go=let_go) as fd, \
            progress.bar(total, f"writing {os.path.basename(target)}") as shown:
        _write_all(fd, header)
        shown.advance(len(header))
        write_pieces(src_fd, fd, plan.pieces, plan.start, materialise, shown.advance)


def save_in_place(fd: int, headers: list[bytes], plan: Plan, materialise: Materialise) -> None:
    """Run the plan's commits, each with its header: write into free space, commit the
    header, then zero what it vacated and cut the file."""
    for commit, header in zip(plan.commits, headers, strict=True):
        size = os.fstat(fd).st_size
        if commit.size > size:
            os.ftruncate(fd, commit.size)       # zeros past the old end: nothing refers to them
        for offset, pieces in commit.writes:
            os.lseek(fd, offset, os.SEEK_SET)
            write_pieces(fd, fd, pieces, offset, materialise)
        if commit.writes or commit.size > size:
            os.fsync(fd)
        pwrite(fd, header, 0)
        os.fsync(fd)
        for offset, length in commit.cleanup:
            zero_range(fd, offset, min(length, commit.size - offset))
        if commit.size < size:
            os.ftruncate(fd, commit.size)
        if commit.cleanup or commit.size < size:
            os.fsync(fd)


def zero_range(fd: int, offset: int, length: int) -> None:
    """Zero `length` bytes at `offset`: a punched hole where the file system has them (the
    blocks are freed), else written zeros."""
    if length <= 0:
        return
    if punch_hole(fd, offset, length):
        return
    os.lseek(fd, offset, os.SEEK_SET)
    _write_zeros(fd, length)
