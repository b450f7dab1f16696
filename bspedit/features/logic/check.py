"""`check(bsp)`: what is wrong with a map's entity logic, as findings.

Problems (`severity` "problem", a failed check): a link (output, `target`, `killtarget`...; see `links`) that
reaches no entity under its engine's rules (`dangling`); on Source maps, an output whose
input the target's class does not accept, by the entity definitions (`input`; a class they
do not describe is not judged); a second entity of a class a map holds once (`duplicate`);
with a game's file system, an asset key naming a file that is neither packed nor shipped, or
a soundscript or soundscape no script defines (`asset`). Warnings (`severity` "warning", not
a failure): an entity whose `origin` lies outside the world's bounds, model 0's mins and
maxs in MODELS (`outside`: the engines spawn it anyway, and entities only a compiler reads
(lights) or logic entities parked in the void are common and harmless). Notes (`severity`
"note", not a failure): named entities that nothing links to (`untargeted`). Unknown
(`severity` "unknown", not a failure): an `asset` found nowhere when the file system cannot
judge (`GameFS.unjudged`: the base game's search paths are not on this machine), since the
base game may ship it.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...format.names import fold
from ...lumps.entities import Entity
from .classes import Classes, Rules, rules_for
from .links import Link, Names, links

if TYPE_CHECKING:
    from ...bsp import Bsp
    from ..pack.gamefs import GameFS

__all__ = ["NOTE", "PROBLEM", "SEVERITIES", "UNKNOWN", "WARNING", "Finding", "check",
           "check_entities", "introduced", "stored_entities", "world_bounds"]

PROBLEM, WARNING, NOTE, UNKNOWN = "problem", "warning", "note", "unknown"
SEVERITIES = (PROBLEM, WARNING, NOTE, UNKNOWN)
#: How far (units) an origin may lie beyond the world's bounds: float rounding of the bounds.
MARGIN = 1.0


@dataclass(frozen=True, slots=True)
class Finding:
    """One finding about entity `index` (its place in the lump), its `key` and `value`."""

    kind: str
    severity: str
    index: int
    classname: str
    targetname: str
    key: str
    value: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "severity": self.severity,
                "entity": {"index": self.index, "classname": self.classname,
                           "targetname": self.targetname},
                "key": self.key, "value": self.value, "message": self.message}

    def signature(self) -> tuple[str, str, str, str, str]:
        """What identifies the finding across an edit that moves entities (not the index)."""
        return self.kind, self.classname, self.targetname, self.key, self.value

    def __str__(self) -> str:
        name = f" '{self.targetname}'" if self.targetname else ""
        key = f" {self.key}" if self.key else ""
        return f"{self.severity}: entity {self.index} {self.classname or '?'}{name}{key}: {self.message}"


def check(bsp: Bsp, *, classes: Classes | None = None, fs: GameFS | None = None,
          entities: Sequence[Entity] | None = None) -> list[Finding]:
    """The findings of the map's entities (see the module's doc), or of `entities` given
    in their place; `classes` the Source entity definitions (default: srctools' bundled
    ones), `fs` the game's file system for asset keys (Source maps)."""
    if entities is None:
        entities = list(bsp.entities(lenient=True))
    rules = rules_for(bsp.family.engine)
    if rules.source and classes is None:
        classes = Classes()
    found = check_entities(entities, rules, classes, world_bounds(bsp))
    if fs is not None and rules.source:
        found += _assets(bsp, entities, fs)
    return found


def check_entities(entities: Sequence[Entity], rules: Rules, classes: Classes | None = None,
                   bounds: tuple[tuple[float, ...], tuple[float, ...]] | None = None
                   ) -> list[Finding]:
    """The findings that the entities alone give (every kind but `asset`)."""
    names = Names(entities, rules)
    reached: set[int] = set()
    out: list[Finding] = []
    for link in links(entities, rules, classes):
        targets = names.resolve(link)
        if targets is None:
            continue
        reached.update(targets)
        source = entities[link.source]
        if not targets:
            out.append(_finding("dangling", PROBLEM, link.source, source, link.key, link.value,
                                _dangling(link)))
        elif link.input is not None and classes is not None:
            out += _inputs(link, source, [entities[t] for t in targets], classes)
    out += _duplicates(entities, rules)
    if bounds is not None:
        out += _outside(entities, bounds)
    for index, entity in enumerate(entities):
        name = entity.get("targetname", "")
        if name and index not in reached and fold(entity.get("classname", "")) != "worldspawn":
            out.append(_finding("untargeted", NOTE, index, entity, "targetname", name,
                                "nothing links to this name"))
    return sorted(out, key=lambda f: (SEVERITIES.index(f.severity), f.index))


def stored_entities(bsp: Bsp) -> list[Entity]:
    """The map's entities as stored, parsed apart from `bsp.entities()` (whose first call
    decides how leniently the map's own view is read)."""
    from ...lumps.entities import EntityLump

    return list(EntityLump.parse(bsp.content(bsp.family.entities), lenient=True))


