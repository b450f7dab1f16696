"""The API of pending edits: add one, undo, redo, list them, the diff against the file, the
script (or Stripper config) that does them, the Stripper preview, and save."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .edits import script, stripper_config
from .web import UiError, attachment, field, route

if TYPE_CHECKING:
    from .session import Session


def routes(session: Session) -> list[Route]:
    def add(request: Request, body: dict[str, Any]) -> dict[str, Any]:
        opened = session.get(request.path_params["m"])
        with opened.lock:
            edit = opened.add(body)
            return {"edit": edit.to_json(), **opened.edits_json()}

    def listing(request: Request, body: Any) -> dict[str, Any]:
        opened = session.get(request.path_params["m"])
        with opened.lock:
            return opened.edits_json()

    def undo(request: Request, body: Any) -> dict[str, Any]:
        opened = session.get(request.path_params["m"])
        with opened.lock:
            opened.undo()
            return opened.edits_json()

    def redo(request: Request, body: Any) -> dict[str, Any]:
        opened = session.get(request.path_params["m"])
        with opened.lock:
            opened.redo()
            return opened.edits_json()

    def diff(request: Request, body: Any) -> dict[str, Any]:
        opened = session.get(request.path_params["m"])
        with opened.lock:
            return {**opened.diff(session.folder()), "revision": opened.revision}

    def export(request: Request, body: Any) -> Response:
        opened = session.get(request.path_params["m"])
        form = request.query_params.get("form", "sh")
        with opened.lock:
            if form == "sh":
                text = script(opened.edits, None if opened.upload else opened.path,
                              request.query_params.get("output"))
                name = f"{opened.name.rsplit('.', 1)[0]}_edits.sh"
            elif form == "stripper":
                text = stripper_config(opened.edits)
                name = f"{opened.name.rsplit('.', 1)[0]}.cfg"
            else:
                raise UiError(400, "bad_input", f"unknown form {form!r} (sh or stripper)")
        # bytes: a value that is not UTF-8 goes into the script as the bytes it is
        return Response(text.encode("utf-8", "surrogateescape"),
                        media_type="text/plain; charset=utf-8",
                        headers=attachment(name, "edits"))

    def preview(request: Request, body: dict[str, Any]) -> dict[str, Any]:
        from .entity_edits import stripper_preview

        opened = session.get(request.path_params["m"])
        config = field(body, "config", str).encode("utf-8", "surrogateescape")
        with opened.lock:
            return stripper_preview(opened.state(), opened.context(), config,
                                    force=field(body, "force", bool, default=False))

    def save(request: Request, body: dict[str, Any]) -> dict[str, Any]:
        opened = session.get(request.path_params["m"])
        output = field(body, "output", str, default=None)
        with opened.lock:
            others = [m.path for m in session.maps.values() if m is not opened]
            result = opened.save(output or None, others=others,
                                 keep_checksum=field(body, "keep_checksum", bool, default=False))
            return {"save": result.to_dict(), **opened.edits_json(),
                    "map": opened.summary()}

    m = "/api/maps/{m}"
    return [route(f"{m}/edits", add, methods=("POST",)),
            route(f"{m}/edits", listing),
            route(f"{m}/undo", undo, methods=("POST",)),
            route(f"{m}/redo", redo, methods=("POST",)),
            route(f"{m}/diff", diff),
            route(f"{m}/script", export),
            route(f"{m}/stripper/preview", preview, methods=("POST",)),
            route(f"{m}/save", save, methods=("POST",))]

