"""The entity lump as a lossless, editable model: bytes in, bytes out.

The text is defined by ``grammars/entities.lark`` and parsed by lark's LALR parser,
fed by a lexer built from the grammar's own terminals. Internally the lump is
decoded as latin-1, so every character is one byte and every position a byte
offset; the public API speaks ``str``, decoding values as UTF-8 with
``surrogateescape`` so that invalid bytes survive a round trip.

Quoted strings may span lines: Quake's COM_Parse and Source's
MapEntity_ParseToken read a quoted string up to the next ``"`` whatever it
contains, so this model does the same. There are no escape sequences; a key or
value can hold any byte but ``"`` and NUL.

Nothing is reformatted: untouched entities are written back as their original
text, an edited entity changes only the edited pairs, and new pairs and entities
copy the layout of their neighbours.
"""
from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cache
from importlib.resources import files
from typing import Literal, NamedTuple

from attrs import define
from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedToken

from bspedit.errors import BspError
from bspedit.limits import LIMITS
from bspedit.names import fold

__all__ = ["Census", "Entity", "EntityLump", "Kept", "decode"]

MatchMode = Literal["exact", "glob", "regex"]

_LUMP = "entities"
_TOKEN_NAMES = {"LBRACE": "'{'", "RBRACE": "'}'", "STRING": "a quoted string",
                "TAIL": "a NUL byte", "$END": "the end of the text"}
# The parser needs only the type of a string token; the text comes from the entity's span.
_STRING = Token("STRING", '"')
_STRAY = re.compile(r'[^\x00-\x20"{}]{1,20}')
_ENTITY_LINE = re.compile(r"^[ \t]*\{", re.MULTILINE)
_LINE_END = re.compile(r"[ \t\r]*\n?")


class _Spans(Transformer):
    """Reduces the parse to the (start, end) offsets of each entity; builds no tree."""

    def pairs(self, children: list) -> None:  # spares lark building a Tree per pair
        return None

    def entity(self, children: list) -> tuple[int, int]:
        return children[0].start_pos, children[-1].end_pos

    def start(self, children: list) -> list[tuple[int, int]]:
        if children and isinstance(children[-1], Token):  # the TAIL
            children.pop()
        return children


@define(frozen=True)
class _Grammar:
    parser: Lark
    # An ignorable gap, then one token in a group named after its terminal, or else
    # the group `error` (any other character) or `end` (the end of the text): it
    # matches wherever it starts, so finditer never skips text, in linear time.
    token: re.Pattern[str]
    pair: re.Pattern[str]  # groups: gap, key string, gap, value string


@cache
def _grammar() -> _Grammar:
    """Load entities.lark once and derive the lexer's regexes from its terminals."""
    text = (files("bspedit.grammars") / "entities.lark").read_text(encoding="utf-8")
    # lark's own lexer goes unused: _scan feeds the parser tokens from `token`.
    parser = Lark(text, parser="lalr", lexer="basic", transformer=_Spans())
    regex = {t.name: t.pattern.to_regexp() for t in parser.terminals}
    gap = "(?:" + "|".join(regex.pop(name) for name in parser.ignore_tokens) + ")*+"
    tokens = "|".join(f"(?P<{name}>{rx})" for name, rx in regex.items())
    token = f"{gap}(?:{tokens}|(?P<error>(?s:.))|(?P<end>\\Z))"
    pair = f"({gap})({regex['STRING']})({gap})({regex['STRING']})"
    return _Grammar(parser, re.compile(token), re.compile(pair))


class _Malformed(Exception):
    """A syntax error, and where the broken item (entity or stray text) starts."""

    def __init__(self, error: BspError, item_start: int) -> None:
        super().__init__(error)
        self.error = error
        self.item_start = item_start


def _line(text: str, at: int) -> int:
    return text.count("\n", 0, at) + 1


def _malformed(text: str, at: int, problem: str, item_start: int) -> _Malformed:
    column = at - text.rfind("\n", 0, at)
    message = f"line {_line(text, at)}, column {column}: {problem}"
    return _Malformed(BspError(message, lump=_LUMP, offset=at), item_start)


