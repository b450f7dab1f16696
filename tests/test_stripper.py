"""Stripper:Source configs: the plugin's line reading, its quirks, and its rules applied to
entity lumps (synthetic text, the real corpus maps, and the 460 real configs)."""
from __future__ import annotations

import difflib
import time
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bspedit.patching import pcre, stripper
from bspedit.bsp import Bsp
from bspedit.lumps.entities import Entity, EntityLump
from conftest import ROOT, corpus_maps

CONFIGS = ROOT.parent / "shared" / "stripper-configs" / "gflze-csgo-ze"
FAULTS = ROOT / "tests" / "data" / "stripper" / "faults.cfg"

LUMP = (b'{\n"classname" "worldspawn"\n"skyname" "sky_day01_01"\n}\n'
        b'{\n"classname" "light"\n"targetname" "lamp"\n"_light" "255 255 255 200"\n}\n'
        b'{\n"classname" "light_spot"\n"targetname" "Lamp"\n}\n'
        b'{\n"classname" "logic_relay"\n"targetname" "relay"\n"OnTrigger" "door,Open,,0,-1"\n'
        b'"OnTrigger" "door,Close,,5,-1"\n"spawnflags" "0"\n"target" ""\n}\n\x00')
ESCAPED = (b'{\n"classname" "worldspawn"\n}\n{\n"classname" "logic_relay"\n"targetname" "relay"\n'
           b'"OnTrigger" "door\x1bOpen\x1b\x1b0\x1b-1"\n}\n\x00')


def run(config: str, lump: bytes = LUMP) -> tuple[bytes, stripper.Report]:
    entities = EntityLump.parse(lump)
    report = stripper.apply(stripper.parse_config(config, "t.cfg"), entities)
    return entities.to_bytes(), report


def kinds(config: str | bytes) -> list[tuple[int, str]]:
    return [(d.line, d.kind) for d in stripper.parse_config(config, "t.cfg").diagnostics]


def classnames(lump: bytes) -> list[str]:
    return [e.get("classname") for e in EntityLump.parse(lump)]


def block(text: str, header: str = "filter:") -> str:
    return f"{header}\n{{\n{text}\n}}\n"


def modify(**subs: str) -> str:
    return "modify:\n{\n" + "".join(f"{name}:\n{{\n{text}\n}}\n" for name, text in subs.items()) + "}\n"


# ---------------------------------------------------------------- the plugin's rules, synthetic

def test_filter_by_plain_value_is_case_insensitive_full_equality():
    out, report = run(block('"targetname" "LAMP"'))
    assert classnames(out) == ["worldspawn", "logic_relay"]          # lamp and Lamp, not relay
    assert report.results[0].removed == ["light 'lamp'", "light_spot 'Lamp'"]
    out, _ = run(block('"classname" "light_"'))
    assert out == LUMP                                                # no prefix match


def test_filter_by_regex_is_case_insensitive_and_unanchored():
    out, _ = run(block('"classname" "/IGHT/"'))
    assert classnames(out) == ["worldspawn", "logic_relay"]
    out, _ = run(block('"classname" "/^light$/"'))
    assert classnames(out) == ["worldspawn", "light_spot", "logic_relay"]


def test_every_pair_must_match_and_keys_compare_case_insensitively():
    out, _ = run(block('"ClassName" "light_spot"\n"targetname" "lamp"'))
    assert classnames(out) == ["worldspawn", "light", "logic_relay"]
    out, report = run(block('"classname" "light"\n"targetname" "relay"'))
    assert out == LUMP and report.results[0].idle


def test_counting_rule_counts_keyvalues_not_pairs():
    # Two OnTrigger keyvalues match the first pair: that reaches the pair count of 2,
    # although "classname" "nothing" matches nothing (the plugin's quirk).
    config = block('"OnTrigger" "/^door,/"\n"classname" "nothing"')
    out, report = run(config)
    assert classnames(out) == ["worldspawn", "light", "light_spot"]
    assert report.results[0].removed == ["logic_relay 'relay'"]
    # With a single OnTrigger keyvalue, the same block matches nothing.
    single = LUMP.replace(b'"OnTrigger" "door,Close,,5,-1"\n', b"")
    assert run(config, single)[0] == single


def test_empty_filter_removes_every_entity():
    out, _ = run("filter:\n{\n}\n")
    assert classnames(out) == []
    assert kinds("filter:\n{\n}\n") == [(2, "empty-filter")]


