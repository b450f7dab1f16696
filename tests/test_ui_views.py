"""The ui's Map, Logic, Pakfile and Lumps views in a real browser (headless Chromium through
Selenium; skipped without them), on the project's own example maps: the picture shows and a
marker selects its entity, a check finding links to its entity and its graph, files packed and
one removed save the exported script's bytes, a VTF previews, a Quake map's Pakfile tab says
it has none. With BSPEDIT_UI_SCREENSHOTS=DIR each view is saved as DIR/ui-NAME.png (the docs'
pictures)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import ROOT
from ui_browser import browser  # noqa: F401 - the fixture
from ui_browser import (UiServer, by_testid, needs_browser, open_page, run_script, screenshot,
                        wait)

pytestmark = needs_browser
# the project's own maps and content (the screenshots go in the docs)
EXAMPLES = ROOT / "docs" / "examples"
DEMO = EXAMPLES / "demo.bsp"            # Quake 1: a door, a button, triggers, one dangling link
TINY = EXAMPLES / "tiny.bsp"            # Source, an empty pakfile, no faces
GLOW = EXAMPLES / "content" / "materials" / "sprites" / "demo"


@pytest.fixture(scope="module")
def maps(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("views")
    copies = {}
    for name, source in (("demo", DEMO), ("tiny", TINY)):
        copies[name] = folder / source.name
        shutil.copyfile(source, copies[name])
    return copies


@pytest.fixture(scope="module")
def page(browser, maps):  # noqa: F811 - the fixture imported above
    """The page with the two maps open (m1 the Quake demo, m2 the Source one)."""
    with UiServer([maps["demo"], maps["tiny"]]) as server:
        open_page(browser, server)
        yield browser


def shell(driver, script: str, *args):
    """Run `script` (an async function body with `app`, the page's shell, and `args`)."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1], args = [...arguments].slice(0, -1);"
        f"(async app => {{ {script} }})(window.bspeditApp).then(done,"
        " err => done({error: String(err)}));", *args)


def show(driver, map_id: str, view: str) -> None:
    shell(driver, "app.status(''); await app.selectMap(args[0]);", map_id)
    by_testid(driver, f"tab-{view}").click()


def test_the_map_shows_and_a_marker_selects_its_entity(page):
    from selenium.webdriver.common.action_chains import ActionChains

    show(page, "m1", "map")
    stage = by_testid(page, "map-stage")
    wait(page, lambda d: (stage.get_attribute("data-loaded") or "").startswith("m1/"), 60)
    assert not stage.get_attribute("data-loaded").startswith("error")
    picture = by_testid(page, "map-picture")
    assert page.execute_script("return arguments[0].naturalWidth", picture) > 0
    # the markers are drawn on a canvas: click where the view puts a player start's marker,
    # one with no other marker near it
    markers = shell(page, "return (await app.api(app.mapPath("
                          "'/picture.json?size=1024&color=height'))).markers;")
    view = json.loads(stage.get_attribute("data-view"))
    spot = {m["index"]: (view["x"] + m["x"] * view["zoom"], view["y"] + m["y"] * view["zoom"])
            for m in markers}
    index = next(i for i, (x, y) in spot.items()
                 if next(m for m in markers if m["index"] == i)["classname"] == "info_player_start"
                 and all(abs(x - a) + abs(y - b) > 20 for j, (a, b) in spot.items() if j != i))
    x, y = spot[index]
    ActionChains(page).move_to_element_with_offset(
        stage, x - stage.rect["width"] / 2, y - stage.rect["height"] / 2).click().perform()
    assert shell(page, "return app.entity;") == index
    assert by_testid(page, "map-hover").text.startswith(f"#{index} info_player_start")
    entity = shell(page, "return (await app.api(app.mapPath('/entities'))).entities[args[0]];",
                   index)
    assert entity["classname"].startswith("info_player")
    stage.send_keys("+")        # the keys zoom and pan; 0 fits again
    stage.send_keys("0")
    screenshot(page, "map")
    by_testid(page, "tab-entities").click()     # the Entities view follows the selection
    row = wait(page, lambda d: d.find_elements("css selector", ".vrow.selected"), 10)[0]
    assert row.text.split()[0] == str(index)
    show(page, "m2", "map")                     # a map with no faces: says so
    wait(page, lambda d: (stage.get_attribute("data-loaded") or "").startswith("error:m2"), 30)
    assert "nothing drawn" in page.find_element("id", "status").text


