"""Regex edges against the engines the plugin was built with (issue 30, item 4).

PCRE2 (the default): the binding's library is built to reject ``\\C``, so bspedit runs each
``\\C`` as ``\\p{Any}``; which ``\\C`` are escapes is what PCRE2 itself reports, so ``\\c\\C`` (the
byte 0x1C, then ``C``) and every other escape that takes the characters after it mean what the
plugin's PCRE2 makes of them. They are compared here with the system's libpcre2-8 (10.42 on
Debian 12; built without that restriction, as the plugin's 10.47 is), where it is installed.

PCRE 7.9 (``--pcre 1``): right after ``[``, 7.9 skips any mix of ``\\E``, ``\\Q\\E`` and one
``^``, then takes the next character as a member even when it is ``]`` (pcre_compile.c);
tests/test_pcre79.py compares that with libpcre 8.x, which reads a class start the same way.

Each reproducer also runs through ``bspedit patch`` on a small map.
"""
from __future__ import annotations

import ctypes
import ctypes.util
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import synthetic
from bspedit.bsp import Bsp
from bspedit.lumps.entities import EntityLump
from bspedit.patching import pcre
from conftest import run_cli

TINY = Path(__file__).resolve().parent / "data" / "tiny.bsp"

# The issue's reproducers: PCRE2 compiles each (0x1C or ESC first), bspedit's old rewrite of
# \C broke them.
C_THEN_BACKSLASH = [r"\c\C", r"\c\\C", r"\c[\C", r"\c\Q\C"]


# ---------------------------------------------------------------- the reference: libpcre2-8

_LIBPCRE2 = ctypes.util.find_library("pcre2-8")
_CASELESS, _CONFIG_NEVER_BACKSLASH_C = 0x00000008, 13


@cache
def _libpcre2() -> ctypes.CDLL | None:
    """The system's libpcre2-8, or None where it is missing or rejects \\C itself."""
    if _LIBPCRE2 is None:
        return None
    lib = ctypes.CDLL(_LIBPCRE2)
    never = ctypes.c_uint32()
    if lib.pcre2_config_8(_CONFIG_NEVER_BACKSLASH_C, ctypes.byref(never)) < 0 or never.value:
        return None
    lib.pcre2_compile_8.restype = ctypes.c_void_p
    lib.pcre2_compile_8.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint32,
                                    ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_size_t),
                                    ctypes.c_void_p]
    lib.pcre2_match_data_create_from_pattern_8.restype = ctypes.c_void_p
    lib.pcre2_match_data_create_from_pattern_8.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    lib.pcre2_match_8.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_size_t,
                                  ctypes.c_uint32, ctypes.c_void_p, ctypes.c_void_p]
    lib.pcre2_match_data_free_8.argtypes = [ctypes.c_void_p]
    lib.pcre2_code_free_8.argtypes = [ctypes.c_void_p]
    return lib


needs_libpcre2 = pytest.mark.skipif(
    _libpcre2() is None, reason="no libpcre2-8 that takes \\C on this system")

VALUES = ["", "a", "C", "c", "CC", "aC", "\x1cC", "\x1c!", "\x1c", "\x1b", "\x1bz", "\x1cQz",
          "\x1cQ", "Q", "E", "]", "]C", "a]", "\n", "\xe9", "ab", "\x00", "\x00C", "\\", "\\C",
          "x", "(", "#", "n", "1", "A1"]


def reference(pattern: str, values: list[str] = VALUES) -> list[bool] | None:
    """What libpcre2-8 matches among `values`, compiled as the plugin compiles (caseless, from
    a C string); None where it rejects the pattern. A match error is no match, as in the
    plugin."""
    lib = _libpcre2()
    raw = pattern.encode("latin-1")
    error, offset = ctypes.c_int(), ctypes.c_size_t()
    code = lib.pcre2_compile_8(raw, len(raw), _CASELESS, ctypes.byref(error),
                               ctypes.byref(offset), None)
    if not code:
        return None
    data = lib.pcre2_match_data_create_from_pattern_8(code, None)
    try:
        return [lib.pcre2_match_8(code, v.encode("latin-1"), len(v), 0, 0, data, None) >= 0
                for v in values]
    finally:
        lib.pcre2_match_data_free_8(data)
        lib.pcre2_code_free_8(code)