def test_add_appends_an_entity_and_later_blocks_see_it():
    out, report = run(block('"classname" "info_target"\n"targetname" "new"', "add:")
                      + block('"targetname" "new"\n"classname" "info_target"'))
    assert report.results[0].added == ["info_target 'new'"]
    assert report.results[1].removed == ["info_target 'new'"]
    assert out == LUMP
    out, _ = run(block('"classname" "info_target"\n"targetname" "new"', "add:"))
    assert out == LUMP[:-1] + b'{\n"classname" "info_target"\n"targetname" "new"\n}\n\x00'


def test_add_without_brace_is_ignored():
    config = 'add:\n"classname" "info_target"\n}\n'
    out, report = run(config)
    assert out == LUMP and report.results == []
    assert kinds(config) == [(2, "outside-block")]


def test_trailing_slash_is_cut_from_written_values():
    out, _ = run(block('"classname" "info_target"\n"message" "/x/"', "add:"))
    assert out.endswith(b'"message" "/x"\n}\n\x00')
    out, _ = run(modify(match='"targetname" "relay"', replace='"spawnflags" "/2/"'))
    assert b'"spawnflags" "/2"' in out


def test_modify_deletes_then_replaces_then_inserts():
    config = modify(match='"targetname" "relay"',
                    delete='"OnTrigger" "/,Close,/"',
                    replace='"OnTrigger" "door,Lock,,0,-1"\n"onTRIGGER" "ignored,,,0,-1"',
                    insert='"OnTrigger" "door,Unlock,,1,-1"')
    out, report = run(config)
    relay = list(EntityLump.parse(out))[3]
    assert relay.get_all("OnTrigger") == ["door,Lock,,0,-1", "door,Unlock,,1,-1"]
    result = report.results[0]
    assert (result.matched, result.deleted, result.replaced, result.inserted) == (1, 1, 1, 1)
    assert result.modified == ["logic_relay 'relay'"]
    changed = [line for line in difflib.ndiff(LUMP.decode().splitlines(), out.decode().splitlines())
               if line[:1] in "+-"]
    assert changed == ['- "OnTrigger" "door,Open,,0,-1"', '+ "OnTrigger" "door,Lock,,0,-1"',
                       '- "OnTrigger" "door,Close,,5,-1"', '+ "OnTrigger" "door,Unlock,,1,-1"']


def test_replace_touches_every_keyvalue_with_the_key_and_never_adds_one():
    out, report = run(modify(match='"targetname" "relay"',
                             replace='"OnTrigger" "x,y,,0,-1"\n"health" "100"'))
    relay = list(EntityLump.parse(out))[3]
    assert relay.get_all("OnTrigger") == ["x,y,,0,-1", "x,y,,0,-1"]
    assert relay.get("health") is None
    assert report.results[0].replaced == 2


def test_modify_sub_blocks_match_delete_insert_each_alone():
    out, _ = run(modify(match='"classname" "/^light/"', insert='"style" "2"'))
    assert [e.get("style") for e in EntityLump.parse(out)] == [None, "2", "2", None]
    out, _ = run(modify(match='"classname" "logic_relay"', delete='"OnTrigger" "DOOR,OPEN,,0,-1"'))
    assert list(EntityLump.parse(out))[3].get_all("OnTrigger") == ["door,Close,,5,-1"]


def test_modify_without_match_applies_to_every_entity():
    config = modify(insert='"tagged" "1"')
    out, report = run(config)
    assert [e.get("tagged") for e in EntityLump.parse(out)] == ["1"] * 4
    assert report.results[0].matched == 4
    assert kinds(config) == [(2, "empty-match")]


def test_empty_values_are_invisible_to_configs():
    # "target" "" exists in the lump but the plugin never sees it: a regex that matches
    # the empty string neither counts it nor deletes it, replace leaves it alone.
    out, report = run(modify(match='"target" "/^$/"', delete='"target" "/.*/"'))
    assert out == LUMP and report.results[0].idle
    out, _ = run(modify(match='"targetname" "relay"', replace='"target" "set"'))
    assert out == LUMP


