"""Maps built from scratch by the regular writer, and the tiny map the repository ships."""
from __future__ import annotations

from pathlib import Path

import pytest

import synthetic
from bspedit.bsp import Bsp
from bspedit.features.build import create, tiny_source_map
from bspedit.features.checks import problems
from bspedit.format.gamelumpdir import game_lump_directory

SHIPPED = Path(__file__).resolve().parent / "data" / "tiny.bsp"


def test_shipped_tiny_map_is_what_the_builder_makes(tmp_path):
    tiny_source_map(tmp_path / "tiny.bsp")
    assert (tmp_path / "tiny.bsp").read_bytes() == SHIPPED.read_bytes()


def test_tiny_map_is_valid_and_its_game_lump_points_inside_itself():
    with Bsp.open(SHIPPED) as bsp:
        assert problems(bsp) == []
        lump = bsp.lumps[35]
        (entry,) = game_lump_directory(bsp.read_lump(35)).entries
        assert entry.id == b"prps" and entry.version == 10
        assert entry.offset == lump.offset + 20 and entry.offset + entry.length == lump.end
        assert bsp.read_lump("pakfile").endswith(b"XZP1 0".ljust(32, b"\0"))


@pytest.mark.parametrize("family", ["q1", "bsp2", "goldsrc", "q2", "q3", "rbsp", "source"])
def test_create_places_lumps_in_index_order_aligned(tmp_path, family):
    planes = 2 if family in ("q3", "rbsp") else 1
    lumps = {0: synthetic.ENTITIES, planes: synthetic.records(16 if planes == 2 else 20, 3)}
    create(tmp_path / "new.bsp", family, lumps)
    with Bsp.open(tmp_path / "new.bsp") as bsp:
        assert bsp.family.key == family
        assert bsp.read_lump(0) == synthetic.ENTITIES and bsp.read_lump(planes) == lumps[planes]
        assert bsp.lumps[0].offset == bsp.header.size
        assert bsp.lumps[planes].offset == bsp.header.size + 108     # 106 bytes, aligned
        assert problems(bsp) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.bsp"]
