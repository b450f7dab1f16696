"""The API of opened maps: list, open (a path typed, a file uploaded), summary, entities."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..lumps.entities import split_terminator
from .web import UiError, field, route

if TYPE_CHECKING:
    from .session import Session


def routes(session: Session) -> list[Route]:
    def list_maps(request: Request, body: Any) -> dict[str, Any]:
        return {"maps": [_summary(m) for m in list(session.maps.values())]}

    def open_map(request: Request, body: dict[str, Any]) -> dict[str, Any]:
        opened = session.open_path(field(body, "path", str))
        return {"map": _summary(opened)}

    def upload(request: Request, body: bytes) -> dict[str, Any]:
        name = request.query_params.get("name") or "upload.bsp"
        if not body:
            raise UiError(400, "bad_input", "the upload is empty")
        return {"map": _summary(session.open_upload(name, body))}

    def summary(request: Request, body: Any) -> dict[str, Any]:
        opened = session.get(request.path_params["m"])
        with opened.lock:
            found = _summary(opened)
            if request.query_params.get("checksums"):
                found["checksums"] = opened.state().checksums()
                found["checksums_of"] = "the file on disk"
            return {"map": found}

    def entities(request: Request, body: Any) -> dict[str, Any]:
        opened = session.get(request.path_params["m"])
        with opened.lock:
            rows = [_row(n, entity.pairs()) for n, entity in enumerate(opened.entities())]
            return {"entities": rows, "revision": opened.revision, "lenient": opened.lenient}

    def entity_text(request: Request, body: Any) -> dict[str, Any] | Response:
        from ..lumps.entities import decode

        opened = session.get(request.path_params["m"])
        with opened.lock:
            text = split_terminator(opened.entities().to_bytes())[0]
            return {"text": decode(text.decode("latin-1")), "revision": opened.revision}

    return [route("/api/maps", list_maps),
            route("/api/maps", open_map, methods=("POST",)),
            route("/api/maps/upload", upload, methods=("POST",), body="raw"),
            route("/api/maps/{m}", summary),
            route("/api/maps/{m}/entities", entities),
            route("/api/maps/{m}/entities/text", entity_text)]


def _summary(opened: Any) -> dict[str, Any]:
    with opened.lock:
        return opened.summary()  # type: ignore[no-any-return]


def _row(index: int, pairs: list[tuple[str, str]]) -> dict[str, Any]:
    first: dict[str, str] = {}
    for key, value in pairs:
        first.setdefault(key.lower(), value)
    return {"index": index, "classname": first.get("classname", ""),
            "targetname": first.get("targetname", ""), "origin": first.get("origin", ""),
            "keys": pairs}
