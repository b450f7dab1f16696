"""Synthetic maps for every family, assembled with plain struct (independent of bspedit's writer).

Lumps are placed in the order given, each followed by `pad` bytes up to a 4-byte boundary.
A lump value may be a callable taking the offset where it lands (for offset-bearing lumps).
"""
from __future__ import annotations

import struct
from collections.abc import Callable, Mapping

LUMP_COUNTS = {"q1": 15, "bsp2": 15, "2psb": 15, "goldsrc": 15, "bshift": 15, "q2": 19, "q3": 17,
               "ql": 17, "rbsp": 18, "fbsp": 18, "source": 64}
PREFIX = {"q1": struct.pack("<i", 29), "bsp2": b"BSP2", "2psb": b"2PSB",
          "goldsrc": struct.pack("<i", 30), "bshift": struct.pack("<i", 30),
          "q2": b"IBSP" + struct.pack("<i", 38), "q3": b"IBSP" + struct.pack("<i", 46),
          "ql": b"IBSP" + struct.pack("<i", 47), "rbsp": b"RBSP" + struct.pack("<i", 1),
          "fbsp": b"FBSP" + struct.pack("<i", 1)}
ENTITIES = b'{\n"classname" "worldspawn"\n"message" "synthetic"\n}\n{\n"classname" "info_player_start"\n"origin" "0 0 64"\n}\n\x00'

Content = bytes | Callable[[int], bytes]


def header_size(family: str) -> int:
    if family == "source":
        return 8 + 64 * 16 + 4
    return len(PREFIX[family]) + 8 * LUMP_COUNTS[family]


def make_map(family: str, lumps: Mapping[int, Content], *, order: list[int] | None = None,
             pad: bytes = b"\0\0\0", marker: bytes = b"", trailing: bytes | Callable[[int], bytes] = b"",
             version: int = 20, revision: int = 7, l4d2: bool = False,
             versions: Mapping[int, int] | None = None, fourccs: Mapping[int, int] | None = None,
             empty_offset: int | None = None) -> bytes:
    """Assemble a map. Empty lumps get offset `empty_offset` (default: where they would go)."""
    count = LUMP_COUNTS[family]
    order = order if order is not None else sorted(lumps)
    position = header_size(family) + len(marker)
    body = bytearray(marker)
    entries = {}
    for index in order:
        content = lumps[index]
        data = content(position) if callable(content) else content
        entries[index] = (position, len(data))
        body += data
        position += len(data)
        fill = -position % 4
        body += pad[:fill].ljust(fill, b"\0")
        position += fill
    tail = trailing(position) if callable(trailing) else trailing
    body += tail
    directory = [entries.get(i, (position if empty_offset is None else empty_offset, 0))
                 for i in range(count)]
    if family == "source":
        head = bytearray(b"VBSP" + struct.pack("<i", version))
        for i, (offset, length) in enumerate(directory):
            lump_version = (versions or {}).get(i, 0)
            fourcc = (fourccs or {}).get(i, 0)
            fields = (lump_version, offset, length) if l4d2 else (offset, length, lump_version)
            head += struct.pack("<iiiI", *fields, fourcc)
        head += struct.pack("<i", revision)
    else:
        head = bytearray(PREFIX[family])
        for offset, length in directory:
            head += struct.pack("<ii", offset, length)
    return bytes(head + body)


STATIC_PROPS = bytes(12)      # a valid `sprp` member of any version: no models, leaves or props


def records(size: int, count: int, seed: int = 1) -> bytes:
    """`count` records of `size` bytes of deterministic non-zero filler."""
    return bytes((seed * 31 + i * 7) % 251 + 1 for i in range(size * count))


def game_lump(members: list[tuple[bytes, int, int, bytes]]) -> Callable[[int], bytes]:
    """A Source game lump with absolute member offsets: (id, flags, version, data) each."""
    def build(offset: int) -> bytes:
        directory = struct.pack("<i", len(members))
        position = offset + 4 + 16 * len(members)
        blobs = b""
        for ident, flags, version, data in members:
            directory += ident[::-1] + struct.pack("<HHii", flags, version, position, len(data))
            position += len(data)
            blobs += data
        return directory + blobs
    return build


def bspx(lumps: Mapping[bytes, bytes]) -> Callable[[int], bytes]:
    """A BSPX trailer (directory then lumps) with absolute offsets."""
    def build(offset: int) -> bytes:
        directory = b"BSPX" + struct.pack("<I", len(lumps))
        position = offset + 8 + 32 * len(lumps)
        blobs = b""
        for name, data in lumps.items():
            directory += name.ljust(24, b"\0") + struct.pack("<II", position, len(data))
            blobs += data + bytes(-len(data) % 4)
            position += len(data) + (-len(data) % 4)
        return directory + blobs
    return build


def sample(family: str) -> bytes:
    """A small map of `family` with entity text, records, dirty padding and family quirks."""
    if family == "source":
        lumps = {0: ENTITIES, 1: records(20, 3), 3: records(12, 5),
                 35: game_lump([(b"sprp", 0, 10, STATIC_PROPS), (b"dprp", 0, 4, b"\0" * 4)]),
                 40: b"PK\x05\x06" + bytes(16) + b"\x20\x00" + b"XZP1 0".ljust(32, b"\0")}
        return make_map("source", lumps, order=[1, 3, 0, 35, 40], pad=b"\xbc\xbc\xb2",
                        versions={7: 1, 35: 0}, revision=42)
    entities = 1 if family == "bshift" else 0
    if family in ("q3", "ql", "rbsp", "fbsp"):
        return make_map(family, {0: ENTITIES, 2: records(16, 3)}, order=[2, 0],
                        marker=b"I LOVE MY Q3MAP2 test\0na".ljust(56, b"\0"), pad=b"\n\n\n")
    planes = 0 if family == "bshift" else 1
    lumps = {entities: ENTITIES[:-1], planes: records(20, 4)}
    trailing = bspx({b"RGBLIGHTING": b"\x10\x20\x30" * 5}) if family == "q1" else b""
    return make_map(family, lumps, order=[planes, entities], pad=b"\n\0\0", trailing=trailing)
