"""`bspedit patch --plugin-output` against Stripper:Source's own output (issue 20).

../shared/stripper-conformance (skipped without it) holds the plugin's output, from its own
parser.cpp built against PCRE2 and from its 2022 release linked with PCRE 7.9, for minimal
reproducers (`repro/`: each is a test here for both, through the CLI with `--pcre 2` and
`--pcre 1`, with the plugin's full text as the expected bytes) and for 4,810 (map, configs)
cases (`cases.jsonl`): all of them run here in both modes, in-process, through
bench/stripper_conformance.py, which prints the same counts per set.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

import synthetic
from conftest import run_cli

pytestmark = pytest.mark.full      # fuzzing and conformance sets: `pytest --full` (CI)

ROOT = Path(__file__).resolve().parents[1]
CONFORMANCE = ROOT.parent / "shared" / "stripper-conformance"
REPRO = sorted(CONFORMANCE.glob("repro/*/config.cfg"))


def _repro_params() -> list:
    if not REPRO:
        return [pytest.param(None, 2, marks=pytest.mark.skip(reason="../shared/stripper-conformance absent"))]
    return [pytest.param(p.parent, pcre, id=f"{p.parent.name}-pcre{pcre}") for p in REPRO
            for pcre in (2, 1)]


@pytest.mark.parametrize("case, pcre", _repro_params())
def test_repro_gives_the_plugins_output(case, pcre, write_map, tmp_path):
    text = (case / "entities.ent").read_bytes()
    source = write_map(synthetic.make_map("source", {0: text + b"\0"}))
    out = tmp_path / "out.bsp"
    result = run_cli("patch", source, case / "config.cfg", "--plugin-output", "--force",
                     "--pcre", str(pcre), "-o", out)
    expected = (case / f"plugin-pcre{pcre}.txt").read_bytes()
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
@pytest.mark.parametrize("pcre", [2, 1])
def test_conformance_counts(pcre, capsys):
    bench = _bench()
    counts, listed = bench.run(pcre=pcre)
    with capsys.disabled():
        print(f"\nstripper conformance, --pcre {pcre} against {bench.EXPECTED[pcre]}: "
              + ", ".join(f"{counts['all', kind]} {kind}" for kind in bench.KINDS))
    assert counts["all", "crash"] == 0, listed["crash"][:5]
    assert counts["all", "different"] == 0, listed["different"][:5]
    given = sum(case[bench.EXPECTED[pcre]] is not None for case in bench.cases())
    assert given > 4000 and (counts["all", "identical"], counts["all", "refused"]) == (given, 0)