def introduced(before: Sequence[Finding], after: Sequence[Finding]) -> list[Finding]:
    """The findings of `after` that `before` does not have (compared by `signature`, as
    many times as each occurs): what an edit brought in."""
    left = Counter(f.signature() for f in before)
    out = []
    for finding in after:
        if left[finding.signature()]:
            left[finding.signature()] -= 1
        else:
            out.append(finding)
    return out


def world_bounds(bsp: Bsp) -> tuple[tuple[float, ...], tuple[float, ...]] | None:
    """Model 0's mins and maxs (the world's bounds), None when the map has no models."""
    try:
        models = bsp.records("MODELS")
    except Exception:  # noqa: BLE001 - no fixed-size MODELS lump: nothing to compare with
        return None
    if not len(models):
        return None
    return tuple(map(float, models[0]["mins"])), tuple(map(float, models[0]["maxs"]))


def _finding(kind: str, severity: str, index: int, entity: Entity, key: str, value: str,
             message: str) -> Finding:
    return Finding(kind, severity, index, entity.get("classname", ""),
                   entity.get("targetname", ""), key, value, message)


def _dangling(link: Link) -> str:
    if link.input is not None:
        what = f"output to {link.name!r} ({link.input})" if link.name else "output with no target"
    else:
        what = f"{link.name!r}"
    classes = " or classname" if link.by_class and link.name else ""
    return f"{what} reaches no entity: no targetname{classes} matches"


def _inputs(link: Link, source: Entity, targets: list[Entity], classes: Classes
            ) -> Iterator[Finding]:
    """A finding for each class among the targets that does not accept the output's input."""
    assert link.input is not None
    refused = sorted({t.get("classname", "") for t in targets
                      if classes.accepts(t.get("classname", ""), link.input) is False})
    for classname in refused:
        yield _finding("input", PROBLEM, link.source, source, link.key, link.value,
                       f"{classname} {link.name!r} has no input {link.input!r}")


def _duplicates(entities: Sequence[Entity], rules: Rules) -> Iterator[Finding]:
    unique = {fold(c) for c in rules.unique}
    first: dict[str, int] = {}
    for index, entity in enumerate(entities):
        classname = fold(entity.get("classname", "").strip())
        if classname not in unique:
            continue
        if classname in first:
            yield _finding("duplicate", PROBLEM, index, entity, "classname", classname,
                           f"a second {classname} (the first is entity {first[classname]}); "
                           "a map holds one")
        else:
            first[classname] = index


def _outside(entities: Sequence[Entity], bounds: tuple[tuple[float, ...], tuple[float, ...]]
             ) -> Iterator[Finding]:
    mins, maxs = bounds
    for index, entity in enumerate(entities):
        text = entity.get("origin")
        if text is None:
            continue
        try:
            origin = [float(v) for v in text.split()]
        except ValueError:
            continue
        if len(origin) != 3:
            continue
        if any(v < lo - MARGIN or v > hi + MARGIN for v, lo, hi in zip(origin, mins, maxs)):
            box = " ".join(f"{v:g}" for v in mins) + " to " + " ".join(f"{v:g}" for v in maxs)
            yield _finding("outside", WARNING, index, entity, "origin", text,
                           f"outside the world's bounds ({box})")


def _assets(bsp: Bsp, entities: Sequence[Entity], fs: GameFS) -> list[Finding]:
    """Asset keys naming a file neither packed nor shipped, or a soundscript or soundscape
    that no script defines (particle names are not looked up: see `pack.deps`): problems, or
    unknown when `fs` cannot judge what is not here."""
    from ..pack.chains import Chains
    from ..pack.deps import MapFiles
    from ..pack.entity_assets import all_asset_keys
    from ..pack.model import is_file
    from ..pack.refs import key_references, map_name

    files = MapFiles(bsp, fs)
    chains = Chains(files.read, map_name(bsp), files.exists)
    severity, why = (PROBLEM, "") if fs.unjudged is None else (UNKNOWN, f"; {fs.unjudged}")
    out = []
    for index, entity in enumerate(entities):
        kinds = {fold(key): kind for key, kind in all_asset_keys(entity.get("classname", ""))}
        for key, value in entity.pairs():
            kind = kinds.get(fold(key))
            if kind is None:
                continue
            for ref in key_references(kind, value, ()):
                if ref.optional:
                    continue
                if is_file(ref.path):
                    if not files.exists(ref.path):
                        out.append(_finding("asset", severity, index, entity, key, value,
                                            f"{ref.path} is neither packed nor in the game{why}"))
                elif chains.defined(ref.path) is False:
                    what, _, name = ref.path.partition(":")
                    out.append(_finding("asset", severity, index, entity, key, value,
                                        f"no script of the game or map defines the {what} "
                                        f"{name!r}{why}"))
    return out
