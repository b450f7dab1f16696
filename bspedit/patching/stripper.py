"""Stripper:Source configs: read them the way the plugin does, apply them to an EntityLump.

The plugin (alliedmodders/stripper-source, ``parser.cpp``) reads a config with fgets
into a 254-byte buffer, trims each read, classifies it (``grammars/stripper.lark``
defines those line classes, in the plugin's order) and runs a small state machine:
a filter:/add: block runs at its closing ``}``, a modify: block collects its match:,
replace:, delete: and insert: sub-blocks and runs at the next ``}`` outside a block.
`parse_config` replays that machine exactly and records, as `Diagnostic`s, every
line the plugin ignores and every construct that does something surprising.

A config that is not text (a NUL byte, or a BSP map's magic) is reported too
(kind ``not-text``); `refusals` picks the diagnostics that make a config destructive,
which ``bspedit patch`` refuses unless forced.

`apply` then runs the blocks on an EntityLump with the plugin's rules: an entity
matches when the number of its keyvalues matching any of the block's pairs reaches
the number of pairs; keys and plain values compare ASCII-case-insensitively, a
``/value/`` is a case-insensitive regex searched anywhere. Keyvalues with an empty
key or value are invisible, as they are to the plugin, which drops them. Untouched
entities keep their bytes; `plugin_text` gives the text exactly as the plugin hands
it to the engine.

All text is handled as latin-1 (one character per byte), like bspedit.lumps.entities, so
comparisons and regexes work on bytes as the plugin's do. The regexes run with PCRE2
itself, compiled and matched with the plugin's options (`bspedit.patching.pcre`). `pcre=1` (on
`load_config` and `parse_config`) reads a config as the releases up to 2022 did, with PCRE 7.9
(CS:GO-era servers): its regexes mean what they meant there, and pairs are split by 7.9's
``\\s``, which has no VT; `plugin_run` reads the map's text the same way as its configs.
"""
from __future__ import annotations

import dataclasses
import itertools
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any, Literal

from lark import Lark

from ..lumps.entities import Census, Entity, EntityLump, decode
from ..format.families import BY_IDENT, BY_VERSION, KNOWN_UNSUPPORTED
from ..format.names import fold
from .pcre import PAIR_SPACE, Regex, RegexProblem, Version, compile_caseless

__all__ = ["Block", "BlockResult", "Config", "Diagnostic", "Pair", "Report", "apply",
           "config_chain", "load_config", "map_prefixes", "parse_config", "plugin_run", "plugin_text",
           "refusals"]

READ_SIZE = 253        # fgets(buffer, 254, fp) reads at most 253 bytes
_C_SPACE = " \t\n\v\f\r"  # isspace() in the C locale: what the plugin trims
_SUB_HEADERS = {"MATCH": "match", "REPLACE": "replace", "DELETE": "delete", "INSERT": "insert"}
_HEADERISH = re.compile(r"(?i)(filter|remove|add|modify|match|replace|delete|insert)\b\s*:?")
_EMPTY_PART = re.compile(r'"([^"]*)"\s+"([^"]*)"')
_SKIPPED_PAIR = ("not-a-pair", "bad-regex")   # a pair line the plugin skips

Kind = Literal["filter", "add", "modify"]


# ---------------------------------------------------------------- the line classes

@dataclass(frozen=True, slots=True)
class _Lines:
    """Whole-line regexes built from the grammar's terminals, in the plugin's test order."""

    in_modify: re.Pattern[str]   # every class
    elsewhere: re.Pattern[str]   # without the modify: sub-headers


@cache
def _lines(pcre: Version = 2) -> _Lines:
    """The line classes, with a pair's key and value split by that PCRE's \\s."""
    text = (files("bspedit.grammars") / "stripper.lark").read_text(encoding="utf-8")
    terminals = sorted(Lark(text, parser="lalr", start="line").terminals, key=lambda t: -t.priority)

    def regexp(terminal: Any) -> str:
        found: str = terminal.pattern.to_regexp()
        return found.replace(r"\s", PAIR_SPACE[pcre]) if terminal.name == "PROPERTY" else found

    def alternation(names: Iterable[str]) -> re.Pattern[str]:
        wanted = set(names)
        return re.compile("|".join(f"(?P<{t.name}>{regexp(t)})"
                                   for t in terminals if t.name in wanted), re.ASCII)

    every = [t.name for t in terminals]
    return _Lines(alternation(every), alternation(n for n in every if n not in _SUB_HEADERS))


