"""Config regexes, run with PCRE2 itself (the `pcre2` binding) the way Stripper:Source runs them.

The plugin (parser.cpp) compiles each ``/.../`` value with ``pcre2_compile(pattern,
PCRE2_ZERO_TERMINATED, PCRE2_CASELESS, ...)``: 8-bit, not UTF, no JIT, and matches it with
``pcre2_match(code, value, length, 0, 0, match_data, NULL)``, so with PCRE2's default match,
depth and heap limits; any error (such as a limit reached) is no match. `compile_caseless`
does the same: the binding's Python-style ``\\u`` is turned off, and since its library is built
to reject ``\\C``, each ``\\C`` outside a class is written as ``(?s:.)``, which is what it
matches in 8-bit, non-UTF mode: one byte.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

import pcre2
from pcre2 import _cy

# pcre2.h option bits the binding sets on every pattern and the plugin does not.
_ALT_BSUX, _NEVER_BACKSLASH_C = 0x00000002, 0x00100000


class RegexProblem(Exception):
    """A pattern PCRE2 rejects, with PCRE2's reason: the plugin skips its line."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Regex:
    """A compiled config regex (`pattern` is the text between the slashes, as latin-1)."""

    pattern: str
    code: pcre2.Pattern = field(compare=False, repr=False)

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
def compile_caseless(pattern: str) -> Regex:
    """Compile a config regex (the text between the slashes) as the plugin does: caseless.

    Raises RegexProblem where PCRE2 rejects the pattern.
    """
    raw = (_without_backslash_c(pattern) if "\\C" in pattern else pattern).encode("latin-1")
    try:
        code = _cy.compile(raw, _cy.CompileOption.CASELESS, _ALT_BSUX | _NEVER_BACKSLASH_C)
    except pcre2.PatternError as error:
        raise RegexProblem(str(error)) from None
    return Regex(pattern, pcre2.Pattern(code, raw, pcre2.IGNORECASE, False, None))
