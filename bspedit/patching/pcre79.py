"""PCRE 7.9 patterns written as PCRE2 patterns: the config regexes of CS:GO-era servers.

Stripper:Source releases up to 2022 linked the PCRE 7.9 library they bundled (8-bit, built
without Unicode property support), compiling each regex with ``PCRE_CASELESS``; later releases
use PCRE2. No PCRE 7.x or 8.x engine ships as a wheel (python-pcre, the only PCRE1 binding on
PyPI, is a 2015 source package that links the system's libpcre 8.x), and the `pcre2` binding
passes no compile context, so no PCRE2 extra option is at hand either. `translate` therefore
reads a pattern the way 7.9's ``pcre_compile`` does and writes the PCRE2 pattern that matches
the same strings, or raises Rejected with 7.9's message where 7.9 rejects it (the plugin then
skips the line). The differences, from PCRE's ChangeLog (8.00 to 8.39) and PCRE2's:

- ``{,2}``, ``{1, 2}``: only ``{n}``, ``{n,}``, ``{n,m}`` are quantifiers; any other ``{`` is
  a literal (PCRE2 10.43 reads the others as quantifiers too);
- ``\\N`` and ``\\L \\l \\U \\u`` are errors; ``\\o`` and the other letters with no meaning
  (``\\F \\I \\J \\M \\O \\T \\Y \\i \\j \\m \\q \\y``) are the letter itself (errors under
  ``(?X)``, 7.9's PCRE_EXTRA option); ``\\x`` without hex digits, ``\\x{}`` and an unclosed
  ``\\x{..`` are a zero byte; so is ``\\8`` in a class, and ``\\81`` outside one with fewer
  than 81 groups, followed by the digits as text; ``\\c`` takes any byte;
- ``\\s`` does not match VT (``\\x0b``), as before Perl 5.18 (``[[:space:]]`` does), and in
  ``(?x)`` mode a VT is not white space;
- in a class, a ``-`` after or before ``\\d``, ``\\s``, ``\\w``, ``\\h``, ``\\v`` (or their
  negations) or a POSIX class is a literal; ``\\B \\R \\X \\A \\p ...`` are their letter;
  ``[[:<:]]`` and ``[[:>:]]`` are unknown POSIX classes;
- ``\\p``, ``\\P`` and ``\\X`` outside a class are errors (no Unicode property support);
- a quantifier after a lookaround (``(?=a)*``) or a DEFINE group is an error;
- a recursion or subroutine call that could loop (``(?R)?``, ``a|(?R)``, ``(a|(?1))``) is an
  error, by 7.9's could_be_empty (which takes ``\\h``, ``\\v``, ``\\R``, back references and
  one-branch conditions as possibly empty);
- each alternative of a lookbehind must have a fixed length by 7.9's rules (``\\h``, ``\\v``,
  ``\\R``, ``\\K``, verbs, calls, back references and ``[^a]{2}`` have none) and hold no
  ``\\C``; PCRE2 10.43 takes variable-length lookbehinds;
- ``(*VERB:NAME)``, ``(*MARK)``, PCRE2's other verbs and start-of-pattern items, ``(?^)``,
  ``(?n)``, ``(?(VERSION..)``, ``(?C"text")`` and names longer than 32 are errors;
  ``(?(R2)`` with no group 2 is a test that is never true.

A few patterns 7.9 takes cannot be written faithfully and raise Unsupported (bspedit refuses
the config): a group name starting with a digit (PCRE2 rejects it), ``\\k`` without a name
(7.9 compiles something unpredictable), a lookbehind holding a group repeated without limit
(7.9 counts ``(a)+`` as one ``a``), and a ``(*UTF8)`` pattern with a character above 0x7f or
``\\C``. What stays PCRE2's: behaviour at matching time where 7.9 differs (both stop at a
match limit of 10,000,000, counted differently; 7.9's back references inside their own
repeated group and backtracking verbs inside assertions).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field


class Rejected(ValueError):
    """A pattern PCRE 7.9 rejects; the message is 7.9's."""


class Unsupported(ValueError):
    """A pattern 7.9 accepts that this translation cannot write as PCRE2 faithfully."""


BYTE = -2             # the fixed length 7.9 gives \C: an error in a lookbehind
END = "\0"            # what the reader sees past the end (patterns are C strings)
_SPACE = " \t\n\f\r"  # 7.9's \s and (?x) white space: no VT
_DIGITS = frozenset("0123456789")
_OCTAL = frozenset("01234567")
_HEX = frozenset("0123456789abcdefABCDEF")
_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_WORD = _LETTERS | _DIGITS | {"_"}
_SIMPLE = {"a": 7, "e": 27, "f": 12, "n": 10, "r": 13, "t": 9}
_TYPES = {"d": r"\d", "D": r"\D", "w": r"\w", "W": r"\W", "s": r"[\t\n\f\r\x20]",
          "S": r"[^\t\n\f\r\x20]"}
