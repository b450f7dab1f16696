"""Random Stripper:Source configs: parse_config never raises, apply refuses (BspError) or edits
the entity lump consistently (fuzzing.check_stripper)."""
from __future__ import annotations

import time

import pytest
from hypothesis import given, settings

import fuzzing
from bspedit import stripper
from bspedit.entities import EntityLump
from bspedit.errors import BspError

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


def test_catastrophic_regex_is_refused_quickly():
    lump = EntityLump.parse(b'{\n"classname" "worldspawn"\n"targetname" "' + b"a" * 25
                            + b'!"\n}\n\x00')
    config = stripper.parse_config(b'filter:\n{\n"targetname" "/(a+)+$/"\n}\n')
    assert [d.kind for d in config.diagnostics] == ["unsupported-regex"]
    start = time.monotonic()
    with fuzzing.time_limit(10), pytest.raises(BspError, match="line 3: .*backtrack"):
        stripper.apply(config, lump)
    assert time.monotonic() - start < 0.25 and len(lump) == 1
