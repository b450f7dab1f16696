"""Which maps a batch runs on, and the command line of each (`expand`, `command_lines`)."""
from __future__ import annotations

import contextlib
import glob
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..cli import COMMANDS, build_parser, parse, subcommand, subcommands
from ..container.outputs import STDOUT, guard
from ..errors import BspError

PathLike = str | os.PathLike[str]

#: Stand for the map in a command line: its path, its file name, its name without extension.
PLACEHOLDERS = ("{}", "{name}", "{stem}")
_OUTPUT = ("-o", "--output")
_GLOB = "*?["


# -- which maps ----------------------------------------------------------------------------
def expand(specs: Iterable[PathLike], *, recursive: bool = False) -> list[str]:
    """The maps named by `specs`, in order, each once: a folder gives its ``*.bsp`` files
    (any case, hidden ones skipped, sorted; with `recursive` those of its subfolders too), a
    glob pattern the files it matches (sorted; ``**`` spans folders), anything else itself.
    A folder without maps or a pattern matching nothing stands for itself, so the command
    reports it (exit 2), and so does a named file that is not a map."""
    found: list[str] = []
    for spec in (os.fspath(s) for s in specs):
        if os.path.isdir(spec):
            found += _maps_in(spec, recursive) or [spec]
        elif not os.path.lexists(spec) and any(c in spec for c in _GLOB):
            found += sorted(p for p in glob.glob(spec, recursive=True)
                            if not os.path.isdir(p)) or [spec]
        else:
            found.append(spec)
    return list(dict.fromkeys(found))


def _maps_in(folder: str, recursive: bool) -> list[str]:
    paths = Path(folder).glob("**/*" if recursive else "*")
    return sorted(str(p) for p in paths if p.suffix.lower() == ".bsp"
                  and not p.name.startswith(".") and p.is_file())


# -- the command line for each map ---------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Verb:
    """The shape of a command: how many words name it and its option strings."""

    words: int
    options: frozenset[str]

    @property
    def writes_maps(self) -> bool:
        return "--in-place" in self.options


def _verb(command: Sequence[str]) -> _Verb:
    """What the command words `command` name; BspError (usage) when they name no command."""
    name = command[0] if command else None
    if name not in COMMANDS or name == "each":
        choices = ", ".join(c for c in COMMANDS if c != "each")
        raise BspError(f"each: after -- give a command ({choices}), not {name!r}")
    parser = subcommand(build_parser(name), name)
    assert parser is not None
    verbs = subcommands(parser)
    if verbs is None:
        return _Verb(1, frozenset(parser._option_string_actions))
    if len(command) < 2 or command[1] not in verbs:
        raise BspError(f"each: {name} needs one of {', '.join(verbs)} after it")
    return _Verb(2, frozenset(verbs[command[1]]._option_string_actions))


@dataclass(frozen=True, slots=True)
class CommandLines:
    """The command line of each map, and the folder to make before they run: the one `-o DIR/`
    names, or the one a per-map output (`-o out/{stem}.png`) lies in (None: neither)."""

    lines: list[list[str]]
    verb: str                   # the command's words, as a Report names them (`ent set`)
    folder: str | None


def command_lines(maps: Sequence[str], command: Sequence[str], options: Sequence[str] = (),
                  *, json: bool = False) -> CommandLines:
    """One bspedit command line per map: `options`, the command's words, the map, the rest of
    `command` with the placeholders filled in (the map is not inserted when the rest holds
    ``{}``), and `--json` with `json` when the command takes it. `-o DIR/` (a trailing slash
    or an existing folder) on a command that writes maps means `-o DIR/{name}`. Refused
    (BspError) before anything runs: a command that is not one, arguments it does not take,
    two maps written to one file, a map written onto an input map."""
    verb = _verb(command)
    words = list(command[:verb.words])
    rest, folder = _folder_output(list(command[verb.words:]), verb)
    if json and "--json" in verb.options and "--json" not in rest:
        rest.append("--json")
    inserted = not any("{}" in word for word in rest)
    lines = [[*options, *words, *([path] if inserted else []), *_filled(rest, path)]
             for path in maps]
    if lines:
        _check_usage(words[0], lines[0])
    _check_targets(maps, lines)
    return CommandLines(lines, " ".join(words), folder)


def _filled(words: list[str], path: str) -> list[str]:
    name = os.path.basename(path)
    values = {"{}": path, "{name}": name, "{stem}": os.path.splitext(name)[0]}
    filled = []
    for word in words:
        for placeholder, value in values.items():
            word = word.replace(placeholder, value)
        filled.append(word)
    return filled


def _output_at(words: list[str]) -> tuple[int, str] | None:
    """Where `-o`'s value is in `words` (index and the text before the value), if anywhere."""
    for index, word in enumerate(words):
        if word in _OUTPUT and index + 1 < len(words):
            return index + 1, ""
        if word.startswith("--output="):
            return index, "--output="
        if word.startswith("-o") and not word.startswith("--") and len(word) > 2:
            return index, "-o"
    return None


def _folder_output(words: list[str], verb: _Verb) -> tuple[list[str], str | None]:
    """`words` with `-o DIR/` turned into `-o DIR/{name}`, and DIR; for a per-map output
    (`-o out/{stem}.png`), the folder it names (`out`), made before the maps run."""
    found = _output_at(words)
    if found is None:
        return words, None
    index, prefix = found
    value = words[index][len(prefix):]
    if any(p in value for p in PLACEHOLDERS):
        parent = os.path.dirname(value.rstrip("/" + os.sep))
        fixed = bool(parent) and not any(p in parent for p in PLACEHOLDERS)
        return words, parent if fixed else None
    if not (value.endswith(("/", os.sep)) or os.path.isdir(value)):
        return words, None
    if not verb.writes_maps:
        raise BspError(f"each: -o {value} names a folder of maps, but this command does not "
                       "write maps: name each output with {stem} (as in -o out/{stem}.ent)")
    named = prefix + os.path.join(value, "{name}")
    return [*words[:index], named, *words[index + 1:]], value


def _check_usage(command: str, line: list[str]) -> None:
    """Parse one map's command line, so a usage error is one message, not one per map."""
    import io

    with contextlib.redirect_stderr(io.StringIO()) as err, \
            contextlib.redirect_stdout(io.StringIO()):
        try:
            parse(build_parser(command), list(line))
            return
        except SystemExit:
            pass
    lines = err.getvalue().strip().splitlines()
    raise BspError(f"each: {lines[-1] if lines else 'a command is not given --help per map'}")


def _check_targets(maps: Sequence[str], lines: list[list[str]]) -> None:
    """Refuse two maps written to one file, and a file written that is an input map."""
    inputs = {os.path.realpath(path) for path in maps}
    seen: dict[str, str] = {}
    for path, line in zip(maps, lines, strict=True):
        found = _output_at(line)
        if found is None:
            continue
        index, prefix = found
        target = line[index][len(prefix):]
        if target == STDOUT:
            raise BspError("each: -o - (standard output) cannot carry the data of many maps: "
                           "name a file per map (-o out/{stem}.ent)")
        real = os.path.realpath(target)
        if real in inputs:
            raise BspError(f"each: refused: {target} is an input map; --in-place edits maps "
                           "where they are; nothing written")
        if real in seen:
            raise BspError(f"each: {seen[real]} and {path} would both be written to {target}; "
                           "nothing written")
        seen[real] = path
        if os.path.lexists(target):
            guard(target, maps)         # a link to an input map, a folder
