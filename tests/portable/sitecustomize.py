"""The portable test mode: a Linux Python made to look, to bspedit, like Windows's.

Put this folder on PYTHONPATH and set `BSPEDIT_TEST_PORTABLE=1` (every process started from
there, pool workers too, gets it). Then:
* the `os` and `signal` functions Windows lacks are gone (positional reads and writes, kernel
  copies, fork, signal masks, SIGPIPE, fchmod as on Python 3.11 and 3.12, ...), so pool
  workers start with `spawn`;
* Windows's refusals are imitated: renaming over, renaming away or deleting a file that this
  process holds open (a descriptor or a mapping), renaming over or deleting a read-only
  file, shrinking a mapped file, renaming onto an
  existing name with `os.rename`, opening a folder; `BSPEDIT_TEST_LOCKED` (paths joined by
  os.pathsep) names files "another program" holds open.
`BSPEDIT_TEST_NO_PYLZMA=1` hides pylzma (its import fails), on its own or with the above.
"""
from __future__ import annotations

import errno
import os
import signal
import stat
import sys

_WINDOWS_LACKS_OS = (
    "pread", "preadv", "pwrite", "pwritev", "readv", "writev", "copy_file_range", "sendfile",
    "splice", "posix_fallocate", "posix_fadvise", "fchmod", "fchown", "fork", "forkpty",
    "killpg", "getpgid", "setsid", "sched_getaffinity", "statvfs", "fstatvfs", "sync",
    "fdatasync", "O_CLOEXEC", "O_NOFOLLOW", "getuid", "geteuid", "memfd_create", "pipe2")
_WINDOWS_LACKS_SIGNAL = ("SIGPIPE", "SIGHUP", "SIGQUIT", "SIGALRM", "SIGUSR1", "SIGUSR2",
                         "pthread_sigmask", "pthread_kill", "sigwait", "siginterrupt",
                         "setitimer", "alarm", "pause")


def _held(path: str) -> bool:
    """True when this process holds `path` open (a descriptor or a mapping), or the test says
    another program does."""
    try:
        real = os.path.realpath(path)
    except (OSError, ValueError):
        return False
    locked = os.environ.get("BSPEDIT_TEST_LOCKED", "")
    if real in (os.path.realpath(p) for p in locked.split(os.pathsep) if p):
        return True
    try:
        for fd in os.listdir("/proc/self/fd"):
            try:
                if os.readlink(f"/proc/self/fd/{fd}") == real:
                    return True
            except OSError:
                continue
    except OSError:
        return False
    return _mapped(real)


def _mapped(real: str) -> bool:
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            return any(line.rstrip("\n").endswith(" " + real) for line in maps)
    except OSError:
        return False


def _read_only(path: str) -> bool:
    """Windows refuses to replace or delete a file with the read-only attribute (a mode
    without write permission, as Python's chmod sets it)."""
    try:
        return not os.stat(path).st_mode & stat.S_IWUSR and os.path.isfile(path)
    except OSError:
        return False


def _refuse(path: str) -> None:
    raise PermissionError(errno.EACCES, "The process cannot access the file because it is "
                          "being used by another process", path)


def _install() -> None:
    for name in _WINDOWS_LACKS_OS:
        if hasattr(os, name):
            delattr(os, name)
    for name in _WINDOWS_LACKS_SIGNAL:
        if hasattr(signal, name):
            delattr(signal, name)
    replace, rename, unlink, ftruncate, open_ = (os.replace, os.rename, os.unlink,
                                                  os.ftruncate, os.open)

    def windows_replace(src, dst, *args, **kwargs):
        for path in (src, dst):
            if _held(os.fspath(path)):
                _refuse(os.fspath(path))
        if _read_only(os.fspath(dst)):
            raise PermissionError(errno.EACCES, "Access is denied", os.fspath(dst))
        return replace(src, dst, *args, **kwargs)

    def windows_rename(src, dst, *args, **kwargs):
        if os.path.lexists(dst):
            raise FileExistsError(errno.EEXIST, "Cannot create a file when that file already "
                                  "exists", os.fspath(dst))
        if _held(os.fspath(src)):
            _refuse(os.fspath(src))
        return rename(src, dst, *args, **kwargs)

    def windows_unlink(path, *args, **kwargs):
        if _held(os.fspath(path)):
            _refuse(os.fspath(path))
        if _read_only(os.fspath(path)):
            raise PermissionError(errno.EACCES, "Access is denied", os.fspath(path))
        return unlink(path, *args, **kwargs)

    def windows_ftruncate(fd, length):
        if length < os.fstat(fd).st_size and _mapped(os.readlink(f"/proc/self/fd/{fd}")):
            raise PermissionError(errno.EACCES, "The requested operation cannot be performed "
                                  "on a file with a user-mapped section open")
        return ftruncate(fd, length)

    def windows_open(path, flags, mode=0o777, *, dir_fd=None):
        try:
            folder = stat.S_ISDIR(os.stat(path, dir_fd=dir_fd).st_mode)
        except (OSError, TypeError, ValueError):
            folder = False
        if folder:
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return open_(path, flags, mode, dir_fd=dir_fd)

    os.replace, os.rename, os.unlink, os.remove = (windows_replace, windows_rename,
                                                   windows_unlink, windows_unlink)
    os.ftruncate, os.open = windows_ftruncate, windows_open


if os.environ.get("BSPEDIT_TEST_PORTABLE") == "1":
    _install()
if os.environ.get("BSPEDIT_TEST_NO_PYLZMA") == "1":
    sys.modules["pylzma"] = None  # type: ignore[assignment]
