"""Deciding which bytes go where when a map is saved. Pure: no I/O, tested without files.

A plan is a list of pieces that, written one after the other after the header, make the new
file (or, for an in-place save, the pieces appended to the existing file), plus the new offset
of every lump. Pieces copy original bytes, write zeros, or stand for a lump's new content or the
relocated trailing data, which the open map materialises.
"""
from __future__ import annotations

from collections.abc import Mapping

import attrs

from .header import Lump
from .layout import Layout, align

LAYOUTS = ("stable", "compact")


@attrs.frozen
class Piece:
    """`copy` original bytes from `src`, `zeros`, the new content of lump `index`, or the `tail`
    (trailing data from `src`) moved to a new offset."""

    kind: str
    length: int
    src: int = -1
    index: int = -1


@attrs.frozen
class Plan:
    offsets: tuple[int, ...]     # new directory offsets, by lump index
    start: int                   # where the first piece goes
    pieces: tuple[Piece, ...]
    cleanup: tuple[tuple[int, int], ...] = ()   # in-place: (offset, length) to zero after commit

    @property
    def end(self) -> int:
        return self.start + sum(p.length for p in self.pieces)


class _Builder:
    def __init__(self, start: int, layout: Layout, kept: Mapping[int, int]) -> None:
        self.start = self.position = start
        self.pieces: list[Piece] = []
        self.file_size = layout.file_size
        self.kept = kept

    def add(self, kind: str, length: int, src: int = -1, index: int = -1) -> None:
        if length <= 0:
            return
        last = self.pieces[-1] if self.pieces else None
        if kind == "copy" and last and last.kind == "copy" and last.src + last.length == src:
            self.pieces[-1] = attrs.evolve(last, length=last.length + length)
        elif kind == "zeros" and last and last.kind == "zeros":
            self.pieces[-1] = attrs.evolve(last, length=last.length + length)
        else:
            self.pieces.append(Piece(kind, length, src, index))
        self.position += length

    def pad_to(self, offset: int) -> None:
        self.add("zeros", offset - self.position)

    def place(self, lump: Lump, length: int, changed: bool, dst: int) -> None:
        """Write a lump at `dst`: a copy if its bytes can be copied as they are. A changed lump
        whose new content starts with `kept` bytes of the file (from its offset; zeros past the
        end) copies those and materialises only the rest."""
        kept = self.kept.get(lump.index, 0) if changed else 0
        if kept:
            on_file = min(kept, self.file_size - lump.offset)
            self.add("copy", on_file, src=lump.offset)
            self.add("zeros", kept - on_file)
            self.add("lump", length - kept, src=kept, index=lump.index)
        elif changed or dst != lump.offset:
            self.add("lump", length, index=lump.index)
        else:
            self.add("copy", length, src=lump.offset)


def plan(lumps: list[Lump], layout: Layout, new_lengths: Mapping[int, int], policy: str,
         keep_tail: bool = True, kept: Mapping[int, int] | None = None) -> Plan:
    """Place every lump. `new_lengths` holds the lumps whose content changed; `kept` how many
    leading bytes of a changed lump's new content are the file's bytes from its old offset.

    A last lump that keeps everything up to the end of the file (see `append_base`) takes in
    the trailing bytes; in-place, only its new bytes are appended and nothing is zeroed.

    stable: unchanged lumps keep bytes and offsets; a changed lump goes back into its slot (its
    bytes plus following padding) when it fits, else after the last lump with its old slot zeroed.
    The last lump's slot is open-ended. Trailing data follows the last lump (BSPX readers look for
    it there), so it moves when the file grows.
    compact: lumps in their file order, 4-byte aligned, no holes; trailing data kept if
    `keep_tail`.
    in-place: changed lumps (and trailing data) appended after the current end of file; their
    old places are zeroed after the header is committed.
    """
    kept = kept or {}
    if any(_absorbs_tail(lumps[i], layout, k) for i, k in kept.items()):
        end = lumps[layout.order[-1]].end
        layout = attrs.evolve(layout, gaps=tuple(g for g in layout.gaps if g.start < end))
    if policy == "compact":
        return _compact(lumps, layout, new_lengths, keep_tail, kept)
    if policy == "stable":
        return _stable(lumps, layout, new_lengths, kept)
    if policy == "in-place":
        return _in_place(lumps, layout, new_lengths, kept)
    raise ValueError(f"unknown layout {policy!r}")


def append_base(lump: Lump, layout: Layout) -> int | None:
    """For the lump stored last, where bytes appended after the end of the file start, relative
    to the lump; None for any other lump."""
    if not layout.order or lump.index != layout.order[-1]:
        return None
    return align(layout.file_size) - lump.offset


def _absorbs_tail(lump: Lump, layout: Layout, kept: int | None) -> bool:
    return bool(kept) and kept == append_base(lump, layout)


def _file_order(lumps: list[Lump], layout: Layout, new_lengths: Mapping[int, int]) -> list[int]:
    """Lumps in file order, then lumps that were empty and now have content, by index."""
    added = [i for i in sorted(new_lengths) if lumps[i].length == 0 and new_lengths[i] > 0]
    return list(layout.order) + added


def _core_end(layout: Layout) -> int:
    return layout.tail.start if layout.tail else layout.file_size


