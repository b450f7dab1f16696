"""bspedit.features.lookups (issue 17): face texture names checked by hand in the bytes, one map per
engine; model faces and leaf brushes in range over the corpus."""
from __future__ import annotations

import numpy as np
import pytest

from bspedit.bsp import Bsp
from bspedit.errors import BspError
from bspedit.format.families import FAMILIES
from bspedit.features.lookups import SCHEMES, face_texture, leaf_brushes, model_faces, scheme
from conftest import CONSOLE_MAP, CORPUS, corpus_maps

# Each name was read with `od` from the file, following the engine's structs by hand (lump
# directory entry -> face record -> texinfo/texdata/string table -> name bytes):
#   q1 slipgate_b_batt0: face 0 at FACES 2552 +10 texinfo 0; TEXINFO 2392 +32 miptex 0;
#     TEXTURES 5316: count 2, offset 12 -> "batt0top".
#   goldsrc hltopdown_test: face 0 -> texinfo 0 -> miptex 1 (offset 56) "c1a0_wx" (then NUL
#     and leftover bytes "ign"); face 29 -> texinfo 8 -> miptex 0 (offset 16) "c1a0_labflrc".
#   q2 opentdm_kduel5: face 0 -> texinfo 413 (76-byte records, name at +40) "e1u1/box3_3";
#     face 2 -> texinfo 690 "q3_gothic/yogi_darkbrick_7".
#   q3 openarena_am_galmevish: surface 0 (SURFACES, 104-byte records) shader 1 ->
#     SHADERS +72 "textures/skies/nitesky"; surface 1 shader 2 "textures/e7/e7sbrickfloor".
#   source portalmp_background01: face 0 (+10) texinfo 8 (+68) texdata 6 (+12) string 6 ->
#     TEXDATA_STRING_TABLE offset 175 -> "SIGNAGE/HAZARD_ORANGE_03B"; face 2 -> texinfo 4 ->
#     texdata 3 -> string 3 -> offset 92 -> "CONCRETE/CONCRETE_MODULAR_WALL001A".
HAND_CHECKED = {
    "q1/slipgate_b_batt0.bsp": {0: "batt0top"},
    "goldsrc/hltopdown_test.bsp": {0: "c1a0_wx", 29: "c1a0_labflrc"},
    "q2/opentdm_kduel5.bsp": {0: "e1u1/box3_3", 2: "q3_gothic/yogi_darkbrick_7"},
    "q3/openarena_am_galmevish.bsp": {0: "textures/skies/nitesky",
                                      1: "textures/e7/e7sbrickfloor"},
    "source/portalmp_background01.bsp": {0: "SIGNAGE/HAZARD_ORANGE_03B",
                                         2: "CONCRETE/CONCRETE_MODULAR_WALL001A"},
}


def _corpus(name: str):
    path = CORPUS / name
    if not path.exists():
        pytest.skip("corpus not present")
    return path


def test_every_engine_has_a_scheme():
    assert {f.engine for f in FAMILIES} == set(SCHEMES)


@pytest.mark.parametrize("name", sorted(HAND_CHECKED))
def test_face_texture_matches_names_checked_by_hand(name):
    with Bsp.open(_corpus(name)) as bsp:
        for face, texture in HAND_CHECKED[name].items():
            assert face_texture(bsp, face) == texture


def test_a_miptex_left_out_has_no_name():
    """LibreQuake lq1m1's TEXTURES directory holds offset -1 for miptex 4 (read with `od`:
    the fifth int32 after the count); its faces get "" as the engines draw a checkerboard.
    Face 0 (BSP2 face +16 texinfo 0, miptex 17, offset 120852) is "t_blok05", also by `od`."""
    with Bsp.open(_corpus("q1/librequake_lq1m1_bsp2.bsp")) as bsp:
        textures = bsp.read_lump("TEXTURES")
        assert np.frombuffer(textures, "<i4", 1, 4 + 4 * 4)[0] == -1
        texinfo = bsp.records("TEXINFO")["miptex"]
        faces = np.flatnonzero(texinfo[bsp.records("FACES")["texinfo"]] == 4)
        assert len(faces)
        assert {face_texture(bsp, int(f)) for f in faces} == {""}
        assert face_texture(bsp, 0) == "t_blok05"


