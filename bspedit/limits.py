"""Resource caps: input that claims more than these is refused with a BspError instead of
exhausting memory. Users raise them from the command line (`--max-...`) or by setting fields
of `LIMITS`."""
from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

from .values import Value

_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


class Limits(Value):
    __slots__ = ("lump_size", "entity_text", "extract_entry", "extract_total")
    __hash__ = None     # type: ignore[assignment]  # changed in place

    def __init__(self, lump_size: int = 1 << 30, entity_text: int = 256 << 20,
                 extract_entry: int = 1 << 30, extract_total: int = 4 << 30) -> None:
        self.lump_size = lump_size          # a decompressed LZMA lump or game lump member
        self.entity_text = entity_text      # entity text parsed into the editable model
        self.extract_entry = extract_entry  # one pak entry, extracted or decompressed
        self.extract_total = extract_total  # all pak entries of one extraction together


LIMITS = Limits()


def parse_size(text: str) -> int:
    """A byte count written as 4096, 512K, 64M, 2G or 1T (binary units; 'B' or 'iB' may follow)."""
    match = re.fullmatch(r"(\d+)([KMGT]?)(?:I?B)?", text.strip().upper())
    if match is None:
        raise ValueError(f"not a size: {text!r} (bytes, or a number with K, M, G or T)")
    return int(match[1]) * _UNITS[match[2]]


def format_size(size: int) -> str:
    """A byte count in the largest unit that divides it: 1G, 256M, 4097."""
    unit = next(u for u in "TGMK " if u == " " or (size and size % _UNITS[u] == 0))
    return f"{size // _UNITS[unit]}{unit}" if unit != " " else str(size)


@contextlib.contextmanager
def caps(**values: int | None) -> Iterator[Limits]:
    """Set the named fields of `LIMITS` (None keeps one) for the duration of a block."""
    saved = {name: getattr(LIMITS, name) for name in Limits.__slots__}
    for name, value in values.items():
        if value is not None:
            setattr(LIMITS, name, value)
    try:
        yield LIMITS
    finally:
        for name, value in saved.items():
            setattr(LIMITS, name, value)
