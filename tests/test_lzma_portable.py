"""Without pylzma (Windows, macOS: it has no wheels) LZMA data is compressed by the standard
library: streams with an end marker that bspedit's decoder and pylzma's (the LZMA SDK's
LzmaDec, as the engine) read; zip entries flag the marker; one warning line per command; dumps
keep stored LZMA bytes, and a build that needs pylzma says so.

pylzma is hidden in this process with `sys.modules["pylzma"] = None`, in CLI children by a
`sitecustomize.py` on PYTHONPATH doing the same."""
from __future__ import annotations

import csv
import io
import json
import lzma
import os
import random
import struct
import subprocess
import sys
import warnings
import zipfile
from pathlib import Path

import pytest

from bspedit.bsp import Bsp
from bspedit.errors import BspError
from bspedit.format import lzma_lump
from bspedit.format.lzma_lump import HEADER_SIZE, ValveLzmaWarning, properties
from bspedit.lumps.pakfile import LZMA, STORED, Pakfile
from conftest import CONSOLE_MAP, CORPUS

pylzma = pytest.importorskip("pylzma")

VALVE_PROPS = bytes([0x5D, 0, 0, 0, 1])                  # lc 3, lp 0, pb 2, 16 MiB
CONSOLE_PROPS = properties(256 << 10)                     # the Xbox 360 map's dictionary
NOTE = "pylzma is not installed"


def _lzma_maps() -> list[Path]:
    """The corpus maps with Valve LZMA lumps (MANIFEST's lzma_lumps), and the console map."""
    found = []
    manifest = CORPUS / "MANIFEST.tsv"
    if manifest.is_file():
        with manifest.open(newline="") as rows:
            found = [CORPUS / row["path"] for row in csv.DictReader(rows, delimiter="\t")
                     if row.get("lzma_lumps", "0").isdigit() and int(row["lzma_lumps"])
                     and (CORPUS / row["path"]).is_file()]
    return found + ([CONSOLE_MAP] if CONSOLE_MAP.is_file() else [])


LZMA_MAPS = _lzma_maps()
PC_LZMA_MAPS = [m for m in LZMA_MAPS if m != CONSOLE_MAP]


def _params(maps: list[Path]) -> list:
    if not maps:
        return [pytest.param(None, marks=pytest.mark.skip(reason="../shared corpus not present"))]
    return [pytest.param(m, id=f"{m.parent.name}/{m.stem}") for m in maps]


@pytest.fixture
def no_pylzma(monkeypatch):
    """pylzma hidden in this process; the once-per-process note state is this test's own."""
    monkeypatch.setitem(sys.modules, "pylzma", None)
    monkeypatch.setattr(lzma_lump, "_stdlib", {"used": False, "told": False})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ValveLzmaWarning)
        yield