def test_empty_values_a_config_writes_are_visible():
    # A value "/" is the empty regex, stored as "": the plugin writes it and later blocks
    # see it, while the map's own empty values ("target" "") stay invisible.
    config = (block('"classname" "x"\n"k" "/"', "add:")
              + modify(match='"targetname" "relay"', replace='"targetname" "/"')
              + block('"targetname" "/^$/"') + block('"target" "/^$/"'))
    out, report = run(config)
    assert classnames(out) == ["worldspawn", "light", "light_spot", "x"]
    assert out.endswith(b'{\n"classname" "x"\n"k" ""\n}\n\x00')
    assert [r.matched for r in report.results] == [0, 1, 1, 0]
    text, _ = stripper.plugin_run(stripper.parse_config(config), LUMP)
    assert text.endswith(b'}{\n"classname" "x"\n"k" ""\n}\x00')


def test_configs_changing_nothing_keep_the_bytes():
    config = (block('"classname" "nothing"') + modify(match='"targetname" "relay"',
                                                      replace='"spawnflags" "0"'))
    out, report = run(config)
    assert out == LUMP                                 # the same value: no edit at all
    assert report.results[1].matched == 1 and report.results[1].modified == []


def test_0x1b_outputs_need_the_byte_or_a_regex():
    out, report = run(block('"OnTrigger" "door,Open,,0,-1"'), ESCAPED)
    assert out == ESCAPED
    assert "0x1B" in report.results[0].hint and "1 entity" in report.results[0].hint
    assert classnames(run(block('"OnTrigger" "door\x1bOpen\x1b\x1b0\x1b-1"'), ESCAPED)[0]) == ["worldspawn"]
    assert classnames(run(block('"OnTrigger" "/^door.open/"'), ESCAPED)[0]) == ["worldspawn"]
    # a comma-written match on a comma map gets no hint
    assert run(block('"OnTrigger" "x,y"'))[1].results[0].hint is None


def test_blocks_apply_in_file_order_and_configs_in_the_order_given():
    add = stripper.parse_config(block('"classname" "info_target"\n"targetname" "t"', "add:"), "global")
    tag = stripper.parse_config(modify(match='"targetname" "t"', insert='"spawnflags" "1"'), "map")
    entities = EntityLump.parse(LUMP)
    report = stripper.apply([add, tag], entities)
    assert list(entities)[-1].get("spawnflags") == "1"
    assert [r.block.source for r in report.results] == ["global", "map"]
    entities = EntityLump.parse(LUMP)
    assert stripper.apply([tag, add], entities).results[0].idle
    assert list(entities)[-1].get("spawnflags") is None


# ---------------------------------------------------------------- reading the config

def test_headers_are_case_sensitive():
    config = block('"classname" "info_target"', "add:") + block('"classname" "worldspawn"', "Filter:")
    out, _ = run(config)      # "Filter:" is ignored: its block is one more add:
    assert classnames(out) == ["worldspawn", "light", "light_spot", "logic_relay", "info_target",
                               "worldspawn"]
    assert kinds(config) == [(5, "not-a-header")]


def test_headers_are_prefix_matches_except_modify():
    out, _ = run(block('"classname" "light"', "filter:junk"))
    assert classnames(out) == ["worldspawn", "light_spot", "logic_relay"]
    # "modify: " trims to "modify:", but "modify:x" is no header: the section stays
    # filter:, match: is no sub-header, and the block removes the relay.
    sub = modify(match='"targetname" "relay"', insert='"x" "1"')
    out, _ = run(sub.replace("modify:", "modify:x", 1))
    assert classnames(out) == ["worldspawn", "light", "light_spot"]
    assert run(sub.replace("modify:", "modify: \t", 1))[1].results[0].modified == ["logic_relay 'relay'"]
    out, _ = run(sub.replace("match:", "match:junk"))
    assert list(EntityLump.parse(out))[3].get("x") == "1"


def test_a_line_is_read_in_253_byte_pieces():
    filler = ";" + "x" * 252                                   # a comment of exactly 253 bytes
    # the comment's continuation is the pair line: it is read inside the block
    config = f'filter:\n{{\n{filler}"classname" "light"\n}}\n'
    assert classnames(run(config)[0]) == ["worldspawn", "light_spot", "logic_relay"]
    assert kinds(config) == [(3, "line-split")]
    # one byte less and the pair is part of the comment: an empty filter: everything goes
    assert classnames(run(config.replace(";x", ";", 1))[0]) == []
    # a pair line longer than 253 bytes is cut and dropped
    long_pair = f'"message" "{"y" * 260}"'
    assert kinds(block(long_pair)) == [(2, "empty-filter"), (3, "not-a-pair"), (3, "line-split")]


