"""MkDocs hooks of the guide (mkdocs.yml names this file). What the build makes, so that no
committed copy can go stale:

* the usage of each command and verb, from the argument parsers (`bspedit.cli.build_parser`,
  `cli.SUMMARIES`): a reference page holding `<!-- help: COMMAND -->` gets the command's
  `--help` and each verb's there, `<!-- summary: COMMAND -->` its line of `bspedit --help`;
  `<!-- commands -->` the table of commands.
  Every command needs its page: a command without one stops the build;
* the pictures, made by bspedit's own command line from `docs/examples/demo.bsp` (the
  guide's own map) into `img/`, and, where `../shared/corpus` is beside the repository, from
  two corpus maps whose licences let their pictures be published (`<!-- gallery -->`);
* the Python API reference, by pdoc from the docstrings, into `api/`.
"""
from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
CORPUS = ROOT.parent / "shared" / "corpus"
HELP_COLUMNS = 100
log = logging.getLogger("mkdocs.hooks.bspedit")

#: picture -> the command lines that make it (run in a copy of docs/examples, in turn; {out}
#: is the file or folder the last one writes), and, for a folder, the file of it to show
PICTURES: dict[str, tuple[list[list[str]], str | None]] = {
    "demo-height.png": ([["render", "demo.bsp", "-o", "{out}", "--size", "768"]], None),
    "demo-lightmap.png": ([["render", "demo.bsp", "-o", "{out}", "--size", "768", "--color",
                            "lightmap"]], None),
    "demo-height.svg": ([["render", "demo.bsp", "-o", "{out}", "--size", "768"]], None),
    "demo-minimap.png": ([["render", "demo.bsp", "--minimap", "-o", "{out}", "--size", "384"]],
                         None),
    "demo-radar.png": ([["render", "demo.bsp", "--radar", "csgo", "-o", "{out}"]],
                       "resource/overviews/demo_radar.dds"),
    "demo-style0.png": ([["lightmaps", "demo.bsp", "-o", "{out}"]], "style0.png"),
    "demo-style32.png": ([["lightmaps", "demo.bsp", "-o", "{out}"]], "style32.png"),
    "demo-graph.svg": ([["ent", "graph", "demo.bsp", "-o", "{out}"]], None),
    "demo-merged.png": ([["transform", "demo.bsp", "--shift", "1024,0,0", "-o", "east.bsp"],
                         ["merge", "demo.bsp", "east.bsp", "--rename-conflicts", "-o",
                          "both.bsp"],
                         ["render", "both.bsp", "-o", "{out}", "--size", "768"]], None),
}
#: corpus maps whose licence allows publishing pictures made from them (MANIFEST.tsv):
#: (map, licence as the page says it, the command's options)
GALLERY = [
    ("q1/librequake_lq1m1_bsp2.bsp",
     "LibreQuake, BSD-3-Clause (copyright the LibreQuake contributors)",
     ["--size", "1024"]),
    ("q3/openarena_oacmpctf3.bsp", "OpenArena (Debian main), GPL-2.0-or-later",
     ["--size", "1024", "--color", "lightmap"]),
]


def bspedit(*args: str, cwd: Path) -> None:
    """Run the command line as a user does; a failure stops the build."""
    done = subprocess.run([sys.executable, "-m", "bspedit", "--quiet", *args], cwd=cwd,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"docs: `bspedit {' '.join(args)}` exited {done.returncode}: "
                           f"{done.stderr.strip()}")


def picture_bytes(work: Path) -> dict[str, bytes]:
    """Every picture of PICTURES, and the gallery's when the corpus is there."""
    made: dict[str, bytes] = {}
    for name, (lines, inside) in PICTURES.items():
        if "graph" in name and shutil.which("dot") is None:
            log.info("docs: Graphviz `dot` is not installed: %s is left out", name)
            continue
        out = work / ("out-" + name if inside is None else "dir-" + name)
        for argv in lines:
            bspedit(*[arg.replace("{out}", str(out)) for arg in argv], cwd=work)
        path = out if inside is None else out / inside
        if path.suffix == ".dds":           # the radar as the browser can show it
            from PIL import Image

            png = path.with_suffix(".png")
            Image.open(path).save(png)
            path = png
        made[name] = path.read_bytes()
    if CORPUS.is_dir():
        for i, (map_path, _, options) in enumerate(GALLERY):
            out = work / f"gallery{i}.png"
            bspedit("render", str(CORPUS / map_path), "-o", str(out), *options, cwd=work)
            made[f"gallery{i}.png"] = out.read_bytes()
    return made