_CLASS_TYPES = {"d": r"\d", "D": r"\D", "w": r"\w", "W": r"\W", "h": r"\h", "H": r"\H",
                "v": r"\v", "V": r"\V", "s": r"\t\n\f\r\x20", "S": r"[:^space:]\x0b"}
_HV = frozenset("hHvVR")       # \h \v \R: 7.9 gives them no fixed length and can be empty
_ANCHORS = {"A": r"\A", "z": r"\z", "Z": r"\Z", "G": r"\G", "b": r"\b", "B": r"\B"}
_SPECIAL = frozenset("ABCGKPXZkpz")    # escapes a class takes as their letter (\R \X always)
_UNSUPPORTED = frozenset("LlNUu")
_KNOWN = frozenset("ABCDEGHKPQRSVWXZabcdefghknprstvwxz")    # letters with a meaning in 7.9
_POSIX = frozenset({"alpha", "lower", "upper", "alnum", "ascii", "blank", "cntrl", "digit",
                    "graph", "print", "punct", "space", "word", "xdigit"})
_VERBS = frozenset({"ACCEPT", "COMMIT", "F", "FAIL", "PRUNE", "SKIP", "THEN"})
_START = ("UTF8)", "CR)", "LF)", "CRLF)", "ANYCRLF)", "ANY)", "BSR_ANYCRLF)", "BSR_UNICODE)")
_NEWLINES = {"CR)": "\r", "LF)": "\n", "CRLF)": "\n", "ANYCRLF)": "\r\n", "ANY)": "\r\n\x0b\x0c\x85"}
_OPTIONS = frozenset("imsxJUX")
_MAX_NAME = 32
_RECURSION_TEST = re.compile(r"R[0-9]+")
_RECURSION_MARK = re.compile(r"\0(R[0-9]+)\0")    # a (?(Rn) until the group count is known

_ERRORS = {
    1: "\\ at end of pattern", 2: "\\c at end of pattern",
    3: "unrecognized character follows \\", 4: "numbers out of order in {} quantifier",
    5: "number too big in {} quantifier", 6: "missing terminating ] for character class",
    7: "invalid escape sequence in character class", 8: "range out of order in character class",
    9: "nothing to repeat", 12: "unrecognized character after (? or (?-",
    13: "POSIX named classes are supported only within a class", 14: "missing )",
    15: "reference to non-existent subpattern", 18: "missing ) after comment",
    22: "unmatched parentheses", 24: "unrecognized character after (?<",
    25: "lookbehind assertion is not fixed length", 26: "malformed number or name after (?(",
    28: "assertion expected after (?(", 29: "(?R or (?[+-]digits must be followed by )",
    30: "unknown POSIX class name", 31: "POSIX collating elements are not supported",
    34: "character value in \\x{...} sequence is too large",
    36: "\\C not allowed in lookbehind assertion",
    37: "PCRE does not support \\L, \\l, \\N, \\U, or \\u", 38: "number after (?C is > 255",
    39: "closing ) for (?C expected", 40: "recursive call could loop indefinitely",
    41: "unrecognized character after (?P",
    42: "syntax error in subpattern name (missing terminator)",
    45: "support for \\P, \\p, and \\X has not been compiled",
    48: "subpattern name is too long (maximum 32 characters)",
    51: "octal value is greater than \\377 (not in UTF-8 mode)",
    55: "repeating a DEFINE group is not allowed",
    57: "\\g is not followed by a braced name or an optionally braced non-zero number",
    58: "a numbered reference must not be zero",
    59: "(*VERB) with an argument is not supported", 60: "(*VERB) not recognized",
    62: "subpattern name expected", 63: "digit expected after (?+",
}


def _utf_beyond_ascii() -> Unsupported:
    return Unsupported("a (*UTF8) pattern is run only when it holds no character above 0x7f "
                       "and no \\C")


def _fail(code: int) -> Rejected:
    return Rejected(_ERRORS[code])


@dataclass(frozen=True, slots=True)
class _Item:
    """One compiled item: its PCRE2 text and what 7.9's compiler derives from it.

    `kind` selects 7.9's rules for a quantifier on it; `width` is 7.9's fixed length (None:
    variable, BYTE: \\C); `empty` is 7.9's could_be_empty; `repeatable` whether a quantifier
    may follow (pcre_compile's "previous"); `miscounted` whether it holds a group repeated
    without limit, which 7.9's fixed length counts once.
    """

    text: str
    kind: str = "char"      # char not type class byte hv group define ref call zero
    width: int | None = 1
    empty: bool = False
    repeatable: bool = True
    miscounted: bool = False


