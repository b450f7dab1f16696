"""The map file: header, directory and layout facts; lump bytes read on demand (pread); lumps
given new bytes; saves planned and written (the container; the lump views are in bspedit.bsp)."""
from __future__ import annotations

import contextlib
import itertools
import mmap
import os
import stat
import zlib
from collections.abc import Iterator

from . import executor
from .digests import read_chunks
from .fileio import open_fd, pread
from .layout import ALIGNMENT, Layout, align, compute_layout
from .mappings import guard_plan
from .outputs import same_file
from .planner import Piece, Plan, append_base, plan, with_tail
from .. import TYPE_CHECKING
from ..errors import BspError
from ..format.bspx import relocate_trailer
from ..format.families import Family
from ..format.gamelumpdir import relocate_game_lump
from ..format.header import Header, Lump, check_directory, lump_label, read_header
from ..values import Value

if TYPE_CHECKING:
    from typing import Self


class _Replacement:
    __slots__ = ("data", "version", "fourcc", "kept")

    def __init__(self, data: bytes, version: int, fourcc: int, kept: int = 0) -> None:
        self.data = data            # the new content after the `kept` bytes taken from the file
        self.version = version
        self.fourcc = fourcc
        self.kept = kept            # leading bytes of the new content that are the file's

    @property
    def length(self) -> int:
        return self.kept + len(self.data)


class SaveReport(Value):
    """What a save did."""

    __slots__ = ("target", "layout", "size", "changed", "moved")

    def __init__(self, target: str, layout: str, size: int, changed: tuple[str, ...],
                 moved: tuple[str, ...]) -> None:
        self.target, self.layout, self.size = target, layout, size
        self.changed = changed          # lumps whose bytes changed
        self.moved = moved              # lumps whose offset changed


