"""The ui's Map, Logic, Pakfile and Lumps views in a real browser (headless Chromium through
Selenium; skipped without them): the picture shows and a marker selects its entity, a check
finding links to its entity and its graph, a file packed and another removed save the
exported script's bytes, a VTF previews. With BSPEDIT_UI_SCREENSHOTS=DIR each view is saved
as DIR/ui-NAME.png."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CORPUS
from ui_browser import browser  # noqa: F401 - the fixture
from ui_browser import UiServer, by_testid, needs_browser, open_page, screenshot, wait

pytestmark = needs_browser
SOURCE = CORPUS / "source" / "valvebsp_testmap.bsp"
LOGIC = CORPUS / "source" / "opendm_background01.bsp"
QUAKE = CORPUS / "q1" / "librequake_lq1m1_bsp2.bsp"


@pytest.fixture(scope="module")
def maps(tmp_path_factory) -> dict[str, Path]:
    if not all(m.exists() for m in (SOURCE, LOGIC, QUAKE)):
        pytest.skip("../shared/corpus not present")
    folder = tmp_path_factory.mktemp("views")
    copies = {}
    for name, source in (("source", SOURCE), ("logic", LOGIC), ("quake", QUAKE)):
        copies[name] = folder / source.name
        shutil.copyfile(source, copies[name])
    return copies


@pytest.fixture(scope="module")
def page(browser, maps):
    """The page with the three maps open (m1 Source, m2 the logic map, m3 Quake 1)."""
    with UiServer([maps["source"], maps["logic"], maps["quake"]]) as server:
        open_page(browser, server)
        yield browser


def shell(driver, script: str, *args):
    """Run `script` (an async function body with `app`, the page's shell, and `args`)."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1], args = [...arguments].slice(0, -1);"
        f"(async app => {{ {script} }})(window.bspeditApp).then(done,"
        " err => done({error: String(err)}));", *args)


def show(driver, map_id: str, view: str) -> None:
    shell(driver, "await app.selectMap(args[0]);", map_id)
    by_testid(driver, f"tab-{view}").click()


def test_the_map_shows_and_a_marker_selects_its_entity(page):
    show(page, "m3", "map")
    stage = by_testid(page, "map-stage")
    wait(page, lambda d: (stage.get_attribute("data-loaded") or "").startswith("m3/"), 60)
    assert not stage.get_attribute("data-loaded").startswith("error")
    picture = by_testid(page, "map-picture")
    assert page.execute_script("return arguments[0].naturalWidth", picture) > 0
    marker = page.execute_script(       # a player start not covered by another marker
        "return [...document.querySelectorAll('.marker.spawn')].find(m => {"
        "  const r = m.getBoundingClientRect();"
        "  return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === m; });")
    index = int(marker.get_attribute("data-index"))
    marker.click()
    assert shell(page, "return app.entity;") == index
    assert "selected" in marker.get_attribute("class")
    entity = shell(page, "return (await app.api(app.mapPath('/entities'))).entities[args[0]];",
                   index)
    assert entity["classname"].startswith("info_player")
    stage.send_keys("+")        # the keys zoom and pan; 0 fits again
    stage.send_keys("0")
    screenshot(page, "map")
    by_testid(page, "tab-entities").click()     # the Entities view follows the selection
    row = wait(page, lambda d: d.find_elements("css selector", ".vrow.selected"), 10)[0]
    assert row.text.split()[0] == str(index)


def test_a_finding_links_to_its_entity_and_its_graph(page):
    show(page, "m2", "logic")
    findings = by_testid(page, "logic-findings")
    wait(page, lambda d: findings.get_attribute("data-revision") is not None, 60)
    first = by_testid(page, "finding-0")
    index = int(first.get_attribute("data-entity"))
    first.click()
    assert shell(page, "return app.entity;") == index
    centre = wait(page, lambda d: d.find_elements("css selector", ".gnode.centre"), 30)[0]
    assert centre.get_attribute("data-testid") == f"graph-node-e{index}"
    assert len(page.find_elements("css selector", ".gedge")) > 1
    screenshot(page, "logic")
    other = page.find_element("css selector", ".gnode.entity:not(.centre)")
    moved = int(other.get_attribute("data-testid").removeprefix("graph-node-e"))
    other.click()
    wait(page, lambda d: d.find_elements(
        "css selector", f'.gnode.centre[data-testid="graph-node-e{moved}"]'), 30)
    assert shell(page, "return app.entity;") == moved


