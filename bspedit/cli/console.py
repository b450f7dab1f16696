"""Standard streams on every OS: entity text on a console that cannot show it, and a reader
that went away (`bspedit ... | head`).

Entity text is decoded as UTF-8 with invalid bytes kept as surrogates. On a UTF-8 stream those
bytes go out as they were; on another encoding (Windows sends output redirected to a file
through its ANSI code page, cp1252 in the west) a character the code page lacks is written as
a backslash escape, and a kept byte as itself, instead of failing.
"""
from __future__ import annotations

import codecs
import errno
import io
import os
import sys

_HANDLER = "bspedit-console"


def _escape(error: UnicodeError) -> tuple[bytes, int]:
    """Kept bytes (surrogates U+DC80..U+DCFF) as themselves, other characters escaped."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    out = bytearray()
    for char in error.object[error.start:error.end]:
        code = ord(char)
        if 0xDC80 <= code <= 0xDCFF:
            out.append(code - 0xDC00)
        else:
            out += char.encode("ascii", "backslashreplace")
    return bytes(out), error.end


codecs.register_error(_HANDLER, _escape)


def set_up_stdout() -> None:
    """Let standard output take any entity text (see the module's docstring)."""
    stream = sys.stdout
    if not isinstance(stream, io.TextIOWrapper):
        return
    utf8 = codecs.lookup(stream.encoding).name == "utf-8"
    stream.reconfigure(errors="surrogateescape" if utf8 else _HANDLER)


def reader_gone(exc: OSError) -> bool:
    """True when `exc` says the reader of standard output closed it: a broken pipe, which
    Windows (no SIGPIPE, no EPIPE on a pipe write) reports as EINVAL."""
    return isinstance(exc, BrokenPipeError) or (
        os.name == "nt" and exc.errno == errno.EINVAL and exc.filename is None)


def silence_stdout() -> None:
    """Point standard output at the null device, so Python's last flush at exit cannot fail."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
