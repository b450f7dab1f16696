"""Structural checks behind `bspedit verify`: every problem found, one line each."""
from __future__ import annotations

import zlib

from .bsp import Bsp
from .errors import BspError
from .header import Lump
from .layout import check_directory, lump_label
from .lzma_lump import HEADER_SIZE as LZMA_HEADER_SIZE, lzma_header
from .bspx import bspx_directory
from .gamelump import GameLump

_EOCD = b"PK\x05\x06"


def problems(bsp: Bsp) -> list[str]:
    """All structural problems of an open map (opened with check=False); empty when valid."""
    found = [str(p.at(bsp.path)) for p in check_directory(bsp.lumps, bsp.header.size, bsp.size)]
    if found:
        return found    # nothing below is meaningful with a broken directory
    found += _record_sizes(bsp)
    if bsp.family.header == "vbsp":
        found += _source_lumps(bsp)
    found += _trailer(bsp)
    found += _round_trip(bsp)
    return found


def _problem(bsp: Bsp, lump: Lump | None, message: str, offset: int | None = None) -> str:
    return str(BspError(message, path=bsp.path, lump=lump_label(lump) if lump else None,
                        offset=offset))


def _record_sizes(bsp: Bsp) -> list[str]:
    found = []
    for lump in bsp.lumps:
        size = bsp.family.record_size(lump.index)
        if size and lump.length % size:
            found.append(_problem(bsp, lump, f"length {lump.length} is not a multiple of its "
                                  f"{size}-byte records", lump.offset))
    return found


def _source_lumps(bsp: Bsp) -> list[str]:
    found = []
    game_lump = bsp.family.index_of(bsp.family.game_lump)
    pakfile = bsp.family.index_of(bsp.family.pakfile)
    for lump in bsp.lumps:
        if not lump.length:
            continue
        head = bsp.read_range(lump.offset, lump.offset + LZMA_HEADER_SIZE)
        header = lzma_header(head)
        if header is not None:
            if LZMA_HEADER_SIZE + header.lzma_size > lump.length:
                found.append(_problem(bsp, lump, f"LZMA stream of {header.lzma_size} bytes does "
                                      f"not fit in the {lump.length}-byte lump", lump.offset))
            if lump.fourcc != header.actual_size:
                found.append(_problem(bsp, lump, f"fourCC {lump.fourcc} differs from the LZMA "
                                      f"header's size {header.actual_size}", lump.offset))
        elif lump.fourcc and lump.index not in (game_lump, pakfile):
            found.append(_problem(bsp, lump, f"fourCC {lump.fourcc} set on an uncompressed lump",
                                  lump.offset))
    found += _game_lump(bsp, bsp.lumps[game_lump])
    pak = bsp.lumps[pakfile]
    if pak.length and bsp.read_range(pak.offset, pak.end).rfind(_EOCD) < 0:
        found.append(_problem(bsp, pak, "no zip end-of-central-directory record", pak.offset))
    return found


def _game_lump(bsp: Bsp, lump: Lump) -> list[str]:
    if not lump.length:
        return []
    data = bsp.original_bytes(lump)
    try:
        if GameLump.parse(data, lump.offset).to_bytes(lump.offset) != data:
            return [_problem(bsp, lump, "game lump does not re-serialise to its own bytes",
                             lump.offset)]
    except BspError as exc:
        return [_problem(bsp, lump, exc.message, exc.offset or lump.offset)]
    return []


def _trailer(bsp: Bsp) -> list[str]:
    tail = bsp.layout.tail
    if tail is None or tail.kind != "trailing":
        return []
    directory = bspx_directory(bsp.read_range(tail.start, tail.end))
    if directory is None:
        return []
    return [_problem(bsp, None, f"BSPX lump {entry.name.rstrip(bytes(1))!r} runs past the end "
                     "of the file", entry.offset)
            for entry in directory.lumps if entry.offset + entry.length > bsp.size]


def _round_trip(bsp: Bsp) -> list[str]:
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
