"""The public API and examples/ pass `mypy --strict` (the settings in pyproject.toml)."""
from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import bspedit
from conftest import ROOT

pytest.importorskip("mypy")
SETTINGS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]


def mypy(*args: object, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", "--config-file",
                           str(ROOT / "pyproject.toml"), *map(str, args)],
                          capture_output=True, text=True, cwd=cwd)


def test_checked_files_are_the_public_api_and_the_examples():
    """The modules of what `bspedit` exports (and of their base classes), and examples/."""
    exports = [bspedit.__getattr__(name) for name in bspedit.__all__
               if name not in ("open", "BspError", "CheckFailed", "__version__")]
    modules = {getattr(value, "__module__", None) or value.__name__ for value in exports}
    modules |= {base.__module__ for value in exports if isinstance(value, type)
                for base in value.__mro__ if base.__module__.startswith("bspedit.")}
    packages = {name for name in modules if hasattr(sys.modules[name], "__path__")}
    exported = {module.replace('.', '/') + ("" if module in packages else ".py")
                for module in modules}
    assert SETTINGS["strict"] is True
    assert set(SETTINGS["files"]) == exported | {"bspedit/__init__.py", "bspedit/errors.py",
                                                 "examples"}


@pytest.mark.full
def test_public_api_and_examples_pass_mypy_strict(tmp_path):
    result = mypy("--cache-dir", tmp_path)
    assert result.returncode == 0, result.stdout
    assert result.stdout.startswith("Success: no issues found")


@pytest.mark.full
def test_a_typing_error_in_a_script_is_found(tmp_path):
    script = tmp_path / "wrong.py"
    script.write_text("import bspedit\n\nwith bspedit.open('map.bsp') as bsp:\n"
                      "    size: str = bsp.size\n    bsp.save(layout=2)\n")
    result = mypy("--cache-dir", tmp_path / "cache", script)
    assert result.returncode == 1
    assert 'Incompatible types in assignment (expression has type "int", variable has type ' \
        '"str")' in result.stdout
    assert 'Argument "layout" to "save" of "Bsp" has incompatible type "int"' in result.stdout
