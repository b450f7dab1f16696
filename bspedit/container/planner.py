"""Deciding which bytes go where when a map is saved. Pure: no I/O, tested without files.

A plan is a list of pieces that, written one after the other after the header, make the new
file, plus the new offset of every lump. Pieces copy original bytes, write zeros, or stand for a
lump's new content or the relocated trailing data, which the open map materialises.

An in-place plan's pieces are the file as it reads after the save; its commits say how to get
there without ever overwriting a byte the committed header (or trailing data) still needs: each
commit writes into free space only (all-zero bytes nothing references, or past the end of the
file), then rewrites the header, then zeroes what it vacated and cuts a free end off the file.
"""
from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence

from ..format.header import Lump
from ..values import Value
from .layout import ALIGNMENT, Layout, align

LAYOUTS = ("stable", "compact")
HOLE_SLACK = 64 * 1024      # in place, a hole is used for a lump it fits with this much to spare


class Piece(Value):
    """`copy` original bytes from `src`, `zeros`, the new content of lump `index`, or the `tail`
    (trailing data from `src`) moved to a new offset."""

    __slots__ = ("kind", "length", "src", "index")

    def __init__(self, kind: str, length: int, src: int = -1, index: int = -1) -> None:
        self.kind, self.length, self.src, self.index = kind, length, src, index


class Commit(Value):
    """One crash-safe step of an in-place save: grow the file to `size` if it is smaller, put
    `writes` (pieces, at an offset) into free space, commit a header with `offsets` (and, when
    `final`, the edited lumps' new lengths: this commit or an earlier one gave them their new
    content), then zero `cleanup` (offset, length) and cut the file to `size`."""

    __slots__ = ("offsets", "writes", "cleanup", "size", "final")

    def __init__(self, offsets: tuple[int, ...], writes: tuple[tuple[int, tuple[Piece, ...]], ...],
                 cleanup: tuple[tuple[int, int], ...], size: int, final: bool) -> None:
        self.offsets, self.writes, self.cleanup = offsets, writes, cleanup
        self.size, self.final = size, final


class Plan(Value):
    __slots__ = ("offsets", "start", "pieces", "commits")

    def __init__(self, offsets: tuple[int, ...], start: int, pieces: tuple[Piece, ...],
                 commits: tuple[Commit, ...] = ()) -> None:
        self.offsets = offsets      # new directory offsets, by lump index
        self.start = start          # where the first piece goes
        self.pieces = pieces
        self.commits = commits      # in-place: the steps, in order

    @property
    def end(self) -> int:
        return self.start + sum(p.length for p in self.pieces)


