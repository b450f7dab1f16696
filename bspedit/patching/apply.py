"""Stripper:Source configs applied to an open map from Python: what `bspedit patch` runs."""
from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

from ..bsp import Bsp
from ..errors import CheckFailed
from .stripper import Config, Report, apply, load_config, plugin_run, refusals

FORCE = "--force applies it as the plugin does"


@dataclass(frozen=True, slots=True)
class Patched:
    """What `patch` did to the map's entities."""

    configs: tuple[Config, ...]
    report: Report          # block by block, and the entities before and after
    changed: bool           # False: the configs matched nothing, the map is as it was


class Refused(CheckFailed):
    """`patch` refused a run that leaves no entity or no worldspawn: the map's entities are
    as they were; `patched` says what the configs would have done."""

    def __init__(self, message: str, patched: Patched) -> None:
        super().__init__(message)
        self.patched = patched


def check_refusals(configs: Iterable[Config], *, force: bool = False) -> None:
    """Refuse (CheckFailed) destructive configs unless `force`: a file that is not text, a
    filter: block that removes more than it names (`stripper.refusals`)."""
    refused = [d for config in configs for d in refusals(config)]
    if refused and not force:
        more = f"; {len(refused) - 1} more: see --lint" if len(refused) > 1 else ""
        raise CheckFailed(f"{refused[0]}; refused, nothing written{more} ({FORCE})")


def patch(bsp: Bsp, configs: Iterable[str | os.PathLike[str] | Config], *,
          plugin_output: bool = False, force: bool = False) -> Patched:
    """Apply Stripper:Source configs (files, or `stripper.Config`s: `stripper.load_config(path,
    pcre=1)` reads one for PCRE 7.9 like `--pcre 1`), in order, to the map's entities with the
    plugin's semantics, as `bspedit patch` does; `bsp.save()` writes them.

    `plugin_output` writes the entity text the way the plugin hands it to the engine (every
    entity reprinted, empty keys and values dropped); the map's entity text is then read as
    the plugin reads it, malformed or not, if no entity was read yet. Without `force`, refuses
    (CheckFailed, the map unchanged) destructive configs (`check_refusals`) and, raising
    `Refused`, a run that leaves no entity or no worldspawn where the map had them.
    """
    loaded = tuple(c if isinstance(c, Config) else load_config(os.fspath(c), maps=force)
                   for c in configs)
    check_refusals(loaded, force=force)
    lump = bsp.entities(lenient=plugin_output)
    original = lump.to_bytes()
    if plugin_output:
        text, report = plugin_run(loaded, original)
    else:
        report = apply(loaded, lump)
        text = lump.to_bytes()
    patched = Patched(loaded, report, text != original)
    if patched.changed and report.loss and not force:
        if not plugin_output:
            bsp.replace_entities(original, lenient=True)
        raise Refused(f"{report.loss}: refused, nothing written ({FORCE})", patched)
    if patched.changed and plugin_output:
        bsp.replace_entities(text)
    return patched