def _reads(data: bytes) -> Iterator[tuple[int, int, str, bool]]:
    """(line number, read number within the line, trimmed text, whether the line goes on)
    of every non-empty read.

    Each line is read in pieces of at most 253 bytes; a piece ends at its first NUL
    (the plugin uses C strings).
    """
    for number, line in enumerate(data.decode("latin-1").split("\n"), 1):
        for piece, start in enumerate(range(0, len(line), READ_SIZE)):
            text = line[start:start + READ_SIZE].split("\0", 1)[0].strip(_C_SPACE)
            if text:
                yield number, piece, text, start + READ_SIZE < len(line)


# ---------------------------------------------------------------- the parsed config

@dataclass(frozen=True, slots=True)
class Pair:
    """One ``"key" "value"`` line of a block, as the plugin stores it.

    ``key`` and ``value`` are the config's bytes as latin-1 text. A ``/.../`` value
    keeps its leading slash and loses the trailing one (the plugin cuts it, so it is
    written as ``/...`` by add:, insert: and replace:); ``regex`` is its compiled
    pattern, None for a plain value.
    """

    key: str
    value: str
    line: int
    regex: Regex | None = None
    folded_key: str = field(init=False, compare=False, repr=False)
    folded_value: str = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "folded_key", fold(self.key))
        object.__setattr__(self, "folded_value", fold(self.value))

    def text(self) -> tuple[str, str]:
        """(key, value) as public text (UTF-8, invalid bytes as surrogates)."""
        return decode(self.key), decode(self.value)


@dataclass(frozen=True, slots=True)
class Block:
    """One block the plugin runs: a filter: or add: block, or a whole modify: block."""

    kind: Kind
    source: str
    line: int                        # where it opens
    end: int                         # the line whose '}' runs it
    pairs: tuple[Pair, ...] = ()     # filter: and add:
    match: tuple[Pair, ...] = ()     # modify:
    replace: tuple[Pair, ...] = ()
    delete: tuple[Pair, ...] = ()
    insert: tuple[Pair, ...] = ()

    @property
    def criteria(self) -> tuple[Pair, ...]:
        """The pairs an entity must match (filter: and modify:)."""
        return self.match if self.kind == "modify" else self.pairs


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """Something the plugin silently ignores or does surprisingly, at a config line."""

    source: str
    line: int
    kind: str
    message: str

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.kind}: {self.message}"

    def as_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True, slots=True)
class Config:
    """A parsed config: the blocks the plugin would run, in order, and the diagnostics;
    `pcre` is the PCRE version it was read for."""

    name: str
    blocks: tuple[Block, ...]
    diagnostics: tuple[Diagnostic, ...]
    pcre: Version = 2


def load_config(path: str | Path, name: str | None = None, *, maps: bool = False,
                pcre: Version = 2) -> Config:
    """Read and parse a config file (OSError if it cannot be read), for PCRE2 (`pcre` 2, the
    plugin's current releases) or PCRE 7.9 (`pcre` 1, its releases up to 2022).

    A file that starts like a BSP map is reported (``not-text``) without reading the rest,
    unless `maps`: then it is parsed as the plugin would parse it.
    """
    name = str(path) if name is None else name
    with open(path, "rb") as file:
        head = file.read(8)
        problem = None if maps else _not_text(head, name)
        if problem is not None and _map_magic(head):
            return Config(name, (), (problem,), pcre)
        return parse_config(head + file.read(), name, pcre=pcre)


def parse_config(text: bytes | str, name: str = "<config>", *, pcre: Version = 2) -> Config:
    """Parse config text (str is taken as UTF-8) exactly as the plugin reads it, with the
    regexes of PCRE version `pcre` (see `load_config`)."""
    data = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text
    reader = _Reader(name, pcre)
    if problem := _not_text(data, name):
        reader.diagnostics.append(problem)
    for line, piece, chunk, cut in _reads(data):
        reader.feed(line, piece, chunk, cut)
    return reader.finish()


def _map_magic(head: bytes) -> str | None:
    """How `head` (a file's first bytes) starts like a BSP map: its magic or version, or None."""
    ident = head[:4]
    if ident in BY_IDENT or ident in KNOWN_UNSUPPORTED:
        return repr(ident.decode("latin-1"))
    version = int.from_bytes(ident, "little") if len(ident) == 4 else None
    return f"version {version}" if version in BY_VERSION else None


def _not_text(data: bytes, name: str) -> Diagnostic | None:
    """A not-text diagnostic for config bytes that start like a map or hold a NUL byte."""
    if magic := _map_magic(data[:8]):
        return Diagnostic(name, 1, "not-text", f"starts like a BSP map ({magic}), not a config "
                          "(a map is given once, first)")
    nul = data.find(b"\0")
    if nul < 0:
        return None
    line = data.count(b"\n", 0, nul) + 1
    return Diagnostic(name, line, "not-text", f"a NUL byte (offset {nul}): not a text file "
                      "(the plugin ends each line at a NUL)")


