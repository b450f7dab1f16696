"""Entity as a mapping: lookups, iteration in file order, repeated keys, edits that stay lossless."""
from __future__ import annotations

import difflib
from collections.abc import MutableMapping

import pytest

from bspedit.lumps.entities import Entity, EntityLump
from bspedit.errors import BspError

DATA = (b'{\n"classname" "worldspawn"\n}\n'
        b'{\n"Target" "a"\n"origin" "0 0 0"\n"target" "b"\n"msg" "caf\xc3\xa9\xff"\n'
        b'"OnTrigger" "x,Kill,,0,-1"\n"ONTRIGGER" "y,Kill,,0,-1"\n"classname" "trigger_once"\n}\n\x00')


def _entity(data: bytes = DATA) -> tuple[EntityLump, Entity]:
    lump = EntityLump.parse(data)
    return lump, list(lump)[1]


def _changed_lines(before: bytes, after: bytes) -> list[str]:
    diff = difflib.unified_diff(before.decode("latin-1").splitlines(True),
                                after.decode("latin-1").splitlines(True), n=0)
    return [line for line in diff if line[:1] in "+-" and line[:3] not in ("---", "+++")]


def test_lookups_take_the_first_pair_ignoring_ascii_case() -> None:
    _, entity = _entity()
    assert isinstance(entity, MutableMapping)
    assert entity["TARGET"] == "a" and entity["onTrigger"] == "x,Kill,,0,-1"
    assert entity["msg"] == "caf\u00e9\udcff"
    assert entity.get("missing") is None and entity.get("missing", "-") == "-" and entity.get("target") == "a"
    assert entity.get_all("target") == ["a", "b"] and entity.get_all("missing") == []
    with pytest.raises(KeyError, match="missing"):
        entity["missing"]
    assert "ORIGIN" in entity and "missing" not in entity
    assert 1 not in entity and 'quo"te' not in entity and "nul\0" not in entity  # no error


def test_iteration_gives_each_key_once_in_file_order() -> None:
    _, entity = _entity()
    assert list(entity) == ["Target", "origin", "msg", "OnTrigger", "classname"]
    assert len(entity) == 5 and len(entity.pairs()) == 7
    assert list(entity.values()) == ["a", "0 0 0", "caf\u00e9\udcff", "x,Kill,,0,-1", "trigger_once"]
    assert dict(entity.items()) == dict(zip(entity.keys(), entity.values()))
    assert "CLASSNAME" in entity.keys()


def test_setting_an_existing_key_changes_its_first_pair_only() -> None:
    lump, entity = _entity()
    entity["TARGET"] = "a"  # the same value: nothing is edited
    assert not lump.dirty and lump.to_bytes() is DATA
    entity["target"] = "c"
    entity["spawnflags"] = "1"
    assert entity.get_all("target") == ["c", "b"]
    assert _changed_lines(DATA, lump.to_bytes()) == [
        '-"Target" "a"\n', '+"Target" "c"\n', '+"spawnflags" "1"\n']


def test_deleting_a_key_deletes_every_pair_with_it() -> None:
    lump, entity = _entity()
    del entity["ontrigger"]
    with pytest.raises(KeyError, match="ontrigger"):
        del entity["ontrigger"]
    assert entity.pop("target") == "a" and "target" not in entity
    assert entity.pop("target", "gone") == "gone"
    assert _changed_lines(DATA, lump.to_bytes()) == [
        '-"Target" "a"\n', '-"target" "b"\n',
        '-"OnTrigger" "x,Kill,,0,-1"\n', '-"ONTRIGGER" "y,Kill,,0,-1"\n']


def test_mapping_helpers_edit_losslessly() -> None:
    lump, entity = _entity()
    assert entity.setdefault("origin", "1 1 1") == "0 0 0"
    assert entity.setdefault("angles", "0 90 0") == "0 90 0"
    entity.update({"msg": "hello"}, classname="trigger_multiple")
    assert _changed_lines(DATA, lump.to_bytes()) == [
        '-"msg" "caf\xc3\xa9\xff"\n', '+"msg" "hello"\n',
        '-"classname" "trigger_once"\n', '+"classname" "trigger_multiple"\n', '+"angles" "0 90 0"\n']
    entity.clear()
    assert len(entity) == 0 and not entity and entity.pairs() == []
    assert lump.to_bytes().endswith(b'}\n{\n}\n\x00')


def test_values_that_a_quoted_string_cannot_hold_are_refused() -> None:
    lump, entity = _entity()
    with pytest.raises(BspError, match="cannot contain"):
        entity["message"] = 'say "hi"'
    with pytest.raises(BspError, match="cannot contain"):
        entity['bad"key'] = "x"
    assert not lump.dirty


def test_entities_compare_by_identity() -> None:
    data = b'{\n"classname" "worldspawn"\n}\n{\n"a" "1"\n}\n{\n"a" "1"\n}\n\x00'
    lump = EntityLump.parse(data)
    _, first, second = lump
    assert first == first and first != second and dict(first) == dict(second)
    assert len({first, second}) == 2
    lump.remove(second)  # the very entity, not the first equal one
    assert lump.to_bytes() == b'{\n"classname" "worldspawn"\n}\n{\n"a" "1"\n}\n\x00'
    assert list(lump)[1] is first


def test_worldspawn_raises_when_absent_and_find_takes_keywords() -> None:
    lump = EntityLump.parse(DATA)
    assert lump.worldspawn is list(lump)[0] and lump.census().worldspawn
    assert lump.find(classname="trigger_*", match="glob") == [list(lump)[1]]
    assert lump.find([("ONTRIGGER", r"^y,")], match="regex") == [list(lump)[1]]
    no_world = EntityLump.parse(b'{\n"classname" "light"\n}\n\x00')
    assert not no_world.census().worldspawn
    with pytest.raises(BspError, match="no worldspawn entity"):
        no_world.worldspawn