def _slot_end(lump: Lump, layout: Layout) -> int | None:
    """End of the lump's slot (its bytes and the padding after it); None for the last lump."""
    if layout.order and lump.index == layout.order[-1]:
        return None
    gap = layout.gap_after(lump.end)
    return gap.end if gap is not None and gap.kind == "padding" else lump.end


def _stable(lumps: list[Lump], layout: Layout, new_lengths: Mapping[int, int],
            kept: Mapping[int, int]) -> Plan:
    offsets = [lump.offset for lump in lumps]
    vacated: dict[int, int] = {}        # old slot start -> slot length, zeroed
    appended: list[int] = []
    for index in _file_order(lumps, layout, new_lengths):
        if index not in new_lengths:
            continue
        lump, length = lumps[index], new_lengths[index]
        slot_end = _slot_end(lump, layout) if lump.length else lump.offset
        fits = lump.length and (slot_end is None or lump.offset + length <= slot_end)
        if not fits:
            if lump.length:
                vacated[lump.offset] = slot_end - lump.offset
            if length:
                appended.append(index)
    out = _Builder(layout.header_size, layout, kept)
    last_resized = False
    # a file ending unaligned right after its last lump (bspzip's maps) gets no padding when
    # that lump resizes; others are padded to 4 bytes, as vbsp writes them
    open_end = bool(layout.order) and lumps[layout.order[-1]].end == layout.file_size \
        and layout.file_size % 4 != 0
    for index in layout.order:
        lump = lumps[index]
        out.add("copy", lump.offset - out.position, src=out.position)   # the bytes before it
        if lump.offset in vacated:
            out.add("zeros", vacated[lump.offset])
        elif index not in new_lengths:
            out.place(lump, lump.length, False, lump.offset)
        else:
            length = new_lengths[index]
            out.place(lump, length, True, lump.offset)
            if length != lump.length:   # else the padding after it stays as it was
                slot_end = _slot_end(lump, layout)
                last_resized = slot_end is None
                if not last_resized:
                    out.pad_to(slot_end)
                elif not open_end:
                    out.pad_to(align(out.position))
    if not last_resized:
        out.add("copy", _core_end(layout) - out.position, src=out.position)
    grew = last_resized or bool(appended)
    for index in appended:
        out.pad_to(align(out.position))
        offsets[index] = out.position
        out.place(lumps[index], new_lengths[index], True, out.position)
    _finish_tail(out, layout, moved=grew, keep=True, pad=not (open_end and not appended))
    return Plan(tuple(offsets), layout.header_size, tuple(out.pieces))


def _finish_tail(out: _Builder, layout: Layout, moved: bool, keep: bool, pad: bool = True) -> None:
    """Trailing data after the last lump: as it was, or moved behind the new last lump (the
    file end padded to 4 bytes unless told not to)."""
    tail = layout.tail
    if not moved:
        if tail is not None:
            out.add("copy", tail.length, src=tail.start)
        return
    if pad:
        out.pad_to(align(out.position))
    if tail is not None and keep:
        out.add("tail", tail.length, src=tail.start)


def _compact(lumps: list[Lump], layout: Layout, new_lengths: Mapping[int, int],
             keep_tail: bool, kept: Mapping[int, int]) -> Plan:
    offsets = [lump.offset for lump in lumps]
    out = _Builder(layout.header_size, layout, kept)
    for index in _file_order(lumps, layout, new_lengths):
        lump = lumps[index]
        length = new_lengths.get(index, lump.length)
        if not length:
            continue
        out.pad_to(align(out.position))
        offsets[index] = out.position
        out.place(lump, length, index in new_lengths, out.position)
    tail = layout.tail
    unmoved = tail is not None and align(out.position) == tail.start and keep_tail
    if unmoved:
        out.pad_to(tail.start)
    _finish_tail(out, layout, moved=not unmoved, keep=keep_tail)
    return Plan(tuple(offsets), layout.header_size, tuple(out.pieces))


def _in_place(lumps: list[Lump], layout: Layout, new_lengths: Mapping[int, int],
              kept: Mapping[int, int]) -> Plan:
    offsets = [lump.offset for lump in lumps]
    start = align(layout.file_size)
    out = _Builder(start, layout, kept)
    cleanup = []
    growing = [i for i in new_lengths if _absorbs_tail(lumps[i], layout, kept.get(i))]
    for index in growing:       # the last lump grows past the end of the file, in place
        out.add("lump", new_lengths[index] - kept[index], src=kept[index], index=index)
    for index in _file_order(lumps, layout, new_lengths):
        if index not in new_lengths or index in growing:
            continue
        lump, length = lumps[index], new_lengths[index]
        if lump.length:
            slot_end = _slot_end(lump, layout)
            cleanup.append((lump.offset, (slot_end or lump.end) - lump.offset))
        if length:
            out.pad_to(align(out.position))
            offsets[index] = out.position
            out.place(lump, length, True, out.position)
    tail = layout.tail
    if out.pieces and tail is not None:
        out.pad_to(align(out.position))
        out.add("tail", tail.length, src=tail.start)
        cleanup.append((tail.start, tail.length))
    elif out.pieces:
        out.pad_to(align(out.position))
    pieces = tuple(out.pieces)
    return Plan(tuple(offsets), start if pieces else layout.file_size, pieces, tuple(cleanup))
