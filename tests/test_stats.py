"""`bspedit stats`: counts per lump against the engine limits of bspedit.format.enginelimits. The
expected counts are computed here independently: the lump directory read with struct, record
sizes written from the engine headers, entities counted with a regex."""
from __future__ import annotations

import json
import re
import struct

import pytest

from bspedit.format import enginelimits
from bspedit.cli import invoke
from bspedit.format.enginelimits import LIMITS, Limit
from bspedit.format.families import FAMILIES
from conftest import CORPUS, corpus_maps

ENTITY_START = re.compile(rb"(?m)^[ \t]*\{[ \t]*\r?$")


def stats(path, *extra):
    report = invoke(["stats", str(path), *extra], capture=True)
    return report


def directory(data: bytes) -> list[tuple[int, int]]:
    """(offset, length) of every lump, read with struct (header layouts from the engines)."""
    if data[:4] == b"VBSP":                                 # dheader_t: ident, version, 64 lump_t
        return [struct.unpack_from("<ii", data, 8 + 16 * i) for i in range(64)]
    if data[:4] == b"IBSP":                                 # ident, version, lumps
        count = 19 if struct.unpack_from("<i", data, 4)[0] == 38 else 17
        return [struct.unpack_from("<ii", data, 8 + 8 * i) for i in range(count)]
    return [struct.unpack_from("<ii", data, 4 + 8 * i) for i in range(15)]  # version or BSP2


def length(data: bytes, lump: tuple[int, int]) -> int:
    """A lump's length; an LZMA lump's actualSize (Valve's lzma_header_t: id, actualSize...)."""
    offset, size = lump
    if data[offset:offset + 4] == b"LZMA":
        return struct.unpack_from("<I", data, offset + 4)[0]
    return size


def row(result, lump, unit):
    (found,) = [r for r in result["rows"] if r["lump"] == lump and r["unit"] == unit]
    return found


def entity_count(data: bytes, lump: tuple[int, int]) -> int:
    offset, size = lump
    return len(ENTITY_START.findall(data[offset:offset + size]))


# map, engine, [(lump name, lump index, record size from the engine header)], entity lump index
CASES = [
    # Quake bspfile.h: dplane_t 20 bytes, dface_t 20, dedge_t 4
    ("q1/slipgate_b_batt0.bsp", "quake1", [("PLANES", 1, 20), ("FACES", 7, 20),
                                           ("EDGES", 12, 4)]),
    # BSP2 (bspfile.h of QuakeSpasm/ericw-tools): bsp2_dedge_t 8 bytes, dtexinfo_t 40
    ("q1/librequake_lq1m1_bsp2.bsp", "bsp2", [("EDGES", 12, 8), ("TEXINFO", 6, 40)]),
    # Half-Life SDK bspfile.h: dclipnode_t 8 bytes, dleaf_t 28, dmodel_t 64
    ("goldsrc/plague_zm_303.bsp", "goldsrc", [("CLIPNODES", 9, 8), ("LEAFS", 10, 28),
                                              ("MODELS", 14, 64)]),
    # Quake 2 qfiles.h: dbrushside_t 4 bytes, texinfo_t 76, dbrush_t 12
    ("q2/opentdm_q3dm7.bsp", "quake2", [("BRUSHSIDES", 15, 4), ("TEXINFO", 5, 76),
                                        ("BRUSHES", 14, 12)]),
    # Quake 3 qfiles.h: drawVert_t 44 bytes, dshader_t 72, dsurface_t 104
    ("q3/openarena_oa_ctf2.bsp", "quake3", [("DRAWVERTS", 10, 44), ("SHADERS", 1, 72),
                                            ("SURFACES", 13, 104)]),
    # source-sdk-2013 bspfile.h: texinfo_t 72 bytes, dface_t 56, dplane_t 20
    ("source/sdk2013_sdk_vehicles_v19.bsp", "source", [("TEXINFO", 6, 72), ("FACES", 7, 56),
                                                       ("PLANES", 1, 20)]),
    # the same with LZMA lumps: counted from the uncompressed size in the LZMA header
    ("source/tf2classified_cp_stronghold_lzma.bsp", "source",
     [("PLANES", 1, 20), ("VERTEXES", 3, 12), ("EDGES", 12, 4)]),
    # Strata wiki "BSP Version 25": dface_t 72 bytes (4 + 1 + 1 + 2 padding + 5 x 4 + 4 + 8 x 4
    # + 3 x 4), dnode_t 48 (46 padded to 4), dbrushside_t 16 (14 padded to 4)
    ("source/bsptool_momentum_mp_lobby_v25.bsp", "strata",
     [("FACES", 7, 72), ("NODES", 5, 48), ("BRUSHSIDES", 19, 16)]),
]


@pytest.mark.parametrize("name,engine,lumps", [
    pytest.param(*case, id=case[0], marks=pytest.mark.skipif(
        not (CORPUS / case[0]).exists(), reason="../shared/corpus not present"))
    for case in CASES])
def test_counts_match_a_hand_computed_count(name, engine, lumps):
    path = CORPUS / name
    data = path.read_bytes()
    table = directory(data)
    report = stats(path, "--json")
    assert report.code == 0
    result = report.result
    assert result["engine"] == engine
    compressed = 0
    for lump, index, size in lumps:
        expected = length(data, table[index]) // size
        compressed += data[table[index][0]:table[index][0] + 4] == b"LZMA"
        found = row(result, lump, "records")
        assert found["count"] == expected, lump
        assert found["percent"] == round(100 * expected / found["limit"], 1)
    if "lzma" in name:
        assert compressed, "the LZMA case has no compressed lump among those checked"
        return          # its entity lump is compressed: the regex count below reads plain text
    assert row(result, "ENTITIES", "entities")["count"] == entity_count(data, table[0])
    if engine not in ("source", "strata"):  # no MAX_MAP_ENTSTRING in bspfile.h nor the wiki
        assert row(result, "ENTITIES", "bytes")["count"] == table[0][1]


