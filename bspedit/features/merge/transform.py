"""Moving a Quake 1 / BSP2 / GoldSrc / Quake 2 map by a translation (`shift`), in place on the
open map's records and entities.

What moves: vertices; plane distances (dist += normal . shift; the normal and the axial type
stay, a translation keeps them); node and leaf bounds (int16 in BSP 29, GoldSrc, Quake 2 and
2PSB: a shift that is not whole rounds them outward, mins down and maxs up, and a bound past
the int16 range is refused; BSP2 stores floats); model bounds; texinfo offsets (vecs[i][3] -=
vecs[i][:3] . shift, so textures and lightmaps stay where they were); entity `origin` keys.

What stays: the models' `origin` field (every compiler of these families writes 0 and the
engines place a model at its entity's origin: moving it too would move the model twice);
leaf 0 (the shared solid leaf, zero bounds); and the geometry of brush models whose entity has
an `origin` key (origin brushes: their vertices, planes and bounds are relative to that
origin, so only the key moves). A plane, texinfo or vertex such a model shares with the rest
is copied for it first (Quake 2 planes in pairs). BSPX lumps without positions are carried over,
a BRUSHLIST is moved too (`brushlist`: brush bounds and planes, origin-brush models' left),
another that holds positions is refused.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

import numpy

from ...errors import BspError
from ...format.bspx import bspx_directory
from . import brushlist

if TYPE_CHECKING:
    from ...bsp import Bsp

ENGINES = ("quake1", "goldsrc", "quake2")
# entity keys holding an absolute position "x y z", by Family.engine
POSITION_KEYS: dict[str, tuple[str, ...]] = {"quake1": ("origin",), "goldsrc": ("origin",),
                                              "quake2": ("origin",)}
# BSPX lumps a translation leaves valid (light samples, per-face or per-vertex data, normals)
BSPX_WITHOUT_POSITIONS = frozenset({
    "RGBLIGHTING", "LIGHTINGDIR", "LIGHTING_E5BGR9", "LMSHIFT", "LMOFFSET", "LMSTYLE",
    "LMSTYLE16", "FACENORMALS", "VERTEXNORMALS"})
# the lumps whose records reference planes and texinfo: (lump, field) by engine
_PLANE_REFS = {"quake1": (("FACES", "planenum"), ("NODES", "planenum"), ("CLIPNODES", "planenum")),
               "quake2": (("FACES", "planenum"), ("NODES", "planenum"),
                          ("BRUSHSIDES", "planenum"))}
_PLANE_REFS["goldsrc"] = _PLANE_REFS["quake1"]
_TEXINFO_REFS = {"quake1": (("FACES", "texinfo"),),
                 "quake2": (("FACES", "texinfo"), ("BRUSHSIDES", "texinfo"))}
_TEXINFO_REFS["goldsrc"] = _TEXINFO_REFS["quake1"]
_INT16 = numpy.iinfo(numpy.int16)


@dataclass(slots=True)
class ShiftReport:
    """What `shift` moved."""

    offset: tuple[float, float, float]
    vertices: int = 0
    planes: int = 0
    nodes: int = 0
    leafs: int = 0
    models: int = 0
    texinfo: int = 0
    entity_keys: int = 0
    brushes: int = 0                 # brushes of a BSPX BRUSHLIST
    local_models: list[int] = field(default_factory=list)   # origin-brush models left in place
    copied: dict[str, int] = field(default_factory=dict)    # lump -> records copied for them
    rounded_bounds: bool = False     # int16 bounds rounded outward (a shift that is not whole)
    skipped_keys: list[str] = field(default_factory=list)   # position keys not "x y z"

    def to_dict(self) -> dict[str, Any]:
        return {"offset": list(self.offset), "vertices": self.vertices, "planes": self.planes,
                "nodes": self.nodes, "leafs": self.leafs, "models": self.models,
                "texinfo": self.texinfo, "entity_keys": self.entity_keys,
                "brushes": self.brushes,
                "local_models": self.local_models, "copied": self.copied,
                "rounded_bounds": self.rounded_bounds, "skipped_keys": self.skipped_keys}


def bspx_names(bsp: Bsp) -> list[str]:
    """The names of the BSPX lumps after the map's last lump (merge and shift look at them)."""
    tail = bsp.layout.tail
    directory = bspx_directory(bsp.read_range(tail.start, tail.end)) if tail else None
    return [entry.name.rstrip(b"\0").decode("latin-1") for entry in directory.lumps] \
        if directory else []


