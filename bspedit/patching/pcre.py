"""Config regexes, run with PCRE2 itself (the `pcre2` binding) the way Stripper:Source runs them.

The plugin (parser.cpp) compiles each ``/.../`` value with ``pcre2_compile(pattern,
PCRE2_ZERO_TERMINATED, PCRE2_CASELESS, ...)``: 8-bit, not UTF, no JIT, and matches it with
``pcre2_match(code, value, length, 0, 0, match_data, NULL)``, so with PCRE2's default match,
depth and heap limits; any error (such as a limit reached) is no match. `compile_caseless`
does the same: the binding's Python-style ``\\u`` is turned off, and since its library is built
to reject ``\\C`` (``--enable-never-backslash-C``), each ``\\C`` is run as ``\\p{Any}``: in 8-bit,
non-UTF mode both match one byte and compile to one opcode of the same size. The ``\\C`` escapes
are the ones PCRE2 itself finds: the binding's library stops at each with its error 85, whose
offset is just past the escape, so no scanner of bspedit's decides what is an escape (``\\c\\C``
is the byte 0x1C and a ``C``; ``\\Q\\C``, ``[\\C]``, ``(?#\\C)``, ``(*MARK:\\C)`` and a ``(?x)``
comment hold none).

Its ``pcre=1`` runs a pattern as the plugin's releases up to 2022 did, with the PCRE 7.9
library they bundled (CS:GO-era servers): `bspedit.patching.pcre79` writes it as the PCRE2 pattern
that means the same, or rejects it as 7.9 does.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Literal

import pcre2
from pcre2 import _cy

from . import pcre79
from ..errors import BspError

Version = Literal[1, 2]
VERSIONS: tuple[Version, ...] = (2, 1)     # 2, the default: the plugin's current releases
# What separates a pair's key and value for the plugin (its "([^"]+)"\s+"([^"]+)"): PCRE 7.9's
# \s has no VT (\x0b), PCRE2's (and Python's) has.
PAIR_SPACE: dict[Version, str] = {2: r"\s", 1: r"[\t\n\f\r ]"}

# pcre2.h option bits the binding sets on every pattern and the plugin does not.
_ALT_BSUX, _NEVER_BACKSLASH_C = 0x00000002, 0x00100000


class RegexProblem(Exception):
    """A pattern the PCRE library rejects, with its reason: the plugin skips its line."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Regex:
    """A compiled config regex (`pattern` is the text between the slashes, as latin-1;
    `pcre` the PCRE version whose meaning it has)."""

    pattern: str
    code: pcre2.Pattern = field(compare=False, repr=False)
    pcre: Version = 2

    def search(self, value: str) -> bool:
        """Whether the regex matches anywhere in `value` (latin-1 text, one character per byte);
        a match that fails with an error (a match limit reached) is no match, as in the plugin."""
        try:
            return self.code.search(value.encode("latin-1")) is not None
        except pcre2.LibraryError:
            return False


# PCRE2's error 85 ("using \\C is disabled in this PCRE2 library"), as the binding numbers it.
_BACKSLASH_C_DISABLED = 185
# One byte in 8-bit, non-UTF mode, as \C; PCRE2 compiles it to OP_ALLANY, one opcode as \C's
# OP_ANYBYTE, so a repeated one (\C{20000}) compiles to what the plugin's does (a group such as
# (?s:.) would be copied for each repetition and could pass PCRE2's size limit).
ANY_BYTE = rb"\p{Any}"


def _compile(raw: bytes) -> tuple[object, bytes]:
    """The binding's compiled `raw` (caseless, the plugin's options) and the text it compiled:
    `raw` with each ``\\C`` PCRE2 reads as that escape written as ANY_BYTE.

    The binding's library rejects ``\\C`` (error 85, at the offset just past the escape, raised
    while PCRE2 reads the pattern from left to right): each is replaced where PCRE2 reports
    it, and the pattern compiled again, so what is an escape is decided by PCRE2 itself.
    Raises pcre2.PatternError for any other error, BspError for a UTF pattern holding ``\\C``
    (there it matches one byte of a character, which ANY_BYTE cannot say).
    """
    replaced = False
    while True:
        try:
            code = _cy.compile(raw, _cy.CompileOption.CASELESS, _ALT_BSUX | _NEVER_BACKSLASH_C)
        except pcre2.PatternError as error:
            end = error.pos
            if error.code != _BACKSLASH_C_DISABLED:
                raise
            if raw[end - 2:end] != b"\\C":       # never: error 85 is raised only there
                raise BspError(f"PCRE2 reported \\C at offset {end} of {raw!r}") from None
            raw = raw[:end - 2] + ANY_BYTE + raw[end:]
            replaced = True
            continue
        if replaced and _cy.pattern_is_utf(code):
            raise BspError("a UTF pattern with \\C (one byte of a character) cannot be run")
        return code, raw


@cache
def compile_caseless(pattern: str, *, pcre: Version = 2) -> Regex:
    """Compile a config regex (the text between the slashes) as the plugin does: caseless,
    with PCRE2 (`pcre` 2) or with the meaning PCRE 7.9 gives it (`pcre` 1).

    Raises RegexProblem where that PCRE rejects the pattern, BspError for the few PCRE 7.9
    patterns bspedit cannot run faithfully (`bspedit.patching.pcre79`).
    """
    if pcre == 1:
        try:
            text = pcre79.translate(pattern)
        except pcre79.Rejected as error:
            raise RegexProblem(f"PCRE 7.9: {error}") from None
        except pcre79.Unsupported as error:
            raise BspError(f"regex /{pattern}/: {error}") from None
    elif pcre == 2:
        text = pattern
    else:
        raise ValueError(f"pcre must be one of {VERSIONS}, not {pcre!r}")
    try:
        code, raw = _compile(text.encode("latin-1"))
    except pcre2.PatternError as error:
        raise RegexProblem(str(error)) from None
    except BspError as error:
        raise BspError(f"regex /{pattern}/: {error}") from None
    return Regex(pattern, pcre2.Pattern(code, raw, pcre2.IGNORECASE, False, None), pcre)
