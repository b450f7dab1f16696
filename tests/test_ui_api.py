"""`bspedit ui`'s JSON API against the real server (one per module): the edits, undo and redo,
the Stripper preview, saving (refused when the file changed on disk), the diff, and the script
of `bspedit` commands that gives the bytes the page's save gives."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CORPUS, CORPUS_MAPS, ROOT, run_cli
from ui_browser import UiServer, needs_ui, run_script

pytestmark = needs_ui
DEMO = ROOT / "docs" / "examples" / "demo.bsp"
SOURCE = CORPUS / "source" / "tf2classified_cp_stronghold_lzma.bsp"
QUAKE3 = CORPUS / "q3" / "bspconvert_test_nonsolid_patch.bsp"
CONFIG = """; the page's Stripper config
modify:
{
\tmatch:
\t{
\t\t"classname" "worldspawn"
\t}
\tinsert:
\t{
\t\t"from_stripper" "1"
\t}
}
add:
{
\t"classname" "info_target"
\t"targetname" "from_stripper"
}
"""


@pytest.fixture(scope="module")
def server():
    with UiServer([DEMO]) as running:
        yield running


class Api:
    """JSON calls to the server for one opened map."""

    def __init__(self, server: UiServer, map_id: str) -> None:
        self.server, self.id = server, map_id

    def call(self, method: str, path: str, body: object = None, *, status: int = 200) -> dict:
        data = None if body is None else json.dumps(body).encode()
        code, raw, _ = self.server.request(method, f"/api/maps/{self.id}{path}", body=data)
        answer = json.loads(raw) if raw.startswith(b"{") else \
            {"text": raw.decode("utf-8", "surrogateescape")}
        assert code == status, (code, answer)
        return answer

    def edit(self, status: int = 200, **params: object) -> dict:
        return self.call("POST", "/edits", params, status=status)

    def entities(self) -> list[dict]:
        return self.call("GET", "/entities")["entities"]


def open_copy(server: UiServer, source: Path, folder: Path) -> tuple[Api, Path]:
    if not source.exists():
        pytest.skip(f"{source.name} is not here (the corpus is in ../shared)")
    copy = folder / source.name
    shutil.copyfile(source, copy)
    code, raw, _ = server.request("POST", "/api/maps",
                                  body=json.dumps({"path": str(copy)}).encode())
    assert code == 200, raw
    return Api(server, json.loads(raw)["map"]["id"]), copy


def index_of(entities: list[dict], classname: str) -> int:
    return next(e["index"] for e in entities if e["classname"] == classname)


def export_and_run(api: Api, source: Path, out: Path) -> None:
    run_script(api.call("GET", "/script?form=sh")["text"], source, out)


@pytest.mark.parametrize("source", [DEMO, SOURCE, QUAKE3], ids=["quake1", "source", "quake3"])
def test_script_gives_the_same_bytes(server, tmp_path, source):
    """Every entity edit of the page, then a Stripper config: the page's save is byte for
    byte what the exported script's commands write, from the map the page never changed."""
    api, copy = open_copy(server, source, tmp_path)
    original = copy.read_bytes()
    entities = api.entities()
    world = index_of(entities, "worldspawn")
    last = len(entities) - 1
    api.edit(op="set_key", entity=world, key="message", value="édité par la page")
    api.edit(op="add_entity", keys=[["classname", "info_null"], ["targetname", "t1"],
                                    ["origin", "1 2 3"]])
    api.edit(op="duplicate_entity", entity=last)
    twin = len(api.entities()) - 1     # identical to `last`: named by --index
    api.edit(op="set_key", entity=twin, key="origin", value="64 0 0")
    api.edit(op="add_key", entity=world, key="_note", value="a")
    api.edit(op="add_key", entity=world, key="_note", value="b")
    api.edit(op="set_key", entity=world, key="_note", value="B", occurrence=2)
    api.edit(op="delete_key", entity=world, key="_note", occurrence=1)
    api.edit(op="delete_entity", entity=index_of(api.entities(), "info_null"))
    preview = api.call("POST", "/stripper/preview", {"config": CONFIG})
    assert [e["pairs"] for e in preview["added"]] == [[["classname", "info_target"],
                                                      ["targetname", "from_stripper"]]]
    api.edit(op="stripper", config=CONFIG)
    listed = api.call("GET", "/edits")["edits"]
    assert len(listed) == 10
    assert any("--index" in e["command"] for e in listed)        # the twin
    assert "--occurrence 2" in listed[6]["command"]
    assert listed[9]["command"].startswith("bspedit patch MAP ")
    saved = tmp_path / "page.bsp"
    result = api.call("POST", "/save", {"output": str(saved)})
    assert result["save"]["written"] and result["save"]["target"] == str(saved)
    assert copy.read_bytes() == original        # saved elsewhere: the map is untouched
    by_script = tmp_path / "script.bsp"
    export_and_run(api, copy, by_script)
    assert by_script.read_bytes() == saved.read_bytes()
    final = {tuple(map(tuple, e["keys"])) for e in api.entities()}
    assert (("classname", "info_target"), ("targetname", "from_stripper")) in final
    world_pairs = dict(api.entities()[world]["keys"])
    assert world_pairs["message"] == "édité par la page" and world_pairs["_note"] == "B"
    assert world_pairs["from_stripper"] == "1"


