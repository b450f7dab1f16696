"""Entity outputs (bspedit.lumps.connections): parsing, lossless edits, finding and following targets."""
from __future__ import annotations

import difflib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bspedit.bsp import Bsp
from bspedit.lumps.connections import ESC, format_output, names_match, split_output
from bspedit.lumps.entities import EntityLump
from bspedit.errors import BspError
from conftest import CORPUS_MAPS, corpus_maps

# The corpus maps with outputs, by separator (every other corpus map has none).
COMMA_MAPS = {"inscrutable_rocket_turret": 29, "portalmp_background01": 4, "valvebsp_testmap": 8}
ESC_MAPS = {"opendm_background01": 38, "ths_l4d2_as_devtest_map_01_v21": 161,
            "ths_l4d2_test_mechanic01_v21": 23}


def _lump(path) -> tuple[bytes, EntityLump]:
    with Bsp.open(path) as bsp:
        lump = bsp.entities()
    return lump.to_bytes(), lump


def _changed_lines(before: bytes, after: bytes) -> list[str]:
    diff = difflib.unified_diff(before.decode("latin-1").splitlines(True),
                                after.decode("latin-1").splitlines(True), n=0)
    return [line for line in diff if line[:1] in "+-" and line[:3] not in ("---", "+++")]


# -- the corpus --------------------------------------------------------------------------------

@pytest.mark.parametrize("path", corpus_maps())
def test_every_corpus_output_parses_and_reprints_byte_identical(path) -> None:
    data, lump = _lump(path)
    seen: dict[str, int] = {}
    for entity in lump:
        outputs = entity.outputs
        # every conventionally named output is recognised (and Quake 3's "gametype" lists are not)
        on_keys = [k for k, _ in entity.pairs() if k.lower().startswith(("on", "out"))]
        assert [o.name for o in outputs if o.name.lower().startswith(("on", "out"))] == on_keys
        for output in outputs:
            seen[output.separator] = seen.get(output.separator, 0) + 1
            fields = [output.target, output.input, output.parameter]
            assert output.value.split(output.separator)[:3] == fields
            assert float(output.value.split(output.separator)[3]) == output.delay
            assert int(output.value.split(output.separator)[4]) == output.times
            for name in ("target", "input", "parameter"):  # rewrite each field, then restore it
                text = getattr(output, name)
                setattr(output, name, text + "_edited")
                setattr(output, name, text)
            output.delay, output.times = output.delay, output.times  # equal numbers keep their text
    assert lump.to_bytes() == data
    assert lump.dirty == bool(seen)  # the fields were rewritten, the text came out the same
    expected = ({",": COMMA_MAPS[path.stem]} if path.stem in COMMA_MAPS else
                {ESC: ESC_MAPS[path.stem]} if path.stem in ESC_MAPS else {})
    assert seen == expected


EDITED = [pytest.param(path, id=path.stem) for path in CORPUS_MAPS
          if path.stem in COMMA_MAPS or path.stem in ESC_MAPS] or corpus_maps("none")


@pytest.mark.parametrize("path", EDITED)
def test_an_edited_corpus_output_keeps_its_separator_and_number_text(path) -> None:
    data, lump = _lump(path)
    separator = "," if path.stem in COMMA_MAPS else ESC
    entity = next(e for e in lump if e.outputs)
    output = entity.outputs[0]
    before = output.value
    target, _, parameter, delay_text, times_text = before.split(separator)
    output.input = "Toggle"
    output.delay = output.delay + 1.25
    after = output.value
    assert output.separator == separator
    assert after.split(separator) == [target, "Toggle", parameter,
                                      repr(float(delay_text) + 1.25).removesuffix(".0"), times_text]
    changed = _changed_lines(data, lump.to_bytes())
    assert [line.strip() for line in changed] == [f'-"{output.name}" "{before}"', f'+"{output.name}" "{after}"']
    reread = EntityLump.parse(lump.to_bytes())
    assert [o.value for e in reread for o in e.outputs] == [o.value for e in lump for o in e.outputs]