_Write = tuple[int, tuple[Piece, ...]]      # pieces written at an offset


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
            self.pieces[-1] = last.replace(length=last.length + length)
        elif kind == "zeros" and last and last.kind == "zeros":
            self.pieces[-1] = last.replace(length=last.length + length)
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
         keep_tail: bool = True, kept: Mapping[int, int] | None = None,
         free: Sequence[tuple[int, int]] = (), end_padding: bytes = b"") -> Plan:
    """Place every lump. `new_lengths` holds the lumps whose content changed; `kept` how many
    leading bytes of a changed lump's new content are the file's bytes from its old offset;
    `free` the all-zero regions no lump references (start, end: in place, and stable with a
    lump kept last); `end_padding` the bytes of the padding after the last lump (under 4).

    A last lump that keeps everything up to the end of the file (see `append_base`) takes in
    the trailing bytes; in-place, only its new bytes are appended and nothing is zeroed.

    stable: unchanged lumps keep bytes and offsets; a changed lump goes back into its slot (its
    bytes plus following padding) when it fits, else after the last lump with its old slot zeroed.
    The last lump's slot is open-ended; the padding after it travels with its end (non-zero
    bytes in it too, so a lump that grows and shrinks back gets them back). Trailing data
    follows the last lump (BSPX readers look for it there), so it moves when the file grows.
    compact: lumps in their file order, 4-byte aligned, no holes; trailing data kept if
    `keep_tail`.
    Boundaries (see `Layout`): wherever a lump is placed anew it starts on its boundary, and
    when the file end moves, zeros after the last lump that padded it to `end_boundary` are
    written anew up to that boundary instead of travelling as trailing data (`keep_tail`:
    trailing bytes that are not all zeros are data, and the end gets no such padding).
    in-place: a changed lump goes into the smallest free hole that fits, else grows in place
    after its kept bytes when what follows is free (the last lump), else is appended. A lump
    growing after its kept bytes that is not last has the lumps after it moved first, in a
    commit of their own, when they are smaller than it. A lump cut to a prefix of itself stays.
    Trailing data follows when the file grows; vacated bytes are zeroed after the commit.
    The lump kept last (`Layout.last`, a console map's pakfile) stays after every other lump:
    stable, lumps that move go into the zeros before it (on their boundaries) and it keeps its
    offset when they fit there, else it moves to its boundary after them; compact places it
    last; in place, lumps go into free holes before it, else a commit of its own first moves
    it past the end of the file, leaving room before it, and when it is rewritten itself it
    goes after the others.
    """
    kept = kept or {}
    if keep_tail and layout.end_boundary > ALIGNMENT:
        layout = layout.replace(end_boundary=ALIGNMENT)
    if any(_absorbs_tail(lumps[i], layout, k) for i, k in kept.items()):
        end = lumps[layout.order[-1]].end
        layout = layout.replace(gaps=tuple(g for g in layout.gaps if g.start < end))
        end_padding = b""
    if policy == "compact":
        return _compact(lumps, layout, new_lengths, keep_tail, kept)
    if policy == "stable":
        return _stable(lumps, layout, new_lengths, kept, end_padding, free)
    if policy == "in-place":
        return _in_place(lumps, layout, new_lengths, kept, free)
    raise ValueError(f"unknown layout {policy!r}")


def with_tail(result: Plan, layout: Layout) -> Plan:
    """`result` with the trailing data materialised (given new bytes by the caller) where it
    was to be copied as it is: copies over it are split around a `tail` piece."""
    tail = layout.tail
    if tail is None or result.commits:
        raise ValueError("only a stable or compact plan of a map with trailing data")
    pieces: list[Piece] = []
    for piece in result.pieces:
        start, end = piece.src, piece.src + piece.length
        if piece.kind != "copy" or end <= tail.start or start >= tail.end:
            pieces.append(piece)
            continue
        pieces += [p for p in (Piece("copy", tail.start - start, src=start),
                               Piece("tail", tail.length, src=tail.start),
                               Piece("copy", end - tail.end, src=tail.end)) if p.length > 0]
    return result.replace(pieces=tuple(pieces))


def append_base(lump: Lump, layout: Layout) -> int | None:
    """Where bytes added after a lump's content start, relative to it: for the lump stored
    last, after the end of the file (the rest of the file becomes part of it); for others,
    after its 4-byte aligned end. None for an empty lump."""
    if not lump.length:
        return None
    if lump.index == layout.order[-1]:
        return align(layout.file_size) - lump.offset
    return align(lump.end) - lump.offset


def _absorbs_tail(lump: Lump, layout: Layout, kept: int | None) -> bool:
    return bool(kept) and lump.index == layout.order[-1] and kept == append_base(lump, layout)


def _file_order(lumps: list[Lump], layout: Layout, new_lengths: Mapping[int, int]) -> list[int]:
    """Lumps in file order, then lumps that were empty and now have content, by index; the
    lump kept last (`Layout.last`) after them all."""
    added = [i for i in sorted(new_lengths) if lumps[i].length == 0 and new_lengths[i] > 0]
    order = list(layout.order) + added
    if layout.last in order:
        order.remove(layout.last)
        order.append(layout.last)
    return order


def _pinned(layout: Layout) -> int | None:
    """The lump kept last when it is stored last: it stays after the others wherever they go."""
    return layout.last if layout.order and layout.order[-1] == layout.last else None


def _room_before(offset: int, regions: Iterable[tuple[int, int]]) -> int:
    """Where the run of zeros (`regions`) that ends at `offset` starts; `offset` when none."""
    return next((a for a, b in _merged(regions) if a < offset <= b), offset)


