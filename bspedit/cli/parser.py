"""The command line's parser: argparse's, its help as wide as the terminal found once per
process. argparse finds it (importing shutil, which imports bz2 and lzma) for every argument a
parser is given: a tenth of the imports and work of a small entity edit (issue 42)."""
from __future__ import annotations

import argparse
import functools
import os
import sys


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose help formatters take `help_width` (its sub-commands' parsers
    are of its class too)."""

    def _get_formatter(self) -> argparse.HelpFormatter:
        return self.formatter_class(prog=self.prog, width=help_width())  # type: ignore[call-arg]


@functools.cache
def help_width() -> int:
    """The width argparse formats help to: the terminal's columns ($COLUMNS first, else 80
    when there is no terminal), less 2, found as `shutil.get_terminal_size` finds them."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0 and sys.__stdout__ is not None:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (ValueError, OSError):
            columns = 0
    return (columns if columns > 0 else 80) - 2