def ours(pattern: str) -> list[bool] | None:
    try:
        regex = pcre.compile_caseless(pattern)
    except pcre.RegexProblem:
        return None
    return [regex.search(v) for v in VALUES]


# Every escape that reads characters after its letter, and every place a \C is no escape,
# inside and outside classes, next to a \C.
ESCAPES = C_THEN_BACKSLASH + [
    r"\c\E\C", r"\cC\C", r"\c\\\C", r"\c]\C", r"[\c]\C]", r"[\c\]\C", r"[\c\]]\C", r"\c",
    r"\x43\C", r"\x{43}\C", r"\x{\C}", r"\x4\C", r"[\x5d]\C", r"[\x{5d}\C]",
    r"\o{103}\C", r"\o{\C}", r"\o\C", r"[\o{135}]\C", r"\N{U+43}\C", r"\N\C", r"\N{\C}",
    r"\p{L}\C", r"\P{L}\C", r"\pL\C", r"\p{\C}", r"[\p{L}]\C", r"[\pL\C]",
    r"(a)\g1\C", r"(a)\g{1}\C", r"(a)\g-1\C", r"(a)\g{-1}\C", r"(?<n>a)\g{n}\C",
    r"(?<n>a)\g<n>\C", r"(?<n>a)\g'n'\C", r"\g<\C>", r"(a)\g<1>\C",
    r"(?<n>a)\k<n>\C", r"(?<n>a)\k{n}\C", r"(?<n>a)\k'n'\C", r"\k<\C>", r"(?P<n>a)(?P=n)\C",
    r"\Q\C\E\C", r"\Q\C", r"\E\C", r"\Q\E\C", r"\Q\\E\C", r"[\Q\C\E]\C", r"[\Q]\C\E]",
    r"[\C]", r"[]\C]", r"[^]\C]", r"[\E]\C]", r"[\Q\E]\C]", r"[^\Q\E]]\C", r"[[:alpha:]\C]",
    r"[[:alpha:]]\C", r"[a-\C]", r"\\C", r"\\\C", r"\\\\C",
    r"(?#\C)\C", r"(?#\C", "(?x)#\\C\n\\C", "(?x)#[\n\\C", "(?x)\\ \\C", "(?xx)[ \\C]",
    r"(*MARK:\C)\C", r"(*:\C)a", r"(*MARK:\c)\C", r'(?C"\C")\C', r"(?C1)\C",
    r"\C+", r"\C{2}", r"\C{2,}C", r"\C*?C", r"\C++", r"(?<=\C)C", r"(?<=\C\C)C", r"(?<!\C)C",
    r"a\K\C", r"\0\C", r"\01\C", r"\012\C", r"\8\C", r"\18\C", r"(?i)\C", r"(?s:\C)",
    r"(?(DEFINE)\C)\C", r"\b\C\B", r"\R\C", r"\X\C", r"\h\C", r"\u\C", r"\C\E", r"(\C)\1",
    r"(?|(\C)|(a))\1", r"^\C$", r"\C\C", r"[\\]\C", r"\[\C]",
]


@needs_libpcre2
@pytest.mark.parametrize("pattern", ESCAPES)
def test_backslash_c_is_where_pcre2_reads_it(pattern):
    assert ours(pattern) == reference(pattern)


def test_c_takes_the_character_after_it_even_a_backslash():
    assert pcre.compile_caseless(r"\c\C").search("\x1cC")      # 0x1C, then C
    assert not pcre.compile_caseless(r"\c\C").search("C")
    assert pcre.compile_caseless(r"\c\\C").search("\x1c!")     # 0x1C, then \C: one byte
    assert pcre.compile_caseless(r"\c[\C").search("\x1bz")     # ESC, then \C
    assert pcre.compile_caseless(r"\c\Q\C").search("\x1cQ!")   # 0x1C, Q, then \C
    assert pcre.compile_caseless(r"(?#\C)a").code.pattern == rb"(?#\C)a"    # a comment: kept
    assert pcre.compile_caseless(r"\c\\C").code.pattern == rb"\c\\p{Any}"


