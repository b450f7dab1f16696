"""File calls for every OS: the kernel's fast paths where it has them, a portable path where not.

Linux has positional reads and writes (`pread`, `preadv`, `pwrite`), copies inside the kernel
(`copy_file_range`) and frees zeroed blocks (`fallocate` punching holes); macOS has the
positional calls only; Windows has none of them. Each function here uses the fast call when
the running Python has it and otherwise seeks, reads and writes, putting the descriptor's
position back (a save may read and write one descriptor). What each path writes is the same.

Every descriptor bspedit opens comes from `open_fd`: binary (Windows would otherwise open it
in text mode and turn each newline written into two bytes).
"""
from __future__ import annotations

import functools
import io
import os
from collections.abc import Callable

#: Added to every `os.open`: binary mode where there is a text mode (Windows).
_BINARY = getattr(os, "O_BINARY", 0)
#: FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE (Linux).
_PUNCH_HOLE = 0x03


#: Flags that are 0 where the OS has none (Windows: no close-on-exec flag, as Python's
#: descriptors are not inherited anyway; no way to refuse a symbolic link at open).
CLOEXEC = getattr(os, "O_CLOEXEC", 0)
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def open_fd(path: str | os.PathLike[str], flags: int, mode: int = 0o777) -> int:
    """`os.open` in binary mode (give `CLOEXEC` and `NOFOLLOW`, not the `os` names)."""
    return os.open(path, flags | _BINARY, mode)


class _Position:
    """Seek `fd` for a portable positional call and put its position back afterwards."""

    def __init__(self, fd: int, offset: int) -> None:
        self.fd, self.offset = fd, offset

    def __enter__(self) -> None:
        self.saved = os.lseek(self.fd, 0, os.SEEK_CUR)
        os.lseek(self.fd, self.offset, os.SEEK_SET)

    def __exit__(self, *_: object) -> None:
        os.lseek(self.fd, self.saved, os.SEEK_SET)


def pread(fd: int, length: int, offset: int) -> bytes:
    """Up to `length` bytes at `offset` (fewer at the end of the file)."""
    call = getattr(os, "pread", None)
    if call is not None:
        return bytes(call(fd, length, offset))
    with _Position(fd, offset):
        return os.read(fd, length)


def read_into(fd: int, buffer: memoryview, offset: int) -> int:
    """Read into `buffer` from `offset`; how many bytes came (0 at the end of the file)."""
    call = getattr(os, "preadv", None)
    if call is not None:
        return int(call(fd, [buffer], offset))
    with _Position(fd, offset), io.FileIO(fd, "r", closefd=False) as handle:
        return handle.readinto(buffer) or 0


def write_all(fd: int, data: bytes | memoryview) -> None:
    """Write all of `data` at `fd`'s position."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def pwrite(fd: int, data: bytes | memoryview, offset: int) -> None:
    """Write all of `data` at `offset`, leaving `fd`'s position where it was."""
    call = getattr(os, "pwrite", None)
    view = memoryview(data)
    if call is None:
        with _Position(fd, offset):
            write_all(fd, view)
        return
    while view:
        done = call(fd, view, offset)
        view, offset = view[done:], offset + done


def kernel_copy(src_fd: int, dst_fd: int, length: int, offset: int) -> int:
    """Copy up to `length` bytes at `offset` of src to dst's position inside the kernel; how
    many were copied (0: this OS or file system cannot, copy them in user space)."""
    call = getattr(os, "copy_file_range", None)
    if call is None:
        return 0
    try:
        return max(0, int(call(src_fd, dst_fd, length, offset)))
    except OSError:
        return 0


@functools.cache
def _fallocate() -> Callable[..., int] | None:
    """libc's fallocate(2), where there is one (Linux)."""
    import ctypes
    import sys

    if sys.platform != "linux":
        return None
    try:
        function = ctypes.CDLL(None, use_errno=True).fallocate
    except (AttributeError, OSError):
        return None
    function.argtypes = (ctypes.c_int, ctypes.c_int, ctypes.c_int64, ctypes.c_int64)
    return function


def punch_hole(fd: int, offset: int, length: int) -> bool:
    """Zero `length` bytes at `offset` by freeing their blocks; False where the OS or file
    system cannot (the caller writes zeros)."""
    fallocate = _fallocate()
    return fallocate is not None and fallocate(fd, _PUNCH_HOLE, offset, length) == 0


def set_mode(fd: int, path: str, mode: int) -> None:
    """Give the open file `fd` (at `path`) the permission bits `mode` (Windows keeps only the
    read-only bit, and Python before 3.13 has no `fchmod` there)."""
    if hasattr(os, "fchmod"):
        os.fchmod(fd, mode)
    else:
        os.chmod(path, mode)


def sync_folder(folder: str) -> None:
    """Make a rename in `folder` durable (POSIX); Windows cannot open a folder, and its file
    system records renames without being asked."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except (PermissionError, IsADirectoryError):
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
