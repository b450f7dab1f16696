"""Converting a map between the containers of its family: Quake 1 BSP 29 <-> BSP2 <-> 2PSB
(records widened or narrowed field by field), GoldSrc v30 <-> Blue Shift (the first two
directory entries swapped).

What the target cannot hold is refused before anything is written, naming the field, the
format's limit and the map's count (uint16 indices, int16 bounds, node and clipnode children);
counts past the vanilla engines' MAX_MAP_* (`bspedit.format.enginelimits`) are warnings, as
FitzQuake-derived engines raised them. Float bounds (BSP2) that are not whole are rounded
outward into int16 ones (a warning).

BSP 29 node and clipnode children are read as the BSP2-aware engines and ericw-tools read them
(QuakeSpasm's Mod_LoadNodes_S, bsputil): unsigned, a node below the node count, else a leaf
(65535 - leaf) or contents (value - 65536); the same as signed values while counts are small.

The file keeps the source's layout: lumps in its file order, every gap and the trailing data
(BSPX, relocated) carried over byte for byte, except padding (zeros up to the next 4-byte
boundary after a lump), which is recomputed for the new lump ends. Zero-length lumps keep
their place among the others. Converting back therefore gives the original bytes; for files
written by ericw-tools this is also the order and alignment bsputil --convert writes.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from ...errors import BspError
from ...format import enginelimits
from ...format.bspx import relocate_trailer
from ...format.families import BLUE_SHIFT, BSP2, BSP2_RMQ, GOLDSRC, QUAKE1, Family
from ...format.header import Header, Lump, lump_label
from ...format.recordtypes import record_dtype

if TYPE_CHECKING:
    import numpy

    from ...bsp import Bsp
    from ...container.saving import SaveResult

TARGETS: dict[str, Family] = {"bsp29": QUAKE1, "bsp2": BSP2, "2psb": BSP2_RMQ,
                              "hl": GOLDSRC, "bshift": BLUE_SHIFT}
_VERSIONS = {"q1": 29, "goldsrc": 30, "bshift": 30}
# fields that index another lump: (lump, field) -> the lump they count in
_INDEXES = {("FACES", "planenum"): "PLANES", ("FACES", "texinfo"): "TEXINFO",
            ("FACES", "firstedge"): "SURFEDGES", ("NODES", "firstface"): "FACES",
            ("NODES", "numfaces"): "FACES", ("LEAFS", "firstmarksurface"): "MARKSURFACES",
            ("LEAFS", "nummarksurfaces"): "MARKSURFACES", ("MARKSURFACES", "face"): "FACES",
            ("EDGES", "v"): "VERTEXES", ("NODES", "planenum"): "PLANES",
            ("CLIPNODES", "planenum"): "PLANES"}
# children fields: (lump, field) -> the lump a non-negative child indexes
_CHILDREN = {("NODES", "children"): "NODES", ("CLIPNODES", "children"): "CLIPNODES"}


def convert(bsp: Bsp, target: str, path: str, *, dry_run: bool = False,
            in_place: bool = False) -> SaveResult:
    """Write `bsp` converted to the container `target` (a key of TARGETS) to `path` (atomic;
    `in_place`: `path` may be the map itself; `dry_run`: nothing written), and say what it
    did (warnings: rounded bounds, counts past MAX_MAP_*). BspError for other families, the
    map's own container, and what the target cannot hold."""
    family = _target(bsp, target)
    warnings: list[str] = []
    contents = {lump.name: _converted(bsp, lump.name, family, warnings) for lump in bsp.lumps}
    header, data = _file(bsp, family, contents)
    return _write(bsp, header, data, path, dry_run=dry_run, in_place=in_place,
                  warnings=tuple(warnings))


def _target(bsp: Bsp, target: str) -> Family:
    family = TARGETS.get(target)
    if family is None:
        raise BspError(f"unknown target {target!r} (choose {', '.join(TARGETS)})")
    if family.engine != bsp.family.engine or bsp.family.key not in {f.key for f in
                                                                    TARGETS.values()}:
        wanted = [key for key, f in TARGETS.items() if f.engine == bsp.family.engine]
        raise BspError(f"a {bsp.family.title} map cannot become {family.title}"
                       + (f" (choose {', '.join(wanted)})" if wanted else
                          ": convert handles Quake 1 and GoldSrc maps"), path=bsp.path)
    if family is bsp.family:
        raise BspError(f"the map is {family.title} already", path=bsp.path)
    if family.engine == "goldsrc" and not bsp.lumps[bsp.family.entities].length:
        raise BspError("an empty entity lump: Blue Shift maps are told apart by it",
                       path=bsp.path)
    return family


# --- records --------------------------------------------------------------------------------

