"""The Lumps view's API: `info` and `stats` as tables and the strip presets (a preset is
applied as the edit `strip`)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.routing import Route

from .web import route

if TYPE_CHECKING:
    from .session import Session


def routes(session: Session) -> list[Route]:
    def lumps(request: Request, body: Any) -> dict[str, Any]:
        from .views_lumps import table

        opened = session.get(request.path_params["m"])
        with opened.lock:
            return {**table(opened.state()), "revision": opened.revision}

    return [route("/api/maps/{m}/lumps", lumps)]
