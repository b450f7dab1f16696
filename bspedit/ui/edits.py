"""The page's edits: each one applies to an open map, says what it does in a line, and is the
`bspedit` command that does the same to a file; a session's pending edits are a script.

An operation is a maker registered by name (`register`): given the map as the edits before it
left it and the request's parameters, it checks them and returns an `Edit` whose `apply` does
the same thing to the same state every time (undo replays the edits from a fresh open). Its
command is the verb, options and operands as `bspedit --help` has them, with `IN` and `OUT`
for the map read and written and `FileSlot`s for the files it needs (a Stripper config, entity
text, a file to pack), whose bytes the edit carries. Run one after another, each command
writing a new file from the last, they give the bytes the page's one save gives (the tests
check it). Modules of operations (`entity_edits`, the views' own) register theirs on import.
"""
from __future__ import annotations

import shlex
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from .web import UiError

if TYPE_CHECKING:
    from ..bsp import Bsp


class Slot(NamedTuple):
    """A word of a command filled in when the script is written: the map read (`in`), the map
    written (`out`), or a file the edit carries (`file`, by name)."""

    kind: str
    name: str = ""


IN, OUT = Slot("in"), Slot("out")


def file_slot(name: str) -> Slot:
    """The path of the file named `name` that the edit carries (in the script's work folder)."""
    return Slot("file", name)


Word = str | Slot


class Context(NamedTuple):
    """What an edit needs to know of its map beyond the Bsp: whether its entity text is read
    leniently (malformed text kept verbatim; the commands then take --lenient)."""

    lenient: bool


class Edit:
    """One pending edit: the operation and its parameters (as the page sent them), a one-line
    `summary`, the `command` (words after `bspedit`), the `files` it carries, `apply`, and,
    for an entity edit Stripper can say, `stripper`: the config text that does it."""

    __slots__ = ("op", "params", "summary", "command", "files", "apply", "stripper")

    def __init__(self, op: str, params: dict[str, Any], summary: str, command: list[Word],
                 apply: Callable[[Bsp], None], *, files: dict[str, bytes] | None = None,
                 stripper: str | None = None) -> None:
        self.op, self.params, self.summary, self.command = op, params, summary, command
        self.apply, self.files, self.stripper = apply, files or {}, stripper

    def to_json(self) -> dict[str, Any]:
        return {"op": self.op, "summary": self.summary,
                "command": command_line(self.command, "MAP", "OUT")}


Maker = Callable[["Bsp", dict[str, Any], Context], Edit]
OPS: dict[str, Maker] = {}


def register(name: str) -> Callable[[Maker], Maker]:
    """Register `maker` as operation `name` (a decorator)."""
    def decorate(maker: Maker) -> Maker:
        OPS[name] = maker
        return maker
    return decorate


def make(bsp: Bsp, params: dict[str, Any], context: Context) -> Edit:
    """The edit `params` asks for (`params["op"]` names the operation), checked against `bsp`
    (the map as the edits before it left it). 400 for an unknown operation."""
    _load_operations()
    op = params.get("op")
    maker = OPS.get(op) if isinstance(op, str) else None
    if maker is None:
        raise UiError(400, "bad_op", f"unknown edit operation {op!r} "
                                     f"(known: {', '.join(sorted(OPS))})")
    return maker(bsp, params, context)


# the modules that register operations; a view's module adds itself here
OPERATION_MODULES = ("entity_edits", "pak_edits")


def _load_operations() -> None:
    from importlib import import_module

    for name in OPERATION_MODULES:
        import_module(f"{__package__}.{name}")


def command_line(words: Iterable[Word], source: str, target: str,
                 files: Callable[[str], str] = lambda name: name) -> str:
    """A command as one shell line: `bspedit` and its words quoted, the slots filled with
    `source`, `target` and `files(name)` (already quoted: they may hold shell variables)."""
    out = ["bspedit"]
    for word in words:
        if isinstance(word, Slot):
            out.append(source if word.kind == "in" else target if word.kind == "out"
                       else files(word.name))
        else:
            out.append(shlex.quote(word))
    return " ".join(out)


def script(edits: list[Edit], map_path: str | None, output: str | None) -> str:
    """The pending edits as a POSIX shell script of `bspedit` commands: each reads the file
    the one before it wrote (the first MAP, which is never changed), the last writes OUT. Run
    as `sh SCRIPT [MAP [OUT]]`; the files the edits carry are written into a work folder."""
    if not edits:
        raise UiError(409, "no_edits", "no pending edits: nothing to export")
    default_map = map_path or "map.bsp"
    default_out = output or _edited_name(default_map)
    lines = ["#!/bin/sh",
             f"# bspedit ui: {len(edits)} edit(s) of {default_map}, as bspedit commands.",
             "# Usage: sh THIS_FILE [MAP [OUT]]: each command writes a new file from the one",
             "# before; MAP is never changed, OUT is written last.",
             "set -eu",
             f"map=${{1:-{shlex.quote(default_map)}}}",
             f"out=${{2:-{shlex.quote(default_out)}}}",
             'work=$(mktemp -d)',
             "trap 'rm -rf \"$work\"' EXIT"]
    source = '"$map"'
    for number, edit in enumerate(edits, 1):
        lines.append(f"# {number}. {edit.summary}")
        names = {name: f'"$work/{number}-{name}"' for name in edit.files}
        for name, data in edit.files.items():
            lines.append(_write_file(data, names[name]))
        target = '"$out"' if number == len(edits) else f'"$work/{number}.bsp"'
        lines.append(command_line(edit.command, source, target, names.__getitem__))
        source = target
    return "\n".join(lines) + "\n"


def _edited_name(path: str) -> str:
    stem, dot, suffix = path.rpartition(".")
    return f"{stem}_edited.{suffix}" if dot and "/" not in suffix else f"{path}_edited"


def _write_file(data: bytes, target: str) -> str:
    """A shell line writing `data` to `target` byte for byte: UTF-8 text as one quoted word,
    other bytes as a printf format of octal escapes."""
    try:
        return f"printf '%s' {shlex.quote(data.decode('utf-8'))} > {target}"
    except UnicodeDecodeError:
        pass
    plain = {c for c in range(32, 127)} - {ord("%"), ord("\\"), ord("'")}
    escaped = "".join(chr(b) if b in plain else "%%" if b == ord("%") else f"\\{b:03o}"
                      for b in data)
    return f"printf '{escaped}' > {target}"


def stripper_config(edits: list[Edit]) -> str:
    """The pending edits as one Stripper:Source config, when each is an entity edit Stripper
    can say (409 naming the first that is not)."""
    if not edits:
        raise UiError(409, "no_edits", "no pending edits: nothing to export")
    for number, edit in enumerate(edits, 1):
        if edit.stripper is None:
            raise UiError(409, "not_stripper", f"edit {number} ({edit.summary}) is not a "
                                               "Stripper edit: export the script instead")
    return "".join(f"; {n}. {e.summary}\n{e.stripper}" for n, e in enumerate(edits, 1))
