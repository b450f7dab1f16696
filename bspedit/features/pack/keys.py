"""What an entity key's value refers to, by the kind the entity tables give it
(`entity_assets`): `key_references`, and the forms it is made of (a material, a sound, a sky).
`refs` reads the map's keys with it; `classres` the values srctools' class resources give."""
from __future__ import annotations

from . import entity_assets as ea
from .model import PARTICLE, SOUNDSCAPE, SOUNDSCRIPT, Reference, asset_path
from .sounds import SOUND_CHARS, sound_path
from .vscripts import script_path

__all__ = ["SKY_FACES", "SOUND_CHARS", "SOUND_EXTENSIONS", "key_references",
           "material_reference", "sky_faces", "sound_references"]

SKY_FACES = ("rt", "lf", "bk", "ft", "up", "dn")
SOUND_EXTENSIONS = (".wav", ".mp3", ".ogg")


def material_reference(value: str) -> str | None:
    """`materials/<value>.vmt` for a material, sprite or decal value; None when empty."""
    path = asset_path(value.strip())
    for ext in (".vmt", ".spr"):
        if path.endswith(ext):
            path = path[:-len(ext)]
            break
    path = path.removeprefix("materials/")
    return f"materials/{path}.vmt" if path else None


def sky_faces(name: str, reason: tuple[str, ...]) -> list[Reference]:
    """The six faces of sky `name`, then its six HDR faces (optional)."""
    base = asset_path(name.strip())
    if not base:
        return []
    out = [Reference(f"materials/skybox/{base}{face}.vmt", reason) for face in SKY_FACES]
    out += [Reference(f"materials/skybox/{base}_hdr{face}.vmt", reason, optional=True)
            for face in SKY_FACES]
    return out


def sound_references(value: str, reason: tuple[str, ...]) -> list[Reference]:
    """What a sound value names: a `sound/` file (a value ending in a sound extension, its
    sound characters stripped), a soundscript, or nothing (a sentence `!NAME`, a number)."""
    value = value.strip()
    if not value or value.startswith("!") or _number(value):
        return []
    if value.lower().endswith(SOUND_EXTENSIONS):
        path = sound_path(value)
        return [Reference(path, reason)] if path else []
    return [Reference(SOUNDSCRIPT + value.casefold(), reason)]


def _number(value: str) -> bool:
    try:
        float(value)
    except ValueError:
        return False
    return True


def key_references(kind: str, value: str, reason: tuple[str, ...]) -> list[Reference]:
    """What one entity key's `value` of `kind` (an `entity_assets` kind) refers to."""
    value = value.strip()
    if not value:
        return []
    if kind == ea.MODEL:
        if value.startswith("*"):
            return []
        path = asset_path(value)
        if path.endswith((".spr", ".vmt")):
            material = material_reference(path)
            return [Reference(material, reason)] if material else []
        return [Reference(path, reason)] if path else []
    if kind == ea.MATERIAL:
        material = material_reference(value)
        return [Reference(material, reason)] if material else []
    if kind == ea.TEXTURE:
        path = asset_path(value)
        path = path.removesuffix(".vtf")
        path = path.removeprefix("materials/")
        return [Reference(f"materials/{path}.vtf", reason)] if path else []
    if kind == ea.SOUND:
        return sound_references(value, reason)
    if kind == ea.BUTTON_SOUND:
        if _number(value):
            number = int(float(value))
            return [Reference(f"{SOUNDSCRIPT}buttons.snd{number}", reason)] if number else []
        return sound_references(value, reason)
    if kind == ea.SOUNDSCAPE:
        return [Reference(SOUNDSCAPE + value.casefold(), reason)]
    if kind == ea.PARTICLE:
        return [Reference(PARTICLE + value.casefold(), reason)]
    if kind == ea.FILE:
        path = asset_path(value)
        return [Reference(path, reason)] if path else []
    if kind == ea.VSCRIPT:
        return [Reference(script_path(script), reason) for script in value.split()]
    if kind == ea.SKYBOX:
        return sky_faces(value, reason)
    raise ValueError(f"unknown asset kind {kind!r}")
