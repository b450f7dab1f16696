"""`tex list` and `tex rename` (issue 18) on the real corpus: face counts against counts made here
from the raw records, Source names against the string table's bytes, renames that come back to
the original bytes and change only the lumps holding names, refused names, CLI exit codes."""
from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from bspedit.bsp import Bsp
from bspedit.errors import BspError
from bspedit.features.textures import list_textures, rename_textures
from bspedit.format.lzma_lump import decompress, lzma_header
from bspedit.format.names import fold
from conftest import CORPUS, corpus_maps, lump_content, run_cli

# One map per family (names stored uncompressed), and the LZMA Source map.
MAPS = {"q1": "q1/slipgate_b_batt0.bsp", "bsp2": "q1/librequake_lq1m1_bsp2.bsp",
        "goldsrc": "goldsrc/hltopdown_test.bsp", "q2": "q2/opentdm_2box4.bsp",
        "q3": "q3/openarena_oa_ctf2.bsp", "source": "source/sdk2013_sdk_vehicles_v19.bsp"}
LZMA = "source/tf2classified_cp_stronghold_lzma.bsp"
LIMITS = {"q1": 16, "bsp2": 16, "goldsrc": 16, "q2": 32, "q3": 64}
NAME_LUMPS = {"TEXTURES", "TEXINFO", "SHADERS", "TEXDATA_STRING_DATA", "TEXDATA_STRING_TABLE"}


def family_maps(families=MAPS) -> list:
    return [pytest.param(CORPUS / MAPS[f], f, id=f,
                         marks=pytest.mark.skipif(not (CORPUS / MAPS[f]).exists(),
                                                  reason="../shared/corpus not present"))
            for f in families]


def _uses(index: np.ndarray, size: int) -> dict[int, int]:
    """{row: faces} of the valid row indices in `index` (np.unique, not bincount)."""
    index = index[(index >= 0) & (index < size)]
    rows, counts = np.unique(index, return_counts=True)
    return dict(zip(rows.tolist(), counts.tolist()))


def _follow(bsp: Bsp, face_lump: str, face_field: str, lump: str, field: str) -> np.ndarray:
    faces = bsp.records(face_lump)[face_field].astype(np.int64)
    table = bsp.records(lump)[field]
    return table[faces[(faces >= 0) & (faces < len(table))]].astype(np.int64)


def _independent_counts(bsp: Bsp) -> dict[str, int] | dict[int, int]:
    """Faces per texture row counted from the raw records: by row index, or by name (Quake 2)."""
    engine = bsp.family.engine
    if engine in ("quake1", "goldsrc"):
        data = bsp.read_lump("TEXTURES")
        slots = int.from_bytes(data[:4], "little") if len(data) >= 4 else 0
        return _uses(_follow(bsp, "FACES", "texinfo", "TEXINFO", "miptex"), slots)
    if engine == "source":
        return _uses(_follow(bsp, "FACES", "texinfo", "TEXINFO", "texdata"),
                     len(bsp.records("TEXDATA")))
    if engine == "quake3":
        return _uses(bsp.records("SURFACES")["shader_num"].astype(np.int64),
                     len(bsp.records("SHADERS")))
    texinfo = bsp.records("TEXINFO")
    names = [bytes(t).split(b"\0")[0].decode("latin-1") for t in texinfo["texture"]]
    counts: dict[str, int] = dict.fromkeys(names, 0)
    for row, faces in _uses(bsp.records("FACES")["texinfo"].astype(np.int64),
                            len(texinfo)).items():
        counts[names[row]] += faces
    return counts


@pytest.mark.parametrize("path", corpus_maps())
def test_face_counts_agree_with_the_raw_records(path):
    with Bsp.open(path) as bsp:
        rows = list_textures(bsp)
        expected = _independent_counts(bsp)
        key = (lambda r: r.name) if bsp.family.engine == "quake2" else (lambda r: r.index)
    got = {key(r): r.faces for r in rows}
    assert len(got) == len(rows)                # rows are distinct
    assert {k: v for k, v in got.items() if v} == {k: v for k, v in expected.items() if v}
    assert sum(got.values()) > 0