def _core_end(layout: Layout) -> int:
    return layout.tail.start if layout.tail else layout.file_size


def _slot_end(lump: Lump, layout: Layout) -> int | None:
    """End of the lump's slot (its bytes and the padding after it); None for the last lump."""
    if layout.order and lump.index == layout.order[-1]:
        return None
    gap = layout.gap_after(lump.end)
    return gap.end if gap is not None and gap.kind == "padding" else lump.end


def _stable(lumps: list[Lump], layout: Layout, new_lengths: Mapping[int, int],
            kept: Mapping[int, int], end_padding: bytes,
            free: Sequence[tuple[int, int]]) -> Plan:
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
    # a file ending unpadded after its last lump (bspzip's maps) gets no padding when that
    # lump resizes; others are padded to 4 bytes, as vbsp writes them
    open_end = layout.open_end
    pinned = _pinned(layout)
    back = _hole_for_last(lumps, layout, new_lengths, free) if pinned is None else None
    room = layout.file_size     # where moved lumps go before the lump kept last: its zeros
    if pinned is not None:      # before it (vacated slots too)
        room = lumps[pinned].offset
        if appended:
            room = _room_before(room, list(free) + [(a, a + n) for a, n in vacated.items()])
    for index in layout.order:
        lump = lumps[index]
        if lump.offset >= room:
            break
        if back is not None:
            back_index, back_at, back_end = back
            if out.position <= back_at < lump.offset:
                out.add("copy", back_at - out.position, src=out.position)
                offsets[back_index] = back_at
                out.place(lumps[back_index], new_lengths[back_index], True, back_at)
                out.pad_to(back_end)
            if back_index == index:     # it went back into its hole: the file ends with the
                out.add("copy", lump.offset - out.position, src=out.position)  # lump before
                last_resized = True     # it and its padding
                break
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
                else:
                    _end_padding(out, lump, layout, end_padding, open_end)
    if pinned is not None:
        out.add("copy", room - out.position, src=out.position)
    elif not last_resized:
        out.add("copy", _core_end(layout) - out.position, src=out.position)
    grew = last_resized or bool(appended)
    for index in appended:
        out.pad_to(align(out.position, layout.boundary(index)))
        offsets[index] = out.position
        out.place(lumps[index], new_lengths[index], True, out.position)
    if pinned is not None:
        grew = _place_last(out, lumps[pinned], layout, new_lengths, offsets, end_padding)
    _finish_tail(out, layout, moved=grew, keep=True,
                 pad=(bool(appended) and pinned is None) or
                 (layout.tail is not None and not open_end))
    return Plan(tuple(offsets), layout.header_size, tuple(out.pieces))


def _hole_for_last(lumps: list[Lump], layout: Layout, new_lengths: Mapping[int, int],
                   free: Sequence[tuple[int, int]]) -> tuple[int, int, int] | None:
    """Stable: the changed last lump goes back into a run of zeros before it that it fills
    exactly, on its boundary and padded to 4 bytes: the slot an earlier save zeroed when the
    lump outgrew it and went last. So an edit and its inverse give the file back (a name
    renamed longer and back). (index, where it goes, the end of the run) or None."""
    if not layout.order:
        return None
    index = layout.order[-1]
    length = new_lengths.get(index, 0)
    if not length:
        return None
    for start, end in _merged(free):
        at = align(start, layout.boundary(index))
        if at + align(length) == end and end <= lumps[index].offset:
            return index, at, end
    return None


def _place_last(out: _Builder, lump: Lump, layout: Layout, new_lengths: Mapping[int, int],
                offsets: list[int], end_padding: bytes) -> bool:
    """Stable: the lump kept last, after the lumps placed before it (at its offset when they
    left it free, else on its boundary after them; zeros up to it), then its padding. True
    when it moved or resized (the file end moves)."""
    at = lump.offset if out.position <= lump.offset else \
        align(out.position, layout.boundary(lump.index))
    out.pad_to(at)
    offsets[lump.index] = at
    length = new_lengths.get(lump.index, lump.length)
    out.place(lump, length, lump.index in new_lengths, at)
    if at == lump.offset and length == lump.length:
        out.add("copy", _core_end(layout) - out.position, src=out.position)
        return False
    _end_padding(out, lump, layout, end_padding, layout.open_end)
    return True


