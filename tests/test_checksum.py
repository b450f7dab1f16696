"""Tests for bspedit.container.checksum: MD4, Com_BlockChecksum, Source/GoldSrc CRC, QuakeWorld checksums.

Corpus and oracle tests use ../shared (skipped cleanly when it is absent); the live
engine oracles are skipped when mvdsv+ktx / openarena-server are not installed.
"""
from __future__ import annotations

import functools
import json
import importlib.util
import mmap
import os
import re
import struct
import subprocess
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bspedit.container.checksum import (
    QW_CHECKSUM2_SKIP, block_checksum, checksum_from_digest, crc32_combine, md4, new_md4,
    quakeworld_checksums, signed32, source_crc,
)
from conftest import CONSOLE_MAP, run_cli
from md4_reference import MD4

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CORPUS = SHARED / "corpus"
TOOLS = SHARED / "tools"
MVDSV = Path("/usr/games/mvdsv")
KTX = Path("/usr/lib/quakeworld/ktx/qwprogs.so")
IOQ3DED = Path("/usr/lib/ioquake3/ioq3ded")
OPENARENA = Path("/usr/lib/openarena-server/baseoa")

# RFC 1320, appendix A.5 test suite.
RFC1320 = [
    (b"", "31d6cfe0d16ae931b73c59d7e0c089c0"),
    (b"a", "bde52cb31de33e46245e05fbdbd6fb24"),
    (b"abc", "a448017aaf21d8525fc10ae87aa6729d"),
    (b"message digest", "d9130a8164549fe818874806e1c7014b"),
    (b"abcdefghijklmnopqrstuvwxyz", "d79e1c308aa5bbcdeea8ed63df412da9"),
    (b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
     "043f8582f241db351ce627e153e7f0e4"),
    (b"1234567890" * 8, "e33b4ddc9c38f2199c3e7b164fcc0536"),
]

# Com_BlockChecksum vectors. Definition (id Quake 2/3 qcommon/md4.c, ioquake3
# code/qcommon/md4.c, mvdsv src/md4.c): MD4 the block, read the 16-byte digest as
# int digest[4] (little-endian words) and return digest[0]^digest[1]^digest[2]^digest[3].
# Worked by hand from the RFC digests above, e.g. for b"":
#   0xe0cfd631 ^ 0x31e96ad1 ^ 0xd7593cb7 ^ 0xc089c0e0 = 0xc6f640b7
BLOCK_CHECKSUMS = [
    (b"", 0xC6F640B7),
    (b"a", 0x2AEC8E5F),
    (b"abc", 0x5DA10E2E),
    (b"message digest", 0x24DC0744),
    (b"abcdefghijklmnopqrstuvwxyz", 0x3767D26C),
    (b"1234567890" * 8, 0xE5C1F1AC),
]

# Values the real engines printed for the corpus maps (recorded with the oracles
# below: Debian mvdsv 0.35 + ktx 1.42, and ioq3ded from Debian openarena-server),
# so the arithmetic is checked even where the engines are not installed.
RECORDED_QW = {
    "q1/bsptool_quake_mp_lobby.bsp": (0x4E057D38, 0x19B3C4F7),
    "q1/bsptool_remakequake_mp_lobby_bsp2.bsp": (0xAE21B4A9, 0x925ACA02),
    "q1/ericw_q1_cube_bspx.bsp": (0x03B948CC, 0xABC16069),
    "q1/librequake_box_indexorder.bsp": (0xCF63C45C, 0xC08BE809),
    "q1/librequake_lq1m1_bsp2.bsp": (0xE2319648, 0x59C3B79D),
    "q1/librequake_lqdm4_a8_dirtypad.bsp": (0xB6ACF52A, 0x9C9C15BF),
    "q1/librequake_start_bspx.bsp": (0x8C369E8E, 0x67626D16),
    "q1/slipgate_b_batt0.bsp": (0x81C6C28F, 0x386CD882),
    "goldsrc/csdocker_aim_map.bsp": (0xBFB152B9, 0xC3DE097C),
    "goldsrc/hltopdown_test.bsp": (0x86FD3204, 0x0E61B6E4),
    "goldsrc/plague_zm_303.bsp": (0x654F867A, 0xA03A0797),
    "goldsrc/plague_zm_castle_siege2.bsp": (0xB2E1FEEC, 0x26AABDC7),
    "goldsrc/plague_zm_downtown_dirtypad.bsp": (0x9D1F504A, 0xB44A66CB),
    "goldsrc/svenquake2_q2dm1_13lumps.bsp": (0xF9AE4186, 0x314AA9DD),
}
RECORDED_Q3 = {
    "q3/bspconvert_test_nonsolid_patch.bsp": 0x67AF41B6,
    "q3/bsptool_q3_mp_lobby.bsp": 0xEA7DB2B4,
    "q3/bsptool_q3_test_bigbox.bsp": 0xE5686F3B,
    "q3/openarena_am_galmevish.bsp": 0xA0E216FA,
    "q3/openarena_oa_ctf2.bsp": 0x1B7E51B8,
    "q3/openarena_oacmpctf3.bsp": 0xF04BFE17,
    "q3/turtlearena_sp1boss_dirtypad.bsp": 0x45B2E9C9,
}


