"""Valve LZMA lumps: exact re-encoding with Valve's settings, and refusal of lying headers."""
from __future__ import annotations

import struct

import pytest

from bspedit.bsp import Bsp
from bspedit.errors import BspError
from bspedit.format.lzma_lump import compress, decompress, lzma_header, properties, properties_of
from bspedit.format.gamelumpdir import game_lump_directory
from conftest import CONSOLE_MAP, CORPUS

LZMA_MAP = CORPUS / "source" / "tf2classified_cp_stronghold_lzma.bsp"


@pytest.mark.skipif(not LZMA_MAP.exists(), reason="../shared/corpus not present")
def test_every_compressed_blob_of_the_corpus_map_re_encodes_byte_identically():
    with Bsp.open(LZMA_MAP) as bsp:
        blobs = [bsp.read_lump(l.index) for l in bsp.lumps if lzma_header(bsp.read_lump(l.index))]
        entries = game_lump_directory(bsp.read_lump(35)).entries
        for entry, following in zip(entries, entries[1:]):
            if entry.flags & 1:
                blob = bsp.read_range(entry.offset, following.offset)
                blobs.append(blob[:17 + lzma_header(blob).lzma_size])   # members are 4-aligned
    assert len(blobs) == 44
    assert sum(compress(decompress(blob)) == blob for blob in blobs) == 44


def test_round_trip_and_header_fields():
    data = b"entity text " * 500
    packed = compress(data)
    header = lzma_header(packed)
    assert (header.actual_size, len(packed)) == (len(data), 17 + header.lzma_size)
    assert header.properties == bytes([93]) + struct.pack("<I", 1 << 24)    # lc3 lp0 pb2, 16 MiB
    assert decompress(packed) == data


def test_compress_with_given_properties_keeps_them():
    """Console maps use a 256 KiB dictionary: a lump compressed again keeps it (and lc/lp/pb)."""
    data = bytes(range(256)) * 300
    assert properties(1 << 18) == bytes([93]) + struct.pack("<I", 1 << 18)
    for props in (properties(1 << 18), properties(300_000, lc=3, lp=1, pb=0),
                  properties(1 << 31), properties(0)):        # a header's lies are kept
        packed = compress(data, props)
        assert properties_of(packed) == packed[12:17] == props
        assert decompress(packed) == data
    assert compress(data, properties_of(compress(b"pc"))) == compress(data)
    assert properties_of(b"not LZMA") is None
    with pytest.raises(BspError, match="properties byte 240 names no lc/lp/pb"):
        compress(data, bytes([240]) + struct.pack("<I", 1 << 18))


@pytest.mark.skipif(not CONSOLE_MAP.exists(), reason="../shared/corpus-console not present")
def test_console_lumps_compressed_again_keep_their_settings():
    with Bsp.open(CONSOLE_MAP) as bsp:
        stored = [bsp.read_lump(l.index) for l in bsp.lumps if l.length]
    blobs = [blob for blob in stored if lzma_header(blob)]
    assert len(blobs) == 32
    for blob in blobs:
        content = decompress(blob)
        again = compress(content, properties_of(blob))
        assert again[12:17] == blob[12:17] == bytes([93]) + struct.pack("<I", 1 << 18)
        assert decompress(again) == content


def test_size_over_the_limit_is_refused_before_decoding():
    bomb = b"LZMA" + struct.pack("<II", 3 << 30, 10) + bytes([93]) + struct.pack("<I", 1 << 24) + bytes(10)
    with pytest.raises(BspError, match="claims 3221225472 bytes, over the"):
        decompress(bomb)


def test_lying_sizes_and_garbage_are_bsp_errors():
    packed = compress(b"x" * 1000)
    liar = packed[:4] + struct.pack("<I", 2000) + packed[8:]
    with pytest.raises(BspError, match="gives 1000 of the 2000 bytes"):
        decompress(liar)
    with pytest.raises(BspError):
        decompress(packed[:17] + bytes(40))
    with pytest.raises(BspError, match="not an LZMA lump"):
        decompress(b"VBSP")
