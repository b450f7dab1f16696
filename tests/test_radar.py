"""`render --radar css|csgo [--pack]`: the overview files Counter-Strike reads. The `.txt` and the
DDS, VTF and BSP headers are read with struct in this file; the world's bounds come from the
bytes of the vertices the faces use; packed entries are read back with zipfile."""
from __future__ import annotations

import io
import re
import shutil
import struct
import zipfile
from pathlib import Path

import numpy as np
import pytest
from conftest import CORPUS, CORPUS_MAPS

import bspedit
from bspedit.cli import invoke
from bspedit.features.render.radar import radar

TOOLS = CORPUS / "source" / "bspsrc_csgo_tooltextures_v21.bsp"     # CS:GO, 118 KB
LEVELS = CORPUS / "source" / "valvebsp_testmap.bsp"                # rooms above rooms
QUAKE3 = CORPUS / "q3" / "bspconvert_test_nonsolid_patch.bsp"


def need(*paths: Path) -> None:
    if not all(p.exists() for p in paths):
        pytest.skip("../shared/corpus not present")


def render(*argv: object) -> tuple[int, str]:
    report = invoke(["render", *map(str, argv)], capture=True)
    return report.code, report.stderr


def source_lumps(data: bytes) -> list[tuple[int, int]]:
    """(offset, length) of the 64 lumps of a VBSP header (lump_t: offset, length, version,
    fourCC)."""
    assert data[:4] == b"VBSP"
    return [struct.unpack_from("<2i", data, 8 + 16 * i) for i in range(64)]


