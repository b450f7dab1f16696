"""The numpy record types generated from the Kaitai specs (issue 17): bspedit/format/generated/record_types.py
(written by ksy/compiler/dtypes.js) and bspedit/format/recordtypes.py. Sizes against the specs and
families.py, zero-copy reads and exact writes of every fixed-size lump of the corpus, records
agreeing with the Kaitai readers, float bit patterns, and the generated file being up to date."""
from __future__ import annotations

import functools
import importlib
import shutil
import struct
import subprocess

import numpy as np
import pytest
from kaitaistruct import BytesIO, KaitaiStream

from bspedit.format import lzma_lump
from bspedit.bsp import Bsp
from bspedit.format.families import BY_KEY, FAMILIES
from bspedit.format.generated.record_types import (BYTE_ORDER_SPECS, GAME_LUMP_TABLES, LUMP_TABLES,
                                                   RECORD_TYPES)
from bspedit.format.recordtypes import (game_lump_type, lump_type, record_dtype, type_dtype)
from conftest import ROOT, corpus_maps, ksy_spec

KSY_FILES = sorted((ROOT / "ksy").glob("*.ksy"))
KSY = {data["meta"]["id"]: data for data in (ksy_spec(path.stem) for path in KSY_FILES)}
EDGE = 50            # records compared with Kaitai at each end of a lump


def _reader(qualified: str):
    spec, name = qualified.split("::")
    module = importlib.import_module(f"bspedit.format.generated.{spec}")
    camel = lambda s: "".join(part[:1].upper() + part[1:] for part in s.split("_"))  # noqa: E731
    found = getattr(getattr(module, camel(spec)), camel(name))
    return functools.partial(found, _is_le=True) if spec in BYTE_ORDER_SPECS else found


# ---- the generated data against the specs and families.py ----

def test_every_fixed_type_has_a_dtype_of_its_size():
    fixed = {f"{spec}::{name}": body["-bspedit-size"] for spec, data in KSY.items()
             for name, body in data.get("types", {}).items() if "-bspedit-size" in body}
    assert set(RECORD_TYPES) == set(fixed)
    for name, size in fixed.items():
        dtype = type_dtype(name)
        assert dtype.itemsize == size == RECORD_TYPES[name][0], name
        assert not dtype.isalignedstruct and dtype.fields is not None


def test_dtype_offsets_follow_the_spec():
    """Fields sit back to back in spec order: each offset is the sum of the sizes before it."""
    def check(spec: str, name: str, dtype: np.dtype) -> None:
        offset = 0
        for field in KSY[spec]["types"][name]["seq"]:
            sub, at = dtype.fields[field["id"]][:2]
            assert at == offset, f"{spec}::{name}.{field['id']}"
            kind = field.get("type")
            if kind not in (None, "str") and sub.base.fields is not None:
                owner, local = kind.split("::") if "::" in kind else (spec, kind)
                check(owner, local, sub.base)
            offset += sub.itemsize
    for qualified in RECORD_TYPES:
        check(*qualified.split("::"), type_dtype(qualified))


def test_lump_tables_name_the_spec_families():
    assert set(LUMP_TABLES) == {k for d in KSY.values() for k in d.get("-bspedit-families", [])
                                if "-bspedit-lumps" in d}
    assert set(LUMP_TABLES) == set(BY_KEY)
    assert set(GAME_LUMP_TABLES) == {"source"}
    assert game_lump_type("source", "dprp", 4).type == "source_game_lumps::detail_props_v4"
    assert game_lump_type("source", "dprp", 5) is None


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.key)
def test_dtypes_match_families_py_both_ways(family):
    """For every lump, lump version and map version: families.py's record size is the dtype's
    itemsize, and a lump without one has no dtype."""
    for map_version in [None, *sorted(family.versions)]:
        for index, lump in enumerate(family.lump_names):
            for lump_version in range(3):
                want = family.record_size(index, lump_version, map_version)
                dtype = record_dtype(family.key, lump, lump_version, map_version)
                entry = lump_type(family.key, lump, lump_version, map_version)
                got = None if dtype is None else dtype.itemsize
                assert got == want, f"{family.key} {lump} v{lump_version} map {map_version}"
                assert entry is None or entry.record_size == want


def test_lookups():
    assert record_dtype("q1", "ENTITIES") is None and record_dtype("q1", "TEXTURES") is None
    assert lump_type("goldsrc", "TEXTURES").type == "quake1_bsp::miptex_lump_goldsrc"
    assert lump_type("q1", "TEXTURES").whole
    assert record_dtype("source", "LEAFS", 1, 20).itemsize == 32
    assert record_dtype("source", "LEAFS", 0).itemsize == 56
    assert record_dtype("source", "LEAFS", 2, 20) is None
    assert record_dtype("source", "FACES", 0, 25).itemsize == 72
    assert record_dtype("fbsp", "LIGHTMAPS").itemsize == 512 * 512 * 3
    assert record_dtype("nope", "PLANES") is None
    assert record_dtype("q3", "PLANES") is record_dtype("q3", "PLANES")   # cached


