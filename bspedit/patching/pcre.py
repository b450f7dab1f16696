"""Config regexes, run with PCRE2 itself (the `pcre2` binding) the way Stripper:Source runs them.

The plugin (parser.cpp) compiles each ``/.../`` value with ``pcre2_compile(pattern,
PCRE2_ZERO_TERMINATED, PCRE2_CASELESS, ...)``: 8-bit, not UTF, no JIT, and matches it with
``pcre2_match(code, value, length, 0, 0, match_data, NULL)``, so with PCRE2's default match,
depth and heap limits; any error (such as a limit reached) is no match. `compile_caseless`
does the same: the binding's Python-style ``\\u`` is turned off, and since its library is built
to reject ``\\C``, each ``\\C`` outside a class is written as ``(?s:.)``, which is what it
matches in 8-bit, non-UTF mode: one byte.

Its ``pcre=1`` runs a pattern as the plugin's releases up to 2022 did, with the PCRE 7.9
library they bundled (CS:GO-era servers): `bspedit.patching.pcre79` writes it as the PCRE2 pattern
that means the same, or rejects it as 7.9 does.
"""
from __future__ import annotations

import re
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


_CLASS_START = re.compile(r"\[\^?\]?")     # a ']' right after '[' or '[^' is literal


def _without_backslash_c(pattern: str) -> str:
    """`pattern` with each ``\\C`` outside a class and outside ``\\Q...\\E`` as ``(?s:.)``."""
    out, pos, in_class = [], 0, False
    while pos < len(pattern):
        char = pattern[pos]
        if pattern.startswith("\\Q", pos):
            end = pattern.find("\\E", pos)
            stop = len(pattern) if end < 0 else end + 2
            out.append(pattern[pos:stop])
            pos = stop
        elif char == "\\":
            pair = pattern[pos:pos + 2]
            out.append("(?s:.)" if pair == "\\C" and not in_class else pair)
            pos += 2
        elif in_class and pattern.startswith("[:", pos) and (end := pattern.find(":]", pos + 2)) > 0:
            out.append(pattern[pos:end + 2])
            pos = end + 2
        elif char == "[" and not in_class:
            start = _CLASS_START.match(pattern, pos)
            out.append(start.group())
            pos, in_class = start.end(), True
        else:
            in_class = in_class and char != "]"
            out.append(char)
            pos += 1
    return "".join(out)


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
        text = _without_backslash_c(pattern) if "\\C" in pattern else pattern
    else:
        raise ValueError(f"pcre must be one of {VERSIONS}, not {pcre!r}")
    raw = text.encode("latin-1")
    try:
        code = _cy.compile(raw, _cy.CompileOption.CASELESS, _ALT_BSUX | _NEVER_BACKSLASH_C)
    except pcre2.PatternError as error:
        raise RegexProblem(str(error)) from None
    return Regex(pattern, pcre2.Pattern(code, raw, pcre2.IGNORECASE, False, None), pcre)
