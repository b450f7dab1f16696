"""`ent graph` (issue 34): the graph of real maps opens in Graphviz, and its nodes and edges are
the links counted from the raw entity text by the oracle in `logic_oracle`."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CORPUS
from logic_oracle import (
    EXACT_CASE,
    first,
    game_creates,
    goldsrc_runtime,
    multi_manager_targets,
    output_fields,
    reached,
    read_entities,
    source_name_or_class,
    source_runtime,
    spawns_a_class,
)

import bspedit
from bspedit.cli import invoke

CONTENT = CORPUS.parent / "content"
MAPS = ["q1/librequake_lq1m1_bsp2.bsp", "goldsrc/svenquake2_q2dm1_13lumps.bsp",
        "q2/opentdm_q2pduel4_dirtypad.bsp", "q3/openarena_oa_ctf2.bsp",
        "source/portalmp_background01.bsp", "source/ths_l4d2_test_mechanic01_v21.bsp"]
FULL_MAPS = ["source/opendm_background01.bsp", "source/ths_l4d2_as_devtest_map_01_v21.bsp",
             "source/inscrutable_rocket_turret.bsp", "source/valvebsp_testmap.bsp"]
KEYS = {"q1": ("target", "killtarget"), "goldsrc": ("target", "killtarget", "master"),
        "q2": ("target", "killtarget", "pathtarget", "deathtarget", "combattarget"),
        "q3": ("target",)}
EDGE = re.compile(r'^  "([^"]+)" -> "([^"]+)" \[.*class="(output|key)"', re.MULTILINE)
NODE = re.compile(r'^  "([^"]+)" \[label=', re.MULTILINE)

needs_corpus = pytest.mark.skipif(not CORPUS.exists(), reason="../shared/corpus not present")
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz not installed")


def source_keys(classname: str) -> dict[str, bool]:
    """The keys of a Source class naming entities, by srctools' database read directly (each
    with whether a classname answers it); `target` and `parentname` for an unknown class."""
    from srctools.fgd import EntityDef

    try:
        definition = EntityDef.engine_def(classname.lower())
    except KeyError:
        return {"target": False, "parentname": False}
    types = {"TARG_DEST": False, "TARG_FILTER_NAME": False, "TARG_DEST_CLASS": True}
    return {k: types[definition.kv[k].type.name] for k in definition.kv
            if definition.kv[k].type.name in types}


def expected_graph(path: Path) -> tuple[int, int, int]:
    """(nodes, output edges, key edges) counted from the raw entity text."""
    with bspedit.open(path) as bsp:
        family = "source" if bsp.family.engine == "source" else bsp.family.key
        entities = read_entities(bsp.content(bsp.family.entities))
    exact = family in EXACT_CASE
    spawned, given_classes = source_runtime(entities) if family == "source" else (set(), set())
    if family == "goldsrc":
        spawned = goldsrc_runtime(entities) | {"!"}
    nodes: set[object] = set()
    counts = {"output": 0, "key": 0}

    def link(source: int, name: str, kind: str, by_class: bool) -> None:
        nodes.add(source)
        folded = name if exact else name.lower()
        if family == "source" and name.startswith("!"):
            hits: list[int] | None = [source] if folded == "!self" else None
        else:
            hits = reached(family, entities, name, by_class=by_class)
            if not hits and (folded in spawned or by_class and game_creates(name, given_classes)
                             or "!" in spawned and name.startswith("!")):
                hits = None
        if hits is None:
            nodes.add(("runtime", folded))
        elif not hits:
            nodes.add(("dangling", folded))
        nodes.update(hits or ())
        counts[kind] += len(hits) if hits else 1

    for index, entity in enumerate(entities):
        classname = first(entity, "classname")
        keys = source_keys(classname) if family == "source" else \
            {k: False for k in KEYS.get(family, KEYS["q1"])}
        for key, value in entity:
            fields = output_fields(value) if family == "source" and key else None
            if fields:
                link(index, fields[0], "output", True)
            elif key.lower() in keys and not spawns_a_class(family, classname, key):
                name = value.split(",", 1)[0] if key.lower() == "parentname" else value
                if name.strip():
                    link(index, name, "key", keys[key.lower()] or source_name_or_class(classname, key))
        if family == "goldsrc" and classname == "multi_manager":
            for _, name in multi_manager_targets(entity):
                link(index, name, "key", False)
    return len(nodes), counts["output"], counts["key"]


def graph(path: Path, out: Path, *more: str) -> tuple[int, str]:
    report = invoke(["ent", "graph", str(path), "-o", str(out), *more], capture=True)
    return report.code, out.read_text() if out.exists() and out.suffix == ".dot" else ""


def check_counts(name: str, tmp_path: Path) -> None:
    path = CORPUS / name
    code, dot = graph(path, tmp_path / "g.dot")
    assert code == 0
    edges = EDGE.findall(dot)
    nodes, outputs, keys = expected_graph(path)
    assert len(NODE.findall(dot)) == nodes
    assert sum(kind == "output" for *_, kind in edges) == outputs
    assert sum(kind == "key" for *_, kind in edges) == keys
    assert dot.count(" -> ") == outputs + keys
    if shutil.which("dot"):
        done = subprocess.run(["dot", "-Tsvg", str(tmp_path / "g.dot")], check=False, capture_output=True)
        assert done.returncode == 0, done.stderr
        assert done.stdout.count(b'<g id="edge') == outputs + keys


@needs_corpus
@pytest.mark.parametrize("name", MAPS)
def test_graph_counts_equal_the_links_of_the_text(name, tmp_path):
    check_counts(name, tmp_path)


@needs_corpus
@pytest.mark.full
@pytest.mark.parametrize("name", FULL_MAPS)
def test_graph_counts_more_maps(name, tmp_path):
    check_counts(name, tmp_path)


@needs_corpus
@needs_dot
def test_svg_and_png(tmp_path):
    path = CORPUS / "source/portalmp_background01.bsp"
    assert graph(path, tmp_path / "g.svg")[0] == 0
    svg = (tmp_path / "g.svg").read_bytes()
    assert b"<svg" in svg and svg.count(b'class="edge output"') == 4
    assert graph(path, tmp_path / "g.png")[0] == 0
    assert (tmp_path / "g.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@needs_corpus
def test_labels_are_escaped(tmp_path):
    """Backslashes, line breaks, braces and bytes that are not UTF-8 in names: DOT that
    Graphviz reads, showing the names as written."""
    out = tmp_path / "map.bsp"
    shutil.copyfile(CORPUS / "q2/bsptool_q2_mp_lobby.bsp", out)
    odd = "a\\b\nc{d}\\l\udce9"
    with bspedit.open(out) as bsp:
        lump = bsp.entities()
        lump.add_entity({"classname": "info_null", "targetname": odd})
        lump.add_entity({"classname": "trigger_relay", "target": odd})
        lump.add_entity({"classname": "trigger_relay", "target": "gone\\N"})
        bsp.save()
    code, dot = graph(out, tmp_path / "g.dot")
    assert code == 0
    assert '"a\\\\b\\nc{d}\\\\l\\\\xe9\\ninfo_null #3"' in dot
    assert '"gone\\\\N\\n(no entity)", color=red' in dot
    assert dot.count(" -> ") == 2 and dot.count(", color=red") == 2    # the node and its edge
    if shutil.which("dot"):
        done = subprocess.run(["dot", "-Tsvg"], input=dot.encode(), check=False, capture_output=True)
        assert done.returncode == 0
        assert b">a\\b</text>" in done.stdout and b">gone\\N</text>" in done.stdout


@needs_corpus
def test_around(tmp_path):
    path = CORPUS / "source/ths_l4d2_test_mechanic01_v21.bsp"
    _, full = graph(path, tmp_path / "full.dot")
    pairs = [(a, b) for a, b, _ in EDGE.findall(full)]
    labels = dict(re.findall(r'^  "([^"]+)" \[label="([^"\\]*)', full, re.MULTILINE))
    center = next(n for n, label in labels.items() if label and n.startswith("e"))
    name = labels[center]
    named = {n for n, label in labels.items() if label.lower() == name.lower()}
    code, dot = graph(path, tmp_path / "d0.dot", "--around", name, "--depth", "0")
    assert code == 0 and set(NODE.findall(dot)) == named
    code, dot = graph(path, tmp_path / "d1.dot", "--around", name, "--depth", "1")
    near = named | {b for a, b in pairs if a in named} | {a for a, b in pairs if b in named}
    assert code == 0 and set(NODE.findall(dot)) == near
    report = invoke(["ent", "graph", str(path), "-o", str(tmp_path / "x.dot"), "--around",
                     "no_such_name"], capture=True)
    assert report.code == 1 and not (tmp_path / "x.dot").exists()


@needs_corpus
def test_careless_user(tmp_path):
    path = tmp_path / "map.bsp"
    shutil.copyfile(CORPUS / "source/portalmp_background01.bsp", path)
    before = path.read_bytes()
    link = tmp_path / "link.dot"
    link.symlink_to(path)
    for target in (path, link, tmp_path / "g.txt", tmp_path / "nofolder" / "g.dot"):
        assert invoke(["ent", "graph", str(path), "-o", str(target)], capture=True).code == 2
    assert path.read_bytes() == before
    assert invoke(["ent", "graph", str(path), "-o", "-", "--json"], capture=True).code == 2
    assert invoke(["ent", "graph", str(path), "-o", str(tmp_path / "g.dot"), "--depth", "-1"],
                  capture=True).code == 2
    done = subprocess.run([sys.executable, "-m", "bspedit", "ent", "graph", str(path), "-o", "-"],
                          check=False, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("digraph") and done.stdout.count(" -> ") == 5
    # without Graphviz: exit 2, how to install it, and the DOT written beside the SVG
    done = subprocess.run([sys.executable, "-m", "bspedit", "ent", "graph", str(path), "-o",
                           str(tmp_path / "g.svg")], check=False, capture_output=True, text=True,
                          env={**os.environ, "PATH": str(tmp_path)})
    assert done.returncode == 2 and "apt install graphviz" in done.stderr
    assert str(tmp_path / "g.dot") in done.stderr
    assert not (tmp_path / "g.svg").exists() and (tmp_path / "g.dot").read_text().startswith("digraph")


@needs_corpus
def test_each_writes_a_graph_per_map(tmp_path):
    maps, out = tmp_path / "maps", tmp_path / "out"
    maps.mkdir()
    out.mkdir()
    names = ("q1/librequake_start_bspx.bsp", "source/portalmp_background01.bsp")
    for name in names:
        shutil.copyfile(CORPUS / name, maps / Path(name).name)
    done = subprocess.run([sys.executable, "-m", "bspedit", "each", "-j", "1", str(maps), "--",
                           "ent", "graph", "-o", f"{out}/{{stem}}.dot"], check=False, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted(Path(n).stem + ".dot" for n in names)
    for name in names:
        assert (out / (Path(name).stem + ".dot")).read_text().count(" -> ") == \
            sum(expected_graph(CORPUS / name)[1:])
