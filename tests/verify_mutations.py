"""Damage a real map in one known way at a time, for the `verify` mutation suite.

`mutations(path)` yields every case that applies to the map: the damaged bytes and the label
of the lump `verify` must name. Each class below damages what a real failure would (a bad
download, a broken tool, a hand edit), keeping everything else intact.
"""
from __future__ import annotations

import dataclasses
import random
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from bspedit.format import lzma_lump
from bspedit.bsp import Bsp
from bspedit.format.bspx import BSPX_ENTRY, bspx_directory
from bspedit.format.gamelumpdir import game_lump_directory
from bspedit.format.header import lump_label
from bspedit.lumps.pakfile import LZMA, Pakfile

CLASSES = ("corrupt-lzma-stream", "lzma-size-lie", "pak-crc-wrong", "pak-lzma-corrupt",
           "unsafe-pak-name", "entities-unparseable", "truncated-record-lump",
           "game-lump-member-out-of-bounds", "bspx-entry-out-of-bounds")


@dataclass(frozen=True, slots=True)
class Mutation:
    kind: str
    case: str          # what was damaged, for failure messages
    data: bytes
    lump: str          # the label verify must name


def _put(data: bytes, offset: int, fmt: str, *values: int) -> bytes:
    out = bytearray(data)
    struct.pack_into("<" + fmt, out, offset, *values)
    return bytes(out)


def _splice(data: bytes, offset: int, new: bytes) -> bytes:
    return data[:offset] + new + data[offset + len(new):]


def _with_lump(bsp: Bsp, data: bytes, index: int, **fields: int) -> bytes:
    """The map with lump `index`'s directory entry changed (the header's own serialiser)."""
    header = bsp.header.copy()
    for name, value in fields.items():
        setattr(header.lumps[index], name, value)
    return header.to_bytes() + data[bsp.header.size:]


def _lzma_blobs(bsp: Bsp) -> Iterator[tuple[str, int, str]]:
    """(what, file offset of a Valve LZMA blob, lump label): LZMA lumps and compressed
    game lump members."""
    for lump in bsp.lumps:
        if lump.length and lzma_lump.lzma_header(bsp.original_bytes(lump)):
            yield lump.name, lump.offset, lump_label(lump)
    if bsp.family.game_lump:
        lump = bsp.lumps[bsp.lump_index(bsp.family.game_lump)]
        if lump.length:
            for entry in game_lump_directory(bsp.original_bytes(lump)).entries:
                if entry.flags & 1 and entry.offset:
                    yield f"member {entry.id[::-1].decode()}", entry.offset, lump_label(lump)


