"""Embedded textures and WAD files (bspedit.features.texwad, bspedit.format.wad): the round trip
extract -> unembed -> embed on every corpus map with embedded textures, WAD files read back
with a reader written here, PNG pixels against the palette, the `tex` WAD verbs."""
from __future__ import annotations

import argparse
import struct

import pytest
from conftest import CORPUS, CORPUS_MAPS, run_cli

from bspedit.bsp import Bsp
from bspedit.errors import BspError
from bspedit.features import texwad
from bspedit.format.wad import Wad

MAPS = [m for m in CORPUS_MAPS if m.parent.name in ("q1", "goldsrc")]
EMBEDDING = {"goldsrc/plague_zm_303": 5, "goldsrc/plague_zm_castle_siege2": 1,
             "goldsrc/plague_zm_downtown_dirtypad": 1, "goldsrc/svenquake2_q2dm1_13lumps": 1}
needs_corpus = pytest.mark.skipif(not MAPS, reason="../shared/corpus not present")
PLAGUE = CORPUS / "goldsrc" / "plague_zm_303.bsp"
LOBBY = CORPUS / "q1" / "bsptool_quake_mp_lobby.bsp"


def _id(path) -> str:
    return f"{path.parent.name}/{path.stem}"


def lump_entries(lump: bytes) -> list[tuple[bytes, int, int, list[int], bytes]]:
    """The miptex entries of a TEXTURES lump, read here: (name, width, height, mip offsets,
    the bytes from the entry to the next distinct offset)."""
    count = struct.unpack_from("<i", lump)[0]
    offsets = sorted({o for o in struct.unpack_from(f"<{count}i", lump, 4) if o >= 0})
    out = []
    for at, end in zip(offsets, offsets[1:] + [len(lump)]):
        name, width, height, *mips = struct.unpack_from("<16sII4I", lump, at)
        out.append((name, width, height, mips, lump[at:end]))
    return out


def read_wad(data: bytes) -> tuple[bytes, list[tuple[bytes, int, int, bytes]]]:
    """A WAD file read here: its magic and (name, type, compression, bytes) per entry."""
    magic, count, directory = struct.unpack_from("<4sii", data)
    entries = []
    for k in range(count):
        pos, disk, size, kind, comp, _p1, _p2, name = struct.unpack_from(
            "<iiibbbb16s", data, directory + 32 * k)
        assert size == disk
        entries.append((name.rstrip(b"\0"), kind, comp, data[pos:pos + disk]))
    return magic, entries


def embedded(lump: bytes) -> list:
    return [e for e in lump_entries(lump) if any(e[3])]


@needs_corpus
@pytest.mark.parametrize("path", MAPS, ids=_id)
def test_round_trip_and_wad(path, tmp_path):
    original = path.read_bytes()
    with Bsp.open(str(path)) as bsp:
        lump = bsp.read_lump("TEXTURES")
        wad = texwad.extract_wad(bsp)
        magic, entries = read_wad(wad)
        assert magic == (b"WAD3" if path.parent.name == "goldsrc" else b"WAD2")
        want = embedded(lump)
        assert [(e[0].partition(b"\0")[0], 0x43 if magic == b"WAD3" else 0x44, 0, e[4])
                for e in want] == entries
        if path.parent.name == "q1":
            assert len(want) == len(lump_entries(lump))      # Quake 1 maps embed all
        else:
            assert len(want) == EMBEDDING.get(_id(path), 0)
        saved = texwad.unembed(bsp)
        assert saved == sum(len(e[4]) - 40 for e in want)
        bsp.save(str(tmp_path / "out.bsp"))
    with Bsp.open(str(tmp_path / "out.bsp")) as bsp:
        light = bsp.read_lump("TEXTURES")
        assert len(light) == len(lump) - saved
        assert not embedded(light)
        assert [e[:3] for e in lump_entries(light)] == [e[:3] for e in lump_entries(lump)]
        names = texwad.embed(bsp, [Wad.parse(wad)])
        assert names == [e[0].partition(b"\0")[0].decode("latin-1") for e in want]
        assert bsp.read_lump("TEXTURES") == lump
        bsp.save(str(tmp_path / "back.bsp"))
    assert path.read_bytes() == original
    with Bsp.open(str(tmp_path / "back.bsp")) as bsp:
        assert bsp.read_lump("TEXTURES") == lump


