"""The web app: the page, its static files and the JSON API on 127.0.0.1, behind a token.

Every request passes `Guard` first: its Host must be this server's (DNS rebinding), its Origin,
when sent, this server's (cross-site requests), and it must carry the token, as the cookie the
first visit (`/?token=T`) set or as the `X-Bspedit-Token` header; a request that changes
something needs the header, which no cross-site form can send. Bodies are capped. The API
reads only the maps opened and writes only where Save is told to.
"""
from __future__ import annotations

import errno
import hmac
import importlib
import json
import os
import secrets
import socket
import sys
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import BspError
from .session import Session
from .web import error

if TYPE_CHECKING:
    from ..cli.report import Report

STATIC = os.path.join(os.path.dirname(__file__), "static")
# the API's modules, each with `routes(session) -> list[Route]`; a view's module adds itself
ROUTE_MODULES = ("routes_maps", "routes_edits", "routes_map", "routes_logic", "routes_pak",
                 "routes_lumps")
JSON_CAP = 16 << 20         # a request body, but for uploads
UPLOAD_CAP = 512 << 20      # an upload: a map, a file to pack (paths ending in /upload)
HEADER = "x-bspedit-token"

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


def cookie_name(port: int) -> str:
    """The token's cookie: one per port (cookies are shared by every port of a host)."""
    return f"bspedit_token_{port}"


class Guard:
    """The checks every request passes before the app sees it (see the module's doc)."""

    def __init__(self, app: App, token: str, port: int) -> None:
        self.app, self.token, self.port = app, token, port
        self.hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
        self.origins = {f"http://{host}" for host in self.hosts}
        self.cookie = cookie_name(port)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":     # no websockets, no lifespan
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
            return
        request = Request(scope)
        headers = request.headers
        if headers.get("host") not in self.hosts:
            return await error(403, "host", "refused: wrong Host header")(scope, receive, send)
        origin = headers.get("origin")
        if origin is not None and origin not in self.origins:
            return await error(403, "origin", "refused: request from another site")(
                scope, receive, send)
        if scope["path"] == "/" and request.method == "GET" and "token" in request.query_params:
            return await self._first_visit(request)(scope, receive, send)
        sent = headers.get(HEADER)
        if request.method not in ("GET", "HEAD"):
            if not self._valid(sent):
                return await error(403, "token", "refused: no valid X-Bspedit-Token header")(
                    scope, receive, send)
        elif not self._valid(sent) and not self._valid(request.cookies.get(self.cookie)):
            return await error(403, "token", "refused: no valid token (open the address "
                               "bspedit ui printed)")(scope, receive, send)
        cap = UPLOAD_CAP if scope["path"].endswith("/upload") else JSON_CAP
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > cap):
            return await _too_large(cap)(scope, receive, send)
        body = await _read_body(receive, cap)
        if body is None:
            return await _too_large(cap)(scope, receive, send)
        await self.app(scope, _replay(body, receive), send)

    def _valid(self, token: str | None) -> bool:
        return token is not None and hmac.compare_digest(token.encode(), self.token.encode())

    def _first_visit(self, request: Request) -> Response:
        """`/?token=T`: the cookie is set and the page loaded without the token in its
        address (nor in the history)."""
        token = parse_qs(request.url.query).get("token", [""])[0]
        if not self._valid(token):
            return error(403, "token", "refused: wrong token")
        response = Response(status_code=303, headers={"Location": "/"})
        response.set_cookie(self.cookie, self.token, httponly=True, samesite="strict",
                            path="/")
        return response


def _too_large(cap: int) -> Response:
    return error(413, "too_large", f"refused: the request is over {cap >> 20} MiB")


async def _read_body(receive: Receive, cap: int) -> bytes | None:
    """The request's body, or None when it goes over `cap`."""
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > cap:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """The body read, once, then the connection's own messages (a disconnect when it comes:
    a streamed response listens for it)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()
    return replay


def make_app(session: Session, token: str, port: int) -> App:
    """The app for `session`, checked by `Guard` for `token` on `port`."""
    with open(os.path.join(STATIC, "index.html"), encoding="utf-8") as file:
        page = file.read().replace("{{token}}", token)

    async def index(request: Request) -> Response:
        return HTMLResponse(page, headers={"Cache-Control": "no-store"})

    routes: list[Route | Mount] = [Route("/", index)]
    for name in ROUTE_MODULES:
        routes += importlib.import_module(f"{__package__}.{name}").routes(session)
    routes.append(Mount("/static", StaticFiles(directory=STATIC), name="static"))
    app = Starlette(routes=routes)
    return Guard(app, token, port)


def bind(port: int) -> socket.socket:
    """A socket listening on 127.0.0.1:`port` (0: a free port); BspError when it is taken."""
    # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on sockets that say so (without it a
    # second response on a kept-alive connection waits 40 ms for a delayed ACK)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    if sys.platform != "win32":
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError as exc:
        sock.close()
        if exc.errno in (errno.EADDRINUSE, errno.EACCES):
            raise BspError(f"port {port} on 127.0.0.1 is in use (or not allowed): choose "
                           "another with --port, or leave it out for a free one") from None
        raise
    sock.listen(64)
    return sock


def serve(paths: Sequence[str], *, port: int, browser: bool, report: Report) -> int:
    """Open `paths`, print the page's address (the first line on stdout), open the browser,
    and serve until Ctrl-C (KeyboardInterrupt: the command line's exit 130). BspError (exit
    2, before serving) for a path that is not a map or a port in use."""
    import uvicorn

    session = Session()
    try:
        for path in paths:
            session.open_path(path)
        sock = bind(port)
        port = sock.getsockname()[1]
        token = secrets.token_urlsafe(32)
        url = f"http://127.0.0.1:{port}/?token={token}"
        if report.json:
            print(json.dumps({"url": url, "port": port,
                              "maps": [m.summary() for m in session.maps.values()]}))
        else:
            print(url)
        sys.stdout.flush()
        if browser:
            import webbrowser

            webbrowser.open(url)
        config = uvicorn.Config(make_app(session, token, port), log_level="warning",
                                lifespan="off", access_log=False, server_header=False)
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        session.close()
    raise KeyboardInterrupt     # uvicorn returns after Ctrl-C (or SIGTERM): stopped by hand