def test_a_finding_links_to_its_entity_and_its_graph(page):
    """The dangling link's finding selects its trigger; the button's graph reaches the door,
    and clicking the door moves the graph there."""
    show(page, "m1", "logic")
    findings = by_testid(page, "logic-findings")
    wait(page, lambda d: findings.get_attribute("data-revision") is not None, 60)
    first = by_testid(page, "finding-0")
    index = int(first.get_attribute("data-entity"))
    first.click()
    assert shell(page, "return app.entity;") == index
    centre = wait(page, lambda d: d.find_elements("css selector", ".gnode.centre"), 30)[0]
    assert centre.get_attribute("data-testid") == f"graph-node-e{index}"
    assert page.find_elements("css selector", ".gnode.dangling")
    entities = shell(page, "return (await app.api(app.mapPath('/entities'))).entities;")
    button = next(e["index"] for e in entities if e["classname"] == "func_button")
    door = next(e["index"] for e in entities if e["classname"] == "func_door")
    shell(page, "app.selectEntity(args[0]);", button)
    node = wait(page, lambda d: d.find_elements("css selector",
                                                f'[data-testid="graph-node-e{door}"]'), 30)[0]
    screenshot(page, "logic")
    node.click()
    wait(page, lambda d: d.find_elements(
        "css selector", f'.gnode.centre[data-testid="graph-node-e{door}"]'), 30)
    assert shell(page, "return app.entity;") == door


def test_pack_files_remove_one_and_save_as_the_script(page, maps, tmp_path):
    """Two files chosen in the page are packed into the folder typed, the VTF previews, the
    material is removed from the tree; the page's save equals the exported script run on a
    copy."""
    show(page, "m2", "pak")
    tree = by_testid(page, "pak-tree")
    wait(page, lambda d: tree.get_attribute("data-revision") is not None, 30)
    folder = by_testid(page, "pak-folder")
    folder.clear()
    folder.send_keys("materials/sprites/demo")
    by_testid(page, "pak-add-file").send_keys(f"{GLOW / 'glow.vmt'}\n{GLOW / 'glow.vtf'}")
    entry = '[data-testid="pak-entry"][data-path="materials/sprites/demo/{}"]'
    wait(page, lambda d: d.find_elements("css selector", entry.format("glow.vtf")), 30)
    for path in ("materials/", "materials/sprites/", "materials/sprites/demo/"):
        line = page.find_element("css selector", f'li.folder[data-folder="{path}"] > .line')
        if "open" not in line.find_element("xpath", "..").get_attribute("class"):
            line.click()
    page.find_element("css selector", entry.format("glow.vtf")).click()
    by_testid(page, "pak-preview-button").click()
    image = wait(page, lambda d: d.find_elements("css selector",
                                                 '[data-testid="pak-preview-image"]'), 30)[0]
    wait(page, lambda d: d.execute_script("return arguments[0].naturalWidth", image) > 0, 10)
    assert by_testid(page, "pak-preview").text.startswith("VTF 7.")
    screenshot(page, "pak")
    page.find_element("css selector", entry.format("glow.vmt")).click()
    by_testid(page, "pak-remove").click()
    wait(page, lambda d: not d.find_elements("css selector", entry.format("glow.vmt")), 30)
    edits = shell(page, "return (await app.api(app.mapPath('/edits'))).edits;")
    assert [e["op"] for e in edits] == ["pak_add", "pak_add", "pak_remove"]
    saved, scripted = tmp_path / "page.bsp", tmp_path / "script.bsp"
    answer = shell(page, "return await app.api(app.mapPath('/save'), "
                         "{method: 'POST', body: {output: args[0]}});", str(saved))
    assert answer.get("ok"), answer
    text = shell(page, "return await app.api(app.mapPath('/script?form=sh'), {text: true});")
    run_script(text, maps["tiny"], scripted)
    assert saved.read_bytes() == scripted.read_bytes()
    assert maps["tiny"].read_bytes() == TINY.read_bytes()


def test_the_lumps_and_a_quake_maps_pakfile(page):
    show(page, "m2", "lumps")
    wait(page, lambda d: d.find_elements("css selector", '[data-testid="stats-table"]'), 30)
    assert "Source" in by_testid(page, "lumps-info").text
    screenshot(page, "lumps")
    show(page, "m1", "lumps")
    wait(page, lambda d: "Quake" in by_testid(d, "lumps-info").text, 30)
    assert not by_testid(page, "strip-no-hdr").is_enabled()
    by_testid(page, "tab-pak").click()
    wait(page, lambda d: "no pakfile" in by_testid(d, "pak-summary").text, 30)
    assert not page.find_elements("css selector", '[data-testid="pak-entry"]')
    assert not by_testid(page, "pak-drop").is_displayed()
