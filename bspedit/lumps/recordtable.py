"""Fixed-size records as a lossless text table (issue 17): one column per leaf field, one cell
per value, read back to the exact bytes.

Columns flatten nested fields to dotted names (`normal.x`, `mins.y`) and arrays to indices
(`children[0]`). Cells: integers in decimal; floats as the shortest text that reads back to the
same float32/float64 bits (`-0.0` kept, `inf`, `-inf`, NaN with its bits as `nan:0x7fc00001`);
fixed byte strings as their text when it is printable ASCII followed only by NULs, else
`hex:` and every byte. A column reads in its dtype's byte order (big-endian records of console
maps print the same cells as their little-endian twins). numpy is imported only inside functions.
"""
from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from ..errors import BspError

if TYPE_CHECKING:
    import numpy

_FLOATS = {4: ("f", "I", 8), 8: ("d", "Q", 16)}   # size -> float, bits (struct codes), digits
_ORDERS: dict[str, Literal["little", "big"]] = {"<": "little", ">": "big"}


@dataclass(frozen=True, slots=True)
class Column:
    """One leaf field of a record: its dotted name, byte offset and scalar numpy type string."""

    name: str
    offset: int
    kind: str          # numpy kind: i, u, f or S
    size: int          # bytes
    endian: str = "<"  # byte order of numbers: "<" or ">"

    @property
    def format(self) -> str:
        return f"{self.endian}{self.kind}{self.size}" if self.kind != "S" else f"S{self.size}"

    @property
    def byteorder(self) -> Literal["little", "big"]:
        """The byte order as int.from_bytes names it."""
        return _ORDERS[self.endian]


def columns(dtype: numpy.dtype[Any]) -> list[Column]:
    """The leaf columns of a record dtype, in field order."""
    found: list[Column] = []
    _flatten(dtype, "", 0, found)
    return found


def _flatten(dtype: numpy.dtype[Any], name: str, offset: int, found: list[Column]) -> None:
    import numpy

    if dtype.subdtype is not None:
        base, shape = dtype.subdtype
        for n, index in enumerate(numpy.ndindex(*shape)):
            label = "".join(f"[{i}]" for i in index)
            _flatten(base, f"{name}{label}", offset + n * base.itemsize, found)
    elif dtype.names and dtype.fields:
        for field in dtype.names:
            sub, at = dtype.fields[field][:2]
            _flatten(sub, f"{name}.{field}" if name else field, offset + at, found)
    else:
        endian = ">" if dtype.str[0] == ">" else "<"      # str: "<", ">" or "|" (no order)
        found.append(Column(name, offset, dtype.kind, dtype.itemsize, endian))


def format_cell(column: Column, raw: bytes) -> str:
    """The text of one value given its `column.size` raw bytes."""
    if column.kind in "iu":
        return str(int.from_bytes(raw, column.byteorder, signed=column.kind == "i"))
    if column.kind == "f":
        return format_float(raw, column.endian)
    text = raw.rstrip(b"\0")
    if all(0x20 <= b < 0x7F for b in text) and not text.startswith(b"hex:"):
        return text.decode("ascii")
    return "hex:" + raw.hex()


def format_float(raw: bytes, endian: str = "<") -> str:
    """The shortest text giving back these float32 or float64 bits (stored in byte order
    `endian`)."""
    import numpy

    fmt, bits, digits = _FLOATS[len(raw)]
    value = struct.unpack(endian + fmt, raw)[0]
    if math.isnan(value):
        return f"nan:0x{struct.unpack(endian + bits, raw)[0]:0{digits}x}"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return str(numpy.float32(value)) if len(raw) == 4 else repr(value)


def parse_cell(column: Column, text: str) -> bytes:
    """The raw bytes of a cell's text; ValueError saying what is wrong."""
    if column.kind in "iu":
        try:
            value = int(text.strip(), 10)
        except ValueError:
            raise ValueError(f"{column.name}: not a whole number: {text!r}") from None
        low, high = _int_range(column)
        if not low <= value <= high:
            raise ValueError(f"{column.name}: {value} does not fit ({low} to {high})")
        return value.to_bytes(column.size, column.byteorder, signed=column.kind == "i")
    if column.kind == "f":
        return parse_float(column, text.strip())
    if text.startswith("hex:"):
        try:
            raw = bytes.fromhex(text[4:])
        except ValueError:
            raise ValueError(f"{column.name}: bad hex bytes: {text!r}") from None
        if len(raw) != column.size:
            raise ValueError(f"{column.name}: {len(raw)} hex bytes, the field has {column.size}")
        return raw
    try:
        raw = text.encode("ascii")
    except UnicodeEncodeError:
        raise ValueError(f"{column.name}: not ASCII (write hex: and the bytes): {text!r}") \
            from None
    if len(raw) > column.size:
        raise ValueError(f"{column.name}: {len(raw)} characters, the field has {column.size} "
                         "bytes")
    return raw.ljust(column.size, b"\0")