def test_property_lines_need_non_empty_quoted_key_and_value():
    config = block('"targetname""relay"\n"targetname" ""\n"classname" "light" ; ignored\n'
                   'x "targetname" "lamp" y')
    blocks = stripper.parse_config(config).blocks
    assert [(p.key, p.value) for p in blocks[0].pairs] == [("classname", "light"), ("targetname", "lamp")]
    assert kinds(config) == [(3, "not-a-pair"), (4, "not-a-pair"), (5, "extra-text"), (6, "extra-text")]


def test_invalid_regex_line_is_skipped_so_the_filter_is_broader():
    config = block('"targetname" "/lamp(/"\n"classname" "light"')
    out, _ = run(config)
    assert classnames(out) == ["worldspawn", "light_spot", "logic_relay"]
    assert kinds(config) == [(3, "bad-regex")]


def test_comments_blank_lines_crlf_and_indentation():
    config = "; c\r\n// c\r\n# c\r\n\r\n  filter:\r\n\t{\r\n\t\"classname\" \"light\"  \r\n }\r\n"
    assert classnames(run(config)[0]) == ["worldspawn", "light_spot", "logic_relay"]
    assert kinds(config) == []


def test_a_second_modify_block_without_header_works_like_the_plugin():
    config = (modify(match='"targetname" "relay"', insert='"a" "1"')
              + "{\n\tmatch:\n\t{\n\"targetname\" \"lamp\"\n\t}\n\tinsert:\n\t{\n\"a\" \"2\"\n\t}\n}\n")
    out, report = run(config)
    assert [e.get("a") for e in EntityLump.parse(out)] == [None, "2", "2", "1"]
    assert kinds(config) == [] and len(report.results) == 2


def test_faults_fixture_lints_at_the_exact_lines():
    config = stripper.load_config(FAULTS)
    assert [(d.line, d.kind) for d in config.diagnostics] == [
        (2, "not-a-header"), (6, "header-text"), (7, "outside-block"), (12, "not-a-pair"),
        (13, "not-a-pair"), (14, "extra-text"), (15, "regex-as-value"), (19, "bad-regex"),
        (23, "empty-filter"), (25, "not-a-header"), (26, "not-a-header"),
        (34, "repeated-sub-block"), (40, "duplicate-replace-key"), (44, "empty-match"),
        (50, "stray-close"), (54, "header-in-block"), (66, "stray-open"), (70, "empty-add"), (73, "empty-modify"), (74, "outside-block"),
        (80, "unclosed-modify"), (81, "pair-outside-sub-block"), (84, "empty-filter"),
        (85, "not-a-pair"), (85, "line-split"), (88, "unclosed-block")]
    messages = {d.line: d.message for d in config.diagnostics}
    assert "lines 7-9" in messages[7] and "no '{' after add: at line 6" in messages[7]
    assert "before the filter: at line 83" in messages[80]
    # line 61's /\p{L}+/ is valid PCRE2 (a Unicode property, caseless: any ASCII letter here)
    assert config.blocks[7].match[0].regex.search("info_target")


def test_the_blocks_the_faults_fixture_runs():
    config = stripper.load_config(FAULTS)
    assert [(b.kind, b.line, b.end) for b in config.blocks] == [
        ("filter", 3, 5), ("add", 11, 16), ("filter", 18, 21), ("filter", 23, 24),
        ("modify", 28, 42), ("modify", 44, 49), ("add", 52, 56), ("modify", 58, 68),
        ("add", 70, 71), ("modify", 73, 79), ("filter", 84, 86)]
    add = config.blocks[1]
    assert [(p.key, p.value) for p in add.pairs] == [("origin", "0 0 0"), ("message", "/slashes")]
    assert [p.key for p in config.blocks[4].match] == ["targetname"]     # the second match: won
    assert [p.key for p in config.blocks[6].pairs] == ["classname", "classname"]


