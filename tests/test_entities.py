"""The entity lump model: lossless round trips, minimal-diff edits, errors, matching."""
from __future__ import annotations

import difflib
import functools
import importlib.util
import lzma
import struct
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bspedit.lumps.entities import EntityLump
from bspedit.errors import BspError

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CORPUS = sorted((SHARED / "corpus").glob("*/*.bsp"))


@functools.cache
def _bspref():
    spec = importlib.util.spec_from_file_location("bspref", SHARED / "tools" / "bspref.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _corpus_entity_text(path: Path) -> bytes:
    """The entity lump of a corpus map, LZMA undone (Valve's 17-byte header + raw LZMA1)."""
    blob = _bspref().entity_text(path.read_bytes())
    if blob[:4] != b"LZMA":
        return blob
    _, size, packed, props = struct.unpack_from("<4sII5s", blob)
    lc, lp, pb = props[0] % 9, props[0] // 9 % 5, props[0] // 45
    lzma1 = {"id": lzma.FILTER_LZMA1, "lc": lc, "lp": lp, "pb": pb,
             "dict_size": int.from_bytes(props[1:], "little")}
    text = lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=[lzma1]).decompress(blob[17:17 + packed], size)
    assert len(text) == size
    return text


def _changed_lines(before: bytes, after: bytes) -> list[str]:
    """The removed (-) and added (+) lines of a line diff."""
    diff = difflib.unified_diff(before.decode("latin-1").splitlines(True),
                                after.decode("latin-1").splitlines(True), n=0)
    return [line for line in diff if line[:1] in "+-" and line[:3] not in ("---", "+++")]


SOURCE = (b'{\n"world_maxs" "512 512 512"\n"skyname" "sky_day01_01"\n"classname" "worldspawn"\n}\n'
          b'{\n"targetname" "relay"\n"OnTrigger" "door,Open,,0,-1"\n"OnTrigger" "door,Close,,5.50,-1"\n'
          b'"classname" "logic_relay"\n}\n\x00')


# -- the corpus ---------------------------------------------------------------------------------

corpus = pytest.mark.skipif(not CORPUS, reason=f"no map corpus in {SHARED}")


@corpus
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_corpus_round_trip_is_byte_identical(path: Path) -> None:
    data = _corpus_entity_text(path)
    lump = EntityLump.parse(data)
    assert lump.to_bytes() is data and not lump.dirty
    for entity in lump:  # reprinting every entity from its pairs gives the same bytes too
        entity.add("x", "y")
        entity.delete("x")
    assert lump.dirty and lump.to_bytes() == data


@corpus
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_corpus_edit_changes_only_the_edited_lines(path: Path) -> None:
    data = _corpus_entity_text(path)
    lump = EntityLump.parse(data)
    lump.worldspawn.set("classname", "worldspawn_edited")
    lump.add_entity([("classname", "info_target"), ("targetname", "added")])
    after = lump.to_bytes()
    assert _changed_lines(data, after) == [
        '-"classname" "worldspawn"\n', '+"classname" "worldspawn_edited"\n',
        "+{\n", '+"classname" "info_target"\n', '+"targetname" "added"\n', "+}\n"]
    assert EntityLump.parse(after).find(targetname="added")[0].pairs() == [
        ("classname", "info_target"), ("targetname", "added")]


# -- losslessness ------------------------------------------------------------------------------

@pytest.mark.parametrize("data", [
    b"", b"\x00", b"\n\n", b"{}", b"{}\x00\x00\x00junk{after}\xff",
    b'{\r\n\t"classname" "worldspawn"\r\n\t"message" ""\r\n}\r\n\x00',
    b'// header comment\n{ "a" "b" // trailing comment\n"c"\t"d" }// x\n{}\n\x00',
    b'{"a""b""c""d"}{"e""f"}',
    b'{\n"message" "caf\xc3\xa9 \xff\xfe broken"\n"OnTrigger" "t\x1bTrigger\x1b\x1b0\x1b-1"\n}\n\x00',
])
def test_round_trip_keeps_every_byte(data: bytes) -> None:
    lump = EntityLump.parse(data)
    assert lump.to_bytes() is data
    for entity in lump:
        entity.add("x", "y")
        entity.delete("x")
    assert lump.to_bytes() == data


