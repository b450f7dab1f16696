"""Valve lump files: `<map>_l_<N>.lmp`, a 20-byte `lumpfileheader_t` and one lump's stored bytes.

The engine loads `_l_0`, `_l_1`, ... in order, each overriding the map and earlier files.
A game lump keeps the offsets it had in the map it came from; merging it back into that map
puts it where those offsets are valid again (bspedit relocates it if it lands elsewhere).
"""
from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

from kaitaistruct import KaitaiStream

from ..errors import BspError
from .generated.lump_file_header import LumpFileHeader

HEADER_SIZE = 20
MAX_LUMP_FILES = 128
_NUMBERED = re.compile(r"_l_(\d+)\.lmp$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class LumpFile:
    """One lump file: its header's fields and the lump's stored bytes. The header is in the byte
    order of the map it belongs to (`endian`: "<" PC, ">" console maps)."""

    index: int
    version: int
    revision: int
    data: bytes
    endian: str = "<"

    def to_bytes(self) -> bytes:
        return struct.pack(self.endian + "5i", HEADER_SIZE, self.index, self.version,
                           len(self.data), self.revision) + self.data

    @classmethod
    def parse(cls, blob: bytes, path: str, endian: str = "<") -> LumpFile:
        """A lump file for a map of byte order `endian`; one written for a map of the other
        order (its header size reads 20 only the other way) is refused."""
        if len(blob) < HEADER_SIZE:
            raise BspError(f"lump file of {len(blob)} bytes has no 20-byte header", path=path,
                           offset=0, in_file=True)
        head = blob[:HEADER_SIZE]
        header = LumpFileHeader(endian == ">", KaitaiStream(BytesIO(head)))
        other = int.from_bytes(head[:4], "little" if endian == ">" else "big", signed=True)
        if header.lump_offset != HEADER_SIZE and other == HEADER_SIZE:
            kinds = {"<": "a PC (little-endian)", ">": "a console (big-endian)"}
            raise BspError(f"a lump file of {kinds['<' if endian == '>' else '>']} map; this "
                           f"is {kinds[endian]} map", path=path, offset=0, in_file=True)
        start, length = header.lump_offset, header.lump_length
        if start < HEADER_SIZE or length < 0 or start + length > len(blob):
            raise BspError(f"lump data at {start} of {length} bytes does not fit the "
                           f"{len(blob)}-byte file", path=path, offset=start, in_file=True)
        return cls(header.lump_id, header.lump_version, header.map_revision,
                   blob[start:start + length], endian)


def number(path: str | Path) -> int | None:
    """N of a `<map>_l_<N>.lmp` name, or None."""
    match = _NUMBERED.search(str(path))
    return int(match.group(1)) if match else None


def next_free(map_path: str | Path) -> Path:
    """The first `<map>_l_<N>.lmp` beside the map that does not exist yet."""
    map_path = Path(map_path)
    for n in range(MAX_LUMP_FILES):
        candidate = map_path.with_name(f"{map_path.stem}_l_{n}.lmp")
        if not candidate.exists():
            return candidate
    raise BspError(f"all {MAX_LUMP_FILES} lump file names are taken", path=str(map_path))


def engine_order(paths: list[str]) -> list[str]:
    """Lump files in the order the engine applies them: by N when every name has one."""
    numbers = [number(p) for p in paths]
    if None in numbers:
        return list(paths)
    return [p for _, p in sorted(zip(numbers, paths))]
