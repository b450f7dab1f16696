"""The Pakfile view's API: the entries (the zip's directory only), one entry's bytes (a
download) and preview, a file uploaded to pack (the edit `pak_add`, raw body up to the upload
cap), what a rename would update, and `pak deps` / `pak audit` with the game typed on the
page. Pak paths are zip entry names, never file-system paths."""
from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .web import UiError, attachment, field, route

if TYPE_CHECKING:
    from ..lumps.pakfile import Entry, Pakfile
    from .session import Session


def _path(request: Request) -> str:
    path = request.query_params.get("path")
    if not path:
        raise UiError(400, "bad_input", "missing 'path' (a pak entry's name)")
    return path


def routes(session: Session) -> list[Route]:
    def listing(request: Request, body: Any) -> dict[str, Any]:
        from .views_pak import listing as entries

        opened = session.get(request.path_params["m"])
        with opened.lock:
            return {**entries(opened.state().pakfile), "revision": opened.revision}

    def download(request: Request, body: Any) -> Response:
        opened = session.get(request.path_params["m"])
        with opened.lock:
            pak = opened.state().pakfile
            found = _entry(pak, _path(request))
            data = pak.read(found)
        return Response(data, media_type="application/octet-stream",
                        headers=attachment(found.name))

    def preview(request: Request, body: Any) -> dict[str, Any]:
        from .views_pak import preview as show

        opened = session.get(request.path_params["m"])
        with opened.lock:
            pak = opened.state().pakfile
            shown = show(pak, _entry(pak, _path(request)).name)
        out: dict[str, Any] = {"kind": shown.kind, "note": shown.note, "cut": shown.cut}
        if shown.kind == "text":
            out["text"] = shown.data.decode("utf-8")
        else:
            out.update(png_b64=base64.b64encode(shown.data).decode("ascii"),
                       width=shown.width, height=shown.height)
        return out

    def upload(request: Request, body: bytes) -> dict[str, Any]:
        opened = session.get(request.path_params["m"])
        flags = {name: request.query_params.get(name) in ("1", "true")
                 for name in ("update", "compress")}
        with opened.lock:
            edit = opened.add({"op": "pak_upload", "path": _path(request), "data": body,
                               **flags})
            return {"edit": edit.to_json(), **opened.edits_json()}

    def references(request: Request, body: dict[str, Any]) -> dict[str, Any]:
        from ..features.pack.rename import find_references, texdata_rows
        from ..lumps.pakfile import pak_key

        opened = session.get(request.path_params["m"])
        with opened.lock:
            pak = opened.state().pakfile
            old = _entry(pak, field(body, "old", str))
            new = pak_key(field(body, "new", str))
            found = find_references(pak, list(opened.entities()), old.key, new)
            return {**found.to_dict(), "texdata": texdata_rows(opened.state(), old.key),
                    "exists": pak.find(new) is not None}

    def deps(request: Request, body: dict[str, Any]) -> dict[str, Any]:
        from ..features.pack.deps import deps as needs
        from .pak_edits import game_fields
        from .snapshot import replayed
        from .views_pak import game

        fs = game(*game_fields(body))
        with replayed(session.get(request.path_params["m"])) as (bsp, revision):
            _ = bsp.pakfile         # a map without a pakfile is refused, as by `pak deps`
            return {**needs(bsp, fs).to_dict(), "revision": revision}

    def audit(request: Request, body: dict[str, Any]) -> dict[str, Any]:
        from ..features.pack.audit import audit as check
        from .pak_edits import game_fields
        from .snapshot import replayed
        from .views_pak import game

        fs = game(*game_fields(body))
        with replayed(session.get(request.path_params["m"])) as (bsp, revision):
            return {**check(bsp, fs).to_dict(), "revision": revision}

    return [route("/api/maps/{m}/pak", listing),
            route("/api/maps/{m}/pak/file", download),
            route("/api/maps/{m}/pak/preview", preview),
            route("/api/maps/{m}/pak/upload", upload, methods=("POST",), body="raw"),
            route("/api/maps/{m}/pak/references", references, methods=("POST",)),
            route("/api/maps/{m}/pak/deps", deps, methods=("POST",)),
            route("/api/maps/{m}/pak/audit", audit, methods=("POST",))]


def _entry(pak: Pakfile, path: str) -> Entry:
    """The entry at `path`; 404 when there is none."""
    from .views_pak import entry

    try:
        return entry(pak, path)
    except LookupError as exc:
        raise UiError(404, "no_entry", str(exc.args[0])) from None