def test_values_keep_duplicates_case_empty_and_raw_bytes() -> None:
    data = (b'{\n"Target" "a"\n"target" "b"\n"note" ""\n"msg" "caf\xc3\xa9\xff"\n'
            b'"OnTrigger" "t\x1bTrigger\x1b\x1b0\x1b-1"\n"OnTrigger" "u,Kill,,1,-1"\n}\n\x00')
    entity = next(iter(EntityLump.parse(data)))
    assert entity.pairs()[:3] == [("Target", "a"), ("target", "b"), ("note", "")]
    assert entity.get("TARGET") == "a" and entity.get_all("target") == ["a", "b"]
    assert entity.get("note") == "" and entity.get("missing", "-") == "-"
    assert entity.get("msg") == "caf\u00e9\udcff"
    assert entity.get_all("ontrigger") == ["t\x1bTrigger\x1b\x1b0\x1b-1", "u,Kill,,1,-1"]


def test_quoted_strings_may_span_lines() -> None:
    lump = EntityLump.parse(b'{\n"message" "line one\nline two"\n}\n\x00')
    assert next(iter(lump)).get("message") == "line one\nline two"


def test_invalid_utf8_survives_being_copied_through_the_api() -> None:
    lump = EntityLump.parse(b'{\n"msg" "\xff\xfe\xc3"\n}\n{\n"msg" "x"\n}\n\x00')
    first, second = lump
    second.set("msg", first.get("msg"))
    assert lump.to_bytes() == b'{\n"msg" "\xff\xfe\xc3"\n}\n{\n"msg" "\xff\xfe\xc3"\n}\n\x00'


# -- editing -----------------------------------------------------------------------------------

def test_unchanged_lump_is_not_reserialised() -> None:
    lump = EntityLump.parse(SOURCE)
    worldspawn = lump.worldspawn
    worldspawn.set("skyname", "sky_day01_01")  # same value: no change
    assert worldspawn.rename("skyname", "skyname") == 0 and worldspawn.delete("nothing") == 0
    assert not lump.dirty and lump.to_bytes() is SOURCE
    worldspawn.set("skyname", "sky_night")
    assert worldspawn.dirty and lump.dirty


def _retarget_first_output(lump: EntityLump) -> None:
    lump.find(classname="logic_relay")[0].outputs[0].target = "gate"


EDITS = [lambda lump: lump.worldspawn.set("skyname", "sky_night"), _retarget_first_output,
         lambda lump: lump.rename_target("relay", "relay2"),
         lambda lump: lump.add_entity({"classname": "info_target"}),
         lambda lump: lump.remove(lump.find(classname="info_target")[0])]


def test_bytes_are_made_once_per_edit_and_follow_every_edit() -> None:
    """A save asks for the bytes once per lump of the map: made once, until the next edit of
    any kind (a pair, an output, a rename, an entity added or removed) makes them again."""
    asked, unasked = EntityLump.parse(SOURCE), EntityLump.parse(SOURCE)
    seen = [asked.to_bytes()]
    for edit in EDITS:
        edit(asked)
        edit(unasked)
        made = asked.to_bytes()
        assert made is asked.to_bytes() and made != seen[-1]
        seen.append(made)
    assert seen[-1] == unasked.to_bytes() and b'"gate,Open' in seen[-1] and b'"relay2"' in seen[-1]


def test_edit_worldspawn_and_add_entity_shows_only_those_lines() -> None:
    lump = EntityLump.parse(SOURCE)
    lump.worldspawn.set("skyname", "sky_night")
    added = lump.add_entity({"classname": "info_target", "targetname": "t1"})
    after = lump.to_bytes()
    assert _changed_lines(SOURCE, after) == [
        '-"skyname" "sky_day01_01"\n', '+"skyname" "sky_night"\n',
        "+{\n", '+"classname" "info_target"\n', '+"targetname" "t1"\n', "+}\n"]
    assert after.endswith(b'}\n{\n"classname" "info_target"\n"targetname" "t1"\n}\n\x00')
    assert added.dirty and added.pairs() == [("classname", "info_target"), ("targetname", "t1")]