def _wad_with_size(path, width: int) -> Wad:
    with Bsp.open(str(path)) as bsp:
        wad = Wad.parse(texwad.extract_wad(bsp))
    entry = wad.entries[0]
    entry.data = entry.data[:16] + struct.pack("<I", width) + entry.data[20:]
    return wad


@needs_corpus
def test_embed_refuses_a_wrong_size(tmp_path):
    wad = _wad_with_size(PLAGUE, 64)
    with Bsp.open(str(PLAGUE)) as bsp:
        texwad.unembed(bsp, only=[wad.entries[0].text.upper()])
        before = bsp.read_lump("TEXTURES")
        with pytest.raises(BspError, match="64x"):
            texwad.embed(bsp, [wad])
        assert bsp.read_lump("TEXTURES") == before


@needs_corpus
def test_unembed_only_and_embed_only():
    with Bsp.open(str(PLAGUE)) as bsp:
        lump = bsp.read_lump("TEXTURES")
        wad = Wad.parse(texwad.extract_wad(bsp))
        first, second = (e.text for e in wad.entries[:2])
        saved = texwad.unembed(bsp, only=[first, second])
        assert [e[0].partition(b"\0")[0].decode() for e in embedded(bsp.read_lump("TEXTURES"))
                ] == [e.text for e in wad.entries[2:]]
        assert saved == len(wad.entries[0].data) + len(wad.entries[1].data) - 80
        assert texwad.embed(bsp, [wad], only=[second.lower()]) == [second]
        assert texwad.embed(bsp, [wad]) == [first]
        assert bsp.read_lump("TEXTURES") == lump


@needs_corpus
def test_embed_refuses_the_other_wad_kind():
    with Bsp.open(str(LOBBY)) as bsp:
        wad = Wad.parse(texwad.extract_wad(bsp))
    with Bsp.open(str(PLAGUE)) as bsp, pytest.raises(BspError, match="WAD3"):
        texwad.embed(bsp, [wad])


def test_wad_parse_refuses_bad_files():
    with pytest.raises(BspError, match="not a WAD"):
        Wad.parse(b"PACK" + bytes(8))
    with pytest.raises(BspError, match="outside"):
        Wad.parse(struct.pack("<4sii", b"WAD3", 2, 12))


def _check_pngs(files, lump: bytes, palette_of) -> None:
    from PIL import Image

    want = embedded(lump)
    assert len(files) == len(want)
    for file, (name, width, height, mips, data) in zip(files, want):
        assert file.name == name.partition(b"\0")[0].decode().replace("*", "#") + ".png"
        pixels = data[mips[0]:mips[0] + width * height]
        colours = palette_of(data, width, height)
        with Image.open(file) as image:
            assert image.size == (width, height)
            rgb = image.convert("RGB").tobytes()
        assert rgb == b"".join(colours[3 * p:3 * p + 3] for p in pixels)


@needs_corpus
def test_export_goldsrc_uses_each_palette(tmp_path):
    with Bsp.open(str(PLAGUE)) as bsp:
        files = texwad.export_png(bsp, tmp_path / "png")
        lump = bsp.read_lump("TEXTURES")

    def own_palette(data: bytes, width: int, height: int) -> bytes:
        end = 40 + sum((width >> k) * (height >> k) for k in range(4))
        assert struct.unpack_from("<H", data, end)[0] == 256
        return data[end + 2:end + 2 + 768]
    _check_pngs(files, lump, own_palette)