def gallery(pictures: set[str]) -> str:
    """The gallery's Markdown: the corpus pictures made, or why there are none."""
    if "gallery0.png" not in pictures:
        return ("*The pictures of real maps are made where the build finds the corpus of "
                "real maps (`../shared/corpus`) beside the repository; this build did not.*")
    lines = []
    for i, (map_path, licence, options) in enumerate(GALLERY):
        name = Path(map_path).name
        lines.append(f"`bspedit render {name} -o {name[:-4]}.png {' '.join(options)}`: "
                     f"{name}, from {licence}.\n\n![{name}](../img/gallery{i}.png)\n")
    return "\n".join(lines)


def api_reference(work: Path) -> Path:
    """The API reference, by pdoc (warnings as errors, as CI's own pdoc step)."""
    out = work / "api"
    done = subprocess.run([sys.executable, "-W", "error", "-m", "pdoc", "-o", str(out),
                           "bspedit"], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"docs: pdoc failed: {done.stderr.strip()}")
    return out


def summary(command: str) -> str:
    """The command's line of `bspedit --help`, as a sentence."""
    from bspedit.cli import SUMMARIES

    return f"*{SUMMARIES[command][0].upper() + SUMMARIES[command][1:]}.*"


def usage(command: str) -> str:
    """The command's `--help` and each verb's, as the parsers print them."""
    os.environ["COLUMNS"] = str(HELP_COLUMNS)
    from bspedit.cli import build_parser, subcommand, subcommands

    parser = subcommand(build_parser(command), command)
    if parser is None:
        raise RuntimeError(f"docs: no command {command!r} (see bspedit.cli.COMMANDS)")
    parts = ["## Usage",
             f"```text\n$ bspedit {command} --help\n{parser.format_help().rstrip()}\n```"]
    for verb, verb_parser in (subcommands(parser) or {}).items():
        parts.append(f"### `bspedit {command} {verb}`\n\n```text\n$ bspedit {command} {verb} "
                     f"--help\n{verb_parser.format_help().rstrip()}\n```")
    return "\n\n".join(parts)


def commands_table() -> str:
    from bspedit.cli import SUMMARIES

    rows = [f"| [`{name}`]({name}.md) | {summary} |" for name, summary in SUMMARIES.items()]
    return "| command | what it does |\n|---|---|\n" + "\n".join(rows)


def _source(files: Files, path: str) -> str:
    """The Markdown of the page at `path`, or "" when there is none."""
    file = files.get_file_from_path(path)
    return Path(file.abs_src_path).read_text(encoding="utf-8") if file and file.abs_src_path \
        else ""


# -- the hooks ------------------------------------------------------------------------------
_work: tempfile.TemporaryDirectory[str] | None = None
_pictures: set[str] = set()


def on_files(files: Files, config: Any) -> Files:
    global _work
    from bspedit.cli import SUMMARIES

    missing = [name for name in SUMMARIES
               if f"<!-- help: {name} -->" not in _source(files, f"reference/{name}.md")]
    if missing:
        raise RuntimeError(f"docs: no reference page for {', '.join(missing)} "
                           "(docs/reference/COMMAND.md with `<!-- help: COMMAND -->`)")
    _work = tempfile.TemporaryDirectory(prefix="bspedit-docs-")
    work = Path(_work.name)
    shutil.copytree(EXAMPLES, work, dirs_exist_ok=True)
    made = picture_bytes(work)
    _pictures.clear()
    _pictures.update(made)
    for name, data in made.items():
        files.append(File.generated(config, f"img/{name}", content=data))
    api = api_reference(work)
    for path in sorted(api.rglob("*")):
        if path.is_file():
            files.append(File.generated(config, f"api/{path.relative_to(api).as_posix()}",
                                        abs_src_path=str(path)))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    lines = []
    for line in markdown.split("\n"):
        marker = line.strip()
        if marker.startswith("<!-- help: ") and marker.endswith(" -->"):
            lines.append(usage(marker[len("<!-- help: "):-len(" -->")].strip()))
        elif marker.startswith("<!-- summary: ") and marker.endswith(" -->"):
            lines.append(summary(marker[len("<!-- summary: "):-len(" -->")].strip()))
        elif marker == "<!-- commands -->":
            lines.append(commands_table())
        elif marker == "<!-- gallery -->":
            lines.append(gallery(_pictures))
        else:
            lines.append(line)
    return "\n".join(lines)


def on_post_build(config: Any) -> None:
    global _work
    if _work is not None:
        _work.cleanup()
        _work = None
