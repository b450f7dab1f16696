"""What a merge is made of and what it reports: the families' shapes, the merged lumps and the
report (apart from `merge`, so the per-family modules can name them without a circle)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .entities import EntityReport


@dataclass(frozen=True)
class Shape:
    """What differs between the families a merge handles."""

    leaf_faces: str                 # the lump of the leafs' face lists
    leaf_face_field: str            # the leaf's first index into it
    clip_hulls: tuple[int, ...]     # model headnode[] entries joined through CLIPNODES
    visibility: str                 # "leafs": rows per leaf; "clusters": Quake 2's dvis_t
    miptex: bool                    # a TEXTURES lump (else texinfo holds the names)
    plane_pairs: bool               # planes go in pairs, n ^ 1 is n flipped (qbsp3)


SHAPES = {"quake1": Shape("MARKSURFACES", "firstmarksurface", (1, 2), "leafs", True, False),
          "goldsrc": Shape("MARKSURFACES", "firstmarksurface", (1, 2, 3), "leafs", True, False),
          "quake2": Shape("LEAFFACES", "firstleafface", (), "clusters", False, True)}
SOLID = {"quake1": -2, "goldsrc": -2, "quake2": 1}      # leaf 0's contents, shared by all


@dataclass
class MergeReport:
    """What `merge` did."""

    maps: list[str]
    splits: list[dict[str, Any]] = field(default_factory=list)   # axis, dist, front, back
    counts: dict[str, int] = field(default_factory=dict)          # merged records per lump
    shared_planes: int = 0
    shared_textures: int = 0
    shared_texinfo: int = 0
    visibility: str = "merged"            # merged | dropped (--no-vis) | dropped: reason
    unreadable_rows: int = 0              # visibility rows that could not be read (see all)
    dropped_bspx: list[str] = field(default_factory=list)
    entities: EntityReport = field(default_factory=EntityReport)

    def to_dict(self) -> dict[str, Any]:
        return {"maps": self.maps, "splits": self.splits, "counts": self.counts,
                "shared_planes": self.shared_planes, "shared_textures": self.shared_textures,
                "shared_texinfo": self.shared_texinfo,
                "visibility": self.visibility, "unreadable_rows": self.unreadable_rows,
                "dropped_bspx": self.dropped_bspx,
                "worldspawn_conflicts": self.entities.conflicts,
                "targetname_clashes": self.entities.clashes,
                "renamed": self.entities.renamed}


@dataclass
class Merged:
    """The merged map's lumps (name -> bytes) and what was done."""

    lumps: dict[str, bytes]
    report: MergeReport
    entity_count: int
