"""Map parts as plain data: the rows every verb reports in its JSON result (and prints), so the
same fact has the same keys everywhere (README, "JSON output")."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..bsp import Bsp
    from ..lumps.gamelump import Member
    from ..format.header import Lump
    from ..lumps.pakfile import Entry


def lump_row(bsp: Bsp, lump: Lump) -> dict[str, Any]:
    """A lump's directory entry as stored: index, name, offset, length, version, fourcc, whether
    it is LZMA-compressed (and its uncompressed length), its position in file order."""
    from ..format.lzma_lump import lzma_header

    compressed = lzma_header(bsp.read_range(lump.offset, lump.offset + 17)) \
        if lump.length and bsp.family.header == "vbsp" else None
    order = bsp.layout.order.index(lump.index) if lump.index in bsp.layout.order else None
    return {"index": lump.index, "name": lump.name, "offset": lump.offset, "length": lump.length,
            "version": lump.version, "fourcc": lump.fourcc, "compressed": compressed is not None,
            "uncompressed_length": compressed.actual_size if compressed else None,
            "file_order": order}


def entry_row(entry: Entry) -> dict[str, Any]:
    """A pakfile entry: name, size, stored size, method, CRC-32, local header offset (-1 for
    an entry added by this run), whether it is an XZP2 preload section (console pakfiles)."""
    return {"name": entry.name, "size": entry.size, "stored_size": entry.stored_size,
            "method": entry.method_name, "crc32": entry.crc, "offset": entry.offset,
            "preload": entry.is_preload}


def member_row(member: Member) -> dict[str, Any]:
    """A game lump directory entry: id (null for a terminator; hex when not printable), flags,
    version, offset, stored and declared length, compressed."""
    name = None if member.terminator else member.name
    return {"id": name if name is None or name.isprintable() else member.ident.hex(),
            "flags": member.flags, "version": member.version, "offset": member.offset,
            "stored_length": len(member.stored), "length": member.length,
            "compressed": member.compressed}


def describe(bsp: Bsp) -> dict[str, Any]:
    """Everything `info` shows, as plain data (the ui's Lumps view shows it too)."""
    from ..format.bspx import bspx_directory
    from .compression import end_padded

    lumps = [lump_row(bsp, lump) for lump in bsp.lumps]
    gaps = [{"start": g.start, "end": g.end, "length": g.length, "kind": g.kind,
             "zero": bsp.read_range(g.start, g.end).strip(b"\0") == b""} for g in bsp.layout.gaps]
    tail = bsp.layout.tail
    bspx = bspx_directory(bsp.read_range(tail.start, tail.end)) if tail else None
    return {"family": bsp.family.key, "title": bsp.family.title,
            "ident": bsp.header.ident.decode("latin-1"), "version": bsp.header.version,
            "byte_order": "big" if bsp.header.big_endian else "little",
            "revision": bsp.header.revision,
            "lump_t_order": bsp.header.lump_order if bsp.family.header == "vbsp" else None,
            "size": bsp.size, "header_size": bsp.header.size, "lumps": lumps, "gaps": gaps,
            "trailing_bytes": tail.length if tail else 0,
            "end_padded_1k": end_padded(bsp),
            "bspx_lumps": [{"name": e.name.rstrip(b"\0").decode("latin-1"), "offset": e.offset,
                            "length": e.length} for e in bspx.lumps] if bspx else []}
