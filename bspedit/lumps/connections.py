"""Source entity outputs (I/O connections), parsed and written back in the text they came in.

An output is a keyvalue such as ``"OnTrigger" "door,Open,,0.5,-1"``: the key names the output,
the value holds five fields, target, input, parameter, delay and times to fire. Hammer and vbsp
separate them with commas, newer branches (Left 4 Dead 2, Portal 2, CS:GO...) with the byte 0x1B
(ESC); the engine (CEventAction) splits on 0x1B if the value holds one, else on commas.

A keyvalue is recognised as an output from its value alone, since output names are free
(L4D2's ``FinaleEscapeStarted`` starts with neither "On" nor "Out"): the value splits that way
into exactly five fields, the fourth a decimal number and the fifth an integer. That leaves out
look-alikes such as Quake 3's ``"gametype" "ffa,tournament,team,ctf,oneflag"``; an output the
engine would read with fewer fields is not recognised (its bytes stay as they are).

Names compare like Source's NamesMatch: ASCII case-insensitive, and a target ending in ``*``
matches every name starting with what precedes it.
"""
from __future__ import annotations

import math
import operator
import re
from typing import Protocol, overload

from bspedit.errors import BspError
from bspedit.format.names import fold

__all__ = ["COMMA", "ESC", "Link", "Output", "format_output", "names_match", "retarget",
           "split_output"]

COMMA = ","
ESC = "\x1b"
_DELAY = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\Z")
_TIMES = re.compile(r"[-+]?\d+\Z")
_TARGET, _INPUT, _PARAMETER, _DELAY_FIELD, _TIMES_FIELD = range(5)


def split_output(value: str) -> tuple[str, list[str]] | None:
    """An output value's separator and five field texts, or None if it is no output."""
    separator = ESC if ESC in value else COMMA
    fields = value.split(separator)
    if len(fields) == 5 and _DELAY.match(fields[_DELAY_FIELD]) and _TIMES.match(fields[_TIMES_FIELD]):
        return separator, fields
    return None


def format_output(target: str, input: str, parameter: str = "", delay: float = 0.0,
                  times: int = -1, separator: str = COMMA) -> str:
    """The value text of a new output (``delay`` written as its shortest text, 0.0 as ``0``)."""
    if separator not in (COMMA, ESC):
        raise BspError(f"an output separator is ',' or '\\x1b', not {separator!r}")
    texts = [_checked(text, separator) for text in (target, input, parameter)]
    return separator.join([*texts, _delay_text(delay), _times_text(times)])


def retarget(value: str, target: str) -> str:
    """An output value with `target` as its target, every other field's text kept."""
    return _replace(value, _TARGET, target)


def names_match(query: str, name: str) -> bool:
    """Whether an output or target-key `query` reaches the entity named `name`, like Source's
    NamesMatch: ASCII case-insensitive, and a `query` ending in ``*`` matches every name that
    starts with the rest. An empty query or name never matches, nor a ``!`` query (those name
    the activator, the caller...: the engine resolves them when the map runs)."""
    if not query or not name or query.startswith("!"):
        return False
    query, name = fold(query), fold(name)
    return query == name or (query.endswith("*") and name.startswith(query[:-1]))


def _parse(value: str) -> tuple[str, list[str]]:
    parsed = split_output(value)
    if parsed is None:
        raise BspError(f"{value!r} is not an output value")
    return parsed


def _replace(value: str, index: int, text: str) -> str:
    """An output value with field `index` set to `text` (the value itself if it has it)."""
    separator, fields = _parse(value)
    if fields[index] == text:
        return value
    fields[index] = _checked(text, separator)
    return separator.join(fields)


def _checked(text: str, separator: str) -> str:
    """A field's text, refused if it holds the separator or ESC (the engine would split there)."""
    for bad in {separator, ESC}:
        if bad in text:
            raise BspError(f"an output field cannot hold {bad!r} in an output separated by "
                           f"{separator!r}: {text!r}")
    return text