def refusals(config: Config) -> list[Diagnostic]:
    """The diagnostics that make a config destructive, which `bspedit patch` refuses unless
    forced: the file is not text, or a filter: block removes more than it names (it has no
    pairs, or the plugin skips one of its pair lines)."""
    found = [d for d in config.diagnostics if d.kind == "not-text"]
    for block in config.blocks:
        if block.kind != "filter":
            continue
        skipped = next((d for d in config.diagnostics if d.kind in _SKIPPED_PAIR
                        and block.line < d.line < block.end), None)
        if skipped:
            rest = ("has no pair left: it removes every entity" if not block.pairs else
                    f"keeps only {_plural(len(block.pairs), 'pair', 'pairs')}: it removes "
                    "entities the skipped pair would have spared")
            found.append(dataclasses.replace(skipped, message=f"{skipped.message}; the filter: "
                                             f"block at line {block.line} {rest}"))
        elif not block.pairs:
            found += [d for d in config.diagnostics if d.kind == "empty-filter" and d.line == block.line]
    return sorted(found, key=lambda d: d.line)


def _show(text: str, limit: int = 60) -> str:
    text = decode(text)
    return repr(text if len(text) <= limit else text[:limit] + "...")


class _Reader:
    """The plugin's ApplyFileFilter state machine, plus the diagnostics."""

    def __init__(self, name: str, pcre: Version) -> None:
        self.name = name
        self.pcre = pcre
        self.blocks: list[Block] = []
        self.diagnostics: list[Diagnostic] = []
        # the plugin's state
        self.mode: Kind = "filter"
        self.sub: str | None = None          # modify: sub-block kind (SubMode)
        self.in_block = False
        self.props: list[Pair] = []
        self.pending: dict[str, tuple[Pair, ...]] = {}   # the plugin's `replace` struct
        self.pending_reported = False        # unclosed-modify said for the pending sub-blocks
        # bookkeeping for block lines and diagnostics
        self.opened = 0                      # line of the open block's '{'
        self.modify_line = 0                 # line where the pending modify: block opened
        self.sub_line: dict[str, int] = {}
        self.header = ("", 0)                # the last section header and its line
        # A modify block's outer '{' that opened a sub-block (see `open`): "open", then
        # "named" after the sub-header, "inner" after that sub-block's own '{'.
        self.outer = ""
        self.stray: tuple[int, str, int] | None = None  # ignored lines: first, hint, diagnostic
        self.last = ""                       # class of the previous line
        self.split_lines: set[int] = set()
        self.continued = self.cut = False

    def report(self, line: int, kind: str, message: str) -> None:
        self.diagnostics.append(Diagnostic(self.name, line, kind, message))

    def feed(self, line: int, piece: int, text: str, cut: bool) -> None:
        self.continued = bool(piece)   # the rest of a long line: line-split says it all
        self.cut = cut
        if piece and line not in self.split_lines:
            self.split_lines.add(line)
            self.report(line, "line-split", f"longer than {READ_SIZE} bytes: the plugin reads "
                        f"the rest ({_show(text)}...) as another line")
        lines = _lines(self.pcre)
        found = (lines.in_modify if self.mode == "modify" else lines.elsewhere).fullmatch(text)
        assert found is not None and found.lastgroup is not None    # the classes cover every line
        kind = found.lastgroup
        if kind == "COMMENT":
            return
        stray, self.stray = self.stray, None
        if kind in ("FILTER", "REMOVE", "ADD", "MODIFY"):
            self.section(line, kind, text)
        elif kind in _SUB_HEADERS:
            self.sub_header(line, _SUB_HEADERS[kind], text)
        elif kind == "OPEN" and not self.in_block:
            self.open(line)
        elif kind == "CLOSE" and self.in_block:
            self.close(line, text)
        elif kind == "CLOSE" and self.mode == "modify":
            self.run_modify(line, text)
        elif self.in_block:
            self.inside(line, kind, found)
        else:
            self.outside(line, kind, text, stray)
        self.last = kind

    # -- headers

    def section(self, line: int, kind: str, text: str) -> None:
        word = kind.lower() + ":"
        if self.in_block:
            self.report(line, "header-in-block", f"{word} while the block opened at line "
                        f"{self.opened} is open (missing '}}'?): that block goes on as {word}")
        if self.pending and not self.in_block and not self.pending_reported:
            self.pending_reported = True
            self.report(self.modify_line, "unclosed-modify", f"this modify: block is not closed "
                        f"before the {word} at line {line}; the plugin keeps its sub-blocks for "
                        "the next modify: block")
        self.header_text(line, word, text)
        self.mode = "modify" if kind == "MODIFY" else "add" if kind == "ADD" else "filter"
        if kind == "MODIFY":
            self.sub = None
        self.header = (word, line)

    def sub_header(self, line: int, sub: str, text: str) -> None:
        if self.in_block and self.outer == "open" and not self.props:
            self.outer = "named"
        elif self.in_block:
            self.report(line, "header-in-block", f"{sub}: while the block opened at line "
                        f"{self.opened} is open (missing '}}'?): that block goes on as {sub}:")
        self.header_text(line, sub + ":", text)
        self.sub = sub
        if not self.modify_line:
            self.modify_line = line

    def header_text(self, line: int, word: str, text: str) -> None:
        rest = text[len(word):].strip(_C_SPACE)
        if rest:
            hint = " (a '{' must be alone on its line: no block opens here)" if rest.startswith("{") else ""
            self.report(line, "header-text", f"text after {word} is ignored: {_show(rest)}{hint}")

    # -- braces

    def open(self, line: int) -> None:
        if self.mode == "modify" and self.sub is None:
            self.modify_line = self.modify_line or line       # the outer '{': only a marker
            return
        # In a modify: section whose sub-mode is still set by the last block, the next
        # block's outer '{' opens a sub-block; a sub-header right after it makes it harmless.
        outer = self.mode == "modify" and not self.pending and self.last not in _SUB_HEADERS
        self.outer = "open" if outer else ""
        if outer:
            self.modify_line = line
        self.in_block, self.opened, self.props = True, line, []

    def close(self, line: int, text: str) -> None:
        self.in_block, self.outer = False, ""
        self.trailing(line, text)
        pairs = tuple(self.props)
        if self.mode != "modify":
            if not pairs:
                self.report(self.opened, f"empty-{self.mode}",
                            "an empty filter: block removes every entity" if self.mode == "filter"
                            else "an empty add: block adds an entity with no keyvalues")
            self.blocks.append(Block(self.mode, self.name, self.opened, line, pairs=pairs))
            self.props = []
            return
        if self.sub is None:   # a filter:/add: block turned into modify: by a header inside it
            return
        if self.sub in self.pending:
            self.report(self.opened, "repeated-sub-block", f"this {self.sub}: block replaces the "
                        f"one at line {self.sub_line[self.sub]} (one of each per modify: block)")
        if self.sub == "replace":
            seen: dict[str, int] = {}
            for pair in pairs:
                if pair.folded_key in seen:
                    self.report(pair.line, "duplicate-replace-key", f"only the first replace of "
                                f"{_show(pair.key)} (line {seen[pair.folded_key]}) is used")
                seen.setdefault(pair.folded_key, pair.line)
        self.pending[self.sub] = pairs
        self.sub_line[self.sub] = self.opened
        self.props = []

    def run_modify(self, line: int, text: str) -> None:
        self.trailing(line, text)
        pending, start = self.pending, self.modify_line or line
        self.pending, self.modify_line, self.sub_line, self.pending_reported = {}, 0, {}, False
        if not pending:
            self.report(line, "stray-close", "'}' closes no block: ignored")
            return
        if not pending.get("match"):
            self.report(start, "empty-match", "a modify: block without match: pairs applies "
                        "to every entity")
        if not any(pending.get(sub) for sub in ("replace", "delete", "insert")):
            self.report(start, "empty-modify", "this modify: block has no replace:, delete: or "
                        "insert: pairs: it does nothing")
        self.blocks.append(Block("modify", self.name, start, line, **pending))

    def trailing(self, line: int, text: str) -> None:
        if text[1:].strip(_C_SPACE):
            self.report(line, "extra-text", f"text after '}}' is ignored: {_show(text[1:].strip(_C_SPACE))}")

    # -- other lines

    def inside(self, line: int, kind: str, found: re.Match[str]) -> None:
        text = found.group()
        if kind == "OPEN":
            if self.outer == "named":
                self.outer = "inner"
            else:
                self.report(line, "stray-open", f"'{{' inside the block opened at line "
                            f"{self.opened} is ignored (missing '}}'?)")
            return
        if kind != "PROPERTY":
            if self.continued:
                return
            self.report(line, "not-a-pair", f"{_show(text)} is not a \"key\" \"value\" pair: "
                        f"ignored{self.why_not_a_pair(text)}")
            return
        if self.outer == "open" and not self.props:
            self.report(line, "pair-outside-sub-block", f"pairs directly inside a modify: block "
                        f"are read as its {self.sub}: sub-block (the last one named)")
        lead, key, value, rest = found.group("lead", "key", "value", "rest")
        if lead.strip(_C_SPACE) or rest.strip(_C_SPACE):
            where = "before" if lead.strip(_C_SPACE) else "after"
            self.report(line, "extra-text", f"text {where} the pair is ignored: "
                        f"{_show((lead if where == 'before' else rest).strip(_C_SPACE))}")
        regex = None
        if value[0] == "/" and value[-1] == "/":
            value = value[:-1]
            try:
                regex = compile_caseless(value[1:], pcre=self.pcre)
            except RegexProblem as problem:
                self.report(line, "bad-regex", f"/{decode(value[1:])}/: {problem.reason}; "
                            "the plugin skips this line")
                return
            if self.mode == "add" or (self.mode == "modify" and self.sub in ("replace", "insert")):
                self.report(line, "regex-as-value", f"{_show(value + '/')} is written as "
                            f"{_show(value)} (the plugin cuts the trailing '/')")
        self.props.append(Pair(key, value, line, regex))

    def why_not_a_pair(self, text: str) -> str:
        if self.cut:
            return f" (the plugin reads only its first {READ_SIZE} bytes here)"
        if (empty := _EMPTY_PART.search(text)) and not all(empty.groups()):
            return " (the plugin ignores pairs with an empty key or value)"
        if text.count('"') % 2:
            return " (unbalanced quotes)"
        if header := _HEADERISH.match(text):
            return f" (a header inside a block, or not a header: {header.group(1)!r} is " \
                   "case-sensitive and modify: must be alone on its line)"
        return ""

    def outside(self, line: int, kind: str, text: str, stray: tuple[int, str, int] | None) -> None:
        """A line outside any block: ignored. A run of them (with comments between) is
        one diagnostic; `stray` is the run so far."""
        header = _HEADERISH.match(text)
        if kind == "OTHER" and header:
            word = header.group(1)
            if text.startswith("modify:"):
                why = "modify: must be alone on its line"
            elif word != word.lower():
                why = "headers are case-sensitive"
            elif not text.startswith(word + ":"):
                why = f"a header is {word.lower()}: with nothing between the word and ':'"
            else:
                why = f"{word}: counts only inside a modify: section"
            self.report(line, "not-a-header", f"{_show(text)} is not a header ({why}): ignored; "
                        f"the section is still {self.mode}:")
            return
        if stray:
            first, hint, index = self.stray = stray
            self.diagnostics[index] = dataclasses.replace(self.diagnostics[index], message=(
                f"lines {first}-{line} are outside any block: ignored ({hint})"))
            return
        if kind == "CLOSE":
            self.report(line, "stray-close", "'}' closes no block: ignored")
            return
        if self.continued:
            return
        word, at = self.header
        if self.mode == "modify":
            hint = "pairs of a modify: block go in match:, replace:, delete: or insert: sub-blocks"
        elif self.last in ("FILTER", "REMOVE", "ADD"):
            hint = f"no '{{' after {word} at line {at}"
        else:
            hint = "missing '{'?"
        self.stray = line, hint, len(self.diagnostics)
        self.report(line, "outside-block", f"{_show(text)} is outside any block: ignored ({hint})")

    def finish(self) -> Config:
        if self.in_block:
            self.report(self.opened, "unclosed-block", "this block is never closed: the plugin "
                        "never applies it")
        elif self.pending and not self.pending_reported:
            self.report(self.modify_line, "unclosed-modify", "this modify: block is never "
                        "closed: the plugin never applies it")
        return Config(self.name, tuple(self.blocks),
                      tuple(sorted(self.diagnostics, key=lambda d: d.line)), self.pcre)


