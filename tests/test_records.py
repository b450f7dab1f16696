"""Bsp.records (issue 17): every fixed-size lump of the corpus as numpy records against the
file's bytes, edits saved to exactly the edited bytes, tails kept, LZMA lumps, hand-checkable
values per family, and old read-only views surviving an in-place save."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from bspedit.format import lzma_lump
from bspedit.bsp import Bsp
from bspedit.errors import BspError
from bspedit.features.lookups import model_faces, scheme
from bspedit.format.recordtypes import lump_type
from conftest import CORPUS, ROOT, corpus_maps, lump_content

LZMA_MAP = CORPUS / "source" / "tf2classified_cp_stronghold_lzma.bsp"
NAN_BITS = 0x7FA12345               # a signalling NaN with a payload


def _stored(path, lump) -> bytes:
    """The lump's bytes read straight from the file, decompressed when LZMA."""
    with open(path, "rb") as f:
        f.seek(lump.offset)
        data = f.read(lump.length) if lump.length > 0 else b""
    return lzma_lump.decompress(data) if data[:4] == b"LZMA" else data


def _fixed(bsp: Bsp) -> list[int]:
    """Indices of the lumps with a fixed-size record type."""
    out = []
    for lump in bsp.lumps:
        entry = lump_type(bsp.family.key, lump.name, lump.version, bsp.header.version)
        if entry is not None and not entry.whole:
            out.append(lump.index)
    return out


def _copy(path, tmp_path):
    out = tmp_path / path.name
    shutil.copyfile(path, out)
    os.chmod(out, 0o644)
    return out


def _vec(a) -> np.ndarray:
    return np.stack([a["x"], a["y"], a["z"]], -1).astype(np.float64)


# ---- reading ----

@pytest.mark.parametrize("path", corpus_maps())
def test_records_and_tail_are_the_stored_bytes(path):
    with Bsp.open(path) as bsp:
        fixed = _fixed(bsp)
        assert fixed
        for index in fixed:
            lump = bsp.lumps[index]
            records = bsp.records(index)
            info = bsp.describe_records(lump.name)
            data = _stored(path, lump)
            assert records.tobytes() + bsp.record_tail(index) == data, lump.name
            assert not records.flags.writeable
            assert not records.flags.owndata or not len(records), f"{lump.name}: copied"
            assert records.dtype == info.dtype and len(records) == info.count
            assert info.tail == len(data) % info.dtype.itemsize == 0, lump.name
            assert info.compressed == (bsp.read_lump(index)[:4] == b"LZMA")


def test_read_only_views_share_one_mapping_and_refuse_writes():
    path = CORPUS / "q3" / "openarena_oa_ctf2.bsp"
    if not path.exists():
        pytest.skip("corpus not present")
    with Bsp.open(path) as bsp:
        planes, verts = bsp.records("PLANES"), bsp.records("drawverts")
        assert planes.base is not None and verts.base is not None
        mapped = np.frombuffer(bsp._records._map, np.uint8)
        assert np.shares_memory(planes, mapped) and np.shares_memory(verts, mapped)
        with pytest.raises(ValueError):
            planes["dist"][0] = 1.0
        assert bsp.records(2) is not bsp.records(2, writable=True)


@pytest.mark.parametrize("path", corpus_maps())
def test_lumps_without_records_raise_naming_lump_and_family(path):
    with Bsp.open(path) as bsp:
        with pytest.raises(BspError, match=rf"ENTITIES .* in {bsp.family.key} maps") as caught:
            bsp.records("ENTITIES")
        assert caught.value.path == str(path) and "ENTITIES" in caught.value.lump
        with pytest.raises(BspError, match="VISIBILITY is a variable-size lump"):
            bsp.describe_records("VISIBILITY")


# ---- editing ----

@pytest.mark.parametrize("path", corpus_maps())
def test_unedited_writable_arrays_save_byte_identical(path, tmp_path):
    with Bsp.open(path) as bsp:
        arrays = {i: bsp.records(i, writable=True) for i in _fixed(bsp)}
        assert all(bsp.records(i, writable=True) is a for i, a in arrays.items())
        assert all(a.flags.writeable and a.base is None for a in arrays.values())
        assert not bsp.dirty
        bsp.save(tmp_path / "out.bsp")
    assert (tmp_path / "out.bsp").read_bytes() == path.read_bytes()


@pytest.mark.parametrize("path", [p for p in corpus_maps() if p.values[0] != LZMA_MAP])
def test_one_edited_float_changes_only_its_bytes(path, tmp_path):
    """A plane's dist set to a NaN with a payload: the saved file differs from the original
    only inside that float, and the bits read back."""
    with Bsp.open(path) as bsp:
        planes = bsp.records("PLANES", writable=True)
        which = len(planes) // 2
        planes["dist"][which:which + 1].view("<u4")[0] = NAN_BITS
        lump = bsp.lumps[bsp.lump_index("PLANES")]
        at = lump.offset + which * planes.dtype.itemsize + planes.dtype.fields["dist"][1]
        report = bsp.save(tmp_path / "out.bsp")
    old = np.frombuffer(path.read_bytes(), np.uint8)
    new = np.frombuffer((tmp_path / "out.bsp").read_bytes(), np.uint8)
    assert len(old) == len(new)
    changed = np.flatnonzero(old != new)
    assert len(changed) and set(changed) <= set(range(at, at + 4))
    assert new[at:at + 4].view("<u4")[0] == NAN_BITS
    assert report.changed == (f"lump {lump.index} (PLANES)",)
    with Bsp.open(tmp_path / "out.bsp") as saved:
        assert saved.records("PLANES")["dist"][which:which + 1].view("<u4")[0] == NAN_BITS