# ---- float bit patterns ----

def test_float_bits_survive_frombuffer_and_tobytes():
    dtype = record_dtype("q3", "DRAWVERTS")          # xyz, st, lightmap, normal: 10 floats; 4 bytes
    patterns = [0x7F800001, 0x7FA5A5A5, 0xFF800123, 0x00000001, 0x7FC12345, 0x807FFFFF,
                0x7F800000, 0x3F800000, 0x80000000, 0xFFFFFFFF]
    floats = np.array(patterns, dtype="<u4").tobytes()
    data = b"".join(floats + bytes([i, 255, 0, 128]) for i in range(3))
    assert len(data) == 3 * dtype.itemsize
    records = np.frombuffer(data, dtype)
    assert records.tobytes() == data
    copied = records.copy()
    assert copied.tobytes() == data and copied[::-1][::-1].tobytes() == data
    built = np.zeros(3, dtype)
    built[:] = records
    for i in range(3):
        built[i] = records[i]
    assert built.tobytes() == data
    assert records["xyz"]["x"].view("<u4")[0] == 0x7F800001          # signalling NaN payload
    assert records["normal"]["y"].view("<u4")[1] == 0x80000000       # -0.0
    assert records["lightmap"].view("<u4")[2, 0] == 0x807FFFFF       # negative denormal


# ---- the corpus ----

def _bits(value: float, fmt: str) -> int:
    return int.from_bytes(struct.pack("<" + fmt, value), "little")


def _same_float(kaitai: float, ours, fmt: str) -> bool:
    """Bit for bit; a NaN read through a Python float may only have been quieted."""
    mine = int(np.asarray(ours).view("<u4" if fmt == "f" else "<u8"))
    theirs = _bits(kaitai, fmt)
    if mine == theirs:
        return True
    quiet = 1 << (22 if fmt == "f" else 51)
    return kaitai != kaitai and (mine | quiet) == theirs


def _agree(kaitai, record, fields, where: str) -> None:
    for name, fmt, shape in fields:
        theirs = getattr(kaitai, name)
        ours = record[name]
        pairs = zip(theirs, ours) if shape else [(theirs, ours)]
        if shape:
            assert len(theirs) == shape[0], f"{where}.{name}"
        for k, n in pairs:
            at = f"{where}.{name}"
            if isinstance(fmt, list):
                _agree(k, n, fmt, at)
            elif fmt.startswith("S"):
                size = int(fmt[1:])
                k_bytes = k.encode("ascii") if isinstance(k, str) else k
                assert bytes(n).ljust(size, b"\0") == k_bytes, at
            elif fmt in ("<f4", "<f8"):
                assert _same_float(k, n, "f" if fmt == "<f4" else "d"), at
            else:
                assert int(n) == k, at


def _fixed_lumps(path):
    """(lump name, entry, bytes) of every fixed-size lump present in the map."""
    with Bsp.open(path) as bsp:
        family = bsp.family
        version = getattr(bsp.header, "version", None)
        out = []
        for lump in bsp.lumps:
            entry = lump_type(family.key, lump.name, lump.version, version)
            if entry is None or entry.whole or not lump.length:
                continue
            data = bsp.read_lump(lump.index)
            if family.header == "vbsp" and lzma_lump.lzma_header(data):
                data = lzma_lump.decompress(data)
            out.append((lump.name, entry, data))
    return family.key, out


@pytest.mark.parametrize("path", corpus_maps())
def test_corpus_fixed_lumps_round_trip_and_agree_with_kaitai(path):
    family, lumps = _fixed_lumps(path)
    assert lumps, "no fixed-size lump"
    for name, entry, data in lumps:
        dtype = type_dtype(entry.type)
        assert len(data) % dtype.itemsize == 0, name
        records = np.frombuffer(data, dtype)
        assert np.shares_memory(records, np.frombuffer(data, np.uint8)), f"{name}: copied"
        assert not records.flags.owndata
        assert records.tobytes() == data, name
        count = len(records)
        reader, fields = _reader(entry.type), RECORD_TYPES[entry.type][1]
        size = dtype.itemsize
        for i in sorted(set(range(min(EDGE, count))) | set(range(max(0, count - EDGE), count))):
            io = KaitaiStream(BytesIO(data[i * size:(i + 1) * size]))
            _agree(reader(io), records[i], fields, f"{family} {name}[{i}]")
            assert io.pos() == size


# ---- the generator ----

def test_generated_module_is_up_to_date(tmp_path):
    node = shutil.which("node")
    compiler = ROOT / "ksy" / "compiler"
    if node is None or not (compiler / "node_modules" / "js-yaml").is_dir():
        pytest.skip("node or ksy/compiler/node_modules missing (run ksy/regenerate.sh)")
    out = tmp_path / "record_types.py"
    subprocess.run([node, str(compiler / "dtypes.js"), str(out), *map(str, KSY_FILES)],
                   check=True, timeout=60)
    committed = ROOT / "bspedit" / "format" / "generated" / "record_types.py"
    assert out.read_text() == committed.read_text()
