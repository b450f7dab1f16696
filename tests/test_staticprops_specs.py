"""Static prop records come from ksy/source_game_lumps.ksy (issue 19): the layouts of
bspedit/lumps/staticprops.py against the spec's static_prop_* types, and the generated Kaitai
readers (both byte orders) agreeing field by field with StaticProps.get on real records."""
from __future__ import annotations

import functools
import struct
import subprocess
import sys

import pytest
from kaitaistruct import BytesIO, KaitaiStream

from bspedit.bsp import Bsp
from bspedit.format.generated.source_game_lumps import SourceGameLumps
from bspedit.format.recordtypes import type_dtype
from bspedit.lumps.staticprops import StaticProps, layouts
from conftest import CONSOLE_MAP, corpus_maps, ksy_spec

SPEC = ksy_spec("source_game_lumps")
# layout name -> record type, as gamebspfile.h and staticprops.py's docstring name them
TYPES = {"v4": "static_prop_v4", "v5": "static_prop_v5", "v6": "static_prop_v6",
         "v7": "static_prop_v7", "v7*": "static_prop_v7_star", "v8": "static_prop_v8",
         "v9": "static_prop_v9", "v10": "static_prop_v10", "v11": "static_prop_v11",
         "v12": "static_prop_v11", "v13": "static_prop_v13"}
SAMPLE = 40           # records read through Kaitai per map and layout: Kaitai is slow
needs_console = pytest.mark.skipif(not CONSOLE_MAP.is_file(),
                                   reason=f"console corpus map missing: {CONSOLE_MAP}")


def _reader(type_name: str, little: bool):
    camel = "".join(part[:1].upper() + part[1:] for part in type_name.split("_"))
    return functools.partial(getattr(SourceGameLumps, camel), _is_le=little)


def _flatten(value, dtype) -> list:
    """A Kaitai field value as its scalars, in the order of the field's dtype."""
    items = value if dtype.shape else [value]
    if dtype.base.fields is None:
        return list(items)
    return [scalar for item in items for name, (sub, *_) in dtype.base.fields.items()
            for scalar in _flatten(getattr(item, name), sub)]


def _bits(values, fmt: str, endian: str) -> bytes:
    """Values packed back (bit-exact comparison, NaNs included)."""
    values = values if isinstance(values, (tuple, list)) else [values]
    return struct.pack(endian + fmt, *values)


