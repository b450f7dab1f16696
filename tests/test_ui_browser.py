"""`bspedit ui` in a real browser (headless Chromium via Selenium): open a Source and a Quake
map, filter and edit entities, preview and apply a Stripper config, save; the saved file is
the exported script's result byte for byte; a map changed on disk is refused at Save and its
edits survive; 10,000 entities scroll and filter in well under a second. Skips without the
ui extra, selenium, chromium or chromedriver. BSPEDIT_UI_SCREENSHOTS=DIR saves the views."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import CORPUS, ROOT, run_cli
from ui_browser import (UiServer, browser, by_testid, needs_browser, open_page, run_script,
                        screenshot, wait)

try:
    from selenium.webdriver.common.keys import Keys
except ImportError:         # the tests skip (needs_browser)
    pass

pytestmark = needs_browser
__all__ = ["browser"]       # the fixture, used by name
DEMO = ROOT / "docs" / "examples" / "demo.bsp"
SOURCE = CORPUS / "source" / "tf2classified_cp_stronghold_lzma.bsp"
CONFIG = """modify:
{
\tmatch:
\t{
\t\t"classname" "worldspawn"
\t}
\tinsert:
\t{
\t\t"from_stripper" "yes"
\t}
}
add:
{
\t"classname" "info_target"
\t"targetname" "added_by_the_page"
}
"""


@pytest.fixture(scope="module")
def maps(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ui-browser")
    found = {"quake": folder / "demo.bsp"}
    shutil.copyfile(DEMO, found["quake"])
    if SOURCE.exists():
        found["source"] = folder / SOURCE.name
        shutil.copyfile(SOURCE, found["source"])
    found["folder"] = folder
    return found


@pytest.fixture(scope="module")
def server(maps):
    opened = [maps[k] for k in ("source", "quake") if k in maps]
    with UiServer(opened) as running:
        yield running


def js(driver, script, *args):
    return driver.execute_script(script, *args)


def choose_map(driver, name):
    from selenium.webdriver.support.ui import Select

    select = Select(by_testid(driver, "map-select"))
    value = next(o.get_attribute("value") for o in select.options if o.text.startswith(name))
    select.select_by_value(value)
    wait(driver, lambda d: loaded(d) == value)


LOADED = """const table = document.querySelector('#ent-table'), app = window.bspeditApp;
return app.map && table.dataset.map === app.map.id &&
       table.dataset.loaded === String(app.edits.revision) ? app.map.id : null"""


def loaded(driver):
    """The id of the map whose entities the table shows, once it shows its latest state."""
    return js(driver, LOADED)


def pending(driver):
    text = by_testid(driver, "pending").text
    return int(text.split()[0]) if text else 0


def wait_pending(driver, count):
    """Until `count` edits are pending and the table shows the state they make."""
    wait(driver, lambda d: pending(d) == count and loaded(d) is not None)


def set_filter(driver, testid, text):
    field = by_testid(driver, testid)
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(text or Keys.DELETE)


def row_indices(driver):
    return js(driver, "return [...document.querySelectorAll('#ent-table .vrow')]"
                      ".filter(r => r.style.display !== 'none').map(r => Number(r.dataset.index))")


def edit_new_key(driver, key, value):
    by_testid(driver, "ent-new-key-name").send_keys(key)
    by_testid(driver, "ent-new-key-value").send_keys(value + Keys.ENTER)


def value_input(driver, key):
    return driver.find_element("css selector",
                               f'#ent-editor tr[data-key="{key}"] [data-testid="ent-value"]')


def value_of(driver, key):
    return value_input(driver, key).get_attribute("value")


def test_edit_patch_and_save_as_the_script_does(browser, server, maps, tmp_path):
    """On each map: filter, select, add and edit a key, undo and redo with the keyboard,
    preview a Stripper config (nothing applied), apply it, save to a new file; the file is
    what the exported script writes, and the opened map is unchanged. On the Quake map also
    duplicate, delete and edit the raw text, and take the screenshots."""
    open_page(browser, server)
    for kind in ("source", "quake"):
        if kind in maps:
            edit_patch_and_save(browser, maps[kind], tmp_path / kind, more=kind == "quake")


def edit_patch_and_save(browser, path: Path, folder: Path, *, more: bool) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    def keys(*words: str) -> None:
        chain = ActionChains(browser)
        for word in words:
            chain = chain.key_down(word[0]).send_keys(word[1:]).key_up(word[0]) \
                if len(word) > 1 and word[0] in (Keys.CONTROL, Keys.ALT) else chain.send_keys(word)
        chain.perform()

    folder.mkdir()
    original = path.read_bytes()
    choose_map(browser, path.name)
    by_testid(browser, "tab-entities").click()
    set_filter(browser, "ent-filter-class", "worldspawn")
    wait(browser, lambda d: len(row_indices(d)) == 1)
    (world,) = row_indices(browser)
    browser.find_element("css selector", "#ent-table .vrow").click()
    wait(browser, lambda d: by_testid(d, "ent-editor").text.startswith(f"entity {world}"))
    edit_new_key(browser, "comment", "from the browser")
    wait_pending(browser, 1)
    wait(browser, lambda d: value_of(d, "comment") == "from the browser")
    value_input(browser, "comment").send_keys(Keys.CONTROL, "a")
    value_input(browser, "comment").send_keys("edited in the browser" + Keys.ENTER)
    wait_pending(browser, 2)
    if more:
        screenshot(browser, "entities")
    by_testid(browser, "ent-table").click()     # Ctrl+Z / Ctrl+Y outside a text field
    keys(Keys.CONTROL + "z")
    wait_pending(browser, 1)
    wait(browser, lambda d: value_of(d, "comment") == "from the browser")
    keys(Keys.CONTROL + "y")
    wait_pending(browser, 2)
    wait(browser, lambda d: value_of(d, "comment") == "edited in the browser")
    set_filter(browser, "ent-filter-class", "")     # a value filter, as a regex
    by_testid(browser, "ent-filter-regex").click()
    set_filter(browser, "ent-filter-value", "^edited in the b.owser$")
    wait(browser, lambda d: row_indices(d) == [world])
    by_testid(browser, "ent-filter-regex").click()
    set_filter(browser, "ent-filter-value", "")
    count = 2
    if more:    # duplicate and delete, and the raw text of the lump
        by_testid(browser, "ent-table").click()
        browser.find_element("css selector", f'#ent-table .vrow[data-index="{world + 1}"]').click()
        by_testid(browser, "ent-duplicate").click()
        wait_pending(browser, count + 1)
        by_testid(browser, "ent-delete").click()       # the copy, selected once made
        wait_pending(browser, count + 2)
        by_testid(browser, "ent-raw-toggle").click()
        raw = by_testid(browser, "ent-raw-text")
        wait(browser, lambda d: "bspedit demo map" in raw.get_attribute("value"))
        js(browser, "arguments[0].value = arguments[0].value.replace("
                    "'bspedit demo map', 'edited as text')", raw)
        by_testid(browser, "ent-raw-apply").click()
        count += 3
        wait_pending(browser, count)
        by_testid(browser, "ent-raw-toggle").click()
    # Patch: preview changes nothing, apply is one edit
    keys(Keys.ALT + "5")
    wait(browser, lambda d: by_testid(d, "view-patch").is_displayed())
    config = by_testid(browser, "patch-config")
    js(browser, "arguments[0].value = arguments[1]", config, CONFIG)
    by_testid(browser, "patch-preview").click()
    wait(browser, lambda d: by_testid(d, "patch-counts").text == "0 removed, 1 added, 1 changed")
    assert pending(browser) == count
    if more:
        for element in browser.find_elements("css selector", "#patch-result details"):
            element.click()
        screenshot(browser, "patch")
    by_testid(browser, "patch-apply").click()
    wait_pending(browser, count + 1)
    # Save: the diff, then a new file; the script of the edits writes the same bytes
    by_testid(browser, "tab-save").click()
    wait(browser, lambda d: "added entity" in by_testid(d, "save-diff").text)
    saved = folder / "page.bsp"
    output = by_testid(browser, "save-output")
    output.clear()
    output.send_keys(str(saved))
    by_testid(browser, "save-as").click()
    wait(browser, lambda d: by_testid(d, "save-result").text.startswith("wrote"))
    by_testid(browser, "save-script").click()
    wait(browser, lambda d: by_testid(d, "save-export").text.startswith("#!/bin/sh"))
    script = js(browser, "return document.querySelector('#save-export').textContent")
    if more:
        screenshot(browser, "save")
    assert path.read_bytes() == original
    by_script = folder / "script.bsp"
    run_script(script, path, by_script)
    assert by_script.read_bytes() == saved.read_bytes()
    query = run_cli("ent", "query", saved, "--where", "targetname=added_by_the_page")
    assert query.returncode == 0
    if more:
        assert b'"message" "edited as text"' in saved.read_bytes()


def test_a_map_changed_on_disk_is_refused_and_its_edits_survive(browser, server, maps, tmp_path):
    """A map opened from a path typed on the page, edited, then changed by another program:
    Save in place is refused and says so, the edits stay, and Save as writes them."""
    copy = tmp_path / "typed.bsp"
    shutil.copyfile(DEMO, copy)
    open_page(browser, server)
    by_testid(browser, "open-path").send_keys(str(copy))
    by_testid(browser, "open-button").click()
    wait(browser, lambda d: "typed.bsp" in by_testid(d, "map-select").text)
    wait(browser, lambda d: js(d, "return document.querySelector('#map-select')"
                                  ".selectedOptions[0].text").startswith("typed.bsp"))
    wait(browser, lambda d: loaded(d) is not None)
    by_testid(browser, "tab-entities").click()
    browser.find_element("css selector", "#ent-table .vrow").click()
    edit_new_key(browser, "comment", "mine")
    wait_pending(browser, 1)
    assert run_cli("ent", "set", copy, "--where", "classname=worldspawn", "wad=theirs",
                   "--in-place").returncode == 0
    theirs = copy.read_bytes()
    by_testid(browser, "tab-save").click()
    by_testid(browser, "save-in-place").click()
    browser.switch_to.alert.accept()
    wait(browser, lambda d: "changed on disk" in by_testid(d, "save-result").text)
    assert "still pending" in by_testid(browser, "save-result").text
    assert pending(browser) == 1 and copy.read_bytes() == theirs
    elsewhere = tmp_path / "elsewhere.bsp"
    output = by_testid(browser, "save-output")
    output.clear()
    output.send_keys(str(elsewhere))
    assert leaving_is_warned(browser)
    by_testid(browser, "save-as").click()
    wait(browser, lambda d: by_testid(d, "save-result").text.startswith("wrote"))
    assert b'"comment" "mine"' in elsewhere.read_bytes()
    assert not leaving_is_warned(browser)     # saved: nothing would be lost


def leaving_is_warned(driver) -> bool:
    """Whether the page asks before it is left (a beforeunload it cancels)."""
    return js(driver, "return !window.dispatchEvent(new Event('beforeunload', "
                      "{cancelable: true}))")


def test_a_chosen_file_opens_as_an_uploaded_copy(browser, server, tmp_path):
    """A file chosen on the page is uploaded and opened as a copy: edited, it saves only to a
    new file (Save in place is off), and the chosen file is untouched."""
    chosen = tmp_path / "chosen.bsp"
    shutil.copyfile(DEMO, chosen)
    open_page(browser, server)
    by_testid(browser, "open-file").send_keys(str(chosen))
    wait(browser, lambda d: js(d, "return document.querySelector('#map-select')"
                                  ".selectedOptions[0].text").startswith("chosen.bsp"))
    wait(browser, lambda d: loaded(d) is not None)
    browser.find_element("css selector", "#ent-table .vrow").click()
    edit_new_key(browser, "comment", "uploaded")
    wait_pending(browser, 1)
    by_testid(browser, "tab-save").click()
    assert not by_testid(browser, "save-in-place").is_enabled()
    out = tmp_path / "from-upload.bsp"
    output = by_testid(browser, "save-output")
    output.clear()
    output.send_keys(str(out))
    by_testid(browser, "save-as").click()
    wait(browser, lambda d: by_testid(d, "save-result").text.startswith("wrote"))
    assert b'"comment" "uploaded"' in out.read_bytes()
    assert chosen.read_bytes() == DEMO.read_bytes()


@pytest.fixture(scope="module")
def big_map(tmp_path_factory):
    """The demo map with 10,000 more entities (their text imported by the library)."""
    import bspedit
    from bspedit.lumps.entities import split_terminator

    path = tmp_path_factory.mktemp("ui-big") / "ten_thousand.bsp"
    with bspedit.open(DEMO) as bsp:
        text, terminator = split_terminator(bsp.entities().to_bytes())
        more = "".join(f'{{\n"classname" "info_{("target", "null", "landmark")[n % 3]}"\n'
                       f'"targetname" "t{n}"\n"origin" "{n % 100} {n // 100} 0"\n}}\n'
                       for n in range(10_000))
        bsp.replace_entities(text + more.encode() + terminator)
        bsp.save(path)
    return path


def test_ten_thousand_entities_scroll_and_filter_fast(browser, server, big_map):
    open_page(browser, server)
    by_testid(browser, "open-path").send_keys(str(big_map))
    by_testid(browser, "open-button").click()
    wait(browser, lambda d: int(js(d, "return document.querySelector('#ent-table').dataset.shown "
                                      "|| 0")) > 10_000)
    by_testid(browser, "tab-entities").click()
    load_ms = int(js(browser, "return document.querySelector('#ent-table').dataset.loadMs"))
    rows = int(js(browser, "return document.querySelectorAll('#ent-table .vrow').length"))
    assert rows < 100       # only the rows in sight are in the page
    timings = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        (async () => {
        const table = document.querySelector('#ent-table');
        const frame = () => new Promise(r => requestAnimationFrame(() => r()));
        const out = {};
        let t = performance.now();
        table.scrollTop = table.scrollHeight / 2; table.dispatchEvent(new Event('scroll'));
        await frame(); await frame();
        out.scroll = performance.now() - t;
        out.middle = [...table.querySelectorAll('.vrow')].filter(r => r.style.display !== 'none')
                        .map(r => Number(r.dataset.index));
        const field = document.querySelector('#ent-filter-class');
        t = performance.now();
        field.value = 'landmark'; field.dispatchEvent(new Event('input'));
        await frame();
        out.filter = performance.now() - t;
        out.shown = Number(table.dataset.shown);
        const regex = document.querySelector('#ent-filter-regex');
        const value = document.querySelector('#ent-filter-value');
        regex.checked = true;
        t = performance.now();
        value.value = '^t9[0-9]{3}$'; value.dispatchEvent(new Event('input'));
        await frame();
        out.regex = performance.now() - t;
        out.regexShown = Number(table.dataset.shown);
        regex.checked = false; value.value = ''; field.value = '';
        field.dispatchEvent(new Event('input'));
        return out;
        })().then(done);
    """)
    middle = timings["middle"]
    assert middle and 4000 < middle[len(middle) // 2] < 6100
    assert timings["shown"] == 3333
    assert timings["regexShown"] == len([n for n in range(9000, 10_000) if n % 3 == 2])
    print(f"10,000 entities: load {load_ms} ms, scroll {timings['scroll']:.0f} ms, "
          f"filter {timings['filter']:.0f} ms, regex {timings['regex']:.0f} ms")
    assert load_ms < 1000 and timings["scroll"] < 250
    assert timings["filter"] < 250 and timings["regex"] < 250
