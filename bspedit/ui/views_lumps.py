"""The Lumps view's data: `info` and `stats` as tables, and the strip presets with what each
would empty in this map (the edit itself is `features.presets.strip`)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import BspError

if TYPE_CHECKING:
    from ..bsp import Bsp


def table(bsp: Bsp) -> dict[str, Any]:
    """`{"info": facts.describe(bsp), "stats": stats.stats(bsp) (or None with
    "stats_error": why, for a map whose lumps do not count), "presets": presets(bsp),
    "pending": the lumps pending edits replace}`. The directory and sizes are the file's on
    disk; the counts are the pending state's."""
    from ..features.facts import describe
    from ..features.stats import stats

    out: dict[str, Any] = {"info": describe(bsp), "stats": None, "stats_error": None}
    try:
        out["stats"] = stats(bsp)
    except BspError as exc:         # a damaged entity lump, say: info still shows
        out["stats_error"] = str(exc)
    out["presets"] = presets(bsp)
    out["pending"] = [lump.index for lump in bsp.lumps if bsp.is_replaced(lump.index)]
    return out


def holds(bsp: Bsp, index: int) -> bool:
    """Whether lump `index` holds data in the map as its pending edits leave it."""
    return bool(len(bsp.content(index)) if bsp.is_replaced(index) else bsp.lumps[index].length)


def presets(bsp: Bsp) -> list[dict[str, Any]]:
    """Each strip preset: name, what it removes and costs, and for this map the lumps it would
    empty (those holding data), the game lump members it would remove (those present), and
    why it cannot apply (`refused`: not a Source map, an empty fallback; None when it can)."""
    from ..features.presets import PRESETS, preset_lumps, without_game_lumps

    out = []
    for preset in PRESETS.values():
        refused, lumps, members = None, [], []
        try:
            lumps = [n for n in preset_lumps(bsp, preset) if holds(bsp, bsp.lump_index(n))]
            if preset.game_lumps and without_game_lumps(bsp, preset.game_lumps) is not None:
                members = list(preset.game_lumps)
        except BspError as exc:
            refused = exc.message
        out.append({"name": preset.name, "removes": preset.removes, "cost": preset.cost,
                    "lumps": lumps, "game_lumps": members, "refused": refused})
    return out
