"""The Map view's API: the top-down picture (PNG) and its frame with the entity markers. The
picture is made on the first request for it, from a copy of the map's state (the page stays
usable meanwhile), and kept per map, revision, size and colour: the PNG and the frame asked
together are made once."""
from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .views_map import COLORS, DEFAULT_SIZE
from .web import UiError, route

if TYPE_CHECKING:
    from .session import Session

#: pictures kept (the latest; a map's older revisions go first)
KEPT = 8

Key = tuple[str, int, int, str]


class Pictures:
    """The pictures made, by (map id, revision, size, colour); each made once even when asked
    twice at the same time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._made: dict[Key, dict[str, Any]] = {}
        self._making: dict[Key, threading.Lock] = {}

    def get(self, session: Session, map_id: str, size: int, color: str) -> dict[str, Any]:
        from .snapshot import replayed
        from .views_map import markers, picture, png

        opened = session.get(map_id)
        with opened.lock:
            key = (map_id, opened.revision, size, color)
        with self._lock:
            making = self._making.setdefault(key, threading.Lock())
        with making:
            with self._lock:
                if key in self._made:
                    return self._made[key]
            with replayed(opened) as (bsp, revision):
                shown = picture(bsp, size=size, color=color)
                entities = list(bsp.entities(lenient=True))
                made = {"png": png(shown), "revision": revision,
                        "frame": shown.frame.to_json(), "legend": shown.legend,
                        "faces_drawn": shown.faces_drawn,
                        "faces_skipped": dict(shown.faces_skipped),
                        "markers": markers(bsp, entities, shown.frame)}
            with self._lock:
                self._made[(map_id, revision, size, color)] = made
                self._made[key] = made
                while len(self._made) > KEPT:
                    self._made.pop(next(iter(self._made)))
                self._making.pop(key, None)
            return made


def _asked(request: Request) -> tuple[str, int, str]:
    text = request.query_params.get("size", str(DEFAULT_SIZE))
    if not text.isdigit():
        raise UiError(400, "bad_input", f"size {text!r}: a number of pixels")
    color = request.query_params.get("color", "height")
    if color not in COLORS:
        raise UiError(400, "bad_input", f"color {color!r}: one of {', '.join(COLORS)}")
    return request.path_params["m"], int(text), color


def routes(session: Session) -> list[Route]:
    pictures = Pictures()

    def frame(request: Request, body: Any) -> dict[str, Any]:
        made = pictures.get(session, *_asked(request))
        return {k: v for k, v in made.items() if k != "png"}

    def image(request: Request, body: Any) -> Response:
        made = pictures.get(session, *_asked(request))
        return Response(made["png"], media_type="image/png",
                        headers={"Cache-Control": "private, max-age=3600",
                                 "X-Bspedit-Revision": str(made["revision"])})

    return [route("/api/maps/{m}/picture.json", frame),
            route("/api/maps/{m}/picture.png", image)]
