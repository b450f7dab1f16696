"""The dump folder (issue 17): a map as files to edit with any tool, and the build back.

`dump(bsp, folder)` writes `manifest.json` (family, header bytes, every lump's directory entry,
crc32 of its stored bytes and of its content, the file holding it and its form, the bytes no
lump covers) and one file per non-empty lump: fixed-size records as CSV (`NN_NAME.csv`, bytes
after the last whole record in `NN_NAME.tail.bin`) unless a record holds a byte field longer
than a CSV cell should be (`CELL_LIMIT`: the Quake 3 family's lightmaps, written raw), the
entity text as `NN_entities.ent`, the pakfile as `NN_PAKFILE.zip`, variable-size lumps with a
model (`bspedit.lumps.structures`) as its JSON (`NN_NAME.json`), anything else raw
(`NN_NAME.bin`). Valve LZMA lumps are written decompressed when pylzma gives back their stored
bytes (else stored, raw, the manifest's `lzma_note` saying why: without pylzma, or when the
lump was not made by Valve's encoder). `build` then needs pylzma for every decompressed LZMA
lump left unchanged (it refuses, exit 2, without it); an edited one is compressed again by
whichever encoder is there.

`build(folder, target)` writes the map back: `rebuild` reads each lump's stored bytes and which
changed (their crc32 or length differ from the manifest's), `write_base` writes the original file
with the changed lumps as zeros into a scratch folder, which is opened with `Bsp`, given the
changed lumps and saved to `target` (stable layout: every other lump keeps its bytes and
offset).
"""
from __future__ import annotations

import csv
import json
import os
import re
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ..errors import BspError
from ..format.header import lump_label

if TYPE_CHECKING:
    from ..bsp import Bsp
    from ..format.families import Family
    from ..format.header import Lump
    from ..lumps.recordtable import Column
    from ..container.saving import SaveResult

MANIFEST = "manifest.json"
FORMAT = "bspedit dump"
FORMAT_VERSION = 1
GAPS = "gaps"           # subfolder of the non-zero bytes no lump covers
# The longest cell `dump` writes in a CSV: what a spreadsheet cell holds (Excel: 32,767
# characters). A record type with a byte field whose `hex:` cell could be longer (the lightmaps
# of IBSP, RBSP: 49,152 bytes; FBSP: 786,432 bytes, 1.5 million characters) is dumped raw.
CELL_LIMIT = 32767
# The longest CSV field `build` reads (Python's csv module stops at 131,072 characters unless
# told otherwise): any cell a file can hold, so a hand-made or older dump with long `hex:` cells
# reads back too. 2**31 - 1 fits a C long on every platform.
FIELD_LIMIT = 2**31 - 1


def lump_records(bsp: Bsp, index: int) -> tuple[str, bytes, bytes] | None:
    """A fixed-size lump's record type ("spec::type"), whole records and tail bytes (LZMA lumps
    decompressed), or None when the specs give it no fixed-size type."""
    try:
        info = bsp.describe_records(index)
    except BspError:
        return None
    return info.type, bsp.records(index).tobytes(), bsp.record_tail(index)


def _stem(lump: Lump) -> str:
    return f"{lump.index:02d}_{re.sub(r'[^A-Za-z0-9_]+', '_', lump.name)}"


def _crc(data: bytes) -> int:
    return zlib.crc32(data) & 0xFFFFFFFF


KEPT_NO_PYLZMA = ("stored LZMA bytes, dumped as they are: pylzma is not installed, and only "
                  "it compresses the content back to them (pip install \"bspedit[valve-lzma]\" "
                  "and dump again to get the content)")
KEPT_NOT_VALVE = ("stored LZMA bytes, dumped as they are: compressing the content again does "
                  "not give them back (not made by Valve's encoder)")


def _content(bsp: Bsp, stored: bytes) -> tuple[bytes, bool, bool]:
    """The bytes to dump, whether `stored` is Valve LZMA, and whether the bytes are its content
    that compresses back to `stored` (else they are `stored`: always without pylzma, as only
    it gives back Valve's bytes)."""
    from ..format.lzma_lump import compress, decompress, lzma_header, properties_of, \
        valve_encoder

    if not stored or bsp.family.header != "vbsp" or lzma_header(stored) is None:
        return stored, False, False
    if not valve_encoder():
        return stored, True, False
    content = decompress(stored)
    again = compress(content, properties_of(stored))
    return (content, True, True) if again == stored else (stored, True, False)


