"""Resource caps a user can raise: decompressed lump size, entity text size, pak extraction
size. A bomb over the cap is a BspError (CLI: one line, exit 2); raising the cap lets it through."""
from __future__ import annotations

import pytest

import fuzzing
import synthetic
from bspedit.bsp import Bsp
from bspedit.cli import main
from bspedit.lumps.entities import EntityLump
from bspedit.errors import BspError
from bspedit.limits import LIMITS, Limits, caps, format_size, parse_size
from bspedit.format.lzma_lump import compress, decompress
from test_fuzz_cli import assert_one_line, bspedit

MIB = 1 << 20
# 2 MiB of entity text that LZMA packs into a few kilobytes: a small bomb.
BIG_TEXT = b'{\n"classname" "worldspawn"\n"message" "' + b"x" * (2 * MIB) + b'"\n}\n\x00'


@pytest.mark.parametrize("text, size", [("4096", 4096), ("512K", 512 << 10), ("64M", 64 * MIB),
                                        ("2G", 2 << 30), ("1T", 1 << 40), ("2GiB", 2 << 30),
                                        ("512mb", 512 * MIB), (" 3k ", 3072)])
def test_sizes_parse(text, size):
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "2X", "-1", "1.5G", "G", "12 M B"])
def test_bad_sizes_are_refused(text):
    with pytest.raises(ValueError, match="not a size"):
        parse_size(text)


def test_sizes_print_in_the_largest_unit():
    assert [format_size(n) for n in (1 << 30, 256 * MIB, 4 << 30, 4097, 0)] == \
        ["1G", "256M", "4G", "4097", "0"]


def test_caps_apply_inside_the_block_only():
    assert LIMITS == Limits()
    with caps(lump_size=5, entity_text=None) as limits:
        assert limits is LIMITS
        assert (LIMITS.lump_size, LIMITS.entity_text) == (5, Limits().entity_text)
    assert LIMITS == Limits()


def test_lzma_bomb_over_the_cap_and_under_a_raised_one():
    bomb = compress(bytes(4 * MIB))
    assert len(bomb) < 4096
    with caps(lump_size=4 * MIB - 1), pytest.raises(BspError, match="limit"):
        decompress(bomb)
    with caps(lump_size=4 * MIB):
        assert decompress(bomb) == bytes(4 * MIB)


def test_entity_text_over_the_cap(tmp_path):
    path = tmp_path / "map.bsp"
    path.write_bytes(synthetic.sample("source"))
    with caps(entity_text=100), Bsp.open(path) as bsp:
        with pytest.raises(BspError, match="ENTITIES.*limit"):
            bsp.entities()
    with caps(entity_text=100), pytest.raises(BspError, match="limit"):
        EntityLump.parse(synthetic.ENTITIES)
    with caps(entity_text=len(synthetic.ENTITIES)):
        assert EntityLump.parse(synthetic.ENTITIES).to_bytes() == synthetic.ENTITIES


def test_cli_lump_and_entity_caps(tmp_path):
    path = tmp_path / "map.bsp"
    path.write_bytes(synthetic.make_map("source", {0: compress(BIG_TEXT)},
                                        fourccs={0: len(BIG_TEXT)}))
    assert path.stat().st_size < 64 << 10
    out = tmp_path / "x.ent"
    refused = bspedit("--max-lump-size", "1M", "ent", "export", str(path), "-o", str(out))
    assert_one_line(refused)
    assert "--max-lump-size" in refused.stderr and not out.exists()
    refused = bspedit("--max-entity-size", "1M", "ent", "export", str(path), "-o", str(out))
    assert_one_line(refused)
    assert "--max-entity-size" in refused.stderr and not out.exists()
    allowed = bspedit("--max-lump-size", "3M", "--max-entity-size", "3M", "ent", "export",
                      str(path), "-o", str(out))
    assert allowed.returncode == 0, allowed.stderr
    assert out.read_bytes() + b"\0" == BIG_TEXT          # plain text: no NUL terminator


def test_cli_extract_cap(tmp_path):
    path = tmp_path / "map.bsp"
    path.write_bytes(fuzzing.PakCase(((b"maps/bomb.bin", MIB, 8, 0),), ()).data())
    folder = tmp_path / "out"
    refused = bspedit("--max-extract-size", "512K", "pak", "extract", str(path), str(folder))
    assert_one_line(refused)
    assert "--max-extract-size" in refused.stderr
    assert not folder.exists() or not any(folder.rglob("*"))
    allowed = bspedit("--max-extract-size", "1M", "pak", "extract", str(path), str(folder))
    assert allowed.returncode == 0, allowed.stderr
    assert (folder / "maps" / "bomb.bin").read_bytes() == bytes(MIB)


def test_help_documents_the_caps(capsys):
    assert main(["--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for option in ("--max-lump-size SIZE", "--max-entity-size SIZE", "--max-extract-size SIZE"):
        assert option in text
    assert "default 1G" in text and "default 256M" in text


def test_main_restores_the_caps(tmp_path, capsys):
    path = tmp_path / "map.bsp"
    path.write_bytes(synthetic.sample("source"))
    assert main(["--max-lump-size", "1K", "--max-entity-size", "1K", "info", str(path)]) == 0
    assert LIMITS == Limits()
