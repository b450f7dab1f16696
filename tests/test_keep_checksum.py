"""Checksums around saves: predicted before writing, kept by entity edits, checked by engines."""
from __future__ import annotations

import os
import struct
import subprocess
import zipfile
from pathlib import Path

import pytest

import synthetic
from bspedit.container import aas
from bspedit.bsp import Bsp
from bspedit.container.mapsums import checksums_after, map_checksums
from conftest import CORPUS, corpus_maps, run_cli
from test_checksum import IOQ3DED, TOOLS, needs_ioq3, needs_mvdsv

SAMPLES = ["q1", "goldsrc", "q2", "q3", "source"]


@pytest.mark.parametrize("kind", SAMPLES)
@pytest.mark.parametrize("layout", ["stable", "compact", "in-place"])
def test_predicted_checksums_equal_those_of_the_saved_file(write_map, tmp_path, kind, layout):
    path = write_map(synthetic.sample(kind))
    with Bsp.open(path) as bsp:
        bsp.entities().worldspawn.set("message", "a much longer message than before " * 3)
        planes = 2 if kind == "q3" else 1
        bsp.replace_lump(planes, bsp.read_lump(planes) + synthetic.records(16 if kind == "q3" else 20, 2))
        predicted = checksums_after(bsp, layout)
        if layout == "in-place":
            bsp.save_in_place()
            assert map_checksums(bsp) == predicted
        else:
            bsp.save(tmp_path / "out.bsp", layout)
            with Bsp.open(tmp_path / "out.bsp") as saved:
                assert map_checksums(saved) == predicted


def test_keep_checksum_allows_an_entity_edit_on_source(write_map, tmp_path):
    path = write_map(synthetic.sample("source"))
    result = run_cli("ent", "set", path, "--where", "classname=worldspawn", "skyname=night",
                     "--keep-checksum", "-o", tmp_path / "out.bsp")
    assert result.returncode == 0, result.stderr
    assert "(unchanged)" in result.stdout


def test_keep_checksum_refuses_a_whole_file_engine_edit(write_map, tmp_path):
    path = write_map(synthetic.sample("q3"))
    result = run_cli("ent", "set", path, "--where", "classname=worldspawn", "message=x",
                     "--keep-checksum", "-o", tmp_path / "out.bsp")
    assert result.returncode == 1
    assert "--keep-checksum: refused, block_checksum would change" in result.stderr
    assert "engines checksum the whole file); nothing written" in result.stderr
    assert not (tmp_path / "out.bsp").exists()


def test_keep_checksum_refuses_a_layout_that_moves_the_game_lump(write_map, tmp_path):
    lumps = {0: synthetic.ENTITIES, 1: synthetic.records(20, 2),
             35: synthetic.game_lump([(b"sprp", 0, 10, b"\x00" * 12)])}
    path = write_map(synthetic.make_map("source", lumps, order=[1, 0, 35], marker=bytes(16)))
    result = run_cli("rewrite", path, "--layout", "compact", "--keep-checksum", "-o", tmp_path / "o.bsp")
    assert result.returncode == 1 and "crc32 would change" in result.stderr
    assert "lumps moved" in result.stderr and not (tmp_path / "o.bsp").exists()
    assert run_cli("rewrite", path, "--keep-checksum", "-o", tmp_path / "o.bsp").returncode == 0


def _engine(script: str, path) -> str:
    return subprocess.run(["bash", str(TOOLS / script), str(path)], capture_output=True, text=True,
                          timeout=120).stdout


def _edit_worldspawn(path, out) -> None:
    result = run_cli("ent", "set", path, "--where", "classname=worldspawn",
                     "message=edited by bspedit", "-o", out)
    assert result.returncode == 0, result.stderr