# -- recognising and writing outputs ------------------------------------------------------------

@pytest.mark.parametrize(("value", "expected"), [
    ("door,Open,,0,-1", (",", ["door", "Open", "", "0", "-1"])),
    ("t\x1bAddOutput\x1bsolid 2,x\x1b0.00\x1b1", (ESC, ["t", "AddOutput", "solid 2,x", "0.00", "1"])),
    ("a,b,c,.5,+3", (",", ["a", "b", "c", ".5", "+3"])),
    ("a,b,c,1e-3,0", (",", ["a", "b", "c", "1e-3", "0"])),
    ("ffa,tournament,team,ctf,oneflag", None),  # Quake 3's gametype list
    ("door,Open,0,-1", None),                    # four fields
    ("door,Open,,x,-1", None),
    ("door,Open,,0,1.5", None),
    ("door,Open,,0, -1", None),
    ("t\x1bOpen\x1b\x1b0", None),
    ("", None),
])
def test_split_output_recognises_five_fields_with_numbers(value: str, expected) -> None:
    assert split_output(value) == expected


SAMPLE = (b'{\n"classname" "worldspawn"\n}\n'
          b'{\n"targetname" "relay"\n"OnTrigger" "door,Open,,0.00,-1"\n"gametype" "ffa,a,b,c,d"\n'
          b'"OnTrigger" "lamp,TurnOn,,2.50,1"\n"classname" "logic_relay"\n}\n'
          b'{\n"classname" "func_door"\n"targetname" "door"\n}\n\x00')


def _relay(data: bytes = SAMPLE) -> tuple[EntityLump, object]:
    lump = EntityLump.parse(data)
    return lump, lump.by_targetname("relay")[0]


def test_outputs_read_as_fields_and_numbers() -> None:
    _, relay = _relay()
    assert len(relay.outputs) == 2 and [o.target for o in relay.outputs[::-1]] == ["lamp", "door"]
    first = relay.outputs[0]
    assert (first.name, first.target, first.input, first.parameter, first.delay, first.times,
            first.separator) == ("OnTrigger", "door", "Open", "", 0.0, -1, ",")
    assert repr(relay.outputs[1]) == ("Output('OnTrigger', target='lamp', input='TurnOn', "
                                      "parameter='', delay=2.5, times=1)")


def test_editing_a_field_rewrites_only_that_field() -> None:
    lump, relay = _relay()
    first = relay.outputs[0]
    first.delay = 0       # the same number: "0.00" is kept, nothing is edited
    first.times = -1
    first.target = "door"
    assert not lump.dirty and lump.to_bytes() is SAMPLE
    first.parameter = "fast"
    first.times = 2
    relay.outputs[1].delay = 3
    relay.outputs[1].name = "OnUser1"
    assert _changed_lines(SAMPLE, lump.to_bytes()) == [
        '-"OnTrigger" "door,Open,,0.00,-1"\n', '+"OnTrigger" "door,Open,fast,0.00,2"\n',
        '-"OnTrigger" "lamp,TurnOn,,2.50,1"\n', '+"OnUser1" "lamp,TurnOn,,3,1"\n']


@pytest.mark.parametrize(("delay", "text"), [(0.25, "0.25"), (3.0, "3"), (1e-7, "1e-07"), (-1, "-1")])
def test_a_new_delay_is_written_as_its_shortest_text(delay: float, text: str) -> None:
    _, relay = _relay()
    relay.outputs[0].delay = delay
    assert relay.outputs[0].value == f"door,Open,,{text},-1" and relay.outputs[0].delay == delay


def test_an_esc_output_keeps_esc_and_may_hold_commas() -> None:
    data = b'{\n"FinaleEscapeStarted" "relay\x1bTrigger\x1b\x1b0\x1b-1"\n}\n\x00'
    lump = EntityLump.parse(data)
    (output,) = next(iter(lump)).outputs
    output.parameter = "a,b"
    assert lump.to_bytes() == b'{\n"FinaleEscapeStarted" "relay\x1bTrigger\x1ba,b\x1b0\x1b-1"\n}\n\x00'


