"""The int32 counts that open the tables of variable-size lumps and game lump members."""
from __future__ import annotations

import struct

from ..errors import BspError


def read_count(data: bytes, offset: int, item: int, what: str, endian: str = "<",
               owner: str = "the lump") -> int:
    """The s4 count at `offset` (byte order `endian`) of `item`-byte entries (`what`) that
    follow it; BspError (naming `owner`) when it is negative or they do not fit in `data`."""
    if offset + 4 > len(data):
        raise BspError(f"{owner} ends at {len(data)} bytes before the count of {what}",
                       offset=offset)
    count: int = struct.unpack_from(endian + "i", data, offset)[0]
    if count < 0 or offset + 4 + item * count > len(data):
        raise BspError(f"{owner} claims {count} {what}, more than its {len(data)} bytes hold",
                       offset=offset)
    return count