def _zero(text: str, width: int | None = 0) -> _Item:
    """An item that matches no character and takes no quantifier."""
    return _Item(text, "zero", width, True, False)


def _ref(text: str) -> _Item:
    return _Item(text, "ref", None, True)


def _literal(code: int) -> str:
    """One byte as a PCRE2 literal that means the same in and out of a class."""
    char = chr(code)
    if char in _WORD:
        return char
    return "\\" + char if 0x20 < code < 0x7f else f"\\x{{{code:02x}}}"


def _quantified(item: _Item, low: int, high: int | None, text: str) -> _Item:
    """`item` with a quantifier, as 7.9 compiles it: a repeat opcode for one character
    (EXACT, UPTO, PLUS...), copies of a group (BRAZERO before an optional one)."""
    miscounted = item.miscounted
    if item.kind in ("ref", "call"):
        width, empty = None, True
    elif item.kind in ("group", "define"):
        empty = low == 0 or item.empty
        if low == 0 or high not in (None, low):
            width = None
        else:       # (a)+ counts as one (a): 7.9's find_fixedlength stops at its KETRMAX
            width = item.width if item.width in (None, BYTE) else item.width * low
            miscounted = miscounted or high is None
    else:
        if high == 0:
            width = 0
        elif low == high:
            width = item.width if low == 1 else None if item.kind == "not" else low
        else:
            width = None
        empty = low < 2 and not (low == 1 and high is None) if item.kind == "hv" else low == 0
    return _Item(item.text + text, item.kind, width, empty, False, miscounted)


def _sequence_width(items: list[_Item]) -> int | None:
    """7.9's fixed length of a run of items (None: variable; BYTE: holds \\C)."""
    total = 0
    for item in items:
        if item.width is None or item.width == BYTE:
            return item.width
        total += item.width
    return total


def _group_width(alternatives: list[list[_Item]]) -> int | None:
    """7.9's fixed length of a group: its alternatives' when they all have the same."""
    widths = [_sequence_width(items) for items in alternatives]
    for width in widths:
        if width is None or width == BYTE:
            return width
    return widths[0] if len(set(widths)) == 1 else None


@dataclass(eq=False, slots=True)
class _Group:
    """A group being read: what 7.9's compiler knows of it meanwhile."""

    kind: str                      # top capture group look behind cond define
    extended: bool = False         # (?x)
    extra: bool = False            # (?X): PCRE_EXTRA
    number: int | None = None      # capture number, 0 for the whole pattern
    reset: tuple[int, int] | None = None     # (?|: the count at its start, the highest
    items: list[_Item] = field(default_factory=list)      # the current alternative
    alternatives: list[list[_Item]] = field(default_factory=list)

    def inner(self, kind: str, number: int | None = None,
              reset: tuple[int, int] | None = None) -> _Group:
        """A group opened inside this one, with its option flags."""
        return _Group(kind, self.extended, self.extra, number, reset)