@pytest.mark.parametrize("path", corpus_maps("source"))
def test_source_names_are_the_string_table_strings(path):
    with Bsp.open(path) as bsp:
        data = bsp.read_lump("TEXDATA_STRING_DATA")
        data = decompress(data) if lzma_header(data) else data
        offsets = bsp.records("TEXDATA_STRING_TABLE")["offset"]
        texdata = bsp.records("TEXDATA")
        rows = list_textures(bsp)
    expected = [data[o:data.index(b"\0", o)].decode("latin-1")
                for o in offsets[texdata["name_string_table_id"]].tolist()]
    assert [r.name for r in rows] == expected
    assert [(r.width, r.height) for r in rows] == texdata[["width", "height"]].tolist()


def _pick(bsp: Bsp) -> tuple[str, str]:
    """A used texture name and a new name of the same length no texture has."""
    rows = list_textures(bsp)
    names = {fold(r.name) for r in rows}
    old = next(r.name for r in rows if r.faces and len(r.name) > 1)
    new = next(c for c in (old[:-1] + x for x in "QWZ") if fold(c) not in names)
    return old, new


def _changed(a: Path, b: Path) -> set[str]:
    with Bsp.open(a) as one, Bsp.open(b) as two:
        return {lump.name for lump in one.lumps
                if lump_content(one, lump.index) != lump_content(two, lump.index)}


@pytest.mark.parametrize("path,family", family_maps())
def test_rename_and_back_gives_the_original_bytes(path, family, tmp_path):
    renamed, back = tmp_path / "renamed.bsp", tmp_path / "back.bsp"
    with Bsp.open(path) as bsp:
        old, new = _pick(bsp)
        faces = sum(r.faces for r in list_textures(bsp) if fold(r.name) == fold(old))
        report = rename_textures(bsp, fold(old), new)
        bsp.save(renamed)
    assert report.renamed == [(old, new)] and report.faces == faces
    assert set(report.lumps) <= NAME_LUMPS and report.lumps
    assert _changed(path, renamed) == set(report.lumps)
    with Bsp.open(renamed) as bsp:
        names = [r.name for r in list_textures(bsp)]
        assert new in names and old not in names
        assert rename_textures(bsp, new, old).faces == faces
        bsp.save(back)
    assert back.read_bytes() == path.read_bytes()


@pytest.mark.parametrize("path", [pytest.param(CORPUS / m, id=m.split("/")[0])
                                  for m in (MAPS["source"], LZMA)
                                  if (CORPUS / m).exists()] or
                         [pytest.param(None, marks=pytest.mark.skip(reason="no corpus"))])
def test_source_longer_names_rebuild_the_string_table(path, tmp_path):
    out = tmp_path / "longer.bsp"
    with Bsp.open(path) as bsp:
        before = [r.name for r in list_textures(bsp)]
        old = before[-1]
        report = rename_textures(bsp, old, old + "_A_LONGER_NAME")
        assert report.lumps[0] == "TEXDATA_STRING_DATA"
        bsp.save(out)
        rename_textures(bsp, old + "_a_longer_name", old)     # case-insensitive, and back
        bsp.save(tmp_path / "back.bsp")
    assert (tmp_path / "back.bsp").read_bytes() == path.read_bytes()
    assert _changed(path, out) == set(report.lumps) <= NAME_LUMPS
    with Bsp.open(out) as bsp:
        assert [r.name for r in list_textures(bsp)] == \
            [n + "_A_LONGER_NAME" if n == old else n for n in before]


