"""The links of an entity lump: every output and every key that names other entities, and
the entities each one reaches under its engine's rules (`classes.Rules`).

`links(lump, rules, classes)` reads them in file order; `Names` resolves a link's name: to
the entities it reaches (a list, empty when it reaches none: dangling), or None when the
engine resolves it only while the map runs (`!activator`, `!player`...; names an entity such
as npc_maker gives what it spawns, or an output's `AddOutput targetname X` gives its target;
and, for a link a classname answers, a class the game creates while it runs: the player, a
point class of the entity definitions).
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ...format.names import fold
from ...lumps.connections import names_match, split_output
from ...lumps.entities import Entity
from .classes import MANAGER_KEYS, MANAGER_PREFIXES, Classes, Rules

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
    """Every link of the entities, in file order (see the module's doc). An output is told
    by its value; a pair with no key is none (the engine matches the key against the class's
    output names, and no output is named "")."""
    managers = {fold(c) for c in rules.manager_classes}
    for index, entity in enumerate(entities):
        classname = fold(entity.get("classname", "").strip())
        keys = _name_keys(classname, rules, classes)
        manager = classname in managers
        for key, value in entity.pairs():
            folded = fold(key)
            if rules.source and key and (parsed := split_output(value)):
                target, input_name, parameter, delay, _ = parsed[1]
                yield Link(index, key, target, value, input_name, parameter, delay, True)
            elif folded in keys:
                name = value.split(",", 1)[0] if folded == "parentname" else value
                if name.strip():
                    yield Link(index, key, name, value, by_class=keys[folded])
            elif manager and folded not in MANAGER_KEYS \
                    and not folded.startswith(MANAGER_PREFIXES):
                yield Link(index, key, key.split("#", 1)[0], value)


def _name_keys(classname: str, rules: Rules, classes: Classes | None) -> dict[str, bool]:
    """The keys of a class that name entities, each with whether a classname answers it."""
    keys: dict[str, bool] | None = None
    if rules.source and classes is not None:
        known = classes.entity_keys(classname)
        if known is not None:
            keys = dict(known)
    if keys is None:
        keys = {fold(k): False for k in rules.target_keys}
        for key in rules.class_keys.get(classname, ()):
            keys[fold(key)] = False
    for key in rules.spawn_class.get(classname, ()):
        keys.pop(fold(key), None)
    for key in rules.name_or_class.get(classname, ()):
        keys[fold(key)] = True
    return keys


class Names:
    """The lump's names and classnames, to resolve links under the engine's rules."""

    def __init__(self, entities: Sequence[Entity], rules: Rules, classes: Classes | None = None
                 ) -> None:
        self.rules = rules
        self.classes = classes
        self.names: dict[str, list[int]] = {}
        self.classnames: dict[str, list[int]] = {}
        self.spawned: set[str] = set()
        self.spawned_classes = {fold(c) for c in rules.runtime_classes}
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
            if rules.source:
                self._given(entity)

    def _given(self, entity: Entity) -> None:
        """The names and classes the entity's outputs give while the map runs
        (`AddOutput targetname X`, `AddOutput classname X`: CBaseEntity::InputAddOutput)."""
        for _, value in entity.pairs():
            parsed = split_output(value) if "addoutput" in fold(value) else None
            if parsed is None or fold(parsed[1][1]) != "addoutput":
                continue
            key, _, given = parsed[1][2].strip().partition(" ")
            given = given.strip()
            if given and fold(key) == "targetname":
                self.spawned.add(self._key(given))
            elif given and fold(key) == "classname":
                self.spawned_classes.add(fold(given))

    def _key(self, name: str) -> str:
        return name if self.rules.exact_case else fold(name)

    def _matching(self, table: dict[str, list[int]], query: str) -> list[int]:
        if self.rules.source and query.endswith("*"):
            return sorted(i for name, hits in table.items() if names_match(query, name)
                          for i in hits)
        return list(table.get(self._key(query), ()))

    def resolve(self, link: Link) -> list[int] | None:
        """The indices of the entities `link` reaches, in file order ([]: none, dangling);
        None when only the running map knows (a `!` name, a name given to spawned entities
        or by an output, a class the game creates)."""
        query = link.name
        if self.rules.source and query.startswith("!"):
            return [link.source] if fold(query) == "!self" else None
        found = self._matching(self.names, query)
        if not found and self.rules.source and link.by_class:
            found = self._matching(self.classnames, query)
            if not found and self._spawnable(query):
                return None
        if not found and (self._spawned(query) or self.rules.runtime_prefix
                          and query.startswith(self.rules.runtime_prefix)):
            return None
        return found

    def _spawned(self, query: str) -> bool:
        if self.rules.source and query.endswith("*"):
            return any(names_match(query, name) for name in self.spawned)
        return self._key(query) in self.spawned

    def _spawnable(self, query: str) -> bool:
        """Whether entities of class `query` may exist while the map runs though the map
        places none."""
        if fold(query) in self.spawned_classes:
            return True
        return self.classes is not None and not query.endswith("*") and \
            self.classes.spawnable(query)