# ---------------------------------------------------------------- where configs come from

def map_prefixes(map_name: str, *, lowercase: bool = False) -> list[str]:
    """The names the plugin tries under maps/: each prefix ending before a '_' (not the
    first character), then the whole name: ``ze_a_b`` -> ze, ze_a, ze_a_b. `lowercase`:
    the name lower-cased first (ASCII, the cvar stripper_file_lowercase)."""
    if lowercase:
        map_name = fold(map_name)
    return [map_name[:i] for i in range(1, len(map_name) + 1)
            if i == len(map_name) or map_name[i] == "_"]


def config_chain(directory: str | Path, map_name: str, *, lowercase: bool = False) -> list[Path]:
    """The config files the plugin applies for a map, in its order: ``global_filters.cfg``
    then ``maps/<prefix>.cfg`` for each prefix (those that exist)."""
    root = Path(directory)
    candidates = [root / "global_filters.cfg"] + [
        root / "maps" / f"{p}.cfg" for p in map_prefixes(map_name, lowercase=lowercase)]
    return [path for path in candidates if path.is_file()]


# ---------------------------------------------------------------- applying

@dataclass(slots=True)
class BlockResult:
    """What one block did to the lump."""

    block: Block
    matched: int = 0                                  # entities its criteria hit
    removed: list[str] = field(default_factory=list)          # entities, described
    added: list[str] = field(default_factory=list)
    modified: list[str] = field(default_factory=list)         # entities whose keyvalues changed
    deleted: int = 0                                  # keyvalues
    replaced: int = 0
    inserted: int = 0
    hint: str | None = None

    @property
    def idle(self) -> bool:
        """True for a filter:/modify: block that matched no entity."""
        return self.block.kind != "add" and not self.matched

    def summary(self) -> str:
        block = self.block
        where = f"{block.source}:{block.line}: {block.kind}:"
        if block.kind == "add":
            return f"{where} added {self.added[0]}"
        if self.idle:
            return f"{where} matched nothing" + (f" ({self.hint})" if self.hint else "")
        if block.kind == "filter":
            return f"{where} removed {_count(self.removed)}: {_names(self.removed)}"
        return (f"{where} matched {_plural(self.matched, 'entity', 'entities')}, modified "
                f"{_count(self.modified)}{': ' + _names(self.modified) if self.modified else ''}"
                f" (keyvalues: {self.deleted} deleted, {self.replaced} replaced, "
                f"{self.inserted} inserted)")

    def as_json(self) -> dict[str, Any]:
        block = self.block
        return {"source": block.source, "line": block.line, "end": block.end, "kind": block.kind,
                "matched": self.matched, "removed": self.removed, "added": self.added,
                "modified": self.modified, "keyvalues": {"deleted": self.deleted,
                                                         "replaced": self.replaced,
                                                         "inserted": self.inserted},
                "hint": self.hint}