@pytest.mark.parametrize("path,family", family_maps(LIMITS))
def test_too_long_names_are_refused(path, family, tmp_path):
    copy = tmp_path / "map.bsp"
    shutil.copyfile(path, copy)
    limit = LIMITS[family]
    with Bsp.open(copy) as bsp:
        old, _ = _pick(bsp)
        with pytest.raises(BspError, match=f"at most {limit - 1} "):
            rename_textures(bsp, old, "x" * limit)
        assert rename_textures(bsp, old, "x" * (limit - 1)).renamed
    result = run_cli("tex", "rename", copy, old, "y" * limit, "--in-place")
    assert result.returncode == 2 and f"at most {limit - 1}" in result.stderr
    assert copy.read_bytes() == path.read_bytes()


@pytest.mark.parametrize("path,family", family_maps(["q3"]))
def test_glob_and_regex(path, family):
    with Bsp.open(path) as bsp:
        names = [r.name for r in list_textures(bsp)]
        report = rename_textures(bsp, r"TEXTURES/(\w+)/(.*)", r"t/\2_\1", "regex")
        assert [r.name for r in list_textures(bsp)] == \
            [f"t/{n.split('/', 2)[2]}_{n.split('/')[1]}" if n.count("/") >= 2 and
             n.startswith("textures/") else n for n in names]
        assert report.renamed and rename_textures(bsp, "T/*", "same", "glob").renamed
        assert {r.name for r in list_textures(bsp)} >= {"same"}


@pytest.mark.parametrize("path,family", family_maps(["q2"]))
def test_cli_exit_codes(path, family, tmp_path):
    out = tmp_path / "out.bsp"
    listed = run_cli("tex", "list", path)
    assert listed.returncode == 0 and "e2u3/bmetal12_1" in listed.stdout
    assert run_cli("tex", "rename", path, "nothing/such", "a/b", "-o", out).returncode == 1
    assert not out.exists()
    assert run_cli("tex", "rename", path, "(", "a", "--match", "regex", "-o", out).returncode == 2
    assert run_cli("tex", "rename", path, "E2U3/BMETAL12_1", "a/b").returncode == 2  # no target
    assert not out.exists()
    done = run_cli("tex", "rename", path, "E2U3/BMETAL12_1", "a/b", "-o", out)
    assert done.returncode == 0 and "map checksum" in done.stdout
    assert _changed(path, out) == {"TEXINFO"}


# -- issue 30, item 2: a rename through a longer name and back, in two saves -----------------
TOOLTEXTURES = CORPUS / "source" / "bspsrc_csgo_tooltextures_v21.bsp"
MEASURE = "DEV/DEV_MEASUREGENERIC01B"
LONGER = MEASURE + "_LONGERNAM"                 # 35 characters
needs_tooltextures = pytest.mark.skipif(not TOOLTEXTURES.exists(),
                                        reason="../shared/corpus not present")


def _canonical(bsp: Bsp) -> bool:
    """The string data is what vbsp writes: the table's strings in its order, each once."""
    data = bsp.read_lump("TEXDATA_STRING_DATA")
    offsets = bsp.records("TEXDATA_STRING_TABLE")["offset"].tolist()
    starts = [0]
    for piece in data.split(b"\0")[:-1]:
        starts.append(starts[-1] + len(piece) + 1)
    return offsets == starts[:-1] and starts[-1] == len(data)


def _rename_twice(path: Path, first: list, second: list) -> None:
    for words in (first, second):
        result = run_cli("tex", "rename", path, *words)
        assert result.returncode == 0, result.stderr
        path = Path(words[-1]) if words[-2] == "-o" else path


@needs_tooltextures
def test_source_rename_through_a_longer_name_and_back_restores_every_lump(tmp_path):
    """The issue's reproducer: the string data grows, moves to the end of the file, and comes
    back to its original bytes (the map's string data is canonical, and stays so)."""
    renamed, back = tmp_path / "renamed.bsp", tmp_path / "back.bsp"
    assert len(LONGER) == 35
    _rename_twice(TOOLTEXTURES, [MEASURE, LONGER, "-o", renamed],
                  [LONGER, MEASURE, "-o", back])
    with Bsp.open(TOOLTEXTURES) as original, Bsp.open(renamed) as longer, \
            Bsp.open(back) as again:
        assert _canonical(original) and _canonical(longer) and _canonical(again)
        assert len(longer.read_lump("TEXDATA_STRING_DATA")) == \
            len(original.read_lump("TEXDATA_STRING_DATA")) + 10
        assert [again.read_lump(lump.index) for lump in again.lumps] == \
            [original.read_lump(lump.index) for lump in original.lumps]
        assert [l.offset for l in longer.lumps if l.name == "TEXDATA_STRING_DATA"] == [118236]