class _Translator:
    """One pass over a pattern with 7.9's syntax, building the PCRE2 text."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.pos = 0
        self.count = 0                 # capture groups opened so far (7.9's bracount)
        self.newline = "\n"
        self.utf = False               # (*UTF8)
        self.open: list[_Group] = []
        self.first: dict[int, _Group] = {}     # the first group with each number
        self.names: dict[str, int] = {}

    # -- reading

    def peek(self, offset: int = 0) -> str:
        index = self.pos + offset
        return self.pattern[index] if index < len(self.pattern) else END

    def at(self, text: str) -> bool:
        return self.pattern.startswith(text, self.pos)

    def take(self, chars: frozenset[str]) -> str:
        start = self.pos
        while self.peek() in chars:
            self.pos += 1
        return self.pattern[start:self.pos]

    # -- the whole pattern

    def translate(self) -> str:
        head = []
        while self.at("(*"):
            item = next((s for s in _START if self.pattern.startswith(s, self.pos + 2)), None)
            if item is None:
                break
            self.pos += 2 + len(item)
            head.append("(*UTF)" if item == "UTF8)" else f"(*{item}")
            self.newline = _NEWLINES.get(item, self.newline)
            self.utf = self.utf or item == "UTF8)"
        if self.utf:
            if max(self.pattern) > "\x7f":
                raise _utf_beyond_ascii()
            head.append("(?r)")         # ASCII letters fold to ASCII only, as in 7.9
        top = _Group("top", number=0)
        self.first[0] = top
        alternatives = self.alternatives(top)
        if self.pos < len(self.pattern):      # a ')' with no group open
            raise _fail(22)
        return "".join(head) + _RECURSION_MARK.sub(self.recursion_test, _text(alternatives))

    def recursion_test(self, found: re.Match[str]) -> str:
        """(?(Rn): tests the recursion into group n, or the name Rn; 7.9 takes an n with no
        group (PCRE2 does not), and the test is then never true."""
        name = found.group(1)
        if name in self.names or int(name[1:]) <= self.count:
            return f"(?({name})"
        return "(?(?!)"

    def alternatives(self, group: _Group) -> list[list[_Item]]:
        """Read `group`'s alternatives up to its ')' (not consumed) or the end."""
        self.open.append(group)
        group.alternatives = [group.items]
        while self.peek() not in (")", END):
            if self.peek() == "|":
                self.pos += 1
                if group.reset is not None:
                    group.reset = (group.reset[0], max(group.reset[1], self.count))
                    self.count = group.reset[0]
                group.items = []
                group.alternatives.append(group.items)
            else:
                self.item(group)
        if group.reset is not None:
            self.count = max(group.reset[1], self.count)
        self.open.pop()
        return group.alternatives

    def item(self, group: _Group) -> None:
        char = self.peek()
        self.pos += 1
        if group.extended and char in _SPACE:
            return
        if group.extended and char == "#":
            ends = [i for i in (self.pattern.find(n, self.pos) for n in self.newline) if i >= 0]
            self.pos = min(ends) + 1 if ends else len(self.pattern)
        elif char == "\\":
            self.escape(group)
        elif char == "[":
            group.items.append(self.char_class(group))
        elif char == "(":
            self.paren(group)
        elif char in ("*", "+", "?"):
            self.quantify(group, *{"*": (0, None), "+": (1, None), "?": (0, 1)}[char], char)
        elif char == "{" and (counts := self.counted_repeat()):
            self.quantify(group, *counts)
        elif char == ".":
            group.items.append(_Item(".", "type"))
        elif char in ("^", "$"):
            group.items.append(_zero(char))
        else:
            group.items.append(_Item(self.literal(ord(char))))

    def literal(self, code: int) -> str:
        if self.utf and code > 0x7f:
            raise _utf_beyond_ascii()
        return _literal(code)

    # -- quantifiers

    def counted_repeat(self) -> tuple[int, int | None, str] | None:
        """The {n}, {n,} or {n,m} after the '{' just read (7.9's is_counted_repeat), or None:
        then the '{' is a literal."""
        start = self.pos
        low = self.take(_DIGITS)
        high: str | None = low
        if low and self.peek() == ",":
            self.pos += 1
            high = self.take(_DIGITS) or None
        if not low or self.peek() != "}":
            self.pos = start
            return None
        self.pos += 1
        if int(low) > 65535 or int(high or 0) > 65535:
            raise _fail(5)
        if high is not None and int(high) < int(low):
            raise _fail(4)
        return int(low), None if high is None else int(high), self.pattern[start - 1:self.pos]

    def quantify(self, group: _Group, low: int, high: int | None, text: str) -> None:
        if not group.items or not group.items[-1].repeatable:
            raise _fail(9)
        if group.items[-1].kind == "define":
            raise _fail(55)
        if self.peek() in ("+", "?"):
            text += self.peek()
            self.pos += 1
        group.items[-1] = _quantified(group.items[-1], low, high, text)

    # -- escapes outside a class

    def escape(self, group: _Group) -> None:
        char = self.peek()
        if char == END:
            raise _fail(1)
        if char == "Q":
            self.pos += 1
            end = self.pattern.find("\\E", self.pos)
            end = len(self.pattern) if end < 0 else end
            group.items += [_Item(self.literal(ord(c))) for c in self.pattern[self.pos:end]]
            self.pos = min(end + 2, len(self.pattern))
        elif char == "E":
            self.pos += 1
        elif char in _DIGITS and char != "0" and self.back_reference(group):
            pass
        elif char == "g":
            self.pos += 1
            group.items.append(self.g_escape())
        elif char == "k":
            self.pos += 1
            if self.peek() not in ("<", "'", "{"):
                raise Unsupported("\\k not followed by <name>, 'name' or {name}: PCRE 7.9 "
                                  "compiles it into something unpredictable")
            close = {"<": ">", "'": "'", "{": "}"}[self.peek()]
            self.pos += 1
            group.items.append(_ref(f"\\k<{self.name(close)}>"))
        elif char in _TYPES or char in _HV:
            self.pos += 1
            hv = char in _HV
            group.items.append(_Item(_TYPES.get(char, "\\" + char), "hv" if hv else "type",
                                     None if hv else 1, hv))
        elif char in ("p", "P", "X"):
            raise _fail(45)
        elif char == "C":
            if self.utf:            # one byte of a UTF-8 character: the binding has no \C
                raise _utf_beyond_ascii()
            self.pos += 1
            group.items.append(_Item(r"\p{Any}", "byte", BYTE))     # one byte, as pcre.ANY_BYTE
        elif char in _ANCHORS or char == "K":
            self.pos += 1       # \K moves only the start a match reports: nothing to a search
            group.items.append(_zero("", None) if char == "K" else _zero(_ANCHORS[char]))
        else:
            group.items.append(_Item(self.literal(self.character_escape(group.extra, 3))))

    def back_reference(self, group: _Group) -> bool:
        """\\N outside a class: a back reference when N < 10 or N groups were opened before
        (added to `group`); otherwise False and nothing read (an octal escape)."""
        start = self.pos
        number = int(self.take(_DIGITS))
        if number < 10 or number <= self.count:
            group.items.append(_ref(f"\\g{{{number}}}"))
            return True
        self.pos = start
        return False

    def character_escape(self, extra: bool, error: int) -> int:
        """The byte an escape stands for (the reader is on the character after the
        backslash): octal, \\x, \\c, \\a \\e \\f \\n \\r \\t, a non-letter, or a letter with no
        meaning (error `error` under PCRE_EXTRA)."""
        char = self.peek()
        self.pos += 1
        if char in _UNSUPPORTED:
            raise _fail(37)
        if char in _SIMPLE:
            return _SIMPLE[char]
        if char in ("8", "9"):        # a zero byte; the digit is read again as a literal
            self.pos -= 1
            return 0
        if char in _DIGITS:
            value = int(char)
            for _ in range(2):
                if self.peek() not in _OCTAL:
                    break
                value = value * 8 + int(self.peek())
                self.pos += 1
            if value > 255 and not self.utf:
                raise _fail(51)
            return value
        if char == "x":
            return self.hex_escape()
        if char == "c":
            if self.peek() == END:
                raise _fail(2)
            code = ord(self.peek())
            self.pos += 1
            return (code - 32 if 0x61 <= code <= 0x7a else code) ^ 0x40
        if char in _LETTERS and char not in _KNOWN and extra:
            raise _fail(error)
        return ord(char)

    def hex_escape(self) -> int:
        """\\xHH, or \\x{HH} when the braces hold only hex digits: else a zero byte."""
        if self.peek() == "{":
            end = self.pos + 1
            while end < len(self.pattern) and self.pattern[end] in _HEX:
                end += 1
            if self.pattern[end:end + 1] == "}":
                digits = self.pattern[self.pos + 1:end].lstrip("0")
                if len(digits) > (8 if self.utf else 2):
                    raise _fail(34)
                self.pos = end + 1
                return int(digits or "0", 16)
        start = self.pos
        while self.pos < start + 2 and self.peek() in _HEX:
            self.pos += 1
        return int(self.pattern[start:self.pos] or "0", 16)

    def g_number(self) -> tuple[int | None, bool]:
        """7.9's \\g reading (the reader is after the 'g'): (the group number of \\gN, \\g{N},
        \\g-N or \\g{-N}, None for \\g<...>, \\g'...' and \\g{name}, nothing read then);
        whether it was braced."""
        if self.peek() in ("<", "'"):
            return None, False
        braced = self.peek() == "{"
        if braced:
            end = self.pattern.find("}", self.pos)
            body = self.pattern[self.pos + 1:end if end >= 0 else len(self.pattern)]
            if any(c != "-" and c not in _DIGITS for c in body):
                return None, True
            self.pos += 1
        negative = self.peek() == "-"
        self.pos += negative
        number = int(self.take(_DIGITS) or "0")
        if braced:
            if self.peek() != "}":
                raise _fail(57)
            self.pos += 1
        if number == 0:
            raise _fail(58)
        if negative:
            if number > self.count:
                raise _fail(15)
            number = self.count - number + 1
        return number, braced

    def g_escape(self) -> _Item:
        """\\g outside a class: a back reference or an Oniguruma subroutine call."""
        number, braced = self.g_number()
        if number is not None:
            return _ref(f"\\g{{{number}}}")
        if braced:                      # \g{name}
            self.pos += 1
            return _ref(f"\\k<{self.name('}')}>")
        close = ">" if self.peek() == "<" else "'"
        self.pos += 1
        start = self.pos
        if self.peek() in ("+", "-"):
            self.pos += 1
            if not self.take(_DIGITS) or self.peek() != close:
                raise _fail(57)
            text = self.pattern[start:self.pos]
            self.pos += 1
            return self.call(self.call_number(text), f"\\g<{text}>")
        name = self.take(_WORD)
        if not name or self.peek() != close:
            raise _fail(57)
        self.pos += 1
        if name.isdigit():
            return self.call(int(name), f"\\g<{name}>")
        return self.call(self.names.get(name), f"\\g<{name}>")

    def name(self, close: str) -> str:
        """A group name and its terminator."""
        name = self.take(_WORD)
        if not name:
            raise _fail(62)
        if self.peek() != close:
            raise _fail(42)
        if len(name) > _MAX_NAME:
            raise _fail(48)
        if name[0] in _DIGITS:
            raise Unsupported(f"group name {name!r} starts with a digit: PCRE 7.9 takes it, "
                              "PCRE2 does not")
        self.pos += 1
        return name

    # -- recursion and subroutine calls

    def call_number(self, text: str) -> int:
        """The group a numeric call means: N, +N (counted after this point) or -N (before)."""
        number = int(text.lstrip("+-"))
        if text[0] in ("+", "-") and number == 0:
            raise _fail(58)
        if text[0] == "-":
            number = self.count - number + 1
            if number <= 0:
                raise _fail(15)
        elif text[0] == "+":
            number += self.count
        return number

    def call(self, number: int | None, text: str) -> _Item:
        """A call of group `number` (None: a name not seen yet). 7.9 rejects the call of a
        group still open when everything before the call since that group's start could be
        empty (a left recursion)."""
        target = self.first.get(number) if number is not None else None
        levels = next((self.open[i:] for i, g in enumerate(self.open) if g is target), None)
        if levels and all(item.empty for level in levels for item in level.items):
            raise _fail(40)
        return _Item(text, "call", None, True)

    # -- groups

    def paren(self, group: _Group) -> None:
        """What follows a '('."""
        if self.peek() == "*" and self.peek(1) in _LETTERS:
            group.items.append(self.verb())
        elif self.peek() != "?":
            self.count += 1
            self.group(group, group.inner("capture", number=self.count), "(")
        else:
            self.pos += 1
            self.question(group)

    def question(self, group: _Group) -> None:
        """What follows '(?'."""
        char = self.peek()
        if char == "#":
            end = self.pattern.find(")", self.pos)
            if end < 0:
                raise _fail(18)
            self.pos = end + 1
        elif char in (":", "|", ">", "=", "!"):
            self.pos += 1
            kind = "look" if char in ("=", "!") else "group"
            reset = (self.count, self.count) if char == "|" else None
            self.group(group, group.inner(kind, reset=reset), "(?" + char)
        elif char == "<" and self.peek(1) in ("=", "!"):
            self.pos += 2
            self.group(group, group.inner("behind"), "(?<" + self.pattern[self.pos - 1])
        elif char in ("<", "'") or self.at("P<"):
            if char == "<" and self.peek(1) not in _WORD:
                raise _fail(24)
            self.pos += 2 if char == "P" else 1
            name = self.name("'" if char == "'" else ">")
            self.count += 1
            self.names.setdefault(name, self.count)
            self.group(group, group.inner("capture", number=self.count), f"(?<{name}>")
        elif char == "P":
            self.pos += 1
            if self.peek() not in ("=", ">"):
                raise _fail(41)
            recurse = self.peek() == ">"
            self.pos += 1
            name = self.name(")")
            group.items.append(self.call(self.names.get(name), f"(?&{name})") if recurse
                               else _ref(f"(?P={name})"))
        elif char == "&":
            self.pos += 1
            name = self.name(")")
            group.items.append(self.call(self.names.get(name), f"(?&{name})"))
        elif char in _DIGITS or char in ("R", "+") or (char == "-" and self.peek(1) in _DIGITS):
            group.items.append(self.numbered_call())
        elif char == "C":
            self.pos += 1
            digits = self.take(_DIGITS)
            if self.peek() != ")":
                raise _fail(39)
            if int(digits or 0) > 255:
                raise _fail(38)
            self.pos += 1
            group.items.append(_zero(f"(?C{digits})"))
        elif char == "(":
            self.pos += 1
            self.condition(group)
        else:
            self.options(group)

    def numbered_call(self) -> _Item:
        """(?R), (?N), (?+N) or (?-N), after '(?'."""
        self.pos += self.peek() == "R"
        start = self.pos
        if self.peek() in ("+", "-"):
            self.pos += 1
            if self.peek() not in _DIGITS:
                raise _fail(63)
        self.take(_DIGITS)
        if self.peek() != ")":
            raise _fail(29)
        text = self.pattern[start:self.pos] or "0"
        self.pos += 1
        return self.call(self.call_number(text), f"(?{'R' if text == '0' else text})")

    def group(self, outer: _Group, inner: _Group, opening: str) -> None:
        """Read a group's contents and its ')', and add it to `outer`."""
        if inner.number is not None:
            self.first.setdefault(inner.number, inner)
        alternatives = self.alternatives(inner)
        if self.peek() != ")":
            raise _fail(14)
        self.pos += 1
        text = opening + _text(alternatives) + ")"
        miscounted = any(i.miscounted for alternative in alternatives for i in alternative)
        if inner.kind == "behind":
            for alternative in alternatives:
                width = _sequence_width(alternative)
                if width is None or width == BYTE:
                    raise _fail(25 if width is None else 36)
            if miscounted:
                raise Unsupported("a lookbehind holding a group repeated without limit, "
                                  "which PCRE 7.9 runs as if repeated once")
        if inner.kind in ("look", "behind"):
            outer.items.append(_zero(text))
            return
        empty = any(all(i.empty for i in alternative) for alternative in alternatives)
        kind = "define" if inner.kind == "define" else "group"
        outer.items.append(_Item(text, kind, _group_width(alternatives), empty, True, miscounted))

    def verb(self) -> _Item:
        """(*VERB), after the '('."""
        self.pos += 1
        name = self.take(_LETTERS)
        if self.peek() == ":":
            raise _fail(59)
        if self.peek() != ")" or name not in _VERBS:
            raise _fail(60)
        self.pos += 1
        return _zero(f"(*{name})", None)

    def condition(self, group: _Group) -> None:
        """A conditional group (the reader is after '(?(')."""
        if self.peek() == "?" and self.peek(1) in ("=", "!", "<"):
            self.pos += 1
            look = self.peek()
            if look == "<":
                if self.peek(1) not in ("=", "!"):
                    raise _fail(24)
                self.pos += 1
                look += self.peek()
            self.pos += 1
            inner = group.inner("cond")
            self.group(inner, inner.inner("behind" if look[0] == "<" else "look"), "(?" + look)
            self.group(group, inner, "(?")
            return
        start = self.pos
        close = ")"
        if self.at("R&"):
            self.pos += 2
        elif self.peek() in ("<", "'"):
            close = ">" if self.peek() == "<" else "'"
            self.pos += 1
        elif self.peek() in ("+", "-"):
            self.pos += 1
        if self.peek() not in _WORD:
            raise _fail(28)
        name = self.take(_WORD)
        if self.peek() != close or (close != ")" and self.peek(1) != ")"):
            raise _fail(26)
        if self.pattern[start] in ("+", "-") and not name.isdigit():
            raise _fail(58)
        self.pos += 1 if close == ")" else 2
        condition = self.pattern[start:self.pos - 1]
        kind = "define" if condition == "DEFINE" else "cond"
        recursion = close == ")" and _RECURSION_TEST.fullmatch(condition)
        opening = f"{END}{condition}{END}" if recursion else f"(?({condition})"
        self.group(group, group.inner(kind), opening)

    def options(self, group: _Group) -> None:
        """(?imsxJUX-imsxJUX) or (?imsxJUX-imsxJUX: ...), after '(?'. x and X are read here:
        the PCRE2 text has neither."""
        on, off, target = "", "", "on"
        while self.peek() not in (")", ":"):
            char = self.peek()
            if char == "-":
                target = "off"
            elif char in _OPTIONS:
                on, off = (on + char, off) if target == "on" else (on, off + char)
            else:
                raise _fail(12)
            self.pos += 1
        extended = ("x" in on or group.extended) and "x" not in off
        extra = ("X" in on or group.extra) and "X" not in off
        keep = "".join(dict.fromkeys(c for c in on if c not in "xX"))
        drop = "".join(dict.fromkeys(c for c in off if c not in "xX"))
        setting = keep + ("-" + drop if drop else "")
        self.pos += 1
        if self.pattern[self.pos - 1] == ")":
            group.extended, group.extra = extended, extra
            group.items.append(_zero(f"(?{setting})" if setting else ""))
            return
        inner = _Group("group", extended, extra)
        self.group(group, inner, f"(?{setting}:")

    # -- classes

    def char_class(self, group: _Group) -> _Item:
        """A class (the reader is after its '['), as a PCRE2 class of bytes, ranges and class
        escapes."""
        if self.peek() in (":", ".", "=") and self.posix_end(self.pos - 1) is not None:
            raise _fail(13 if self.peek() == ":" else 31)
        negated = False      # 7.9 skips any mix of \E, \Q\E and one '^' at the start
        while True:
            if self.at("\\E"):
                self.pos += 2
            elif self.at("\\Q\\E"):
                self.pos += 4
            elif self.peek() == "^" and not negated:
                self.pos += 1
                negated = True
            else:
                break
        members: list[str] = []
        chars: set[int] = set()
        quoted, first = False, True     # the first character is a member, even a ']'
        while True:
            char = self.peek()
            if char == END:
                raise _fail(6)
            if quoted:
                self.pos += 1
                if char == "\\" and self.peek() == "E":
                    self.pos += 1
                    quoted = False
                else:
                    quoted = self.add_range(group, ord(char), members, chars, quoted)
                continue
            if char == "]" and not first:
                self.pos += 1
                break
            first = False
            if char == "[" and self.peek(1) in (":", ".", "=") and \
                    (end := self.posix_end(self.pos)) is not None:
                if self.peek(1) != ":":
                    raise _fail(31)
                name = self.pattern[self.pos + 2:end]
                if name.removeprefix("^") not in _POSIX:
                    raise _fail(30)
                members.append(f"[:{name}:]")
                chars.update(range(256))
                self.pos = end + 2
                continue
            self.pos += 1
            if char == "\\" and self.peek() in ("Q", "E"):     # \Q...\E: quoted characters
                quoted = self.at("Q") and not self.at("Q\\E")
                self.pos += 3 if self.at("Q\\E") else 1
                continue
            code = self.class_escape(group, members, chars) if char == "\\" else ord(char)
            if code is not None:
                quoted = self.add_range(group, code, members, chars, quoted)
        text = "[" + "^" * negated + "".join(members) + "]"
        single = len(chars) == 1 and len(members) == 1
        return _Item(text, "not" if single and negated else "class")

    def class_escape(self, group: _Group, members: list[str], chars: set[int]) -> int | None:
        """An escape in a class (the reader is on the character after the backslash): a class
        escape is added to `members` (None returned); anything else is one byte."""
        letter = self.peek()
        if letter == END:
            raise _fail(1)
        if letter in _CLASS_TYPES:
            self.pos += 1
            members.append(_CLASS_TYPES[letter])
            chars.update(range(256))
            return None
        if letter == "b":
            self.pos += 1
            return 8
        if letter in ("R", "X"):
            self.pos += 1
            return ord(letter)
        if letter == "g":          # read as outside a class: the byte left is the last read
            self.pos += 1
            if self.g_number()[0] is None:
                return ord("g")
            return ord(self.pattern[self.pos - 1])
        if letter in _SPECIAL:
            if group.extra:
                raise _fail(7)
            self.pos += 1
            return ord(letter)
        return self.character_escape(group.extra, 7)

    def add_range(self, group: _Group, code: int, members: list[str], chars: set[int],
                  quoted: bool) -> bool:
        """Add byte `code`, or the range it starts, to the class (7.9's CHECK_RANGE).
        Returns whether \\Q...\\E is still open."""
        while self.at("\\E"):
            self.pos += 2
            quoted = False
        end = None
        if not quoted and self.peek() == "-":
            back = self.pos
            self.pos += 1
            end, quoted = self.range_end(group)
            if end is None:
                self.pos = back
        if end is None or end == code:
            members.append(self.literal(code))
            chars.add(code)
        elif end < code:
            raise _fail(8)
        else:
            members.append(f"{self.literal(code)}-{self.literal(end)}")
            chars.update(range(code, end + 1))
        return quoted

    def range_end(self, group: _Group) -> tuple[int | None, bool]:
        """The end of a range (the reader is after its '-'), or None: then the '-' is a
        literal. Also whether \\Q...\\E is open after it."""
        quoted = False
        while self.at("\\E"):
            self.pos += 2
        while self.at("\\Q"):
            self.pos += 2
            if not self.at("\\E"):
                quoted = True
                break
            self.pos += 2
        char = self.peek()
        if char == END or (char == "]" and not quoted):
            return None, quoted
        self.pos += 1
        if char != "\\" or quoted:
            return ord(char), quoted
        letter = self.peek()
        if letter == "b" or letter in ("R", "X"):
            self.pos += 1
            return 8 if letter == "b" else ord(letter), quoted
        if letter in _CLASS_TYPES or letter in _SPECIAL or letter in ("g", "E", "Q"):
            return None, quoted             # 7.9: the '-' was a literal
        return self.character_escape(group.extra, 7), quoted

    def posix_end(self, start: int) -> int | None:
        """Where the terminator of a POSIX class starting at `start` (its '[') is, or None
        when the text is not one (7.9's check_posix_syntax)."""
        terminator = self.pattern[start + 1]
        index = start + 2
        while index < len(self.pattern):
            char = self.pattern[index]
            if char == "\\" and self.pattern[index + 1:index + 2] == "]":
                index += 1
            elif char == "]":
                return None
            elif char == terminator and self.pattern[index + 1:index + 2] == "]":
                return index
            index += 1
        return None


def _text(alternatives: list[list[_Item]]) -> str:
    return "|".join("".join(item.text for item in items) for items in alternatives)


def translate(pattern: str) -> str:
    """The PCRE2 pattern that matches what the PCRE 7.9 `pattern` (latin-1 text, one
    character per byte, no NUL) matches.

    Raises Rejected (with 7.9's message) where 7.9's pcre_compile rejects the pattern.
    """
    return _Translator(pattern.split(END, 1)[0]).translate()     # a C string ends at a NUL