def corpus_params(*families: str) -> list:
    """One pytest param per corpus map of these families (a single skip when absent)."""
    maps = sorted(p for fam in families for p in (CORPUS / fam).glob("*.bsp"))
    if not maps:
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"no {'/'.join(families)} corpus"))]
    return [pytest.param(p, id=f"{p.parent.name}/{p.name}") for p in maps]


@pytest.fixture(scope="module")
def bspref():
    path = TOOLS / "bspref.py"
    if not path.is_file():
        pytest.skip("shared/tools/bspref.py absent")
    spec = importlib.util.spec_from_file_location("bspref_for_checksum_tests", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@functools.lru_cache(maxsize=None)
def map_bytes(path: Path) -> bytes:
    return path.read_bytes()


@functools.lru_cache(maxsize=None)
def our_qw(path: Path, bspref) -> tuple[int, int]:
    data = map_bytes(path)
    _, _, lumps, _ = bspref.read(data)
    return quakeworld_checksums([block_checksum(bspref.lump_bytes(data, lump)) for lump in lumps],
                                0, QW_CHECKSUM2_SKIP)


@functools.lru_cache(maxsize=None)
def our_q3(path: Path) -> int:
    return block_checksum(map_bytes(path))


@functools.lru_cache(maxsize=None)
def q1_oracle(path: Path) -> tuple[int, int]:
    out = subprocess.run(["bash", str(TOOLS / "q1oracle.sh"), str(path)], capture_output=True,
                         text=True, timeout=90).stdout
    found = dict(re.findall(r"^checksum: (map_checksum2?) 0x([0-9a-f]+)", out, re.M))
    assert set(found) == {"map_checksum", "map_checksum2"}, out
    return int(found["map_checksum"], 16), int(found["map_checksum2"], 16)


@functools.lru_cache(maxsize=None)
def q3_oracle(path: Path) -> int:
    out = subprocess.run(["bash", str(TOOLS / "q3oracle.sh"), str(path)], capture_output=True,
                         text=True, timeout=90).stdout
    m = re.search(r"^checksum: 0x([0-9a-f]+) \(\d+; sv_mapChecksum=(-?\d+)\)", out, re.M)
    assert m, out
    assert int(m.group(2)) == signed32(int(m.group(1), 16))
    return int(m.group(1), 16)


needs_mvdsv = pytest.mark.skipif(not (MVDSV.exists() and KTX.exists() and (TOOLS / "q1oracle.sh").exists()),
                                 reason="mvdsv + ktx (apt-get install mvdsv ktx) or q1oracle.sh absent")
needs_ioq3 = pytest.mark.skipif(not (IOQ3DED.exists() and OPENARENA.is_dir() and (TOOLS / "q3oracle.sh").exists()),
                                reason="openarena-server (apt-get install openarena-server) or q3oracle.sh absent")


# ---------------------------------------------------------------- MD4

@pytest.mark.parametrize("message,hexdigest", RFC1320)
def test_md4_rfc1320_vectors(message, hexdigest):
    assert MD4(message).hexdigest() == hexdigest        # the reference itself
    assert md4(message).hex() == hexdigest
    assert new_md4(message).hexdigest() == hexdigest


def test_md4_incremental_every_split_point_and_copy():
    data = bytes(range(256)) * 3 + b"tail"
    want = MD4(data).digest()
    for cut in range(len(data) + 1):
        h = new_md4(data[:cut])
        fork = h.copy()
        h.update(data[cut:])
        assert h.digest() == want, cut
        fork.update(b"x")           # a copy continues on its own
        assert fork.digest() == MD4(data[:cut] + b"x").digest()


def test_md4_accepts_buffer_types(tmp_path):
    data = os.urandom(5000)
    want = MD4(data).digest()
    assert md4(bytearray(data)) == want
    assert md4(memoryview(data)[0:]) == want
    f = tmp_path / "blob"
    f.write_bytes(data)
    with open(f, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        view = memoryview(mm)
        h = new_md4()
        for start in range(0, len(view), 777):
            h.update(view[start:start + 777])
        del view
        assert h.digest() == want


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=1000), st.lists(st.integers(0, 1000), max_size=4))
def test_md4_equals_the_pure_python_reference(data, cuts):
    h = new_md4()
    last = 0
    for cut in sorted(c % (len(data) + 1) for c in cuts):
        h.update(data[last:cut])
        last = cut
    h.update(data[last:])
    assert h.digest() == MD4(data).digest()


