"""The files of `bspedit lightmaps` (issue 33): one PNG per light style, Source HDR shown and
raw (Radiance .hdr), Quake 3's lightmap pages as stored, and `faces.json`, the face index."""
from __future__ import annotations

import io
import json
from typing import Any

import numpy

from .lightmap import Atlases, radiance_hdr

INDEX = "faces.json"


def png(picture: numpy.ndarray[Any, Any]) -> bytes:
    """An (H, W, 3) uint8 picture as PNG bytes."""
    from PIL import Image

    out = io.BytesIO()
    Image.fromarray(numpy.ascontiguousarray(picture), "RGB").save(out, "PNG", optimize=False)
    return out.getvalue()


def page_name(style: int, hdr: bool = False, direction: bool = False) -> str:
    return f"{'hdr_' if hdr else ''}style{style}{'.dir' if direction else ''}.png"


def stored_name(number: int, direction: bool) -> str:
    """Quake 3: the file of stored lightmap `number` (a deluxemap's direction page: .dir)."""
    return f"page_{number:03d}{'.dir' if direction else ''}.png"


def lightmap_files(atlases: Atlases, family: str) -> dict[str, bytes]:
    """File name -> bytes: `style<N>.png` per style; Source HDR `hdr_style<N>.png` (shown as
    the LDR pages are) and `hdr_style<N>.hdr` (linear, Radiance RGBE); Quake 3
    `page_<NNN>.png` per stored lightmap, and with deluxemaps the light direction apart:
    `style<N>.dir.png` and the stored direction pages as `page_<NNN>.dir.png`; `faces.json`."""
    files = {page_name(style): png(page) for style, page in atlases.pages.items()}
    for style, page in atlases.directions.items():
        files[page_name(style, direction=True)] = png(page)
    for style, page in atlases.hdr_pages.items():
        files[page_name(style, hdr=True)] = png(page)
        files[f"hdr_style{style}.hdr"] = radiance_hdr(atlases.hdr[style])
    pairs = bool(atlases.directions)
    stored = {stored_name(n, pairs and n % 2 == 1): png(page)
              for n, page in enumerate(atlases.stored_pages)}
    files.update(stored)
    files[INDEX] = index_text(face_index(atlases, family, stored)).encode("utf-8")
    return files


def index_text(index: dict[str, Any]) -> str:
    """`faces.json`'s text: indented, one face a line (json's indenting is slow and long)."""
    head = json.dumps({key: value for key, value in index.items() if key != "faces"}, indent=1)
    rows = ",\n  ".join(json.dumps(row) for row in index["faces"])
    return f'{head[:-2]},\n "faces": [\n  {rows}\n ]\n}}\n'


def face_index(atlases: Atlases, family: str, stored: dict[str, bytes]) -> dict[str, Any]:
    """What `faces.json` holds: the atlas size, the pages by style (Quake 3 deluxemaps: the
    light direction pages too, each face at its rectangle there as well) and every lit face
    (Quake 3: surface) with its rectangle, styles and pages."""
    width, height = atlases.size
    return {
        "family": family, "width": width, "height": height, "styles": atlases.styles,
        "overbright": atlases.overbright, "deluxe": bool(atlases.directions),
        "pages": {str(s): page_name(s) for s in atlases.styles},
        "direction_pages": {str(s): page_name(s, direction=True) for s in atlases.directions},
        "hdr_pages": {str(s): {"png": page_name(s, hdr=True), "hdr": f"hdr_style{s}.hdr"}
                      for s in atlases.hdr_pages},
        "stored_pages": sorted(stored),
        "faces": [{"face": face, "x": x, "y": y, "w": w, "h": h,
                   "styles": atlases.face_styles[face],
                   "pages": [page_name(s) for s in atlases.face_styles[face]]}
                  for face, (x, y, w, h) in sorted(atlases.rects.items())],
    }
