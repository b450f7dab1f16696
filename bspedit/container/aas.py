"""Quake 3 bot navigation files (.aas): the BSP checksum in their header.

botlib (``code/botlib/be_aas_file.c``, ``AAS_LoadAASFile``) refuses an .aas whose header
``bspchecksum`` differs from ``sv_mapChecksum`` ("aas file ... is out of date"), so a map edit
leaves bots without navigation unless the .aas gets the map's new checksum. The header is
``aas_header_t``: ident ``EAAS``, version (4, or 5), bspchecksum, then 14 lump entries, all
little-endian int32. In version 5 everything after the version is obfuscated by ``AAS_DData``:
byte i (counted from offset 8) is XORed with ``(i * 119) & 0xFF``. q3map2's ``-fixaas`` does
this job for the files ``STEM.aas``, ``STEM_b0.aas`` and ``STEM_b1.aas`` beside the map.
"""
from __future__ import annotations

import os
import struct
from dataclasses import dataclass

from ..errors import BspError
from .executor import copy_range
from .fileio import write_all
from .outputs import atomic_file

IDENT = b"EAAS"
VERSIONS = (4, 5)
HEADER_SIZE = 12 + 14 * 8
SUFFIXES = (".aas", "_b0.aas", "_b1.aas")
_CHECKSUM = struct.Struct("<I")
_MASK = bytes((i * 119) & 0xFF for i in range(4))     # AAS_DData over the checksum's bytes


def beside(map_path: str) -> list[str]:
    """The .aas files q3map2's -fixaas looks for next to `map_path` that exist."""
    stem = os.path.splitext(map_path)[0]
    return [stem + suffix for suffix in SUFFIXES if os.path.isfile(stem + suffix)]


def _xor(data: bytes, version: int) -> bytes:
    return bytes(a ^ b for a, b in zip(data, _MASK)) if version == 5 else data


@dataclass(frozen=True, slots=True)
class AasHeader:
    path: str
    version: int
    checksum: int       # the BSP checksum it was made for (unsigned)


def read_header(path: str) -> AasHeader:
    """The header of an .aas file; BspError (naming it) when it is not one botlib loads."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(HEADER_SIZE)
    except OSError as exc:
        raise BspError(f"cannot read bot file: {exc.strerror}", path=path) from exc
    if len(head) < HEADER_SIZE or head[:4] != IDENT:
        raise BspError("not a bot navigation file (.aas: no EAAS header)", path=path)
    version = int.from_bytes(head[4:8], "little", signed=True)
    if version not in VERSIONS:
        raise BspError(f"AAS version {version}: botlib loads versions 4 and 5", path=path)
    return AasHeader(path, version, _CHECKSUM.unpack(_xor(head[8:12], version))[0])


def header_bytes(version: int, checksum: int) -> bytes:
    """Bytes 0-11 of an .aas header of `version` made for a map whose checksum is `checksum`."""
    return IDENT + struct.pack("<i", version) + _xor(_CHECKSUM.pack(checksum & 0xFFFFFFFF), version)


def set_checksum(header: AasHeader, checksum: int) -> None:
    """Give the .aas file the map checksum `checksum`, atomically (a new file renamed over it;
    the rest is copied by the kernel)."""
    with open(header.path, "rb") as source:
        size = os.fstat(source.fileno()).st_size
        with atomic_file(header.path, mode_from=source.fileno(), let_go=source.close) as fd:
            write_all(fd, header_bytes(header.version, checksum))
            copy_range(source.fileno(), fd, 12, size - 12)
