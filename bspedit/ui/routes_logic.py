"""The Logic view's API: `ent check`'s findings of the map as its pending edits leave it, and
the I/O graph around one entity."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.routing import Route

from .web import UiError, route

if TYPE_CHECKING:
    from .session import Session


def _number(request: Request, name: str, default: int | None = None) -> int:
    text = request.query_params.get(name)
    if text is None and default is not None:
        return default
    if text is None or not text.isdigit():
        raise UiError(400, "bad_input", f"{name} {text!r}: a whole number")
    return int(text)


def routes(session: Session) -> list[Route]:
    def check(request: Request, body: Any) -> dict[str, Any]:
        from .views_logic import findings

        opened = session.get(request.path_params["m"])
        with opened.lock:
            entities = list(opened.entities())
            return {**findings(opened.state(), entities), "revision": opened.revision}

    def graph(request: Request, body: Any) -> dict[str, Any]:
        from .views_logic import graph_around

        opened = session.get(request.path_params["m"])
        index, depth = _number(request, "entity"), _number(request, "depth", 2)
        with opened.lock:
            entities = list(opened.entities())
            return {**graph_around(opened.state(), entities, index, depth),
                    "entity": index, "depth": depth, "revision": opened.revision}

    return [route("/api/maps/{m}/check", check),
            route("/api/maps/{m}/graph", graph)]