def _check_stream(lump: bytes, data: bytes, props: bytes) -> None:
    """`lump` is Valve's header with `props`, then a stream with an end marker that both
    decoders read back to `data`."""
    magic, size, packed = struct.unpack_from("<4sII", lump)
    stream = lump[HEADER_SIZE:]
    assert (magic, size, packed, lump[12:17]) == (b"LZMA", len(data), len(stream), props)
    assert lzma_lump.decompress(lump) == data
    assert pylzma.decompress(props + stream, maxlength=size) == data
    if size:                            # pylzma's decompressobj refuses a size of 0
        decoder = pylzma.decompressobj(maxlength=size)
        assert decoder.decompress(props + stream) + decoder.flush() == data
    # the whole stream is read to its end marker (what lzmaSize counts)
    raw = lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=[{
        "id": lzma.FILTER_LZMA1, "lc": props[0] % 9, "lp": props[0] // 9 % 5,
        "pb": props[0] // 45, "dict_size": max(int.from_bytes(props[1:], "little"), 4096)}])
    assert raw.decompress(stream) == data and raw.eof and not raw.unused_data


def _samples() -> list:
    rng = random.Random(31)
    text = b"".join(b'"origin" "%d %d %d"\n' % (rng.randrange(-4096, 4096),
                                                 rng.randrange(-4096, 4096), rng.randrange(512))
                    for _ in range(3000))
    return [pytest.param(b"", id="empty"), pytest.param(b"x", id="one-byte"),
            pytest.param(rng.randbytes(70_000), id="random"),
            pytest.param(text, id="text"), pytest.param(bytes(300_000), id="zeros")]


@pytest.mark.parametrize("props", [None, CONSOLE_PROPS], ids=["valve", "console-256k"])
@pytest.mark.parametrize("data", _samples())
def test_stdlib_streams_decode_with_both_decoders(no_pylzma, data, props):
    _check_stream(lzma_lump.compress(data, props), data, props or VALVE_PROPS)


@pytest.mark.parametrize("path", _params(LZMA_MAPS))
def test_real_lumps_compressed_again_decode_with_both_decoders(no_pylzma, path):
    """Every LZMA lump of the map, compressed again with its own properties (the console's
    256 KiB dictionary too) and with Valve's."""
    with Bsp.open(path) as bsp:
        stored = [bsp.original_bytes(lump) for lump in bsp.lumps if lump.length]
    lumps = [blob for blob in stored if lzma_lump.lzma_header(blob)]
    assert lumps
    for blob in lumps:
        data, props = lzma_lump.decompress(blob), lzma_lump.properties_of(blob)
        assert props is not None
        again = lzma_lump.compress(data, props)
        _check_stream(again, data, props)
        assert again != blob or not data            # the standard library's bytes, not Valve's
        _check_stream(lzma_lump.compress(data), data, VALVE_PROPS)


def test_properties_the_stream_is_encoded_with_are_the_headers(no_pylzma):
    data = b"abcabcabd" * 5000
    small = properties(1000)            # under liblzma's 4 KiB minimum: decoders read 4 KiB
    _check_stream(lzma_lump.compress(data, small), data, small)
    wide = bytes([(2 * 5 + 1) * 9 + 8]) + (1 << 20).to_bytes(4, "little")   # lc 8 + lp 1 > 4
    lump = lzma_lump.compress(data, wide)
    _check_stream(lump, data, properties(1 << 20))          # Valve's lc/lp/pb, its dictionary
    with pytest.raises(BspError, match="names no lc/lp/pb"):
        lzma_lump.compress(data, bytes([225, 0, 0, 1, 0]))


def test_pylzma_stays_the_encoder_where_installed():
    """With pylzma the bytes are Valve's: no end marker, and the real map's lumps come back."""
    props, stream, marker = lzma_lump.encode_raw(b"hello " * 1000)
    assert not marker and props == VALVE_PROPS
    assert stream == pylzma.compress(b"hello " * 1000, **lzma_lump.VALVE_SETTINGS)[5:]
    for path in PC_LZMA_MAPS[:1]:
        with Bsp.open(path) as bsp:
            blob = bsp.original_bytes(bsp.lumps[0])
        assert lzma_lump.compress(lzma_lump.decompress(blob), lzma_lump.properties_of(blob)) \
            == blob


def test_the_warning_is_issued_once_per_process(no_pylzma):
    assert lzma_lump.stdlib_note() is None                 # nothing compressed yet
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lzma_lump.compress(b"a" * 100)
        lzma_lump.compress(b"b" * 100)
    assert [w.category for w in caught] == [ValveLzmaWarning]
    assert str(caught[0].message).startswith(NOTE)
    assert lzma_lump.stdlib_note() == lzma_lump.STDLIB_NOTE
    assert lzma_lump.stdlib_note() is None                 # once


# -- zip entries -------------------------------------------------------------------------------
def _entry_flags(zip_bytes: bytes, name: str) -> tuple[int, int]:
    """General purpose flags of `name`'s local header and central record."""
    with zipfile.ZipFile(io.BytesIO(zip_bytes)) as archive:
        info = archive.getinfo(name)
    local = struct.unpack_from("<H", zip_bytes, info.header_offset + 6)[0]
    return local, info.flag_bits


def test_pak_entries_compressed_without_pylzma_flag_their_end_marker(no_pylzma):
    data = b'"VertexLitGeneric"\n{\n\t"$basetexture" "x"\n}\n' * 200
    pak = Pakfile.from_bytes(b"")
    pak.add("materials/x.vmt", data, compress=True)
    pak.add("materials/y.vmt", b"tiny", compress=True)      # not smaller: stored, no flag
    _, zipped = pak.splice()
    assert _entry_flags(zipped, "materials/x.vmt") == (2, 2)
    assert _entry_flags(zipped, "materials/y.vmt") == (0, 0)
    with zipfile.ZipFile(io.BytesIO(zipped)) as archive:    # an independent LZMA reader
        assert archive.getinfo("materials/x.vmt").compress_type == LZMA
        assert archive.read("materials/x.vmt") == data and archive.testzip() is None
    again = Pakfile.from_bytes(zipped)
    assert again.read("materials/x.vmt") == data and again.read("materials/y.vmt") == b"tiny"
    # repacking stored clears the flag; compressing again sets it
    again.repack(compress=False)
    keep, extra = again.splice()
    stored = zipped[:keep] + extra
    assert _entry_flags(stored, "materials/x.vmt") == (0, 0)
    packed = Pakfile.from_bytes(stored)
    packed.repack(compress=True)
    keep, extra = packed.splice()
    assert _entry_flags(stored[:keep] + extra, "materials/x.vmt") == (2, 2)
    assert [e.method for e in packed.entries] == [LZMA, STORED]


def test_pak_entries_read_both_forms():
    """bspedit reads LZMA entries with and without an end marker (pylzma's, zipfile's)."""
    data = b"0123456789abcdef" * 4000
    pak = Pakfile.from_bytes(b"")
    pak.add("a.bin", data, compress=True)                   # pylzma: no marker, no flag
    _, zipped = pak.splice()
    assert _entry_flags(zipped, "a.bin") == (0, 0)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_LZMA) as archive:   # marker, flag bit 1
        archive.writestr("b.bin", data)
    assert _entry_flags(out.getvalue(), "b.bin")[1] & 2
    for blob, name in ((zipped, "a.bin"), (out.getvalue(), "b.bin")):
        assert Pakfile.from_bytes(blob).read(name) == data


# -- the command line without pylzma ----------------------------------------------------------
@pytest.fixture(scope="module")
def hidden(tmp_path_factory) -> dict[str, str]:
    """The environment of a CLI child without pylzma."""
    folder = tmp_path_factory.mktemp("no-pylzma")
    (folder / "sitecustomize.py").write_text('import sys\nsys.modules["pylzma"] = None\n')
    paths = [str(folder), *filter(None, [os.environ.get("PYTHONPATH")])]
    return dict(os.environ, PYTHONPATH=os.pathsep.join(paths))


def cli(*args: object, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bspedit", *map(str, args)], check=False,
                          capture_output=True, text=True, env=env)


def notes(result: subprocess.CompletedProcess) -> int:
    return sum(NOTE in line for line in result.stderr.splitlines())


def test_the_children_have_no_pylzma(hidden):
    code = "from bspedit.format.lzma_lump import valve_encoder; print(valve_encoder())"
    result = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True,
                            text=True, env=hidden)
    assert result.stdout.strip() == "False", result.stderr


