"""The package's folders are layers: a module imports only from its own layer or the ones
below (every import counted: top-level, inside functions and under TYPE_CHECKING), and no
modules import each other in a circle."""
from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT

PACKAGE = ROOT / "bspedit"
# lowest first; batch runs CLI command lines, so it sits beside the CLI
LAYERS = [{"errors", "interrupts", "limits", "progress", "values"}, {"format"}, {"container"},
          {"lumps"}, {"bsp"}, {"patching", "features"}, {"cli", "batch", "ui"}, {"__init__", "__main__"}]


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        if "generated" in path.parts:
            continue
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__" and len(parts) > 2:
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(name: str) -> set[str]:
    """The bspedit modules `name` imports."""
    path = MODULES[name]
    package = name.split(".") if path.name == "__init__.py" and name != "bspedit.__init__" \
        else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            target = ".".join(base + (node.module.split(".") if node.module else []))
            candidates = [f"{target}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        else:
            continue
        for candidate in candidates:
            while candidate and candidate not in MODULES:
                candidate = candidate.rpartition(".")[0]
            if candidate and candidate != name and candidate.startswith("bspedit."):
                found.add(candidate)
    return found


def _layer(name: str) -> int:
    part = name.split(".")[1]
    return next(i for i, layer in enumerate(LAYERS) if part in layer)


def test_every_module_is_in_a_layer():
    assert all(_layer(name) is not None for name in MODULES)


def test_imports_go_down_the_layers():
    upward = [(a, b) for a in MODULES for b in _imports(a) if _layer(b) > _layer(a)]
    assert not upward


def test_no_import_circles():
    graph = {name: _imports(name) for name in MODULES}
    state: dict[str, int] = {}
    circles = []

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for other in sorted(graph[name]):
            if state.get(other) == 1:
                circles.append(path[path.index(other):] + [other])
            elif other not in state:
                visit(other, path + [other])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert not circles
