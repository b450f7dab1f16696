"""The engines' map checksums, computed from lump bytes (pure functions, no file I/O).

* Quake 2 / Quake 3: ``Com_BlockChecksum`` of the whole file (``CM_LoadMap``) --
  MD4 (RFC 1320) of the bytes, the 16-byte digest read as four little-endian u32
  words XORed together (id ``qcommon/md4.c``, ioquake3 ``code/qcommon/md4.c``).
* QuakeWorld (mvdsv ``src/cmodel.c`` ``CM_LoadMap``): ``map_checksum`` XORs the
  block checksum of every lump but ``LUMP_ENTITIES`` (0); ``map_checksum2`` also
  leaves out ``LUMP_VISIBILITY`` (4), ``LUMP_NODES`` (5) and ``LUMP_LEAFS`` (10).
  Same rule for BSP29, BSP2, 2PSB and Half-Life v30 files.
* Source / GoldSrc: ``CRC_MapFile`` -- CRC-32 (zlib's) of every lump but the
  entities lump, as stored, in lump-index order.

MD4 is pycryptodome's (C); hashlib has none on OpenSSL 3. CRC-32 values of pieces combine
(`crc32_combine`), so a map's CRC follows from per-lump CRCs without reading the lumps again.
"""
from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable, Sequence, Set
from typing import Any, Union

__all__ = [
    "Buffer", "new_md4", "md4", "checksum_from_digest", "block_checksum", "crc32_combine",
    "source_crc", "quakeworld_checksums", "signed32", "QW_LUMP_ENTITIES", "QW_CHECKSUM2_SKIP",
]

#: Anything exposing the buffer protocol: bytes, bytearray, memoryview, mmap.
Buffer = Union[bytes, bytearray, memoryview]

#: mvdsv ``bspfile.h``: ``LUMP_ENTITIES`` is 0 for every Quake 1 / HL version.
QW_LUMP_ENTITIES = 0
#: Lumps ``map_checksum2`` leaves out: VISIBILITY (4), NODES (5), LEAFS (10).
QW_CHECKSUM2_SKIP: frozenset[int] = frozenset({4, 5, 10})

_MASK = 0xFFFFFFFF
_WORDS = struct.Struct("<4I")


def new_md4(data: Buffer = b"") -> Any:
    """A fresh incremental MD4 object (`update`, `copy`, `digest`)."""
    from Crypto.Hash import MD4     # imported on first use: only Quake engines need it

    return MD4.new(data)


def md4(data: Buffer) -> bytes:
    """MD4 (RFC 1320) digest of `data`."""
    return new_md4(data).digest()


def checksum_from_digest(digest: bytes) -> int:
    """Fold a 16-byte MD4 digest as ``Com_BlockChecksum`` does: XOR of its 4 little-endian u32 words."""
    a, b, c, d = _WORDS.unpack(digest)
    return a ^ b ^ c ^ d


def block_checksum(data: Buffer) -> int:
    """``Com_BlockChecksum(data, len)`` as an unsigned 32-bit int.

    Quake 2's and Quake 3's map checksum is this over the whole file
    (``CM_LoadMap``: ``LittleLong(Com_BlockChecksum(buf, length))``, a no-op on
    little-endian hosts); Quake 3 shows it signed as ``sv_mapChecksum``.
    ioquake3's samba-derived MD4 agrees with RFC 1320 for 1 byte .. 512 MiB of
    input; it differs for empty input (its padding block is run twice) and
    beyond 512 MiB (only the low 32 bits of the bit count are hashed).
    """
    return checksum_from_digest(md4(data))


# CRC-32 combination (zlib's crc32_combine, as polynomial arithmetic over GF(2), reflected: bit
# 31 holds the coefficient of x^0). A product is taken four bits at a time: a save combines
# some 130 lump CRCs, and bit by bit that cost a small entity edit more than its planning.
_POLY = 0xEDB88320
_X0 = 1 << 31           # the polynomial 1 (x^0) in reflected form


def _times_x(p: int) -> int:
    """p(x) * x modulo the CRC-32 polynomial."""
    return (p >> 1) ^ _POLY if p & 1 else p >> 1


