"""Valve's LZMA lumps: 'LZMA', actualSize, lzmaSize, 5 property bytes, raw LZMA1 stream.

Decoding uses the standard library. Encoding uses pylzma 0.5.0 with Valve's settings, which
reproduces Valve's bytes exactly, wherever it is installed (a Linux dependency, the
`valve-lzma` extra elsewhere: it has no wheels). Without it the standard library's liblzma
encodes with the same settings: its raw LZMA1 stream always ends with an end-of-stream marker,
which Valve's decoder (LzmaDec given the output size) reads, so the engine loads the lump, but
the bytes differ from Valve's; that use is announced once per process (`ValveLzmaWarning`,
`stdlib_note`). Callers keep the stored bytes of lumps they did not change. `lzma` loads when
a stream is decoded or encoded: a map is asked whether its lumps are compressed at every edit
(start-up time).
"""
from __future__ import annotations

import struct
import warnings
from io import BytesIO

from kaitaistruct import KaitaiStream

from ..errors import BspError
from .generated.lzma_header import LzmaHeader
from ..limits import LIMITS

HEADER_SIZE = 17
VALVE_SETTINGS = dict(dictionary=24, fastBytes=32, literalContextBits=3, literalPosBits=0,
                      posBits=2, algorithm=1, eos=0, multithreading=0)
STDLIB_NOTE = ("pylzma is not installed: LZMA data compressed again by Python's lzma decodes in "
               "the engine, but its bytes differ from Valve's encoder "
               '(pip install "bspedit[valve-lzma]")')
_DICT_MIN, _DICT_MAX = 1 << 12, 1 << 27     # decoders read a smaller dictionary as 4 KiB


class ValveLzmaWarning(UserWarning):
    """LZMA data was compressed by the standard library (pylzma is not installed): it decodes
    as Valve's does, with other bytes. Issued once per process."""


_stdlib = {"used": False, "told": False}     # this process: compressed without pylzma, said so


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
    import lzma

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


def valve_encoder() -> bool:
    """Whether pylzma (Valve's encoder, byte for byte) can be imported here."""
    try:
        import pylzma  # noqa: F401
    except ImportError:
        return False
    return True


def stdlib_note() -> str | None:
    """`STDLIB_NOTE` the first time it is asked for after the standard library compressed
    something in this process, else None (the CLI prints it as one warning)."""
    if not _stdlib["used"] or _stdlib["told"]:
        return None
    _stdlib["told"] = True
    return STDLIB_NOTE


def compress(data: bytes, props: bytes | None = None) -> bytes:
    """An LZMA lump as Valve's tools write it: with Valve's PC settings, or with the 5 property
    bytes `props` (lc, lp, pb and the dictionary size; say `properties_of` the lump being
    replaced): the engine that read the old lump reads the new one with the same memory
    (console maps use a 256 KiB dictionary). The header carries `props` as given, or the
    properties the stream was encoded with when the standard library could not use them."""
    used, stream, _ = encode_raw(data, props)
    return b"LZMA" + struct.pack("<II", len(data), len(stream)) + used + stream


def encode_raw(data: bytes, props: bytes | None = None) -> tuple[bytes, bytes, bool]:
    """(property bytes, raw LZMA1 stream, whether it ends with an end marker) of `data`, with
    Valve's settings or `props` as `compress` takes them: pylzma's stream (no marker) where it
    is installed, else the standard library's (with one)."""
    lc, lp, pb, dictionary = 3, 0, 2, 1 << 24
    if props is not None:
        if props[0] >= 9 * 5 * 5:
            raise BspError(f"LZMA properties byte {props[0]} names no lc/lp/pb (over 224): "
                           "the lump cannot be compressed like it")
        lc, lp, pb = props[0] % 9, props[0] // 9 % 5, props[0] // 45
        dictionary = int.from_bytes(props[1:5], "little")
    try:
        import pylzma
    except ImportError:
        return _stdlib_encode(bytes(data), props, lc, lp, pb, dictionary)
    settings = dict(VALVE_SETTINGS)
    if props is not None:
        # pylzma takes a power of two up to 2^27; one no larger keeps `props` valid (a
        # decoder's dictionary may exceed the encoder's)
        settings.update(literalContextBits=lc, literalPosBits=lp, posBits=pb,
                        dictionary=min(max(dictionary.bit_length() - 1, 12), 27))
    packed = pylzma.compress(bytes(data), **settings)
    return (packed[:5] if props is None else bytes(props[:5])), packed[5:], False


def _stdlib_encode(data: bytes, props: bytes | None, lc: int, lp: int, pb: int,
                   dictionary: int) -> tuple[bytes, bytes, bool]:
    """The standard library's encoding with pylzma's settings (normal mode, bt4, 32 fast
    bytes). The dictionary is no larger than the one named (decoders take one under 4 KiB as
    4 KiB) nor than the data needs (no match reaches back past its start), so `props` stays
    valid and is returned as given. liblzma takes lc + lp <= 4 only: other props are replaced
    by Valve's lc/lp/pb, and the property bytes returned are then the ones used."""
    import lzma

    if lc + lp > 4:
        lc, lp, pb, props = 3, 0, 2, None
    needed = 1 << max(len(data) - 1, 1).bit_length()
    stream = lzma.compress(data, format=lzma.FORMAT_RAW, filters=[{
        "id": lzma.FILTER_LZMA1, "dict_size": max(min(dictionary, _DICT_MAX, needed), _DICT_MIN),
        "lc": lc, "lp": lp, "pb": pb, "mode": lzma.MODE_NORMAL, "nice_len": 32,
        "mf": lzma.MF_BT4}])
    _announce()
    return (properties(dictionary, lc, lp, pb) if props is None else bytes(props[:5]), stream,
            True)


def _announce() -> None:
    """Record that the standard library compressed something; warn (once per process)."""
    if not _stdlib["used"]:
        _stdlib["used"] = True
        warnings.warn(STDLIB_NOTE, ValveLzmaWarning, stacklevel=4)
