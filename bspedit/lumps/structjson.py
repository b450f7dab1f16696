"""JSON forms of raw bytes for the structure models (bspedit/lumps/structures.py): base64 for
blobs, text for printable ASCII strings, an escaped form for any other string bytes, numbers
for float32 bit patterns."""
from __future__ import annotations

import base64
import math
import struct
from typing import Any

_PRINTABLE = frozenset(range(0x20, 0x7f))


def blob(data: bytes) -> str:
    """Bytes as a base64 string."""
    return base64.b64encode(data).decode("ascii")


def unblob(text: str) -> bytes:
    """The bytes of a `blob` string."""
    return base64.b64decode(text, validate=True)


def text(data: bytes) -> str | dict[str, str]:
    """String bytes as JSON: the text itself when it is printable ASCII, else
    {"escaped": ...} with backslash escapes (\\\\ and \\xNN) for the other bytes."""
    if all(b in _PRINTABLE for b in data):
        return data.decode("ascii")
    return {"escaped": "".join(chr(b) if b in _PRINTABLE and b != 0x5c else
                               "\\\\" if b == 0x5c else f"\\x{b:02x}" for b in data)}


def untext(obj: str | dict[str, str]) -> bytes:
    """The bytes of a `text` value."""
    if isinstance(obj, str):
        return obj.encode("ascii")
    escaped, out, i = obj["escaped"], bytearray(), 0
    while i < len(escaped):
        if escaped[i] != "\\":
            out.append(ord(escaped[i]))
            i += 1
        elif escaped[i + 1] == "\\":
            out.append(0x5c)
            i += 2
        else:
            out.append(int(escaped[i + 2:i + 4], 16))
            i += 4
    return bytes(out)


def padded_name(field: bytes) -> dict[str, Any]:
    """A fixed-size NUL-padded name field as {"name": text} plus, when the bytes after the
    name are not all zero (e.g. 0x80 fill left by some compilers), {"name_tail": ...} holding
    the bytes from the first NUL to the last nonzero one (zeros pad the field back)."""
    name, nul, rest = field.partition(b"\0")
    out: dict[str, Any] = {"name": text(name)}
    if rest.strip(b"\0"):
        out["name_tail"] = text((nul + rest).rstrip(b"\0"))
    return out


def unpadded_name(obj: dict[str, Any], size: int) -> bytes:
    """The `size`-byte field of a `padded_name` value."""
    name = untext(obj["name"])
    field = name + untext(obj["name_tail"]) if "name_tail" in obj else name
    if len(field) > size:
        raise ValueError(f"name {name!r} and its name_tail ({len(field)} bytes) do not fit the "
                         f"{size}-byte field (shorten the tail or drop it)")
    return field.ljust(size, b"\0")


def float_json(bits: int) -> float | dict[str, int]:
    """A float32 bit pattern as a JSON number, or {"bits": n} when no number gives it back
    (NaN, infinities)."""
    value: float = struct.unpack("<f", struct.pack("<I", bits))[0]
    return value if math.isfinite(value) else {"bits": bits}


def float_bits(obj: float | dict[str, int]) -> int:
    """The float32 bit pattern of a `float_json` value."""
    if isinstance(obj, dict):
        return int(obj["bits"])
    found: int = struct.unpack("<I", struct.pack("<f", obj))[0]
    return found
