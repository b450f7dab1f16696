"""The Pakfile and Lumps views' edits, as the `pak` and `lump strip` verbs do them: add a file
(uploaded or dropped), remove, rename (with the references, `pak rename --references`),
autopack from the game typed on the page, and a strip preset.

Each maker checks its parameters against the state it applies to (a refused edit changes
nothing) and names the entry by the exact words the command needs: a pak path as a glob that
matches only itself (`pak remove` takes globs), options as `--opt=VALUE` so a value starting
with `-` stays a value.
"""
from __future__ import annotations

import base64
import binascii
import os
from typing import TYPE_CHECKING, Any

from .edits import IN, OUT, Context, Edit, Word, file_slot, register
from .web import UiError, field, safe_name

if TYPE_CHECKING:
    from ..bsp import Bsp
    from ..lumps.pakfile import Entry, Pakfile

#: the largest file packed from a JSON body (base64); larger ones come as a raw upload
JSON_FILE_BYTES = 12 << 20


def literal(path: str) -> str:
    """A glob (as `Pakfile.matching` reads it) matching only `path`: `*`, `?` and `[` in
    brackets."""
    return "".join(f"[{c}]" if c in "*?[" else c for c in path)


def _pak(bsp: Bsp) -> Pakfile:
    return bsp.pakfile          # BspError (400) for a family without a pakfile


def _entry(pak: Pakfile, path: str) -> Entry:
    found = pak.find(path)
    if found is None or found.is_dir:
        raise UiError(404, "no_entry", f"no pak entry {path!r}")
    return found


def _output(words: list[Word]) -> list[Word]:
    return [*words, "-o", OUT]


def pak_add_edit(bsp: Bsp, path: str, data: bytes, *, update: bool = False,
                 compress: bool = False) -> Edit:
    """`pak add IN FILE --as=PATH [--update] [--compress] -o OUT`: the file's bytes carried
    by the edit (the script writes them beside it)."""
    from ..lumps.pakfile import pak_key

    pak = _pak(bsp)
    key = pak_key(path)
    existing = pak.find(key)
    if existing is not None and not update:
        raise UiError(409, "exists", f"pak entry {existing.name!r} already exists: replace it "
                                     "(update) or rename the file first")
    name = safe_name(key, "file")
    words: list[Word] = ["pak", "add", IN, file_slot(name), f"--as={key}"]
    words += ["--update"] * update + ["--compress"] * compress

    def apply(state: Bsp) -> None:
        state.pakfile.add(key, data, compress=compress, update=update)

    what = "replace" if existing is not None else "add"
    return Edit("pak_add", {"path": key, "bytes": len(data), "update": update,
                            "compress": compress},
                f"pak {what} {key} ({len(data)} bytes)", _output(words), apply,
                files={name: data})


@register("pak_add")
def pak_add(bsp: Bsp, params: dict[str, Any], context: Context) -> Edit:
    """A file from the page as base64 (`data_b64`); big files come through the raw upload
    route, which makes the same edit."""
    text = field(params, "data_b64", str)
    if len(text) > JSON_FILE_BYTES * 4 // 3 + 4:
        raise UiError(413, "too_large", "a file this large is sent as a raw upload")
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise UiError(400, "bad_input", "'data_b64' is not base64") from None
    return pak_add_edit(bsp, field(params, "path", str), data,
                        update=field(params, "update", bool, default=False),
                        compress=field(params, "compress", bool, default=False))


@register("pak_upload")
def pak_upload(bsp: Bsp, params: dict[str, Any], context: Context) -> Edit:
    """A file uploaded as a raw body (the route puts its bytes in `data`: no JSON request can
    send this operation)."""
    return pak_add_edit(bsp, field(params, "path", str), field(params, "data", bytes),
                        update=field(params, "update", bool, default=False),
                        compress=field(params, "compress", bool, default=False))


@register("pak_remove")
def pak_remove(bsp: Bsp, params: dict[str, Any], context: Context) -> Edit:
    """`pak remove IN PATH -o OUT` (PATH as a glob matching only itself; every entry of that
    path goes, as the verb removes every match)."""
    entry = _entry(_pak(bsp), field(params, "path", str))
    pattern = literal(entry.key)

    def apply(state: Bsp) -> None:
        pak = state.pakfile
        pak.remove(pak.matching(pattern))

    return Edit("pak_remove", {"path": entry.name}, f"pak remove {entry.name}",
                _output(["pak", "remove", IN, *_operands(pattern)]), apply)


def _operands(*words: str) -> list[str]:
    """Positional words, after `--` when one starts with `-` (an option otherwise)."""
    return ["--", *words] if any(w.startswith("-") for w in words) else list(words)