@pytest.mark.parametrize("pattern, value, found", [
    (r"\e", "\x1b", True), (r"^[[:alpha:]_]+$", "Ab_", True), (r"^(?<n>a)\k<n>$", "aA", True),
    (r"^\Q.*\E+$", ".**", True), (r"^a{1, 2}$", "aa", True), (r"a\Kb", "AB", True),
    (r"^(\((?1)*\))$", "(())", True), (r"(?<=a|bc)d", "bcd", True), (r"(*SKIP)x", "x", True),
    (r"(?(DEFINE)x)yyy", "zzz", False), (r"^\xe9$", "\xc9", False),   # caseless in ASCII only
    (r"^\C$", "\xe9", True), (r"^\C\C$", "\xe9", False), (r"\C", "", False),  # one byte
    (r"[\Q]\C\E]", "C", True), (r"\c\C", "\x1cC", True), (r"\c\C", "C", False),  # \c\ is 0x1C
    (r"\c\\C", "\x1c!", True), (r"(?#\C)a", "a", True)])
def test_regexes_run_with_pcre2(pattern, value, found):
    assert pcre.compile_caseless(pattern).search(value) is found


@pytest.mark.parametrize("pattern", [
    r"\u0041", r"[[:nope:]]", "a(", "*a", "[:alpha:]", r"\xg", "z{65536}", "(?z)", r"\g1",
    "[[.a.]]", "(?<=a+)", r"[\C]"])
def test_regexes_pcre2_rejects_are_bad_regex(pattern):
    assert kinds(block(f'"classname" "/{pattern}/"\n"targetname" "x"')) == [(3, "bad-regex")]


def test_a_catastrophic_regex_stops_at_pcre2s_match_limit():
    start = time.monotonic()
    assert not pcre.compile_caseless("(a+)+$").search("a" * 25 + "!")    # no match, as the plugin
    assert time.monotonic() - start < 2


def test_regex_value_slash_alone_matches_everything():
    assert classnames(run(block('"classname" "/"'))[0]) == []


def test_map_prefixes_follow_the_plugin():
    assert stripper.map_prefixes("ze_a_b") == ["ze", "ze_a", "ze_a_b"]
    assert stripper.map_prefixes("_a") == ["_a"]
    assert stripper.map_prefixes("a__b") == ["a", "a_", "a__b"]
    assert stripper.map_prefixes("Ze_A", lowercase=True) == ["ze", "ze_a"]


def test_config_chain_is_global_then_each_prefix(tmp_path):
    (tmp_path / "maps").mkdir()
    for name in ("global_filters.cfg", "maps/ze_foo_v2.cfg", "maps/ze.cfg", "maps/ze_bar.cfg"):
        (tmp_path / name).write_text("")
    assert [p.relative_to(tmp_path).as_posix() for p in stripper.config_chain(tmp_path, "ze_foo_v2")] == \
        ["global_filters.cfg", "maps/ze.cfg", "maps/ze_foo_v2.cfg"]


# ---------------------------------------------------------------- the plugin's own text

def test_plugin_text_reprints_every_entity_and_drops_empty_values():
    assert stripper.plugin_text(LUMP) == (
        b'{\n"classname" "worldspawn"\n"skyname" "sky_day01_01"\n}'
        b'{\n"classname" "light"\n"targetname" "lamp"\n"_light" "255 255 255 200"\n}'
        b'{\n"classname" "light_spot"\n"targetname" "Lamp"\n}'
        b'{\n"classname" "logic_relay"\n"targetname" "relay"\n"OnTrigger" "door,Open,,0,-1"\n'
        b'"OnTrigger" "door,Close,,5,-1"\n"spawnflags" "0"\n}\x00')
    text = stripper.plugin_text(LUMP)
    assert stripper.plugin_text(text) == text
    # line-oriented like the plugin: a second pair on a line is lost, "}{" closes and opens
    assert stripper.plugin_text(b'{"a" "b"\n"c" "d" "e" "f"\n}{\n"g" "h"\n}') == \
        b'{\n"c" "d"\n}{\n"g" "h"\n}'


# ---------------------------------------------------------------- an independent model

