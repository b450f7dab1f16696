"""Pak entry data: the zip compression methods the engine reads (stored and Valve's LZMA form,
APPNOTE 5.8.8) and, for reading, deflate; encoding and decoding of one entry's bytes."""
from __future__ import annotations

import struct
import zlib

from ..errors import BspError

STORED, DEFLATED, LZMA = 0, 8, 14
METHODS = {STORED: "store", DEFLATED: "deflate", LZMA: "lzma"}
EOS_FLAG = 0x2                                    # LZMA: the stream ends with an end marker
_LZMA_VERSION = bytes([9, 38])                     # the LZMA SDK Valve's tools bundle


def encode(data: bytes, compress: bool) -> tuple[int, bytes, int]:
    """(method, stored bytes, its general purpose flags): LZMA in Valve's zip form when asked
    and smaller (flagged `EOS_FLAG` when the stream ends with a marker), else stored."""
    if compress and data:
        from ..format.lzma_lump import encode_raw

        props, stream, marker = encode_raw(data)        # Valve's settings
        packed = _LZMA_VERSION + struct.pack("<H", len(props)) + props + stream
        if len(packed) < len(data):
            return LZMA, packed, EOS_FLAG if marker else 0
    return STORED, bytes(data), 0


def decode(method: int, stored: bytes, size: int) -> bytes:
    """An entry's content from its stored bytes; BspError (no location) when they are bad."""
    if method == STORED:
        if len(stored) != size:
            raise BspError(f"stored entry holds {len(stored)} bytes but claims {size}")
        return stored
    if method == DEFLATED:
        decoder = zlib.decompressobj(-zlib.MAX_WBITS)
        try:
            data = decoder.decompress(stored, size + 1)     # 0 would mean no limit
        except zlib.error as exc:
            raise BspError(f"corrupt deflate stream: {exc}") from exc
    elif method == LZMA:
        from ..format.lzma_lump import decode_raw

        if len(stored) < 9 or stored[2:4] != b"\x05\x00":
            raise BspError("LZMA entry lacks the 9-byte zip LZMA header")
        data = decode_raw(stored[4:9], memoryview(stored)[9:], size)   # size checked by read
    else:
        raise BspError(f"compression method {method} is not supported (the engine reads "
                       "stored and LZMA entries)")
    if len(data) != size:
        raise BspError(f"entry decompresses to {len(data)} bytes but claims {size}")
    return data
