"""Where outputs go: one guard against writing over an input, and the atomic writers.

Every file or folder bspedit writes goes through here:
* `guard` refuses a target that is one of the inputs: the same path, a symbolic link to it or a
  hard link to it (same device and inode), before anything is written.
* `atomic_file` writes a file beside the target and renames it into place, so a crash, a full
  disk or Ctrl-C leaves the old file (or none). A symbolic link given as target is written
  through: its target is replaced and the link stays.
* `staged_folder` fills a hidden sibling folder and moves it into place only when every file
  is written; into an existing folder, files are moved in with a rollback list.
Errors name the path the user gave, never the hidden temporary one.
"""
from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager

from .. import TYPE_CHECKING
from ..errors import BspError
from ..interrupts import uninterrupted
from .fileio import CLOEXEC, open_fd, set_mode, sync_folder, write_all

if TYPE_CHECKING:       # pathlib loads with the verbs that write folders (start-up time)
    from pathlib import Path

PathLike = str | os.PathLike

#: The temporary files `atomic_file` has made and not yet renamed or removed. Ctrl-C can land
#: between a file's creation and the `with` statement taking it (after the writer's generator
#: yields, before `__enter__` returns): the generator then removes it only when it is
#: collected, which a worker's `os._exit` never waits for. `discard_unfinished` removes them.
_UNFINISHED: set[str] = set()

#: `-` as a file argument: standard output for an output (`-o -`, `--to -`), standard input
#: for an input (`ent import MAP -`, `pak add MAP - --as NAME`).
STDOUT = STDIN = "-"


def same_file(a: PathLike, b: PathLike) -> bool:
    """True when both paths name one existing file (through links, hard links included)."""
    try:
        sa, sb = os.stat(a), os.stat(b)
    except OSError:
        return False
    if not sa.st_ino:               # a file system without file ids (FAT on Windows)
        return os.path.normcase(os.path.realpath(a)) == os.path.normcase(os.path.realpath(b))
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def names_folder(target: PathLike) -> bool:
    """True when `target` ends with a path separator: it names a folder (`out/`), as `cp` and
    `each -o DIR/` read it, never a file."""
    return os.fspath(target).endswith(tuple(s for s in (os.sep, os.altsep, "/") if s))


def guard(target: PathLike, inputs: Iterable[PathLike], *, folder: bool = False) -> None:
    """Refuse (BspError, nothing written) a file target that is an input or a link to one, a
    file target that is a folder or ends with a separator (`out.bsp/`), and a target in a
    folder that does not exist. With `folder`, the target is a folder to create or fill: it
    must not be an existing file."""
    target = os.fspath(target)
    for source in inputs:
        if same_file(target, source) or os.path.realpath(target) == os.path.realpath(source):
            raise BspError(f"refused: the output is the input map {os.fspath(source)} "
                           "(or a link to it); nothing written", path=target)
    if folder:
        if os.path.exists(target) and not os.path.isdir(target):
            raise BspError("refused: not a folder; nothing written", path=target)
        return
    if os.path.isdir(target):
        raise BspError("refused: is a folder, not a file; nothing written", path=target)
    if names_folder(target):
        raise BspError("refused: a trailing separator names a folder, and there is no folder "
                       "of that name; nothing written", path=target)
    parent = os.path.dirname(os.path.abspath(os.path.realpath(target)))
    if not os.path.isdir(parent):
        raise BspError(f"no folder {parent} to write into; nothing written", path=target)


def _named(exc: OSError, target: str) -> OSError:
    """The same error naming the user's target instead of a temporary path."""
    return type(exc)(exc.errno, exc.strerror or str(exc), target)


