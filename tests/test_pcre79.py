"""The PCRE 7.9 mode (`patch --pcre 1`, `pcre=1`): patterns mean what PCRE 7.9 made of them.

Each difference from PCRE2 is checked both ways (7.9 here, PCRE2 by default); a hypothesis test
compares the mode with the system's libpcre 8.x, which 7.9 differs from only in documented ways
(it is skipped where that library is missing). The plugin's own outputs under 7.9 are compared
in full by tests/test_stripper_conformance.py.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import re
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bspedit.patching import pcre, pcre79, stripper
from test_regex_edges import _libpcre2 as pcre2_reference
from test_regex_edges import reference as pcre2_matches
from bspedit.errors import BspError
from conftest import run_cli
import synthetic


def found(pattern: str, value: str, version: int = 1) -> bool:
    return pcre.compile_caseless(pattern, pcre=version).search(value)


def rejection(pattern: str, version: int = 1) -> str | None:
    try:
        pcre.compile_caseless(pattern, pcre=version)
    except pcre.RegexProblem as problem:
        return problem.reason
    return None


@pytest.mark.parametrize("pattern, value, seven, two", [
    ("^a{,2}$", "a{,2}", True, False), ("^a{,2}$", "aa", False, True),    # not a quantifier
    ("^a{1, 2}$", "a", False, True), ("^a{ 1}$", "a{ 1}", True, False),
    (r"^\o{3}$", "ooo", True, False), (r"^\o{101}$", "A", False, True),  # \o: the letter o
    (r"^\y\q\Y$", "yqy", True, False), (r"\xg", "\x00g", True, False),   # unknown: the letter
    (r"^\x{}$", "\x00", True, False), (r"^\x{4$", "\x00{4", True, False),
    (r"^[\d-z]+$", "5-z", True, False), (r"^[a-\d]+$", "a-5", True, False),
    (r"^[[:alpha:]-]+$", "a-", True, True), (r"^[[:alpha:]-z]$", "-", True, False),
    (r"^\s$", "\x0b", False, True), (r"^[\s]$", "\x0b", False, True),      # \s has no VT
    (r"^\S$", "\x0b", True, False), (r"^[^\s]$", "\x0b", True, False),
    (r"^[\S]$", "\x0b", True, False), (r"^[^\S]$", "\x0b", False, True),
    (r"^[^\S]$", " ", True, True), (r"^[[:space:]]$", "\x0b", True, True),
    ("(?x)^a\x0bb$", "a\x0bb", True, False), ("(?x)^a b$", "ab", True, True),
    (r"^[\8]+$", "\x008", True, False), (r"^\81$", "\x0081", True, False),
    (r"^[\B\R\X\A]+$", "BRXA", True, False), (r"^[\p{L}]+$", "p{L}", True, False),
    (r"^\cé$", "\xa9", True, False), (r"^\777$", "\xff", False, False),
    ("^(?(R1)a|b)$", "b", True, False),                 # no group 1: a test never true
    (r"^\Qa.\E+$", "a..", True, True), (r"^(a)\1$", "aA", True, True),
    ("^(?:a|bc)(?<=a|bc)$", "bc", True, True), (r"(?<=\C{2})c", "abc", True, True),
    (r"(?!a\K)b", "b", True, False),
    # right after '[' 7.9 skips any mix of \E, \Q\E and one '^'; the next character is a
    # member even when it is ']' (pcre_compile.c); PCRE2 reads them the same way
    (r"^[\E]a]+$", "a]", True, True), (r"^[^\Q\E]a]$", "z", True, True),
    (r"^[^\Q\E]a]$", "]", False, False), (r"^[\Q\E]]$", "]", True, True),
    (r"^[\E\Q\E\E]]$", "]", True, True), (r"^[\Q\E^]]$", "z", True, True),
    (r"^[\E^\E]]$", "]", False, False), (r"^[^\E^]$", "^", False, False),
    (r"^[\Q\E]x]$", "x", True, True),
])
def test_patterns_mean_what_7_9_made_of_them(pattern, value, seven, two):
    assert (found_or_none(pattern, value, 1), found_or_none(pattern, value, 2)) == (seven, two)


def found_or_none(pattern: str, value: str, version: int) -> bool:
    """Whether the pattern matches; False where that version rejects it."""
    return rejection(pattern, version) is None and found(pattern, value, version)


@pytest.mark.parametrize("pattern, reason", [
    (r"\N", r"PCRE does not support \L, \l, \N, \U, or \u"), (r"\u0041", r"\L, \l, \N"),
    (r"(?X)\y", "unrecognized character follows"), (r"(?X)[\B]", "invalid escape sequence"),
    (r"\p{L}", r"support for \P, \p, and \X"), (r"\X", r"support for \P, \p, and \X"),
    ("(?=a)*", "nothing to repeat"), ("(?<!a){2}", "nothing to repeat"), ("a(?i)+", "nothing"),
    ("(?(DEFINE)a)?", "repeating a DEFINE group"),
    ("(?R)?", "recursive call could loop"), ("a|(?R)", "recursive call could loop"),
    ("(a|(?1))", "recursive call could loop"), (r"\h(?R)", "recursive call could loop"),
    (r"\1(?R)(a)", "recursive call could loop"), ("(?(R)a+|(?R)b)", "recursive call could"),
    ("(?<=ab?)", "not fixed length"), (r"(?<=\h)", "not fixed length"),
    ("(?<=(*FAIL))", "not fixed length"), ("(?<=[^a]{2})", "not fixed length"),
    (r"(?<=a\K)", "not fixed length"), ("(?<=a(b|cd))", "not fixed length"),
    (r"(?<=\C)", r"\C not allowed in lookbehind"), ("(*MARK:x)", "with an argument"),
    ("(*UCP)a", "(*VERB) not recognized"), ("(?^)", "unrecognized character after (?"),
    ("(?n)", "unrecognized character after (?"), ("(?(VERSION>=10)a)", "malformed number"),
    ("(?C{x})", "closing ) for (?C"), ("(?C256)", "number after (?C is > 255"),
    ("[[:<:]]", "unknown POSIX class name"), (r"\x{100}", r"\x{...} sequence is too large"),
    (r"[\Q\E]", "missing terminating ]"), (r"[\E]", "missing terminating ]"),
    (r"[\Q\E^]", "missing terminating ]"), (r"[^\E\Q\E]", "missing terminating ]"),
    ("(?<" + "n" * 33 + ">a)", "name is too long"),
])
def test_patterns_7_9_rejects_skip_their_line(pattern, reason):
    assert reason in rejection(pattern)
    assert rejection(pattern).startswith("PCRE 7.9: ")
    config = stripper.parse_config(f'filter:\n{{\n"targetname" "/{pattern}/"\n"classname" "x"\n}}\n',
                                   pcre=1)
    assert [d.kind for d in config.diagnostics] == ["bad-regex"]     # the plugin skips it


def test_a_repeated_backslash_c_compiles_as_in_7_9():
    # \C is written as \p{Any} (one opcode, as 7.9's OP_ANYBYTE), not as a group PCRE2 would
    # copy for each repetition past its size limit
    assert found(r"^\C{20000}$", "a" * 20000) and not found(r"^\C{20000}$", "a" * 19999)
    assert found(r"^(?:\C{1000}){60}$", "a" * 60000)


@pytest.mark.parametrize("pattern", ["a(?R)?", "(?1)(a)", "(a)(?1)?", r"(?<=a|bc)", r"\d{2}(?i:x)"])
def test_patterns_both_take(pattern):
    assert rejection(pattern, 1) is None and rejection(pattern, 2) is None


@pytest.mark.parametrize("pattern", [
    "(?<1a>x)", r"\k", "(?<=x(a)+)", "(*UTF8)\xe9", r"(*UTF8)\x{e9}", r"(*UTF8)\C"])
def test_patterns_7_9_takes_but_pcre2_cannot_say_are_refused(pattern):
    with pytest.raises(BspError, match="regex /"):
        pcre.compile_caseless(pattern, pcre=1)


def test_utf8_patterns_fold_ascii_to_ascii_only():
    regex = pcre.compile_caseless("(*UTF8)^k.$", pcre=1)
    assert pcre79.translate("(*UTF8)^k.$") == "(*UTF)(?r)^k.$"
    assert regex.search("k\xc3\xa9") and not regex.search("\xe2\x84\xaa!")   # U+212A KELVIN
    assert not regex.search("k\xff")                  # not UTF-8: no match, as 7.9's BADUTF8


def test_an_unknown_version_is_an_error():
    with pytest.raises(ValueError):
        pcre.compile_caseless("a", pcre=3)


def test_pairs_and_entity_text_split_on_7_9s_white_space():
    config = 'filter:\n{\n"targetname"\x0b"x"\n"classname" "y"\n}\n'
    assert [d.kind for d in stripper.parse_config(config, pcre=1).diagnostics] == ["not-a-pair"]
    assert [p.key for p in stripper.parse_config(config).blocks[0].pairs] == ["targetname", "classname"]
    text = b'{\n"classname" "info_target"\n"targetname"\x0b"x"\n}\x00'
    assert stripper.plugin_text(text, pcre=1) == b'{\n"classname" "info_target"\n}\x00'
    assert stripper.plugin_text(text) == b'{\n"classname" "info_target"\n"targetname" "x"\n}\x00'


def test_plugin_run_reads_the_map_as_its_configs_and_refuses_a_mix():
    text = b'{\n"classname" "worldspawn"\n}\n{\n"classname" "a"\n"targetname"\x0b"x"\n}\x00'
    config = 'filter:\n{\n"targetname" "x"\n}\n'
    seven, _ = stripper.plugin_run(stripper.parse_config(config, pcre=1), text)
    two, _ = stripper.plugin_run(stripper.parse_config(config), text)
    assert seven.count(b"{") == 2 and two.count(b"{") == 1     # 7.9 never saw the targetname
    with pytest.raises(ValueError):
        stripper.plugin_run([stripper.parse_config(config, pcre=1), stripper.parse_config(config)], text)


def test_cli_pcre_switch(write_map, tmp_path):
    source = write_map(synthetic.make_map("source", {0: (
        b'{\n"classname" "worldspawn"\n}\n{\n"classname" "info_target"\n"targetname" "a"\n}\n\x00')}))
    config = tmp_path / "c.cfg"
    config.write_text('filter:\n{\n"targetname" "/^a{,2}$/"\n}\n')
    assert run_cli("patch", source, config, "--dry-run").returncode == 0         # PCRE2: removed
    seven = run_cli("patch", source, config, "--pcre", "1", "--dry-run")
    assert seven.returncode == 1 and "nothing matched" in seven.stderr          # 7.9: a literal
    config.write_text('filter:\n{\n"targetname" "/a|(?R)/"\n"classname" "info_target"\n}\n')
    lint = run_cli("patch", "--lint", config, "--pcre", "1")
    assert lint.returncode == 1 and "PCRE 7.9: recursive call could loop indefinitely" in lint.stdout
    assert run_cli("patch", "--lint", config).returncode == 0
    assert run_cli("patch", source, config, "--pcre", "3").returncode == 2


# ---------------------------------------------------------------- against libpcre 8.x

# The system's libpcre 8.x, or the one BSPEDIT_TEST_LIBPCRE names (a libpcre.so.3 unpacked from
# a distribution package, say, where none is installed).
_LIBPCRE = os.environ.get("BSPEDIT_TEST_LIBPCRE") or ctypes.util.find_library("pcre")

# Pieces whose meaning 7.9 and 8.x share (PCRE's ChangeLog); the differences are tested above.
PIECES = [
    "a", "b", "B", "0", "_", "-", " ", ".", "^", "$", r"\d", r"\D", r"\w", r"\W", r"\s", r"\S",
    r"\b", r"\B", r"\A", r"\z", r"\Z", r"\Qa.\E", r"\x41", r"\x{42}", r"\101", r"\0", r"\cA",
    r"\e", r"\n", r"\t", r"\y", r"\.", r"\{", "[abc]", "[^a]", "[a-z]", r"[\d_]", "[[:alpha:]]",
    "[[:^digit:]]", "[]a]", r"[\Qa-z\E]", r"[a\E-z]", "[.-]", r"[\w\-]", r"[\S]", r"[^\s]",
    "(", "(", ")", ")", "(?:", "(?>", "(?|", "(?<n>", "|", "|", "*", "+", "?", "{2}", "{1,3}",
    "{,2}", "{1, 2}", "{2,}", "*?", "++", "{0}", r"\1", r"\g{-1}", r"\k<n>", "(?1)", "(?R)",
    "(?i)", "(?-i)", "(?s)", "(?m)", "(?x)", "(?U)", "(?#c)", "(?=a)", "(?!b)", "(?<=a|bc)",
    r"(?<!\d{2})", "(*FAIL)", "(*COMMIT)", "(?(1)a|b)", r"[\E]]", r"[\Q\E]a]", r"[^\E]]",
    r"[\Q\E^]]", r"[\E^\E]a]", r"[\E\Q\E]-a]", "[^^]", r"\Q\E",
]
VALUES = ["", "a", "A", "ab", "aab", "b0", "01", "_-", "a.b", "abc", "x{2}", "\n", "a\nb", " ",
          "\t", "\x01", "\x1b", "{,2}", "1, 2", "A{1, 2}", "z", "]a", "\\", "\xe9", "-", "abab",
          "a1a1", "AbC_9", "aa-zz"]


# (comments, empty quotes and white space that (?x) skips may stand between it and its
# quantifier)
QUANTIFIED_LOOKAROUND = re.compile(r"\(\?<?[=!][^)]*\)(\(\?#c\)|\s|\\Q\\E)*[*+?{]")


@cache
def _libpcre() -> ctypes.CDLL:
    lib = ctypes.CDLL(_LIBPCRE)
    lib.pcre_compile.restype = ctypes.c_void_p
    lib.pcre_compile.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p),
                                 ctypes.POINTER(ctypes.c_int), ctypes.c_void_p]
    lib.pcre_exec.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int,
                              ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_int), ctypes.c_int]
    return lib


def _pcre8_matches(pattern: str, values: list[str] = VALUES) -> list[bool] | None:
    """What libpcre 8.x matches among `values` (compiled caseless), None if it rejects it."""
    lib = _libpcre()
    error, offset = ctypes.c_char_p(), ctypes.c_int()
    code = lib.pcre_compile(pattern.encode("latin-1"), 1, ctypes.byref(error),
                            ctypes.byref(offset), None)
    if not code:
        return None
    vector = (ctypes.c_int * 30)()
    return [lib.pcre_exec(code, None, v.encode("latin-1"), len(v), 0, 0, vector, 30) >= 0 for v in values]


@pytest.mark.skipif(_LIBPCRE is None, reason="no libpcre 8.x on this system")
@pytest.mark.parametrize("pattern", [
    r"[\Q\E]]", r"[\E]]", r"[\Q\E]", r"[\Q\E^]", r"[\Q\E^]]", r"[^\E]]", r"[\E^\E]a]", "[^^]",
    r"[\E\Q\E^\Q\E\E]x]", r"[\E]a]", r"[\Q\\E]", r"[\E[:digit:]]", r"[^\E^]", r"[\E", r"[\Q\E\Qa\E]",
    r"[\E]-a]", r"[\Q\E]-\]]", r"[^\E\Q\E]", r"[\Q]\E]", r"[\Q\E\E^\E]b]", r"[\c\]]", r"\c\C"])
def test_a_class_starts_as_in_libpcre_8(pattern):
    """8.x reads the start of a class as 7.9 does: any mix of \\E, \\Q\\E and one '^' skipped,
    then the next character a member, even a ']'."""
    values = ["]", "^", "a", "b", "x", "-", "\\", "E", "Q", "5", "\x1c", "\x1dC"]
    theirs = _pcre8_matches(pattern, values)
    assert (None if rejection(pattern) else [found(pattern, v) for v in values]) == theirs


@pytest.mark.full
@pytest.mark.skipif(_LIBPCRE is None, reason="no libpcre 8.x on this system")
@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=8).map("".join))
def test_the_mode_matches_what_libpcre_8_matches(pattern):
    theirs = _pcre8_matches(pattern)
    if rejection(pattern) is not None:
        # 7.9 rejects what 8.x takes only where 8.13 changed: a quantified lookaround
        assert theirs is None or (rejection(pattern) == "PCRE 7.9: nothing to repeat"
                                  and QUANTIFIED_LOOKAROUND.search(pattern)), pattern
        return
    assert theirs is not None, pattern
    ours = [found(pattern, v) for v in VALUES]
    if ours != theirs:
        # where the matchers themselves differ, `--pcre 1` follows PCRE2's by design (README):
        # 8.x's start-of-match optimisation misses matches after a lookahead (`(?=a)a*a` finds
        # no 'a'), backtracking verbs reach out of a recursion in PCRE1 only. The pattern must
        # be one where libpcre2 itself matches what bspedit matches.
        assert pcre2_reference() is not None, pattern
        assert pcre2_matches(pattern, VALUES) == ours != theirs, pattern
