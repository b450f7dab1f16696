"""Saves in bounded memory, checksums from the plan that equal a recomputation, and a digest
cache that never outlives the bytes it describes.

Every command runs as a child process with its own cache folder (XDG_CACHE_HOME), so its peak
RSS (os.wait4) and the bytes it read (/proc/self/io rchar) are its own.
"""
from __future__ import annotations

import mmap
import os
import re
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from Crypto.Hash import MD4

import synthetic
from conftest import CORPUS, corpus_maps

MIB = 1 << 20
BIG = 320 * MIB         # the big map's pakfile: a sparse lump of 320 MiB
# Runs the CLI, then prints its peak RSS (VmHWM: of this program only, where a child's ru_maxrss
# also counts the pages of the process it was forked from) and the bytes it read with
# read()/pread() on stderr.
_RUNNER = ("import re, sys\nfrom bspedit.cli import main\ncode = main(sys.argv[1:])\n"
           "sys.stdout.flush()\n"
           "print('rchar', open('/proc/self/io').read().split()[1], file=sys.stderr)\n"
           "print('hwm', re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read())[1],"
           " file=sys.stderr)\n"
           "sys.exit(code)")
pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/io"), reason="needs Linux /proc")


def run(*args: object, cache: Path | None) -> tuple[subprocess.CompletedProcess, int, int]:
    """Run the CLI (digest cache in `cache`, or off); returns the result, its peak RSS in bytes
    and the bytes it read."""
    env = {k: v for k, v in os.environ.items() if k != "BSPEDIT_NO_CACHE"}
    env.update({"BSPEDIT_NO_CACHE": "1"} if cache is None else {"XDG_CACHE_HOME": str(cache)})
    result = subprocess.run([sys.executable, "-c", _RUNNER, *map(str, args)], env=env,
                            stdin=subprocess.DEVNULL, capture_output=True, text=True)
    read, peak = (re.search(rf"^{name} (\d+)$", result.stderr, re.M) for name in ("rchar", "hwm"))
    return result, int(peak[1]) * 1024 if peak else -1, int(read[1]) if read else -1


def reported(result: subprocess.CompletedProcess) -> tuple[dict[str, int], dict[str, int]]:
    """The checksums a save printed: (before, after)."""
    assert result.returncode == 0, result.stderr
    lines = re.findall(r"^map checksum (\w+): before 0x([0-9a-f]{8}), after 0x([0-9a-f]{8})",
                       result.stdout, re.M)
    assert lines, result.stdout
    return ({n: int(b, 16) for n, b, _ in lines}, {n: int(a, 16) for n, _, a in lines})


# ------------------------------------------------------------ an independent recomputation
def _directory(data: memoryview) -> tuple[str, list[tuple[int, int]]]:
    """(engine, [(offset, length)] by index) read with plain struct."""
    if data[:4] == b"VBSP":
        return "source", [struct.unpack_from("<ii", data, 8 + 16 * i) for i in range(64)]
    if bytes(data[:4]) in (b"IBSP", b"RBSP", b"FBSP"):
        return ("quake2" if struct.unpack_from("<i", data, 4)[0] == 38 else "quake3"), []
    version = struct.unpack_from("<i", data, 0)[0]
    base = 4
    return ("goldsrc" if version == 30 else "quake1"), \
        [struct.unpack_from("<ii", data, base + 8 * i) for i in range(15)]


def _block(data: memoryview) -> int:
    words = struct.unpack("<4I", MD4.new(data).digest())
    return words[0] ^ words[1] ^ words[2] ^ words[3]