@dataclass(slots=True)
class Report:
    """What applying configs did, block by block, and the entities before and after.

    ``loss`` names the first block that left the lump without any entity or without
    worldspawn (where it had them), and what it removed; None if none did.
    """

    before: Census
    after: Census
    results: list[BlockResult] = field(default_factory=list)
    loss: str | None = None

    @property
    def idle(self) -> list[BlockResult]:
        """The filter:/modify: blocks that matched nothing."""
        return [r for r in self.results if r.idle]

    def totals(self) -> dict[str, int]:
        return {"blocks": len(self.results), "idle": len(self.idle),
                "removed": sum(len(r.removed) for r in self.results),
                "added": sum(len(r.added) for r in self.results),
                "modified": sum(len(r.modified) for r in self.results)}

    def as_json(self) -> dict[str, Any]:
        return {"blocks": [r.as_json() for r in self.results], "totals": self.totals(),
                "entities": {"before": self.before.entities, "after": self.after.entities},
                "loss": self.loss}


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _count(names: list[str]) -> str:
    return _plural(len(names), "entity", "entities")


def _names(names: list[str], limit: int = 4) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def _describe(pairs: list[tuple[str, str]]) -> str:
    """An entity as `classname "targetname"` (or its hammerid)."""
    def first(key: str) -> str | None:
        return next((decode(v) for k, v in pairs if fold(k) == key and v), None)
    name = first("targetname") or (f"#{first('hammerid')}" if first("hammerid") else None)
    return (first("classname") or "?") + (f" {name!r}" if name else "")


