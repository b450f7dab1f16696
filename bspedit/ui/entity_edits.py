"""The entity edits and Stripper configs of the page, as the `ent` and `patch` verbs do them.

An edit names its entity by index (the page's row); its command names it as portably as the
map allows: by `--where` pairs that match it alone (its hammerid, its targetname, ...), so the
script runs over other builds of the map, else by `--index`. The maker picks the words once,
on the state the edit applies to, so replaying it always edits the same entity.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import BspError
from .edits import IN, OUT, Context, Edit, Word, file_slot, register
from .web import UiError, field

if TYPE_CHECKING:
    from ..bsp import Bsp
    from ..lumps.entities import Entity, EntityLump

# keys tried, alone then together, to name an entity by what it holds
_NAMING = (("hammerid",), ("targetname",), ("classname",), ("classname", "targetname"),
           ("classname", "model"),
           ("classname", "origin"), ("classname", "targetname", "origin"))


class Selector:
    """How an edit finds its entity: `where` pairs matching it alone, else its `index`."""

    __slots__ = ("where", "index")

    def __init__(self, where: list[tuple[str, str]] | None, index: int) -> None:
        self.where, self.index = where, index

    @classmethod
    def of(cls, lump: EntityLump, index: int) -> Selector:
        entities = list(lump)
        if not 0 <= index < len(entities):
            raise UiError(400, "bad_input", f"no entity {index} (the map has {len(entities)})")
        entity = entities[index]
        candidates = [[(key, entity[key]) for key in keys] for keys in _NAMING
                      if all(key in entity for key in keys)] + [entity.pairs()]
        for where in candidates:     # `--where KEY=VALUE`: a KEY holding '=' cannot be said
            if where and all(key and "=" not in key for key, _ in where) and \
                    lump.find(where) == [entity]:
                return cls(where, index)
        return cls(None, index)

    def find(self, lump: EntityLump) -> Entity:
        if self.where is None:
            return list(lump)[self.index]
        found = lump.find(self.where)
        if len(found) != 1:     # the edits before this one left the same state: cannot happen
            raise BspError(f"entity {self.index} is not found again ({len(found)} match)")
        return found[0]

    def words(self) -> list[str]:
        if self.where is None:
            return ["--index", str(self.index)]
        return [w for key, value in self.where for w in ("--where", f"{key}={value}")]

    def match_block(self) -> str | None:
        """The Stripper `match:` block naming the entity, if it is named by pairs."""
        return None if self.where is None else _block("match", self.where)


def _entities(bsp: Bsp, context: Context) -> EntityLump:
    return bsp.entities(lenient=context.lenient)


def _ent(verb: str, context: Context, *words: Word) -> list[Word]:
    """`ent VERB IN WORDS... [--lenient] -o OUT`."""
    return ["ent", verb, IN, *words, *(["--lenient"] if context.lenient else []), "-o", OUT]


def _pair_word(key: str, value: str) -> str:
    if not key or "=" in key:
        raise UiError(400, "bad_input", f"a key cannot be empty or hold '=' ({key!r}): the "
                                        "command line reads KEY=VALUE")
    return f"{key}={value}"


def _block(name: str, pairs: list[tuple[str, str]]) -> str:
    lines = "".join(f'\t\t"{key}" "{value}"\n' for key, value in pairs)
    return f"\t{name}:\n\t{{\n{lines}\t}}\n"


def _describe(entity: Entity, index: int) -> str:
    classname = entity.get("classname", "?")
    name = entity.get("targetname")
    return f"entity {index} ({classname}{' ' + repr(name) if name else ''})"


def _check_text(*texts: str) -> None:
    """Refuse (400) what a quoted key or value cannot hold, before anything is applied."""
    for text in texts:
        if '"' in text or "\0" in text:
            raise UiError(400, "bad_input", f"{text!r}: a key or value cannot hold '\"' or NUL")


def _census_kept(lump: EntityLump, change: Callable[[EntityLump], object], what: str,
                 force: bool) -> None:
    """Refuse (409) an edit that would leave no entity or no worldspawn, as the verbs do
    without --force: tried on a copy of the entity text."""
    from ..lumps.entities import EntityLump as Lump

    before = lump.census()
    copy = Lump.parse(lump.to_bytes(), lenient=True)
    change(copy)
    loss = before.loss(copy.census())
    if loss and not force:
        raise UiError(409, "refused", f"{what} {loss}; refused (force applies it anyway)")


@register("set_key")
def set_key(bsp: Bsp, params: dict[str, Any], context: Context) -> Edit:
    """`ent set`: KEY=VALUE on the entity: its first pair with KEY (added if it has none), or
    its `occurrence`th (1 is the first; another output of the same name)."""
    lump = _entities(bsp, context)
    index, key = field(params, "entity", int), field(params, "key", str)
    value = field(params, "value", str)
    occurrence = field(params, "occurrence", int, default=1)
    _check_text(key, value)
    word = _pair_word(key, value)
    selector = Selector.of(lump, index)
    entity = selector.find(lump)
    count = len(entity.get_all(key))
    if occurrence < 1 or occurrence > max(count, 1):
        raise UiError(400, "bad_input", f"{_describe(entity, index)} has {count} pair(s) "
                                        f"with {key!r}, not {occurrence}")

    def apply(target: Bsp) -> None:
        selector.find(_entities(target, context)).set(key, value, occurrence=occurrence)

    match = selector.match_block()
    stripper = None if match is None or count > 1 else \
        f"modify:\n{{\n{match}{_block('replace' if count else 'insert', [(key, value)])}}}\n"
    nth = ["--occurrence", str(occurrence)] if count > 1 else []
    which = f" (pair {occurrence} of {count})" if count > 1 else ""
    return Edit("set_key", params, f'set "{key}" "{value}"{which} on {_describe(entity, index)}',
                _ent("set", context, *selector.words(), *nth, word), apply, stripper=stripper)


@register("add_key")
def add_key(bsp: Bsp, params: dict[str, Any], context: Context) -> Edit:
    """`ent set --append`: a new pair KEY VALUE at the end of the entity, even when it has
    KEY (another output of the same name)."""
    lump = _entities(bsp, context)
    index, key = field(params, "entity", int), field(params, "key", str)
    value = field(params, "value", str)
    _check_text(key, value)
    word = _pair_word(key, value)
    selector = Selector.of(lump, index)
    entity = selector.find(lump)

    def apply(target: Bsp) -> None:
        selector.find(_entities(target, context)).add(key, value)

    match = selector.match_block()
    stripper = None if match is None else \
        f"modify:\n{{\n{match}{_block('insert', [(key, value)])}}}\n"
    return Edit("add_key", params, f'add "{key}" "{value}" to {_describe(entity, index)}',
                _ent("set", context, *selector.words(), "--append", word), apply,
                stripper=stripper)


@register("delete_key")
def delete_key(bsp: Bsp, params: dict[str, Any], context: Context) -> Edit:
    """`ent delete-key`: every pair with KEY from the entity, or its `occurrence`th."""
    lump = _entities(bsp, context)
    index, key = field(params, "entity", int), field(params, "key", str)
    occurrence = field(params, "occurrence", int, default=None)
    force = field(params, "force", bool, default=False)
    selector = Selector.of(lump, index)
    entity = selector.find(lump)
    values = entity.get_all(key)
    if not values or occurrence is not None and not 1 <= occurrence <= len(values):
        raise UiError(400, "bad_input", f"{_describe(entity, index)} has {len(values)} pair(s) "
                                        f"with {key!r}")
    if len(values) == 1:
        occurrence = None       # the same edit: the command says it plainly
    _census_kept(lump, lambda copy: selector.find(copy).delete(key, occurrence=occurrence),
                 f"deleting {key!r}", force)

    def apply(target: Bsp) -> None:
        selector.find(_entities(target, context)).delete(key, occurrence=occurrence)

    match = selector.match_block()
    gone = values if occurrence is None else [values[occurrence - 1]]
    stripper = None if match is None or occurrence is not None and values.count(gone[0]) > 1 \
        else f"modify:\n{{\n{match}{_block('delete', [(key, v) for v in gone])}}}\n"
    nth = ["--occurrence", str(occurrence)] if occurrence is not None else []
    words = [*selector.words(), *nth, key, *(["--force"] if force else [])]
    which = f" (pair {occurrence} of {len(values)})" if occurrence is not None else ""
    return Edit("delete_key", params, f'delete "{key}"{which} from {_describe(entity, index)}',
                _ent("delete-key", context, *words), apply, stripper=stripper)


def _adding(params: dict[str, Any], pairs: list[tuple[str, str]], context: Context,
            summary: str, op: str) -> Edit:
    """`ent add`: a new entity of `pairs`, after the last one."""
    for key, value in pairs:
        _check_text(key, value)
    words = [_pair_word(key, value) for key, value in pairs]

    def apply(target: Bsp) -> None:
        _entities(target, context).add_entity(pairs)

    lines = "".join(f'\t"{key}" "{value}"\n' for key, value in pairs)
    return Edit(op, params, summary, _ent("add", context, *words), apply,
                stripper=f"add:\n{{\n{lines}}}\n")


@register("add_entity")
def add_entity(bsp: Bsp, params: dict[str, Any], context: Context) -> Edit:
    """A new entity of the pairs `keys` ([[key, value], ...])."""
    keys = field(params, "keys", list)
    if not keys or not all(isinstance(p, list) and len(p) == 2 and all(isinstance(t, str)
                                                                       for t in p) for p in keys):
        raise UiError(400, "bad_input", "'keys' must be a list of [key, value] strings")
    pairs = [(k, v) for k, v in keys]
    classname = next((v for k, v in pairs if k.lower() == "classname"), "?")
    _entities(bsp, context)
    return _adding(params, pairs, context, f"add an entity ({classname})", "add_entity")


@register("duplicate_entity")
def duplicate_entity(bsp: Bsp, params: dict[str, Any], context: Context) -> Edit:
    """A copy of the entity, after the last one (`ent add` with its pairs)."""
    lump = _entities(bsp, context)
    index = field(params, "entity", int)
    entity = Selector.of(lump, index).find(lump)
    return _adding(params, entity.pairs(), context, f"duplicate {_describe(entity, index)}",
                   "duplicate_entity")


@register("delete_entity")
def delete_entity(bsp: Bsp, params: dict[str, Any], context: Context) -> Edit:
    """`ent remove`: the entity."""
    lump = _entities(bsp, context)
    index = field(params, "entity", int)
    force = field(params, "force", bool, default=False)
    selector = Selector.of(lump, index)
    entity = selector.find(lump)
    _census_kept(lump, lambda copy: copy.remove(selector.find(copy)),
                 f"deleting {_describe(entity, index)}", force)

    def apply(target: Bsp) -> None:
        entities = _entities(target, context)
        entities.remove(selector.find(entities))

    stripper = None if selector.where is None else \
        "filter:\n{\n" + "".join(f'\t"{k}" "{v}"\n' for k, v in selector.where) + "}\n"
    words = [*selector.words(), *(["--force"] if force else [])]
    return Edit("delete_entity", params, f"delete {_describe(entity, index)}",
                _ent("remove", context, *words), apply, stripper=stripper)


@register("replace_entity_text")
def replace_entity_text(bsp: Bsp, params: dict[str, Any], context: Context) -> Edit:
    """`ent import`: the whole entity text (as `ent export` writes it: a lump without its NUL
    keeps the map's terminator)."""
    from ..lumps.entities import EntityLump, split_terminator

    text = field(params, "text", str).encode("utf-8", "surrogateescape")
    force = field(params, "force", bool, default=False)
    lump = _entities(bsp, context)
    data = text if b"\0" in text else text + split_terminator(lump.to_bytes())[1]
    try:
        new = EntityLump.parse(data, lenient=context.lenient)
    except BspError as exc:
        raise UiError(400, "bad_input", f"the entity text: {exc}") from None
    if not new.census().worldspawn and not force:
        raise UiError(409, "refused", "the text has no worldspawn entity; refused (force "
                                      "imports it anyway)")

    def apply(target: Bsp) -> None:
        current = _entities(target, context).to_bytes()
        whole = text if b"\0" in text else text + split_terminator(current)[1]
        target.replace_entities(whole, lenient=context.lenient)

    words: list[Word] = [file_slot("entities.ent"), *(["--force"] if force else [])]
    return Edit("replace_entity_text", params,
                f"replace the entity text ({len(list(new))} entities)",
                ["ent", "import", IN, *words, *(["--lenient"] if context.lenient else []),
                 "-o", OUT], apply, files={"entities.ent": text})


@register("stripper")
def stripper(bsp: Bsp, params: dict[str, Any], context: Context) -> Edit:
    """`patch`: a Stripper:Source config, with the plugin's semantics (refused, as the verb
    refuses it without --force, when it matches nothing, or is destructive)."""
    from ..patching import apply as patching
    from ..patching.stripper import parse_config

    text = field(params, "config", str)
    force = field(params, "force", bool, default=False)
    data = text.encode("utf-8", "surrogateescape")
    config = parse_config(data, "config.cfg")
    preview = stripper_preview(bsp, context, data, force=force)
    if preview["refused"]:
        raise UiError(409, "refused", preview["refused"])
    if not (preview["removed"] or preview["added"] or preview["changed"]):
        raise UiError(409, "nothing_matched", "the config changes no entity")

    def apply(target: Bsp) -> None:
        _entities(target, context)
        patching.patch(target, [parse_config(data, "config.cfg")], force=force)

    blocks = len(config.blocks)
    return Edit("stripper", params,
                f"apply a Stripper config ({blocks} block(s): {len(preview['removed'])} removed, "
                f"{len(preview['added'])} added, {len(preview['changed'])} changed)",
                ["patch", IN, file_slot("config.cfg"), *(["--force"] if force else []),
                 "-o", OUT], apply, files={"config.cfg": data}, stripper=text.rstrip("\n") + "\n")


def stripper_preview(bsp: Bsp, context: Context, config: bytes, *,
                     force: bool = False) -> dict[str, Any]:
    """What the config would do to the map's entities, nothing applied: `removed`, `added`
    (entities: index, classname, pairs) and `changed` (index, classname, before and after
    pairs), plus the config's `diagnostics` and the `refused` message if the verb would refuse
    it. Tried on a copy of the entity text."""
    from ..features.diff import diff_entities
    from ..lumps.entities import EntityLump
    from ..patching import apply as patching
    from ..patching.stripper import apply as run, parse_config

    parsed = parse_config(config, "config.cfg")
    lump = _entities(bsp, context)
    before = EntityLump.parse(lump.to_bytes(), lenient=True)
    after = EntityLump.parse(lump.to_bytes(), lenient=True)
    refused = None
    try:
        patching.check_refusals([parsed], force=force)
    except BspError as exc:
        refused = str(exc)
    report = run([parsed], after)
    if report.loss and not force and refused is None:
        refused = f"{report.loss}: refused ({patching.FORCE})"
    diff = diff_entities(before, after)
    olds, news = list(before), list(after)
    changed = [{"index": change["index"], "classname": change["classname"],
                "before": olds[change["index"][0]].pairs(),
                "after": news[change["index"][1]].pairs(), "keys": change["keys"]}
               for change in diff["changed"]]
    return {"removed": diff["removed"], "added": diff["added"], "changed": changed,
            "diagnostics": [str(d) for d in parsed.diagnostics], "refused": refused,
            "blocks": [r.summary() for r in report.results]}
