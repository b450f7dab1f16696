"""PCRE2 patterns (8-bit, as Stripper:Source compiles config regexes) run with Python's `re`:
syntax that differs is translated, constructs `re` cannot emulate are refused."""
from __future__ import annotations

import re
import warnings
from functools import cache
from typing import Any


class RegexProblem(Exception):
    """A pattern PCRE2 rejects (kind "bad-regex") or `re` cannot emulate ("unsupported-regex")."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


_POSIX = {"alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
          "space": r" \t\n\x0b\f\r", "blank": r" \t", "punct": r"!-/:-@\[-`{-~", "print": " -~",
          "graph": "!-~", "cntrl": r"\x00-\x1f\x7f", "xdigit": "0-9A-Fa-f", "word": r"\w",
          "ascii": r"\x00-\x7f"}
# PCRE2 escapes that mean something else, or nothing, in Python's re (8-bit, non-UTF mode).
_ESCAPES = {"e": r"\x1b", "a": r"\x07", "E": "", "h": r"[\t \xa0]", "H": r"[^\t \xa0]",
            "v": r"[\n\x0b\f\r\x85]", "V": r"[^\n\x0b\f\r\x85]", "N": r"[^\n]",
            "R": r"(?:\r\n|[\n\x0b\f\r\x85])", "z": r"\Z", "Z": r"(?=\n?\Z)"}
_CLASS_ESCAPES = {"e": r"\x1b", "a": r"\x07", "E": "", "h": r"\t \xa0", "v": r"\n\x0b\f\r\x85"}
_NOT_IN_PCRE = "uUlLF"        # PCRE2 rejects \u \U \l \L \F; Python accepts some
_NOT_EMULATED = "KGXCpPg"     # \K \G \X \C \p \P \g: no equivalent in re
_GROUP = re.compile(r"\(\?(?:<(?P<name>[A-Za-z_]\w*)>|'(?P<quoted>[A-Za-z_]\w*)'"
                    r"|(?P<other>[|R&C+\d]|P>|-\d|\((?![\w]+\)))|(?P<flags>[a-zA-Z^-]*)(?=[:)]))")
_HEX = re.compile(r"x(?:\{(?P<braced>[0-9A-Fa-f]*)\}|(?P<short>[0-9A-Fa-f]{0,2}))|o\{(?P<oct>[0-7]*)\}")
_BACKREF = re.compile(r"k(?:<(?P<a>\w+)>|'(?P<b>\w+)'|\{(?P<c>\w+)\})")


def _code(value: str, base: int) -> str:
    number = int(value or "0", base)
    if number > 0xFF:
        raise RegexProblem("bad-regex", f"character value 0x{number:x} is too large (8-bit mode)")
    return f"\\x{number:02x}"


def _escape(pattern: str, at: int, in_class: bool) -> tuple[str, int]:
    """Translate the escape at `pattern[at] == '\\'`; return the text and where it ends."""
    if at + 1 >= len(pattern):
        return "\\", at + 1
    char = pattern[at + 1]
    if char == "Q":
        end = pattern.find("\\E", at + 2)
        literal = pattern[at + 2:] if end < 0 else pattern[at + 2:end]
        return "".join("\\" + c if not c.isalnum() else c for c in literal), \
            len(pattern) if end < 0 else end + 2
    if hex_ := _HEX.match(pattern, at + 1):
        digits = hex_.group("braced") if hex_.group("braced") is not None else hex_.group("short")
        return (_code(hex_.group("oct"), 8) if hex_.group("oct") is not None
                else _code(digits, 16)), hex_.end()
    if char == "c" and at + 2 < len(pattern):
        return _code(f"{ord(pattern[at + 2].upper()) ^ 0x40:x}", 16), at + 3
    if char in _NOT_IN_PCRE:
        raise RegexProblem("bad-regex", f"PCRE2 does not support \\{char}")
    if (ref := _BACKREF.match(pattern, at + 1)) and not in_class:
        return f"(?P={ref.group('a') or ref.group('b') or ref.group('c')})", ref.end()
    table = _CLASS_ESCAPES if in_class else _ESCAPES
    if char in table:
        return table[char], at + 2
    if char in _NOT_EMULATED or char in "kHVNR":
        raise RegexProblem("unsupported-regex", f"\\{char} has no equivalent in Python's re"
                            + (" inside [...]" if in_class else ""))
    return pattern[at:at + 2], at + 2


def _char_class(pattern: str, at: int) -> tuple[str, int]:
    """Translate the class starting at `pattern[at] == '['`."""
    out, pos = ["["], at + 1
    if pattern.startswith("^", pos):
        out.append("^")
        pos += 1
    if pattern.startswith("]", pos):
        out.append(r"\]")
        pos += 1
    while pos < len(pattern) and pattern[pos] != "]":
        if pattern.startswith("[:", pos) and (end := pattern.find(":]", pos + 2)) > 0:
            name = pattern[pos + 2:end]
            if name not in _POSIX:
                raise RegexProblem("unsupported-regex" if name.lstrip("^") in _POSIX else "bad-regex",
                                    f"POSIX class [:{name}:]" + (" (negated) has no equivalent"
                                                                 if name.startswith("^") else
                                                                 " is unknown"))
            out.append(_POSIX[name])
            pos = end + 2
        elif pattern[pos] == "\\":
            text, pos = _escape(pattern, pos, in_class=True)
            out.append(text)
        else:
            out.append("\\" + pattern[pos] if pattern[pos] in "[&~|" else pattern[pos])
            pos += 1
    if pos >= len(pattern):
        raise RegexProblem("bad-regex", "missing terminating ] for character class")
    out.append("]")
    return "".join(out), pos + 1


def _group_opening(group: re.Match[str], pattern: str, at_start: bool) -> tuple[str, int]:
    """Translate a ``(?`` opening matched by _GROUP; return the text and where it ends."""
    name, flags = group.group("name") or group.group("quoted"), group.group("flags")
    if name:
        return f"(?P<{name}>", group.end()
    if group.group("other") is not None:
        raise RegexProblem("unsupported-regex", f"{group.group()!r}... (recursion, subroutine, "
                            "branch reset, callout or condition) has no equivalent")
    setting = pattern.startswith(")", group.end())   # (?i) sets options for what follows
    if setting and set(flags) <= {"i"}:
        return "", group.end() + 1                     # the pattern is caseless already
    if not set(flags) <= set("imsx-") or (setting and (not at_start or "-" in flags)):
        raise RegexProblem("unsupported-regex", f"inline option (?{flags}) has no equivalent "
                            "(re takes option settings only at the start)")
    return group.group(), group.end()


def translate_regex(pattern: str) -> str:
    """A PCRE2 pattern (8-bit, non-UTF) as a Python ``re`` pattern with the same meaning.

    Raises RegexProblem for syntax PCRE2 rejects that Python would accept ("bad-regex")
    and for constructs ``re`` has no equivalent of ("unsupported-regex").
    """
    out, pos = [], 0
    while pos < len(pattern):
        char = pattern[pos]
        if char == "\\":
            text, pos = _escape(pattern, pos, in_class=False)
        elif char == "[":
            text, pos = _char_class(pattern, pos)
        elif pattern.startswith("(*", pos):
            raise RegexProblem("unsupported-regex", "backtracking verbs (*...) have no equivalent")
        elif pattern.startswith("(?", pos) and (group := _GROUP.match(pattern, pos)):
            text, pos = _group_opening(group, pattern, at_start=not pos)
        else:
            text, pos = char, pos + 1
        out.append(text)
    return "".join(out)


@cache
def compile_caseless(pattern: str) -> re.Pattern[str]:
    """Compile a config regex (the text between the slashes) as the plugin does: caseless."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compiled = re.compile(translate_regex(pattern), re.IGNORECASE | re.ASCII)
            tree = re._parser.parse(compiled.pattern, compiled.flags)
    except re.error as err:
        kind = "unsupported-regex" if "look-behind" in str(err) else "bad-regex"
        raise RegexProblem(kind, str(err)) from None
    if _nested_unbounded(tree, inside=False):
        raise RegexProblem("unsupported-regex", "an unbounded repeat inside another one (such as "
                            "(a+)+) can backtrack for hours in Python's re; PCRE2 gives up at its "
                            "match limit and the plugin then sees no match")
    return compiled


_UNBOUNDED = {re._constants.MAX_REPEAT, re._constants.MIN_REPEAT}


def _nested_unbounded(tree: Any, inside: bool) -> bool:
    """True if an unbounded (backtracking) repeat holds another one, at any depth."""
    for op, value in tree:
        if op in _UNBOUNDED:
            low, high, sub = value
            unbounded = high == re._constants.MAXREPEAT
            if (unbounded and inside) or _nested_unbounded(sub, inside or unbounded):
                return True
        elif op in (re._constants.SUBPATTERN,):
            if _nested_unbounded(value[-1], inside):
                return True
        elif op == re._constants.BRANCH:
            if any(_nested_unbounded(branch, inside) for branch in value[1]):
                return True
        elif op in (re._constants.ASSERT, re._constants.ASSERT_NOT):
            if _nested_unbounded(value[1], inside):
                return True
    return False