@pytest.mark.parametrize("source", CORPUS_MAPS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_corpus_map_opens_edits_and_saves_as_its_script(server, tmp_path, source):
    """Every map of the corpus (the fast run: a few of each family): its entities as the
    library reads them, an unedited diff that says identical, and an edit of the first entity
    plus a new one saved as the script writes them."""
    from bspedit.bsp import Bsp

    api, copy = open_copy(server, source, tmp_path)
    with Bsp.open(copy) as bsp:
        pairs = [e.pairs() for e in bsp.entities(lenient=True)]
    answer = api.call("GET", "/entities")
    assert [[tuple(p) for p in e["keys"]] for e in answer["entities"]] == pairs
    assert api.call("GET", "/diff")["result"]["verdict"] == "identical"
    api.edit(op="set_key", entity=0, key="_bspedit_ui", value="1")
    api.edit(op="add_entity", keys=[["classname", "info_null"]])
    saved = tmp_path / "page.bsp"
    api.call("POST", "/save", {"output": str(saved)})
    export_and_run(api, copy, tmp_path / "script.bsp")
    assert (tmp_path / "script.bsp").read_bytes() == saved.read_bytes()


def test_entity_text_that_is_not_utf8_goes_through_byte_for_byte(server, tmp_path):
    """A GoldSrc map whose entity text holds Latin-1 bytes: the page reads them (as lone
    surrogates in ASCII JSON), its raw text comes back unchanged, and an edit of such a value
    saves what its script writes (the script carries the bytes as they are)."""
    api, copy = open_copy(server, CORPUS / "goldsrc" / "plague_zm_303.bsp", tmp_path)
    entities = api.entities()
    odd = next(e for e in entities for k, v in e["keys"] if not v.isascii()
               and any(0xDC80 <= ord(c) <= 0xDCFF for c in v))
    key, value = next((k, v) for k, v in odd["keys"] if not v.isascii())
    text = api.call("GET", "/entities/text")["text"]
    api.edit(op="replace_entity_text", text=text)
    api.edit(op="set_key", entity=odd["index"], key=key, value=value + " \udce8!")
    saved = tmp_path / "page.bsp"
    api.call("POST", "/save", {"output": str(saved)})
    export_and_run(api, copy, tmp_path / "script.bsp")
    assert (tmp_path / "script.bsp").read_bytes() == saved.read_bytes()
    raw = value.encode("utf-8", "surrogateescape")
    assert raw in copy.read_bytes() and raw + b" \xe8!" in saved.read_bytes()


def test_undo_replays_and_redo_restores(server, tmp_path):
    api, _ = open_copy(server, DEMO, tmp_path)
    before = api.entities()
    api.edit(op="set_key", entity=1, key="speed", value="999")
    api.edit(op="delete_entity", entity=2)
    after = api.entities()
    assert len(after) == len(before) - 1 and dict(after[1]["keys"])["speed"] == "999"
    state = api.call("POST", "/undo")
    assert (state["undo"], state["redo"]) == (1, 1)
    assert len(api.entities()) == len(before)
    api.call("POST", "/undo")
    assert api.entities() == before
    api.call("POST", "/undo", status=409)
    api.call("POST", "/redo")
    api.call("POST", "/redo")
    assert api.entities() == after
    api.call("POST", "/redo", status=409)
    api.call("POST", "/undo")
    api.edit(op="set_key", entity=0, key="message", value="new")     # clears the redo stack
    assert api.call("GET", "/edits")["redo"] == 0


def test_preview_applies_nothing(server, tmp_path):
    api, copy = open_copy(server, DEMO, tmp_path)
    before = api.entities()
    config = 'filter:\n{\n"classname" "light"\n}\n'
    preview = api.call("POST", "/stripper/preview", {"config": config})
    lights = [e for e in before if e["classname"] == "light"]
    assert lights and [e["index"] for e in preview["removed"]] == [e["index"] for e in lights]
    assert preview["added"] == preview["changed"] == [] and preview["refused"] is None
    assert api.entities() == before and api.call("GET", "/edits")["edits"] == []
    # a config that matches nothing is no edit; one that removes worldspawn is refused
    api.edit(op="stripper", config='filter:\n{\n"classname" "nothing_here"\n}\n', status=409)
    gone = api.call("POST", "/stripper/preview",
                    {"config": 'filter:\n{\n"classname" "worldspawn"\n}\n'})
    assert "worldspawn" in gone["refused"]
    api.edit(op="stripper", config='filter:\n{\n"classname" "worldspawn"\n}\n', status=409)


def test_a_map_changed_on_disk_is_not_saved_over(server, tmp_path):
    api, copy = open_copy(server, DEMO, tmp_path)
    api.edit(op="set_key", entity=0, key="message", value="mine")
    assert run_cli("ent", "set", copy, "--where", "classname=worldspawn", "wad=theirs.wad",
                   "--in-place").returncode == 0
    theirs = copy.read_bytes()
    refused = api.call("POST", "/save", {"output": None}, status=409)
    assert refused["error"]["kind"] == "changed_on_disk"
    assert copy.read_bytes() == theirs
    assert len(api.call("GET", "/edits")["edits"]) == 1          # the edits survive
    elsewhere = tmp_path / "mine.bsp"
    api.call("POST", "/save", {"output": str(elsewhere)})
    done = run_cli("ent", "query", elsewhere, "--where", "classname=worldspawn", "--json")
    pairs = dict(json.loads(done.stdout)["result"]["entities"][0]["pairs"])
    assert pairs["message"] == "mine" and pairs["wad"] == "theirs.wad"


def test_save_in_place_then_the_edits_are_the_files(server, tmp_path):
    api, copy = open_copy(server, DEMO, tmp_path)
    api.edit(op="set_key", entity=0, key="message", value="in place")
    shutil.copyfile(DEMO, tmp_path / "cli.bsp")
    assert run_cli("ent", "set", tmp_path / "cli.bsp", "--where", "classname=worldspawn",
                   "message=in place", "--in-place").returncode == 0
    saved = api.call("POST", "/save", {"output": None})
    assert saved["edits"] == [] and saved["map"]["pending"] == 0
    assert copy.read_bytes() == (tmp_path / "cli.bsp").read_bytes()     # as --in-place does
    assert api.call("GET", "")["map"]["changed_on_disk"] is False
    api.edit(op="set_key", entity=0, key="message", value="again")     # and it goes on
    assert dict(api.entities()[0]["keys"])["message"] == "again"


def test_the_diff_is_what_bspedit_diff_prints(server, tmp_path):
    api, copy = open_copy(server, DEMO, tmp_path)
    api.edit(op="set_key", entity=1, key="lip", value="5")
    api.edit(op="add_entity", keys=[["classname", "info_null"]])
    diff = api.call("GET", "/diff")
    saved = tmp_path / "saved.bsp"
    api.call("POST", "/save", {"output": str(saved)})
    printed = run_cli("diff", copy, saved)
    assert printed.returncode == 1
    assert diff["lines"] == printed.stdout.splitlines()
    assert diff["result"]["entities"]["changed"][0]["keys"] == \
        [{"key": "lip", "before": ["8"], "after": ["5"]}]


def test_stripper_form_of_entity_edits(server, tmp_path):
    """Entity edits named by their pairs export as one Stripper config, which `patch` applies
    to the same entities; an edit Stripper cannot say (a whole entity text) refuses it."""
    api, copy = open_copy(server, DEMO, tmp_path)
    api.edit(op="set_key", entity=1, key="speed", value="77")
    api.edit(op="add_key", entity=1, key="_x", value="1")
    api.edit(op="delete_key", entity=1, key="lip")
    api.edit(op="add_entity", keys=[["classname", "info_null"], ["targetname", "n"]])
    api.edit(op="delete_entity", entity=index_of(api.entities(), "light"))
    config = tmp_path / "edits.cfg"
    config.write_text(api.call("GET", "/script?form=stripper")["text"])
    patched = tmp_path / "patched.bsp"
    done = run_cli("patch", copy, config, "-o", patched, "--json")
    assert done.returncode == 0, done.stderr
    query = run_cli("ent", "query", patched, "--json")
    assert [e["pairs"] for e in json.loads(query.stdout)["result"]["entities"]] == \
        [e["keys"] for e in api.entities()]
    text = api.call("GET", "/entities/text")["text"]
    api.edit(op="replace_entity_text", text=text.replace("info_null", "info_target"))
    refused = api.call("GET", "/script?form=stripper", status=409)
    assert refused["error"]["kind"] == "not_stripper"


def test_refusals_leave_the_edits_as_they_were(server, tmp_path):
    api, _ = open_copy(server, DEMO, tmp_path)
    count = len(api.entities())
    assert api.edit(op="no_such_op", status=400)["error"]["kind"] == "bad_op"
    assert api.edit(op="set_key", entity=count, key="a", value="b", status=400)
    assert api.edit(op="set_key", entity=0, key="a=b", value="c", status=400)
    assert api.edit(op="set_key", entity=0, key="a", value='say "hi"', status=400)
    assert api.edit(op="delete_key", entity=0, key="nothing", status=400)
    refused = api.edit(op="delete_entity", entity=0, status=409)      # the worldspawn
    assert "worldspawn" in refused["error"]["message"]
    assert api.edit(op="replace_entity_text", text='{\n"classname" "light"\n}\n', status=409)
    assert api.edit(op="replace_entity_text", text='{ "a" ', status=400)
    code, raw, _ = api.server.request("POST", f"/api/maps/{api.id}/edits", body=b"{not json")
    assert code == 400 and json.loads(raw)["error"]["kind"] == "bad_json"
    assert api.call("GET", "/edits")["edits"] == []
    assert api.call("GET", "/script?form=sh", status=409)["error"]["kind"] == "no_edits"


def test_keep_checksum_refuses_what_changes_it(server, tmp_path):
    """Quake 3 engines checksum the whole file: keep_checksum refuses the save (409) and
    writes nothing; a Source map's entity edit keeps its checksum and saves."""
    api, copy = open_copy(server, QUAKE3, tmp_path)
    api.edit(op="set_key", entity=0, key="message", value="x")
    out = tmp_path / "out.bsp"
    refused = api.call("POST", "/save", {"output": str(out), "keep_checksum": True},
                       status=409)
    assert "checksum" in refused["error"]["message"] and not out.exists()
    source, _ = open_copy(server, SOURCE, tmp_path)
    source.edit(op="set_key", entity=0, key="message", value="x")
    saved = source.call("POST", "/save", {"output": str(out), "keep_checksum": True})
    assert saved["save"]["checksum_changed"] is False and out.exists()


def test_upload_opens_a_copy(server, tmp_path):
    code, raw, _ = server.request("POST", "/api/maps/upload?name=../../up%20load.bsp",
                                  body=DEMO.read_bytes())
    assert code == 200, raw
    opened = json.loads(raw)["map"]
    assert opened["upload"] and opened["path"] is None and opened["name"] == "up load.bsp"
    api = Api(server, opened["id"])
    api.edit(op="set_key", entity=0, key="message", value="uploaded")
    assert api.call("POST", "/save", {"output": None}, status=400)["error"]["kind"] == "no_file"
    out = tmp_path / "from-upload.bsp"
    api.call("POST", "/save", {"output": str(out)})
    assert b'"message" "uploaded"' in out.read_bytes()
    assert "map=${1:-map.bsp}" in api.call("GET", "/script?form=sh")["text"]


# the verb, used carelessly ------------------------------------------------------------------

@pytest.mark.parametrize("argv,message", [
    (["docs"], "docs: is a folder, not a map"),
    (["nothere.bsp"], "nothere.bsp: no such file"),
    (["README.md"], "README.md: file offset 0: not a BSP file"),
])
def test_a_map_that_cannot_be_opened_is_one_line_before_serving(argv, message):
    done = subprocess.run([sys.executable, "-m", "bspedit", "ui", *argv, "--no-browser"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"bspedit: {message}" + done.stderr.split(message, 1)[1]
    assert len(done.stderr.splitlines()) == 1


def test_a_port_in_use_is_refused(server):
    done = subprocess.run([sys.executable, "-m", "bspedit", "ui", "--port", str(server.port),
                           "--no-browser"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"bspedit: port {server.port} on 127.0.0.1 is in use (or not allowed):" \
                          " choose another with --port, or leave it out for a free one\n"


def test_json_prints_the_address_as_a_json_line_then_the_envelope_at_ctrl_c():
    import signal

    process = subprocess.Popen([sys.executable, "-m", "bspedit", "ui", str(DEMO), "--json",
                                "--no-browser"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    assert process.stdout is not None
    first = json.loads(process.stdout.readline())
    assert first["url"].startswith(f"http://127.0.0.1:{first['port']}/?token=")
    assert [m["name"] for m in first["maps"]] == ["demo.bsp"]
    process.send_signal(signal.SIGINT)
    rest, _ = process.communicate(timeout=30)
    assert process.returncode == 130
    envelope = json.loads(rest)
    assert envelope["verb"] == "ui" and envelope["exit"] == 130


def test_same_names_are_told_apart_and_ctrl_c_is_130(tmp_path):
    """Two maps named alike show their folders; a path naming an opened map again (through
    `..`) is that map."""
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        shutil.copyfile(DEMO, tmp_path / folder / "demo.bsp")
    running = UiServer([tmp_path / "a" / "demo.bsp", tmp_path / "b" / "demo.bsp",
                        tmp_path / "a" / ".." / "a" / "demo.bsp"]).start()
    maps = json.loads(running.request("GET", "/api/maps")[1])["maps"]
    assert [m["name"] for m in maps] == ["demo.bsp", os.path.join("b", "demo.bsp")]
    assert running.stop() == 130


def test_without_the_ui_extra_it_says_what_to_install(tmp_path):
    """The web stack missing (starlette hidden): one line naming the extra, exit 2."""
    (tmp_path / "sitecustomize.py").write_text("import sys\nsys.modules['starlette'] = None\n")
    env = dict(os.environ, PYTHONPATH=f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    done = subprocess.run([sys.executable, "-m", "bspedit", "ui", str(DEMO), "--no-browser"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert "pip install 'bspedit[ui]'" in done.stderr and len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize("argv", [["--help"], ["info", str(DEMO)], ["ui", "--help"]])
def test_other_verbs_do_not_import_the_web_stack(argv):
    code = ("import sys; from bspedit.cli import main\ntry: main(%r)\nexcept SystemExit: pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('starlette', 'uvicorn', "
            "'anyio') or m.startswith('bspedit.ui')))" % argv)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.splitlines()[-1] == "[]", done.stderr
