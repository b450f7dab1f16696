"""`bspedit` command line: argument parsing and exit codes; each verb group lives in its module.

Exit codes: 0 ok, 1 a check failed, 2 bad input or usage.
"""
from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Sequence

from ..errors import BspError, CheckFailed
from ..limits import LIMITS, caps, format_size, parse_size
from . import checksum, compression, container, diff, ent, lump, pak, patch, props

GROUPS = (container, ent, lump, props, pak, patch, diff, checksum, compression)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bspedit", description="Lossless BSP map editor.")
    _add_caps(parser)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for group in GROUPS:
        group.register(commands)
    return parser


def _add_caps(parser: argparse.ArgumentParser) -> None:
    """Global options that raise the resource caps: `bspedit --max-lump-size 2G COMMAND ...`."""
    caps = parser.add_argument_group(
        "resource caps", "input claiming more than these is refused (exit 2) instead of using "
        "that much memory; SIZE is a byte count or a number with K, M, G or T (512M, 2G)")
    caps.add_argument("--max-lump-size", type=_size, metavar="SIZE",
                      help="largest decompressed LZMA lump or game lump member "
                           f"(default {format_size(LIMITS.lump_size)})")
    caps.add_argument("--max-entity-size", type=_size, metavar="SIZE",
                      help=f"largest entity text (default {format_size(LIMITS.entity_text)})")
    caps.add_argument("--max-extract-size", type=_size, metavar="SIZE",
                      help="largest pakfile extraction, for one entry and in total (default "
                           f"{format_size(LIMITS.extract_entry)} per entry, "
                           f"{format_size(LIMITS.extract_total)} in total)")


def _size(text: str) -> int:
    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if isinstance(sys.stdout, io.TextIOWrapper):    # entity text that is not UTF-8 prints as bytes
        sys.stdout.reconfigure(errors="surrogateescape")
    extract = args.max_extract_size
    try:
        with caps(lump_size=args.max_lump_size, entity_text=args.max_entity_size,
                  extract_entry=extract, extract_total=extract):
            return args.run(args)
    except CheckFailed as exc:
        print(f"bspedit: {exc}", file=sys.stderr)
        return 1
    except BspError as exc:
        print(f"bspedit: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as exc:
        name = f"{exc.filename}: " if exc.filename else ""
        print(f"bspedit: {name}{exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
