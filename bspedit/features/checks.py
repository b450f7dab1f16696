"""Structural checks behind `bspedit verify`: every problem found, one BspError each (naming
the map, the lump and the file offset where known).

Lumps are decoded one at a time and dropped before the next, so memory stays bounded by the
largest single lump. LZMA1 streams carry no checksum: a garbled stream that still decodes to
its declared size is caught only where something else checks it (pak entry CRCs, the entity
text grammar, record sizes).
"""
from __future__ import annotations

import zlib

from ..bsp import Bsp
from ..errors import BspError
from ..format.header import Lump, check_directory, lump_label
from ..format.lzma_lump import HEADER_SIZE as LZMA_HEADER_SIZE, decompress, lzma_header
from ..format.bspx import BSPX_ENTRY, bspx_directory
from ..lumps.gamelump import GameLump
from ..lumps.pakfile import Pakfile, unsafe_name
from ..lumps.staticprops import MEMBER as STATIC_PROPS, StaticProps


def problems(bsp: Bsp) -> list[BspError]:
    """All structural problems of an open map (opened with check=False); empty when valid."""
    found = [p.at(bsp.path) for p in check_directory(bsp.lumps, bsp.header.size, bsp.size)]
    if found:
        return found    # nothing below is meaningful with a broken directory
    found += _record_sizes(bsp)
    if bsp.family.header == "vbsp":
        found += _lzma_lumps(bsp)
    if bsp.family.game_lump:
        found += _game_lump(bsp, bsp.lumps[bsp.lump_index(bsp.family.game_lump)])
    if bsp.family.pakfile:
        found += _pakfile(bsp)
    found += _trailer(bsp)
    found += _entities(bsp, {p.lump for p in found})   # last: the map keeps the parsed text
    found += _round_trip(bsp)
    return found


def _problem(bsp: Bsp, lump: Lump | None, message: str, offset: int | None = None) -> BspError:
    return BspError(message, path=bsp.path, lump=lump_label(lump) if lump else None,
                    offset=offset, in_file=True)


def _in_lump(bsp: Bsp, lump: Lump, exc: BspError) -> BspError:
    """A model's error (offsets relative to the lump's stored bytes) placed in the file."""
    offset = None if exc.offset is None else lump.offset + exc.offset
    return _problem(bsp, lump, exc.message, offset)


def _record_sizes(bsp: Bsp) -> list[BspError]:
    """Fixed-size lumps hold whole records (an LZMA lump: its uncompressed size does)."""
    found = []
    for lump in bsp.lumps:
        size = bsp.family.record_size(lump.index, lump.version, bsp.header.version)
        if not size or not lump.length:
            continue
        header = lzma_header(bsp.read_range(lump.offset, lump.offset + LZMA_HEADER_SIZE)) \
            if bsp.family.header == "vbsp" else None
        length = header.actual_size if header else lump.length
        if length % size:
            what = "uncompressed length" if header else "length"
            found.append(_problem(bsp, lump, f"{what} {length} is not a multiple of its "
                                  f"{size}-byte records", lump.offset))
    return found


def _lzma_lumps(bsp: Bsp) -> list[BspError]:
    """Every Source lump with Valve's LZMA header decodes to the size its header and fourCC
    claim; a fourCC on an uncompressed lump is a lie too."""
    found = []
    unpacked = {bsp.family.index_of(bsp.family.game_lump), bsp.family.index_of(bsp.family.pakfile)}
    for lump in bsp.lumps:
        if not lump.length:
            continue
        header = lzma_header(bsp.read_range(lump.offset, lump.offset + LZMA_HEADER_SIZE))
        if header is None:
            if lump.fourcc and lump.index not in unpacked:
                found.append(_problem(bsp, lump, f"fourCC {lump.fourcc} set on an uncompressed "
                                      "lump", lump.offset))
            continue
        if lump.fourcc != header.actual_size:
            found.append(_problem(bsp, lump, f"fourCC {lump.fourcc} differs from the LZMA "
                                  f"header's size {header.actual_size}", lump.offset))
        if LZMA_HEADER_SIZE + header.lzma_size > lump.length:
            found.append(_problem(bsp, lump, f"LZMA stream of {header.lzma_size} bytes does "
                                  f"not fit in the {lump.length}-byte lump", lump.offset))
            continue
        try:
            decompress(bsp.original_bytes(lump))
        except BspError as exc:
            found.append(_in_lump(bsp, lump, exc))
    return found