def test_set_add_rename_delete_touch_only_their_lines() -> None:
    lump = EntityLump.parse(SOURCE)
    relay = lump.find(classname="logic_relay")[0]
    relay.add("OnTrigger", "door,Lock,,9,-1")
    assert relay.rename("ONTRIGGER", "OnUser1") == 3
    assert relay.delete("targetname") == 1
    relay.set("spawnflags", "1")
    assert _changed_lines(SOURCE, lump.to_bytes()) == [
        '-"targetname" "relay"\n',
        '-"OnTrigger" "door,Open,,0,-1"\n', '-"OnTrigger" "door,Close,,5.50,-1"\n',
        '+"OnUser1" "door,Open,,0,-1"\n', '+"OnUser1" "door,Close,,5.50,-1"\n',
        '+"OnUser1" "door,Lock,,9,-1"\n', '+"spawnflags" "1"\n']


def test_set_changes_the_first_occurrence_and_keeps_its_key_case() -> None:
    lump = EntityLump.parse(b'{ "Target" "a" "target" "b" }')
    entity = next(iter(lump))
    entity.set("TARGET", "c")
    assert lump.to_bytes() == b'{ "Target" "c" "target" "b" }'


def test_edits_follow_the_entitys_own_layout() -> None:
    data = b'{\r\n\t"classname"\t"worldspawn"\r\n}\r\n{\r\n\t"classname"\t"light"\r\n}\r\n\x00'
    lump = EntityLump.parse(data)
    lump.worldspawn.add("skyname", "sky")
    lump.add_entity([("classname", "info_null")])
    assert lump.to_bytes() == (b'{\r\n\t"classname"\t"worldspawn"\r\n\t"skyname"\t"sky"\r\n}\r\n'
                               b'{\r\n\t"classname"\t"light"\r\n}\r\n'
                               b'{\r\n\t"classname"\t"info_null"\r\n}\r\n\x00')


def test_one_line_layout_and_empty_lumps() -> None:
    lump = EntityLump.parse(b'{ "classname" "worldspawn" } { "a" "b" }\x00')
    next(iter(lump)).add("k", "v")
    lump.add_entity([("c", "d")])
    assert lump.to_bytes() == b'{ "classname" "worldspawn" "k" "v" } { "a" "b" } { "c" "d" }\x00'
    empty = EntityLump.parse(b"\x00")
    empty.add_entity([("classname", "worldspawn")])
    assert empty.to_bytes() == b'{\n"classname" "worldspawn"\n}\n\x00'
    assert empty.census().worldspawn and not EntityLump.parse(b"").census().worldspawn
    with pytest.raises(BspError, match="no worldspawn entity"):
        EntityLump.parse(b"").worldspawn


def test_adding_to_an_empty_entity() -> None:
    lump = EntityLump.parse(b"{\n}\n\x00")
    next(iter(lump)).set("classname", "worldspawn")
    assert lump.to_bytes() == b'{\n"classname" "worldspawn"\n}\n\x00'


def test_remove_takes_the_entity_lines_only() -> None:
    lump = EntityLump.parse(SOURCE)
    lump.remove(lump.worldspawn)
    assert _changed_lines(SOURCE, lump.to_bytes()) == [
        "-{\n", '-"world_maxs" "512 512 512"\n', '-"skyname" "sky_day01_01"\n',
        '-"classname" "worldspawn"\n', "-}\n"]
    lump.remove(next(iter(lump)))
    assert lump.to_bytes() == b"\x00" and len(lump) == 0
    with pytest.raises(BspError, match="not in this lump"):
        lump.remove(EntityLump.parse(SOURCE).worldspawn)


@pytest.mark.parametrize("value", ['say "hi"', "nul\x00", "\ud800"])
def test_values_a_quoted_string_cannot_hold_are_refused(value: str) -> None:
    entity = EntityLump.parse(SOURCE).worldspawn
    with pytest.raises(BspError):
        entity.set("message", value)
    assert not entity.dirty


# -- finding -----------------------------------------------------------------------------------

FIND = (b'{\n"classname" "worldspawn"\n}\n{\n"classname" "Info_Player_Start"\n"origin" "0 0 0"\n}\n'
        b'{\n"classname" "info_player_deathmatch"\n"targetname" "spawn1"\n}\n'
        b'{\n"classname" "light"\n"OnTrigger" "a,Fire,,0,-1"\n"OnTrigger" "b,Kill,,0,-1"\n}\n\x00')


