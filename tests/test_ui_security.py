"""`bspedit ui`'s guard over raw HTTP against the real server process: no token, a wrong
token, a wrong Host (DNS rebinding), a foreign Origin, a change without the token header, a
path that is no opened map, oversize bodies: each refused, and nothing read or written."""
from __future__ import annotations

import json
import shutil

import pytest

from conftest import ROOT
from ui_browser import UiServer, needs_ui

pytestmark = needs_ui
DEMO = ROOT / "docs" / "examples" / "demo.bsp"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ui-security")
    shutil.copyfile(DEMO, folder / "demo.bsp")
    with UiServer([folder / "demo.bsp"]) as running:
        running.folder = folder
        yield running


def refused(answer: tuple[int, bytes, dict], status: int, kind: str) -> None:
    code, body, _ = answer
    assert code == status, (code, body)
    data = json.loads(body)
    assert data["ok"] is False and data["error"]["kind"] == kind
    assert data["error"]["message"] and "\n" not in data["error"]["message"]


def test_with_the_token_it_answers(server):
    code, body, _ = server.request("GET", "/api/maps")
    assert code == 200 and json.loads(body)["maps"][0]["name"] == "demo.bsp"


@pytest.mark.parametrize("path", ["/", "/api/maps", "/api/maps/m1/entities", "/static/app.js",
                                  "/api/maps/m1/script?form=sh"])
def test_no_token_is_refused(server, path):
    refused(server.request("GET", path, token=False), 403, "token")
    refused(server.request("GET", path, token=False,
                           headers={"X-Bspedit-Token": "x" + server.token[1:]}), 403, "token")
    refused(server.request("GET", path, token=False,
                           headers={"Cookie": f"bspedit_token_{server.port}=wrong"}), 403, "token")


def test_the_first_visit_sets_the_cookie_that_then_serves_the_page(server):
    code, _, headers = server.request("GET", f"/?token={server.token}", token=False)
    assert code == 303 and headers["location"] == "/"
    cookie = headers["set-cookie"]
    assert cookie.startswith(f"bspedit_token_{server.port}={server.token};")
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/" in cookie
    code, page, _ = server.request("GET", "/", token=False,
                                   headers={"Cookie": cookie.split(";")[0]})
    assert code == 200 and b"<title>bspedit</title>" in page
    refused(server.request("GET", "/?token=wrong", token=False), 403, "token")


@pytest.mark.parametrize("host", ["evil.example:80", "evil.example", "127.0.0.1",
                                  "127.0.0.1:1", "localhost.evil.example", ""])
def test_a_wrong_host_is_refused(server, host):
    """DNS rebinding: a page of another site whose name now points at 127.0.0.1 sends its
    own name as Host; even with the token (it cannot have it) it is refused."""
    refused(server.request("GET", "/api/maps", host=host or " "), 403, "host")
    refused(server.request("GET", f"/?token={server.token}", host=host or " ", token=False),
            403, "host")


def test_localhost_is_this_host_too(server):
    code, _, _ = server.request("GET", "/api/maps", host=f"localhost:{server.port}")
    assert code == 200


@pytest.mark.parametrize("origin", ["http://evil.example", "null",
                                    "http://127.0.0.1:1", "https://127.0.0.1:{port}"])
def test_a_foreign_origin_is_refused(server, origin):
    origin = origin.format(port=server.port)
    refused(server.request("GET", "/api/maps", headers={"Origin": origin}), 403, "origin")
    refused(server.request("POST", "/api/maps/m1/edits", headers={"Origin": origin},
                           body=b'{"op": "set_key", "entity": 0, "key": "a", "value": "b"}'),
            403, "origin")
    assert json.loads(server.request("GET", "/api/maps/m1/edits")[1])["edits"] == []


def test_a_change_needs_the_token_header_not_only_the_cookie(server):
    """A cross-site form can make the browser send the cookie, never a header: a POST with
    the cookie alone is refused."""
    cookie = f"bspedit_token_{server.port}={server.token}"
    for path in ("/api/maps/m1/edits", "/api/maps/m1/save", "/api/maps/m1/undo",
                 "/api/maps", "/api/maps/upload?name=x.bsp"):
        refused(server.request("POST", path, token=False, headers={"Cookie": cookie},
                               body=b'{"op": "delete_entity", "entity": 1}'), 403, "token")
    assert json.loads(server.request("GET", "/api/maps/m1/edits")[1])["edits"] == []


def test_a_path_that_is_no_opened_map_is_refused(server, tmp_path):
    """Every endpoint naming a map takes an opened map's id, never a path; opening a path is
    the user's typed request and reads only a map; Save writes only where it is told, never
    over an opened map, a folder or through a link to the map."""
    for path in ("/api/maps/..%2f..%2fetc%2fpasswd/entities", "/api/maps/m99/entities",
                 "/api/maps/%2Fetc%2Fpasswd", "/api/maps/m99/save", "/api/maps/m99/diff"):
        code, body, _ = server.request("GET" if "save" not in path else "POST", path,
                                       body=b"{}" if "save" in path else None)
        assert code in (404, 405) and b"root:" not in body, (path, code, body)
    for path in ("/static/../../../../etc/passwd", "/static/%2e%2e/%2e%2e/server.py",
                 "/static/..%2f..%2fsession.py"):
        code, body, _ = server.request("GET", path)
        assert code == 404 and b"root:" not in body and b"import" not in body, path
    code, body, _ = server.request("POST", "/api/maps", body=b'{"path": "/etc/passwd"}')
    assert code == 400 and b"root:" not in body
    code, body, _ = server.request("POST", "/api/maps", body=json.dumps(
        {"path": str(server.folder)}).encode())
    assert code == 400 and b"folder" in body
    # Save: over the opened map through a link, over a folder: refused, nothing written
    map_path = server.folder / "demo.bsp"
    before = map_path.read_bytes()
    link = tmp_path / "link.bsp"
    link.symlink_to(map_path)
    server.request("POST", "/api/maps/m1/edits",
                   body=b'{"op": "set_key", "entity": 0, "key": "message", "value": "x"}')
    for output in (str(link), str(map_path), str(tmp_path), str(server.folder) + "/"):
        code, body, _ = server.request("POST", "/api/maps/m1/save",
                                       body=json.dumps({"output": output}).encode())
        assert code == 400, (output, body)
        assert json.loads(body)["error"]["kind"] == "bad_input"
    assert map_path.read_bytes() == before and link.is_symlink()
    server.request("POST", "/api/maps/m1/undo")


def test_oversize_bodies_are_refused(server):
    big = b"{" + b" " * (16 << 20) + b"}"
    refused(server.request("POST", "/api/maps/m1/edits", body=big), 413, "too_large")
    refused(server.request("POST", "/api/maps/m1/edits",
                           headers={"Content-Length": str(600 << 20)}), 413, "too_large")
    assert json.loads(server.request("GET", "/api/maps/m1/edits")[1])["edits"] == []


def test_no_websocket_and_no_server_banner(server):
    code, _, headers = server.request("GET", "/api/maps", headers={
        "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})
    assert code != 101 and "server" not in headers