def test_md4_equals_the_reference_on_a_large_block():
    data = os.urandom((1 << 18) + 13)
    assert md4(data) == MD4(data).digest()


# ---------------------------------------------------------------- CRC-32 combination

@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300), st.binary(max_size=300), st.integers(0, 1 << 20))
def test_crc32_combine_equals_the_crc_of_the_concatenation(a, b, zeros):
    assert crc32_combine(zlib.crc32(a), zlib.crc32(b), len(b)) == zlib.crc32(a + b)
    tail = bytes(zeros)                   # long runs: the x^(8n) powers for big n
    assert crc32_combine(zlib.crc32(a), zlib.crc32(tail), zeros) == zlib.crc32(a + tail)


def test_crc32_combine_edge_cases():
    assert crc32_combine(0, 0, 0) == 0
    assert crc32_combine(0xCBF43926, 0, 0) == 0xCBF43926        # nothing appended
    assert crc32_combine(0, zlib.crc32(b"123456789"), 9) == 0xCBF43926
    big = 5 << 30                                                # beyond 32-bit lengths
    assert crc32_combine(zlib.crc32(b"a"), 0, big) == crc32_combine(
        crc32_combine(zlib.crc32(b"a"), 0, big - 7), 0, 7)


# ---------------------------------------------------------------- Com_BlockChecksum

@pytest.mark.parametrize("message,expected", BLOCK_CHECKSUMS)
def test_block_checksum_known_vectors(message, expected):
    assert block_checksum(message) == expected


@pytest.mark.parametrize("message,hexdigest", RFC1320)
def test_block_checksum_is_xor_of_little_endian_digest_words(message, hexdigest):
    digest = bytes.fromhex(hexdigest)
    words = [int.from_bytes(digest[i:i + 4], "little") for i in range(0, 16, 4)]
    assert block_checksum(message) == words[0] ^ words[1] ^ words[2] ^ words[3]
    assert checksum_from_digest(digest) == block_checksum(message)


def test_signed32():
    assert signed32(0) == 0
    assert signed32(0x7FFFFFFF) == 0x7FFFFFFF
    assert signed32(0x80000000) == -0x80000000
    assert signed32(0xF04BFE17) == -263455209  # sv_mapChecksum of openarena_oacmpctf3
    assert signed32(-1) == -1
    assert signed32(0x1_0000_0005) == 5


# ---------------------------------------------------------------- Source / GoldSrc CRC

def test_source_crc_skips_entities_and_keeps_index_order():
    lumps = [b"ENTITIES", b"one", b"", b"three", memoryview(b"four")]
    assert source_crc(lumps, 0) == zlib.crc32(b"onethreefour")
    assert source_crc(lumps, 1) == zlib.crc32(b"ENTITIESthreefour")  # Blue Shift: entities are lump 1
    assert source_crc(lumps, 0, order=[4, 3, 2, 1, 0]) == zlib.crc32(b"fourthreeone")
    assert source_crc([b"123456789"], 5) == 0xCBF43926  # the CRC-32 check value
    assert source_crc([b"only entities"], 0) == 0


@pytest.mark.parametrize("path", corpus_params("source"))
def test_source_crc_matches_bspref(path, bspref):
    data = map_bytes(path)
    family, _, lumps, _ = bspref.read(data)
    assert family == "source" and len(lumps) == 64
    assert source_crc([bspref.lump_bytes(data, lump) for lump in lumps], 0) == bspref.source_checksum(data)


