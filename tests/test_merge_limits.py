"""`bspedit merge` against the limits of the engines that load each format
(bspedit.format.loadlimits): two real BSP2 maps whose TEXINFO together pass the compilers'
4096 merge (BSP2 engines size it from the lump); a BSP 29 map whose entity text is past
MAX_MAP_ENTSTRING merges with a warning (the engines load it); a limit every Quake 2 engine has
refuses, unless an input is past it already; --ignore-limits writes anyway. Counts are read
back with struct; mvdsv, when installed, loads the merged Quake 1 maps."""
from __future__ import annotations

import json
import shutil
import struct
from pathlib import Path

import pytest
from conftest import CORPUS
from test_merge import MVDSV, TOOLS, apart, engine_matches, merge, needs_mvdsv

import bspedit
from bspedit.format.families import FAMILIES
from bspedit.format.loadlimits import LIMITS, LOADERS

BSP2 = CORPUS / "q1" / "librequake_lq1m1_bsp2.bsp"
Q1 = CORPUS / "q1" / "bsptool_quake_mp_lobby.bsp"
Q2 = CORPUS / "q2" / "bsptool_q2_mp_lobby.bsp"
pytestmark = pytest.mark.skipif(not BSP2.exists(), reason="../shared/corpus not present")


def lump(path: Path, index: int) -> bytes:
    """Lump `index` of a Quake 1 (after the version or magic) or Quake 2 map, by struct."""
    data = path.read_bytes()
    start = 8 if data[:4] == b"IBSP" else 4
    offset, length = struct.unpack_from("<ii", data, start + 8 * index)
    return data[offset:offset + length]


def grow_entities(path: Path, size: int) -> None:
    """Add info_null entities with long messages until the entity lump passes `size` bytes."""
    with bspedit.open(path) as bsp:
        entities = bsp.entities()
        n = 0
        while len(entities.to_bytes()) <= size:
            entities.add_entity({"classname": "info_null", "origin": f"{n} 0 0",
                                 "message": "m" * 1000})
            n += 1
        bsp.save()


def copies(tmp_path: Path, source: Path) -> tuple[Path, Path]:
    a, b = tmp_path / "a.bsp", tmp_path / "b.bsp"
    shutil.copyfile(source, a)
    shutil.copyfile(source, b)
    return a, b


def warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("bspedit: warning: the merged")]


def test_bsp2_maps_past_the_compilers_texinfo_merge(tmp_path):
    """Two LibreQuake BSP2 maps, 2477 TEXINFO each: 4096 is qbsp's array, not a BSP2 engine's."""
    a, b = copies(tmp_path, BSP2)
    out = tmp_path / "merged.bsp"
    done = merge([a, b], [(0, 0, 0), apart(a, b)], out, "--json")
    assert done.returncode == 0, done.stderr
    assert not warnings(done.stderr)
    texinfo = len(lump(out, 6)) // 40                   # texinfo_t: 8 floats, 2 ints
    assert texinfo > 4096 and texinfo <= 2 * len(lump(a, 6)) // 40
    assert json.loads(done.stdout)["result"]["counts"]["TEXINFO"] == texinfo
    if MVDSV.exists() and (TOOLS / "q1oracle.sh").exists():
        engine_matches(out)


def test_bsp29_entity_text_past_entstring_merges_with_a_warning(tmp_path):
    """A BSP 29 map whose own entity lump passes MAX_MAP_ENTSTRING (65536) loads in the
    engines: the merge is written, with a warning naming the tools that have the limit."""
    a, b = copies(tmp_path, Q1)
    grow_entities(a, 66575)
    assert len(lump(a, 0)) > 65536
    out = tmp_path / "merged.bsp"
    done = merge([a, b], [(0, 0, 0), apart(a, b)], out)
    assert done.returncode == 0, done.stderr
    (warned,) = [w for w in warnings(done.stderr) if "MAX_MAP_ENTSTRING" in w]
    assert "MAX_MAP_ENTSTRING = 65536 of id's qbsp, vis and light" in warned
    assert f"the merged map holds {len(lump(out, 0))} bytes of ENTITIES" in warned
    assert f"{a} {len(lump(a, 0))}, {b} {len(lump(b, 0))}" in warned


@needs_mvdsv
def test_mvdsv_loads_the_merge_past_entstring(tmp_path):
    a, b = copies(tmp_path, Q1)
    grow_entities(a, 66575)
    out = tmp_path / "merged.bsp"
    assert merge([a, b], [(0, 0, 0), apart(a, b)], out).returncode == 0
    engine_matches(out)


def test_edicts_and_compiler_caps_are_warnings(tmp_path):
    """1205 entities: past WinQuake's 600 edicts and qbsp's 1024, which QuakeSpasm loads."""
    a, b = copies(tmp_path, Q1)
    for path in (a, b):
        with bspedit.open(path) as bsp:
            for n in range(600):
                bsp.entities().add_entity({"classname": "info_null", "origin": f"{n} 0 0"})
            bsp.save()
    out = tmp_path / "merged.bsp"
    done = merge([a, b], [(0, 0, 0), apart(a, b)], out)
    assert done.returncode == 0 and out.exists(), done.stderr
    found = warnings(done.stderr)
    assert any("1205 entities of ENTITIES, past MAX_EDICTS = 600 of WinQuake, GLQuake" in w
               for w in found)
    assert any("past MAX_MAP_ENTITIES = 1024 of id's qbsp" in w and f"{a} 603, {b} 603" in w
               for w in found)


def test_a_limit_every_engine_has_refuses_unless_an_input_passes_it(tmp_path):
    """Quake 2's entity string: id's cmodel.c copies it into 0x40000 bytes."""
    a, b = copies(tmp_path, Q2)
    for path in (a, b):
        grow_entities(path, 140000)
    out = tmp_path / "merged.bsp"
    shift = apart(a, b)
    done = merge([a, b], [(0, 0, 0), shift], out)
    assert done.returncode == 2 and not out.exists()
    assert "past MAX_MAP_ENTSTRING = 262144 of Quake 2 (id's qcommon/cmodel.c)" in done.stderr
    assert "nothing written (--ignore-limits writes it anyway)" in done.stderr
    done = merge([a, b], [(0, 0, 0), shift], out, "--ignore-limits")
    assert done.returncode == 0 and len(lump(out, 0)) > 0x40000
    assert any("written anyway (--ignore-limits)" in w for w in warnings(done.stderr))
    out.unlink()
    grow_entities(a, 0x40000)                             # a alone is past it now
    done = merge([a, b], [(0, 0, 0), shift], out)
    assert done.returncode == 0 and out.exists(), done.stderr
    (warned,) = warnings(done.stderr)
    assert warned.endswith(f"written, {a} already past it")


def test_every_limit_is_countable_in_its_formats():
    """Each table is a format merge handles, each limit names a lump with a record size."""
    from bspedit.features.stats import engine_of

    assert set(LIMITS) == set(LOADERS) == {"quake1", "bsp2", "goldsrc", "quake2"}
    for family in FAMILIES:
        for version in sorted(family.versions) or [None]:
            for limit in LIMITS.get(engine_of(family, version), ()):
                index = family.index_of(limit.lump)
                assert index is not None, (family.key, limit)
                assert limit.unit in ("records", "bytes", "entities", "textures")
                if limit.unit == "records":
                    assert family.record_size(index, 0, version), (family.key, limit)
    assert not any(limit.every for limit in LIMITS["bsp2"])
    assert not any(limit.lump == "TEXINFO" for limit in LIMITS["bsp2"])