@pytest.mark.parametrize("path", corpus_maps())
def test_replace_records_with_one_more_grows_only_that_lump(path, tmp_path):
    with Bsp.open(path) as bsp:
        planes = bsp.records("PLANES")
        extra = planes[-1:].copy()
        extra["dist"] = -0.0
        bsp.replace_records("PLANES", np.concatenate([planes, extra]))
        bsp.save(tmp_path / "out.bsp")
        with Bsp.open(tmp_path / "out.bsp") as saved:
            for old, new in zip(bsp.lumps, saved.lumps):
                if old.name != "PLANES":
                    assert new.length == old.length, old.name
                    assert lump_content(saved, new.index) == lump_content(bsp, old.index), old.name
            grown = saved.read_lump("PLANES")
            if grown[:4] == b"LZMA":
                grown = lzma_lump.decompress(grown)
            assert grown == _stored(path, bsp.lumps[bsp.lump_index("PLANES")]) + extra.tobytes()
            assert saved.records("PLANES")["dist"][-1:].view("<u4")[0] == 0x80000000


def test_replace_records_checks_the_dtype():
    path = CORPUS / "q1" / "slipgate_b_batt0.bsp"
    if not path.exists():
        pytest.skip("corpus not present")
    with Bsp.open(path) as bsp:
        with pytest.raises(ValueError, match="dtype"):
            bsp.replace_records("PLANES", bsp.records("VERTEXES"))
        with pytest.raises(ValueError, match="1-D"):
            bsp.replace_records("PLANES", bsp.records("PLANES").reshape(1, -1))
        with pytest.raises(BspError):
            bsp.replace_records("ENTITIES", bsp.records("PLANES"))
        assert not bsp.dirty


def test_a_tail_no_record_covers_is_reported_and_kept(tmp_path):
    path = CORPUS / "q2" / "bsptool_q2_mp_lobby.bsp"
    if not path.exists():
        pytest.skip("corpus not present")
    tail = b"\x01\x02\x03"
    with Bsp.open(path) as bsp:
        bsp.replace_lump("PLANES", bsp.read_lump("PLANES") + tail)
        count = len(bsp.records("PLANES"))
        bsp.save(tmp_path / "odd.bsp")
    with Bsp.open(tmp_path / "odd.bsp") as odd:
        info = odd.describe_records("PLANES")
        assert (info.count, info.tail) == (count, 3)
        assert odd.record_tail("PLANES") == tail
        planes = odd.records("PLANES", writable=True)
        planes["dist"][0] += 1
        seen = odd.records("PLANES")                    # a read-only view of the edited copy
        assert seen[0] == planes[0] and not seen.flags.writeable
        odd.save(tmp_path / "edited.bsp")
        with Bsp.open(tmp_path / "edited.bsp") as edited:
            assert edited.read_lump("PLANES") == planes.tobytes() + tail
            assert edited.record_tail("PLANES") == tail
        odd.replace_records("PLANES", planes[:-1])
        assert odd.record_tail("PLANES") == tail
        assert odd.dirty                                # stores the records
        assert odd.read_lump("PLANES") == planes[:-1].tobytes() + tail


# ---- LZMA ----

def test_lzma_lump_edit_is_recompressed_and_unedited_keeps_bytes(tmp_path):
    if not LZMA_MAP.exists():
        pytest.skip("corpus not present")
    with Bsp.open(LZMA_MAP) as bsp:
        stored = bsp.read_lump("PLANES")
        assert stored[:4] == b"LZMA" and bsp.describe_records("PLANES").compressed
        plain = lzma_lump.decompress(stored)
        planes = bsp.records("PLANES", writable=True)
        assert planes.tobytes() == plain
        bsp.records("VERTEXES", writable=True)      # unedited: keeps its stored bytes
        planes["dist"][1:2].view("<u4")[0] = NAN_BITS
        report = bsp.save(tmp_path / "out.bsp")
        assert report.changed == ("lump 1 (PLANES)",)
    with Bsp.open(tmp_path / "out.bsp") as saved, Bsp.open(LZMA_MAP) as old:
        new = saved.read_lump("PLANES")
        assert new[:4] == b"LZMA" and new != stored
        assert lzma_lump.decompress(new) == planes.tobytes() != plain
        assert saved.lumps[1].fourcc == len(plain)
        assert saved.records("PLANES")["dist"][1:2].view("<u4")[0] == NAN_BITS
        for a, b in zip(old.lumps, saved.lumps):
            if a.name != "PLANES":
                assert lump_content(saved, b.index) == lump_content(old, a.index), a.name