class _Test:
    """A block's pairs by folded key: the folded plain values and the regexes."""

    def __init__(self, pairs: Iterable[Pair]) -> None:
        self.keys: dict[str, tuple[set[str], list[Regex]]] = {}
        for pair in pairs:
            plain, regexes = self.keys.setdefault(pair.folded_key, (set(), []))
            if pair.regex is None:
                plain.add(pair.folded_value)
            else:
                regexes.append(pair.regex)

    def hits(self, key: str, value: str, folded: str) -> bool:
        """Whether a keyvalue (folded key, value, folded value) matches any pair."""
        plain, regexes = self.keys.get(key, ((), ()))
        return folded in plain or any(rx.search(value) for rx in regexes)


class _Applier:
    """Runs blocks on a lump. Each entity's visible keyvalues (what the plugin holds) are
    indexed by folded key and by folded key and value, so a block only looks at the
    entities that can match it.

    The plugin drops the map's keyvalues with an empty key or value when it reads them, but
    holds (and writes) the empty values configs write (a value ``"/"`` is the empty regex,
    stored as ``""``). So an empty value is visible unless it is the map's: `hidden` counts
    those per entity and folded key, and the first ones of each key in order are the map's.
    """

    def __init__(self, lump: EntityLump) -> None:
        self.lump = lump
        self.hidden = {id(entity): Counter(fold(key) for key, value in entity.raw_pairs()
                                           if key and not value) for entity in lump}
        self.seen: dict[int, dict[str, list[tuple[str, str]]]] = {}   # folded key: (value, folded)
        self.entities: dict[int, tuple[int, Entity]] = {}       # id -> (order, entity)
        self.order = itertools.count()   # never reused: a removal must not give two the same
        self.by_key: dict[str, set[int]] = {}
        self.by_pair: dict[tuple[str, str], set[int]] = {}
        for entity in lump:
            self.index(entity)
        self.uses_escape = b"\x1b" in lump.to_bytes()

    def visible(self, entity: Entity) -> list[bool]:
        """Whether the plugin holds each of the entity's keyvalues (see the class)."""
        left, flags = Counter(self.hidden.get(id(entity))), []
        for key, value in entity.raw_pairs():
            hidden = not key or (not value and left[fold(key)] > 0)
            if key and not value:
                left[fold(key)] -= 1
            flags.append(not hidden)
        return flags

    def index(self, entity: Entity) -> None:
        """(Re)index an entity; a new one goes last, like add_entity puts it."""
        ident, seen = id(entity), dict[str, list[tuple[str, str]]]()
        for (key, value), visible in zip(entity.raw_pairs(), self.visible(entity)):
            if visible:
                key, folded = fold(key), fold(value)
                seen.setdefault(key, []).append((value, folded))
                self.by_pair.setdefault((key, folded), set()).add(ident)
        for key in seen:
            self.by_key.setdefault(key, set()).add(ident)
        self.seen[ident] = seen
        if ident not in self.entities:
            self.entities[ident] = (next(self.order), entity)

    def forget(self, entity: Entity, *, removed: bool = False) -> None:
        for key, values in self.seen.pop(id(entity)).items():
            self.by_key[key].discard(id(entity))
            for _, folded in values:
                self.by_pair[(key, folded)].discard(id(entity))
        if removed:
            del self.entities[id(entity)]

    def matching(self, criteria: tuple[Pair, ...]) -> list[Entity]:
        """Entities where the count of keyvalues matching any pair reaches the pair count."""
        if not criteria:
            return list(self.lump)
        test, candidates = _Test(criteria), set()
        for key, (plain, regexes) in test.keys.items():
            if regexes:
                candidates |= self.by_key.get(key, set())
            else:
                for folded in plain:
                    candidates |= self.by_pair.get((key, folded), set())
        found = []
        for order, entity in sorted(self.entities[i] for i in candidates):
            seen = self.seen[id(entity)]
            count = sum(1 for key in test.keys for value, folded in seen.get(key, ())
                        if test.hits(key, value, folded))
            if count >= len(criteria):
                found.append(entity)
        return found

    def census(self) -> Census:
        return Census(len(self.entities), bool(self.by_pair.get(("classname", "worldspawn"))))

    def run(self, block: Block) -> BlockResult:
        result = BlockResult(block)
        if block.kind == "add":
            entity = self.lump.add_entity([p.text() for p in block.pairs])
            self.index(entity)
            result.added.append(_describe(entity.raw_pairs()))
            return result
        hits = self.matching(block.criteria)
        result.matched = len(hits)
        if not hits:
            result.hint = self.hint(block.criteria)
        for entity in hits:
            if block.kind == "filter":
                result.removed.append(_describe(entity.raw_pairs()))
                self.forget(entity, removed=True)
                self.lump.remove(entity)
            elif self.modify(entity, block, result):
                result.modified.append(_describe(entity.raw_pairs()))
                self.forget(entity)
                self.index(entity)
        return result

    def modify(self, entity: Entity, block: Block, result: BlockResult) -> bool:
        """delete:, then replace: (every visible pair with the key; first replace wins),
        then insert:. True if the entity's keyvalues changed."""
        deletes = _Test(block.delete)
        replacements: dict[str, str] = {}
        for pair in block.replace:
            replacements.setdefault(pair.folded_key, pair.value)
        deleted = replaced = 0
        visible = iter(self.visible(entity))

        def edit(key: str, value: str) -> str | None:
            nonlocal deleted, replaced
            if not next(visible):
                return value
            key = fold(key)
            if deletes.hits(key, value, fold(value)):
                deleted += 1
                return None
            if key in replacements and replacements[key] != value:
                replaced += 1
                return replacements[key]
            return value

        entity.rewrite(edit)
        for pair in block.insert:
            entity.add(*pair.text())
        result.deleted += deleted
        result.replaced += replaced
        result.inserted += len(block.insert)
        return bool(deleted or replaced or block.insert)

    def hint(self, criteria: tuple[Pair, ...]) -> str | None:
        """Why a block may have matched nothing: commas where the map has 0x1B separators."""
        if not self.uses_escape or not any("," in p.value for p in criteria if p.regex is None):
            return None
        swapped = tuple(p if p.regex is not None else
                        dataclasses.replace(p, value=p.value.replace(",", "\x1b"))
                        for p in criteria)
        count = len(self.matching(swapped))
        if not count:
            return None
        return (f"it would match {_plural(count, 'entity', 'entities')} with 0x1B instead of ',' "
                "in its outputs: this map separates output fields with 0x1B; write that byte or "
                "use a /regex/")


