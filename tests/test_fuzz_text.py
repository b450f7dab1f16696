"""Fuzzed entity text (parsed strictly and leniently, then edited) and Valve LZMA lumps whose
headers lie about their sizes, properties or dictionary."""
from __future__ import annotations

import struct

import pytest
from hypothesis import given, settings

import fuzzing
from bspedit.errors import BspError
from bspedit.format.lzma_lump import compress, decompress

pytestmark = pytest.mark.full      # fuzzing and conformance sets: `pytest --full` (CI)

FUZZ = fuzzing.FUZZ


@settings(FUZZ, max_examples=3000)
@given(fuzzing.entity_texts(), fuzzing.entity_edits())
def test_random_entity_text(data, edits):
    fuzzing.check_entity_text(data, edits)


@settings(FUZZ, max_examples=1500)
@given(fuzzing.lzma_cases())
def test_lzma_lumps_with_lying_sizes(case):
    fuzzing.check_lzma(case)


def test_the_entity_oracle_catches_a_wrong_edit(monkeypatch):
    data = b'{\n"classname" "worldspawn"\n"Key" "1"\n}\n\x00'
    edits = [("set", 0, "key", "2"), ("add-entity", [("classname", "light")])]
    assert fuzzing.check_entity_text(data, edits) == "parsed"
    monkeypatch.setattr(fuzzing, "_lump_edit", lambda lump, edit: next(iter(lump)).set("key", "3"))
    with pytest.raises(AssertionError):
        fuzzing.check_entity_text(data, edits)


@pytest.mark.parametrize("field, value", [(4, 2**32 - 1), (4, 1 << 30), (8, 2**32 - 1), (8, 0),
                                          (13, 0), (13, 2**32 - 1)])
def test_lzma_header_lies_are_refused_or_exact(field, value):
    """Each header field set to an extreme: BspError, or exactly the claimed bytes."""
    payload = b"entity text " * 100
    blob = bytearray(compress(payload))
    struct.pack_into("<I", blob, field, value)
    try:
        out = decompress(bytes(blob))
    except BspError:
        return
    assert out == payload
