"""Names the engines compare: ASCII-only case folding (their stricmp) and game file paths."""
from __future__ import annotations

# spelled out: the `string` module compiles a regular expression when imported (start-up time)
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def fold(text: str) -> str:
    """ASCII-only case folding, like the engines' stricmp (other characters are kept)."""
    return text.lower() if text.isascii() else text.translate(_ASCII_LOWER)


def game_path(name: str) -> str:
    """A file path the way the engine looks it up: forward slashes, no leading slash, ASCII
    lower case."""
    return fold(name.replace("\\", "/").lstrip("/"))