def apply(configs: Config | Iterable[Config], lump: EntityLump) -> Report:
    """Run the configs' blocks on `lump`, in order, with the plugin's rules; report each block,
    the entities before and after, and the first block that left no entity or no worldspawn.
    """
    configs = [configs] if isinstance(configs, Config) else list(configs)
    applier = _Applier(lump)
    before = applier.census()
    report = Report(before, before)
    for block in (block for config in configs for block in config.blocks):
        report.results.append(applier.run(block))
        report.after = applier.census()
        if report.loss is None and (loss := before.loss(report.after)):
            report.loss = f"{block.source}: line {block.line}: {block.kind}: {loss}"
    return report


# ---------------------------------------------------------------- the plugin's own entity text

_ENTITY_LINE = re.compile(rb'(?:"[^"]*"?|[^"\r\n])*[\r\n]?')


@cache
def _entity_pair(pcre: Version, empty_values: bool) -> re.Pattern[bytes]:
    """The plugin's "([^"]+)"\\s+"([^"]+)" with that PCRE's \\s (with `empty_values`, a
    value may be empty)."""
    space = PAIR_SPACE[pcre].encode()
    return re.compile(rb'"([^"]+)"' + space + rb'+"([^"]' + (b"*" if empty_values else b"+") + b')"')