@needs_mvdsv
@pytest.mark.parametrize("path", corpus_maps("q1") + corpus_maps("goldsrc"))
def test_edited_quake1_and_halflife_maps_load_in_mvdsv_with_unchanged_checksums(path, tmp_path):
    out = tmp_path / "edited.bsp"
    _edit_worldspawn(path, out)
    before, after = _engine("q1oracle.sh", path), _engine("q1oracle.sh", out)
    assert "loaded: yes" in after
    sums = [line for line in after.splitlines() if line.startswith("checksum:")]
    assert len(sums) == 2 and sums == [l for l in before.splitlines() if l.startswith("checksum:")]
    with Bsp.open(out) as edited:
        ours = map_checksums(edited)
    assert f"0x{ours['map_checksum']:08x}" in sums[0] and f"0x{ours['map_checksum2']:08x}" in sums[1]


@needs_ioq3
@pytest.mark.parametrize("path", corpus_maps("q3"))
def test_edited_quake3_maps_load_in_openarena(path, tmp_path):
    out = tmp_path / "edited.bsp"
    _edit_worldspawn(path, out)
    report = _engine("q3oracle.sh", out)
    assert "loaded: yes" in report
    with Bsp.open(out) as edited:
        assert f"0x{map_checksums(edited)['block_checksum']:08x}" in report


# ---------------------------------------------------------------- Quake 3 bot files (.aas)
OA_PAKS = Path("/usr/share/games/openarena/baseoa")
AAS_MASK = bytes((i * 119) & 0xFF for i in range(4))      # botlib AAS_DData, header offsets 8-11


def _aas(version: int, checksum: int) -> bytes:
    """An .aas file built from the spec: EAAS, version, bspchecksum, 14 lumps, then data; in
    version 5 the header after offset 8 is XORed with (i * 119) & 0xFF."""
    rest = struct.pack("<I", checksum) + b"".join(struct.pack("<ii", 124 + 8 * i, 8)
                                                 for i in range(14))
    if version == 5:
        rest = bytes(b ^ ((i * 119) & 0xFF) for i, b in enumerate(rest))
    return b"EAAS" + struct.pack("<i", version) + rest + bytes(range(112))


def _block_of(path) -> int:
    with Bsp.open(path) as bsp:
        return map_checksums(bsp)["block_checksum"]


@pytest.mark.parametrize("version", [4, 5])
def test_a_quake3_save_fixes_the_aas_beside_the_map(write_map, tmp_path, version):
    path = write_map(synthetic.sample("q3"))
    before = _block_of(path)
    aas = tmp_path / "map.aas"
    original = _aas(version, before)
    aas.write_bytes(original)
    result = run_cli("ent", "set", path, "--where", "classname=worldspawn", "message=bots",
                     "--in-place")
    assert result.returncode == 0, result.stderr
    after = _block_of(path)
    assert after != before
    fixed = aas.read_bytes()
    stored = struct.pack("<I", after)
    if version == 5:
        stored = bytes(a ^ b for a, b in zip(stored, AAS_MASK))
    assert fixed == original[:8] + stored + original[12:]      # only the checksum changed
    assert f"bot file {aas}: checksum 0x{before:08x} -> 0x{after:08x} (AAS version {version})" \
        in result.stdout
    assert "did not match" not in result.stdout


def test_aas_named_with_an_option_and_beside_the_output(write_map, tmp_path):
    path = write_map(synthetic.sample("q3"))
    before = _block_of(path)
    named, beside = tmp_path / "bots" / "elsewhere.aas", tmp_path / "out_b0.aas"
    named.parent.mkdir()
    named.write_bytes(_aas(5, 0x1234))          # made for another map: fixed, with a note
    beside.write_bytes(_aas(4, before))
    out = tmp_path / "out.bsp"
    result = run_cli("ent", "set", path, "--where", "classname=worldspawn", "message=x",
                     "-o", out, "--aas", named)
    assert result.returncode == 0, result.stderr
    after = _block_of(out)
    assert struct.unpack("<I", beside.read_bytes()[8:12])[0] == after
    masked = bytes(a ^ b for a, b in zip(named.read_bytes()[8:12], AAS_MASK))
    assert struct.unpack("<I", masked)[0] == after
    assert f"note: {named} did not match the map before the edit either" in result.stdout
    assert not (tmp_path / "map.aas").exists()