def vertex_bounds(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """The box of the vertices the world's faces use (MODELS 0 -> FACES -> SURFEDGES ->
    EDGES -> VERTEXES; a VERTEXES lump also holds the original faces' corners, which nothing
    draws, and brush entities' in model space), displaced faces left out (their
    displacement is drawn instead)."""
    data = path.read_bytes()
    lumps = source_lumps(data)

    def lump(number: int, dtype: np.dtype | str) -> np.ndarray:
        offset, length = lumps[number]
        return np.frombuffer(data, dtype, length // np.dtype(dtype).itemsize, offset)

    face = np.dtype([("planenum", "<u2"), ("side", "u1"), ("on_node", "u1"),
                     ("firstedge", "<i4"), ("numedges", "<i2"), ("texinfo", "<i2"),
                     ("dispinfo", "<i2"), ("rest", "V42")])                        # 56 bytes
    first, count = lump(14, "<i4")[10:12]               # dmodel_t 0: firstface, numfaces
    faces = lump(7, face)[first:first + count]
    faces = faces[faces["dispinfo"] == -1]
    edges, surfedges = lump(12, "<u2").reshape(-1, 2), lump(13, "<i4")
    used = np.concatenate([surfedges[f:f + n] for f, n in zip(faces["firstedge"],
                                                               faces["numedges"])])
    vertex = np.where(used >= 0, edges[np.abs(used), 0], edges[np.abs(used), 1])
    points = lump(3, "<f4").reshape(-1, 3)[vertex]
    return points.min(axis=0), points.max(axis=0)


def keyvalues(text: str) -> dict[str, str]:
    """Every "key" "value" pair of the overview file (later sections win; none repeat)."""
    return dict(re.findall(r'"([^"]+)"\s+"([^"]*)"', text))


def dds_header(data: bytes) -> tuple[bytes, int, int, bytes]:
    magic = data[:4]
    size, _flags, height, width = struct.unpack_from("<4I", data, 4)
    assert size == 124
    return magic, width, height, data[84:88]


def test_csgo_txt_maps_the_dds_corners_to_the_world_bounds(tmp_path):
    need(TOOLS)
    out = tmp_path / "radar"
    code, err = render(TOOLS, "--radar", "csgo", "-o", out)
    assert code == 0, err
    name = TOOLS.stem
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert files == [f"resource/overviews/{name}.txt", f"resource/overviews/{name}_radar.dds"]
    text = (out / "resource/overviews" / f"{name}.txt").read_text()
    assert text.startswith(f'"{name}"\n{{')
    values = keyvalues(text)
    assert values["material"] == f"overviews/{name}" and "verticalsections" not in text
    pos_x, pos_y, scale = (float(values[k]) for k in ("pos_x", "pos_y", "scale"))
    data = (out / "resource/overviews" / f"{name}_radar.dds").read_bytes()
    assert dds_header(data) == (b"DDS ", 1024, 1024, b"DXT5")
    low, high = vertex_bounds(TOOLS)
    # the top-left corner is (pos_x, pos_y); a pixel is `scale` units
    assert pos_x <= low[0] and pos_x + 1024 * scale >= high[0]
    assert pos_y >= high[1] and pos_y - 1024 * scale <= low[1]
    assert 1024 * scale <= 1.2 * max(high[0] - low[0], high[1] - low[1]) + 4     # snug
    from PIL import Image

    rgba = np.asarray(Image.open(io.BytesIO(data)).convert("RGBA"))
    assert rgba[0, 0, 3] == 0 and rgba[-1, -1, 3] == 0          # transparent outside
    assert (rgba[..., 3] == 255).mean() > 0.05                  # the map drawn


def test_csgo_levels_one_picture_per_vertical_section(tmp_path):
    need(LEVELS)
    out = tmp_path / "radar"
    code, err = render(LEVELS, "--radar", "csgo", "-o", out, "--json")
    assert code == 0, err
    name = LEVELS.stem
    text = (out / "resource/overviews" / f"{name}.txt").read_text()
    sections = re.search(r'"verticalsections"\s*\{(.*)\}\s*\}', text, re.DOTALL)
    assert sections, text
    found = {name: (top, bottom) for name, top, bottom in re.findall(
        r'"(\w+)"\s*\{\s*"AltitudeMax"\s*"([-\d.]+)"\s*"AltitudeMin"\s*"([-\d.]+)"',
        sections.group(1))}
    assert sorted(found) == ["default", "lower"]
    assert found["default"][1] == found["lower"][0]             # one split height
    low, high = vertex_bounds(LEVELS)
    assert float(found["lower"][1]) <= low[2] and float(found["default"][0]) >= high[2]
    assert low[2] < float(found["default"][1]) < high[2]
    for dds in (f"{name}_radar.dds", f"{name}_lower_radar.dds"):
        data = (out / "resource/overviews" / dds).read_bytes()
        assert dds_header(data) == (b"DDS ", 1024, 1024, b"DXT5")


def test_css_writes_the_vtf_and_vmt_the_game_reads(tmp_path):
    need(TOOLS)
    out = tmp_path / "radar"
    assert render(TOOLS, "--radar", "css", "-o", out)[0] == 0
    name = TOOLS.stem
    values = keyvalues((out / "resource/overviews" / f"{name}.txt").read_text())
    assert values["material"] == f"overviews/{name}"
    vmt = (out / "materials/overviews" / f"{name}.vmt").read_text()
    assert vmt.startswith('"UnlitGeneric"') and f'"$basetexture"\t"overviews/{name}"' in vmt
    vtf = (out / "materials/overviews" / f"{name}.vtf").read_bytes()
    assert vtf[:4] == b"VTF\0" and struct.unpack_from("<2I", vtf, 4) == (7, 2)
    width, height = struct.unpack_from("<2H", vtf, 16)
    image_format = struct.unpack_from("<i", vtf, 52)[0]
    assert (width, height, image_format) == (1024, 1024, 12)         # BGRA8888
    assert len(vtf) >= 1024 * 1024 * 4
    dds = (out / "resource/overviews" / f"{name}_radar.dds").read_bytes()
    assert dds_header(dds)[:3] == (b"DDS ", 1024, 1024)


def test_pack_adds_exactly_the_radar_files_and_changes_nothing_else(tmp_path):
    need(TOOLS)
    folder, packed = tmp_path / "radar", tmp_path / "packed.bsp"
    # the files are named for the output map (--name: the same for the folder)
    assert render(TOOLS, "--radar", "csgo", "-o", folder, "--name", "packed")[0] == 0
    code, err = render(TOOLS, "--radar", "csgo", "--pack", "-o", packed)
    assert code == 0, err
    before, after = TOOLS.read_bytes(), packed.read_bytes()
    old_lumps, new_lumps = source_lumps(before), source_lumps(after)
    for index, ((o1, n1), (o2, n2)) in enumerate(zip(old_lumps, new_lumps)):
        if index != 40:
            assert before[o1:o1 + n1] == after[o2:o2 + n2], index
    old_zip = zipfile.ZipFile(io.BytesIO(before[old_lumps[40][0]:sum(old_lumps[40])]))
    new_zip = zipfile.ZipFile(io.BytesIO(after[new_lumps[40][0]:sum(new_lumps[40])]))
    radar_files = {p.relative_to(folder).as_posix(): p.read_bytes()
                   for p in folder.rglob("*") if p.is_file()}
    assert set(new_zip.namelist()) == set(old_zip.namelist()) | set(radar_files)
    for name in old_zip.namelist():
        assert new_zip.read(name) == old_zip.read(name)
    for name, data in radar_files.items():
        assert new_zip.read(name) == data
    # --in-place on a copy of that name: the same entries; with --dry-run first, nothing
    # written
    copy = tmp_path / "in_place" / "packed.bsp"
    copy.parent.mkdir()
    shutil.copyfile(TOOLS, copy)
    dry = invoke(["render", str(copy), "--radar", "csgo", "--pack", "--in-place", "--dry-run"],
                 capture=True)
    assert dry.code == 0 and copy.read_bytes() == before
    assert dry.envelope()["result"]["save"]["written"] is False
    assert "pakfile" in " ".join(dry.envelope()["result"]["save"]["changed"]).lower()
    assert render(copy, "--radar", "csgo", "--pack", "--in-place")[0] == 0
    with bspedit.open(copy) as bsp:
        names = {e.name for e in bsp.pakfile.entries}
    assert set(radar_files) <= names


def test_careless_users(tmp_path):
    need(TOOLS, QUAKE3)
    copy = tmp_path / TOOLS.name
    shutil.copyfile(TOOLS, copy)
    original = copy.read_bytes()
    cases = [
        ((QUAKE3, "--radar", "csgo", "--pack", "-o", tmp_path / "q3.bsp"), "pakfile"),
        ((copy, "--radar", "csgo", "--pack"), "-o OUT.bsp or --in-place"),
        ((copy, "--radar", "csgo", "--pack", "-o", copy), "input map"),
        ((copy, "--radar", "csgo"), "-o DIR"),
        ((copy, "--radar", "csgo", "-o", "-"), "-o DIR"),
        ((copy, "--radar", "cs2", "-o", tmp_path / "r"), "invalid choice"),
        ((copy, "--radar", "csgo", "--size", "512", "-o", tmp_path / "r"), "1024"),
        ((copy, "--in-place", "-o", tmp_path / "r.png"), "--radar"),
        ((copy, "--pack", "-o", tmp_path / "r.bsp"), "--radar"),
        ((copy, "--radar", "csgo", "--dry-run", "-o", tmp_path / "r"), "--pack"),
        ((copy, "--dry-run", "-o", tmp_path / "r.png"), "--radar"),
    ]
    for argv, words in cases:
        code, err = render(*argv)
        assert code == 2 and words in err, (argv, err)
    assert copy.read_bytes() == original
    assert not (tmp_path / "q3.bsp").exists() and not (tmp_path / "r").exists()
    # a file where the folder should be: refused, nothing written
    (tmp_path / "file").write_text("x")
    code, err = render(copy, "--radar", "csgo", "-o", tmp_path / "file")
    assert code == 2 and (tmp_path / "file").read_text() == "x"
    # the same radar again into the folder it made (written `DIR/` too): its files replaced,
    # a file of the user's beside them kept
    folder = tmp_path / "radars"
    assert render(copy, "--radar", "csgo", "-o", folder)[0] == 0
    (folder / "notes.txt").write_text("mine")
    txt = folder / "resource" / "overviews" / f"{TOOLS.stem}.txt"
    first = txt.read_bytes()
    txt.write_text("stale")
    assert render(copy, "--radar", "csgo", "-o", f"{folder}/")[0] == 0
    assert txt.read_bytes() == first and (folder / "notes.txt").read_text() == "mine"


@pytest.mark.full
def test_every_corpus_map_gives_a_radar():
    """Every map but the one whose only faces are triggers (nothing drawn: CheckFailed)."""
    for path in CORPUS_MAPS:
        with bspedit.open(path) as bsp:
            if path.stem == "inscrutable_rocket_turret":
                with pytest.raises(bspedit.CheckFailed, match="nothing drawn"):
                    radar(bsp, "csgo")
                continue
            made = radar(bsp, "csgo")
            files = made.files()
        assert f"resource/overviews/{path.stem}.txt" in files
        assert all(dds_header(files[f"resource/overviews/{made.dds_name(level.name)}"])
                   == (b"DDS ", 1024, 1024, b"DXT5") for level in made.levels)