def _converted(bsp: Bsp, lump: str, family: Family, warnings: list[str]) -> bytes:
    """The lump's content in `family`'s records (the stored bytes when they are the same)."""
    source = record_dtype(bsp.family.key, lump)
    wanted = record_dtype(family.key, lump)
    if source is None or wanted is None or wanted.names is None or source == wanted:
        return bsp.read_lump(lump)
    import numpy  # here: the CLI imports this module (TARGETS) to build its parser

    records = bsp.records(lump)
    out = numpy.zeros(len(records), wanted)
    rounded = numpy.zeros(len(records), bool)
    for name in wanted.names:
        _field(bsp, lump, name, records[name], out[name], family, rounded)
    if rounded.any():
        warnings.append(f"{lump}: {int(rounded.sum())} of {len(out)} records have bounds that "
                        f"are not whole: rounded outward")
    _warn_counts(lump, len(out), family, warnings)
    return out.tobytes() + bsp.record_tail(lump)


def _field(bsp: Bsp, lump: str, name: str, values: numpy.ndarray[Any, Any],
           out: numpy.ndarray[Any, Any], family: Family, rounded: numpy.ndarray[Any, Any],
           ) -> None:
    """Copy one field into `out` (`out`'s dtype), refusing values it cannot hold; records
    whose float bounds are rounded are marked in `rounded`."""
    import numpy

    if values.dtype.names:              # x/y/z bounds
        for axis in values.dtype.names:
            _field(bsp, lump, f"{name}.{axis}", values[axis], out[axis], family, rounded)
        return
    kind = out.dtype.kind
    if (lump, name) in _CHILDREN:
        out[...] = _children(bsp, lump, name, values, out.dtype, family)
    elif values.dtype.kind == "f" and kind in "iu":     # float bounds into int16
        whole = numpy.floor(values) if name.startswith("mins") else numpy.ceil(values)
        _fits(bsp, lump, name, whole, out.dtype, family)
        rounded |= whole != values
        out[...] = whole
    elif kind == "f" or values.dtype.kind not in "iu":
        out[...] = values
    else:
        _fits(bsp, lump, name, values, out.dtype, family)
        out[...] = values


def _fits(bsp: Bsp, lump: str, name: str, values: numpy.ndarray[Any, Any],
          dtype: numpy.dtype[Any], family: Family) -> None:
    import numpy

    if not values.size:
        return
    limits = numpy.iinfo(dtype)
    low, high = values.min(), values.max()
    if low >= limits.min and high <= limits.max:
        return
    bad = high if high > limits.max else low
    counted = _INDEXES.get((lump, name.split(".")[0]))
    count = f"; the map has {len(bsp.records(counted))} {counted}" if counted else ""
    raise BspError(f"{family.title} cannot hold this map: {lump} {name} holds {bad:g}, its "
                   f"{dtype.name} field {limits.min}..{limits.max}{count}; nothing written",
                   path=bsp.path)


def _children(bsp: Bsp, lump: str, name: str, values: numpy.ndarray[Any, Any],
              dtype: numpy.dtype[Any], family: Family) -> numpy.ndarray[Any, Any]:
    """Node or clipnode children into `dtype`: 16-bit ones are unsigned, a node below the
    count, else a leaf or contents counted down from 65535 (see the module docstring)."""
    import numpy

    count = len(values)
    wide = values.astype(numpy.int64)
    if values.dtype.itemsize == 2:              # decode: unsigned, nodes below the count
        unsigned = wide & 0xFFFF
        return numpy.where(unsigned < count, unsigned, unsigned - 0x10000).astype(dtype)
    if dtype.itemsize != 2:
        return wide.astype(dtype)
    unsigned = numpy.where(wide >= 0, wide, wide + 0x10000)
    nodes = wide >= 0
    bad = (nodes & (wide >= count)) | (~nodes & ((wide < -0x10000) | (unsigned < count)))
    if bad.any():
        what = "leafs" if lump == "NODES" else "contents"
        raise BspError(f"{family.title} cannot hold this map: {lump} {name} number nodes and "
                       f"{what} in 16 bits, {count} {lump} and child {int(wide[bad][0])} "
                       f"do not fit (nodes + {what} <= 65536); nothing written", path=bsp.path)
    return unsigned.astype(numpy.uint16).view(numpy.int16).astype(dtype)


def _warn_counts(lump: str, count: int, family: Family, warnings: list[str]) -> None:
    """Counts past the vanilla engine's MAX_MAP_* (BSP 29 only: BSP2 lifted them)."""
    if family is not QUAKE1:
        return
    for limit in enginelimits.QUAKE1:
        if limit.lump == lump and limit.unit == "records" and count > limit.limit:
            warnings.append(f"{lump}: {count} records, past Quake's {limit.constant} "
                            f"({limit.limit}): engines without raised limits refuse the map")


# --- the file -------------------------------------------------------------------------------