def test_lzma_map_names_match_its_uncompressed_twin():
    lzma = _corpus("source/tf2classified_cp_stronghold_lzma.bsp")
    plain = _corpus("source/tf2classified_cp_stronghold_uncompressed_trailing.bsp")
    with Bsp.open(lzma) as packed, Bsp.open(plain) as unpacked:
        assert packed.read_lump("TEXDATA_STRING_DATA")[:4] == b"LZMA"
        count = len(unpacked.records("FACES"))
        names = [face_texture(packed, f) for f in range(count)]
        assert names == [face_texture(unpacked, f) for f in range(count)]
        assert len(set(names)) > 5


@pytest.mark.parametrize("path", corpus_maps())
def test_every_face_has_a_name_and_models_their_faces(path):
    with Bsp.open(path) as bsp:
        faces = len(bsp.records(scheme(bsp).faces))
        names = {face_texture(bsp, f) for f in range(faces)}
        assert all(n.isprintable() for n in names)
        assert "" not in names or path.name == "librequake_lq1m1_bsp2.bsp"
        models = len(bsp.records("MODELS"))
        ranges = [model_faces(bsp, m) for m in range(models)]
        assert all(0 <= r.start and r.stop <= faces for r in ranges)
        assert ranges[0].start == 0          # the world model's faces come first
        if faces:
            with pytest.raises(BspError, match=f"no record {faces}"):
                face_texture(bsp, faces)


@pytest.mark.parametrize("path", corpus_maps())
def test_leaf_brushes_are_brushes(path):
    with Bsp.open(path) as bsp:
        leaves = len(bsp.records("LEAFS"))
        if scheme(bsp).leaf_brushes is None:
            with pytest.raises(BspError, match=f"{bsp.family.key} maps have no brushes"):
                leaf_brushes(bsp, 0)
            return
        brushes = len(bsp.records("BRUSHES"))
        seen = np.concatenate([leaf_brushes(bsp, leaf) for leaf in range(leaves)])
        assert len(seen) and seen.min() >= 0 and seen.max() < brushes
        assert not leaf_brushes(bsp, leaves - 1).flags.writeable


def test_leaf_brushes_follow_the_leaf_record():
    with Bsp.open(_corpus("q2/opentdm_kduel5.bsp")) as bsp:
        leaf = bsp.records("LEAFS")[1]
        first, count = int(leaf["firstleafbrush"]), int(leaf["numleafbrushes"])
        raw = bsp.read_lump("LEAFBRUSHES")[2 * first:2 * (first + count)]
        assert leaf_brushes(bsp, 1).tolist() == list(np.frombuffer(raw, "<u2"))
        assert count == 15


@pytest.mark.skipif(not CONSOLE_MAP.exists(), reason="../shared/corpus-console not present")
def test_hdr_only_maps_route_faces_through_faces_hdr():
    """The Xbox 360 map stores its faces only in FACES_HDR: lookups and `tex list` use it."""
    from bspedit.features.textures import list_textures

    with Bsp.open(CONSOLE_MAP) as bsp:
        assert bsp.lumps[bsp.lump_index("FACES")].length == 0
        faces = bsp.records("FACES_HDR")
        rows = list_textures(bsp)
        names = {row.name for row in rows}
        for face in (0, len(faces) // 2, len(faces) - 1):
            texdata = bsp.records("TEXINFO")[faces[face]["texinfo"]]["texdata"]
            assert face_texture(bsp, face) == rows[texdata].name
        assert sum(row.faces for row in rows) == len(faces) and names