@contextmanager
def atomic_file(target: PathLike, *, mode_from: int | None = None,
                let_go: Callable[[], None] | None = None) -> Iterator[int]:
    """A writable descriptor whose content replaces `target` when the block ends without error.

    The file gets the permissions of the file it replaces, else those of the open file
    `mode_from`, else the umask's. `let_go` is called once the content is written, before the
    rename: it closes what this process holds open of `target` (Windows refuses to replace an
    open file). Write errors are raised naming `target`.
    """
    shown = os.fspath(target)
    real = os.path.realpath(shown)       # write through a symbolic link
    folder = os.path.dirname(real)
    # The name is chosen before the file exists (not tempfile.mkstemp): a Ctrl-C arriving
    # between the file's creation and mkstemp's return would leave it behind, unnamed.
    fd = -1
    while True:
        temporary = os.path.join(folder, f".{os.path.basename(real)}.{os.urandom(4).hex()}.tmp")
        try:
            with uninterrupted():        # the descriptor is ours once opened (closed on error)
                fd = open_fd(temporary, os.O_RDWR | os.O_CREAT | os.O_EXCL | CLOEXEC, 0o600)
                _UNFINISHED.add(temporary)
            break
        except FileExistsError:
            continue
        except OSError as exc:
            raise _named(exc, shown) from None
        except BaseException:
            if fd >= 0:
                os.close(fd)
            _unlink(temporary)
            _UNFINISHED.discard(temporary)
            raise
    try:
        yield fd
        set_mode(fd, temporary, _mode_for(real, mode_from))
        os.fsync(fd)
        os.close(fd)
        fd = -1
        if let_go is not None:
            let_go()
        _replace(temporary, real, shown)
    except BaseException as exc:
        if fd >= 0:
            os.close(fd)
        _unlink(temporary)
        if isinstance(exc, OSError) and exc.filename in (None, temporary):
            raise _named(exc, shown) from None
        raise
    finally:
        _UNFINISHED.discard(temporary)
    sync_folder(folder)


def discard_unfinished() -> None:
    """Remove the temporary files of writes that Ctrl-C stopped (see `_UNFINISHED`): called
    when a command ends interrupted, so none is left behind, whatever the moment."""
    while _UNFINISHED:
        path = _UNFINISHED.pop()
        try:
            os.unlink(path)
        except OSError:         # gone already; or (Windows) still open: its writer removes it
            pass


#: Seconds between tries of a rename that is refused (Windows: the file is open elsewhere,
#: often for a moment only: a virus scanner, an indexer, a sync client).
_RETRIES = (0.05, 0.1, 0.2, 0.4, 0.8)


def _replace(temporary: str, real: str, shown: str) -> None:
    """Rename the finished `temporary` over `real`; when that stays refused, keep the new file
    beside it under a name of its own, leave `real` as it is, and say both (BspError)."""
    import time

    for delay in (*_RETRIES, None):
        try:
            os.replace(temporary, real)
            return
        except PermissionError as exc:
            refused = exc
        if delay is None or (os.name == "nt" and not os.access(real, os.W_OK)):
            break               # read-only: waiting will not change that
        time.sleep(delay)
    kept = _free_name(f"{real}.new")
    os.replace(temporary, kept)
    raise BspError(f"cannot replace it ({refused.strerror}; Windows refuses to replace a file "
                   "that is read-only or open in another program, such as the game, Hammer or "
                   f"a viewer): it is unchanged, and the new file is kept as {kept}", path=shown)


def _free_name(base: str) -> str:
    """`base`, or `base.2`, `base.3`... the first name no file has."""
    name, number = base, 1
    while os.path.lexists(name):
        number += 1
        name = f"{base}.{number}"
    return name


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def write_file(target: PathLike, chunks: bytes | Iterable[bytes | memoryview], *,
               inputs: Sequence[PathLike] = ()) -> int:
    """Guard `target` against `inputs`, then write `chunks` to it atomically, or to standard
    output when `target` is `-`. Returns the bytes written."""
    import sys

    data = [chunks] if isinstance(chunks, (bytes, bytearray, memoryview)) else chunks
    if os.fspath(target) == STDOUT:
        written = 0
        for chunk in data:
            sys.stdout.buffer.write(chunk)
            written += len(chunk)
        sys.stdout.buffer.flush()
        return written
    guard(target, inputs)
    written = 0
    with atomic_file(target) as fd:
        for chunk in data:
            write_all(fd, chunk)
            written += len(chunk)
    return written


def read_input(path: PathLike) -> bytes:
    """The bytes of an input file, or of standard input when `path` is `-`."""
    import sys

    if os.fspath(path) == STDIN:
        return sys.stdin.buffer.read()
    with open(path, "rb") as handle:
        return handle.read()


@contextmanager
def spooled_stdout(name: str) -> Iterator[str]:
    """A path in a new temporary folder to write a file named `name` to (a map saved with
    `-o -`: map writers need a file they can seek in); when the block ends without error the
    file's bytes go to standard output."""
    import tempfile

    from .digests import read_chunks

    with tempfile.TemporaryDirectory(prefix="bspedit-") as folder:
        path = os.path.join(folder, os.path.basename(name))
        yield path
        fd = open_fd(path, os.O_RDONLY)
        try:
            write_file(STDOUT, read_chunks(fd, 0, os.fstat(fd).st_size))
        finally:
            os.close(fd)