def _end_padding(out: _Builder, lump: Lump, layout: Layout, padding: bytes,
                 open_end: bool) -> None:
    """After the resized last lump: its old padding's bytes up to the last non-zero one (so
    they come back when it returns to its size), then zeros to 4 bytes (none for a file that
    ended unaligned at it). Before trailing data, exactly the padding to 4 bytes."""
    need = 0 if open_end else align(out.position) - out.position
    length = need if layout.tail is not None else max(need, len(padding.rstrip(b"\0")))
    out.add("copy", min(length, len(padding)), src=lump.end)
    out.add("zeros", length - min(length, len(padding)))


def _finish_tail(out: _Builder, layout: Layout, moved: bool, keep: bool, pad: bool = True) -> None:
    """Trailing data after the last lump: as it was, or moved behind the new last lump (the
    file end padded to 4 bytes unless told not to); zeros that padded the end to its boundary
    are padded anew to it."""
    tail = layout.tail
    if not moved:
        if tail is not None:
            out.add("copy", tail.length, src=tail.start)
        return
    if pad:
        out.pad_to(align(out.position))
    if layout.end_boundary > ALIGNMENT:
        out.pad_to(align(out.position, layout.end_boundary))
    elif tail is not None and keep:
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
        out.pad_to(align(out.position, layout.boundary(index)))
        offsets[index] = out.position
        out.place(lump, length, index in new_lengths, out.position)
    tail = layout.tail
    unmoved = tail is not None and align(out.position) == tail.start and keep_tail
    if unmoved:
        out.pad_to(tail.start)
    _finish_tail(out, layout, moved=not unmoved, keep=keep_tail)
    return Plan(tuple(offsets), layout.header_size, tuple(out.pieces))


def _in_place(lumps: list[Lump], layout: Layout, new_lengths: Mapping[int, int],
              kept: Mapping[int, int], free: Sequence[tuple[int, int]]) -> Plan:
    space = _Space(lumps, layout, free)
    big = _outgrown(lumps, layout, new_lengths, kept, space)
    commits = []
    if big is not None:
        commits.append(space.move_after(big, new_lengths[big]))
    room = _room_before_last(space, new_lengths, kept)
    if room is not None:
        commits.append(room)
    commits.append(space.final(new_lengths, kept))
    settle = space.settle()
    if settle is not None:
        commits.append(settle)
    return Plan(space.offsets, layout.header_size, _final_view(space, new_lengths, kept),
                tuple(commits))


def _room_before_last(space: _Space, new_lengths: Mapping[int, int],
                      kept: Mapping[int, int]) -> Commit | None:
    """When lumps placed anew find no room before the lump kept last (a trial of the final
    commit says): it is written anew after them when it changed itself, else a commit of its
    own first moves it past the end of the file, leaving room for them all before it."""
    last = space.layout.last
    if last is None:
        return None
    trial = space.copy()
    trial.final(new_lengths, kept)
    if not trial.crowded:
        return None
    if last in new_lengths:
        space.rewrite_last = True
        return None
    return space.move_last(sum(align(length) + space.layout.boundary(i) - ALIGNMENT
                               for i, length in new_lengths.items()))


def _outgrown(lumps: list[Lump], layout: Layout, new_lengths: Mapping[int, int],
              kept: Mapping[int, int], space: _Space) -> int | None:
    """The lump that grows after its kept bytes (up to its aligned end) but is not last, when
    the lumps after it are unchanged, smaller than it, and leave free room once moved: these
    move first, in a commit of their own."""
    for index, length in new_lengths.items():
        lump = lumps[index]
        if not lump.length or lump.index == layout.order[-1] or length <= kept.get(index, 0) \
                or kept.get(index) != append_base(lump, layout):
            continue
        after = layout.order[layout.order.index(index) + 1:]
        moving = [(lumps[i].offset, lumps[i].end) for i in after]
        room = _merged(space.free + moving)
        if any(i in new_lengths for i in after) or space.tail is not None \
                or sum(lumps[i].length for i in after) >= kept[index] \
                or not _covered(room, lump.offset + kept[index], lump.offset + length, space.size):
            return None
        return index
    return None


