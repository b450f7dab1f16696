"""Values and paths as users type them: a negative vector after an option (`--shift -64,0,0`),
options a verb does not have (named, with the verbs that have them), `transform --help` without
Quake 3's `--aas`, and `--palette` taking exactly a palette: a 768-byte file or an entry of a
Quake PACK or WAD file (both written here with struct), anything else exit 2."""
from __future__ import annotations

import shutil
import struct
from pathlib import Path

import pytest
from conftest import CORPUS, run_cli

Q1 = CORPUS / "q1" / "bsptool_quake_mp_lobby.bsp"
HL = CORPUS / "goldsrc" / "hltopdown_test.bsp"
pytestmark = pytest.mark.skipif(not Q1.exists(), reason="../shared/corpus not present")
GREY = bytes(v for i in range(256) for v in (i, i, i))


def test_a_negative_shift_after_the_option(tmp_path):
    """`--shift -64,0,0` is the shift (argparse alone reads it as an unknown option); moving
    back gives the map's bytes."""
    there, back = tmp_path / "there.bsp", tmp_path / "back.bsp"
    done = run_cli("transform", Q1, "--shift", "-64,0,-8", "-o", there)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("shift -64 0 -8:")
    assert run_cli("transform", there, "--shift", "64,0,8", "-o", back).returncode == 0
    assert back.read_bytes() == Q1.read_bytes()
    spaced, joined = tmp_path / "spaced.bsp", tmp_path / "joined.bsp"
    assert run_cli("transform", Q1, "--shift", "-.5,0,0", "-o", spaced).returncode == 0
    assert run_cli("transform", Q1, "--shift=-0.5,0,0", "-o", joined).returncode == 0
    assert spaced.read_bytes() == joined.read_bytes() != Q1.read_bytes()
    folder = tmp_path / "maps"
    folder.mkdir()
    shutil.copyfile(Q1, folder / "a.bsp")
    each = run_cli("each", folder, "--", "transform", "--shift", "-64,0,-8", "-o",
                   tmp_path / "{stem}_moved.bsp")
    assert each.returncode == 0, each.stderr
    assert (tmp_path / "a_moved.bsp").read_bytes() == there.read_bytes()
    bad = run_cli("transform", Q1, "--shift", "-64,0", "-o", tmp_path / "bad.bsp")
    assert bad.returncode == 2 and "want X,Y,Z" in bad.stderr
    assert not (tmp_path / "bad.bsp").exists()


def test_a_negative_merge_shift(tmp_path):
    a, b = tmp_path / "a.bsp", tmp_path / "b.bsp"
    shutil.copyfile(Q1, a)
    shutil.copyfile(Q1, b)
    out = tmp_path / "m.bsp"
    done = run_cli("merge", a, b, "--shift", f"{b}=-16384,0,0", "-o", out)
    assert done.returncode == 0, done.stderr
    assert "shifted by -16384 0 0" in done.stdout


def test_transform_offers_no_bot_files():
    done = run_cli("transform", "--help")
    assert done.returncode == 0 and "--aas" not in done.stdout and "--shift" in done.stdout
    refused = run_cli("transform", Q1, "--shift", "1,0,0", "--aas", "x.aas", "--dry-run")
    assert refused.returncode == 2 and "unrecognized option --aas" in refused.stderr


def test_an_unknown_option_is_named_not_taken_for_a_map(tmp_path):
    listing = tmp_path / "list.txt"
    listing.write_text("materials/x.vmt\n")
    done = run_cli("pak", "deps", Q1, "--game", tmp_path, "--base", listing)
    assert done.returncode == 2
    last = done.stderr.strip().splitlines()[-1]
    assert last == "bspedit pak deps: error: unrecognized option --base; pak autopack takes it"
    typo = run_cli("info", Q1, "--jsn")
    assert typo.stderr.strip().splitlines()[-1].endswith(
        "unrecognized option --jsn (did you mean --json?)")
    inner = run_cli("each", Q1, "--", "info", "--jsn")
    assert inner.returncode == 2 and "unrecognized option --jsn" in inner.stderr
    two = run_cli("info", Q1, Q1)           # a second map: still pointed to `each`
    assert two.returncode == 2 and "bspedit each MAP... -- info" in two.stderr