def test_a_repeated_backslash_c_compiles_as_in_the_plugin():
    # \p{Any} is one opcode as \C is; a group ((?s:.)) is copied for each repetition and
    # passed PCRE2's size limit here
    assert pcre.compile_caseless(r"^\C{20000}$").search("a" * 20000)
    assert pcre.compile_caseless(r"^(?:\C{1000}){60}$").search("a" * 60000)


def test_a_utf_pattern_with_backslash_c_is_refused():
    from bspedit.errors import BspError
    with pytest.raises(BspError, match="regex /"):
        pcre.compile_caseless(r"(*UTF)\C")


# Pieces of PCRE2 syntax that read the characters after them, whose meaning is the same in
# 10.42 (the reference) and 10.47 (the plugin, the binding): no ',' or space (10.43 reads
# {,2} and {1, 2} as quantifiers), no open lookbehind (10.43 takes variable lengths), no \x
# without a hex digit (10.42 reads a zero byte, 10.47 rejects it) and no \k (10.47 takes it in a
# class, 10.42 does not); ESCAPES has each outside a class.
PIECES = [
    "a", "C", "c", "1", "n", "]", "[", "^", "-", "(", ")", "|", "*", "+", "?", "{2}", "{", "}",
    "<", ">", "'", "\\", "\\C", "\\c", "\\Q", "\\E", "\\x4", "\\x{4", "4", "3", "\\o{", "\\N",
    "\\N{", "\\p", "\\p{", "L", "\\g", "\\g{", "(?<n>", "(?#", "(?x)", "#", "\n",
    "(*MARK:", "(*:", "[:alpha:]", "(?<=\\C)", '(?C"', '"', "\\\\", "\\]", "[\\Q\\E]", "[\\E",
]


def _pieces_agree(pattern: str) -> None:
    assert ours(pattern) == reference(pattern), pattern


@needs_libpcre2
@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=10).map("".join))
def test_generated_patterns_match_what_libpcre2_matches(pattern):
    _pieces_agree(pattern)


@pytest.mark.full
@needs_libpcre2
@settings(max_examples=5000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=16).map("".join))
def test_many_generated_patterns_match_what_libpcre2_matches(pattern):
    _pieces_agree(pattern)


# ---------------------------------------------------------------- through bspedit patch

def entity_map(write_map, *targetnames: str) -> Path:
    """A map: worldspawn, then one info_target per name."""
    text = b'{\n"classname" "worldspawn"\n}\n' + b"".join(
        b'{\n"classname" "info_target"\n"targetname" "' + name.encode("latin-1") + b'"\n}\n'
        for name in targetnames)
    return write_map(synthetic.make_map("source", {0: text + b"\0"}))


def targetnames(path: Path) -> list[str]:
    with Bsp.open(path) as bsp:
        return [e.get("targetname") for e in EntityLump.parse(bsp.entities().to_bytes())
                if e.get("classname") == "info_target"]


def write_config(tmp_path: Path, *pairs: str, name: str = "patch.cfg") -> Path:
    path = tmp_path / name
    path.write_bytes(("filter:\n{\n" + "".join(f"{p}\n" for p in pairs) + "}\n").encode("latin-1"))
    return path


@pytest.mark.parametrize("pattern", C_THEN_BACKSLASH)
def test_the_issues_filter_compiles_and_removes_nothing(pattern, tmp_path):
    """filter: { "classname" "/\\c\\C/" }: the plugin compiles it, matches nothing, removes
    nothing, with or without --force."""
    cfg = write_config(tmp_path, f'"classname" "/{pattern}/"')
    lint = run_cli("patch", "--lint", cfg)
    assert lint.returncode == 0 and "bad-regex" not in lint.stdout, lint.stdout
    original, out = TINY.read_bytes(), tmp_path / "out.bsp"
    for force in ([], ["--force"]):
        result = run_cli("patch", TINY, cfg, "-o", out, *force)
        assert result.returncode == 1, result.stderr
        assert "nothing matched" in result.stderr and "bad-regex" not in result.stderr
        assert f"{cfg}:2: filter: matched nothing" in result.stdout.splitlines()
        assert "entities: 3 before, 3 after" in result.stdout.splitlines()
        assert not out.exists()
    assert TINY.read_bytes() == original