def _covered(regions: Sequence[tuple[int, int]], start: int, end: int, size: int) -> bool:
    """True when [start, end) lies past `size` or, up to it, inside one of `regions`."""
    end = min(end, size)
    return start >= end or any(a <= start and end <= b for a, b in regions)


class _Space:
    """The in-place file as commits change it: lump offsets, free (all-zero, unreferenced)
    regions, the size, the trailing data."""

    def __init__(self, lumps: list[Lump], layout: Layout, free: Sequence[tuple[int, int]]) -> None:
        self.lumps, self.layout = lumps, layout
        self.offsets = tuple(lump.offset for lump in lumps)
        self.lengths = tuple(lump.length for lump in lumps)
        self.free = _merged(free)
        self.size = layout.file_size
        tail = layout.tail
        self.tail = tail if tail is not None and not self.is_free(tail.start, tail.end) else None
        self.tail_at = tail.start if self.tail else -1
        self.vacated: list[tuple[int, int]] = []        # every region zeroed, for the final view
        self.limit: int | None = None       # lumps placed anew go before it (the lump kept last)
        self.crowded = False                # one of them found no room there
        self.rewrite_last = False           # the lump kept last is written anew after the others

    def copy(self) -> _Space:
        """A copy to try a commit on."""
        other = copy.copy(self)
        other.free, other.vacated = list(self.free), list(self.vacated)
        return other

    def is_free(self, start: int, end: int) -> bool:
        return _covered(self.free, start, end, self.size)

    def take(self, length: int, reserved: tuple[int, int] = (0, 0),
             boundary: int = ALIGNMENT, last: bool = False) -> int:
        """An offset on `boundary` for `length` bytes: the smallest free hole that fits
        (outside `reserved`) and is not much larger (a small lump would split the room a big
        one vacated and needs back), else after the end of the file (and of `reserved`).
        Before `limit`, when set: holes ending there, much larger ones too, else the lump
        is `crowded`. `last`: after the end of the file only."""
        fitting = [(b - a, a, b) for a, b in self.free if align(a, boundary) + length <= b
                   and (b <= reserved[0] or a >= reserved[1])
                   and (self.limit is None or b <= self.limit)] if not last else []
        holes = [h for h in fitting if h[2] <= align(h[1], boundary) + length +
                 max(length, HOLE_SLACK)] or (fitting if self.limit is not None else [])
        self.crowded |= not holes and self.limit is not None and not last
        if holes:
            _, a, b = min(holes)
            start = align(a, boundary)
            self.free.remove((a, b))
            self.free = _merged(self.free + [(a, start), (start + length, b)])
            return start
        start = align(max(self.size, reserved[1]), boundary)
        self.free = _merged(self.free + [(self.size, start)])    # zeros the file grows by
        self.size = start + length
        return start

    def _place(self, index: int, length: int, changed: bool, kept: Mapping[int, int],
               writes: list, reserved: tuple[int, int] = (0, 0)) -> int:
        """Take room for lump `index` (on its boundary; the lump kept last after the end of
        the file) and plan writing it there."""
        at = self.take(length, reserved, self.layout.boundary(index), index == self.layout.last)
        out = _Builder(at, self.layout, kept)
        out.place(self.lumps[index], length, changed, at)
        writes.append((at, tuple(out.pieces)))
        return at

    def _commit(self, offsets: list[int], lengths: Sequence[int], writes: list,
                vacated: list[tuple[int, int]], final: bool) -> Commit:
        """Close a step: vacated regions turn free after the commit; a free end it leaves is
        cut off the file. A grown or cut file ends padded to the layout's end boundary."""
        vacated = [(a, b) for a, b in vacated if b > a]
        self.offsets, self.lengths = tuple(offsets), tuple(lengths)
        self.free = _merged(self.free + vacated)
        self.vacated += vacated
        live = max([o + n for o, n in zip(offsets, lengths) if n] +
                   [self.tail_at + self.tail.length if self.tail else 0, self.layout.header_size])
        end = self.layout.end_boundary
        if self.size > self.layout.file_size:     # a grown file ends padded (4 bytes or more)
            padded = align(self.size, end)
            self.free = _merged(self.free + [(self.size, padded)])     # with zeros
            self.size = padded
        cut = align(live, end)
        if cut < self.size and self.is_free(cut, self.size) and any(b > cut for _, b in vacated):
            self.size = cut
            self.free = _merged((a, min(b, cut)) for a, b in self.free if a < cut)
        return Commit(self.offsets, tuple(writes), tuple((a, b - a) for a, b in vacated),
                      self.size, final)

    def move_after(self, index: int, length: int) -> Commit:
        """First commit: the lumps after `index` move out of the way of its growth."""
        lump = self.lumps[index]
        reserved = (lump.offset, lump.offset + length)
        offsets, writes, vacated = list(self.offsets), [], []
        for other in self.layout.order[self.layout.order.index(index) + 1:]:
            moving = self.lumps[other]
            offsets[other] = self._place(other, moving.length, False, {}, writes, reserved)
            vacated.append((moving.offset, moving.end))
        return self._commit(offsets, self.lengths, writes, vacated, final=False)

    def move_last(self, room: int) -> Commit:
        """A commit that moves the lump kept last (unchanged) past the end of the file, with
        its trailing data, leaving `room` bytes free from the zeros before it."""
        index = self.layout.last
        assert index is not None
        start, end = self.offsets[index], self.offsets[index] + self.lengths[index]
        before = _room_before(start, self.free)
        offsets = list(self.offsets)
        writes: list[_Write] = []
        offsets[index] = self._place(index, self.lengths[index], False, {}, writes,
                                     (before, before + room))
        vacated = [(start, end)]
        self._follow_tail(offsets, self.lengths, writes, vacated)
        return self._commit(offsets, self.lengths, writes, vacated, final=False)

    def _follow_tail(self, offsets: Sequence[int], lengths: Sequence[int],
                     writes: list[_Write], vacated: list[tuple[int, int]]) -> None:
        """Trailing data moves after the last lump."""
        if self.tail is None:
            return
        at = align(max(o + n for o, n in zip(offsets, lengths) if n))
        writes.append((at, (Piece("tail", self.tail.length, src=self.tail.start),)))
        vacated.append((self.tail_at, self.tail_at + self.tail.length))
        self.tail_at, self.size = at, at + self.tail.length

    def final(self, new_lengths: Mapping[int, int], kept: Mapping[int, int]) -> Commit:
        """The commit that gives changed lumps their new content."""
        offsets, lengths, vacated = list(self.offsets), list(self.lengths), []
        writes: list[_Write] = []
        growing = {i for i in new_lengths if self._grows_in_place(i, new_lengths[i], kept)}
        last = self.layout.last
        if self.rewrite_last:
            growing.discard(last)
        elif last is not None and self.lengths[last] and (
                last not in new_lengths or last in growing
                or _cut(self.lumps[last], new_lengths[last], kept.get(last, 0))):
            self.limit = self.offsets[last]     # it stays: the others go before it
        size = self.size
        for index in growing:       # its kept bytes and new room are no longer free
            lump, start = self.lumps[index], self.offsets[index]
            self.free = _merged(r for a, b in self.free for r in
                                ((a, min(b, lump.end)), (max(a, start + new_lengths[index]), b)))
            self.size = max(self.size, start + new_lengths[index])   # lumps appended go after it
        for index in _file_order(self.lumps, self.layout, new_lengths):
            if index not in new_lengths:
                continue
            lump, length, keep = self.lumps[index], new_lengths[index], kept.get(index, 0)
            lengths[index] = length
            if index in growing:                    # new bytes after its kept ones
                writes.append((lump.offset + keep,
                               (Piece("lump", length - keep, src=keep, index=index),)))
            elif _cut(lump, length, keep) and not (self.rewrite_last and index == last):
                vacated.append((lump.offset + length, lump.end))
            else:
                vacated.append((lump.offset, lump.end))
                if length:
                    offsets[index] = self._place(index, length, True, kept, writes)
        if self.size > size:
            self._follow_tail(offsets, lengths, writes, vacated)
        return self._commit(offsets, lengths, writes, vacated, final=True)

    def settle(self) -> Commit | None:
        """A last commit when the file ends with a few lumps behind a large free region:
        they move down into it (copying less than the region) and the file is cut there. The
        lump kept last (a console pakfile) alone behind a free region moves down into it
        whenever it fits there on its boundary, however small the region (a pakfile written
        anew past the end comes back, so the file grows by what the edit added only)."""
        if self.tail is not None:
            return None
        live = sorted((o, i) for i, (o, n) in enumerate(zip(self.offsets, self.lengths)) if n)
        for a, b in self.free:
            behind = [i for o, i in live if o >= b]
            slack = 0 if behind == [self.layout.last] else HOLE_SLACK
            if b - a < slack or not behind:
                continue
            places, at = [], a          # where they go, each on its boundary
            for index in behind:
                places.append(align(at, self.layout.boundary(index)))
                at = align(places[-1] + self.lengths[index])
            if at > b - slack:
                continue
            spans = [(self.offsets[i], self.offsets[i] + self.lengths[i]) for i in behind]
            if not _covered(_merged(self.free + spans), a, self.size, self.size):
                continue                     # data no lump references lies behind: kept
            offsets, writes = list(self.offsets), []
            for index, place in zip(behind, places):
                writes.append((place, (Piece("lump", self.lengths[index], index=index),)))
                offsets[index] = place
            self.free = [r for r in self.free if r != (a, b)] + [(at, b)]
            return self._commit(offsets, self.lengths, writes, spans, final=True)
        return None

    def _grows_in_place(self, index: int, length: int, kept: Mapping[int, int]) -> bool:
        lump, keep = self.lumps[index], kept.get(index, 0)
        return bool(lump.length) and length > keep >= lump.length \
            and self.offsets[index] == lump.offset \
            and self.is_free(lump.offset + keep, lump.offset + length)