def _oracle(lump: bytes, configs: list[stripper.Config]) -> bytes:
    """parser.cpp's RunRemoveFilter/RunAddFilter/RunReplaceFilter on plain lists."""
    text = stripper.plugin_text(lump)
    cut = text.find(b"\0")
    body, tail = (text, b"") if cut < 0 else (text[:cut], text[cut:])
    ents = [[(k.decode("latin-1"), v.decode("latin-1")) for k, v in re.findall(rb'"([^"]*)" "([^"]*)"\n', e)]
            for e in body.split(b"}")[:-1]]

    def same(a: str, b: str) -> bool:
        return a.encode("latin-1").lower() == b.encode("latin-1").lower()

    def hit(pair: stripper.Pair, key: str, value: str) -> bool:
        if not same(pair.key, key):
            return False
        return bool(pair.regex.search(value)) if pair.regex else same(pair.value, value)

    def full(ent: list, pairs: tuple) -> bool:
        count = 0
        for key, value in ent:
            if count == len(pairs):
                break
            count += any(hit(p, key, value) for p in pairs)
        return count == len(pairs)

    for config in configs:
        for b in config.blocks:
            if b.kind == "add":
                ents.append([(p.key, p.value) for p in b.pairs])
            elif b.kind == "filter":
                ents = [e for e in ents if not full(e, b.pairs)]
            else:
                for e in ents:
                    if full(e, b.match):
                        e[:] = [kv for kv in e if not any(hit(p, *kv) for p in b.delete)]
                        e[:] = [(k, next((p.value for p in b.replace if same(p.key, k)), v)) for k, v in e]
                        e += [(p.key, p.value) for p in b.insert]
    return b"".join(b"{\n" + b"".join(b'"%s" "%s"\n' % (k.encode("latin-1"), v.encode("latin-1"))
                                      for k, v in e) + b"}" for e in ents) + tail


def _check_against_oracle(lump: bytes, config: stripper.Config) -> None:
    default = EntityLump.parse(lump)
    stripper.apply(config, default)
    plugin = EntityLump.parse(stripper.plugin_text(lump))
    stripper.apply(config, plugin)
    expected = _oracle(lump, [config])
    assert stripper.plugin_text(default.to_bytes()) == expected
    assert stripper.plugin_text(plugin.to_bytes()) == expected


KEYS = st.sampled_from(["classname", "ClassName", "targetname", "OnTrigger", "spawnflags"])
VALUES = st.sampled_from(["light", "LIGHT", "lamp", "relay", "0", "door,Open,,0,-1", "/^l/", "/AMP/",
                          "/,close,/", "/x/", "/./"])
PAIRS = st.lists(st.tuples(KEYS, VALUES), max_size=3)


@st.composite
def configs(draw) -> str:
    out = []
    for kind in draw(st.lists(st.sampled_from(["filter", "add", "modify"]), max_size=4)):
        if kind == "modify":
            subs = {name: "\n".join(f'"{k}" "{v}"' for k, v in draw(PAIRS))
                    for name in draw(st.sets(st.sampled_from(["match", "delete", "replace", "insert"])))}
            out.append(modify(**subs))
        else:
            out.append(block("\n".join(f'"{k}" "{v}"' for k, v in draw(PAIRS)), kind + ":"))
    return "".join(out)


@settings(max_examples=200, deadline=None)
@given(configs())
def test_apply_agrees_with_an_independent_model_of_the_plugin(config):
    _check_against_oracle(LUMP, stripper.parse_config(config))


# ---------------------------------------------------------------- the corpus

