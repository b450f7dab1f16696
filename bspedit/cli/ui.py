"""`ui`: the local web app (`bspedit.ui`). Only this verb imports the web stack (the `ui`
extra: starlette, uvicorn); every other verb starts as fast without it."""
from __future__ import annotations

import argparse

from ..errors import BspError
from . import SUMMARIES
from .common import add_json


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "ui", help=SUMMARIES["ui"],
        description="Serve a local web app on 127.0.0.1 for MAPs (and maps opened from the "
                    "page): entities, patches and saving, the same edits as the command line. "
                    "The first line printed is the page's address with its access token; "
                    "Ctrl-C stops it (edits not saved are lost).")
    parser.add_argument("maps", nargs="*", metavar="MAP", help="maps to open")
    parser.add_argument("--port", type=_port, default=0,
                        help="the port to listen on (default: a free one)")
    parser.add_argument("--no-browser", action="store_true",
                        help="do not open the page in the web browser")
    add_json(parser)
    parser.set_defaults(run=run_ui)


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port < 65536:
        raise argparse.ArgumentTypeError(f"not a port number (0 to 65535): {text!r}")
    return port


def run_ui(args: argparse.Namespace) -> int:
    try:
        from ..ui.server import serve
    except ImportError as exc:
        if (exc.name or "").partition(".")[0] == "bspedit":
            raise
        raise BspError(f"bspedit ui needs the web stack, which is not installed ({exc.name} is "
                       "missing): pip install 'bspedit[ui]'") from None
    return serve(args.maps, port=args.port, browser=not args.no_browser, report=args.report)
