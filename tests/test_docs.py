"""The guide (issue 43): every fenced `sh` and `console` command of docs/ and README.md runs as
written, by the venv's bspedit, in a copy of docs/examples/, and prints what the page shows;
the demo maps are what their makers write; every how-to is one click from the home page, every
command has its reference page. A plain run runs the pages a fresh clone starts with (README,
home, Start here); `--full` every page (CI)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

DOCS = ROOT / "docs"
EXAMPLES = DOCS / "examples"
#: the commands each page runs (a page's count changes when its examples do: update it here)
COMMANDS = {
    "README.md": 5, "docs/index.md": 2, "docs/start.md": 11,
    "docs/howto/batch.md": 6, "docs/howto/logic.md": 6, "docs/howto/pack.md": 9,
    "docs/howto/pictures.md": 6, "docs/howto/quake.md": 8, "docs/howto/scripts.md": 5,
    "docs/howto/strip.md": 6, "docs/howto/stripper.md": 5,
}
FRESH_CLONE = ("README.md", "docs/index.md", "docs/start.md")
BLOCK = re.compile(r"(?:<!-- docs-test: (?P<directive>[^>]*?) -->\n)?^```(?P<lang>sh|console)\n"
                   r"(?P<body>.*?)^```$", re.M | re.S)
EXIT = re.compile(r"\s+# exit (\d+)$")


class Command:
    """A command line of a page, the exit code it must give and the output it must print (None:
    not shown)."""

    def __init__(self, line: str, output: list[str] | None, needs: str | None = None) -> None:
        found = EXIT.search(line)
        self.line = line[:found.start()] if found else line
        self.code = int(found.group(1)) if found else 0
        self.output = output
        self.needs = needs


def blocks(page: Path) -> list[tuple[str | None, str, str]]:
    """(directive, language, text) of every fenced sh and console block of the page."""
    return [(m["directive"], m["lang"], m["body"]) for m in BLOCK.finditer(page.read_text())]


def commands(lang: str, text: str, needs: str | None = None) -> list[Command]:
    """The commands of one block: each line of an `sh` block (a trailing backslash joins the
    next; `#` comments skipped); each `$ ` line of a `console` block, with the lines after it
    as its output."""
    found: list[Command] = []
    lines = text.rstrip("\n").split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if lang == "console":
            if not line.startswith("$ "):
                raise AssertionError(f"console block: output before any command: {line!r}")
            line = line[2:]
        elif not line.strip() or line.lstrip().startswith("#"):
            continue
        while line.endswith("\\") and i < len(lines):
            line = line[:-1] + lines[i].removeprefix("> ")
            i += 1
        output = None
        if lang == "console":
            output = []
            while i < len(lines) and not lines[i].startswith("$ "):
                output.append(lines[i])
                i += 1
        found.append(Command(line, output, needs))
    return found


def page_commands(page: Path) -> list[Command]:
    """The commands the page runs: every block's but the install commands CI runs (`<!--
    docs-test: ci -->` before the block); `<!-- docs-test: needs dot -->`: Graphviz's."""
    return [c for directive, lang, text in blocks(page) if directive != "ci"
            for c in commands(lang, text, (directive or "").removeprefix("needs ") or None)]


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether the lines match: equal, except that a line `...` stands for any lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and matches(expected[1:], actual[1:])


def test_the_pages_run_the_commands_listed():
    counted = {name(p): len(page_commands(p)) for p in pages() if page_commands(p)}
    assert counted == COMMANDS
    assert sum(COMMANDS.values()) == 69


def test_the_readme_install_and_test_commands_are_the_ones_ci_runs():
    ci = (ROOT / ".ci" / "run").read_text()
    shown = [text for directive, _, text in blocks(ROOT / "README.md") if directive == "ci"]
    assert len(shown) == 1
    for line in shown[0].strip().split("\n"):
        assert line in ci, line
    start = [text for directive, _, text in blocks(DOCS / "start.md") if directive == "ci"]
    assert start == shown


@pytest.mark.parametrize("page", [pytest.param(
    ROOT / key, id=key, marks=() if key in FRESH_CLONE else pytest.mark.full)
    for key in COMMANDS])
def test_every_command_of_the_page_runs_as_written(page, tmp_path):
    if shutil.which("bash") is None:
        pytest.skip("the pages' commands are POSIX shell lines")
    work = tmp_path / "work"
    if page.name == "README.md":        # the README's commands run from the repository's root
        shutil.copytree(EXAMPLES, work / "docs" / "examples")
        shutil.copytree(ROOT / "tests" / "data", work / "tests" / "data")
        (work / ".venv").symlink_to(sys.prefix)
    else:
        shutil.copytree(EXAMPLES, work)
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
               PYTHONUNBUFFERED="1", COLUMNS="100")
    env.pop("BSPEDIT_WINDOWS_NAMES", None)
    for command in page_commands(page):
        if command.needs == "dot" and shutil.which("dot") is None:
            continue                    # Graphviz is not installed: the command exits 2
        done = subprocess.run(["bash", "-c", command.line], cwd=work, env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
        assert done.returncode == command.code, f"$ {command.line}\n{done.stdout}"
        if command.output is not None:
            actual = done.stdout.rstrip("\n").split("\n") if done.stdout.strip() else []
            assert matches(command.output, actual), \
                f"$ {command.line}\n--- the page shows\n" + "\n".join(command.output) + \
                "\n--- the command printed\n" + done.stdout


def test_the_matching_of_shown_output():
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"]) and matches(["..."], [])
    assert not matches(["a", "d"], ["a", "b", "d"]) and not matches(["a"], ["a", "b"])
    assert [(c.line, c.code, c.output) for c in commands(
        "console", "$ bspedit diff a b \\\n> c  # exit 1\nx\n$ true\n")] == \
        [("bspedit diff a b c", 1, ["x"]), ("true", 0, [])]
    assert [c.line for c in commands("sh", "# a comment\nbspedit info x.bsp\n\n")] == \
        ["bspedit info x.bsp"]


# -- the example files --------------------------------------------------------------------------
def test_the_demo_map_is_what_its_maker_writes(tmp_path):
    sys.path.insert(0, str(DOCS / "_build"))
    try:
        from demo_map import demo_map
    finally:
        sys.path.remove(str(DOCS / "_build"))
    demo_map(tmp_path / "demo.bsp")
    assert (tmp_path / "demo.bsp").read_bytes() == (EXAMPLES / "demo.bsp").read_bytes()


def test_the_tiny_map_of_the_examples_is_the_tests_one():
    assert (EXAMPLES / "tiny.bsp").read_bytes() == \
        (ROOT / "tests" / "data" / "tiny.bsp").read_bytes()


# -- the site's shape ----------------------------------------------------------------------------
def nav() -> str:
    return (ROOT / "mkdocs.yml").read_text()


def test_every_how_to_is_one_click_from_the_home_page():
    guides = sorted(p.relative_to(DOCS).as_posix() for p in (DOCS / "howto").glob("*.md")
                    if p.name != "index.md")
    home = (DOCS / "index.md").read_text()
    assert len(guides) == 9
    for guide in guides:
        assert f"]({guide})" in home, guide
        assert f": {guide}" in nav(), guide


def test_every_command_has_its_reference_page_and_every_page_is_in_the_nav():
    from bspedit.cli import SUMMARIES

    for command in SUMMARIES:
        text = (DOCS / "reference" / f"{command}.md").read_text()
        assert f"<!-- help: {command} -->" in text and f"<!-- summary: {command} -->" in text
    for page in DOCS.rglob("*.md"):
        assert page.relative_to(DOCS).as_posix() in nav(), page


def test_the_readme_is_a_front_door():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 200


def test_the_readme_picture_is_what_render_draws_now(tmp_path):
    """The one picture committed (GitHub shows the README without building the site): made
    again by `bspedit render docs/examples/demo.bsp -o docs/readme/demo.png --size 768`."""
    out = tmp_path / "demo.png"
    done = subprocess.run([sys.executable, "-m", "bspedit", "render", EXAMPLES / "demo.bsp",
                           "-o", out, "--size", "768"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == (DOCS / "readme" / "demo.png").read_bytes(), \
        "render draws another picture: run the command of this test's docstring"


@pytest.mark.full
def test_the_site_builds_and_its_pages_show_what_bspedit_says(tmp_path):
    """The site as CI builds it (the docs extra; skipped without it): a click from the home page
    reaches each how-to, each command's page shows its `--help` as the command prints it, and
    the pictures are there."""
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                           str(site)], cwd=ROOT, capture_output=True, text=True,
                          env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr
    home = (site / "index.html").read_text()
    for guide in (DOCS / "howto").glob("*.md"):
        if guide.name != "index.md":
            assert f'href="howto/{guide.stem}/"' in home, guide.name
    import html

    for command in ("render", "pak", "each"):
        help_text = subprocess.run([sys.executable, "-m", "bspedit", command, "--help"],
                                   capture_output=True, text=True,
                                   env=dict(os.environ, COLUMNS="100")).stdout
        page = html.unescape(re.sub(r"<[^>]+>", "", (site / "reference" / command /
                                                     "index.html").read_text()))
        assert help_text.strip() in page, command
    from PIL import Image

    for picture, size in (("demo-height.png", (768, 452)), ("demo-radar.png", (1024, 1024)),
                          ("demo-minimap.png", (384, 384)), ("demo-merged.png", (768, 227))):
        with Image.open(site / "img" / picture) as image:
            assert image.size == size and len(image.getcolors(1 << 16) or "x") > 2, picture
    assert (site / "api" / "bspedit.html").is_file()
