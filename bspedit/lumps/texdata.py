"""Source TEXDATA_STRING_DATA (lump 43): NUL-terminated material names packed one after
another, addressed by the byte offsets in TEXDATA_STRING_TABLE. The model keeps the bytes
and splits them at NULs (one C-level `split`); the JSON form lists the strings (text, or
escaped when not printable ASCII) and any bytes after the last NUL. The generated Kaitai
type reads the lump as one raw blob, so it adds nothing here. Strings have no byte order: console
(big-endian) maps read the same (`endian` is accepted and has no effect)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .structjson import text, untext


@dataclass(eq=False, slots=True)
class TexdataStringData:
    """The string data lump: `data` as stored."""

    data: bytes = b""

    @classmethod
    def parse(cls, data: bytes, endian: str = "<") -> TexdataStringData:
        return cls(bytes(data))

    @property
    def strings(self) -> list[tuple[int, str]]:
        """(offset, name) of every NUL-terminated string, in order (latin-1)."""
        out, at = [], 0
        for piece in self.data.split(b"\0")[:-1]:
            out.append((at, piece.decode("latin-1")))
            at += len(piece) + 1
        return out

    @property
    def tail(self) -> bytes:
        """Bytes after the last NUL (none in maps written by vbsp)."""
        return self.data[self.data.rfind(b"\0") + 1:]

    def string_at(self, offset: int) -> str:
        """The string starting at byte `offset` (as a TEXDATA_STRING_TABLE entry gives it)."""
        if not 0 <= offset < len(self.data):
            raise IndexError(f"string offset {offset} outside the {len(self.data)}-byte lump")
        end = self.data.find(b"\0", offset)
        return self.data[offset:end if end >= 0 else len(self.data)].decode("latin-1")

    def append(self, name: str) -> int:
        """Add `name` after the last string (before any tail bytes); returns its offset."""
        at = self.data.rfind(b"\0") + 1
        self.data = self.data[:at] + name.encode("ascii") + b"\0" + self.data[at:]
        return at

    def to_bytes(self) -> bytes:
        return self.data

    def to_json(self) -> dict[str, Any]:
        return {"strings": [text(p) for p in self.data.split(b"\0")[:-1]],
                "tail": text(self.tail)}

    @classmethod
    def from_json(cls, obj: dict[str, Any], endian: str = "<") -> TexdataStringData:
        return cls(b"".join(untext(s) + b"\0" for s in obj["strings"]) + untext(obj["tail"]))