def _mode_for(target: str, src_fd: int | None) -> int:
    """Keep the permissions of the file being replaced, else those of the source, else umask's."""
    try:
        return os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        pass
    if src_fd is not None:
        return os.fstat(src_fd).st_mode & 0o7777
    return 0o666 & ~_umask()


def _umask() -> int:
    """The process's umask (reading it means setting it: set it straight back)."""
    umask = os.umask(0)
    os.umask(umask)
    return umask


@contextmanager
def staged_folder(directory: PathLike, *, inputs: Sequence[PathLike] = ()) -> Iterator[Path]:
    """A hidden folder to fill; when the block ends without error its files land in
    `directory` (created with its missing parents), else `directory` is left as it was.

    A file that would land on one of `inputs` (or a link to it) is refused before anything
    lands; so is a symbolic link on the way inside an existing `directory`.
    """
    import shutil
    import tempfile
    from pathlib import Path

    target = Path(directory)
    guard(target, inputs, folder=True)
    ancestor = target.absolute().parent
    while not ancestor.is_dir():
        ancestor = ancestor.parent
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp",
                                        dir=ancestor))
    except OSError as exc:
        raise _named(exc, os.fspath(target)) from None
    # mkdtemp makes a private (0700) folder; the one that lands is made as mkdir makes it
    os.chmod(staging, 0o777 & ~_umask())
    try:
        yield staging
        files = [p.relative_to(staging) for p in sorted(staging.rglob("*")) if not p.is_dir()]
        for name in files:
            for source in inputs:
                if same_file(target / name, source):
                    raise BspError(f"refused: {name} would overwrite the input map "
                                   f"{os.fspath(source)}; nothing written", path=str(target))
        if not target.exists():
            _move_new(staging, target)
        else:
            _merge(staging, target, files)
    except OSError as exc:
        if exc.filename is None or str(staging) in str(exc.filename):
            raise _named(exc, os.fspath(target)) from None
        raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _move_new(staging: Path, target: Path) -> None:
    """Rename the filled staging folder to `target`, creating its parents (removed again on
    failure)."""
    import shutil

    created = []
    parent = target.absolute().parent
    while not parent.exists():
        created.append(parent)
        parent = parent.parent
    try:
        for folder in reversed(created):
            folder.mkdir()
        staging.rename(target)
        sync_folder(str(target.absolute().parent))
    except BaseException:
        for folder in created:
            shutil.rmtree(folder, ignore_errors=True)
        raise


def _merge(staging: Path, target: Path, files: list[Path]) -> None:
    """Move `files` from staging into the existing `target`; on any failure undo every move."""
    import shutil

    undo: list[tuple[str, Path, Path | None]] = []
    try:
        for name in files:
            destination = _checked_destination(target, name, undo)
            backup = None
            if destination.exists() or destination.is_symlink():
                backup = destination.with_name(f".{destination.name}.bspedit-old")
                destination.rename(backup)
            undo.append(("file", destination, backup))
            (staging / name).rename(destination)
    except BaseException:
        for kind, path, backup in reversed(undo):
            if kind == "dir":
                shutil.rmtree(path, ignore_errors=True)
                continue
            try:
                path.unlink()
            except FileNotFoundError:
                pass
            if backup is not None:
                backup.rename(path)
        raise
    for kind, _path, backup in undo:
        if kind == "file" and backup is not None:
            backup.unlink()
    sync_folder(str(target))


def _checked_destination(target: Path, name: Path,
                         undo: list[tuple[str, Path, Path | None]]) -> Path:
    """`target/name`, creating folders on the way (recorded in `undo`) and refusing symbolic
    links or files where a folder is needed."""
    path = target
    for part in name.parts[:-1]:
        path = path / part
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            path.mkdir()
            undo.append(("dir", path, None))
            continue
        if stat.S_ISLNK(mode) or not stat.S_ISDIR(mode):
            raise BspError(f"refused to write {name.as_posix()}: {path} is a symbolic link or "
                           "not a folder; nothing written")
    destination = path / name.name
    if destination.is_symlink():
        raise BspError(f"refused to write {name.as_posix()}: {destination} is a symbolic link; "
                       "nothing written")
    if destination.is_dir():
        raise BspError(f"refused to write {name.as_posix()}: {destination} is a folder; "
                       "nothing written")
    return destination