def _scan(text: str, start: int, end: int) -> tuple[list[tuple[int, int]], int]:
    """Parse ``text[start:end]``; return the entity spans and where the tail (NUL...) starts.

    The tokens are fed straight into lark's LALR parser state; _Malformed is raised
    at the first error.
    """
    grammar = _grammar()
    feed = grammar.parser.parse_interactive().parser_state.feed_token
    opened, tail = None, end
    try:
        for m in grammar.token.finditer(text, start, end):
            kind = m.lastgroup
            at = m.start(kind)
            if kind == "STRING":
                feed(_STRING)
            elif kind == "error":
                problem = ("unterminated quoted string" if text[at] == '"' else
                           f"unexpected text {decode(_STRAY.match(text, at).group())!r}")
                raise _malformed(text, at, problem, at if opened is None else opened)
            elif kind == "end":
                kind = "$END"
                spans = feed(Token(kind, "", at, end_pos=at), True)
                break
            else:
                feed(Token(kind, "", at, end_pos=m.end()))
                if kind == "LBRACE":
                    opened = at
                elif kind == "RBRACE":
                    opened = None
                else:
                    tail = at
    except UnexpectedToken:
        if opened is None:
            problem = f"{_TOKEN_NAMES[kind]} outside an entity"
        elif kind == "RBRACE":
            problem = "key without a value"
        else:
            problem = (f"missing '}}' before {_TOKEN_NAMES[kind]} "
                       f"(entity opened at line {_line(text, opened)})")
        raise _malformed(text, at, problem, at if opened is None else opened) from None
    return spans, tail


def _resync(text: str, start: int) -> int:
    """Where parsing resumes after an error in the item at `start`.

    That is the next line opening an entity, else the NUL (or the end).
    """
    stop = text.find("\0", start)
    stop = len(text) if stop < 0 else stop
    found = _ENTITY_LINE.search(text, start + 1, stop)
    return found.start() if found else stop


def decode(raw: str) -> str:
    """Lump text (one char per byte) to a public str: UTF-8, invalid bytes as surrogates."""
    return raw if raw.isascii() else raw.encode("latin-1").decode("utf-8", "surrogateescape")


def _encode(text: str) -> str:
    """A public str back to lump text; refuses what a quoted string cannot hold."""
    try:
        raw = text if text.isascii() else text.encode("utf-8", "surrogateescape").decode("latin-1")
    except UnicodeEncodeError as err:
        raise BspError(f"cannot encode {text!r}: {err.reason}", lump=_LUMP) from None
    if '"' in raw or "\0" in raw:
        raise BspError(f"{text!r}: a key or value cannot contain '\"' or NUL", lump=_LUMP)
    return raw


def _last_line(gap: str) -> str:
    """A gap's last line break and indentation, or the whole gap if it has no line break."""
    cut = gap.rfind("\n")
    if cut > 0 and gap[cut - 1] == "\r":
        cut -= 1
    return gap if cut < 0 else gap[cut:]


def _value_test(pattern: str, mode: MatchMode) -> Callable[[str], bool]:
    """A test on raw values: exact (ASCII case-insensitive), glob (whole value) or regex (search)."""
    if mode == "exact":
        want = fold(_encode(pattern))
        return lambda raw: fold(raw) == want
    if mode not in ("glob", "regex"):
        raise BspError(f"unknown match mode {mode!r} (exact, glob or regex)")
    try:
        rx = re.compile(fnmatch.translate(pattern) if mode == "glob" else pattern, re.IGNORECASE | re.ASCII)
    except re.error as err:
        raise BspError(f"bad regex {pattern!r}: {err}") from None
    find = rx.match if mode == "glob" else rx.search
    return lambda raw: find(decode(raw)) is not None


class _Pair(NamedTuple):
    lead: str   # the gap before the key: line break, indentation, comments
    key: str    # the text between the quotes
    sep: str    # the gap between key and value
    value: str


