"""An independent MD4 (RFC 1320) in pure Python: the oracle the tests check pycryptodome's
MD4 against (it was bspedit's own MD4 before the C one replaced it)."""
from __future__ import annotations

import struct
from typing import Union

Buffer = Union[bytes, bytearray, memoryview]

_MASK = 0xFFFFFFFF
_BLOCK = struct.Struct("<16I")
_WORDS = struct.Struct("<4I")
_LENGTH = struct.Struct("<Q")
_INIT = (0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476)


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
