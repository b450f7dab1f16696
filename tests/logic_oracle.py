"""An oracle for the entity logic tests, written apart from bspedit's parser and rules: a
regex reader of raw entity text, and each engine's name matching as the engines' sources
state it (strcmp for Quake 1 and GoldSrc, Q_stricmp for Quake 2 and 3, Source's NamesMatch
with its trailing `*`, and the classname fallback of CEventQueue::ServiceEvents)."""
from __future__ import annotations

import re

_TOKEN = re.compile(rb'"([^"]*)"|([{}])')
EXACT_CASE = {"q1", "bsp2", "2psb", "goldsrc", "bshift"}


def read_entities(text: bytes) -> list[list[tuple[str, str]]]:
    """The entities of raw entity text, each a list of (key, value) in file order."""
    text = text.split(b"\0", 1)[0]
    entities: list[list[tuple[str, str]]] = []
    current: list[str] | None = None
    for match in _TOKEN.finditer(text):
        if match.group(2) == b"{":
            current = []
        elif match.group(2) == b"}":
            if current is not None:
                entities.append([(current[i], current[i + 1]) for i in range(0, len(current) - 1, 2)])
            current = None
        elif current is not None:
            current.append(match.group(1).decode("utf-8", "surrogateescape"))
    return entities


def first(entity: list[tuple[str, str]], key: str) -> str:
    return next((v for k, v in entity if k.lower() == key.lower()), "")


def output_fields(value: str) -> list[str] | None:
    """An output's five fields (split on ESC if the value holds one, else on commas), None
    for a value that is no output."""
    fields = value.split("\x1b" if "\x1b" in value else ",")
    if len(fields) != 5:
        return None
    try:
        float(fields[3])
        int(fields[4])
    except ValueError:
        return None
    return fields


def matches(family: str, query: str, name: str) -> bool:
    """Whether `query` reaches an entity named `name` in `family`'s engine."""
    if not query or not name:
        return False
    if family in EXACT_CASE:
        return query == name
    if family != "source":
        return query.lower() == name.lower()
    q, n = query.lower(), name.lower()
    return q == n or (q.endswith("*") and n.startswith(q[:-1]))


def reached(family: str, entities: list[list[tuple[str, str]]], query: str, *,
            by_class: bool) -> list[int]:
    """The indices of the entities `query` reaches: by targetname, else (Source, when
    `by_class`) by classname."""
    hits = [i for i, e in enumerate(entities) if matches(family, query, first(e, "targetname"))]
    if not hits and family == "source" and by_class:
        hits = [i for i, e in enumerate(entities) if matches(family, query, first(e, "classname"))]
    return hits