@pytest.mark.parametrize(("query", "expected"), [
    ({"classname": "info_player_start"}, ["Info_Player_Start"]),
    ({"CLASSNAME": "LIGHT"}, ["light"]),
    ({"classname": "info_player_*", "match": "glob"}, ["Info_Player_Start", "info_player_deathmatch"]),
    ({"classname": "info_*_start", "match": "glob"}, ["Info_Player_Start"]),
    ({"classname": "info", "match": "glob"}, []),
    ({"classname": "PLAYER_(start|death)", "match": "regex"}, ["Info_Player_Start", "info_player_deathmatch"]),
    ({"classname": "^info", "targetname": "spawn", "match": "regex"}, ["info_player_deathmatch"]),
    ({"where": [("ontrigger", "B,kill,,0,-1")]}, ["light"]),
    ({"where": [("OnTrigger", "a,*"), ("OnTrigger", "b,*")], "match": "glob"}, ["light"]),
    ({"classname": "light", "origin": "0 0 0"}, []),
    ({}, ["worldspawn", "Info_Player_Start", "info_player_deathmatch", "light"]),
])
def test_find_matches_case_insensitively(query: dict, expected: list[str]) -> None:
    found = EntityLump.parse(FIND).find(**query)
    assert [entity.get("classname") for entity in found] == expected


def test_find_rejects_bad_patterns_and_modes() -> None:
    lump = EntityLump.parse(FIND)
    with pytest.raises(BspError, match="bad regex"):
        lump.find(classname="(", match="regex")
    with pytest.raises(BspError, match="unknown match mode"):
        lump.find(classname="x", match="fuzzy")


# -- errors ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("data", "offset", "message"), [
    (b'{\n"a" "b"\n"c" "d\n}\n\x00', 14, "line 3, column 5: unterminated quoted string"),
    (b'{\n"a" "b"\n', 10,
     "line 3, column 1: missing '}' before the end of the text (entity opened at line 1)"),
    (b'{\n"a" "b"\n\x00', 10,
     "line 3, column 1: missing '}' before a NUL byte (entity opened at line 1)"),
    (b'{\n"a" "b"\n{\n"c" "d"\n}\n', 10,
     "line 3, column 1: missing '}' before '{' (entity opened at line 1)"),
    (b'{\r\n"a" "b"\r\n  junk here\r\n}\r\n', 14, "line 3, column 3: unexpected text 'junk'"),
    (b'{\n"a" "b"\n}\n/ x', 12, "line 4, column 1: unexpected text '/'"),
    (b'{\n"a" "b"\n"c"\n}\n', 14, "line 4, column 1: key without a value"),
    (b'{\n"a" "b"\n}\n}\n', 12, "line 4, column 1: '}' outside an entity"),
    (b'{\n}\n"a" "b"\n', 4, "line 3, column 1: a quoted string outside an entity"),
])
def test_malformed_text_names_line_and_column(data: bytes, offset: int, message: str) -> None:
    with pytest.raises(BspError) as caught:
        EntityLump.parse(data)
    assert caught.value.message == message and caught.value.offset == offset
    assert str(caught.value) == f"entities: lump offset {offset}: {message}"


def test_long_gaps_parse_in_linear_time() -> None:
    data = b"{}" + b" " * 1_000_000 + b"x"
    start = time.perf_counter()
    with pytest.raises(BspError, match="line 1, column 1000003: unexpected text 'x'"):
        EntityLump.parse(data)
    assert EntityLump.parse(data, lenient=True).to_bytes() is data
    assert time.perf_counter() - start < 2  # a regex that rescans each gap takes hours


def test_lenient_keeps_bad_stretches_verbatim() -> None:
    data = (b'{\n"classname" "worldspawn"\n}\n{\n"a" "b"\njunk\n}\nmore junk\n'
            b'{\n"classname" "light"\n"x" "unterminated\n}\n\x00tail')
    with pytest.raises(BspError):
        EntityLump.parse(data)
    lump = EntityLump.parse(data, lenient=True)
    assert [e.get("classname") for e in lump] == ["worldspawn"]
    assert [str(k) for k in lump.kept] == [
        "lines 4-8 kept verbatim (line 6, column 1: unexpected text 'junk')",
        "lines 9-12 kept verbatim (line 11, column 5: unterminated quoted string)"]
    assert lump.to_bytes() is data
    lump.worldspawn.set("skyname", "sky")
    lump.add_entity([("classname", "info_null")])
    assert lump.to_bytes() == data.replace(  # the new entity goes after the last good one
        b'"worldspawn"\n}\n', b'"worldspawn"\n"skyname" "sky"\n}\n{\n"classname" "info_null"\n}\n', 1)