def test_bad_aas_files_are_refused_before_anything_is_written(write_map, tmp_path):
    path = write_map(synthetic.sample("q3"))
    original = path.read_bytes()
    bad = tmp_path / "bad.aas"
    bad.write_bytes(b"EAAS" + struct.pack("<i", 3) + bytes(200))
    result = run_cli("ent", "set", path, "--where", "classname=worldspawn", "message=x",
                     "--in-place", "--aas", bad)
    assert result.returncode == 2 and "AAS version 3" in result.stderr and str(bad) in result.stderr
    assert path.read_bytes() == original
    source = write_map(synthetic.sample("source"), "source.bsp")
    result = run_cli("ent", "set", source, "--where", "classname=worldspawn", "message=x",
                     "--in-place", "--aas", bad)
    assert result.returncode == 2 and "no bot .aas files" in result.stderr


def _oa_aas(name: str, folder: Path) -> Path:
    """maps/NAME.aas from the installed OpenArena paks, into `folder`."""
    for pak in sorted(OA_PAKS.glob("*.pk3"), reverse=True):
        with zipfile.ZipFile(pak) as zf:
            if f"maps/{name}.aas" in zf.namelist():
                out = folder / f"{name}.aas"
                out.write_bytes(zf.read(f"maps/{name}.aas"))
                return out
    pytest.skip(f"maps/{name}.aas not in the OpenArena paks")


def _bots_log(home: Path) -> str:
    """Start the OpenArena server with bots on home/baseoa/maps/bxaas.bsp; its console log."""
    result = subprocess.run(
        [str(IOQ3DED), "+set", "ttycon", "0", "+set", "com_basegame", "baseoa",
         "+set", "fs_basepath", "/usr/lib/openarena-server", "+set", "fs_homepath", str(home),
         "+set", "com_legacyprotocol", "71", "+set", "com_protocol", "71",
         "+set", "dedicated", "1", "+set", "sv_pure", "0", "+set", "net_enabled", "1",
         "+set", "net_ip", "127.0.0.1", "+set", "net_port", "27997", "+set", "bot_enable", "1",
         "+map", "bxaas", "+quit"],
        env={**os.environ, "HOME": str(home)}, stdin=subprocess.DEVNULL, capture_output=True,
        text=True, errors="replace", timeout=60)
    return result.stdout + result.stderr


@needs_ioq3
def test_openarena_bots_load_the_fixed_aas_and_refuse_the_stale_one(tmp_path):
    corpus_map = CORPUS / "q3" / "openarena_am_galmevish.bsp"
    if not corpus_map.exists():
        pytest.skip("corpus map absent")
    shipped = _oa_aas("am_galmevish", tmp_path)
    assert aas.read_header(str(shipped)).checksum == _block_of(corpus_map)  # the XOR decodes
    for fix in (False, True):
        home = tmp_path / f"home_{fix}"
        maps = home / "baseoa" / "maps"
        maps.mkdir(parents=True)
        target = maps / "bxaas.bsp"
        (maps / ("bxaas.aas" if fix else "later.aas")).write_bytes(shipped.read_bytes())
        result = run_cli("ent", "set", corpus_map, "--where", "classname=worldspawn",
                         "message=bots still run", "-o", target)
        assert result.returncode == 0, result.stderr
        assert ("bot file" in result.stdout) == fix
        if not fix:
            (maps / "later.aas").rename(maps / "bxaas.aas")
        log = _bots_log(home)
        assert "trying to load maps/bxaas.aas" in log, log[-2000:]
        assert ("loaded maps/bxaas.aas" in log) == fix
        assert ("aas file maps/bxaas.aas is out of date" in log) == (not fix)