def check_shiftable(bsp: Bsp) -> None:
    """BspError unless `bsp` is of a family `shift` moves, without BSPX positions."""
    if bsp.family.engine not in ENGINES:
        raise BspError(f"{bsp.family.title} maps cannot be moved: Quake 1, BSP2, 2PSB, GoldSrc "
                       f"and Quake 2 only", path=bsp.path)
    for name in bspx_names(bsp):
        if name.upper() not in BSPX_WITHOUT_POSITIONS and name != brushlist.NAME:
            raise BspError(f"BSPX lump {name} holds positions bspedit cannot move yet "
                           f"(remove it with the lump tools first)", path=bsp.path)


def shift(bsp: Bsp, offset: tuple[float, float, float]) -> ShiftReport:
    """Move everything in `bsp` that holds a position by `offset` (see the module docstring),
    editing its records (`bsp.records(lump, writable=True)`) and entities in place; the caller
    saves. BspError for other families, BSPX lumps with positions other than a BRUSHLIST (or
    one that does not parse), and int16 bounds that would leave their range (nothing is
    changed then)."""
    check_shiftable(bsp)
    x, y, z = (float(value) for value in offset)
    report = ShiftReport((x, y, z))
    move = numpy.array(report.offset, dtype=numpy.float64)
    entities = bsp.entities(lenient=True)
    local = _local_models(bsp, entities)
    report.local_models = sorted(local)
    if not move.any():
        return report
    keep = _owned(bsp, local) if local else {}
    bounds = {lump: _moved_bounds(bsp, lump, move, keep.get(lump), report)
              for lump in ("NODES", "LEAFS")}          # refused before anything changes
    tail, report.brushes = brushlist.moved_brushlist(bsp, move, local)
    if local:
        _split_shared(bsp, keep, report)
    for lump, moved in bounds.items():
        records = _rec(bsp, lump)
        records["mins"], records["maxs"] = moved
    vertices = _rec(bsp, "VERTEXES")
    report.vertices = _add(vertices["point"], move, keep.get("VERTEXES"))
    planes = _rec(bsp, "PLANES")
    normals = _xyz(planes["normal"])
    dist = planes["dist"].astype(numpy.float64) + normals @ move
    chosen = _chosen(len(planes), keep.get("PLANES"))
    planes["dist"][chosen] = dist[chosen]
    report.planes = int(chosen.sum())
    texinfo = _rec(bsp, "TEXINFO")
    vecs = texinfo["vecs"].astype(numpy.float64)
    chosen = _chosen(len(texinfo), keep.get("TEXINFO"))
    for row in (0, 4):
        offsets = vecs[:, row + 3] - vecs[:, row:row + 3] @ move
        texinfo["vecs"][chosen, row + 3] = offsets[chosen]
    report.texinfo = int(chosen.sum())
    models = _rec(bsp, "MODELS")
    chosen = _chosen(len(models), keep.get("MODELS"))
    for name in ("mins", "maxs"):
        _add(models[name], move, ~chosen)
    report.models = int(chosen.sum())
    _shift_keys(bsp, entities, report)
    if tail is not None:
        bsp.replace_tail(tail)
    return report


def _xyz(points: numpy.ndarray[Any, Any]) -> numpy.ndarray[Any, Any]:
    """A (n, 3) float64 array of an x/y/z structured field."""
    return numpy.stack([points["x"], points["y"], points["z"]], axis=1).astype(numpy.float64)


def _chosen(count: int, kept: numpy.ndarray[Any, Any] | None) -> numpy.ndarray[Any, Any]:
    return numpy.ones(count, bool) if kept is None else ~kept


def _add(points: numpy.ndarray[Any, Any], move: numpy.ndarray[Any, Any],
         kept: numpy.ndarray[Any, Any] | None) -> int:
    """Add `move` to the x/y/z structured float field `points` except where `kept`."""
    chosen = _chosen(len(points), kept)
    for axis, name in enumerate("xyz"):
        if move[axis]:
            points[name][chosen] = points[name][chosen].astype(numpy.float64) + move[axis]
    return int(chosen.sum())


def _moved_bounds(bsp: Bsp, lump: str, move: numpy.ndarray[Any, Any],
                  kept: numpy.ndarray[Any, Any] | None, report: ShiftReport,
                  ) -> tuple[numpy.ndarray[Any, Any], numpy.ndarray[Any, Any]]:
    """The lump's new mins and maxs (leaf 0, the shared solid leaf, and `kept` records stay);
    int16 bounds rounded outward, BspError past their range."""
    records = _rec(bsp, lump)
    chosen = _chosen(len(records), kept)
    if lump == "LEAFS" and len(records):
        chosen[0] = False
    mins, maxs = records["mins"].copy(), records["maxs"].copy()
    whole = mins.dtype["x"].kind == "i"
    for axis, name in enumerate("xyz"):
        low = mins[name][chosen].astype(numpy.float64) + move[axis]
        high = maxs[name][chosen].astype(numpy.float64) + move[axis]
        if whole:
            low, high = numpy.floor(low), numpy.ceil(high)
            report.rounded_bounds |= bool(move[axis] != numpy.floor(move[axis]))
            if len(low) and (low.min() < _INT16.min or high.max() > _INT16.max):
                raise BspError(f"{lump} bounds would leave the int16 range of the format "
                               f"({_INT16.min}..{_INT16.max}) on the {name} axis: "
                               f"{low.min():g}..{high.max():g}", path=bsp.path)
        mins[name][chosen], maxs[name][chosen] = low, high
    setattr(report, lump.lower(), int(chosen.sum()))
    return mins, maxs