class MapFile:
    """A map file opened for reading and editing: header, directory, layout facts; lump bytes
    read on demand (pread), lumps given new bytes, the save planned and written. The lump views
    live in `bspedit.bsp.Bsp`, which stores them through the `_store_views` hook."""

    def __init__(self, path: str, fd: int, header: Header, layout: Layout) -> None:
        self.path = path
        self._fd = fd
        self.header = header
        self.layout = layout
        self._replaced: dict[int, _Replacement] = {}
        self._tail: bytes | None = None            # the trailing data's new bytes (BSPX)
        self._mode = "stable"                      # the layout last planned: how views store

    # -- opening -----------------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | os.PathLike[str], *, check: bool = True) -> Self:
        """Open a map. Bad input raises BspError naming the file, lump and offset."""
        path = os.fspath(path)
        try:
            fd = open_fd(path, os.O_RDONLY)
        except OSError as exc:
            raise BspError(f"cannot open: {_why(path, exc)}", path=path) from exc
        try:
            info = os.fstat(fd)
            if stat.S_ISDIR(info.st_mode):
                raise BspError(_folder_message(path), path=path)
            if not stat.S_ISREG(info.st_mode):
                raise BspError("not a regular file, not a map file", path=path)
            size = info.st_size
            # the header reader looks at a few scattered bytes (Blue Shift's first lumps)
            with (mmap.mmap(fd, size, access=mmap.ACCESS_READ) if size
                  else contextlib.nullcontext(b"")) as data:
                header = read_header(data, path)
            problems = check_directory(header.lumps, header.size, size)
            if check and problems:
                raise problems[0].at(path)
            return cls(path, fd, header, compute_layout(header, size))
        except BaseException:
            os.close(fd)
            raise

    def close(self) -> None:
        """Close the file (edits not saved are lost)."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading -----------------------------------------------------------------------------
    @property
    def family(self) -> Family:
        """The game family, detected from the content (never the file name)."""
        return self.header.family

    @property
    def size(self) -> int:
        """The file's size in bytes."""
        return self.layout.file_size

    @property
    def lumps(self) -> list[Lump]:
        """The directory as stored in the file (edits show in `read_lump`, not here)."""
        return self.header.lumps

    def lump_index(self, key: int | str) -> int:
        """A lump's index from an index, or a name such as `entities` or `LUMP_LIGHTING_HDR`."""
        if isinstance(key, int) or (isinstance(key, str) and key.lstrip("-").isdigit()):
            index = int(key)
            if not 0 <= index < self.family.lump_count:
                raise BspError(f"no lump {index}: {self.family.key} maps have lumps 0-"
                               f"{self.family.lump_count - 1}", path=self.path)
            return index
        found = self.family.index_of(key.upper().removeprefix("LUMP_"))
        if found is None:
            raise BspError(f"no lump named {key!r} in {self.family.key} maps", path=self.path)
        return found

    def read_lump(self, key: int | str) -> bytes:
        """The lump's bytes as they will be saved (stored form: compressed lumps stay compressed)."""
        index = self.lump_index(key)
        new = self._replaced.get(index)
        if new is None:
            return self.original_bytes(self.lumps[index])
        if not new.kept:
            return new.data
        start = self.lumps[index].offset
        kept = self.read_range(start, start + new.kept)
        return kept + bytes(new.kept - len(kept)) + new.data

    def content(self, key: int | str) -> bytes:
        """The lump's uncompressed bytes as they will be saved (`read_lump` with a Source LZMA
        lump decompressed)."""
        data = self.read_lump(key)
        if self.family.header == "vbsp":
            from ..format.lzma_lump import decompress, lzma_header

            if lzma_header(data):
                return decompress(data)
        return data

    def original_bytes(self, lump: Lump) -> bytes:
        return self.read_range(lump.offset, lump.end) if lump.length > 0 else b""

    def fileno(self) -> int:
        """The open map's file descriptor (for bounded reads and its state)."""
        return self._fd

    def new_content(self, index: int) -> tuple[int, bytes] | None:
        """For a lump that will be saved with new bytes: how many leading bytes are the file's
        (from the lump's offset, zeros past the end of the file) and the bytes after them."""
        self._store_views()
        new = self._replaced.get(index)
        return None if new is None else (new.kept, new.data)

    def read_range(self, start: int, end: int) -> bytes:
        """The stored bytes from `start` to `end` (clipped to the file). Read with pread, not
        through the mmap: pages touched through a mapping count in the process's memory, and
        scattered small reads (a pakfile's local headers) would add up to the map's size."""
        start, end = max(0, start), min(end, self.size)
        parts = []
        while start < end:
            part = pread(self._fd, end - start, start)
            if not part:
                break
            parts.append(part)
            start += len(part)
        return parts[0] if len(parts) == 1 else b"".join(parts)

    # -- editing -----------------------------------------------------------------------------
    def replace_lump(self, key: int | str, data: bytes, *, version: int | None = None,
                     fourcc: int | None = None) -> None:
        """Give a lump new stored bytes. A Source lump starting with Valve's LZMA header gets
        its uncompressed size as fourCC unless told otherwise; the version is kept by default."""
        index = self.lump_index(key)
        old = self.lumps[index]
        if bytes(data) == self.original_bytes(old) and version in (None, old.version) \
                and fourcc in (None, old.fourcc):
            self._replaced.pop(index, None)
            return
        if fourcc is None:
            from ..format.lzma_lump import lzma_header
            header = lzma_header(data) if self.family.header == "vbsp" else None
            fourcc = header.actual_size if header else 0
        self._replaced[index] = _Replacement(bytes(data), old.version if version is None else version,
                                             fourcc)

    def replace_tail(self, data: bytes) -> None:
        """Give the trailing data after the last lump (a BSPX trailer, its offsets as the file
        holds them) new bytes of the same length. Saved as a new file (over the map itself
        for an in-place save: the trailer is no lump an in-place commit can move safely)."""
        tail = self.layout.tail
        if tail is None or len(data) != tail.length:
            raise ValueError(f"trailing data of {tail.length if tail else 0} bytes, not "
                             f"{len(data)}")
        self._tail = None if data == self.read_range(tail.start, tail.end) else bytes(data)

    @property
    def tail_replaced(self) -> bool:
        """True when the trailing data will be saved with new bytes."""
        return self._tail is not None

    def append_base(self, key: int | str) -> int | None:
        """Where bytes added after a lump's content start, relative to it: for the lump stored
        last, after the end of the file (the rest of the file and zero padding to 4 bytes lie
        between); for others, after its 4-byte aligned end (an in-place save first moves the
        lumps after it out of the way when they are smaller). None for an empty lump."""
        return append_base(self.lumps[self.lump_index(key)], self.layout)

    def replace_content(self, key: int | str, data: bytes, *,
                        original: bytes | None = None) -> None:
        """Give a lump new uncompressed content: a Source lump the file stores LZMA-compressed
        is compressed again with the stored lump's LZMA settings, and content equal to the
        file's keeps the stored bytes. `original`
        is the file's decompressed content when the caller has it already."""
        from ..format.lzma_lump import HEADER_SIZE, compress, decompress, lzma_header, properties_of

        index = self.lump_index(key)
        lump = self.lumps[index]
        head = self.read_range(lump.offset, lump.offset + min(HEADER_SIZE, lump.length))
        if self.family.header == "vbsp" and lzma_header(head):     # only then read it all
            stored = self.original_bytes(lump)
            same = (decompress(stored) if original is None else original) == data
            data = stored if same else compress(data, properties_of(stored))
        self.replace_lump(index, data)

    def splice_lump(self, key: int | str, keep: int, extra: bytes, *,
                    version: int | None = None, fourcc: int | None = None) -> None:
        """Give a lump new content: its first `keep` stored bytes, then `extra`. `keep` may also
        be `append_base(key)`: an in-place save then writes only `extra`, after the lump. A lump
        cut to a prefix of itself (no `extra`) stays where it is in place. Saves copy the kept
        bytes without reading them into memory."""
        index = self.lump_index(key)
        old = self.lumps[index]
        if not (0 <= keep <= old.length or keep == self.append_base(index)):
            raise ValueError(f"cannot keep {keep} bytes of {lump_label(old)}")
        if self.family.game_lump and index == self.family.index_of(self.family.game_lump):
            raise ValueError("the game lump holds file offsets: use replace_lump")
        if keep == 0 or (keep == old.length and not extra):    # nothing to splice
            self.replace_lump(index, self.original_bytes(old)[:keep] + extra, version=version,
                              fourcc=fourcc)
            return
        self._replaced[index] = _Replacement(
            bytes(extra), old.version if version is None else version,
            old.fourcc if fourcc is None else fourcc, keep)

    def _store_views(self) -> None:
        """Put edited views back into their lumps (a subclass's hook; the file has none)."""

    def _release_mappings(self) -> None:
        """Let go of this map's own mappings of the file, so an in-place save may cut the file
        when no array uses them (a subclass's hook)."""

    def is_replaced(self, index: int) -> bool:
        """True when lump `index` will be saved with new bytes."""
        self._store_views()
        return index in self._replaced

    @property
    def dirty(self) -> bool:
        """True when a save would change the map."""
        self._store_views()
        return bool(self._replaced) or self._tail is not None

    # -- saving ------------------------------------------------------------------------------
    def plan(self, layout: str = "stable") -> tuple[Header, Plan]:
        """The new header and the plan for saving with `layout` (stable, compact or in-place)."""
        self._mode = layout
        self._store_views()
        new_lengths = {i: r.length for i, r in self._replaced.items()}
        kept = {i: r.kept for i, r in self._replaced.items() if r.kept}
        last = self.layout.order[-1] if self.layout.order else -1
        if layout == "in-place" or (layout == "stable" and self.layout.last is not None):
            free = self._free_regions()
        elif layout == "stable" and new_lengths.get(last, 0):     # a hole it fills exactly?
            free = self._free_regions(fits=align(new_lengths[last]))
        else:
            free = []
        if self._tail is not None and layout == "in-place":
            raise ValueError("the trailing data changed: save to a file (stable or compact)")
        result = plan(self.lumps, self.layout, new_lengths, layout,
                      keep_tail=self.tail_is_data(), kept=kept, free=free,
                      end_padding=self._end_padding())
        if self._tail is not None:
            result = with_tail(result, self.layout)
        return self._directory(result.offsets, final=True), result

    def _directory(self, offsets: tuple[int, ...], final: bool) -> Header:
        """The header with lumps at `offsets`; with `final`, edited lumps have their new
        lengths, versions and fourCCs (else an in-place save's intermediate commit)."""
        header = self.header.copy()
        for lump, offset in zip(header.lumps, offsets):
            lump.offset = offset
            if final and lump.index in self._replaced:
                new = self._replaced[lump.index]
                lump.length, lump.version, lump.fourcc = new.length, new.version, new.fourcc
        return header

    def _free_regions(self, fits: int | None = None) -> list[tuple[int, int]]:
        """The runs of zeros in the gaps between lumps: room an in-place save may fill
        (non-zero bytes no lump references are data, never overwritten). With `fits`, only in
        gaps where `fits` bytes fit with under 8 to spare (a stable save's exact fit)."""
        import re

        regions = []
        for gap in self.layout.gaps:
            if fits is not None and not fits <= gap.length < fits + 2 * ALIGNMENT:
                continue
            position = gap.start
            for chunk in read_chunks(self._fd, gap.start, gap.length):
                regions += [(position + m.start(), position + m.end())
                            for m in re.finditer(rb"\0+", chunk)]
                position += len(chunk)
        return regions

    def _end_padding(self) -> bytes:
        """The padding after the last lump (under 4 bytes, kept when that lump resizes)."""
        if not self.layout.order:
            return b""
        gap = self.layout.gap_after(self.lumps[self.layout.order[-1]].end)
        return self.read_range(gap.start, gap.end) if gap and gap.kind == "padding" else b""

    def save_planned(self, target: str | os.PathLike[str], header: Header, result: Plan,
                     layout: str) -> SaveReport:
        """Write `header` and the pieces of `result` (from `plan` or a caller's own placement,
        such as Valve's repacked layout) to `target` atomically. Saved over this map's own
        file, the map is closed before the rename and opened again after."""
        target = os.fspath(target)
        over_self = same_file(target, self.path)
        try:
            executor.save_as(self._fd, target, self._header_bytes(header), result, self._source,
                             let_go=self._let_go if over_self else None)
            return self.planned_report(target, layout, header, result)
        finally:
            if over_self:
                self.reopen()

    def _let_go(self) -> None:
        """Close this map's file and mappings (Windows refuses to rename over an open file)."""
        self._release_mappings()
        self.close()

    def save_in_place(self) -> SaveReport:
        """Write changed lumps into free space of this file (holes, else its end), then commit
        the new header; vacated bytes are zeroed after. Reopens the map."""
        header, result = self.plan("in-place")
        if not self.dirty:
            return self.planned_report(self.path, "in-place", header, result)
        self._release_mappings()
        result = guard_plan(self._fd, result)       # old record views must never fault
        headers = [self._header_bytes(self._directory(c.offsets, c.final)) for c in result.commits]
        fd = open_fd(self.path, os.O_RDWR)
        try:
            executor.save_in_place(fd, headers, result, self._source)
        finally:
            os.close(fd)
        report = self.planned_report(self.path, "in-place", header, result)
        self.reopen()
        return report

    def reopen(self) -> None:
        """Open the map's file again (after it was saved over): edits and views are dropped."""
        fresh = type(self).open(self.path)
        self.close()
        self.__dict__.update(fresh.__dict__)

    def _header_bytes(self, header: Header) -> bytes:
        if header == self.header:
            return self.read_range(0, header.size)
        return header.to_bytes()

    def _source(self, piece: Piece, position: int) -> bytes | int:
        """What the executor writes for a piece: an unchanged lump that moves is the file's
        bytes as they are, copied in the kernel from its offset (never read into memory),
        unless it is the game lump, whose absolute member offsets move with it."""
        if piece.kind == "lump" and piece.index not in self._replaced \
                and piece.index != self.family.index_of(self.family.game_lump or ""):
            return self.lumps[piece.index].offset
        return self.materialise(piece, position)

    def materialise(self, piece: Piece, position: int) -> bytes:
        """Bytes of a lump or of the trailing data, for where they land."""
        if piece.kind == "tail":
            data = self._tail if self._tail is not None else \
                self.read_range(piece.src, piece.src + piece.length)
            return relocate_trailer(data, piece.src, position)
        new = self._replaced.get(piece.index)
        if new is not None and new.kept and piece.src == new.kept:
            return new.data
        data = self.read_lump(piece.index)
        if self.family.game_lump and piece.index == self.family.index_of(self.family.game_lump):
            data = relocate_game_lump(data, self.lumps[piece.index].offset, position,
                                      self.header.endian)
        return data

    def tail_is_data(self) -> bool:
        """Trailing bytes worth keeping in a compact layout: anything but zeros."""
        tail = self.layout.tail
        return tail is not None and tail.kind == "trailing" and \
            self.read_range(tail.start, tail.end).strip(b"\0") != b""

    def planned_report(self, target: str, layout: str, header: Header, result: Plan) -> SaveReport:
        """The report of saving `result` (from `plan`) to `target`: what a save does or would do."""
        changed = tuple(lump_label(self.lumps[i]) for i in sorted(self._replaced)) + \
            (("trailing data",) if self._tail is not None else ())
        moved = tuple(lump_label(l) for l, n in zip(self.lumps, header.lumps)
                      if l.offset != n.offset)
        return SaveReport(target, layout, result.end, changed, moved)

    # -- checking ----------------------------------------------------------------------------
    def render(self, layout: str = "stable") -> Iterator[bytes | memoryview]:
        """The bytes a save with `layout` would produce, in chunks, without writing anything.

        Use each chunk before asking for the next: copied bytes come through one reused buffer.
        """
        header, result = self.plan(layout)
        yield self._header_bytes(header)
        position = result.start
        for piece in result.pieces:
            if piece.kind == "copy":
                yield from read_chunks(self._fd, piece.src, piece.length)
            elif piece.kind == "zeros":
                yield bytes(piece.length)
            else:
                yield self.materialise(piece, position)
            position += piece.length

    def stored_crc(self, layout: str = "stable") -> int:
        """CRC-32 of the whole file as a save with `layout` would write it."""
        crc = 0
        for chunk in self.render(layout):
            crc = zlib.crc32(chunk, crc)
        return crc


def _why(path: str, exc: OSError) -> str:
    """Why `path` cannot be opened, in words: a glob pattern nothing matches says so."""
    if isinstance(exc, FileNotFoundError) and any(c in os.path.basename(path) for c in "*?["):
        return "no file matches this pattern"
    return exc.strerror or str(exc)


def _folder_message(path: str) -> str:
    """A folder given as a map: how to run a command on the maps in it (or below it)."""
    def maps(names: list[str]) -> bool:
        return any(name.lower().endswith(".bsp") for name in names)

    walk = os.walk(path)
    _, _, files = next(walk, ("", [], []))
    if maps(files):
        return ("a folder, not a map file: `bspedit each FOLDER -- COMMAND` runs a command on "
                "each map in it")
    if any(maps(names) for _, _, names in itertools.islice(walk, 1000)):    # a look, not a crawl
        return ("a folder with no maps of its own, only in its subfolders: `bspedit each -r "
                "FOLDER -- COMMAND` runs a command on each of them")
    return "a folder, not a map file (no maps in it)"
