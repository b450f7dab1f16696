"""Where everything lies in a map file: lumps in file order and the bytes between them."""
from __future__ import annotations

from dataclasses import dataclass

from ..format.header import Header

ALIGNMENT = 4


def align(offset: int) -> int:
    return -(-offset // ALIGNMENT) * ALIGNMENT


@dataclass(frozen=True, slots=True)
class Gap:
    """Bytes no lump points at.

    kind: `padding` (under 4 bytes up to the next lump or the end of file), `unreferenced`
    (a larger hole, such as q3map2's marker after the header) or `trailing` (4 bytes or more
    after the last lump, such as a BSPX directory or Valve's trailing zeros).
    """

    start: int
    end: int
    kind: str

    @property
    def length(self) -> int:
        return self.end - self.start


@dataclass(frozen=True, slots=True)
class Layout:
    """The file's regions: header, non-empty lumps in file order, gaps."""

    header_size: int
    file_size: int
    order: tuple[int, ...]          # indices of non-empty lumps, in file order
    gaps: tuple[Gap, ...]
    # the file ends right after its last lump, unpadded as bspzip and RepackBSP leave it (the
    # end is unaligned, or the last lump is a pakfile on RepackBSP's boundary): a resized
    # last lump gets no padding either
    open_end: bool = False

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
    return Layout(header.size, file_size, tuple(l.index for l in lumps), tuple(gaps), open_end)