@register("pak_rename")
def pak_rename(bsp: Bsp, params: dict[str, Any], context: Context) -> Edit:
    """`pak rename IN OLD NEW [--references [--lenient]] -o OUT`; the summary counts the
    materials and entity keys it rewrites."""
    from ..features.pack.rename import find_references, rename
    from ..lumps.pakfile import pak_key

    pak = _pak(bsp)
    entry = _entry(pak, field(params, "old", str))
    new = pak_key(field(params, "new", str))
    references = field(params, "update_references", bool, default=False)
    existing = pak.find(new)
    if existing is not None:
        raise UiError(409, "exists", f"pak entry {existing.name!r} already exists" +
                      (" (the same path)" if existing is entry else
                       ": remove it first to rename another file over it"))
    summary = f"pak rename {entry.name} to {new}"
    words: list[Word] = ["pak", "rename", IN, *_operands(entry.key, new)]
    if references:
        found = find_references(pak, list(bsp.entities(lenient=context.lenient)),
                                entry.key, new)
        summary += (f", updating {len(found.materials)} material(s) and {len(found.keys)} "
                    "entity key(s)")
        words.insert(3, "--references")
        if context.lenient:
            words.insert(4, "--lenient")

    def apply(state: Bsp) -> None:
        rename(state, entry.key, new, references=references, lenient=context.lenient)

    return Edit("pak_rename", {"old": entry.name, "new": new,
                               "update_references": references},
                summary, _output(words), apply)


@register("autopack")
def autopack(bsp: Bsp, params: dict[str, Any], context: Context) -> Edit:
    """`pak autopack IN --game=G [--content=C]... [--vpk=V]... --allow-missing -o OUT`: the
    game's paths checked as the verb checks them, its file system read once; the script goes
    on when files are missing (the Pakfile view's deps list them)."""
    from ..features.pack.autopack import autopack as pack
    from .views_pak import game

    _pak(bsp)
    folder, content, vpk = game_fields(params)
    compress = field(params, "compress", bool, default=False)
    fs = game(folder, content, vpk)
    words: list[Word] = ["pak", "autopack", IN]
    words += [f"--game={folder}"] if folder else []
    words += [f"--content={c}" for c in content] + [f"--vpk={v}" for v in vpk]
    words += ["--compress"] * compress + ["--allow-missing"]

    def apply(state: Bsp) -> None:
        pack(state, fs, compress=compress)

    where = ", ".join([*([folder] if folder else []), *content, *vpk])
    return Edit("autopack", {"game": folder, "content": content, "vpk": vpk,
                             "compress": compress},
                f"pak autopack from {where}", _output(words), apply)


def game_fields(params: dict[str, Any]) -> tuple[str | None, list[str], list[str]]:
    """The game folder, content folders and VPK files typed on the page, as absolute paths
    (`~` expanded; relative to where `bspedit ui` runs, so the script names the same files
    from anywhere); blank ones dropped. 400 for a value of the wrong type."""
    def absolute(path: str) -> str:
        return os.path.abspath(os.path.expanduser(path))

    folder = field(params, "game", str, default="")
    lists = []
    for name in ("content", "vpk"):
        value = field(params, name, list, default=[])
        if not all(isinstance(v, str) for v in value):
            raise UiError(400, "bad_input", f"{name!r} must be a list of paths")
        lists.append([absolute(v) for v in value if v.strip()])
    return (absolute(folder) if folder.strip() else None), lists[0], lists[1]


@register("strip")
def strip(bsp: Bsp, params: dict[str, Any], context: Context) -> Edit:
    """`lump strip IN --preset=P --layout=stable -o OUT` (the page saves stable: untouched
    lumps keep their offsets; the verb's default is compact)."""
    from ..features.presets import strip as empty
    from .views_lumps import presets

    name = field(params, "preset", str)
    found = {p["name"]: p for p in presets(bsp)}
    preset = found.get(name)
    if preset is None:
        raise UiError(400, "bad_input", f"no strip preset {name!r} (one of "
                                        f"{', '.join(found)})")
    if preset["refused"]:
        raise UiError(400, "bad_input", preset["refused"])
    removed = preset["lumps"] + [f"game lump {g}" for g in preset["game_lumps"]]

    def apply(state: Bsp) -> None:
        empty(state, preset=name)

    return Edit("strip", {"preset": name},
                f"strip preset {name}: {', '.join(removed) or 'nothing holds data'}",
                _output(["lump", "strip", IN, f"--preset={name}", "--layout=stable"]), apply)