@pytest.mark.parametrize(("field", "value", "message"), [
    ("parameter", "a,b", "cannot hold ','"),
    ("target", "x\x1by", "cannot hold '\\\\x1b'"),
    ("input", 'say "hi"', "cannot contain"),
    ("delay", float("inf"), "finite number"),
    ("times", 1.5, "integer"),
])
def test_bad_field_values_are_refused_and_change_nothing(field: str, value, message: str) -> None:
    lump, relay = _relay()
    with pytest.raises((BspError, TypeError), match=message):
        setattr(relay.outputs[0], field, value)
    assert not lump.dirty and lump.to_bytes() is SAMPLE


def test_an_output_stays_bound_to_its_keyvalue() -> None:
    lump, relay = _relay()
    first, second = relay.outputs
    relay.set("targetname", "relay2")
    relay.outputs[0].target = "gate"  # another Output object for the same keyvalue
    assert first.target == "gate"     # reads the keyvalue afresh
    relay.set("OnTrigger", "plain text")
    with pytest.raises(BspError, match="not an output value"):
        first.target
    assert relay.outputs[-1] == second and relay.outputs.index(second) == 0 and first not in relay.outputs
    assert len({second, *relay.outputs}) == 1 and second != first
    relay.outputs.remove(second)
    with pytest.raises(BspError, match="removed from its entity"):
        second.delay = 1
    assert list(relay.outputs) == []


def test_adding_and_removing_outputs() -> None:
    lump, relay = _relay()
    added = relay.outputs.add("OnUser1", "door", "Close", delay=1.5)
    assert added.value == "door,Close,,1.5,-1" and added.separator == ","
    del relay.outputs[0]
    assert _changed_lines(SAMPLE, lump.to_bytes()) == [
        '-"OnTrigger" "door,Open,,0.00,-1"\n', '+"OnUser1" "door,Close,,1.5,-1"\n']
    other = lump.by_targetname("door")[0]
    with pytest.raises(BspError, match="not one of this entity's"):
        other.outputs.remove(added)
    new = other.outputs.add("OnOpen", "relay", "Trigger", separator=ESC)
    assert lump.to_bytes().endswith(b'"targetname" "door"\n"OnOpen" "relay\x1bTrigger\x1b\x1b0\x1b-1"\n}\n\x00')
    assert new.separator == ESC and other.outputs[0].value == new.value


def test_a_new_output_takes_the_separator_of_the_entity_then_of_the_lump() -> None:
    data = (b'{\r\n\t"classname"\t"worldspawn"\r\n}\r\n{\r\n\t"OnPressed"\t"a\x1bUse\x1b\x1b0\x1b-1"\r\n}\r\n'
            b'{\r\n\t"classname"\t"func_button"\r\n}\r\n\x00')
    lump = EntityLump.parse(data)
    world, button = lump.find(classname="worldspawn")[0], lump.find(classname="func_button")[0]
    assert button.outputs.add("OnPressed", "b", "Use").separator == ESC
    assert b'\t"classname"\t"func_button"\r\n\t"OnPressed"\t"b\x1bUse\x1b\x1b0\x1b-1"\r\n}' in lump.to_bytes()
    assert EntityLump.parse(b'{\n"classname" "worldspawn"\n}\n\x00').worldspawn.outputs.add(
        "OnMapSpawn", "x", "Kill").separator == ","
    with pytest.raises(BspError, match="separator"):
        world.outputs.add("OnMapSpawn", "x", "Kill", separator=";")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(st.characters(exclude_characters=',\x1b"\x00'), max_size=8), min_size=3, max_size=3),
       st.floats(allow_nan=False, allow_infinity=False), st.integers(-10, 10**9), st.sampled_from([",", ESC]))