def dump(bsp: Bsp, folder: Path) -> dict[str, Any]:
    """Write the dump of `bsp` into `folder` (an empty staging folder); returns the manifest."""
    from ..format.lzma_lump import valve_encoder

    family = bsp.family
    lumps = []
    for lump in bsp.lumps:
        entry: dict[str, Any] = {"index": lump.index, "name": lump.name, "offset": lump.offset,
                                 "length": lump.length, "version": lump.version,
                                 "fourcc": lump.fourcc}
        stored = bsp.original_bytes(lump)
        content, compressed, lzma = _content(bsp, stored)
        entry.update(compressed=compressed, stored="lzma" if lzma else "raw",
                     crc32=_crc(stored), content_length=len(content),
                     content_crc32=_crc(content), file=None, form="empty", type=None,
                     tail_file=None)
        if lzma:                # its LZMA settings, for `build` to compress it again alike
            entry["lzma_properties"] = stored[12:17].hex()
        elif compressed:        # why its stored bytes are dumped
            entry["lzma_note"] = KEPT_NOT_VALVE if valve_encoder() else KEPT_NO_PYLZMA
        if stored:
            packed = compressed and not lzma      # stored LZMA bytes, kept raw
            entry.update(_write_lump(bsp, lump, content, packed, folder))
            if lump.name == family.game_lump and not packed:
                entry["members"] = _write_members(bsp, f"{_stem(lump)}_members", folder)
        lumps.append(entry)
    gaps = []
    for gap in bsp.layout.gaps:
        data = bsp.read_range(gap.start, gap.end)
        name = None
        if data.strip(b"\0"):
            name = f"{GAPS}/{gap.start:010d}_{gap.kind}.bin"
            (folder / GAPS).mkdir(exist_ok=True)
            (folder / name).write_bytes(data)
        gaps.append({"start": gap.start, "end": gap.end, "kind": gap.kind, "file": name,
                     "crc32": _crc(data)})
    manifest = {"format": FORMAT, "format_version": FORMAT_VERSION, "family": family.key,
                "version": bsp.header.version, "revision": bsp.header.revision,
                "size": bsp.size, "header": bsp.read_range(0, bsp.header.size).hex(),
                "checksums": bsp.checksums(), "lumps": lumps, "gaps": gaps}
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def _write_lump(bsp: Bsp, lump: Lump, content: bytes, packed: bool,
                folder: Path) -> dict[str, Any]:
    """Write one lump's file(s) (`packed`: LZMA bytes kept as stored, raw); the manifest facts
    of its form."""
    family = bsp.family
    stem = _stem(lump)
    records = None if packed else lump_records(bsp, lump.index)
    if packed:
        name, form = f"{stem}.bin", "raw"
    elif lump.index == family.entities:
        name, form = f"{lump.index:02d}_entities.ent", "ent"
    elif family.pakfile and lump.index == family.index_of(family.pakfile):
        name, form = f"{stem}.zip", "raw"
    elif records is not None and lump.name != family.game_lump and \
            fits_cells(records[0], bsp.header.endian):
        type_name, whole, tail = records
        name = f"{stem}.csv"
        write_table(folder / name, type_name, whole, bsp.header.endian)
        tail_file = None
        if tail:
            tail_file = f"{stem}.tail.bin"
            (folder / tail_file).write_bytes(tail)
        return {"file": name, "form": "csv", "type": type_name, "tail_file": tail_file}
    elif (model := lump_structure(bsp, lump, content)) is not None:
        name = f"{stem}.json"
        (folder / name).write_text(json.dumps(model[1], indent=1) + "\n")
        return {"file": name, "form": "json", "type": model[0]}
    else:
        name, form = f"{stem}.bin", "raw"
    (folder / name).write_bytes(content)
    if records is not None and form == "raw" and lump.name != family.game_lump:
        # records too wide for CSV cells (lightmaps): raw, with their layout named
        return {"file": name, "form": form, "type": records[0]}
    return {"file": name, "form": form}


