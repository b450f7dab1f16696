"""The links of an entity lump: every output and every key that names other entities, and
the entities each one reaches under its engine's rules (`classes.Rules`).

`links(lump, rules, classes)` reads them in file order; `Names` resolves a link's name: to
the entities it reaches (a list, empty when it reaches none: dangling), or None when the
engine resolves it only while the map runs (`!activator`, `!player`..., and names an entity
such as npc_maker gives what it spawns).
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ...format.names import fold
from ...lumps.connections import names_match, split_output
from ...lumps.entities import Entity
from .classes import ENTVARS, Classes, Rules

__all__ = ["Link", "Names", "links"]


@dataclass(frozen=True, slots=True)
class Link:
    """One reference from entity `source` (its index in the lump): `key` as written (the
    output's name for an output), `name` the entities it names, `value` the whole value;
    for an output, `input`, `parameter` and `delay` (text) too. `by_class`: a classname
    answers it when no name does."""

    source: int
    key: str
    name: str
    value: str
    input: str | None = None
    parameter: str = ""
    delay: str = ""
    by_class: bool = False

    @property
    def is_output(self) -> bool:
        return self.input is not None


def links(entities: Sequence[Entity], rules: Rules, classes: Classes | None = None
          ) -> Iterator[Link]:
    """Every link of the entities, in file order (see the module's doc)."""
    managers = {fold(c) for c in rules.manager_classes}
    for index, entity in enumerate(entities):
        classname = fold(entity.get("classname", "").strip())
        keys = _name_keys(classname, rules, classes)
        manager = classname in managers
        for key, value in entity.pairs():
            folded = fold(key)
            if rules.source and (parsed := split_output(value)):
                target, input_name, parameter, delay, _ = parsed[1]
                yield Link(index, key, target, value, input_name, parameter, delay, True)
            elif folded in keys:
                name = value.split(",", 1)[0] if folded == "parentname" else value
                if name.strip():
                    yield Link(index, key, name, value, by_class=keys[folded])
            elif manager and folded not in ENTVARS and not folded.startswith(("_", "zhlt")):
                yield Link(index, key, key.split("#", 1)[0], value)


def _name_keys(classname: str, rules: Rules, classes: Classes | None) -> dict[str, bool]:
    """The keys of a class that name entities, each with whether a classname answers it."""
    if rules.source and classes is not None:
        known = classes.entity_keys(classname)
        if known is not None:
            return dict(known)
    keys = {fold(k): False for k in rules.target_keys}
    for key in rules.class_keys.get(classname, ()):
        keys[fold(key)] = False
    return keys


class Names:
    """The lump's names and classnames, to resolve links under the engine's rules."""

    def __init__(self, entities: Sequence[Entity], rules: Rules) -> None:
        self.rules = rules
        self.names: dict[str, list[int]] = {}
        self.classnames: dict[str, list[int]] = {}
        self.spawned: set[str] = set()
        spawners = {fold(c): tuple(map(fold, keys)) for c, keys in rules.spawned_names.items()}
        for index, entity in enumerate(entities):
            classname = entity.get("classname", "")
            name = entity.get("targetname", "")
            if name:
                self.names.setdefault(self._key(name), []).append(index)
            if classname:
                self.classnames.setdefault(fold(classname), []).append(index)
            for key in spawners.get(fold(classname), ()):
                if value := entity.get(key, ""):
                    self.spawned.add(self._key(value))

    def _key(self, name: str) -> str:
        return name if self.rules.exact_case else fold(name)

    def _matching(self, table: dict[str, list[int]], query: str) -> list[int]:
        if self.rules.source and query.endswith("*"):
            return sorted(i for name, hits in table.items() if names_match(query, name)
                          for i in hits)
        return list(table.get(self._key(query), ()))

    def resolve(self, link: Link) -> list[int] | None:
        """The indices of the entities `link` reaches, in file order ([]: none, dangling);
        None when only the running map knows (a `!` name, a name given to spawned entities)."""
        query = link.name
        if self.rules.source and query.startswith("!"):
            return [link.source] if fold(query) == "!self" else None
        found = self._matching(self.names, query)
        if not found and self.rules.source and link.by_class:
            found = self._matching(self.classnames, query)
        if not found and self._spawned(query):
            return None
        return found

    def _spawned(self, query: str) -> bool:
        if self.rules.source and query.endswith("*"):
            return any(names_match(query, name) for name in self.spawned)
        return self._key(query) in self.spawned
