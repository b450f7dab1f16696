"""Valve's LZMA lumps: 'LZMA', actualSize, lzmaSize, 5 property bytes, raw LZMA1 stream.

Decoding uses the standard library; encoding uses pylzma 0.5.0 with Valve's settings, which
reproduces Valve's bytes exactly. Callers keep the stored bytes of lumps they did not change.
"""
from __future__ import annotations

import lzma
import struct
from io import BytesIO

from kaitaistruct import KaitaiStream

from ..errors import BspError
from .generated.lzma_header import LzmaHeader
from ..limits import LIMITS

HEADER_SIZE = 17
VALVE_SETTINGS = dict(dictionary=24, fastBytes=32, literalContextBits=3, literalPosBits=0,
                      posBits=2, algorithm=1, eos=0, multithreading=0)


def lzma_header(data: bytes) -> LzmaHeader | None:
    """Valve's LZMA header at the start of `data`, if it has one."""
    if data[:4] != b"LZMA" or len(data) < HEADER_SIZE:
        return None
    return LzmaHeader(KaitaiStream(BytesIO(bytes(data[:HEADER_SIZE]))))


def decompress(data: bytes, limit: int | None = None) -> bytes:
    """The uncompressed bytes of an LZMA lump; BspError on a lying or broken stream, or one
    claiming more than `limit` bytes (default: `LIMITS.lump_size`)."""
    limit = LIMITS.lump_size if limit is None else limit
    header = lzma_header(data)
    if header is None:
        raise BspError("not an LZMA lump (no 17-byte 'LZMA' header)", offset=0)
    if header.actual_size > limit:
        raise BspError(f"LZMA lump claims {header.actual_size} bytes, over the {limit}-byte limit "
                       "(--max-lump-size raises it)", offset=4)
    stream = data[HEADER_SIZE:HEADER_SIZE + header.lzma_size]
    try:
        return decode_raw(header.properties, stream, header.actual_size)
    except BspError as exc:
        exc.offset = HEADER_SIZE
        raise


def decode_raw(props: bytes, stream: bytes | memoryview, size: int) -> bytes:
    """Exactly `size` bytes decoded from a raw LZMA1 `stream` (no end marker needed) with the
    5 property bytes `props`; BspError (no offset) when the stream is broken or short. The
    caller checks `size` against its limit first."""
    lc, rest = props[0] % 9, props[0] // 9
    # liblzma allocates the dictionary up front; no stream looks back further than its output
    dictionary = min(int.from_bytes(props[1:5], "little"), max(size, 4096))
    lzma_filter = {"id": lzma.FILTER_LZMA1, "lc": lc, "lp": rest % 5, "pb": rest // 5,
                   "dict_size": dictionary}
    try:
        decoder = lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=[lzma_filter])
        out = decoder.decompress(stream, max_length=size)
    except (lzma.LZMAError, ValueError) as exc:
        raise BspError(f"corrupt LZMA stream: {exc}") from exc
    if len(out) != size:
        raise BspError(f"LZMA stream gives {len(out)} of the {size} bytes its header claims")
    return out


def properties(dictionary: int, lc: int = 3, lp: int = 0, pb: int = 2) -> bytes:
    """The 5 LZMA property bytes of a dictionary size and lc/lp/pb (Valve's: 3, 0, 2)."""
    return bytes([(pb * 5 + lp) * 9 + lc]) + dictionary.to_bytes(4, "little")


def properties_of(blob: bytes) -> bytes | None:
    """The 5 property bytes of an LZMA lump, None if `blob` is not one."""
    header = lzma_header(blob)
    return None if header is None else bytes(header.properties)


def compress(data: bytes, props: bytes | None = None) -> bytes:
    """An LZMA lump as Valve's tools write it: with Valve's PC settings, or with the 5 property
    bytes `props` (lc, lp, pb and the dictionary size; say `properties_of` the lump being
    replaced): the engine that read the old lump reads the new one with the same memory
    (console maps use a 256 KiB dictionary). The header carries `props` as given."""
    import pylzma

    settings = dict(VALVE_SETTINGS)
    if props is not None:
        lc_lp_pb, dictionary = props[0], int.from_bytes(props[1:5], "little")
        if lc_lp_pb >= 9 * 5 * 5:
            raise BspError(f"LZMA properties byte {lc_lp_pb} names no lc/lp/pb (over 224): "
                           "the lump cannot be compressed like it")
        settings.update(literalContextBits=lc_lp_pb % 9, literalPosBits=lc_lp_pb // 9 % 5,
                        posBits=lc_lp_pb // 45,
                        # pylzma takes a power of two up to 2^27; one no larger keeps
                        # `props` valid (a decoder's dictionary may exceed the encoder's)
                        dictionary=min(max(dictionary.bit_length() - 1, 12), 27))
    packed = pylzma.compress(bytes(data), **settings)
    if props is not None:
        packed = props + packed[5:]
    return b"LZMA" + struct.pack("<II", len(data), len(packed) - 5) + packed
