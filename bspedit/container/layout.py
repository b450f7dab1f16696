"""Where everything lies in a map file: lumps in file order and the bytes between them."""
from __future__ import annotations

from collections.abc import Sequence

from ..format.header import Header, Lump
from ..values import Value

ALIGNMENT = 4
SECTOR = 2048               # the smallest boundary a map shows on purpose: an Xbox 360 DVD sector
MAX_BOUNDARY = 64 * 1024    # the largest boundary read from a map


def align(offset: int, boundary: int = ALIGNMENT) -> int:
    """`offset` rounded up to a multiple of `boundary`."""
    return -(-offset // boundary) * boundary


class Gap(Value):
    """Bytes no lump points at.

    kind: `padding` (under 4 bytes up to the next lump or the end of file), `unreferenced`
    (a larger hole, such as q3map2's marker after the header) or `trailing` (4 bytes or more
    after the last lump, such as a BSPX directory or Valve's trailing zeros).
    """

    __slots__ = ("start", "end", "kind")

    def __init__(self, start: int, end: int, kind: str) -> None:
        self.start, self.end, self.kind = start, end, kind

    @property
    def length(self) -> int:
        return self.end - self.start


class Layout(Value):
    """The file's regions: header, non-empty lumps in file order, gaps; and the boundaries a
    save keeps wherever lumps move or the end changes.

    Boundaries (console maps only, see `console_boundaries`): `boundaries` names the lumps that
    start on more than 4 bytes, `end_boundary` the multiple the file end is padded to with
    zeros (when the bytes after the last lump are zeros; other trailing data is data).
    `last` (console maps only) is the lump a save keeps stored after every other one: the
    pakfile, as Valve's console conversion orders lumps (bsplib.cpp, LumpOffsetCompare:
    "LUMP_PAKFILE to be last, always"; the Xbox 360 reads its preload section at a
    DVD-aligned offset), when it is stored last or empty.
    """

    __slots__ = ("header_size", "file_size", "order", "gaps", "open_end", "boundaries",
                 "end_boundary", "last")

    def __init__(self, header_size: int, file_size: int, order: tuple[int, ...],
                 gaps: tuple[Gap, ...], open_end: bool = False,
                 boundaries: tuple[tuple[int, int], ...] = (), end_boundary: int = ALIGNMENT,
                 last: int | None = None) -> None:
        self.header_size = header_size
        self.file_size = file_size
        self.order = order                  # indices of non-empty lumps, in file order
        self.gaps = gaps
        # the file ends right after its last lump, unpadded as bspzip and RepackBSP leave it
        # (the end is unaligned, or the last lump is a pakfile on RepackBSP's boundary): a
        # resized last lump gets no padding either
        self.open_end = open_end
        self.boundaries = boundaries        # (lump index, boundary) beyond 4 bytes
        self.end_boundary = end_boundary
        self.last = last

    def boundary(self, index: int) -> int:
        """The boundary lump `index` starts on wherever it is placed."""
        return dict(self.boundaries).get(index, ALIGNMENT)

    def gap_after(self, offset: int) -> Gap | None:
        """The gap starting at `offset`, if any."""
        return next((gap for gap in self.gaps if gap.start == offset), None)

    @property
    def tail(self) -> Gap | None:
        """Trailing data after the last lump and its padding (BSPX, zeros), if any."""
        return self.gaps[-1] if self.gaps and self.gaps[-1].kind == "trailing" else None


def compute_layout(header: Header, file_size: int) -> Layout:
    """The layout of a map whose directory passed `check_directory`."""
    lumps = sorted((l for l in header.lumps if l.length > 0), key=lambda l: (l.offset, l.index))
    gaps = []
    position = header.size
    for lump in lumps:
        if lump.offset > position:
            kind = "padding" if lump.offset - position < ALIGNMENT and position > header.size \
                else "unreferenced"
            gaps.append(Gap(position, lump.offset, kind))
        position = lump.end
    if file_size - position >= ALIGNMENT and align(position) > position:
        gaps.append(Gap(position, align(position), "padding"))    # trailing data starts aligned
        position = align(position)
    if file_size > position:
        kind = "padding" if file_size - position < ALIGNMENT else "trailing"
        gaps.append(Gap(position, file_size, kind))
    last = lumps[-1] if lumps else None
    family = header.family
    repacked = last is not None and family.pakfile_alignment is not None and \
        last.index == family.index_of(family.pakfile) and \
        last.offset % family.pakfile_alignment == 0
    open_end = last is not None and last.end == file_size and (file_size % 4 != 0 or repacked)
    boundaries, end_boundary = console_boundaries(header, lumps, file_size) \
        if header.big_endian else ((), ALIGNMENT)
    pakfile = family.index_of(family.pakfile) if family.pakfile else None
    kept_last = pakfile if header.big_endian and pakfile is not None and \
        (last is None or last.index == pakfile or not header.lumps[pakfile].length) else None
    return Layout(header.size, file_size, tuple(l.index for l in lumps), tuple(gaps), open_end,
                  boundaries, end_boundary, kept_last)


def console_boundaries(header: Header, lumps: Sequence[Lump], file_size: int,
                       ) -> tuple[tuple[tuple[int, int], ...], int]:
    """The boundaries of a console map's lumps (non-empty, in file order) and file end.

    Valve's console conversion starts the pakfile on a DVD sector and pads the file end to one
    (the family's `console_*_alignment` data: the defaults). A map may show larger ones, read
    where a gap is more than 4-byte padding (a 4-byte writer leaves no such gap) and shorter
    than the boundary (which then explains it), from 2 KiB up to 64 KiB; the larger of default
    and shown wins:
    - a lump keeps the largest such power of two dividing its offset: where a lump starts is
      the writer's choice (the real map's pakfile at 3 * 64 KiB shows 64 KiB, which a 2 KiB
      writer would hit one time in 32), and a 64 KiB multiple reads back as 64 KiB;
    - the file end keeps the smallest such power of two dividing the file size: zeros padding
      to 2 KiB leave a multiple of 4 KiB every other time, and a save padded to the boundary
      must read back with the same one (pak add then remove gives the map back).
    PC maps keep their 4-byte layouts: their pakfile boundary (RepackBSP's) is
    `Family.pakfile_alignment`'s business, as it always was.
    """
    family = header.family
    found: dict[int, int] = {}
    pakfile = family.index_of(family.pakfile) if family.pakfile else None
    if pakfile is not None and family.console_pakfile_alignment:
        found[pakfile] = family.console_pakfile_alignment
    position = header.size
    for lump in lumps:
        shown = _shown_boundaries(lump.offset, position)
        if shown and shown[-1] > found.get(lump.index, ALIGNMENT):
            found[lump.index] = shown[-1]
        position = max(position, lump.end)
    shown = _shown_boundaries(file_size, position)
    end = max([family.console_file_alignment or ALIGNMENT] + shown[:1])
    return tuple(sorted(found.items())), end


def _shown_boundaries(at: int, after: int) -> list[int]:
    """The boundaries (2 KiB to 64 KiB, ascending) that explain the gap from `after` to `at`:
    powers of two dividing `at` that the gap, over 4-byte padding, is shorter than."""
    if align(after) >= at:
        return []
    sizes = (SECTOR << shift for shift in range((MAX_BOUNDARY // SECTOR).bit_length()))
    return [size for size in sizes if at % size == 0 and at - after < size]