# --- entity keys ------------------------------------------------------------------------------

_NUMBER = re.compile(r"\S+")


def _shift_keys(bsp: Bsp, entities: Any, report: ShiftReport) -> None:
    keys = {key.lower() for key in POSITION_KEYS[bsp.family.engine]}
    steps = [Decimal(repr(value)) for value in report.offset]

    def edit(key: str, value: str) -> str:
        if key.lower() not in keys:
            return value
        moved = shift_text(value, steps)
        if moved is None:
            report.skipped_keys.append(f"{key} {value!r}")
            return value
        report.entity_keys += 1
        return moved

    for entity in entities:
        entity.rewrite(edit)


def shift_text(value: str, steps: list[Decimal]) -> str | None:
    """"x y z" moved by `steps`, in decimal (exact: moving back gives the text back); numbers an
    axis of zero does not move and the spacing keep their text. None if not three numbers."""
    numbers = list(_NUMBER.finditer(value))
    if len(numbers) != 3:
        return None
    try:
        parsed = [Decimal(match.group()) for match in numbers]
    except InvalidOperation:
        return None
    if not all(number.is_finite() for number in parsed):
        return None
    out, at = [], 0
    for match, number, step in zip(numbers, parsed, steps):
        out.append(value[at:match.start()])
        out.append(match.group() if not step else format_number(number + step))
        at = match.end()
    return "".join(out) + value[at:]


def format_number(number: Decimal) -> str:
    """A number as the compilers write it: whole ones without a point ("528"), others in
    plain decimals without trailing zeros ("2192.1")."""
    if number == number.to_integral_value():
        return str(int(number))
    return format(number.normalize(), "f")


# --- brush models placed by an origin key ---------------------------------------------------

def _local_models(bsp: Bsp, entities: Any) -> set[int]:
    """Brush models (not the world) whose entity has an `origin` key: their geometry is
    relative to it."""
    count = len(_rec(bsp, "MODELS"))
    local = set()
    for entity in entities:
        model = entity.get("model", "")
        if model.startswith("*") and "origin" in entity:
            try:
                number = int(model[1:])
            except ValueError:
                continue
            if 0 < number < count:
                local.add(number)
    return local


def _subtree(children: numpy.ndarray[Any, Any], roots: list[int],
             ) -> tuple[set[int], set[int]]:
    """Nodes and leafs under `roots` (children: negative -1 - leaf)."""
    nodes, leafs, stack = set(), set(), list(roots)
    while stack:
        node = stack.pop()
        if node < 0:
            leafs.add(-1 - node)
            continue
        if node in nodes or node >= len(children):
            continue
        nodes.add(node)
        stack.extend(int(child) for child in children[node])
    return nodes, leafs


def _owned(bsp: Bsp, local: set[int]) -> dict[str, numpy.ndarray[Any, Any]]:
    """Per lump, the rows the origin-brush models `local` own: models, faces, nodes, leafs,
    clipnodes (Quake 1, GoldSrc) or brushes and brush sides (Quake 2), edges."""
    models = _rec(bsp, "MODELS")
    headnodes = models["headnode"].reshape(len(models), -1)
    owned: dict[str, set[int]] = {"MODELS": set(local), "FACES": set()}
    nodes, leafs = _subtree(_rec(bsp, "NODES")["children"],
                            [int(headnodes[m, 0]) for m in local])
    owned["NODES"], owned["LEAFS"] = nodes, leafs - {0}
    for number in local:
        first, count = int(models["firstface"][number]), int(models["numfaces"][number])
        owned["FACES"].update(range(first, first + count))
    if bsp.family.engine == "quake2":
        leaf_records, brushes = _rec(bsp, "LEAFS"), _rec(bsp, "BRUSHES")
        leafbrushes = _rec(bsp, "LEAFBRUSHES")["brush"]
        owned["BRUSHES"] = {int(brush) for leaf in owned["LEAFS"] for brush in leafbrushes[
            _span(leaf_records["firstleafbrush"][leaf], leaf_records["numleafbrushes"][leaf])]}
        owned["BRUSHSIDES"] = {side for brush in owned["BRUSHES"] for side in range(
            *_span(brushes["firstside"][brush], brushes["numsides"][brush]).indices(1 << 40))}
    else:
        owned["CLIPNODES"] = _subtree(_rec(bsp, "CLIPNODES")["children"],
                                      [int(h) for m in local for h in headnodes[m, 1:]
                                       if h >= 0])[0]
    masks = {lump: _mask(len(_rec(bsp, lump)), rows) for lump, rows in owned.items()}
    faces, surfedges = _rec(bsp, "FACES"), _rec(bsp, "SURFEDGES")["edge"]
    edge_local = numpy.zeros(len(_rec(bsp, "EDGES")), bool)
    edge_other = edge_local.copy()
    for row in range(len(faces)):
        picked = numpy.abs(surfedges[_span(faces["firstedge"][row], faces["numedges"][row])])
        (edge_local if masks["FACES"][row] else edge_other)[picked[picked < len(edge_local)]] \
            = True
    if (edge_local & edge_other).any():
        raise BspError("a brush model placed by its origin key shares edges with the rest of "
                       "the map: bspedit cannot move it", path=bsp.path)
    masks["EDGES"] = edge_local
    return masks