def _cut(lump: Lump, length: int, keep: int) -> bool:
    """True when a lump's new content is a prefix of its bytes (it stays, cut)."""
    return bool(keep) and keep == length <= lump.length


def _merged(regions: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Regions sorted, empty ones dropped, touching ones joined."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(r for r in regions if r[1] > r[0]):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(b, out[-1][1]))
        else:
            out.append((a, b))
    return out


def _final_view(space: _Space, new_lengths: Mapping[int, int],
                kept: Mapping[int, int]) -> tuple[Piece, ...]:
    """The whole file after every commit, as pieces from the end of the header: what a reader
    sees (bytes left in place are copies of themselves, vacated ones zeros)."""
    layout, lumps = space.layout, space.lumps
    items = [(space.offsets[i], i) for i in range(len(lumps)) if space.lengths[i]]
    if space.tail is not None:
        items.append((space.tail_at, -1))
    out = _Builder(layout.header_size, layout, kept)
    zeroed = _merged(space.vacated)

    def original_until(end: int) -> None:
        """Bytes left as they were up to `end`: the original file, zeros where vacated."""
        while out.position < end:
            here = out.position
            inside = next(((a, b) for a, b in zeroed if a <= here < b), None)
            if inside is not None or here >= layout.file_size:
                stop = min(end, inside[1] if inside else end)
                out.add("zeros", stop - here)
                continue
            stop = min([end, layout.file_size] + [a for a, _ in zeroed if a > here])
            out.add("copy", stop - here, src=here)

    for at, index in sorted(items):
        if index < 0:
            original_until(at)
            same = at == space.tail.start
            out.add("copy" if same else "tail", space.tail.length, src=space.tail.start)
            continue
        lump = lumps[index]
        length = space.lengths[index]
        keep = kept.get(index, 0)
        if index in new_lengths and at == lump.offset and keep:
            original_until(at + min(keep, length))      # its kept bytes stay where they are
            out.add("lump", length - keep, src=keep, index=index)
            continue
        original_until(at)
        if index not in new_lengths and at == lump.offset:
            out.add("copy", length, src=at)
        else:
            out.place(lump, length, index in new_lengths, at)
    original_until(space.size)
    return tuple(out.pieces)