def _config_for(lump: EntityLump) -> tuple[str, Entity, Entity | None, list[str]]:
    """A config touching real entities of a corpus map: filter one entity by its name
    (in the other case), modify the one with the most keyvalues (delete its first
    output, replace its classname, insert a keyvalue). Returns the config, the modified
    entity, the filtered one, and the diff lines the edits may remove."""
    richest = max(lump, key=lambda e: len(e.pairs()))
    named = next((e for e in lump if e.get("targetname") and e is not richest), None)
    outputs = [(k, v) for k, v in richest.pairs() if k.startswith("On") and v]
    subs = {"match": "\n".join(f'"{k}" "{v}"' for k, v in richest.pairs()[:2] if v),
            "replace": '"classname" "/regex_looking/"', "insert": '"bspedit" "1"'}
    gone = ["{", "}", f'"classname" "{richest.get("classname")}"']
    if outputs:
        subs["delete"] = '"{}" "{}"'.format(*outputs[0])
        gone.append(subs["delete"])
    config = modify(**subs)
    if named:
        config = block(f'"targetname" "{named.get("targetname").swapcase()}"') + config
        gone += [f'"{k}" "{v}"' for k, v in named.pairs()]
    return config, richest, named, gone


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_corpus_maps_follow_the_plugin(path):
    with Bsp.open(path) as bsp:
        data = bsp.entities().to_bytes()
    edited = EntityLump.parse(data)
    config, richest, named, gone = _config_for(edited)
    parsed = stripper.parse_config(config, "corpus.cfg")
    assert [d.kind for d in parsed.diagnostics] == ["regex-as-value"]
    _check_against_oracle(data, parsed)
    report = stripper.apply(parsed, edited)
    assert report.results[-1].modified and not report.results[0].idle
    if named:
        assert len(edited) == len(EntityLump.parse(data)) - len(report.results[0].removed)
    # untouched entities keep their bytes: only the edited lines differ
    diff = [line for line in difflib.ndiff(data.decode("latin-1").splitlines(),
                                           edited.to_bytes().decode("latin-1").splitlines())
            if line[:2] in ("- ", "+ ")]
    assert [line[2:] for line in diff if line[0] == "+"] == ['"classname" "/regex_looking"',
                                                             '"bspedit" "1"']
    assert {line[2:] for line in diff if line[0] == "-"} <= set(gone)


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_corpus_config_changing_nothing_keeps_the_lump_bytes(path):
    with Bsp.open(path) as bsp:
        lump = bsp.entities()
        data = lump.to_bytes()
        key, value = next((k, v) for k, v in next(iter(lump)).pairs() if v)
        config = stripper.parse_config(block('"classname" "no_such_entity"')
                                       + modify(match=f'"{key}" "{value}"',
                                                replace=f'"{key}" "{value}"'), "noop.cfg")
        report = stripper.apply(config, lump)
        assert lump.to_bytes() == data and not lump.dirty
        assert report.results[1].matched >= 1


@pytest.mark.parametrize("path", [p for p in corpus_maps("source")
                                  if p.values[0] is None or "l4d2" in p.values[0].name])
def test_corpus_0x1b_outputs(path):
    with Bsp.open(path) as bsp:
        data = bsp.entities().to_bytes()
    lump = EntityLump.parse(data)
    entity, key, value = next((e, k, v) for e in lump for k, v in e.pairs() if "\x1b" in v)
    comma = value.replace("\x1b", ",")
    plain = stripper.parse_config(block(f'"{key}" "{comma}"'))
    report = stripper.apply(plain, lump)
    assert report.results[0].idle and "0x1B" in report.results[0].hint and not lump.dirty
    regex = "/^" + re.escape(value.split("\x1b")[0]) + "./"
    for config in (block(f'"{key}" "{value}"'), block(f'"{key}" "{regex}"')):
        lump = EntityLump.parse(data)
        result = stripper.apply(stripper.parse_config(config), lump).results[0]
        assert result.removed and len(lump) == len(EntityLump.parse(data)) - len(result.removed)


@pytest.mark.skipif(not CONFIGS.is_dir(), reason="../shared/stripper-configs not present")
def test_all_real_configs_parse_and_only_real_faults_are_reported():
    files = sorted(CONFIGS.glob("*.cfg"))
    assert len(files) == 460
    found = []
    for path in files:
        config = stripper.load_config(path, path.name)
        assert config.blocks, path.name
        found += [(d.source, d.line, d.kind) for d in config.diagnostics]
    # each one checked by hand against the file
    assert found == [
        ("ze_diddle_v3.cfg", 529, "not-a-pair"),          # "vscripts" "" in replace:
        ("ze_diddle_v3.cfg", 576, "not-a-pair"),          # "parentname" "" in replace:
        ("ze_diddle_v3.cfg", 593, "not-a-pair"),
        ("ze_honkai_impact_3rd_babel_v1_55.cfg", 155, "not-a-pair"),   # "classname""func_button"
        ("ze_mojos_minigames_v1_4_1.cfg", 96, "line-split"),           # a 300-byte comment
        ("ze_santassination_v3.cfg", 113, "extra-text"),               # a ';' after the pair
        ("ze_serpentis_temple_p2.cfg", 1, "line-split"),               # a long comment
        ("ze_serpentis_temple_p2.cfg", 48, "not-a-pair"),              # a 270-byte output: dropped
        ("ze_serpentis_temple_p2.cfg", 48, "line-split"),
        ("ze_tesv_skyrim_v5_6.cfg", 580, "not-a-pair"),                # "hammerid" "" in match:
        ("ze_trials_v3_test.cfg", 287, "line-split")]                  # a long comment