@needs_corpus
def test_export_quake_needs_a_palette(tmp_path):
    palette = bytes((i * 7 + c * 85) % 256 for i in range(256) for c in range(3))
    path = CORPUS / "q1" / "librequake_lqdm4_a8_dirtypad.bsp"
    with Bsp.open(str(path)) as bsp:
        with pytest.raises(BspError, match="palette.lmp"):
            texwad.export_png(bsp, tmp_path / "none")
        assert not (tmp_path / "none").exists()
        files = texwad.export_png(bsp, tmp_path / "png", palette=palette)
        _check_pngs(files, bsp.read_lump("TEXTURES"), lambda *_: palette)


def test_png_name():
    assert texwad.png_name("*water1") == "#water1"
    assert texwad.png_name("a/b:c") == "a_b_c"


def _run_verb(*argv: str) -> argparse.Namespace:
    """Run a `tex` WAD verb in this process (the `tex` group registers them through
    `add_wad_verbs`)."""
    from bspedit.cli.common import check_target
    from bspedit.cli.report import Report
    from bspedit.cli.tex_wad import add_wad_verbs

    parser = argparse.ArgumentParser()
    add_wad_verbs(parser.add_subparsers(dest="verb", required=True))
    args = parser.parse_args(argv)
    args.report = Report(verb=f"tex {args.verb}")
    check_target(args)
    assert args.run(args) == 0
    return args


@needs_corpus
def test_verbs_round_trip(tmp_path, capsys):
    wad, light, back = tmp_path / "m.wad", tmp_path / "light.bsp", tmp_path / "back.bsp"
    with Bsp.open(str(PLAGUE)) as bsp:
        lump = bsp.read_lump("TEXTURES")
    args = _run_verb("extract", str(PLAGUE), "-o", str(wad))
    assert read_wad(wad.read_bytes())[0] == b"WAD3"
    assert len(args.report.result["textures"]) == 5
    args = _run_verb("unembed", str(PLAGUE), "-o", str(light))
    with Bsp.open(str(light)) as bsp:
        assert len(bsp.read_lump("TEXTURES")) == len(lump) - args.report.result["bytes_saved"]
    dry = _run_verb("embed", str(light), str(wad), "--dry-run")
    assert not dry.report.result["save"]["written"]
    args = _run_verb("embed", str(light), str(wad), "-o", str(back))
    assert len(args.report.result["embedded"]) == 5
    with Bsp.open(str(back)) as bsp:
        assert bsp.read_lump("TEXTURES") == lump
    args = _run_verb("export", str(PLAGUE), str(tmp_path / "png"))
    assert len(args.report.result["files"]) == 5


@needs_corpus
def test_export_verb_reads_the_palette_file(tmp_path):
    palette = tmp_path / "palette.lmp"
    palette.write_bytes(bytes(range(256)) * 3)
    args = _run_verb("export", str(LOBBY), str(tmp_path / "png"), "--palette", str(palette))
    assert len(args.report.result["files"]) == 1
    palette.write_bytes(bytes(10))
    with pytest.raises(BspError, match="768"):
        _run_verb("export", str(LOBBY), str(tmp_path / "png2"), "--palette", str(palette))


@needs_corpus
def test_cli_tex_unembed():
    from bspedit.cli import COMMANDS

    if "tex" not in COMMANDS:
        pytest.skip("the tex verb group is not registered yet")
    done = run_cli("tex", "unembed", PLAGUE, "--dry-run", "--json")
    assert done.returncode == 0, done.stderr
    assert '"bytes_saved": 245578' in done.stdout


@needs_corpus
def test_verbs_warn_of_unknown_only_names(tmp_path):
    args = _run_verb("unembed", str(PLAGUE), "--only", "zm_001,nosuch", "-o",
                     str(tmp_path / "l.bsp"))
    assert any("nosuch" in w for w in args.report.warnings)
    assert not any("zm_001" in w for w in args.report.warnings)