def _multiples(b: int) -> list[int]:
    """b(x) times each polynomial of degree < 4, indexed by its four bits as a nibble of a
    reflected value holds them (bit 3: x^0 ... bit 0: x^3)."""
    bx = _times_x(b)
    bx2 = _times_x(bx)
    table = [0]
    for p in (_times_x(bx2), bx2, bx, b):
        table += [t ^ p for t in table]
    return table


def _nibble_shifts() -> list[int]:
    """What multiplying by x^4 brings in for each value of the four bits it shifts out."""
    table = []
    for value in range(16):
        for _ in range(4):
            value = _times_x(value)
        table.append(value)
    return table


_TIMES_X4 = _nibble_shifts()


def _times(multiples: list[int], a: int) -> int:
    """a(x) * b(x) modulo the polynomial, `multiples` being `_multiples(b)`: Horner's rule
    over a's nibbles, from its highest powers (its lowest bits)."""
    product = 0
    for shift in range(0, 32, 4):
        product = (product >> 4) ^ _TIMES_X4[product & 15] ^ multiples[(a >> shift) & 15]
    return product


def _powers() -> list[list[int]]:
    """`_multiples` of x^(2^k) modulo the polynomial, for k = 0..31 (repeats every 32)."""
    power = _X0 >> 1        # x^1
    tables = []
    for _ in range(32):
        tables.append(_multiples(power))
        power = _times(tables[-1], power)
    return tables


_X2N = _powers()


def crc32_combine(crc1: int, crc2: int, length2: int) -> int:
    """The CRC-32 of A + B from crc1 = crc32(A), crc2 = crc32(B) and len(B) (zlib's formula:
    crc1 times x^(8 * len(B)), what that many zero bytes do to a CRC register, plus crc2)."""
    if not length2:
        return crc1
    k = 3
    while length2:
        if length2 & 1:
            crc1 = _times(_X2N[k & 31], crc1)
        length2 >>= 1
        k += 1
    return crc1 ^ crc2


def source_crc(lumps: Sequence[Buffer], entities_index: int, *,
               order: Iterable[int] | None = None) -> int:
    """``CRC_MapFile``: CRC-32 of every lump but `entities_index`, as stored, in index order.

    `lumps[i]` is lump i's ``filelen`` bytes at ``fileofs`` (compressed lumps as
    stored). Source: 64 lumps, entities 0. GoldSrc: 15 lumps, entities 0, but 1
    on Blue Shift (gamedir ``bshift``). Returns the finalized CRC (the value
    Valve's code holds after ``CRC32_Final``; the raw register is ``~crc``).
    `order` gives a different lump-index order (e.g. by file offset, as a later
    engine branch's ``CRC_MapFile`` sorts them); by default 0, 1, 2, ...
    """
    crc = 0
    for index in (range(len(lumps)) if order is None else order):
        if index != entities_index:
            crc = zlib.crc32(lumps[index], crc)
    return crc


def quakeworld_checksums(block_checksums: Sequence[int], entities_index: int = QW_LUMP_ENTITIES,
                         skip_for_checksum2: Set[int] = QW_CHECKSUM2_SKIP) -> tuple[int, int]:
    """(map_checksum, map_checksum2) as mvdsv's ``CM_LoadMap`` computes them, from the
    `block_checksum` of each of the header's 15 lumps, in index order.

    Each lump but `entities_index` XORs its block checksum into map_checksum; those not in
    `skip_for_checksum2` also into map_checksum2. mvdsv always skips index 0
    (`QW_LUMP_ENTITIES`) and {4, 5, 10} (`QW_CHECKSUM2_SKIP`), even for Blue Shift maps.
    Empty lumps count (MD4 of no bytes); being an XOR, equal lumps cancel in pairs.
    """
    checksum = checksum2 = 0
    for index, value in enumerate(block_checksums):
        if index == entities_index:
            continue
        checksum ^= value
        if index not in skip_for_checksum2:
            checksum2 ^= value
    return checksum, checksum2


def signed32(x: int) -> int:
    """The two's-complement signed form of the low 32 bits of `x` (as engines print ``%i``)."""
    x &= _MASK
    return x - 0x100000000 if x & 0x80000000 else x