def _file(bsp: Bsp, family: Family, contents: dict[str, bytes]) -> tuple[Header, bytes]:
    """The converted file: the source's layout with the new lump contents (module docstring)."""
    size = bsp.size
    old = bsp.read_range(0, size)
    header_size = bsp.family.header_size
    placed = sorted((l for l in bsp.lumps if l.length > 0), key=lambda l: (l.offset, l.index))
    tail = bsp.layout.tail
    out = bytearray(old[:header_size])
    starts: dict[int, int] = {}             # old offset -> new offset, for empty lumps
    ends: dict[int, int] = {}
    position = placed[0].offset if placed else header_size
    out += old[header_size:position]
    new_offsets: dict[str, tuple[int, int]] = {}
    for number, lump in enumerate(placed):
        data = contents[lump.name]
        starts.setdefault(lump.offset, len(out))
        new_offsets[lump.name] = (len(out), len(data))
        out += data
        ends[lump.end] = len(out)
        stop = placed[number + 1].offset if number + 1 < len(placed) else \
            (tail.start if tail else size)
        gap = old[lump.end:stop]
        if not gap.strip(b"\0") and len(gap) == -lump.end % 4:
            gap = bytes(-len(out) % 4)      # padding: recomputed for the new end
        starts.setdefault(lump.end, len(out))
        out += gap
    if tail:
        starts.setdefault(tail.start, len(out))
        out += relocate_trailer(old[tail.start:tail.end], tail.start, len(out))
        out += old[tail.end:]
    starts.setdefault(size, len(out))
    lumps = []
    for index, name in enumerate(family.lump_names):
        source = bsp.lumps[bsp.family.lump_names.index(name)]
        if name in new_offsets:
            offset, length = new_offsets[name]
        else:
            offset, length = _empty_offset(source.offset, starts, ends, header_size), 0
        lumps.append(Lump(index, name, offset, length))
    version = _VERSIONS.get(family.key)
    header = Header(family, family.ident, version, lumps)
    out[:header_size] = header.to_bytes()
    return header, bytes(out)


def _empty_offset(offset: int, starts: dict[int, int], ends: dict[int, int],
                  header_size: int) -> int:
    """Where an empty lump's offset goes: the new place of the lump, gap or end it pointed
    at; offsets inside the header or elsewhere are kept."""
    if offset in starts:
        return starts[offset]
    if offset in ends:
        return ends[offset]
    return offset


def _header_change(old: Header, new: Header) -> tuple[str, ...]:
    """The header's change beyond lump offsets and lengths, as a `changed` entry: its
    identification (version 29 -> ident BSP2) and the lumps its directory entries describe
    (Blue Shift: directory entry 0 PLANES, entry 1 ENTITIES)."""
    def ident(header: Header) -> str:
        return f"ident {header.ident.decode('latin-1')}" if header.ident else \
            f"version {header.version}"

    parts = [f"{ident(old)} -> {ident(new)}"] if ident(old) != ident(new) else []
    parts += [f"directory entry {n}: {a.name} -> {b.name}" for n, (a, b) in
              enumerate(zip(old.lumps, new.lumps)) if a.name != b.name]
    return (f"header ({', '.join(parts)})",) if parts else ()


def _write(bsp: Bsp, header: Header, data: bytes, path: str, *, dry_run: bool,
           in_place: bool, warnings: tuple[str, ...]) -> SaveResult:
    """Write `data` to `path` (atomic; over the map itself when `in_place`, which is closed
    first) and say what changed, with the engine checksums before and after (computed from
    the new file)."""
    import tempfile

    from ...bsp import Bsp as Opened
    from ...container.fileio import write_all
    from ...container.mapsums import compared_checksum
    from ...container.outputs import atomic_file, write_file
    from ...container.saving import SaveResult as Result

    before = bsp.checksums()
    with tempfile.TemporaryDirectory(prefix="bspedit-convert-") as scratch:
        probe = os.path.join(scratch, os.path.basename(bsp.path))
        write_file(probe, data)
        with Opened.open(probe) as written:
            after = written.checksums()
            if written.family is not header.family:
                raise AssertionError(f"converted file reads as {written.family.key}")
    old = {lump.name: lump for lump in bsp.lumps}
    changed = _header_change(bsp.header, header) + tuple(
        lump_label(l) for l in header.lumps
        if l.length != old[l.name].length or l.length and
        bsp.read_lump(l.name) != data[l.offset:l.end])
    moved = tuple(lump_label(l) for l in header.lumps
                  if l.length and l.offset != old[l.name].offset)
    result = Result(path, "converted", len(data), changed, moved, before, after,
                    compared_checksum(bsp.header), not dry_run, (), warnings)
    if dry_run:
        return result
    if not in_place:
        write_file(path, data, inputs=[bsp.path])
        return result
    with atomic_file(path, let_go=bsp.close) as fd:      # Windows renames no open file
        write_all(fd, data)
    return result