def _corrupt_lzma_stream(bsp: Bsp, data: bytes) -> Iterator[Mutation]:
    for what, at, label in _lzma_blobs(bsp):
        header = lzma_lump.lzma_header(data[at:at + lzma_lump.HEADER_SIZE])
        yield Mutation("", f"{what}: stream cut in half",
                       _put(data, at + 8, "I", header.lzma_size // 2), label)
        yield Mutation("", f"{what}: invalid properties byte", _splice(data, at + 12, b"\xff"),
                       label)


def _lzma_size_lie(bsp: Bsp, data: bytes) -> Iterator[Mutation]:
    for what, at, label in _lzma_blobs(bsp):
        header = lzma_lump.lzma_header(data[at:at + lzma_lump.HEADER_SIZE])
        bigger = header.actual_size + 4096
        lied = _put(data, at + 4, "I", bigger)
        if what.startswith("member"):
            yield Mutation("", f"{what}: header claims {bigger} bytes", lied, label)
            continue
        lump = next(l for l in bsp.lumps if l.offset == at and l.length)
        yield Mutation("", f"{what}: header and fourCC claim {bigger} bytes",
                       _with_lump(bsp, lied, lump.index, fourcc=bigger), label)
        yield Mutation("", f"{what}: fourCC claims {bigger} bytes",
                       _with_lump(bsp, data, lump.index, fourcc=bigger), label)
        yield Mutation("", f"{what}: stream claims more bytes than the lump holds",
                       _put(data, at + 8, "I", lump.length), label)


def _pak(bsp: Bsp) -> Pakfile | None:
    if not bsp.family.pakfile or not bsp.lumps[bsp.lump_index(bsp.family.pakfile)].length:
        return None
    return Pakfile.of(bsp)


def _pak_entries(bsp: Bsp, data: bytes, pick: Callable) -> Iterator[tuple]:
    """(entry, file offsets of its local header and central record, lump label, file offset
    of its data) for the entries `pick` chooses."""
    pak = _pak(bsp)
    if pak is None:
        return
    label = pak.label
    for entry in pick([e for e in pak.entries if not e.is_dir]):
        yield (entry, pak.base + entry.offset, data.index(entry.record, pak.base), label,
               pak.base + entry.data_start)


def _first_and_last(entries: list) -> list:
    return entries[:1] + entries[1:][-1:]


def _lzma_entries(entries: list) -> list:
    return [e for e in entries if e.method == LZMA]


def _pak_crc_wrong(bsp: Bsp, data: bytes) -> Iterator[Mutation]:
    for entry, local, central, label, _ in _pak_entries(bsp, data, _first_and_last):
        crc = entry.crc ^ 0x5A5A5A5A
        yield Mutation("", f"{entry.name}: CRC-32 0x{crc:08x}",
                       _put(_put(data, local + 14, "I", crc), central + 16, "I", crc), label)


def _pak_lzma_corrupt(bsp: Bsp, data: bytes) -> Iterator[Mutation]:
    rng = random.Random(13)
    for entry, _, _, label, start in _pak_entries(bsp, data, _lzma_entries):
        half = entry.stored_size // 2
        yield Mutation("", f"{entry.name}: garbage in the back half of its stream",
                       _splice(data, start + half, rng.randbytes(entry.stored_size - half)),
                       label)


def _unsafe_pak_name(bsp: Bsp, data: bytes) -> Iterator[Mutation]:
    for entry, local, central, label, _ in _pak_entries(bsp, data, _first_and_last):
        for prefix in (b"../../", b"/", b"C:", b"..\\"):
            name = prefix + entry.raw_name[len(prefix):]
            yield Mutation("", f"{entry.name} renamed {name!r}",
                           _splice(_splice(data, local + 30, name), central + 46, name), label)


def _entities_unparseable(bsp: Bsp, data: bytes) -> Iterator[Mutation]:
    lump = bsp.lumps[bsp.family.entities]
    stored = bsp.original_bytes(lump)
    text = lzma_lump.decompress(stored) if lzma_lump.lzma_header(stored) else stored
    brace = text.index(b"{")
    broken = text[:brace] + b"}" + text[brace + 1:]           # the first entity opens with '}'
    if text is stored:
        yield Mutation("", "first '{' made '}'", _splice(data, lump.offset + brace, b"}"),
                       lump_label(lump))
        return
    bsp.replace_lump(lump.index, lzma_lump.compress(broken))
    out = b"".join(bytes(chunk) for chunk in bsp.render())
    yield Mutation("", "first '{' made '}' (LZMA lump compressed again)", out, lump_label(lump))


def _truncated_record_lump(bsp: Bsp, data: bytes) -> Iterator[Mutation]:
    for lump in bsp.lumps:
        if lump.length and bsp.family.record_size(lump.index, lump.version, bsp.header.version):
            yield Mutation("", f"{lump.name} one byte short",
                           _with_lump(bsp, data, lump.index, length=lump.length - 1),
                           lump_label(lump))


def _game_lump_member_out_of_bounds(bsp: Bsp, data: bytes) -> Iterator[Mutation]:
    if not bsp.family.game_lump:
        return
    lump = bsp.lumps[bsp.lump_index(bsp.family.game_lump)]
    if not lump.length:
        return
    entries = game_lump_directory(bsp.original_bytes(lump)).entries
    placed = [(i, e) for i, e in enumerate(entries) if e.offset and e.length]
    if not placed:
        return
    label = lump_label(lump)
    first, (last, entry) = placed[0], max(placed, key=lambda p: p[1].offset)
    yield Mutation("", f"member {first[1].id[::-1].decode()} starts after the lump",
                   _put(data, lump.offset + 4 + 16 * first[0] + 8, "i", lump.end + 64), label)
    yield Mutation("", f"member {entry.id[::-1].decode()} runs past the lump",
                   _put(data, lump.offset + 4 + 16 * last + 12, "i",
                        entry.length + lump.length), label)


def _bspx_entry_out_of_bounds(bsp: Bsp, data: bytes) -> Iterator[Mutation]:
    tail = bsp.layout.tail
    directory = bspx_directory(data[tail.start:tail.end]) if tail else None
    if directory is None:
        return
    for i, entry in enumerate(directory.lumps):
        name = entry.name.rstrip(b"\0").decode()
        field = tail.start + 8 + BSPX_ENTRY * i + 24
        for case, offset, length in (("past the end of the file", bsp.size + 16, entry.length),
                                     ("into the header", 0, entry.length),
                                     ("longer than the trailer", entry.offset, tail.length)):
            yield Mutation("", f"BSPX {name} points {case}",
                           _put(data, field, "II", offset, length), f"BSPX lump {name}")


_BUILDERS = dict(zip(CLASSES, (
    _corrupt_lzma_stream, _lzma_size_lie, _pak_crc_wrong, _pak_lzma_corrupt, _unsafe_pak_name,
    _entities_unparseable, _truncated_record_lump, _game_lump_member_out_of_bounds,
    _bspx_entry_out_of_bounds)))


def mutations(path: Path, kind: str) -> list[Mutation]:
    """Every case of class `kind` that applies to the map at `path`."""
    data = path.read_bytes()
    with Bsp.open(path) as bsp:
        return [dataclasses.replace(m, kind=kind) for m in _BUILDERS[kind](bsp, data)]