def recompute(path: Path) -> dict[str, int]:
    """The engines' checksums of the file's bytes, straight from their definitions."""
    with open(path, "rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as m:
        return _sums(memoryview(m))


def _sums(data: memoryview) -> dict[str, int]:
    engine, lumps = _directory(data)
    if engine in ("quake2", "quake3"):
        return {"block_checksum": _block(data)}
    pieces = [data[o:o + n] for o, n in lumps]
    sums = {}
    if engine in ("source", "goldsrc"):
        sums["crc32"] = 0
        for piece in pieces[1:]:
            sums["crc32"] = zlib.crc32(piece, sums["crc32"])
    if engine in ("quake1", "goldsrc"):
        blocks = [_block(p) for p in pieces]
        sums["map_checksum"] = sums["map_checksum2"] = 0
        for i in range(1, 15):
            sums["map_checksum"] ^= blocks[i]
            if i not in (4, 5, 10):
                sums["map_checksum2"] ^= blocks[i]
    return sums


# ------------------------------------------------------------ peak memory, flat in map size
@pytest.fixture(scope="module")
def big_map(tmp_path_factory) -> Path:
    """A Source map whose last lump (the pakfile) is a sparse 320 MiB run of zeros."""
    path = tmp_path_factory.mktemp("big") / "big.bsp"
    data = bytearray(synthetic.make_map("source", {0: synthetic.ENTITIES,
                                                   1: synthetic.records(20, 3), 40: b"PK"}))
    offset = struct.unpack_from("<i", data, 8 + 16 * 40)[0]
    struct.pack_into("<i", data, 8 + 16 * 40 + 4, BIG)
    with open(path, "wb") as handle:
        handle.write(data[:offset])
        handle.truncate(offset + BIG)
    return path


@pytest.mark.parametrize("cached", [False, True], ids=["cold", "warm"])
def test_ent_set_to_a_new_file_stays_under_64_mib(big_map, tmp_path, cached):
    cache = tmp_path / "cache" if cached else None
    if cached:
        run("checksum", big_map, cache=cache)
    out = tmp_path / "out.bsp"
    result, rss, _ = run("ent", "set", big_map, "--where", "classname=worldspawn",
                         "message=bounded", "-o", out, cache=cache)
    before, after = reported(result)
    assert rss < 64 * MIB, f"peak RSS {rss / MIB:.1f} MiB"
    assert before == after == recompute(big_map)        # entity edits keep the Source CRC
    assert out.stat().st_size == big_map.stat().st_size


@pytest.mark.parametrize("cached", [False, True], ids=["cold", "warm"])
def test_ent_set_in_place_stays_under_48_mib(big_map, tmp_path, cached):
    work = tmp_path / "work.bsp"
    with open(big_map, "rb") as source, open(work, "wb") as target:
        os.copy_file_range(source.fileno(), target.fileno(), big_map.stat().st_size)
    cache = tmp_path / "cache" if cached else None
    expected = recompute(work)
    if cached:
        run("checksum", work, cache=cache)
    result, rss, _ = run("ent", "set", work, "--where", "classname=worldspawn",
                         "message=in place", "--in-place", cache=cache)
    assert rss < 48 * MIB, f"peak RSS {rss / MIB:.1f} MiB"
    assert reported(result) == (expected, expected)


def test_a_warm_in_place_edit_reads_none_of_the_map(big_map, tmp_path):
    work = tmp_path / "work.bsp"
    with open(big_map, "rb") as source, open(work, "wb") as target:
        os.copy_file_range(source.fileno(), target.fileno(), big_map.stat().st_size)
    cache = tmp_path / "cache"
    args = ("ent", "set", work, "--where", "classname=worldspawn", "--in-place")
    result, _, cold = run(*args, "message=one", cache=cache)        # fills the cache
    assert result.returncode == 0, result.stderr
    assert cold > BIG                                             # it read every lump
    result, _, warm = run(*args, "message=two", cache=cache)         # the state it recorded
    assert reported(result)[1] == recompute(work)
    assert warm < 16 * MIB, f"read {warm / MIB:.1f} MiB"


# ------------------------------------------------------------ checksums equal a recomputation
KINDS = ["source", "goldsrc", "q1", "q2", "q3"]


def _edits(kind: str, path: Path, tmp_path: Path) -> list[tuple]:
    """Edits that change the entity lump, a lump every checksum covers, and (Source) the
    pakfile by appending to it."""
    planes = tmp_path / "planes.bin"
    planes.write_bytes(synthetic.records(16 if kind == "q3" else 20, 5, seed=9))
    edits = [("ent", "set", path, "--where", "classname=worldspawn", "message=a longer message "
              "than the synthetic one, so the lump grows"),
             ("lump", "replace", path, 2 if kind == "q3" else 1, planes)]
    if kind == "source":
        payload = tmp_path / "payload.vmt"
        payload.write_bytes(b'"UnlitGeneric" {}\n' * 50)
        edits.append(("pak", "add", path, payload, "--as", "materials/test/x.vmt"))
    return edits


@pytest.mark.full
@pytest.mark.parametrize("cached", [False, True], ids=["cold", "warm"])
@pytest.mark.parametrize("kind", KINDS)
def test_checksums_printed_by_saves_equal_a_recomputation(kind, cached, tmp_path):
    path = tmp_path / "map.bsp"
    path.write_bytes(synthetic.sample(kind))
    cache = tmp_path / "cache" if cached else None
    for edit in _edits(kind, path, tmp_path):
        if cached:
            run("checksum", path, cache=cache)
        expected_before = recompute(path)
        out = tmp_path / "out.bsp"
        result, _, _ = run(*edit, "-o", out, cache=cache)
        assert reported(result) == (expected_before, recompute(out)), edit
        result, _, _ = run(*edit, "--in-place", cache=cache)
        assert reported(result) == (expected_before, recompute(path)), edit


@pytest.mark.parametrize("path", corpus_maps("q3") + corpus_maps("q2") + corpus_maps("goldsrc")
                         + corpus_maps("q1"))
def test_corpus_entity_edits_print_the_checksums_of_the_files(path, tmp_path):
    out = tmp_path / "out.bsp"
    result, _, _ = run("ent", "set", path, "--where", "classname=worldspawn",
                       "message=edited by bspedit", "-o", out, cache=tmp_path / "cache")
    assert reported(result) == (recompute(path), recompute(out))


# ------------------------------------------------------------ the cache never goes stale
def _flip_byte(path: Path, offset: int, *, keep_mtime: bool) -> None:
    """Another writer: change one byte in place, same size, maybe putting the mtime back."""
    info = path.stat()
    with open(path, "r+b") as handle:
        handle.seek(offset)
        byte = handle.read(1)
        handle.seek(offset)
        handle.write(bytes([byte[0] ^ 0xFF]))
    if keep_mtime:
        os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


@pytest.mark.parametrize("keep_mtime", [False, True], ids=["new-mtime", "mtime-put-back"])
@pytest.mark.parametrize("kind", ["source", "q1", "q3"])
def test_a_cache_entry_is_never_used_after_another_writer_changes_the_file(
        kind, keep_mtime, tmp_path):
    path = tmp_path / "map.bsp"
    path.write_bytes(synthetic.sample(kind))
    cache = tmp_path / "cache"
    run("checksum", path, cache=cache)
    assert list((cache / "bspedit").glob("*.json"))
    # the planes lump (covered by every checksum), right after the save that recorded the entry
    engine, lumps = _directory(memoryview(path.read_bytes()))
    offset = lumps[1][0] if lumps else synthetic.header_size(kind) + 56
    _flip_byte(path, offset + 3, keep_mtime=keep_mtime)
    expected = recompute(path)
    result, _, _ = run("ent", "set", path, "--where", "classname=worldspawn", "message=x",
                       "--in-place", cache=cache)
    assert reported(result)[0] == expected
    # and straight after an in-place save too
    _flip_byte(path, offset + 5, keep_mtime=keep_mtime)
    expected = recompute(path)
    result, _, _ = run("ent", "set", path, "--where", "classname=worldspawn", "message=y",
                       "-o", tmp_path / "out.bsp", cache=cache)
    assert reported(result)[0] == expected


def test_no_cache_writes_nothing_and_an_unwritable_cache_is_skipped(tmp_path):
    path = tmp_path / "map.bsp"
    path.write_bytes(synthetic.sample("source"))
    result, _, _ = run("checksum", path, cache=None)
    assert result.returncode == 0 and "crc32" in result.stdout
    blocked = tmp_path / "blocked"
    blocked.write_bytes(b"a file where the cache folder would go")
    result, _, _ = run("ent", "set", path, "--where", "classname=worldspawn", "message=z",
                       "--in-place", cache=blocked)
    assert reported(result)[1] == recompute(path)


def test_the_cache_keeps_a_bounded_number_of_entries(tmp_path, monkeypatch):
    from bspedit.container import digests

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("BSPEDIT_NO_CACHE", raising=False)
    monkeypatch.setattr(digests, "MAX_ENTRIES", 5)
    for n in range(12):
        path = tmp_path / f"m{n}.bsp"
        path.write_bytes(b"x" * n)
        digests.record(str(path), digests.MapDigests(block_checksum=n))
    assert len(list((tmp_path / "cache" / "bspedit").glob("*.json"))) == 5
    with open(tmp_path / "m11.bsp", "rb") as handle:
        assert digests.cached(handle.fileno()) == digests.MapDigests(block_checksum=11)


def test_a_console_pakfile_moved_by_an_edit_is_copied_not_read(big_map, tmp_path):
    """On a console map the pakfile stays last: an entity edit that outgrows its slot moves the
    320 MiB pakfile to its next boundary. Its bytes go through the kernel, not memory."""
    console = tmp_path / "console.bsp"
    with open(big_map, "rb") as source, open(console, "wb") as target:
        os.copy_file_range(source.fileno(), target.fileno(), big_map.stat().st_size)
    with open(console, "r+b") as handle:
        head = handle.read(1036)
        entries = [struct.unpack_from("<4i", head, 8 + 16 * i) for i in range(64)]
        handle.seek(0)
        handle.write(b"PSBV" + struct.pack(">i", struct.unpack_from("<i", head, 4)[0])
                     + b"".join(struct.pack(">4i", *entry) for entry in entries)
                     + struct.pack(">i", struct.unpack_from("<i", head, 1032)[0]))
        handle.seek(entries[40][0] + BIG - 4)
        handle.write(b"end!")                   # bytes to find where the pakfile lands
    out = tmp_path / "out.bsp"
    result, rss, _ = run("ent", "set", console, "--where", "classname=worldspawn",
                         "message=" + "x" * 5000, "-o", out, cache=None)
    assert result.returncode == 0, result.stderr
    assert "lump 40 (PAKFILE)" in result.stdout.split("moved:")[1]
    assert rss < 64 * MIB, f"peak RSS {rss / MIB:.1f} MiB"
    with open(out, "rb") as handle:
        offset, length = struct.unpack_from(">ii", handle.read(1036), 8 + 16 * 40)
        assert length == BIG and offset % 2048 == 0 and offset + length <= out.stat().st_size
        handle.seek(offset + length - 4)
        assert handle.read(4) == b"end!"


# ------------------------------------------------------------ render: flat in picture size
@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus not present")
def test_render_peak_memory_is_flat_in_the_picture_size(tmp_path):
    """`render` makes and writes its pixels in bands of rows (issue 41): an 8192 px PNG of the
    10 MB Quake 3 map (8192 x 2575: 21 million pixels; 308 MiB when drawn whole) peaks within
    32 MiB of a 512 px one."""
    path = CORPUS / "q3" / "openarena_oacmpctf3.bsp"
    peak = {}
    for size in (512, 8192):
        result, peak[size], _ = run("render", path, "-o", tmp_path / f"{size}.png",
                                    "--size", size, cache=None)
        assert result.returncode == 0, result.stderr
    assert peak[8192] - peak[512] < 32 * MIB, {k: f"{v / MIB:.0f} MiB" for k, v in peak.items()}