def _write_members(bsp: Bsp, subfolder: str, folder: Path) -> list[dict[str, Any]]:
    """Write each Source game lump member with data and a unique printable id as
    `subfolder/ID.bin` (decompressed) or, with a model, `ID.json`; their manifest rows. On
    Windows or with BSPEDIT_WINDOWS_NAMES=1 the id is unique in any case, and a device name's
    files are `ID_.bin`, `ID_.json` (`format.winnames`)."""
    from ..format.recordtypes import game_lump_type
    from ..format.winnames import windows_component, windows_key, windows_names
    from ..lumps.structures import model_for_type

    game = bsp.game_lump
    windows = windows_names()
    names = [windows_key(m.name) if windows else m.name for m in game.members]
    rows = []
    for member in game.members:
        name = member.name
        if member.terminator or not member.stored or \
                names.count(windows_key(name) if windows else name) != 1 or \
                not re.fullmatch(r"[A-Za-z0-9_]{4}", name):
            continue
        data = game.payload(member)
        stem = windows_component(name).path if windows else name
        row: dict[str, Any] = {"id": name, "version": member.version, "form": "raw",
                               "type": None, "content_length": len(data),
                               "content_crc32": _crc(data), "file": f"{subfolder}/{stem}.bin"}
        entry = game_lump_type(bsp.family.key, name, member.version)
        model = model_for_type(entry.type, bsp.header.endian) \
            if entry is not None and entry.whole else None
        obj = _model_json(model, data) if model is not None else None
        (folder / subfolder).mkdir(exist_ok=True)
        if entry is not None and obj is not None:
            row.update(form="json", type=entry.type, file=f"{subfolder}/{stem}.json")
            (folder / row["file"]).write_text(json.dumps(obj, indent=1) + "\n")
        else:
            (folder / row["file"]).write_bytes(data)
        rows.append(row)
    return rows


def _lzma_properties(entry: dict[str, Any], path: Path) -> bytes | None:
    """The 5 LZMA property bytes a manifest entry names (None: Valve's PC settings, as dumps
    made before they were recorded had)."""
    props = entry.get("lzma_properties")
    if props is None:
        return None
    try:
        found = bytes.fromhex(props) if isinstance(props, str) else b""
    except ValueError:
        found = b""
    if len(found) != 5:
        raise BspError(f"lump {entry['index']}: lzma_properties {props!r} is not 5 bytes in hex",
                       path=str(path))
    return found


def _model_json(model: Any, data: bytes) -> dict[str, Any] | None:
    """`model`'s JSON of `data`, or None when it does not give back the exact bytes."""
    try:
        obj: dict[str, Any] = model.parse(data).to_json()
        back = model.from_json(json.loads(json.dumps(obj))).to_bytes()
    except (BspError, ValueError, KeyError, TypeError, IndexError):
        return None
    return obj if back == data else None


def lump_structure(bsp: Bsp, lump: Lump, content: bytes) -> tuple[str, dict[str, Any]] | None:
    """A variable-size lump's Kaitai type and model as JSON (`bspedit.lumps.structures`), or None
    when it has no model or the model does not give back its exact bytes."""
    from ..format.recordtypes import lump_type
    from ..lumps.structures import model_for_type

    entry = lump_type(bsp.family.key, lump.name, lump.version, bsp.header.version)
    model = model_for_type(entry.type, bsp.header.endian) \
        if entry is not None and entry.whole else None
    if entry is None or model is None:
        return None
    obj = _model_json(model, content)
    return None if obj is None else (entry.type, obj)


def fits_cells(type_name: str, endian: str = "<") -> bool:
    """Whether every cell of a record of `type_name` fits `CELL_LIMIT` characters (a byte
    field's cell may be `hex:` and two digits a byte)."""
    from ..lumps.recordtable import columns
    from ..format.recordtypes import type_dtype

    return all(c.kind != "S" or 4 + 2 * c.size <= CELL_LIMIT
               for c in columns(type_dtype(type_name, endian)))