# ---- values per family ----

@pytest.mark.parametrize("path", corpus_maps())
def test_planes_are_unit_length_and_faces_name_existing_textures(path):
    with Bsp.open(path) as bsp:
        normals = _vec(bsp.records("PLANES")["normal"])
        assert np.all(np.abs(np.linalg.norm(normals, axis=1) - 1) < 1e-3)
        faces = bsp.records(scheme(bsp).faces)
        field, target = ("shader_num", "SHADERS") if bsp.family.engine == "quake3" \
            else ("texinfo", "TEXINFO")
        assert np.all((faces[field] >= 0) & (faces[field] < len(bsp.records(target))))


# ericw-tools / LibreQuake Quake 1 bmodel bounds lie up to 1 unit inside their vertices
# (seen on the corpus); the other compilers' bounds hold every vertex.
SLACK = {"quake1": 1.0}


@pytest.mark.parametrize("path", corpus_maps())
def test_model_bounds_hold_their_faces_vertices(path):
    with Bsp.open(path) as bsp:
        models, faces = bsp.records("MODELS"), bsp.records(scheme(bsp).faces)
        if bsp.family.engine == "quake3":
            verts = _vec(bsp.records("DRAWVERTS")["xyz"])

            def points(face):
                return verts[face["first_vert"]:face["first_vert"] + face["num_verts"]]
        else:
            surfedges, edges = bsp.records("SURFEDGES")["edge"], bsp.records("EDGES")["v"]
            vertexes = bsp.records("VERTEXES")
            verts = _vec(vertexes["point"] if "point" in vertexes.dtype.names else vertexes)

            def points(face):
                ring = surfedges[face["firstedge"]:face["firstedge"] + face["numedges"]]
                return verts[np.where(ring >= 0, edges[np.abs(ring), 0], edges[np.abs(ring), 1])]
        slack = SLACK.get(bsp.family.engine, 0.01)
        checked = 0
        for number, model in enumerate(models):
            low, high = _vec(model["mins"]), _vec(model["maxs"])
            for face in faces[model_faces(bsp, number).start:model_faces(bsp, number).stop]:
                inside = points(face)
                assert np.all(inside >= low - slack) and np.all(inside <= high + slack), number
                checked += len(inside)
        assert checked or len(faces) == 0


# ---- in-place saves and old views ----

_SHRINK = textwrap.dedent("""
    import os, sys
    import numpy as np
    from bspedit.bsp import Bsp

    path, keep = sys.argv[1], sys.argv[2] == "keep"
    bsp = Bsp.open(path)
    last = max((l for l in bsp.lumps if l.length), key=lambda l: l.end)
    size = bsp.size
    view = bsp.records(last.index)
    before = int(np.frombuffer(view, np.uint8).sum())
    if not keep:
        del view
    bsp.splice_lump(last.index, 4, b"")      # cut to its first record, in place
    bsp.save()
    print(os.path.getsize(path), size, before)
    if keep:
        print(int(np.frombuffer(view, np.uint8).sum()))   # SIGBUS if the file were cut
""")


@pytest.mark.parametrize("keep", ["keep", "drop"])
def test_in_place_save_never_cuts_a_live_view(tmp_path, keep):
    """The last lump (DRAWINDEXES, 8820 bytes) cut to its first record: the save cuts
    whole pages off the file's end. With a view alive the file keeps its size and reading the
    view does not crash (without the guard: SIGBUS, checked by hand); without one the file
    is cut as usual."""
    path = CORPUS / "q3" / "openarena_am_galmevish.bsp"
    if not path.exists():
        pytest.skip("corpus not present")
    target = _copy(path, tmp_path)
    run = subprocess.run([sys.executable, "-c", _SHRINK, str(target), keep], capture_output=True,
                         text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.split()
    new_size, old_size = int(lines[0]), int(lines[1])
    if keep == "keep":
        assert new_size == old_size and len(lines) == 4
    else:
        assert new_size < old_size
    with Bsp.open(target) as saved:
        assert len(saved.records("DRAWINDEXES")) == 1
        assert saved.read_lump("DRAWINDEXES") == _stored(path, saved.lumps[11])[:4]


# ---- memory ----

@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux /proc")
def test_reading_every_record_of_the_largest_map_stays_in_its_memory_bound():
    """bench/records_bench.py's fresh-process pass over the largest corpus map: peak RSS at
    most the map's size + 32 MiB (zero-copy views: the mapped pages, no copies). Time is
    left to the bench: machine noise moves it, not memory."""
    import importlib.util

    maps = sorted(CORPUS.glob("*/*.bsp"), key=lambda p: p.stat().st_size)
    if not maps:
        pytest.skip("corpus not present")
    spec = importlib.util.spec_from_file_location("records_bench",
                                                  ROOT / "bench" / "records_bench.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    peak = bench.child_peak(maps[-1])
    assert 0 < peak <= maps[-1].stat().st_size + 32 * bench.MIB
