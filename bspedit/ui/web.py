"""The API's plumbing: JSON answers and errors, and endpoints that run a plain function in a
worker thread (the library is synchronous) and turn its exceptions into one-line errors."""
from __future__ import annotations

import json
import os
import sys
import traceback
from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import BspError, CheckFailed

Handler = Callable[[Request, Any], "dict[str, Any] | Response"]


class UiError(Exception):
    """A refused request: HTTP `status`, a `kind` the page can test, a one-line message."""

    def __init__(self, status: int, kind: str, message: str) -> None:
        super().__init__(message)
        self.status, self.kind, self.message = status, kind, message


class Json(JSONResponse):
    """JSON in ASCII: entity text that is not UTF-8 reaches the page as lone surrogates
    (`\\udcXX`, as `bspedit.lumps.entities.decode` gives it), which UTF-8 cannot encode, and
    comes back the same way, byte for byte."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, separators=(",", ":")).encode("ascii")


def safe_name(name: str, default: str) -> str:
    """The last part of `name` as a file name safe anywhere (a download, a file beside the
    script, an upload's copy): ASCII letters, digits and `._-`, no leading dot; else
    `default`."""
    base = os.path.basename(name.replace("\\", "/"))
    safe = "".join(c if c.isascii() and (c.isalnum() or c in "._-") else "_" for c in base)
    return safe.lstrip(".") or default


def attachment(name: str, default: str = "file") -> dict[str, str]:
    """The header that makes the browser save a response as `name` (made safe)."""
    return {"Content-Disposition": f'attachment; filename="{safe_name(name, default)}"'}


def error(status: int, kind: str, message: str) -> JSONResponse:
    return Json({"ok": False, "error": {"kind": kind, "message": message}}, status_code=status)


def route(path: str, handler: Handler, *, methods: tuple[str, ...] = ("GET",),
          body: str = "json") -> Route:
    """A route running `handler(request, body)` in a worker thread: `body` "json" gives the
    parsed JSON object of a POST ({} when empty), "raw" its bytes, "none" nothing. The handler
    returns a dict (sent as `{"ok": true, ...}`) or a Response; it raises UiError, BspError
    (400 bad_input), CheckFailed (409 refused) or OSError (400) for a refusal, and anything
    else is an internal error (500, the traceback on the server's stderr, not to the page)."""
    async def endpoint(request: Request) -> Response:
        try:
            data: Any = None
            if request.method != "GET" and body != "none":
                raw = await request.body()
                data = raw if body == "raw" else _json(raw)
            result = await run_in_threadpool(handler, request, data)
        except UiError as exc:
            return error(exc.status, exc.kind, exc.message)
        except CheckFailed as exc:
            return error(409, "refused", _line(str(exc)))
        except BspError as exc:
            return error(400, "bad_input", _line(str(exc)))
        except OSError as exc:
            name = f"{exc.filename}: " if exc.filename else ""
            return error(400, "os_error", _line(f"{name}{exc.strerror or exc}"))
        except Exception as exc:        # a bug: one line to the page, the traceback here
            traceback.print_exc(file=sys.stderr)
            return error(500, "internal", _line(f"internal error ({type(exc).__name__}: {exc})"))
        if isinstance(result, Response):
            return result
        return Json({"ok": True, **result})
    return Route(path, endpoint, methods=list(methods))


def _json(raw: bytes) -> dict[str, Any]:
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise UiError(400, "bad_json", f"the request body is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise UiError(400, "bad_json", "the request body must be a JSON object")
    return data


def _line(text: str) -> str:
    return text.splitlines()[0] if text else text


def field(data: dict[str, Any], name: str, kind: type, *, default: Any = ...) -> Any:
    """`data[name]`, checked to be of `kind` (400 bad_input otherwise, or when missing and
    there is no `default`)."""
    if name not in data or data[name] is None:
        if default is ...:
            raise UiError(400, "bad_input", f"missing {name!r}")
        return default
    value = data[name]
    if kind is int and isinstance(value, bool) or not isinstance(value, kind):
        raise UiError(400, "bad_input", f"{name!r} must be {kind.__name__}")
    return value