def _delay_text(delay: float) -> str:
    value = float(delay)
    if not math.isfinite(value):
        raise BspError(f"an output delay must be a finite number, not {delay!r}")
    text = repr(value)
    return text[:-2] if text.endswith(".0") else text


def _times_text(times: int) -> str:
    return str(operator.index(times))


class Link(Protocol):
    """Where an Output's keyvalue lives (an entity's pair): reads and writes its key and value."""

    def read(self) -> tuple[str, str]:
        """The keyvalue's current key and value."""
        ...

    def write(self, key: str, value: str) -> None:
        """Replace the keyvalue's key and value."""
        ...


class _Text:
    """A text field of an Output, by index."""

    def __init__(self, index: int, doc: str) -> None:
        self.index = index
        self.__doc__ = doc

    @overload
    def __get__(self, output: None, owner: object = None) -> _Text: ...
    @overload
    def __get__(self, output: Output, owner: object = None) -> str: ...

    def __get__(self, output: Output | None, owner: object = None) -> str | _Text:
        return self if output is None else output._fields()[2][self.index]

    def __set__(self, output: Output, text: str) -> None:
        output._set(self.index, text)


class Output:
    """One output keyvalue of an entity, live: reading a field parses the keyvalue's current
    value, setting one rewrites that field only, so the separator and the text of every other
    field (delay ``0.00`` stays ``0.00``) are kept, and an untouched output keeps its bytes.

    ``delay`` and ``times`` read as numbers; setting one to the value it already has keeps its
    text. Get outputs from ``Entity.outputs``.
    """

    __slots__ = ("_link",)
    target = _Text(_TARGET, "The name of the entity (or entities) that receive the input.")
    input = _Text(_INPUT, "The input fired at the target, e.g. ``Open``.")
    parameter = _Text(_PARAMETER, "The input's parameter; empty for none.")

    def __init__(self, link: Link) -> None:
        self._link = link

    @property
    def name(self) -> str:
        """The output's name: the keyvalue's key, e.g. ``OnTrigger``."""
        return self._link.read()[0]

    @name.setter
    def name(self, name: str) -> None:
        self._link.write(name, self._link.read()[1])

    @property
    def delay(self) -> float:
        """Seconds between the output firing and the input arriving."""
        return float(self._fields()[2][_DELAY_FIELD])

    @delay.setter
    def delay(self, delay: float) -> None:
        if float(delay) != self.delay:
            self._set(_DELAY_FIELD, _delay_text(delay))

    @property
    def times(self) -> int:
        """How many times the output fires; -1 for always."""
        return int(self._fields()[2][_TIMES_FIELD])

    @times.setter
    def times(self, times: int) -> None:
        if operator.index(times) != self.times:
            self._set(_TIMES_FIELD, _times_text(times))

    @property
    def separator(self) -> str:
        """The field separator this output is written with: ``,`` or ``\\x1b``."""
        return self._fields()[1]

    @property
    def value(self) -> str:
        """The keyvalue's value text, as stored."""
        return self._link.read()[1]

    def __eq__(self, other: object) -> bool:
        """Outputs are equal when bound to the same keyvalue."""
        return isinstance(other, Output) and self._link == other._link

    def __hash__(self) -> int:
        return hash(self._link)

    def __repr__(self) -> str:
        try:
            return (f"Output({self.name!r}, target={self.target!r}, input={self.input!r}, "
                    f"parameter={self.parameter!r}, delay={self.delay!r}, times={self.times!r})")
        except BspError as err:
            return f"Output(<{err.message}>)"

    def _fields(self) -> tuple[str, str, list[str]]:
        key, value = self._link.read()
        return key, *_parse(value)

    def _set(self, index: int, text: str) -> None:
        key, value = self._link.read()
        self._link.write(key, _replace(value, index, text))
