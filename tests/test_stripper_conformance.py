"""`bspedit patch --plugin-output` against Stripper:Source's own output (issue 20).

../shared/stripper-conformance (skipped without it) holds the plugin's output, from its own
parser.cpp built against PCRE2, for minimal reproducers (`repro/`: each is a test here, through
the CLI, with the plugin's full text as the expected bytes) and for 4,810 (map, configs) cases
(`cases.jsonl`): all of them run here, in-process, through bench/stripper_conformance.py,
which prints the same counts per set.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

import synthetic
from conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]
CONFORMANCE = ROOT.parent / "shared" / "stripper-conformance"
REPRO = sorted(CONFORMANCE.glob("repro/*/config.cfg"))


def _repro_params() -> list:
    if not REPRO:
        return [pytest.param(None, marks=pytest.mark.skip(reason="../shared/stripper-conformance absent"))]
    return [pytest.param(p.parent, id=p.parent.name) for p in REPRO]


@pytest.mark.parametrize("case", _repro_params())
def test_repro_gives_the_plugins_output(case, write_map, tmp_path):
    text = (case / "entities.ent").read_bytes()
    source = write_map(synthetic.make_map("source", {0: text + b"\0"}))
    out = tmp_path / "out.bsp"
    result = run_cli("patch", source, case / "config.cfg", "--plugin-output", "--force", "-o", out)
    expected = (case / "plugin-pcre2.txt").read_bytes()
    if result.returncode == 1 and "nothing matched" in result.stderr:
        assert text == expected        # the plugin's text is the map's: nothing to write
        return
    assert result.returncode == 0, result.stderr
    assert _entity_text(out) == expected + b"\0"


def _entity_text(path: Path) -> bytes:
    from bspedit.bsp import Bsp

    with Bsp.open(path) as bsp:
        return bsp.read_lump(bsp.family.entities)


def _bench():
    spec = importlib.util.spec_from_file_location("stripper_conformance",
                                                  ROOT / "bench" / "stripper_conformance.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not (CONFORMANCE / "cases.jsonl").exists(),
                    reason="../shared/stripper-conformance absent")
def test_conformance_counts(capsys):
    counts, listed = _bench().run()
    with capsys.disabled():
        print("\nstripper conformance: " + ", ".join(f"{counts['all', kind]} {kind}"
                                                    for kind in ("identical", "different",
                                                                 "refused", "crash")))
    assert counts["all", "crash"] == 0, listed["crash"][:5]
    assert counts["all", "different"] == 0, listed["different"][:5]
    assert (counts["all", "identical"], counts["all", "refused"]) == (4810, 0)
