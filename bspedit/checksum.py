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

Python's hashlib has MD4 only when OpenSSL provides it; otherwise a pure-Python
MD4 is used (`MD4`), which gives identical results.
"""
from __future__ import annotations

import hashlib
import struct
import zlib
from collections.abc import Iterable, Sequence, Set
from typing import Any, Union

__all__ = [
    "Buffer", "HASHLIB_MD4", "MD4", "new_md4", "md4", "checksum_from_digest",
    "block_checksum", "source_crc", "quakeworld_checksums", "signed32",
    "QW_LUMP_ENTITIES", "QW_CHECKSUM2_SKIP",
]

#: Anything exposing the buffer protocol: bytes, bytearray, memoryview, mmap.
Buffer = Union[bytes, bytearray, memoryview]

#: mvdsv ``bspfile.h``: ``LUMP_ENTITIES`` is 0 for every Quake 1 / HL version.
QW_LUMP_ENTITIES = 0
#: Lumps ``map_checksum2`` leaves out: VISIBILITY (4), NODES (5), LEAFS (10).
QW_CHECKSUM2_SKIP: frozenset[int] = frozenset({4, 5, 10})

_MASK = 0xFFFFFFFF
_BLOCK = struct.Struct("<16I")
_WORDS = struct.Struct("<4I")
_LENGTH = struct.Struct("<Q")
_INIT = (0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476)


def _probe_hashlib_md4() -> bool:
    try:
        return hashlib.new("md4", b"abc").hexdigest() == "a448017aaf21d8525fc10ae87aa6729d"
    except (ValueError, TypeError):  # unsupported by this OpenSSL build
        return False


#: True when ``hashlib.new("md4")`` works (and gives the RFC 1320 answer).
HASHLIB_MD4: bool = _probe_hashlib_md4()


def _bytes_view(data: Buffer) -> memoryview:
    view = memoryview(data)
    return view if view.format in ("B", "b", "c") and view.ndim == 1 else view.cast("B")


def _compress(state: tuple[int, int, int, int], blocks: Buffer) -> tuple[int, int, int, int]:
    """MD4's compression function over `blocks` (a multiple of 64 bytes), from `state`.

    Speed: one struct unpack per block, unrolled steps, locals only. Registers may
    carry junk above bit 31 between steps (the rotate's left half is not masked);
    that is harmless because AND/OR/XOR/+ never move high bits down and every sum
    `t` is masked before it is shifted right, and the final sums are masked.
    """
    a0, b0, c0, d0 = state
    M = _MASK
    for (x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15) in _BLOCK.iter_unpack(blocks):
        a, b, c, d = a0, b0, c0, d0
        # F(x, y, z) = z ^ (x & (y ^ z)); G = majority; H = parity (RFC 1320 section 3.4)
        # round 1
        t = (a + (d ^ (b & (c ^ d))) + x0) & M
        a = t << 3 | t >> 29
        t = (d + (c ^ (a & (b ^ c))) + x1) & M
        d = t << 7 | t >> 25
        t = (c + (b ^ (d & (a ^ b))) + x2) & M
        c = t << 11 | t >> 21
        t = (b + (a ^ (c & (d ^ a))) + x3) & M
        b = t << 19 | t >> 13
        t = (a + (d ^ (b & (c ^ d))) + x4) & M
        a = t << 3 | t >> 29
        t = (d + (c ^ (a & (b ^ c))) + x5) & M
        d = t << 7 | t >> 25
        t = (c + (b ^ (d & (a ^ b))) + x6) & M
        c = t << 11 | t >> 21
        t = (b + (a ^ (c & (d ^ a))) + x7) & M
        b = t << 19 | t >> 13
        t = (a + (d ^ (b & (c ^ d))) + x8) & M
        a = t << 3 | t >> 29
        t = (d + (c ^ (a & (b ^ c))) + x9) & M
        d = t << 7 | t >> 25
        t = (c + (b ^ (d & (a ^ b))) + x10) & M
        c = t << 11 | t >> 21
        t = (b + (a ^ (c & (d ^ a))) + x11) & M
        b = t << 19 | t >> 13
        t = (a + (d ^ (b & (c ^ d))) + x12) & M
        a = t << 3 | t >> 29
        t = (d + (c ^ (a & (b ^ c))) + x13) & M
        d = t << 7 | t >> 25
        t = (c + (b ^ (d & (a ^ b))) + x14) & M
        c = t << 11 | t >> 21
        t = (b + (a ^ (c & (d ^ a))) + x15) & M
        b = t << 19 | t >> 13
        # round 2
        t = (a + ((b & c) | (d & (b | c))) + x0 + 0x5A827999) & M
        a = t << 3 | t >> 29
        t = (d + ((a & b) | (c & (a | b))) + x4 + 0x5A827999) & M
        d = t << 5 | t >> 27
        t = (c + ((d & a) | (b & (d | a))) + x8 + 0x5A827999) & M
        c = t << 9 | t >> 23
        t = (b + ((c & d) | (a & (c | d))) + x12 + 0x5A827999) & M
        b = t << 13 | t >> 19
        t = (a + ((b & c) | (d & (b | c))) + x1 + 0x5A827999) & M
        a = t << 3 | t >> 29
        t = (d + ((a & b) | (c & (a | b))) + x5 + 0x5A827999) & M
        d = t << 5 | t >> 27
        t = (c + ((d & a) | (b & (d | a))) + x9 + 0x5A827999) & M
        c = t << 9 | t >> 23
        t = (b + ((c & d) | (a & (c | d))) + x13 + 0x5A827999) & M
        b = t << 13 | t >> 19
        t = (a + ((b & c) | (d & (b | c))) + x2 + 0x5A827999) & M
        a = t << 3 | t >> 29
        t = (d + ((a & b) | (c & (a | b))) + x6 + 0x5A827999) & M
        d = t << 5 | t >> 27
        t = (c + ((d & a) | (b & (d | a))) + x10 + 0x5A827999) & M
        c = t << 9 | t >> 23
        t = (b + ((c & d) | (a & (c | d))) + x14 + 0x5A827999) & M
        b = t << 13 | t >> 19
        t = (a + ((b & c) | (d & (b | c))) + x3 + 0x5A827999) & M
        a = t << 3 | t >> 29
        t = (d + ((a & b) | (c & (a | b))) + x7 + 0x5A827999) & M
        d = t << 5 | t >> 27
        t = (c + ((d & a) | (b & (d | a))) + x11 + 0x5A827999) & M
        c = t << 9 | t >> 23
        t = (b + ((c & d) | (a & (c | d))) + x15 + 0x5A827999) & M
        b = t << 13 | t >> 19
        # round 3
        t = (a + (b ^ c ^ d) + x0 + 0x6ED9EBA1) & M
        a = t << 3 | t >> 29
        t = (d + (a ^ b ^ c) + x8 + 0x6ED9EBA1) & M
        d = t << 9 | t >> 23
        t = (c + (d ^ a ^ b) + x4 + 0x6ED9EBA1) & M
        c = t << 11 | t >> 21
        t = (b + (c ^ d ^ a) + x12 + 0x6ED9EBA1) & M
        b = t << 15 | t >> 17
        t = (a + (b ^ c ^ d) + x2 + 0x6ED9EBA1) & M
        a = t << 3 | t >> 29
        t = (d + (a ^ b ^ c) + x10 + 0x6ED9EBA1) & M
        d = t << 9 | t >> 23
        t = (c + (d ^ a ^ b) + x6 + 0x6ED9EBA1) & M
        c = t << 11 | t >> 21
        t = (b + (c ^ d ^ a) + x14 + 0x6ED9EBA1) & M
        b = t << 15 | t >> 17
        t = (a + (b ^ c ^ d) + x1 + 0x6ED9EBA1) & M
        a = t << 3 | t >> 29
        t = (d + (a ^ b ^ c) + x9 + 0x6ED9EBA1) & M
        d = t << 9 | t >> 23
        t = (c + (d ^ a ^ b) + x5 + 0x6ED9EBA1) & M
        c = t << 11 | t >> 21
        t = (b + (c ^ d ^ a) + x13 + 0x6ED9EBA1) & M
        b = t << 15 | t >> 17
        t = (a + (b ^ c ^ d) + x3 + 0x6ED9EBA1) & M
        a = t << 3 | t >> 29
        t = (d + (a ^ b ^ c) + x11 + 0x6ED9EBA1) & M
        d = t << 9 | t >> 23
        t = (c + (d ^ a ^ b) + x7 + 0x6ED9EBA1) & M
        c = t << 11 | t >> 21
        t = (b + (c ^ d ^ a) + x15 + 0x6ED9EBA1) & M
        b = t << 15 | t >> 17
        a0 = (a0 + a) & M
        b0 = (b0 + b) & M
        c0 = (c0 + c) & M
        d0 = (d0 + d) & M
    return a0, b0, c0, d0


class MD4:
    """Incremental pure-Python MD4 (RFC 1320) with the hashlib interface.

    Feed it chunks (e.g. slices of a memoryview over an mmap) with `update`.
    """

    name = "md4"
    digest_size = 16
    block_size = 64

    __slots__ = ("_state", "_pending", "_length")

    def __init__(self, data: Buffer = b"") -> None:
        self._state = _INIT
        self._pending = b""
        self._length = 0
        if len(data):
            self.update(data)

    def update(self, data: Buffer) -> None:
        """Hash more bytes."""
        view = _bytes_view(data)
        size = len(view)
        self._length += size
        start = 0
        if self._pending:
            start = 64 - len(self._pending)
            if size < start:
                self._pending += bytes(view)
                return
            self._state = _compress(self._state, self._pending + bytes(view[:start]))
            self._pending = b""
        end = start + ((size - start) & ~63)
        if end > start:
            self._state = _compress(self._state, view[start:end])
        if end < size:
            self._pending = bytes(view[end:])

    def copy(self) -> "MD4":
        """An independent copy of the current state."""
        other = MD4.__new__(MD4)
        other._state, other._pending, other._length = self._state, self._pending, self._length
        return other

    def digest(self) -> bytes:
        """The 16-byte digest of everything hashed so far (the object stays usable)."""
        pad = (55 - self._length) % 64
        tail = self._pending + b"\x80" + bytes(pad) + _LENGTH.pack((self._length << 3) & 0xFFFFFFFFFFFFFFFF)
        return _WORDS.pack(*_compress(self._state, tail))

    def hexdigest(self) -> str:
        """The digest as 32 lowercase hex digits."""
        return self.digest().hex()


def new_md4(data: Buffer = b"", *, pure: bool = False) -> Any:
    """A fresh incremental MD4 object: hashlib's when available (unless `pure`), else `MD4`."""
    if HASHLIB_MD4 and not pure:
        return hashlib.new("md4", data)
    return MD4(data)


def md4(data: Buffer, *, pure: bool = False) -> bytes:
    """MD4 (RFC 1320) digest of `data`; hashlib's when available unless `pure`."""
    if HASHLIB_MD4 and not pure:
        return hashlib.new("md4", data).digest()
    return MD4(data).digest()


def checksum_from_digest(digest: bytes) -> int:
    """Fold a 16-byte MD4 digest as ``Com_BlockChecksum`` does: XOR of its 4 little-endian u32 words."""
    a, b, c, d = _WORDS.unpack(digest)
    return a ^ b ^ c ^ d


def block_checksum(data: Buffer, *, pure: bool = False) -> int:
    """``Com_BlockChecksum(data, len)`` as an unsigned 32-bit int.

    Quake 2's and Quake 3's map checksum is this over the whole file
    (``CM_LoadMap``: ``LittleLong(Com_BlockChecksum(buf, length))``, a no-op on
    little-endian hosts); Quake 3 shows it signed as ``sv_mapChecksum``.
    ioquake3's samba-derived MD4 agrees with RFC 1320 for 1 byte .. 512 MiB of
    input; it differs for empty input (its padding block is run twice) and
    beyond 512 MiB (only the low 32 bits of the bit count are hashed).
    """
    return checksum_from_digest(md4(data, pure=pure))


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


def quakeworld_checksums(lumps: Sequence[Buffer], entities_index: int = QW_LUMP_ENTITIES,
                         skip_for_checksum2: Set[int] = QW_CHECKSUM2_SKIP, *,
                         pure: bool = False) -> tuple[int, int]:
    """(map_checksum, map_checksum2) as mvdsv's ``CM_LoadMap`` computes them.

    `lumps` are the header's 15 lumps in index order (Quake 1 BSP29, BSP2, 2PSB
    and Half-Life v30 alike). Each lump but `entities_index` XORs its
    `block_checksum` into map_checksum; those not in `skip_for_checksum2` also
    into map_checksum2. mvdsv always skips index 0 (`QW_LUMP_ENTITIES`) and
    {4, 5, 10} (`QW_CHECKSUM2_SKIP`), even for Blue Shift maps. Empty lumps
    count (MD4 of no bytes); being an XOR, equal lumps cancel in pairs and the
    result does not depend on which index holds which bytes.
    """
    checksum = checksum2 = 0
    for index, lump in enumerate(lumps):
        if index == entities_index:
            continue
        value = block_checksum(lump, pure=pure)
        checksum ^= value
        if index not in skip_for_checksum2:
            checksum2 ^= value
    return checksum, checksum2


def signed32(x: int) -> int:
    """The two's-complement signed form of the low 32 bits of `x` (as engines print ``%i``)."""
    x &= _MASK
    return x - 0x100000000 if x & 0x80000000 else x