def _span(first: Any, count: Any) -> slice:
    return slice(int(first), int(first) + int(count))


def _split_shared(bsp: Bsp, masks: dict[str, numpy.ndarray[Any, Any]],
                  report: ShiftReport) -> None:
    """Add to `masks` the vertices, planes and texinfo only origin-brush models use, after
    copying for them those they share with the rest."""
    engine = bsp.family.engine
    for lump, refs in (("VERTEXES", (("EDGES", "v"),)), ("PLANES", _PLANE_REFS[engine]),
                       ("TEXINFO", _TEXINFO_REFS[engine])):
        masks[lump] = _split(bsp, lump, [(ref, name, masks.get(ref)) for ref, name in refs],
                             report, pairs=lump == "PLANES" and engine == "quake2")


def _mask(count: int, rows: set[int]) -> numpy.ndarray[Any, Any]:
    mask = numpy.zeros(count, bool)
    if rows:
        mask[[row for row in rows if 0 <= row < count]] = True
    return mask


def _split(bsp: Bsp, lump: str, refs: list[tuple[str, str, Any]], report: ShiftReport, *,
           pairs: bool = False) -> numpy.ndarray[Any, Any]:
    """The records of `lump` only the local referencing records (`refs`: lump, field, local
    rows) use; those both sides use are copied (appended) and the local references moved to
    the copies. `pairs`: records go in pairs (Quake 2 planes: n ^ 1 is n flipped, as qbsp3
    writes them and tools expect) and are copied so."""
    count = len(_rec(bsp, lump))
    used_local, used_other = numpy.zeros(count, bool), numpy.zeros(count, bool)
    for ref_lump, name, rows in refs:
        values = _rec(bsp, ref_lump)[name].astype(numpy.int64)
        if rows is None:
            rows = numpy.zeros(len(values), bool)
        for used, picked in ((used_local, values[rows].ravel()),
                             (used_other, values[~rows].ravel())):
            used[picked[(picked >= 0) & (picked < count)]] = True
    shared = numpy.flatnonzero(used_local & used_other)
    if pairs and len(shared) and count % 2 == 0:
        shared = numpy.union1d(shared & ~1, shared | 1)
    if len(shared):
        records = _rec(bsp, lump)
        lookup = numpy.arange(count, dtype=numpy.int64)
        lookup[shared] = numpy.arange(count, count + len(shared))
        for ref_lump, name, rows in refs:
            if rows is None or not rows.any():
                continue
            target = _rec(bsp, ref_lump)[name]
            limit = numpy.iinfo(target.dtype).max
            if count + len(shared) - 1 > limit:
                raise BspError(f"{lump}: copying {len(shared)} records for the brush models "
                               f"placed by their origin key gives {count + len(shared)}, past "
                               f"what {ref_lump} {name} can index ({limit + 1})", path=bsp.path)
            values = target[rows].astype(numpy.int64)
            inside = (values >= 0) & (values < count)
            target[rows] = numpy.where(inside, lookup[numpy.where(inside, values, 0)], values)
        bsp.replace_records(lump, numpy.concatenate([records, records[shared]]))
        report.copied[lump] = len(shared)
    return numpy.concatenate([used_local & ~used_other, numpy.ones(len(shared), bool)])


def _rec(bsp: Bsp, lump: str) -> numpy.ndarray[Any, Any]:
    """The lump's records as the map holds them now (edits of the caller included)."""
    return bsp.records(lump, writable=True)
