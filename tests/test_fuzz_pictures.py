"""`render` and `lightmaps` on real maps with one lump damaged (issue 41): every 5th or 7th byte
of a lump inverted or zeroed, or the file cut halfway through the lump. Every picture command
(each colour mode as PNG and SVG, the minimap, a CS:GO radar, lightmaps) exits 0, 1 or 2, never
3, in one line when it writes nothing (fuzzing.check_pictures). The plain run takes a few maps'
lumps that held internal errors, every command on each; `--full` sweeps every damage of every
lump of every corpus map, one command each in turn (all nine on each took CI half an hour;
`python bench/fuzz.py --target pictures` samples every command on the same cases at random)."""
from __future__ import annotations

import itertools

import fuzzing
import pytest
from conftest import CORPUS, CORPUS_MAPS

needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus not present")

#: lumps of small maps of each family the sample damages: where the records render reads are
SAMPLE = {"q1/slipgate_b_batt0.bsp": ("PLANES", "NODES", "FACES"),
          "goldsrc/hltopdown_test.bsp": ("VERTEXES", "LEAFS"),
          "q2/bsptool_q2_mp_lobby.bsp": ("PLANES", "BRUSHSIDES"),
          "q3/bsptool_q3_test_bigbox.bsp": ("SURFACES", "DRAWVERTS", "LIGHTMAPS"),
          "source/bspsrc_csgo_tooltextures_v21.bsp": ("FACES", "TEXINFO")}


def _cases(name: str, lumps: tuple[str, ...]) -> list[fuzzing.LumpDamage]:
    import bspedit

    with bspedit.open(CORPUS / name) as bsp:
        wanted = {bsp.lump_index(lump) for lump in lumps}
    return [case for case in fuzzing.lump_damages(name) if case.lump in wanted]


@needs_corpus
@pytest.mark.parametrize("name", sorted(SAMPLE))
def test_damaged_lumps_of_a_few_maps(name, tmp_path):
    outcomes = fuzzing.run_picture_cases(_cases(name, SAMPLE[name]), tmp_path)
    assert len(outcomes) == 5 * len(SAMPLE[name])
    assert "drawn" in outcomes or "nothing drawn" in outcomes


@pytest.mark.full
@pytest.mark.parametrize("path", CORPUS_MAPS, ids=[f"{p.parent.name}/{p.stem}"
                                                   for p in CORPUS_MAPS])
def test_every_lump_of_every_corpus_map(path, tmp_path):
    """The whole sweep: each lump's five damages in one child process, one command each."""
    name = f"{path.parent.name}/{path.name}"
    cases = fuzzing.lump_damages(name)
    for _, group in itertools.groupby(cases, key=lambda case: case.lump):
        fuzzing.run_picture_cases(list(group), tmp_path, rotate=True)