@pytest.mark.parametrize("path", _params(LZMA_MAPS))
def test_decompress_and_plain_rewrite_are_the_same_without_pylzma(hidden, path, tmp_path):
    with_, without = tmp_path / "with.bsp", tmp_path / "without.bsp"
    assert cli("decompress", path, "-o", with_).returncode == 0
    result = cli("decompress", path, "-o", without, env=hidden)
    assert result.returncode == 0, result.stderr
    assert without.read_bytes() == with_.read_bytes() and not notes(result)
    copy = tmp_path / "copy.bsp"
    result = cli("rewrite", path, "-o", copy, env=hidden)
    assert result.returncode == 0 and copy.read_bytes() == path.read_bytes()
    assert not notes(result)


@pytest.mark.parametrize("path", _params(PC_LZMA_MAPS))
def test_an_entity_edit_without_pylzma_verifies_and_decodes(hidden, path, tmp_path):
    edited = tmp_path / "edited.bsp"
    result = cli("ent", "set", path, "--where", "classname=worldspawn", "skyname=sky_portable",
                 "-o", edited, "--json", env=hidden)
    assert result.returncode == 0, result.stderr
    assert notes(result) == 1 and len(result.stderr.splitlines()) == 1
    assert [w for w in json.loads(result.stdout)["warnings"] if NOTE in w] \
        == [lzma_lump.STDLIB_NOTE]
    check = cli("verify", edited, env=hidden)
    assert check.returncode == 0 and not notes(check), check.stdout + check.stderr
    with Bsp.open(edited) as bsp:
        blob = bsp.original_bytes(bsp.lumps[0])
    text = lzma_lump.decompress(blob)
    assert b'"skyname" "sky_portable"' in text
    assert pylzma.decompress(blob[12:], maxlength=len(text)) == text
    # the same edit again is nothing to do: the stored bytes stay, no note
    again = tmp_path / "again.bsp"
    result = cli("ent", "set", edited, "--where", "classname=worldspawn",
                 "skyname=sky_portable", "-o", again, env=hidden)
    assert result.returncode == 0 and again.read_bytes() == edited.read_bytes()
    assert not notes(result)