@pytest.mark.parametrize("path", corpus_maps())
def test_every_corpus_map(path):
    report = stats(path, "--json")
    assert report.code == 0, report.stderr
    result = report.result
    limits = LIMITS[result["engine"]]
    assert [(r["lump"], r["unit"], r["limit"]) for r in result["rows"]] == \
        [(limit.lump, limit.unit, limit.limit) for limit in limits]
    assert all(r["count"] >= 0 for r in result["rows"])
    warned = [r for r in result["rows"] if r["count"] >= 0.9 * r["limit"]]
    assert len(report.warnings) == len(warned)


def test_every_limit_is_countable():
    """Each limit names a lump of every family using its table, and a records limit has a
    record size there (so no limit is silently dropped from the rows)."""
    from bspedit.features.stats import engine_of

    for family in FAMILIES:
        for version in sorted(family.versions) or [None]:
            for limit in LIMITS[engine_of(family, version)]:
                index = family.index_of(limit.lump)
                assert index is not None, (family.key, limit)
                if limit.unit == "records":
                    assert family.record_size(index, 0, version) or \
                        family.record_size(index, 1, version), (family.key, limit)


def test_limit_tables_name_their_units():
    for engine, limits in LIMITS.items():
        assert engine in enginelimits.HEADERS
        for limit in limits:
            assert limit.unit in ("records", "bytes", "entities", "textures")
            assert limit.constant.startswith("MAX_MAP_") and limit.limit > 0


@pytest.mark.skipif(not (CORPUS / CASES[0][0]).exists(), reason="../shared/corpus not present")
def test_warns_at_90_percent_and_still_exits_0(monkeypatch, capsys):
    path = CORPUS / CASES[0][0]
    data = path.read_bytes()
    planes = directory(data)[1][1] // 20
    faces = directory(data)[7][1] // 20
    monkeypatch.setitem(LIMITS, "quake1", (
        Limit("PLANES", planes, "records", "MAX_MAP_PLANES"),          # 100%: warned
        Limit("FACES", int(faces / 0.9), "records", "MAX_MAP_FACES"),  # just at 90%: warned
        Limit("EDGES", 10 ** 9, "records", "MAX_MAP_EDGES")))          # far below: not warned
    assert faces / int(faces / 0.9) >= 0.9
    report = stats(path)
    assert report.code == 0
    assert len(report.warnings) == 2
    assert report.warnings[0].startswith("PLANES:") and "100.0%" in report.warnings[0]
    assert report.warnings[1].startswith("FACES:")
    assert "bspedit: warning: PLANES" in report.stderr
    lines = report.stdout.splitlines()
    assert lines[0].startswith("engine: quake1")
    assert [line.split()[0] for line in lines[2:]] == ["PLANES", "FACES", "EDGES"]
    assert lines[2].split()[1:3] == [str(planes), str(planes)]

    report = stats(path, "--json")
    assert report.code == 0 and len(report.warnings) == 2 and report.stdout == ""


@pytest.mark.skipif(not (CORPUS / CASES[0][0]).exists(), reason="../shared/corpus not present")
def test_json_envelope_on_stdout(capsys):
    assert invoke(["stats", str(CORPUS / CASES[0][0]), "--json"]).code == 0
    envelope = json.loads(capsys.readouterr().out)
    assert envelope["verb"] == "stats" and envelope["exit"] == 0
    assert envelope["result"]["engine"] == "quake1"
    assert {"lump", "count", "limit", "unit", "percent"} == set(envelope["result"]["rows"][0])


def test_bad_map_is_exit_2(tmp_path):
    path = tmp_path / "junk.bsp"
    path.write_bytes(b"not a map at all" * 10)
    assert stats(path).code == 2


def test_strata_limits_follow_the_wiki():
    """The Strata table holds the wiki's values (its Limit Summary), not Valve's."""
    strata = {(limit.lump, limit.unit): limit.limit for limit in LIMITS["strata"]}
    assert strata[("ENTITIES", "entities")] == 20480 and strata[("TEXDATA", "records")] == 16384
    assert strata[("BRUSHSIDES", "records")] == 131072 * 10     # MAX_MAP_BRUSHES * 10
    assert strata[("DISPINFO", "records")] == 262144
    assert strata[("DISP_VERTS", "records")] == 262144 * 17 * 17
    assert strata[("EDGES", "records")] == 4096000 and strata[("SURFEDGES", "records")] == 8192000
    assert ("TEXINFO", "records") not in strata and ("PRIMINDICES", "records") not in strata


@pytest.mark.skipif(not (CORPUS / "source/bsptool_momentum_mp_lobby_v25.bsp").exists(),
                    reason="../shared/corpus not present")
def test_strata_map_reports_rows_against_strata_limits():
    result = stats(CORPUS / "source/bsptool_momentum_mp_lobby_v25.bsp", "--json").result
    assert result["engine"] == "strata"
    assert len(result["rows"]) == len(LIMITS["strata"])
    assert row(result, "DISPINFO", "records") == {"lump": "DISPINFO", "count": 0, "limit": 262144,
                                                  "unit": "records", "percent": 0.0}
    assert row(result, "NODES", "records")["limit"] == 1048576
