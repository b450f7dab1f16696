"""Random Stripper:Source configs: parse_config never raises, apply edits the entity lump
consistently (fuzzing.check_stripper)."""
from __future__ import annotations

import time

import pytest
from hypothesis import given, settings

import fuzzing
from bspedit.patching import stripper
from bspedit.lumps.entities import EntityLump

pytestmark = pytest.mark.full      # fuzzing and conformance sets: `pytest --full` (CI)

FUZZ = fuzzing.FUZZ


@settings(FUZZ, max_examples=1500)
@given(fuzzing.stripper_configs())
def test_random_stripper_configs(config):
    fuzzing.check_stripper(config)


def test_stripper_oracle_sees_an_edit():
    config = b'filter:\n{\n"classname" "light"\n}\n'
    assert fuzzing.check_stripper(config) == "applied"
    lump = EntityLump.parse(fuzzing.STRIPPER_LUMP)
    stripper.apply(stripper.parse_config(config), lump)
    assert "light" not in [e.get("classname") for e in lump]


def test_catastrophic_regex_stops_at_the_match_limit():
    """PCRE2 runs the plugin's patterns, catastrophic ones included: `(a+)+$` on 25 a's and a
    `!` stops at PCRE2's match limit, as in the plugin, and counts as no match (nothing is
    removed), quickly."""
    lump = EntityLump.parse(b'{\n"classname" "worldspawn"\n"targetname" "' + b"a" * 25
                            + b'!"\n}\n\x00')
    config = stripper.parse_config(b'filter:\n{\n"targetname" "/(a+)+$/"\n}\n')
    assert not config.diagnostics
    start = time.monotonic()
    with fuzzing.time_limit(10):
        stripper.apply(config, lump)
    assert time.monotonic() - start < 2 and len(lump) == 1