def _agree(props: StaticProps, type_name: str) -> int:
    """Compare up to SAMPLE records of `props` read by Kaitai and by props.get; the count."""
    endian = props.endian
    dtype = type_dtype(f"source_game_lumps::{type_name}", endian)
    read = _reader(type_name, endian == "<")
    picks = sorted({i * len(props) // SAMPLE for i in range(SAMPLE)}) if len(props) > SAMPLE \
        else range(len(props))
    for index in picks:
        record = bytes(props.records[index])
        io = KaitaiStream(BytesIO(record))
        parsed = read(io)
        assert io.pos() == props.layout.size == len(record)
        for name, (sub, offset, *_) in dtype.fields.items():
            kaitai = _flatten(getattr(parsed, name), sub)
            if name not in props.layout.fields:             # v7*'s padding byte
                assert sub.base.kind == "S" and name.startswith("padding")
                assert kaitai == [record[offset:offset + sub.itemsize]]
                continue
            fmt = props.layout.fields[name][1]
            ours = props.get(index, name)
            assert _bits(kaitai, fmt, endian) == _bits(ours, fmt, endian) \
                == record[offset:offset + sub.itemsize], (index, name)
            if all(v == v for v in kaitai):                 # no NaN: the same Python values
                assert kaitai == (list(ours) if isinstance(ours, tuple) else [ours])
    return len(picks)


def _recut(props: StaticProps, version: int, size: int) -> StaticProps:
    """`props`'s record bytes cut into records of `size` bytes, as sprp `version` (no leaves
    or names): real bytes read through another layout."""
    data = b"".join(props.records)
    count = len(data) // size
    endian = props.endian
    member = (struct.pack(endian + "i", 0) + struct.pack(endian + "i", 0)
              + struct.pack(endian + "i", count) + data[:count * size])
    recut = StaticProps.parse(member, version, endian)
    assert (recut.layout.size, len(recut)) == (size, count)
    return recut


def _maps() -> list:
    return [*corpus_maps("source"),
            pytest.param(CONSOLE_MAP, id="console", marks=needs_console)]


# ---- the layouts against the spec ----

def test_every_layout_is_a_spec_type_and_every_type_a_layout():
    table = layouts()
    assert {layout.name: layout.size for layout in table.values()} == \
        {name: SPEC["types"][kind]["-bspedit-size"] for name, kind in TYPES.items()}
    assert sorted(table) == [(4, 56), (5, 60), (6, 64), (7, 68), (7, 72), (8, 68), (9, 72),
                             (10, 72), (10, 76), (11, 80), (12, 80), (13, 88)]
    spec_types = {name for name in SPEC["types"] if name.startswith("static_prop_")}
    assert spec_types == set(TYPES.values())
    assert "sprp" not in {entry["id"] for entry in SPEC["-bspedit-game-lumps"]}


def test_layout_fields_are_the_spec_fields():
    """Offsets and struct formats as the old hand table had them (every named field, and only
    v7*'s padding byte left out)."""
    for (version, size), layout in layouts().items():
        seq = SPEC["types"][TYPES[layout.name]]["seq"]
        assert list(layout.fields) == [f["id"] for f in seq if "type" in f], layout.name
        assert [f["id"] for f in seq if "type" not in f] == (["padding"] if layout.name == "v7*"
                                                             else [])
    v7_star, v13 = layouts()[7, 72].fields, layouts()[13, 88].fields
    assert v7_star["solid"] == (30, "B") and v7_star["skin"] == (32, "i")
    assert v7_star["flags"] == (64, "I") and v7_star["lightmap_size"] == (68, "2H")
    assert layouts()[6, 64].fields["flags"] == (31, "B")
    assert layouts()[8, 68].fields["cpu_gpu_levels"] == (60, "4B")
    assert layouts()[8, 68].fields["diffuse"] == (64, "4B")
    assert v13["origin"] == (0, "3f") and v13["scale"] == (76, "3f")
    assert layouts()[11, 80].fields["scale"] == (76, "f") == layouts()[12, 80].fields["scale"]
    assert layouts()[9, 72].fields["disable_x360"] == (68, "I")


def test_importing_staticprops_loads_no_tables():
    code = ("import sys, bspedit.lumps.staticprops; "
            "print('numpy' in sys.modules, 'bspedit.format.generated.record_types' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


# ---- real records: Kaitai (both byte orders) and StaticProps.get ----

@pytest.mark.parametrize("path", _maps())
def test_kaitai_and_get_agree_on_the_maps_records(path):
    with Bsp.open(path) as bsp:
        props = bsp.static_props
    if path == CONSOLE_MAP:
        assert (props.endian, props.layout.name, props.version) == (">", "v6", 6)
    else:
        assert props.endian == "<"
    if not len(props):
        pytest.skip(f"{path.name} has no static props")
    assert _agree(props, TYPES[props.layout.name]) > 0


@pytest.mark.parametrize("path", _maps())
def test_kaitai_and_get_agree_on_real_bytes_in_every_layout_and_byte_order(path):
    """Every layout reads the map's real record bytes (recut to its size) in both byte orders;
    layouts no corpus map has (v4, v7, v8, v11-13) and big-endian v5-v13 are read here."""
    with Bsp.open(path) as bsp:
        props = bsp.static_props
    if not len(props):
        pytest.skip(f"{path.name} has no static props")
    for endian in "<>":
        source = StaticProps(props.version, props.layout, [], 2, b"", props.records, endian)
        for (version, size) in layouts():
            assert _agree(_recut(source, version, size), TYPES[layouts()[version, size].name]) > 0
