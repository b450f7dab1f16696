"""The API of the ui's Map, Logic, Pakfile and Lumps views against the real server: the pak
and strip edits saved by the page are the exported script's commands byte for byte; the
picture, findings, graph, listing, download and preview; and a careless user's requests (a
pak path with `..`, a huge upload, a rename onto an entry, a Quake map's pakfile) refused
with one line, nothing changed."""
from __future__ import annotations

import base64
import json
import os
import struct

import pytest

from bspedit.bsp import Bsp
from conftest import CORPUS, ROOT
from test_ui_api import Api, export_and_run, open_copy
from ui_browser import UiServer, needs_ui

pytestmark = needs_ui
SOURCE = CORPUS / "source" / "valvebsp_testmap.bsp"
QUAKE = CORPUS / "q1" / "slipgate_b_batt0.bsp"
CONTENT = ROOT.parent / "shared" / "content" / "msrc"
CUBEMAP = "materials/maps/testmap/c0_-384_96.vtf"


@pytest.fixture(scope="module")
def server():
    with UiServer([]) as running:
        yield running


def upload(api: Api, path: str, data: bytes, *, status: int = 200, **flags: int) -> dict:
    query = "".join(f"&{k}={v}" for k, v in flags.items())
    code, raw, _ = api.server.request("POST", f"/api/maps/{api.id}/pak/upload?path={path}"
                                      f"{query}", body=data)
    answer = json.loads(raw)
    assert code == status, answer
    return answer


def test_pak_and_strip_edits_give_the_scripts_bytes(server, tmp_path):
    """Upload (binary, raw body), add (base64), remove, rename with references, a strip
    preset: the page's save equals the script's result; undoing all of it saves the map as
    it was."""
    api, copy = open_copy(server, SOURCE, tmp_path)
    original = copy.read_bytes()
    binary = bytes(range(256)) * 300 + b"%\\'\"$`"
    upload(api, "materials/test/data%20%24x.bin", binary)
    api.edit(op="pak_add", path="materials/test/readme.txt",
             data_b64=base64.b64encode("héllo\n".encode() * 200).decode(), compress=True)
    api.edit(op="pak_remove", path="MATERIALS/maps/testmap/c0_384_96.vtf")
    renamed = api.edit(op="pak_rename", old=CUBEMAP, new="materials/maps/testmap/moved.vtf",
                       update_references=True)
    assert "updating 2 material(s)" in renamed["edit"]["summary"]
    api.edit(op="strip", preset="no-hdr")
    listing = api.call("GET", "/pak")
    names = [e["name"] for e in listing["entries"]]
    assert "materials/test/data $x.bin" in names and "materials/maps/testmap/moved.vtf" in names
    assert "materials/maps/testmap/c0_384_96.vtf" not in names
    code, raw, headers = server.request(
        "GET", f"/api/maps/{api.id}/pak/file?path=materials/test/data%20%24x.bin")
    assert code == 200 and raw == binary
    assert headers["content-disposition"] == 'attachment; filename="data__x.bin"'
    saved, scripted = tmp_path / "page.bsp", tmp_path / "script.bsp"
    api.call("POST", "/save", {"output": str(saved)})
    export_and_run(api, copy, scripted)
    assert saved.read_bytes() == scripted.read_bytes()
    assert copy.read_bytes() == original
    with Bsp.open(str(saved)) as bsp:
        assert bsp.pakfile.read("materials/test/data $x.bin") == binary
        assert bsp.pakfile.find("materials/test/readme.txt").method_name == "lzma"
    for _ in range(5):
        api.call("POST", "/undo")
    back = tmp_path / "undone.bsp"
    api.call("POST", "/save", {"output": str(back)})
    assert back.read_bytes() == original


def test_add_then_remove_is_the_map_unchanged(server, tmp_path):
    """A file packed and removed again: the page saves the original bytes, as the script
    of the two commands does."""
    api, copy = open_copy(server, SOURCE, tmp_path)
    upload(api, "materials/x/gone.vmt", b'"LightmappedGeneric" {}')
    api.edit(op="pak_remove", path="materials/x/gone.vmt")
    saved, scripted = tmp_path / "page.bsp", tmp_path / "script.bsp"
    api.call("POST", "/save", {"output": str(saved)})
    export_and_run(api, copy, scripted)
    assert saved.read_bytes() == scripted.read_bytes() == copy.read_bytes()


