"""The real corpus, end to end, compared with the original file lump by lump."""
from __future__ import annotations

import pytest

from bspedit.bsp import Bsp
from bspedit.features.checks import problems
from conftest import corpus_maps, lump_content, run_cli


@pytest.mark.parametrize("path", corpus_maps())
def test_rewrite_is_byte_identical(path, tmp_path):
    out = tmp_path / "out.bsp"
    result = run_cli("rewrite", path, "-o", out)
    assert result.returncode == 0, result.stderr
    assert out.read_bytes() == path.read_bytes()


@pytest.mark.parametrize("path", corpus_maps())
def test_compact_keeps_every_lump_and_verifies(path, tmp_path):
    out = tmp_path / "compact.bsp"
    with Bsp.open(path) as original:
        original.save(out, "compact")
        with Bsp.open(out, check=False) as compact:
            assert problems(compact) == []
            assert compact.header.version == original.header.version
            assert compact.header.revision == original.header.revision
            for lump in original.lumps:
                new = compact.lumps[lump.index]
                assert (new.version, new.fourcc) == (lump.version, lump.fourcc)
                assert lump_content(compact, lump.index) == lump_content(original, lump.index)
            offsets = sorted(l.offset for l in compact.lumps if l.length)
            assert all(o % 4 == 0 for o in offsets)


@pytest.mark.parametrize("path", corpus_maps())
def test_verify_accepts_every_corpus_map(path):
    result = run_cli("verify", path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith(f"{path}: OK")


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_lump_t_order_matches_the_manifest(path):
    with Bsp.open(path) as bsp:
        expected = "l4d2" if path.name.startswith("ths_l4d2") else "standard"
        assert bsp.header.lump_order == expected


@pytest.mark.parametrize("path", corpus_maps())
def test_info_json_describes_every_lump(path):
    import json
    result = run_cli("info", path, "--json")
    assert result.returncode == 0, result.stderr
    facts = json.loads(result.stdout)["result"]
    with Bsp.open(path) as bsp:
        assert [l["offset"] for l in facts["lumps"]] == [l.offset for l in bsp.lumps]
        assert [l["length"] for l in facts["lumps"]] == [l.length for l in bsp.lumps]
        covered = bsp.header.size + sum(l.length for l in bsp.lumps if l.length) + \
            sum(g["length"] for g in facts["gaps"])
        assert covered == bsp.size == path.stat().st_size