@pytest.mark.parametrize("path", _params(LZMA_MAPS))
def test_compress_without_pylzma_verifies_and_decompresses_alike(hidden, path, tmp_path):
    plain = tmp_path / "plain.bsp"
    assert cli("decompress", path, "-o", plain).returncode == 0
    valve, portable = tmp_path / "valve.bsp", tmp_path / "portable.bsp"
    assert cli("compress", plain, "-o", valve).returncode == 0
    result = cli("compress", plain, "-o", portable, env=hidden)
    assert result.returncode == 0, result.stderr
    assert notes(result) == 1
    check = cli("verify", portable, env=hidden)
    assert check.returncode == 0, check.stdout + check.stderr
    back = {}
    for name in ("valve", "portable"):
        back[name] = tmp_path / f"{name}-back.bsp"
        assert cli("decompress", tmp_path / f"{name}.bsp", "-o", back[name],
                   env=hidden).returncode == 0
    assert back["portable"].read_bytes() == back["valve"].read_bytes()
    with Bsp.open(portable) as new, Bsp.open(valve) as old:      # the same properties
        pairs = [(lzma_lump.properties_of(new.original_bytes(a)),
                  lzma_lump.properties_of(old.original_bytes(b)))
                 for a, b in zip(new.lumps, old.lumps, strict=True)]
    if path == CONSOLE_MAP:     # a lump LZMA barely shrinks may stay raw (the end marker)
        pairs = [(a, b) for a, b in pairs if a and b]
        assert len(pairs) > 20 and {a for a, _ in pairs} == {CONSOLE_PROPS}
    assert [p for p in pairs if p[0] != p[1]] == []


@pytest.mark.parametrize("path", _params(PC_LZMA_MAPS))
def test_pak_add_compressed_without_pylzma(hidden, path, tmp_path):
    payload = tmp_path / "x.vmt"
    payload.write_bytes(b'"UnlitGeneric"\n{\n\t"$basetexture" "portable"\n}\n' * 100)
    out = tmp_path / "out.bsp"
    result = cli("pak", "add", path, payload, "--as", "materials/portable/x.vmt",
                 "--compress", "-o", out, env=hidden)
    assert result.returncode == 0, result.stderr
    assert notes(result) == 1
    with Bsp.open(out) as bsp:
        zipped = bsp.read_lump(40)
    assert _entry_flags(zipped, "materials/portable/x.vmt") == (2, 2)
    with zipfile.ZipFile(io.BytesIO(zipped)) as archive:
        assert archive.read("materials/portable/x.vmt") == payload.read_bytes()
        assert archive.testzip() is None


@pytest.mark.full
@pytest.mark.parametrize("path", _params(PC_LZMA_MAPS))
def test_dumps_and_builds_without_pylzma(hidden, path, tmp_path):
    # dumped without pylzma: stored LZMA bytes, said why, and built back byte for byte
    folder = tmp_path / "dump"
    result = cli("dump", path, folder, env=hidden)
    assert result.returncode == 0 and not notes(result), result.stderr
    manifest = json.loads((folder / "manifest.json").read_text())
    kept = [e for e in manifest["lumps"] if e["compressed"]]
    assert kept and all(e["stored"] == "raw" and NOTE in e["lzma_note"] for e in kept)
    built = tmp_path / "built.bsp"
    result = cli("build", folder, "-o", built, env=hidden)
    assert result.returncode == 0 and not notes(result), result.stderr
    assert built.read_bytes() == path.read_bytes()
    # dumped with pylzma (LZMA lumps decompressed): building needs it, and says so
    folder = tmp_path / "dump-valve"
    assert cli("dump", path, folder).returncode == 0
    refused = tmp_path / "refused.bsp"
    result = cli("build", folder, "-o", refused, env=hidden)
    assert result.returncode == 2 and not refused.exists()
    assert len(result.stderr.splitlines()) == 1 and "pylzma is needed" in result.stderr
    assert "another pylzma" not in result.stderr
    assert cli("build", folder, "-o", built).returncode == 0          # with it: the map
    assert built.read_bytes() == path.read_bytes()