@pytest.mark.skipif(not CONTENT.is_dir(), reason="../shared/content not present")
def test_autopack_deps_and_audit(server, tmp_path):
    """With the mod's folder typed on the page: deps and audit are the verbs' JSON, autopack
    is a pending edit whose script (`pak autopack --game`) gives the same bytes."""
    from conftest import run_cli

    api, copy = open_copy(server, CONTENT / "maps" / "dissenter.bsp", tmp_path)
    game = {"game": os.path.relpath(CONTENT)}       # from where the server runs (this folder)
    deps = api.call("POST", "/pak/deps", game)
    expected = json.loads(run_cli("pak", "deps", copy, "--game", CONTENT, "--json").stdout)
    assert {k: v for k, v in deps.items() if k not in ("ok", "revision")} == expected["result"]
    audit = api.call("POST", "/pak/audit", game)
    assert audit["entries"] == len(api.call("GET", "/pak")["entries"])
    packed = api.edit(op="autopack", **game)
    assert f"--game={CONTENT.resolve()}" in packed["edit"]["command"]    # the script's: anywhere
    after = {e["name"] for e in api.call("GET", "/pak")["entries"]}
    assert any(name.startswith("materials/skybox/madness_01") for name in after)
    saved, scripted = tmp_path / "page.bsp", tmp_path / "script.bsp"
    api.call("POST", "/save", {"output": str(saved)})
    export_and_run(api, copy, scripted)
    assert saved.read_bytes() == scripted.read_bytes()
    api.call("POST", "/pak/deps", {"game": str(tmp_path)}, status=400)     # no gameinfo
    api.call("POST", "/pak/deps", {}, status=400)


def test_picture_check_graph_and_lumps(server, tmp_path):
    api, _ = open_copy(server, SOURCE, tmp_path)
    frame = api.call("GET", "/picture.json?size=512")
    assert frame["frame"]["width"] <= 512 and frame["markers"]
    code, png, _ = server.request("GET", f"/api/maps/{api.id}/picture.png?size=512")
    assert code == 200 and png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png[16:24]) == (frame["frame"]["width"],
                                                frame["frame"]["height"])
    assert server.request("GET", f"/api/maps/{api.id}/picture.png?size=512")[1] == png
    api.call("GET", "/picture.json?size=9", status=400)
    api.call("GET", "/picture.json?color=lightmap", status=400)
    api.edit(op="pak_remove", path="materials/maps/testmap/c0_384_96.vtf")     # the pakfile alone
    assert api.call("GET", "/picture.json?size=512") == {**frame, "revision": 1}
    world = next(e["index"] for e in api.entities() if e["classname"] == "worldspawn")
    api.edit(op="delete_entity", entity=frame["markers"][-1]["index"])
    after = api.call("GET", "/picture.json?size=512")
    assert after["revision"] == 2 and len(after["markers"]) == len(frame["markers"]) - 1
    assert api.call("GET", "/check")["counts"] == {"problem": 0, "warning": 0, "note": 0,
                                                    "unknown": 0}
    graph = api.call("GET", f"/graph?entity={world}")
    assert graph["nodes"][0]["classname"] == "worldspawn"
    api.call("GET", "/graph?entity=9999", status=400)
    api.call("GET", "/graph?entity=x", status=400)
    lumps = api.call("GET", "/lumps")
    assert lumps["info"]["family"] == "source" and lumps["stats"]["rows"]
    preview = api.call("GET", f"/pak/preview?path={CUBEMAP}")
    assert preview["kind"] == "image" and base64.b64decode(preview["png_b64"])[:4] == b"\x89PNG"


def test_careless_requests(server, tmp_path):
    api, copy = open_copy(server, SOURCE, tmp_path)
    before = api.call("GET", "/edits")["edits"]
    for path in ("../escape.txt", "materials/../../x.txt", "/", "c:/x.txt", "a/./b.txt"):
        answer = upload(api, path, b"x", status=400)
        assert answer["error"]["kind"] == "bad_input" and "pak path" in answer["error"]["message"]
    code, raw, _ = server.request(
        "POST", f"/api/maps/{api.id}/pak/upload?path=big.bin",
        headers={"Content-Length": str((512 << 20) + 1)}, body=None)
    assert code == 413, raw
    answer = api.edit(op="pak_rename", old=CUBEMAP, new="materials/maps/testmap/c0_384_96.vtf",
                      status=409)
    assert answer["error"]["kind"] == "exists"
    api.edit(op="pak_rename", old="materials/none.vtf", new="x.vtf", status=404)
    api.edit(op="pak_remove", path="materials/none.vtf", status=404)
    upload(api, "materials/maps/testmap/c0_384_96.vtf", b"x", status=409)
    api.edit(op="pak_add", path="x.txt", data_b64="not base64!", status=400)
    api.edit(op="pak_upload", path="x.txt", data="from JSON", status=400)
    api.edit(op="strip", preset="everything", status=400)
    api.call("GET", "/pak/preview?path=nothing.vtf", status=404)
    api.call("GET", "/pak/file?path=", status=400)
    assert api.call("GET", "/edits")["edits"] == before
    quake, _ = open_copy(server, QUAKE, tmp_path)
    answer = quake.call("GET", "/pak", status=400)
    assert answer["error"]["message"].endswith("maps have no pakfile")
    quake.edit(op="pak_remove", path="x", status=400)
    answer = quake.edit(op="strip", preset="no-hdr", status=400)
    assert "is for Source maps" in answer["error"]["message"]
    assert quake.call("GET", "/lumps")["presets"][0]["refused"]
    assert copy.read_bytes() == SOURCE.read_bytes()
