"""The Map view's API: the top-down picture (PNG) and its frame with the entity markers. The
picture is made on the first request for it, from a copy of the map's state (the page stays
usable meanwhile), and kept per map, state, size and colour: the PNG and the frame asked
together are made once, and an edit of the pakfile alone makes no new one."""
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

#: pictures kept (the latest; a map's older states go first)
KEPT = 8

#: a picture's map id, the edits it shows (those a picture depends on), size and colour
Key = tuple[str, tuple[object, ...], int, str]


class Pictures:
    """The pictures made, by map, the pending edits they show (an edit of the pakfile alone
    makes no new picture), size and colour; each made once even when asked twice at the same
    time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._made: dict[Key, dict[str, Any]] = {}
        self._making: dict[Key, threading.Lock] = {}

    def get(self, session: Session, map_id: str, size: int, color: str) -> dict[str, Any]:
        from .snapshot import pending, replayed
        from .views_map import markers, picture, png

        opened = session.get(map_id)
        edits, revision = pending(opened, pakfile=False)
        key = (map_id, edits, size, color)
        with self._lock:
            making = self._making.setdefault(key, threading.Lock())
        with making:
            with self._lock:
                made = self._made.get(key)
            if made is None:
                with replayed(opened, edits) as (bsp, _):
                    shown = picture(bsp, size=size, color=color)
                    entities = list(bsp.entities(lenient=True))
                    made = {"png": png(shown), "frame": shown.frame.to_json(),
                            "legend": shown.legend, "faces_drawn": shown.faces_drawn,
                            "faces_skipped": dict(shown.faces_skipped),
                            "markers": markers(bsp, entities, shown.frame)}
                with self._lock:
                    self._made[key] = made
                    while len(self._made) > KEPT:
                        self._made.pop(next(iter(self._made)))
        with self._lock:
            self._making.pop(key, None)
        return {**made, "revision": revision}


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