class _Style(NamedTuple):
    """How a new entity is laid out (defaults: Source's ``{\\n"key" "value"\\n}\\n``)."""

    lead: str = "\n"
    sep: str = " "
    close: str = "\n}"
    newline: str = "\n"


@define(eq=False, repr=False)
class Entity:
    """One ``{ ... }`` block: key-value pairs in file order, duplicates and key case kept.

    Keys compare case-insensitively (ASCII only), like the engines. Get one through
    an EntityLump; it is written back as its original text until it is edited, and
    then only the edited pairs are reprinted.
    """

    _source: str | None = None         # original text while unedited
    _pairs: list[_Pair] | None = None  # parsed from _source on first use
    _close: str = ""                   # the gap after the last pair, and the '}'
    _trail: str = ""                   # text between this entity and the next item
    _lump: EntityLump | None = None    # told about edits

    @property
    def dirty(self) -> bool:
        """True once the entity was edited, or if it is new."""
        return self._source is None

    def pairs(self) -> list[tuple[str, str]]:
        """All (key, value) pairs in file order."""
        return [(decode(p.key), decode(p.value)) for p in self._load()]

    def get(self, key: str, default: str | None = None) -> str | None:
        """The value of the first pair with this key, else `default`."""
        return next(iter(self._values(key)), default)

    def get_all(self, key: str) -> list[str]:
        """The values of every pair with this key (e.g. all ``OnTrigger`` outputs)."""
        return self._values(key)

    def set(self, key: str, value: str) -> None:
        """Set the value of the first pair with this key; add the pair if there is none."""
        want, raw = fold(_encode(key)), _encode(value)
        for i, pair in enumerate(self._load()):
            if fold(pair.key) == want:
                if pair.value != raw:
                    self._edit()[i] = pair._replace(value=raw)
                return
        self.add(key, value)

    def add(self, key: str, value: str) -> None:
        """Append a pair, even if the key exists (another output, say)."""
        raw_key, raw_value = _encode(key), _encode(value)
        pairs = self._edit()
        if pairs:
            lead, sep = _last_line(pairs[-1].lead), _last_line(pairs[-1].sep)
        else:
            lead, sep = _last_line(self._close[:-1]) or " ", " "
        pairs.append(_Pair(lead, raw_key, sep, raw_value))

    def rename(self, old: str, new: str) -> int:
        """Rename every pair with key `old` to `new`; return how many changed."""
        want, raw = fold(_encode(old)), _encode(new)
        hits = [i for i, p in enumerate(self._load()) if fold(p.key) == want and p.key != raw]
        pairs = self._edit() if hits else []
        for i in hits:
            pairs[i] = pairs[i]._replace(key=raw)
        return len(hits)

    def delete(self, key: str) -> int:
        """Delete every pair with this key, with its line; return how many went."""
        want = fold(_encode(key))
        pairs = self._load()
        kept = [p for p in pairs if fold(p.key) != want]
        removed = len(pairs) - len(kept)
        if removed:
            self._edit()[:] = kept
        return removed

    def raw_pairs(self) -> list[tuple[str, str]]:
        """All (key, value) pairs as lump text (one character per byte, see `decode`)."""
        return [(p.key, p.value) for p in self._load()]

    def rewrite(self, edit: Callable[[str, str], str | None]) -> int:
        """Call `edit(key, value)` on every pair (lump text): None deletes the pair, another
        value replaces its value. Only changed pairs are reprinted; returns how many changed."""
        pairs = self._load()
        kept, changed = [], 0
        for pair in pairs:
            value = edit(pair.key, pair.value)
            if value != pair.value:
                changed += 1
                if value is None:
                    continue
                pair = pair._replace(value=value)
            kept.append(pair)
        if changed:
            self._edit()[:] = kept
        return changed

    def __repr__(self) -> str:
        return f"Entity({self.get('classname')!r}, {len(self._load())} pairs)"

    def _values(self, key: str) -> list[str]:
        want = fold(_encode(key))
        return [decode(p.value) for p in self._load() if fold(p.key) == want]

    def _load(self) -> list[_Pair]:
        if self._pairs is None:
            source, pairs, pos = self._source, [], 1
            match = _grammar().pair.match
            while m := match(source, pos):
                lead, key, sep, value = m.groups()
                pairs.append(_Pair(lead, key[1:-1], sep, value[1:-1]))
                pos = m.end()
            self._pairs, self._close = pairs, source[pos:]
        return self._pairs

    def _edit(self) -> list[_Pair]:
        pairs = self._load()
        self._source = None
        if self._lump is not None:
            self._lump._dirty = True
        return pairs

    def _text(self) -> str:
        if self._source is not None:
            return self._source
        return "{" + "".join(f'{p.lead}"{p.key}"{p.sep}"{p.value}"' for p in self._pairs) + self._close