def test_formatted_outputs_parse_back(texts: list[str], delay: float, times: int, separator: str) -> None:
    value = format_output(*texts, delay, times, separator)
    parsed = split_output(value)
    assert parsed is not None and parsed[0] == separator and parsed[1][:3] == texts
    assert float(parsed[1][3]) == delay and int(parsed[1][4]) == times


# -- names and targets -------------------------------------------------------------------------

@pytest.mark.parametrize(("query", "name", "expected"), [
    ("door", "DOOR", True), ("door*", "door_12", True), ("door*", "door", True), ("*", "x", True),
    ("door", "door2", False), ("do*r", "door", False), ("", "", False), ("*", "", False),
    ("!self", "!self", False), ("caf\xe9", "CAF\xe9", True), ("caf\xe9", "caf\xc9", False),
])
def test_names_match_like_source(query: str, name: str, expected: bool) -> None:
    assert names_match(query, name) is expected


TARGETS = (b'{\n"classname" "worldspawn"\n}\n'
           b'{\n"classname" "trigger_once"\n"target" "Gate"\n"killtarget" "lamp"\n}\n'
           b'{\n"classname" "logic_relay"\n"targetname" "relay"\n"OnTrigger" "gate*,Open,,0,-1"\n'
           b'"OnTrigger" "!self,Disable,,0,-1"\n"OnUser1" "func_button,Lock,,0,-1"\n'
           b'"OnUser2" "lamp,TurnOff,,1,-1"\n}\n'
           b'{\n"classname" "func_door"\n"targetname" "gate"\n}\n'
           b'{\n"classname" "func_door"\n"targetname" "gate2"\n"OnOpen" "relay,Trigger,,0,1"\n}\n'
           b'{\n"classname" "func_button"\n}\n'
           b'{\n"classname" "light"\n"targetname" "lamp"\n}\n\x00')


def test_targets_and_who_fires_an_entity() -> None:
    lump = EntityLump.parse(TARGETS)
    trigger, relay, gate, gate2, button, lamp = list(lump)[1:]
    assert trigger.targets() == ["Gate", "lamp"]
    assert relay.targets() == ["gate*", "!self", "func_button", "lamp"]
    assert lump.by_targetname("GATE") == [gate] and lump.by_targetname("gate*") == [gate, gate2]
    assert lump.targeting(gate) == [trigger, relay]      # target key, wildcard output
    assert lump.targeting(gate2) == [relay]
    assert lump.targeting(relay) == [relay, gate2]       # !self, by name
    assert lump.targeting(button) == [relay]             # by classname: no entity is named so
    assert lump.targeting(lamp) == [trigger, relay]      # killtarget key, output
    assert lump.targeting("FUNC_BUTTON") == [relay] and lump.targeting("nobody") == []
    assert lump.targeting(lump.worldspawn) == []


def test_rename_target_renames_the_name_and_what_aims_at_it() -> None:
    lump = EntityLump.parse(TARGETS)
    assert lump.rename_target("GATE", "portcullis") == 2  # the targetname and the target key
    assert lump.rename_target("lamp", "lantern") == 3
    assert lump.rename_target("nobody", "x") == 0
    assert _changed_lines(TARGETS, lump.to_bytes()) == [
        '-"target" "Gate"\n', '-"killtarget" "lamp"\n',
        '+"target" "portcullis"\n', '+"killtarget" "lantern"\n',
        '-"OnUser2" "lamp,TurnOff,,1,-1"\n', '+"OnUser2" "lantern,TurnOff,,1,-1"\n',
        '-"targetname" "gate"\n', '+"targetname" "portcullis"\n',
        '-"targetname" "lamp"\n', '+"targetname" "lantern"\n']
    assert lump.by_targetname("gate*")[0].get("targetname") == "gate2"  # "gate*" was left alone


def test_rename_target_changes_nothing_when_an_output_cannot_take_the_name() -> None:
    lump = EntityLump.parse(TARGETS)
    with pytest.raises(BspError, match="cannot hold ','"):
        lump.rename_target("lamp", "lamp,2")
    assert not lump.dirty