def _pack(entries: dict[str, bytes]) -> bytes:
    """A Quake PACK file: header, data, then 64-byte entries (name[56], filepos, filelen)."""
    data, rows, at = b"", b"", 12
    for name, blob in entries.items():
        rows += struct.pack("<56sii", name.encode(), at + len(data), len(blob))
        data += blob
    return struct.pack("<4sii", b"PACK", 12 + len(data), len(rows)) + data + rows


def _wad(entries: dict[str, bytes]) -> bytes:
    """A WAD2 file: header, data, then 32-byte entries (type 0x40: TYP_PALETTE)."""
    data, rows, at = b"", b"", 12
    for name, blob in entries.items():
        rows += struct.pack("<iiiBBH16s", at + len(data), len(blob), len(blob), 0x40, 0, 0,
                            name.encode())
        data += blob
    return struct.pack("<4sii", b"WAD2", len(entries), 12 + len(data)) + data + rows


def render(tmp_path: Path, name: str, palette: object, *extra: object):
    out = tmp_path / f"{name}.png"
    done = run_cli("render", Q1, "-o", out, "--color", "texture", "--palette", palette,
                   "--size", 64, *extra)
    return done, out


def test_a_palette_is_768_bytes_or_an_archive_entry(tmp_path):
    lmp = tmp_path / "palette.lmp"
    lmp.write_bytes(GREY)
    pak = tmp_path / "pak0.pak"
    pak.write_bytes(_pack({"maps/x.bsp": b"x" * 100, "gfx/palette.lmp": GREY}))
    wad = tmp_path / "gfx.wad"
    wad.write_bytes(_wad({"CONCHARS": b"c" * 64, "PALETTE": GREY}))
    done, file_png = render(tmp_path, "file", lmp)
    assert done.returncode == 0 and not done.stderr, done.stderr
    for name, spec in (("pak", f"{pak}:gfx/palette.lmp"), ("pakcase", f"{pak}:GFX/Palette.lmp"),
                       ("wad", f"{wad}:palette")):
        done, png = render(tmp_path, name, spec)
        assert done.returncode == 0, done.stderr
        assert png.read_bytes() == file_png.read_bytes(), name
    inverted = tmp_path / "inverted.lmp"
    inverted.write_bytes(bytes(255 - v for v in GREY))
    done, other = render(tmp_path, "inverted", inverted)
    assert done.returncode == 0 and other.read_bytes() != file_png.read_bytes()


@pytest.mark.parametrize("case", ["6 bytes", "100 bytes", "1000 bytes", "a map", "769 bytes",
                                  "no pak entry", "no wad entry", "not an archive", "missing",
                                  "a folder"])
def test_anything_else_is_refused(tmp_path, case):
    junk = tmp_path / "junk"
    pak = tmp_path / "pak0.pak"
    pak.write_bytes(_pack({"gfx/palette.lmp": GREY}))
    wad = tmp_path / "gfx.wad"
    wad.write_bytes(_wad({"PALETTE": GREY}))
    sizes = {"6 bytes": 6, "100 bytes": 100, "1000 bytes": 1000, "769 bytes": 769}
    if case in sizes:
        junk.write_bytes(bytes(range(256)) * 4)
        junk.write_bytes(junk.read_bytes()[:sizes[case]])
    spec = {"a map": Q1, "no pak entry": f"{pak}:gfx/colormap.lmp",
            "no wad entry": f"{wad}:conchars", "not an archive": f"{Q1}:gfx/palette.lmp",
            "missing": tmp_path / "none.lmp", "a folder": tmp_path}.get(case, junk)
    done, png = render(tmp_path, "out", spec)
    assert done.returncode == 2 and not png.exists()
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    if case in sizes or case == "a map":
        assert "a palette is 768 bytes" in done.stderr
    assert run_cli("tex", "export", Q1, tmp_path / "png", "--palette", spec).returncode == 2


def test_a_palette_the_picture_does_not_use_is_said(tmp_path):
    lmp = tmp_path / "palette.lmp"
    lmp.write_bytes(GREY)
    out = tmp_path / "h.png"
    done = run_cli("render", Q1, "-o", out, "--palette", lmp, "--size", 64)
    assert done.returncode == 0 and out.exists()
    assert "warning: --palette is not used" in done.stderr and "--color height" in done.stderr
    done = run_cli("render", HL, "-o", out, "--color", "texture", "--palette", lmp, "--size", 64)
    assert done.returncode == 0 and "GoldSrc" in done.stderr and "not used" in done.stderr