def write_table(path: Path, type_name: str, data: bytes, endian: str = "<") -> None:
    """Whole records of `type_name` (in byte order `endian`) as CSV: a header row of dotted
    field names, a row each."""
    from ..lumps.recordtable import columns, format_rows
    from ..format.recordtypes import type_dtype

    dtype = type_dtype(type_name, endian)
    cols = columns(dtype)
    with open(path, "w", newline="", encoding="ascii") as out:
        write_table_to(out, cols, format_rows(data, dtype.itemsize, cols,
                                              range(len(data) // dtype.itemsize)))


def write_table_to(out: TextIO, cols: list[Column], rows: list[tuple[str, ...]]) -> None:
    """CSV of `rows` of cells under a header row of the columns' names."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([c.name for c in cols])
    writer.writerows(rows)


def read_table(path: Path, type_name: str, endian: str = "<") -> bytes:
    """The records (in byte order `endian`) of a CSV written by `write_table` (maybe edited);
    BspError naming the file and line of a malformed row."""
    from ..lumps.recordtable import columns, parse_rows
    from ..format.recordtypes import type_dtype

    dtype = type_dtype(type_name, endian)
    cols = columns(dtype)
    if csv.field_size_limit() < FIELD_LIMIT:       # process-wide, only ever raised
        csv.field_size_limit(FIELD_LIMIT)
    try:
        # UTF-8 with a byte order mark too (spreadsheets); cells must then be ASCII
        with open(path, newline="", encoding="utf-8-sig") as source:
            rows = list(csv.reader(source))
    except UnicodeDecodeError as exc:
        raise BspError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", path=str(path)) \
            from None
    except csv.Error as exc:
        raise BspError(f"malformed CSV: {exc}", path=str(path)) from None
    names = [c.name for c in cols]
    if not rows or rows[0] != names:
        raise BspError(f"line 1: the header row must be the {len(names)} field names of "
                       f"{type_name} ({','.join(names[:4])},...)", path=str(path))
    while len(rows) > 1 and not rows[-1]:      # blank lines at the end
        rows.pop()
    return parse_rows(rows[1:], dtype.itemsize, cols, str(path))


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """A dump folder read back: the manifest, every non-empty lump's stored bytes, and the
    indices of the lumps whose bytes differ from the dumped ones."""

    manifest: dict[str, Any]
    stored: dict[int, bytes]
    changed: tuple[int, ...]
    inputs: tuple[str, ...]        # every file read
    members: tuple[tuple[str, bytes], ...] = ()     # edited game lump members: id, new data


def _field(entry: dict[str, Any], key: str, kind: type, where: str) -> Any:
    value = entry.get(key) if isinstance(entry, dict) else None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise BspError(f"{where}: missing or bad {key!r}", path=MANIFEST)
    return value


def read_manifest(folder: Path) -> dict[str, Any]:
    """The folder's manifest, checked for what the build relies on."""
    from ..format.families import BY_KEY

    path = folder / MANIFEST
    if not folder.is_dir():
        kind = "a file" if folder.exists() else "no such folder"
        raise BspError(f"{kind}: build reads a folder written by bspedit dump",
                       path=str(folder))
    try:
        manifest = json.loads(path.read_text())
    except FileNotFoundError:
        raise BspError(f"no {MANIFEST}: not a folder written by bspedit dump",
                       path=str(folder)) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BspError(f"not JSON: {exc}", path=str(path)) from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BspError(f"not a bspedit dump manifest (no \"format\": \"{FORMAT}\")",
                       path=str(path))
    if manifest.get("format_version") != FORMAT_VERSION:
        raise BspError(f"format_version {manifest.get('format_version')!r}: this bspedit "
                       f"reads {FORMAT_VERSION}", path=str(path))
    family = BY_KEY.get(manifest.get("family"))    # type: ignore[arg-type]
    if family is None:
        raise BspError(f"unknown family {manifest.get('family')!r}", path=str(path))
    size = _field(manifest, "size", int, "manifest")
    try:
        header = bytes.fromhex(_field(manifest, "header", str, "manifest"))
    except ValueError:
        raise BspError("header: not hex", path=str(path)) from None
    if len(header) != family.header_size or size < len(header):
        raise BspError(f"header: {len(header)} bytes, {family.key} headers have "
                       f"{family.header_size}", path=str(path))
    lumps = _field(manifest, "lumps", list, "manifest")
    if len(lumps) != family.lump_count:
        raise BspError(f"{len(lumps)} lumps listed, {family.key} maps have "
                       f"{family.lump_count}", path=str(path))
    for n, entry in enumerate(lumps):
        where = f"lump {n}"
        if _field(entry, "index", int, where) != n:
            raise BspError(f"{where}: index {entry['index']} out of order", path=str(path))
        offset, length = (_field(entry, k, int, where) for k in ("offset", "length"))
        for key in ("crc32", "content_crc32", "content_length"):
            _field(entry, key, int, where)
        if length and not (0 <= offset and offset + length <= size):
            raise BspError(f"{where}: {length} bytes at {offset} do not fit the {size}-byte "
                           "file", path=str(path))
        if length and entry.get("form") not in ("csv", "ent", "json", "raw"):
            raise BspError(f"{where}: unknown form {entry.get('form')!r}", path=str(path))
        if length and not isinstance(entry.get("file"), str):
            raise BspError(f"{where}: missing or bad 'file'", path=str(path))
        for key in ("file", "tail_file"):
            name = entry.get(key)
            if isinstance(name, str) and _outside(name):
                raise BspError(f"{where}: {key} {name!r} is outside the folder", path=str(path))
    for gap in _field(manifest, "gaps", list, "manifest"):
        for key in ("start", "end", "crc32"):
            _field(gap, key, int, "gap")
    return manifest


def _manifest_endian(manifest: dict[str, Any]) -> str:
    """The byte order of a (checked) manifest's map, from its header's ident: ">" for console
    maps (PSBV), else "<"."""
    from ..format.families import BY_KEY

    ident = BY_KEY[manifest["family"]].ident_big_endian
    return ">" if ident and bytes.fromhex(manifest["header"][:8]) == ident else "<"


def rebuild(folder: Path) -> Rebuilt:
    """Read a dump folder back (BspError naming the file of anything missing or malformed)."""
    from ..format.lzma_lump import compress, valve_encoder

    manifest = read_manifest(folder)
    endian = _manifest_endian(manifest)
    stored, changed, inputs = {}, [], [str(folder / MANIFEST)]
    members: list[tuple[str, bytes]] = []
    for entry in manifest["lumps"]:
        if not entry["length"] and entry.get("file") is None:
            continue
        path = folder / entry["file"]
        inputs.append(str(path))
        if entry["form"] == "csv":
            content = read_table(_present(path), entry["type"], endian)
            if entry.get("tail_file"):
                tail = folder / entry["tail_file"]
                inputs.append(str(tail))
                content += _present(tail).read_bytes()
        elif entry["form"] == "json":
            content = _from_json(_present(path), entry.get("type"), endian)
        else:
            content = _present(path).read_bytes()
        same = len(content) == entry["content_length"] and _crc(content) == entry["content_crc32"]
        if entry["stored"] == "lzma":
            if same and not valve_encoder():
                raise BspError(f"lump {entry['index']} is dumped decompressed and unchanged: "
                               "pylzma is needed to give back its stored LZMA bytes (pip "
                               "install \"bspedit[valve-lzma]\"); nothing written",
                               path=str(path))
            data = compress(content, _lzma_properties(entry, path))
            if same and _crc(data) != entry["crc32"]:
                raise BspError(f"lump {entry['index']}: LZMA compression does not give back the "
                               "stored bytes (another pylzma?); dump again", path=str(path))
        else:
            data = content
        stored[entry["index"]] = data
        if not same or len(data) != entry["length"] or _crc(data) != entry["crc32"]:
            changed.append(entry["index"])
        for member in entry.get("members") or ():
            member_path = _inside(folder, member.get("file"), f"lump {entry['index']} member")
            inputs.append(str(member_path))
            new = _from_json(_present(member_path), member.get("type"), endian) \
                if member.get("form") == "json" else _present(member_path).read_bytes()
            if len(new) != member.get("content_length") or _crc(new) != member.get("content_crc32"):
                members.append((str(member.get("id")), new))
        if members and entry["index"] in changed:
            raise BspError(f"lump {entry['index']} ({entry['name']}): edit its file or its "
                           "members' files, not both", path=str(path))
    return Rebuilt(manifest, stored, tuple(changed), tuple(inputs), tuple(members))


def _inside(folder: Path, name: Any, where: str) -> Path:
    """`folder / name` for a relative path inside the folder; BspError otherwise."""
    if not isinstance(name, str) or _outside(name):
        raise BspError(f"{where}: bad file {name!r}", path=str(folder / MANIFEST))
    return folder / name


def _outside(name: str) -> bool:
    """Whether a manifest's file name is absolute or climbs out of the folder."""
    return os.path.isabs(name) or ".." in Path(name).parts


def _from_json(path: Path, type_name: Any, endian: str) -> bytes:
    """The bytes of a lump model written as JSON by `dump` (maybe edited), numbers in byte
    order `endian`."""
    from ..lumps.structures import model_for_type

    model: Any = model_for_type(type_name, endian) if isinstance(type_name, str) else None
    if model is None:
        raise BspError(f"no lump model named {type_name!r} (the manifest's type)", path=str(path))
    try:
        return bytes(model.from_json(json.loads(path.read_text())).to_bytes())
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BspError(f"not JSON: {exc}", path=str(path)) from None
    except BspError as exc:
        raise BspError(str(exc), path=str(path)) from None
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        raise BspError(f"not a {type_name} model: {type(exc).__name__}: {exc}",
                       path=str(path)) from None


def _present(path: Path) -> Path:
    """`path`, a file the manifest lists; BspError when it is missing."""
    if not path.is_file():
        raise BspError("missing: the manifest lists it (dump again, or restore it)",
                       path=str(path))
    return path


def write_base(rebuilt: Rebuilt, folder: Path, fd: int) -> None:
    """Write the dumped map to `fd`: header, unchanged lumps at their offsets, zeros for the
    changed ones (replaced after), the bytes no lump covers."""
    from ..container.fileio import pwrite, write_all

    manifest = rebuilt.manifest
    os.ftruncate(fd, manifest["size"])
    for entry in manifest["lumps"]:
        if entry["length"] and entry["index"] not in rebuilt.changed:
            os.lseek(fd, entry["offset"], os.SEEK_SET)
            write_all(fd, rebuilt.stored[entry["index"]])
    for gap in manifest["gaps"]:
        if gap.get("file"):
            path = folder / gap["file"]
            data = _present(path).read_bytes()
            if len(data) != gap["end"] - gap["start"]:
                raise BspError(f"{len(data)} bytes, the gap at {gap['start']} has "
                               f"{gap['end'] - gap['start']}", path=str(path))
            pwrite(fd, data, gap["start"])
    pwrite(fd, bytes.fromhex(manifest["header"]), 0)     # last: its bytes win


def check_base(bsp: Bsp, rebuilt: Rebuilt, manifest: Path) -> None:
    """Refuse a manifest whose lump entries disagree with its header bytes."""
    for entry, lump in zip(rebuilt.manifest["lumps"], bsp.lumps):
        if (entry["offset"], entry["length"]) != (lump.offset, lump.length) and \
                (entry["length"] or lump.length):
            raise BspError(f"{lump_label(lump)}: the manifest says {entry['length']} bytes at "
                           f"{entry['offset']}, its header {lump.length} at {lump.offset}",
                           path=str(manifest))


def build(folder: Path, target: str, *, dry_run: bool = False,
          ) -> tuple[list[str], Family, SaveResult]:
    """Write the map of a dump folder to `target` (`-`: standard output; `dry_run`: nothing
    written): the edited lumps and members, the family, and the save, whose checksums before are
    the dumped map's."""
    import tempfile

    from ..bsp import Bsp
    from ..container.fileio import open_fd
    from ..container.outputs import STDOUT, guard

    rebuilt = rebuild(folder)
    if target != STDOUT:
        guard(target, rebuilt.inputs)
    name = os.path.basename(target) if target != STDOUT else "map.bsp"
    with tempfile.TemporaryDirectory(prefix="bspedit-build-") as scratch:
        base = os.path.join(scratch, name)
        fd = open_fd(base, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o666)   # the umask applies
        try:
            write_base(rebuilt, folder, fd)
        finally:
            os.close(fd)
        try:
            opened = Bsp.open(base)
        except BspError as exc:
            exc.path = None                 # the scratch file: name the manifest instead
            raise BspError(f"its header and lumps do not make a map: {exc}",
                           path=str(folder / MANIFEST)) from None
        with opened as bsp:
            check_base(bsp, rebuilt, folder / MANIFEST)
            edited = [lump_label(bsp.lumps[i]) for i in rebuilt.changed]
            for index in rebuilt.changed:
                bsp.replace_lump(index, rebuilt.stored[index])
            for member, data in rebuilt.members:
                bsp.game_lump.replace_member(member, data)
                edited.append(f"game lump member {member}")
            result = _save(bsp, target, dry_run)
    before = rebuilt.manifest.get("checksums")
    if isinstance(before, dict) and before.keys() == result.checksums_before.keys() and \
            all(isinstance(v, int) for v in before.values()):
        result = result.replace(checksums_before=dict(before))
    return edited, bsp.family, result


def _save(bsp: Bsp, target: str, dry_run: bool) -> SaveResult:
    """Save `bsp` to `target`; `-` spools it to a temporary file streamed to standard output."""
    from ..container.outputs import STDOUT, spooled_stdout
    from ..container.saving import save

    if dry_run or target != STDOUT:
        return save(bsp, target, dry_run=dry_run)
    with spooled_stdout(os.path.basename(bsp.path)) as spool:
        result = save(bsp, spool)
    return result.replace(target=STDOUT)
