"""`check(bsp)`: what is wrong with a map's entity logic, as findings.

Problems (`severity` "problem", a failed check): a link (output, `target`, `killtarget`...; see
`links`) that reaches no entity under its engine's rules (`dangling`); on Source maps, an output
whose input the target's class does not accept, by the entity definitions (`input`; a class
they do not describe is not judged); a second entity of a class a map holds once, `worldspawn`
(`duplicate`); with a game's file system, an asset key naming a file that is neither packed nor
shipped, or a soundscript or soundscape no script defines (`asset`). Warnings (`severity`
"warning", not a failure): a second entity of a class of which one takes effect (Source's
`light_environment`: vrad lights the sky from the first; `duplicate`); an entity outside the
world's bounds, model 0's mins and maxs in MODELS (`outside`): a brush entity (`"model"
"*N"`) whose model's box, moved by its origin, does not meet them, another entity whose
`origin` lies beyond them. The engines spawn it anyway and logic entities parked in the void
are common and harmless; lights whose place only the light compiler reads are not judged, nor
a map whose world has no faces. Notes (`severity` "note", not a failure): named entities that
nothing links to (`untargeted`). Unknown (`severity` "unknown", not a failure): an `asset`
found nowhere when the file system cannot judge (`GameFS.unjudged`: the base game's search
paths are not on this machine), since the base game may ship it.
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
           "check_entities", "introduced", "model_bounds", "stored_entities", "summary"]

PROBLEM, WARNING, NOTE, UNKNOWN = "problem", "warning", "note", "unknown"
SEVERITIES = (PROBLEM, WARNING, NOTE, UNKNOWN)
#: How far (units) an origin may lie beyond the world's bounds: float rounding of the bounds.
MARGIN = 1.0
#: A box: mins and maxs.
Box = tuple[tuple[float, ...], tuple[float, ...]]


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
    found = check_entities(entities, rules, classes, model_bounds(bsp))
    if fs is not None and rules.source:
        found += _assets(bsp, entities, fs)
    return found


def check_entities(entities: Sequence[Entity], rules: Rules, classes: Classes | None = None,
                   models: Sequence[Box] | None = None) -> list[Finding]:
    """The findings that the entities alone give (every kind but `asset`); `outside` needs
    the map's `models` (`model_bounds`)."""
    names = Names(entities, rules, classes)
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
    if models:
        out += _outside(entities, rules, models)
    for index, entity in enumerate(entities):
        name = entity.get("targetname", "")
        if name and index not in reached and fold(entity.get("classname", "")) != "worldspawn":
            out.append(_finding("untargeted", NOTE, index, entity, "targetname", name,
                                "nothing links to this name"))
    return sorted(out, key=lambda f: (SEVERITIES.index(f.severity), f.index))


def summary(findings: Sequence[Finding]) -> dict[str, int]:
    """How many findings of each severity (every severity, in `SEVERITIES` order)."""
    return {s: sum(f.severity == s for f in findings) for s in SEVERITIES}


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


def model_bounds(bsp: Bsp) -> list[Box] | None:
    """Each model's mins and maxs (model 0 the world's), None when the map has no fixed-size
    MODELS lump or its world has no faces (a compiler's placeholder box: nothing to be
    outside of)."""
    try:
        models = bsp.records("MODELS")
    except Exception:  # noqa: BLE001 - no fixed-size MODELS lump: nothing to compare with
        return None
    if not len(models):
        return None
    faces = "num_surfaces" if "num_surfaces" in models.dtype.names else "numfaces"
    if faces in models.dtype.names and not int(models[0][faces]):
        return None
    mins, maxs = models["mins"].tolist(), models["maxs"].tolist()
    return [(tuple(map(float, lo)), tuple(map(float, hi))) for lo, hi in zip(mins, maxs)]


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
    """A problem for a second entity of a class a map holds once, a warning for a second one
    of a class of which one takes effect."""
    severity = {fold(c): PROBLEM for c in rules.unique}
    severity.update({fold(c): WARNING for c in rules.one_in_effect})
    first: dict[str, int] = {}
    for index, entity in enumerate(entities):
        classname = fold(entity.get("classname", "").strip())
        if classname not in severity:
            continue
        if classname not in first:
            first[classname] = index
            continue
        why = "a map holds one" if severity[classname] == PROBLEM else \
            "only the first takes effect"
        yield _finding("duplicate", severity[classname], index, entity, "classname", classname,
                       f"a second {classname} (the first is entity {first[classname]}); {why}")


def _outside(entities: Sequence[Entity], rules: Rules, models: Sequence[Box]
             ) -> Iterator[Finding]:
    """A warning for each entity outside the world's box, `models[0]` (see the module's doc)."""
    world = models[0]
    lights = {fold(c) for c in rules.compiler_lights}
    for index, entity in enumerate(entities):
        if fold(entity.get("classname", "").strip()) in lights:
            continue
        text = entity.get("origin")
        origin = _vector(text) if text is not None else (0.0, 0.0, 0.0)
        model = _submodel(entity.get("model", ""), len(models))
        if origin is None or (text is None and model is None):
            continue
        if model is None:
            box: Box = (origin, origin)
        else:
            box = (tuple(o + v for o, v in zip(origin, models[model][0])),
                   tuple(o + v for o, v in zip(origin, models[model][1])))
        if _meets(box, world):
            continue
        where = " to ".join(" ".join(f"{v:g}" for v in corner) for corner in world)
        key, value = ("origin", text) if text is not None else ("model", entity.get("model", ""))
        what = f"model *{model}'s box " if model is not None else ""
        yield _finding("outside", WARNING, index, entity, key, value,
                       f"{what}outside the world's bounds ({where})")


def _vector(text: str) -> tuple[float, ...] | None:
    try:
        vector = tuple(float(v) for v in text.split())
    except ValueError:
        return None
    return vector if len(vector) == 3 else None


def _submodel(value: str, count: int) -> int | None:
    """The model number of a `"*N"` model key, None for another model or one the map lacks."""
    if not value.startswith("*") or not value[1:].isdigit():
        return None
    number = int(value[1:])
    return number if 0 < number < count else None


def _meets(box: Box, world: Box) -> bool:
    """Whether `box` and the world's box share a point (within MARGIN)."""
    return all(lo <= whi + MARGIN and hi >= wlo - MARGIN
               for lo, hi, wlo, whi in zip(box[0], box[1], world[0], world[1]))


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
