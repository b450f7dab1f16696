"""Resource caps: input that claims more than these is refused with a BspError instead of
exhausting memory. Users raise them from the command line (`--max-...`) or by setting fields
of `LIMITS`."""
from __future__ import annotations

import attrs


@attrs.define
class Limits:
    lump_size: int = 1 << 30          # a decompressed LZMA lump or game lump member
    entity_text: int = 256 << 20      # entity text parsed into the editable model
    extract_entry: int = 1 << 30      # one pak entry, extracted or decompressed
    extract_total: int = 4 << 30      # all pak entries of one extraction together


LIMITS = Limits()
