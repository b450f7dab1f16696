"""The preload section of an XZP2 (console) pakfile, `__preload_section.pre`, as Valve's xZip
tool builds it (zip_uncompressed.h)."""
from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass

PRELOAD_VERSION = 3                               # PRELOAD_HDR_VERSION
NO_PRELOAD = 0xFFFF                               # INVALID_PRELOAD_ENTRY
MAX_ALIGNMENT = 64 * 1024                         # the largest boundary bspedit reads from a map
PRELOAD_HEADER = struct.Struct(">4I")             # version, entries, preloads, alignment
PRELOAD_ENTRY = struct.Struct(">2I")              # length, offset into the preload data


def pad_to(alignment: int, position: int) -> int:
    return -position % alignment if alignment else 0


@dataclass(frozen=True, slots=True)
class Preload:
    """The preload section of an XZP2 pakfile (zip_uncompressed.h ZIP_PreloadHeader, as the xZip
    tool builds it): a header (version 3, zip entries, preload entries, alignment), per preload
    entry (length, offset into the data), per zip entry in central directory order the index of
    its preload entry or 0xFFFF (the remap table), then the data, zero-padded to the
    alignment."""

    alignment: int
    directory: tuple[tuple[int, int], ...]
    remap: tuple[int, ...]
    data: bytes

    @classmethod
    def parse(cls, section: bytes, entries: int) -> Preload:
        """The section's tables; ValueError saying why they do not fit a zip of `entries`."""
        if len(section) < PRELOAD_HEADER.size:
            raise ValueError(f"holds {len(section)} bytes, less than its header")
        version, count, preloads, alignment = PRELOAD_HEADER.unpack_from(section)
        if version != PRELOAD_VERSION:
            raise ValueError(f"has version {version}, not {PRELOAD_VERSION}")
        if count != entries:
            raise ValueError(f"indexes {count} zip entries but the central directory has "
                             f"{entries}")
        if alignment & (alignment - 1) or not 0 < alignment <= MAX_ALIGNMENT:
            raise ValueError(f"pads its data to {alignment} bytes, not a power of two up to "
                             f"{MAX_ALIGNMENT}")
        start = PRELOAD_HEADER.size + preloads * PRELOAD_ENTRY.size + count * 2
        if start > len(section):
            raise ValueError(f"tables ({start} bytes) run past its {len(section)} bytes")
        directory = tuple(PRELOAD_ENTRY.iter_unpack(
            section[PRELOAD_HEADER.size:PRELOAD_HEADER.size + preloads * PRELOAD_ENTRY.size]))
        remap = struct.unpack_from(f">{count}H", section, start - count * 2)
        if any(index != NO_PRELOAD and index >= preloads for index in remap):
            raise ValueError("remap table names a preload entry it lacks")
        position = 0
        for length, offset in sorted(directory, key=lambda pair: pair[1]):
            if offset < position:
                raise ValueError("preload entries overlap")
            position = offset + length
        if start + position > len(section) or any(section[start + position:]):
            raise ValueError("preload data runs past the section or is followed by non-zero "
                             "bytes")
        return cls(alignment, directory, remap, section[start:start + position])

    def edited(self, remap: Sequence[int], dropped: set[int]) -> Preload:
        """The section with preload entries `dropped` (and their data) cut out and `remap` (in
        the old preload indices) as the remap table."""
        cuts = sorted((self.directory[k][1], self.directory[k][0]) for k in dropped)
        kept = [k for k in range(len(self.directory)) if k not in dropped]
        renumber = {old: new for new, old in enumerate(kept)}
        pieces, position = [], 0
        for offset, length in cuts:
            pieces.append(self.data[position:offset])
            position = offset + length
        pieces.append(self.data[position:])

        def moved(offset: int) -> int:
            return offset - sum(length for at, length in cuts if at < offset)
        directory = tuple((self.directory[k][0], moved(self.directory[k][1])) for k in kept)
        return Preload(self.alignment, directory,
                        tuple(NO_PRELOAD if k == NO_PRELOAD else renumber[k] for k in remap),
                        b"".join(pieces))

    def build(self) -> bytes:
        """The section's bytes, as the xZip tool lays them out."""
        body = b"".join([PRELOAD_HEADER.pack(PRELOAD_VERSION, len(self.remap),
                                              len(self.directory), self.alignment),
                         *(PRELOAD_ENTRY.pack(*pair) for pair in self.directory),
                         struct.pack(f">{len(self.remap)}H", *self.remap), self.data])
        return body + bytes(pad_to(self.alignment, len(body)))