def plugin_run(configs: Config | Iterable[Config], data: bytes) -> tuple[bytes, Report]:
    """Apply configs to entity lump bytes the plugin's way: read as the plugin reads them
    (with the PCRE version the configs were read for), then written as it hands them to the
    engine (`plugin_text`). ValueError if the configs were read for different versions."""
    configs = [configs] if isinstance(configs, Config) else list(configs)
    versions = {config.pcre for config in configs}
    if len(versions) > 1:
        raise ValueError("plugin_run: configs read for different PCRE versions")
    pcre = versions.pop() if versions else 2
    lump = EntityLump.parse(plugin_text(data, pcre=pcre))
    report = apply(configs, lump)
    return plugin_text(lump.to_bytes(), empty_values=True, pcre=pcre), report


def plugin_text(data: bytes, *, empty_values: bool = False, pcre: Version = 2) -> bytes:
    """Entity lump bytes as the plugin rewrites them (SetEntityList and ToString).

    The text up to the first NUL is cut into lines at CR or LF outside quotes; a line
    starting '{' opens an entity, one starting '}' closes it (and a '}{' line opens the
    next), and in any other line the first ``"key" "value"`` with both non-empty is a
    keyvalue: empty values and anything else are dropped. Entities are written as
    ``{\\n"key" "value"\\n}`` with nothing between them; the NUL and what follows it
    are kept, as the map needs them. `empty_values` keeps keyvalues with an empty value:
    the plugin writes those a config gave it (its reading dropped the map's). Key and value
    are separated by `pcre`'s \\s (PCRE 7.9's has no VT).
    """
    cut = data.find(b"\0")
    text, tail = (data, b"") if cut < 0 else (data[:cut], data[cut:])
    entities: list[list[bytes]] = []
    current: list[bytes] | None = None
    pairs = _entity_pair(pcre, empty_values)
    for found in _ENTITY_LINE.finditer(text):
        line = found.group()
        if line[:1] == b"{" and current is None:
            current = []
        elif line[:1] == b"}" and current is not None:
            entities.append(current)
            current = [] if line[1:2] == b"{" else None
        elif current is not None and (pair := pairs.search(line)):
            current.append(b'"%s" "%s"\n' % pair.groups())
    return b"".join(b"{\n" + b"".join(pairs) + b"}" for pairs in entities) + tail