class Kept(NamedTuple):
    """A stretch a lenient parse kept verbatim: its lines and the error that stopped the parse."""

    first_line: int
    last_line: int
    problem: BspError

    def __str__(self) -> str:
        lines = (f"line {self.first_line}" if self.first_line == self.last_line
                 else f"lines {self.first_line}-{self.last_line}")
        return f"{lines} kept verbatim ({self.problem.message})"


class Census(NamedTuple):
    """How many entities a lump holds, and whether one of them is worldspawn."""

    entities: int
    worldspawn: bool

    def loss(self, after: Census) -> str | None:
        """What going from this census to `after` destroys (every entity, or worldspawn), or None."""
        if self.entities and not after.entities:
            return f"removes every entity ({self.entities} before, 0 after)"
        if self.worldspawn and not after.worldspawn:
            return f"removes worldspawn ({self.entities} entities before, {after.entities} after)"
        return None


@define(eq=False)
class _Opaque:
    """A stretch that did not parse (lenient mode), written back verbatim."""

    source: str
    _trail: str = ""

    def _text(self) -> str:
        return self.source


@define(eq=False, repr=False)
class EntityLump:
    """The entity lump: entities in file order, plus every byte around them.

    ``EntityLump.parse(data).to_bytes() == data`` for any text that parses; an
    unchanged lump returns the very bytes it was parsed from.
    """

    _data: bytes
    _head: str                          # text before the first item
    _items: list[Entity | _Opaque]
    _tail: str                          # the NUL terminator and anything after it
    kept: list[Kept]                    # stretches kept verbatim by a lenient parse
    _dirty: bool = False

    @classmethod
    def parse(cls, data: bytes, *, lenient: bool = False) -> EntityLump:
        """Parse entity lump bytes.

        Malformed text raises BspError naming line and column. With ``lenient=True``
        each bad stretch (from the broken entity to the next line opening an entity)
        is kept verbatim instead and reported in ``kept``. Text longer than
        ``LIMITS.entity_text`` is refused.
        """
        if len(data) > LIMITS.entity_text:
            raise BspError(f"entity text of {len(data)} bytes is over the "
                           f"{LIMITS.entity_text}-byte limit (--max-entity-size raises it)",
                           lump=_LUMP)
        text = data.decode("latin-1")
        spans: list[tuple[int, int, bool]] = []  # start, end, parsed
        kept: list[Kept] = []
        pos = 0
        while True:
            try:
                entities, tail = _scan(text, pos, len(text))
            except _Malformed as bad:
                if not lenient:
                    raise bad.error from None
                entities, _ = _scan(text, pos, bad.item_start)
                resume = _resync(text, bad.item_start)
                kept.append(Kept(_line(text, bad.item_start),
                                 _line(text, max(bad.item_start, resume - 1)), bad.error))
                spans += [(start, end, True) for start, end in entities]
                spans.append((bad.item_start, resume, False))
                pos = resume
            else:
                spans += [(start, end, True) for start, end in entities]
                break
        lump = cls(data, text[:spans[0][0] if spans else tail], [], text[tail:], kept)
        nexts = [start for start, _, _ in spans[1:]] + [tail]
        lump._items = [Entity(text[start:end], trail=text[end:nxt], lump=lump) if parsed else
                       _Opaque(text[start:end], text[end:nxt])
                       for (start, end, parsed), nxt in zip(spans, nexts)]
        return lump

    def to_bytes(self) -> bytes:
        """The lump's bytes: the original ones if nothing changed."""
        if not self.dirty:
            return self._data
        parts = [self._head]
        for item in self._items:
            parts += (item._text(), item._trail)
        parts.append(self._tail)
        return "".join(parts).encode("latin-1")

    @property
    def dirty(self) -> bool:
        """True once any entity was edited, added or removed."""
        return self._dirty

    @property
    def worldspawn(self) -> Entity | None:
        """The first entity whose classname is worldspawn."""
        return next(self._matching([("classname", _value_test("worldspawn", "exact"))]), None)

    def census(self) -> Census:
        """How many entities the lump holds and whether one is worldspawn."""
        return Census(len(self), self.worldspawn is not None)

    def find(self, where: Iterable[tuple[str, str]] = (), *, mode: MatchMode = "exact",
             **conditions: str) -> list[Entity]:
        """Entities that have, for every condition, a pair with that key and a matching value.

        Keys compare exactly, values per `mode`: ``exact``, ``glob`` (whole value) or
        ``regex`` (search anywhere); all ignore ASCII case, like the engine and Stripper.
        ``find(classname="light")`` equals ``find(where=[("classname", "light")])``.
        """
        tests = [(key, _value_test(value, mode)) for key, value in [*where, *conditions.items()]]
        return list(self._matching(tests))

    def add_entity(self, pairs: Mapping[str, str] | Iterable[tuple[str, str]]) -> Entity:
        """Add a new entity after the last one, laid out like the existing ones.

        It goes right after the last entity (not after a stretch kept verbatim by a
        lenient parse, which might hold an open quote), or first if there is none.
        """
        style = self._style()
        items = pairs.items() if isinstance(pairs, Mapping) else pairs
        new = [_Pair(style.lead, _encode(key), style.sep, _encode(value)) for key, value in items]
        at = 1 + max((i for i, item in enumerate(self._items) if isinstance(item, Entity)), default=-1)
        gap = _last_line(self._items[at - 2]._trail) if at > 1 else style.newline
        entity = Entity(None, new, style.close, lump=self)
        if at:
            before = self._items[at - 1]
            entity._trail, before._trail = before._trail, gap
        else:  # before the head, which may end in a comment
            entity._trail, self._head = gap + self._head, ""
        self._items.insert(at, entity)
        self._dirty = True
        return entity

    def remove(self, entity: Entity) -> None:
        """Remove an entity, with the rest of its last line."""
        try:
            index = self._items.index(entity)
        except ValueError:
            raise BspError("the entity is not in this lump", lump=_LUMP) from None
        rest = entity._trail[_LINE_END.match(entity._trail).end():]
        if index:
            self._items[index - 1]._trail += rest
        else:
            self._head += rest
        del self._items[index]
        entity._lump = None
        self._dirty = True

    def __iter__(self) -> Iterator[Entity]:
        return (item for item in self._items if isinstance(item, Entity))

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"EntityLump({len(self)} entities)"

    def _matching(self, tests: list[tuple[str, Callable[[str], bool]]]) -> Iterator[Entity]:
        folded = [(fold(_encode(key)), test) for key, test in tests]
        for entity in self:
            pairs = entity._load()
            if all(any(fold(p.key) == key and test(p.value) for p in pairs) for key, test in folded):
                yield entity

    def _style(self) -> _Style:
        """The layout of the last entity with pairs (Source's if there is none)."""
        for entity in reversed(list(self)):
            if pairs := entity._load():
                lead, sep = _last_line(pairs[-1].lead), _last_line(pairs[-1].sep)
                newline = "\r\n" if lead.startswith("\r\n") else "\n"
                return _Style(lead, sep, _last_line(entity._close[:-1]) + "}", newline)
        return _Style()