@pytest.mark.parametrize("pattern, value", [
    (r"\c\C", "a\x1cCb"), (r"\c\\C", "\x1c!"), (r"\c[\C", "\x1bz"), (r"\c\Q\C", "\x1cQ!")])
def test_c_then_backslash_removes_what_pcre2_matches(pattern, value, write_map, tmp_path):
    source = entity_map(write_map, value, "C", "\x1c", "x")
    out = tmp_path / "out.bsp"
    result = run_cli("patch", source, write_config(tmp_path, f'"targetname" "/{pattern}/"'), "-o", out)
    assert result.returncode == 0, result.stderr
    assert "entities: 5 before, 4 after" in result.stdout.splitlines()
    assert targetnames(out) == ["C", "\x1c", "x"]


@pytest.mark.parametrize("pattern", [r"^[\Q\E]]$", r"^[\E]]$", r"^[\E\Q\E\E]]$"])
@pytest.mark.parametrize("version", ["1", "2"])
def test_a_bracket_after_skipped_escapes_is_a_member(pattern, version, write_map, tmp_path):
    """[\\Q\\E]] and [\\E]] are the class of ']' in 7.9 (and in PCRE2)."""
    source = entity_map(write_map, "]", "a", "^")
    out = tmp_path / "out.bsp"
    cfg = write_config(tmp_path, f'"targetname" "/{pattern}/"')
    result = run_cli("patch", source, cfg, "--pcre", version, "-o", out)
    assert result.returncode == 0, result.stderr
    assert f"{cfg}:2: filter: removed 1 entity: info_target ']'" in result.stdout.splitlines()
    assert targetnames(out) == ["a", "^"]


@pytest.mark.parametrize("version", ["1", "2"])
def test_a_caret_after_skipped_escapes_negates(version, write_map, tmp_path):
    """[\\Q\\E^]] is a negated class of ']'."""
    source = entity_map(write_map, "]", "a", "^")
    out = tmp_path / "out.bsp"
    cfg = write_config(tmp_path, r'"targetname" "/^[\Q\E^]]$/"')
    result = run_cli("patch", source, cfg, "--pcre", version, "-o", out)
    assert result.returncode == 0, result.stderr
    assert targetnames(out) == ["]"]


@pytest.mark.parametrize("pattern", [r"[\Q\E]", r"[\Q\E^]", r"[\E]"])
def test_an_unterminated_class_skips_its_line_in_7_9(pattern, write_map, tmp_path):
    """[\\Q\\E] has no closing ']' (its ']' is a member): 7.9 rejects it, the plugin skips the
    line, so the block filters by its other pair only: refused unless --force, which removes
    every info_target as the plugin does."""
    source = entity_map(write_map, "]", "a")
    cfg = write_config(tmp_path, '"classname" "info_target"', f'"targetname" "/{pattern}/"')
    lint = run_cli("patch", "--lint", cfg, "--pcre", "1")
    assert lint.returncode == 1
    assert (f"{cfg}:4: bad-regex: /{pattern}/: PCRE 7.9: missing terminating ] for character "
            "class; the plugin skips this line") in lint.stdout, lint.stdout
    original, out = source.read_bytes(), tmp_path / "out.bsp"
    refused = run_cli("patch", source, cfg, "--pcre", "1", "-o", out)
    assert refused.returncode == 1 and not out.exists() and source.read_bytes() == original
    assert ":4: bad-regex:" in refused.stderr and "--force" in refused.stderr, refused.stderr
    forced = run_cli("patch", source, cfg, "--pcre", "1", "--force", "-o", out)
    assert forced.returncode == 0, forced.stderr
    assert f"{cfg}:2: filter: removed 2 entities: info_target ']', info_target 'a'" in \
        forced.stdout.splitlines(), forced.stdout
    assert targetnames(out) == []