def test_lenient_resumes_at_the_next_entity_line() -> None:
    data = b'{\n"a" "b"\n{\n"classname" "light"\n}\n}\n{\n"classname" "info_null"\n}\n'
    lump = EntityLump.parse(data, lenient=True)
    assert [e.get("classname") for e in lump] == ["light", "info_null"]
    assert [(k.first_line, k.last_line) for k in lump.kept] == [(1, 2), (6, 6)]
    assert lump.to_bytes() == data


# -- properties --------------------------------------------------------------------------------

_text = st.text(st.characters(codec="latin-1", exclude_characters='"\x00'), max_size=12)
_space = st.text(st.sampled_from(" \t\r\n\x0b\x1b"), max_size=3)
_comment = st.text(st.characters(codec="latin-1", exclude_characters="\n\x00"), max_size=12)
_gap = st.lists(st.one_of(_space, _comment.map(lambda c: f"//{c}\n")), max_size=3).map("".join)


@st.composite
def _lumps(draw) -> tuple[bytes, list[list[tuple[str, str]]]]:
    entities = draw(st.lists(st.lists(st.tuples(_text, _text), max_size=4), max_size=4))
    parts = [draw(_gap)]
    for pairs in entities:
        parts.append("{")
        for key, value in pairs:
            parts.append(f'{draw(_gap)}"{key}"{draw(_gap)}"{value}"')
        parts.append(draw(_gap) + "}" + draw(_gap))
    tail = draw(st.one_of(st.just(""), _text.map(lambda t: "\x00" + t + "\x00\x01")))
    return ("".join(parts) + tail).encode("latin-1"), entities


def _raw(pairs: list[tuple[str, str]]) -> list[tuple[bytes, bytes]]:
    return [(k.encode("utf-8", "surrogateescape"), v.encode("utf-8", "surrogateescape")) for k, v in pairs]


@settings(max_examples=300, deadline=None)
@given(_lumps())
def test_valid_text_round_trips_and_parses_to_its_pairs(case) -> None:
    data, entities = case
    lump = EntityLump.parse(data)
    assert lump.to_bytes() is data
    assert [_raw(e.pairs()) for e in lump] == [
        [(k.encode("latin-1"), v.encode("latin-1")) for k, v in pairs] for pairs in entities]
    for entity in lump:
        entity.set("new key", "new\xffvalue")
    reparsed = EntityLump.parse(lump.to_bytes())
    assert [e.pairs()[:-1] for e in reparsed] == [e.pairs() for e in EntityLump.parse(data)]
    assert all(e.get("NEW KEY") == "new\xffvalue" for e in reparsed)


_key = st.sampled_from(["a", "A", "origin", "OnTrigger", "ontrigger"])
_edit = st.one_of(
    st.tuples(st.sampled_from(["set", "add"]), st.integers(0, 3), _key, _text),
    st.tuples(st.just("delete"), st.integers(0, 3), _key),
    st.tuples(st.just("rename"), st.integers(0, 3), _key, _key),
    st.tuples(st.just("remove"), st.integers(0, 3)),
    st.tuples(st.just("add_entity"), st.lists(st.tuples(_key, _text), max_size=3)),
)


@pytest.mark.full
@settings(max_examples=300, deadline=None)
@given(_lumps(), st.lists(_edit, max_size=6))
def test_edited_text_reparses_to_the_edited_pairs(case, edits) -> None:
    lump = EntityLump.parse(case[0])
    model = [entity.pairs() for entity in lump]
    for op, *args in edits:
        entities = list(lump)
        if op == "add_entity":
            lump.add_entity(args[0])
            model.append(list(args[0]))
            continue
        if not entities:
            continue
        index = args[0] % len(entities)
        entity, pairs = entities[index], model[index]
        same = [i for i, (k, _) in enumerate(pairs) if k.lower() == args[1].lower()] if len(args) > 1 else []
        if op == "remove":
            lump.remove(entity)
            del model[index]
        elif op == "set" and same:
            entity.set(args[1], args[2])
            pairs[same[0]] = (pairs[same[0]][0], args[2])
        elif op in ("set", "add"):
            getattr(entity, op)(args[1], args[2])
            pairs.append((args[1], args[2]))
        elif op == "delete":
            assert entity.delete(args[1]) == len(same)
            pairs[:] = [p for i, p in enumerate(pairs) if i not in same]
        else:
            entity.rename(args[1], args[2])
            pairs[:] = [(args[2], v) if i in same else (k, v) for i, (k, v) in enumerate(pairs)]
    assert [entity.pairs() for entity in EntityLump.parse(lump.to_bytes())] == model


