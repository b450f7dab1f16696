"""`bspedit` command line: argument parsing and exit codes; each verb group lives in its module.

Exit codes: 0 ok, 1 a check failed, 2 bad input or usage.
"""
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from ..errors import BspError, CheckFailed
from . import checksum, container, diff, ent, lump

GROUPS = (container, ent, lump, diff, checksum)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bspedit", description="Lossless BSP map editor.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for group in GROUPS:
        group.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
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
