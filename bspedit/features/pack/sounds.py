"""The sound chains: soundscripts and soundscapes down to the files they play.

A `soundscript:<name>` reference is looked up in the files `scripts/game_sounds_manifest.txt`
lists (any `*_file` key: `precache_file`, `preload_file`, ...), then in the map's
`maps/<map>_level_sounds.txt`, which overrides them. It leads to the script file that defines
it (`scripts/game_sounds_weapons.txt`, or the map's own file: required when the name is), then
its `wave` and `rndwave` entries to `sound/<file>`.

A `soundscape:<name>` reference is looked up in `scripts/soundscapes_manifest.txt`'s `file`s,
then `scripts/soundscapes_<map>.txt` (which overrides them). It leads to the file that defines
it, its `wave`s (in `playlooping`, and `playrandom`'s `rndwave`), the soundscripts its
`soundname` keys name, and the soundscapes its `playsoundscape` blocks nest.

Sound characters at the start of a file name (`SOUND_CHARS`: `*` stream, `#` dry mix, `@` omni,
`<`/`>` directional/doppler, `^` distance variant, `)`/`(` spatial/directional stereo, `}`
fast pitch, `$` subtitled, `?` user voice, `~`/`&`/`+` later games' HRTF and radio marks) are
not part of the path and are stripped; a name starting with `!` is a sentence, not a file.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .materials import read_keyvalues
from .model import Reference, asset_path

Read = Callable[[str], "bytes | None"]

# Valve's soundchars.h (`IsSoundChar`): `*` stream, `?` user voice, `!` sentence, `#` dry mix,
# `>` doppler, `<` directional, `^` distance variant, `@` omni, `)` spatial stereo, `}` fast
# pitch; later engines add `(` directional stereo, `$` subtitled, `~` HRTF, `+` radio, `&`
# (HRTF forced, srctools' list), and the `` ` `` and `%` marks of later games' tools.
SOUND_CHARS = "*?!#><^@)}($~+&`%"
SOUNDSCRIPT = "soundscript:"
SOUNDSCAPE = "soundscape:"
GAME_SOUNDS_MANIFEST = "scripts/game_sounds_manifest.txt"
SOUNDSCAPES_MANIFEST = "scripts/soundscapes_manifest.txt"


def sound_path(value: str) -> str | None:
    """`sound/<file>` for a wave value, its sound characters stripped; None for a sentence
    (`!NAME`) or an empty value."""
    value = value.strip()
    if not value or value.startswith("!"):
        return None
    value = value.lstrip(SOUND_CHARS)
    path = asset_path(value)
    if not path:
        return None
    if not path.startswith("sound/"):
        path = "sound/" + path
    return path


def sound_target(value: str) -> str | None:
    """What a sound value names: `sound/<file>` when it ends in a sound extension (`.wav`,
    `.mp3`, `.ogg`), else the soundscript `soundscript:<name>`; None for an empty value or a
    sentence (`!NAME`)."""
    value = value.strip()
    if not value or value.startswith("!"):
        return None
    if value.lower().endswith((".wav", ".mp3", ".ogg")):
        return sound_path(value)
    return SOUNDSCRIPT + value.casefold()


def sound_reference(ref: Reference, step: str, value: str) -> Reference | None:
    """The sound `value` (`sound_target`) that `ref` leads to by `step`."""
    target = sound_target(value)
    if target is None:
        return None
    return ref.named(target, step) if target.startswith(SOUNDSCRIPT) else ref.via(step, target)


class ScriptIndex:
    """Name -> (file, definition block) over a manifest's files and the map's own file,
    built on first use."""

    def __init__(self, read: Read, manifest: str, key_suffix: str, map_file: str | None):
        self._read = read
        self._manifest = manifest
        self._key_suffix = key_suffix
        self.map_file = map_file
        self._entries: dict[str, tuple[str, object]] | None = None

    def _files(self) -> list[str]:
        root = read_keyvalues(self._read, self._manifest)
        files: list[str] = []
        if root is not None:
            for block in root:
                children = block if block.has_children() else [block]
                for kv in children:
                    if not kv.has_children() and kv.name.endswith(self._key_suffix):
                        path = asset_path(kv.value)
                        if path and path not in files:
                            files.append(path)
        return files

    def get(self, name: str):
        if self._entries is None:
            self._entries = {}
            files = self._files()
            if self.map_file and self.map_file not in files:
                files.append(self.map_file)
            for path in files:
                root = read_keyvalues(self._read, path)
                if root is None:
                    continue
                for block in root:
                    if block.has_children():
                        self._entries[block.name] = (path, block)
        return self._entries.get(name.casefold())


def soundscript_index(read: Read, map_name: str | None = None) -> ScriptIndex:
    level = f"maps/{asset_path(map_name)}_level_sounds.txt" if map_name else None
    return ScriptIndex(read, GAME_SOUNDS_MANIFEST, "_file", level)


def soundscape_index(read: Read, map_name: str | None = None) -> ScriptIndex:
    own = f"scripts/soundscapes_{asset_path(map_name)}.txt" if map_name else None
    return ScriptIndex(read, SOUNDSCAPES_MANIFEST, "file", own)


def _waves(block) -> list[str]:
    out = []
    for kv in block:
        if kv.name == "wave" and not kv.has_children():
            out.append(kv.value)
        elif kv.name == "rndwave" and kv.has_children():
            out.extend(sub.value for sub in kv if not sub.has_children())
    return out


def _defined(ref: Reference, index: ScriptIndex,
             prefix: str) -> tuple[Any, list[Reference]] | None:
    """The block defining the name `ref` carries after `prefix`, and the reference to the
    script file that defines it; None if undefined."""
    found = index.get(ref.path[len(prefix):])
    if found is None:
        return None
    path, block = found
    return block, [ref.via(f"{ref.path} defined in", path)]


def soundscript_deps(ref: Reference, index: ScriptIndex) -> list[Reference]:
    """The files a `soundscript:<name>` reference plays (and the map's own script file)."""
    found = _defined(ref, index, SOUNDSCRIPT)
    if found is None:
        return []
    block, out = found
    for wave in _waves(block):
        sound = sound_path(wave)
        if sound:
            out.append(ref.via(f"{ref.path} wave", sound))
    return out


def soundscape_deps(ref: Reference, index: ScriptIndex) -> list[Reference]:
    """What a `soundscape:<name>` reference plays: files, soundscripts, nested soundscapes
    (and the map's own soundscape file)."""
    found = _defined(ref, index, SOUNDSCAPE)
    if found is None:
        return []
    block, out = found
    name = ref.path[len(SOUNDSCAPE):]

    def walk(kvs, where: str) -> None:
        for kv in kvs:
            if kv.has_children():
                if kv.name == "playsoundscape":
                    for sub in kv.find_all("name"):
                        out.append(ref.named(SOUNDSCAPE + sub.value.strip().casefold(),
                                             f"{ref.path} playsoundscape"))
                else:
                    walk(kv, kv.name)
            elif kv.name == "wave":
                sound = sound_path(kv.value)
                if sound:
                    out.append(ref.via(f"{ref.path} {where} wave", sound))
            elif kv.name == "soundname" and kv.value.strip():
                out.append(ref.named(SOUNDSCRIPT + kv.value.strip().casefold(),
                                     f"{ref.path} {where} soundname"))

    walk(block, name)
    return out