_noise = st.lists(st.sampled_from([b"{", b"}", b'"', b'"k"', b" ", b"\n", b"\r\n", b"//", b"/", b"a",
                                   b"\x00", b"\xff", b"\x1b"]), max_size=30).map(b"".join)


@settings(max_examples=300, deadline=None)
@given(st.one_of(_noise, st.binary(max_size=60)))
def test_any_bytes_parse_or_raise_bsperror(data: bytes) -> None:
    try:
        lump = EntityLump.parse(data)
    except BspError as err:
        assert err.offset is not None and err.message.startswith("line ")
    else:
        assert lump.to_bytes() is data
    lenient = EntityLump.parse(data, lenient=True)
    assert lenient.to_bytes() is data
    lenient.add_entity([("classname", "info_null")])
    assert EntityLump.parse(lenient.to_bytes(), lenient=True).find(classname="info_null")


def test_generated_tables_are_the_grammar():
    """bspedit/format/generated/entities_tables.py holds the tables lark builds from entities.lark
    as it is now: the recorded hash matches, the terminals and ignored ones are lark's, and the
    tables parse as lark's own parser does (the same spans, the same texts refused)."""
    import hashlib
    from pathlib import Path

    from lark import Lark, UnexpectedInput

    from bspedit.format.generated import entities_tables
    from bspedit.lumps.entities import _Parser, _Unexpected

    root = Path(__file__).resolve().parents[1]
    grammar = (root / "grammars" / "entities.lark").read_bytes()
    first = Path(entities_tables.__file__).read_text(encoding="utf-8").splitlines()[0]
    assert first.endswith(f"sha256={hashlib.sha256(grammar).hexdigest()}"), \
        "grammars/entities.lark changed: run grammars/regenerate.sh"
    built = Lark(grammar.decode(), parser="lalr", lexer="basic")
    assert entities_tables.TERMINALS == {t.name: t.pattern.to_regexp() for t in built.terminals}
    assert list(entities_tables.IGNORE) == list(built.ignore_tokens)
    samples = ['{"a" "b"}', '{}{"c" "d" "e" "f"}\x00tail', "", "\x00", '{"a"}', '{"a" "b"',
               '}', '{{}}', '"a" "b"', '{"a" "b"}}', '{}\x00', '{"k" "v"} // x\n{ }']
    for text in samples:
        try:
            tree = built.parse(text)
        except UnexpectedInput:
            ours = None
        else:
            ours = [(e.children[0].start_pos, e.children[-1].end_pos)
                    for e in tree.iter_subtrees_topdown() if e.data == "entity"]
        parser, result = _Parser(), None
        try:
            for token in built.lex(text):
                result = parser.feed(token.type, (token.start_pos, token.end_pos))
            result = parser.feed("$END", (len(text), len(text)))
        except _Unexpected:
            result = None
        assert result == ours, text


def test_set_and_delete_one_occurrence_of_a_repeated_key():
    lump = EntityLump.parse(b'{\n"classname" "logic_relay"\n"OnTrigger" "a,Kill,,0,-1"\n'
                            b'"OnTrigger" "b,Kill,,0,-1"\n}\n\0')
    entity = next(iter(lump))
    entity.set("ontrigger", "c,Kill,,0,-1", occurrence=2)
    assert entity.get_all("OnTrigger") == ["a,Kill,,0,-1", "c,Kill,,0,-1"]
    with pytest.raises(KeyError):
        entity.set("OnTrigger", "x", occurrence=3)
    with pytest.raises(KeyError):
        entity.set("missing", "x", occurrence=2)
    assert entity.delete("OnTrigger", occurrence=3) == 0
    assert entity.delete("OnTrigger", occurrence=1) == 1
    assert lump.to_bytes() == (b'{\n"classname" "logic_relay"\n"OnTrigger" "c,Kill,,0,-1"\n}\n\0')