@pytest.mark.parametrize("path", corpus_params("goldsrc"))
def test_goldsrc_crc_is_index_order_crc_without_entities(path, bspref):
    data = map_bytes(path)
    _, version, lumps, _ = bspref.read(data)
    assert version == 30 and len(lumps) == 15
    parts = [bspref.lump_bytes(data, lump) for lump in lumps]
    assert source_crc(parts, 0) == zlib.crc32(b"".join(parts[1:]))
    assert source_crc(parts, 1) == zlib.crc32(parts[0] + b"".join(parts[2:]))


# ---------------------------------------------------------------- QuakeWorld (mvdsv)

def test_quakeworld_rule_on_synthetic_lumps():
    lumps = [b"entities %d" % i if i == 0 else b"lump %d" % i for i in range(15)]
    blocks = [block_checksum(lump) for lump in lumps]
    c1, c2 = quakeworld_checksums(blocks, 0, QW_CHECKSUM2_SKIP)
    want1 = want2 = 0
    for i in range(1, 15):
        want1 ^= block_checksum(lumps[i])
        if i not in (4, 5, 10):
            want2 ^= block_checksum(lumps[i])
    assert (c1, c2) == (want1, want2)
    assert quakeworld_checksums(blocks) == (c1, c2)  # the defaults are mvdsv's
    # entities do not count; XOR makes the result independent of which index holds which bytes
    assert quakeworld_checksums([block_checksum(b"other entities")] + blocks[1:]) == (c1, c2)
    assert quakeworld_checksums([blocks[0]] + blocks[1:][::-1])[0] == c1
    # equal lumps cancel: two empty lumps contribute nothing
    empty = [block_checksum(b"")] * 15
    assert quakeworld_checksums(empty) == (0, block_checksum(b""))  # 14 empties, 11 empties


@pytest.mark.parametrize("path", corpus_params("q1", "goldsrc"))
def test_quakeworld_checksums_recorded(path, bspref):
    key = f"{path.parent.name}/{path.name}"
    if key not in RECORDED_QW:
        pytest.skip(f"no recorded engine value for {key}")
    assert our_qw(path, bspref) == RECORDED_QW[key]


@needs_mvdsv
@pytest.mark.parametrize("path", corpus_params("q1", "goldsrc"))
def test_quakeworld_checksums_match_mvdsv(path, bspref):
    assert our_qw(path, bspref) == q1_oracle(path)


# ---------------------------------------------------------------- Quake 3 (ioquake3)

@pytest.mark.parametrize("path", corpus_params("q3"))
def test_q3_block_checksum_recorded(path):
    key = f"{path.parent.name}/{path.name}"
    if key not in RECORDED_Q3:
        pytest.skip(f"no recorded engine value for {key}")
    assert our_q3(path) == RECORDED_Q3[key]


@needs_ioq3
@pytest.mark.parametrize("path", corpus_params("q3"))
def test_q3_block_checksum_matches_ioq3ded(path):
    assert our_q3(path) == q3_oracle(path)


@pytest.mark.skipif(not CONSOLE_MAP.exists(), reason="../shared/corpus-console not present")
def test_console_map_compares_the_crc_stored_in_lump_59(tmp_path):
    """Console engines take lump 59's version field as the running CRC (the PC map's, stored at
    conversion) and finalise it; crc32 is still the PC rule over the console file's bytes. An
    entity edit keeps both."""
    data = CONSOLE_MAP.read_bytes()
    entries = [struct.unpack_from(">iiii", data, 8 + 16 * i) for i in range(64)]
    crc = 0
    for offset, length, _, _ in entries[1:]:
        crc = zlib.crc32(data[offset:offset + length], crc)
    child = run_cli("checksum", CONSOLE_MAP, "--json")
    result = json.loads(child.stdout)["result"]
    assert child.returncode == 0 and result["compared"] == "stored_crc32"
    assert result["checksums"] == {"crc32": crc, "stored_crc32": entries[59][2] ^ 0xFFFFFFFF}
    assert "lump 59" in run_cli("checksum", CONSOLE_MAP).stdout

    out = tmp_path / "edited.bsp"
    child = run_cli("ent", "set", CONSOLE_MAP, "message=edited", "--where",
                    "classname=worldspawn", "-o", out, "--json")
    assert child.returncode == 0, child.stderr
    save = json.loads(child.stdout)["result"]["save"]
    assert save["compared"] == "stored_crc32" and not save["checksum_changed"]
    assert {name: sums["after"] for name, sums in save["checksums"].items()} == result["checksums"]
    assert save["changed"] == ["lump 0 (ENTITIES)"]