def test_pack_a_file_remove_another_and_save_as_the_script(page, maps, tmp_path):
    """A file chosen in the page is packed into the folder typed, an entry is removed from the
    tree, a VTF previews; the page's save equals the exported script run on a copy."""
    show(page, "m1", "pak")
    tree = by_testid(page, "pak-tree")
    wait(page, lambda d: tree.get_attribute("data-revision") is not None, 30)
    chosen = tmp_path / "note.txt"
    chosen.write_bytes(b"packed from the page\n")
    folder = by_testid(page, "pak-folder")
    folder.clear()
    folder.send_keys("materials/fromthepage")
    by_testid(page, "pak-add-file").send_keys(str(chosen))
    added = '[data-testid="pak-entry"][data-path="materials/fromthepage/note.txt"]'
    wait(page, lambda d: d.find_elements("css selector", added), 30)
    page.find_element("css selector", '[data-testid="tree-root"], [data-testid="pak-tree"]')
    cube = "materials/maps/testmap/c0_384_96.vtf"
    page.execute_script("arguments[0].click()", page.find_element(
        "css selector", f'li.folder[data-folder="materials/"] > .line'))
    page.execute_script("arguments[0].click()", page.find_element(
        "css selector", f'li.folder[data-folder="materials/maps/"] > .line'))
    page.execute_script("arguments[0].click()", page.find_element(
        "css selector", f'li.folder[data-folder="materials/maps/testmap/"] > .line'))
    page.find_element("css selector", f'[data-testid="pak-entry"][data-path="{cube}"]').click()
    by_testid(page, "pak-preview-button").click()
    image = wait(page, lambda d: d.find_elements("css selector",
                                                 '[data-testid="pak-preview-image"]'), 30)[0]
    wait(page, lambda d: d.execute_script("return arguments[0].naturalWidth", image) > 0, 10)
    assert "cubemap" in by_testid(page, "pak-preview").text
    screenshot(page, "pak")
    by_testid(page, "pak-remove").click()
    wait(page, lambda d: not d.find_elements(
        "css selector", f'[data-testid="pak-entry"][data-path="{cube}"]'), 30)
    edits = shell(page, "return (await app.api(app.mapPath('/edits'))).edits;")
    assert [e["op"] for e in edits] == ["pak_add", "pak_remove"]
    saved, scripted = tmp_path / "page.bsp", tmp_path / "script.bsp"
    answer = shell(page, "return await app.api(app.mapPath('/save'), "
                         "{method: 'POST', body: {output: args[0]}});", str(saved))
    assert answer.get("ok"), answer
    text = shell(page, "return await app.api(app.mapPath('/script?form=sh'), {text: true});")
    script = tmp_path / "edits.sh"
    script.write_text(text)
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    done = subprocess.run(["sh", str(script), str(maps["source"]), str(scripted)],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert saved.read_bytes() == scripted.read_bytes()
    assert maps["source"].read_bytes() == SOURCE.read_bytes()
    shell(page, "await app.undo(); await app.undo();")


def test_the_lumps_and_a_quake_maps_pakfile(page):
    show(page, "m1", "lumps")
    wait(page, lambda d: d.find_elements("css selector", '[data-testid="stats-table"]'), 30)
    assert by_testid(page, "strip-no-hdr").is_enabled()
    screenshot(page, "lumps")
    show(page, "m3", "lumps")
    wait(page, lambda d: "Quake" in by_testid(d, "lumps-info").text, 30)
    assert not by_testid(page, "strip-no-hdr").is_enabled()
    by_testid(page, "tab-pak").click()
    wait(page, lambda d: "no pakfile" in by_testid(d, "pak-summary").text, 30)
    assert not page.find_elements("css selector", '[data-testid="pak-entry"]')
    assert not by_testid(page, "pak-drop").is_displayed()