def _int_range(column: Column) -> tuple[int, int]:
    """The lowest and highest value of an integer column."""
    bits = column.size * 8
    if column.kind == "i":
        return -(1 << bits - 1), (1 << bits - 1) - 1
    return 0, (1 << bits) - 1


def parse_float(column: Column, text: str) -> bytes:
    """The bits of a float cell: a number, `inf`, `-inf` or `nan:` and the bits in hex."""
    fmt = column.endian + _FLOATS[column.size][0]
    lowered = text.lower()
    if lowered.startswith("nan:"):
        try:
            bits = int(lowered[4:], 16)
        except ValueError:
            bits = -1
        raw = bits.to_bytes(column.size, column.byteorder) if 0 <= bits < 1 << column.size * 8 \
            else b""
        if not raw or not math.isnan(struct.unpack(fmt, raw)[0]):
            raise ValueError(f"{column.name}: not the bits of a NaN: {text!r}")
        return raw
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{column.name}: not a number: {text!r}") from None
    if column.size == 4:
        import numpy

        with numpy.errstate(over="ignore"):
            single = numpy.float32(value)
        if math.isinf(single) and not math.isinf(value):
            raise ValueError(f"{column.name}: {text} is out of float32's range")
        packed: bytes = single.astype(column.format).tobytes()
        return packed
    return struct.pack(fmt, value)


def format_rows(data: bytes, itemsize: int, cols: list[Column],
                rows: range) -> list[tuple[str, ...]]:
    """The cells of records `rows` (a step-1 range) of `data`, whole records of `itemsize`."""
    data = data[rows.start * itemsize:rows.stop * itemsize]
    count = len(rows)
    if not count:
        return []
    return list(zip(*(_format_column(data, count, itemsize, c) for c in cols)))


def _format_column(data: bytes, count: int, itemsize: int, column: Column) -> list[str]:
    import numpy

    if column.kind == "S":
        return [format_cell(column, data[at:at + column.size])
                for at in range(column.offset, count * itemsize, itemsize)]
    values = numpy.ndarray((count,), numpy.dtype(column.format), buffer=data,
                           offset=column.offset, strides=(itemsize,))
    cells: list[str] = values.astype(str).tolist()
    if column.kind == "f":
        for n in numpy.flatnonzero(numpy.isnan(values)).tolist():
            cells[n] = format_float(values[n].tobytes(), column.endian)
    return cells


def parse_rows(rows: list[list[str]], itemsize: int, cols: list[Column], path: str,
               first_line: int = 2) -> bytes:
    """The records of text rows (the first on line `first_line`); BspError naming `path` and
    the line of a malformed row."""
    import numpy

    for n, row in enumerate(rows):
        if len(row) != len(cols):
            raise BspError(f"line {first_line + n}: {len(row)} cells, the header has "
                           f"{len(cols)}", path=path)
    out = numpy.zeros((len(rows), itemsize), numpy.uint8)
    for n, (column, cells) in enumerate(zip(cols, zip(*rows))):
        try:
            raw = _parse_column(column, list(cells))
        except ValueError:
            for line, row in enumerate(rows, first_line):       # find the first bad cell
                try:
                    parse_cell(column, row[n])
                except ValueError as exc:
                    raise BspError(f"line {line}: {exc}", path=path) from None
            raise
        out[:, column.offset:column.offset + column.size] = \
            numpy.frombuffer(raw, numpy.uint8).reshape(len(rows), column.size)
    return out.tobytes()


def _parse_column(column: Column, cells: list[str]) -> bytes:
    """The raw values of one column, packed; ValueError on any bad cell."""
    import numpy

    if column.kind == "S" or (column.kind, column.size) == ("u", 8):
        return b"".join(parse_cell(column, cell) for cell in cells)
    nans = [n for n, c in enumerate(cells) if c[:4].lower() == "nan:"] \
        if column.kind == "f" else []
    try:
        text = numpy.array([c if c[:4].lower() != "nan:" else "0" for c in cells]
                           if nans else cells, str)
        values = text.astype(numpy.float64 if column.kind == "f" else numpy.int64)
    except (ValueError, OverflowError):         # a bad cell
        return b"".join(parse_cell(column, cell) for cell in cells)
    if column.kind == "f":
        with numpy.errstate(over="ignore"):
            packed = values.astype(column.format)
        if numpy.any(numpy.isinf(packed) & ~numpy.isinf(values)):
            raise ValueError("out of range")
        raw = packed.view(numpy.uint8).reshape(len(cells), column.size)
        for n in nans:                          # NaN with its bits
            raw[n] = numpy.frombuffer(parse_float(column, cells[n]), numpy.uint8)
        return raw.tobytes()
    if numpy.char.find(text, ".").max(initial=-1) >= 0:
        raise ValueError("not a whole number")
    low, high = _int_range(column)
    if len(values) and not (low <= values.min() and values.max() <= high):
        raise ValueError("out of range")
    return values.astype(column.format).tobytes()