@needs_tooltextures
def test_source_rename_through_a_longer_name_and_back_gives_the_file_back_with_o(tmp_path):
    renamed, back = tmp_path / "renamed.bsp", tmp_path / "back.bsp"
    _rename_twice(TOOLTEXTURES, [MEASURE, LONGER, "-o", renamed],
                  [LONGER, MEASURE, "-o", back])
    assert back.stat().st_size == TOOLTEXTURES.stat().st_size      # was 119,064 bytes
    assert back.read_bytes() == TOOLTEXTURES.read_bytes()


@needs_tooltextures
def test_source_rename_through_a_longer_name_and_back_gives_the_file_back_in_place(tmp_path):
    copy = tmp_path / "map.bsp"
    shutil.copyfile(TOOLTEXTURES, copy)
    copy.chmod(0o644)
    _rename_twice(copy, [MEASURE, LONGER, "--in-place"], [LONGER, MEASURE, "--in-place"])
    assert copy.read_bytes() == TOOLTEXTURES.read_bytes()


@needs_tooltextures
def test_source_rename_through_a_longer_name_and_back_in_one_session(tmp_path):
    out = tmp_path / "back.bsp"
    with Bsp.open(TOOLTEXTURES) as bsp:
        rename_textures(bsp, MEASURE, LONGER)
        rename_textures(bsp, LONGER, MEASURE)
        bsp.save(out)
    assert out.read_bytes() == TOOLTEXTURES.read_bytes()


def _longest(old: str, limit: int | None) -> str:
    return (old + "_" + "L" * 80)[:(limit or 48) - 1]


@pytest.mark.parametrize("path,family", family_maps(["q1", "bsp2", "q2", "q3", "source"]))
def test_every_family_comes_back_through_the_longest_name(path, family, tmp_path):
    """Through a name as long as the field holds (Source: longer than any), in two saves."""
    renamed, back = tmp_path / "renamed.bsp", tmp_path / "back.bsp"
    with Bsp.open(path) as bsp:
        old, _ = _pick(bsp)
    new = _longest(old, LIMITS.get(family))
    _rename_twice(path, [old, new, "-o", renamed], [new, old, "-o", back])
    with Bsp.open(path) as original, Bsp.open(back) as again:
        assert [lump_content(again, lump.index) for lump in again.lumps] == \
            [lump_content(original, lump.index) for lump in original.lumps]
    if family != "source":              # a Source name that grew moved its lump (see above)
        assert back.read_bytes() == path.read_bytes()


@pytest.mark.parametrize("path,family", family_maps(["goldsrc"]))
def test_goldsrc_names_lose_the_compilers_fill_they_were_written_over(path, family, tmp_path):
    """hltopdown_test's miptex names carry stale bytes after their NUL (`c1a0_wx\\0ign\\0\\08`):
    a longer name writes over them, so the name back ends in zeros there; nothing else moves."""
    renamed, back = tmp_path / "renamed.bsp", tmp_path / "back.bsp"
    old = "c1a0_wx"
    new = _longest(old, 16)
    _rename_twice(path, [old, new, "-o", renamed], [new, old, "-o", back])
    original, again = path.read_bytes(), back.read_bytes()
    assert len(original) == len(again)
    changed = [n for n, (a, b) in enumerate(zip(original, again)) if a != b]
    field = original.index(b"c1a0_wx\0")
    assert changed and all(field + len(old) < n < field + 16 for n in changed)
    assert all(again[n] == 0 for n in changed)