def _game_lump(bsp: Bsp, lump: Lump) -> list[BspError]:
    """Members inside the lump, compressed members decoded to their declared size, static
    props parsed, and the lump re-serialising to its own bytes."""
    if not lump.length:
        return []
    data = bsp.original_bytes(lump)
    try:
        game = GameLump.parse(data, lump.offset, bsp.header.endian)
    except BspError as exc:
        return [_problem(bsp, lump, exc.message, exc.offset or lump.offset)]
    found = []
    if game.to_bytes(lump.offset) != data:
        found.append(_problem(bsp, lump, "game lump does not re-serialise to its own bytes",
                              lump.offset))
    for member in game.members:
        try:
            payload = game.payload(member)
            if member.name == STATIC_PROPS and member.offset:
                StaticProps.parse(payload, member.version, game.endian)
        except BspError as exc:
            message = exc.message if exc.message.startswith("game lump member") else \
                f"game lump member {member.name!r}: {exc.message}"
            found.append(_problem(bsp, lump, message, member.offset or lump.offset))
    return found


def _pakfile(bsp: Bsp) -> list[BspError]:
    """Every pak entry reads back (decoded, sizes and CRC-32 checked), stays inside the map's
    folder and is the only one of its name; an XZP2 (console) pakfile's preload section
    matches its entries."""
    lump = bsp.lumps[bsp.lump_index(bsp.family.pakfile)]
    if not lump.length:
        return []
    try:
        pak = Pakfile.of(bsp)
    except BspError as exc:
        return [exc]
    found = []
    if pak.preload_problem:
        found.append(_problem(bsp, lump, f"XZP2 pakfile: {pak.preload_problem}", pak.base))
    first: dict[str, str] = {}
    for entry in pak.entries:
        where = pak.base + entry.offset
        unsafe = unsafe_name(entry.name)
        if unsafe:
            found.append(_problem(bsp, lump, f"pak entry {entry.name!r} {unsafe}", where))
        if entry.key in first:
            found.append(_problem(bsp, lump, f"pak entry {entry.name!r} repeats "
                                  f"{first[entry.key]!r}: the engine finds only the first",
                                  where))
        first.setdefault(entry.key, entry.name)
        try:
            pak.read(entry)
        except BspError as exc:
            found.append(exc)
    return found


def _trailer(bsp: Bsp) -> list[BspError]:
    """A BSPX directory's entries lie inside the trailing data, after the directory."""
    tail = bsp.layout.tail
    if tail is None or tail.kind != "trailing":
        return []
    data = bsp.read_range(tail.start, tail.end)
    directory = bspx_directory(data)
    if directory is None:
        if data[:4] != b"BSPX":
            return []
        count = int.from_bytes(data[4:8], "little")
        return [_problem(bsp, None, f"BSPX directory claims {count} lumps, more than the "
                         f"{tail.length}-byte trailing data holds", tail.start)]
    found = []
    data_start = tail.start + 8 + BSPX_ENTRY * len(directory.lumps)
    for entry in directory.lumps:
        name = entry.name.rstrip(bytes(1)).decode("latin-1")
        if not data_start <= entry.offset <= entry.offset + entry.length <= tail.end:
            found.append(BspError(f"{entry.length} bytes at offset {entry.offset} lie outside "
                                  f"the BSPX data ({data_start}..{tail.end})", path=bsp.path,
                                  lump=f"BSPX lump {name}", offset=entry.offset,
                                  in_file=True))
    return found


def _entities(bsp: Bsp, broken: set[str | None]) -> list[BspError]:
    """The entity text parses (strictly); skipped when its lump is already reported."""
    lump = bsp.lumps[bsp.family.entities]
    if lump_label(lump) in broken:
        return []
    try:
        bsp.entities()
    except BspError as exc:
        compressed = lzma_header(bsp.read_range(lump.offset, lump.offset + LZMA_HEADER_SIZE))
        if compressed or exc.offset is None:    # a position in the decompressed text
            return [_problem(bsp, lump, exc.message + (" (of the decompressed text)"
                                                       if compressed else ""), lump.offset)]
        return [_in_lump(bsp, lump, exc)]
    return []


def _round_trip(bsp: Bsp) -> list[BspError]:
    """Re-serialise the header, replay the unchanged save, and check the compact layout."""
    found = []
    if bsp.header.to_bytes() != bsp.read_range(0, bsp.header.size):
        found.append(_problem(bsp, None, "header does not re-serialise to its own bytes", 0))
    crc = 0
    for start in range(0, bsp.size, 1 << 20):
        crc = zlib.crc32(bsp.read_range(start, min(start + (1 << 20), bsp.size)), crc)
    if bsp.stored_crc() != crc:
        found.append(_problem(bsp, None, "an unchanged save would not reproduce the file"))
    header, plan = bsp.plan("compact")
    for problem in check_directory(header.lumps, header.size, plan.end):
        found.append(_problem(bsp, None, f"compact layout would be invalid: {problem}"))
    return found
