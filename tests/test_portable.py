"""The portable mode (issue 31): every verb on each family's map, run once as usual and once
with Linux's and POSIX's own `os` and `signal` functions removed, pool workers spawned and
Windows's refusals imitated (tests/portable/sitecustomize.py), writes the same bytes and says
the same things. Then the cases only Windows has: a rename refused because the file is open
elsewhere, a console code page that lacks a character of the entity text."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import verbs
from bspedit.cli import invoke
from conftest import CORPUS

PORTABLE = Path(__file__).resolve().parent / "portable"
HAVE_CORPUS = all((CORPUS / m).exists() for m in verbs.MAPS.values())
needs_corpus = pytest.mark.skipif(not HAVE_CORPUS, reason="../shared/corpus not present")


def environment(portable: bool, **extra: str) -> dict[str, str]:
    """The environment of a child Python: tests/portable on its path (the shim does nothing
    unless asked), the digest cache off, and the portable mode on when asked."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BSPEDIT_TEST_")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(PORTABLE), env.get("PYTHONPATH")) if p)
    env["BSPEDIT_NO_CACHE"] = "1"
    if portable:
        env["BSPEDIT_TEST_PORTABLE"] = "1"
    env.update(extra)
    return env


def test_the_shim_takes_away_what_windows_lacks() -> None:
    probe = ("import os, signal, multiprocessing; from bspedit.batch import pool; "
             "print(hasattr(os, 'pread'), hasattr(os, 'copy_file_range'), hasattr(os, 'fork'), "
             "hasattr(signal, 'SIGPIPE'), hasattr(signal, 'pthread_sigmask'), pool._START_METHOD)")
    normal, portable = (subprocess.run([sys.executable, "-c", probe], capture_output=True,
                                       text=True, env=environment(p), check=True).stdout.split()
                        for p in (False, True))
    assert normal == ["True", "True", "True", "True", "True", "fork"]
    assert portable == ["False", "False", "False", "False", "False", "spawn"]


def _relative(word: str, base: Path) -> str:
    return word.replace(f"{base}{os.sep}", "").replace(str(base), ".")


def _commands(family: str, base: Path) -> list[dict[str, object]]:
    """Every verb that applies to the family, writing with `-o` and, where it can, in place
    (on a copy of its input of its own), plus a pool of two spawned workers."""
    values = verbs.prepare(base, family)
    values["dumped"] = str(base / "dumped0")
    assert invoke(["dump", values["map"], values["dumped"]], capture=True).code == 0
    found = []
    for verb, parser in verbs.verbs().items():
        if family not in [p.values[1] for p in verbs.cases(verb)]:
            continue
        slug = verb.replace(" ", "_")
        targets: list[tuple[list[str], dict[str, str], list[list[str]]]] = \
            [(["-o", f"{slug}.out.bsp"], values, [])]
        first = verbs.ARGS[verb][0].strip("{}")
        if "--in-place" in parser._option_string_actions and first in values \
                and Path(values[first]).is_file():
            copy = str(base / f"{slug}.inplace.bsp")
            targets.append((["--in-place"], dict(values, **{first: copy}), [[values[first], copy]]))
        for target, filled, copies in targets:
            argv = verbs.command(verb, dict(filled), target)
            found.append({"argv": [_relative(w, base) for w in argv],
                          "copy": [[_relative(w, base) for w in pair] for pair in copies]})
    found.append({"argv": ["each", "-j", "2", "map.bsp", "other.bsp", "--", "rewrite",
                           "--layout", "compact", "-o", "pooled/"], "copy": []})
    found.append({"argv": ["rewrite", "other.bsp", "--layout", "compact", "--in-place"],
                  "copy": []})
    return found


def _tree(folder: Path) -> dict[str, tuple[int, bytes]]:
    return {p.relative_to(folder).as_posix(): (p.stat().st_mode & 0o777, p.read_bytes())
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _run_all(tmp_path: Path, base: Path, mode: str, **extra: str) -> list[dict[str, object]]:
    """Run commands.json in a copy of `base` named `mode`; what each command did."""
    shutil.copytree(base, tmp_path / mode, symlinks=True)
    done = subprocess.run([sys.executable, str(PORTABLE / "run_commands.py"),
                           str(tmp_path / "commands.json"), str(tmp_path / f"{mode}.json")],
                          cwd=tmp_path / mode, env=environment(mode != "normal", **extra),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    # the seconds a compression took are the one thing that may differ
    return json.loads(re.sub(r" in [0-9.]+ s\b", " in T s",
                             (tmp_path / f"{mode}.json").read_text()))


@needs_corpus
@pytest.mark.parametrize("family", [pytest.param(f, marks=() if f == "q3" else
                                                  pytest.mark.full) for f in verbs.MAPS])
def test_every_verb_gives_the_same_bytes_in_the_portable_mode(tmp_path: Path,
                                                               family: str) -> None:
    base = tmp_path / "base"
    base.mkdir()
    commands = _commands(family, base)
    (tmp_path / "commands.json").write_text(json.dumps(commands))
    normal, portable = (_run_all(tmp_path, base, mode) for mode in ("normal", "portable"))
    for said, said_portable in zip(normal, portable, strict=True):
        assert said_portable == said
        assert not re.search("internal error[,:]", said["stderr"]), said
    assert sum(r["code"] == 0 for r in normal) >= len(commands) - 2
    normal_files, portable_files = _tree(tmp_path / "normal"), _tree(tmp_path / "portable")
    assert sorted(portable_files) == sorted(normal_files)
    for name, content in normal_files.items():
        assert portable_files[name] == content, name
    assert any(name.startswith("pooled/") for name in normal_files)


@needs_corpus
@pytest.mark.full
def test_every_verb_on_an_lzma_map_without_pylzma(tmp_path: Path) -> None:
    """Portable and without pylzma (Windows and macOS by default): the same exit codes, no
    internal error; a map that differs from the normal mode's is one with LZMA data compressed
    again by the standard library: `diff` finds the same content, and it verifies."""
    base = tmp_path / "base"
    base.mkdir()
    commands = _commands("source-lzma", base)
    (tmp_path / "commands.json").write_text(json.dumps(commands))
    normal = _run_all(tmp_path, base, "normal")
    bare = _run_all(tmp_path, base, "bare", BSPEDIT_TEST_NO_PYLZMA="1")
    for said, said_bare in zip(normal, bare, strict=True):
        assert not re.search("internal error[,:]", said_bare["stderr"]), said_bare
        if said["argv"][0] == "build":      # dumped0 was dumped with pylzma: refused, said why
            assert said_bare["code"] == 2 and "pylzma is needed" in said_bare["stderr"]
            continue
        assert said_bare["code"] == said["code"], said_bare
    normal_files, bare_files = _tree(tmp_path / "normal"), _tree(tmp_path / "bare")
    normal_files.pop("build.out.bsp")
    # a dump keeps the stored LZMA bytes without pylzma (other files), and builds the map back
    for files in (normal_files, bare_files):
        for name in [n for n in files if n.startswith("dumped/")]:
            del files[name]
    rebuilt = _run("build", "dumped", "-o", "rebuilt.bsp", cwd=tmp_path / "bare",
                   BSPEDIT_TEST_NO_PYLZMA="1")
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert (tmp_path / "bare" / "rebuilt.bsp").read_bytes() == bare_files["map.bsp"][1]
    assert sorted(bare_files) == sorted(normal_files)
    differing = [n for n, content in normal_files.items() if bare_files[n] != content]
    assert differing, "no verb compressed again"
    for name in differing:
        assert name.endswith(".bsp"), name
        code, _, (said,) = verbs.run_json(["diff", str(tmp_path / "normal" / name),
                                           str(tmp_path / "bare" / name)])
        assert said["result"]["same_content"], (name, said["result"]["verdict"])
        assert invoke(["verify", str(tmp_path / "bare" / name)], capture=True).code == 0


def _run(*args: str, portable: bool = True, cwd: Path, **extra: str
         ) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "bspedit", *args], cwd=cwd, capture_output=True,
                          env=environment(portable, **extra), timeout=120)


@needs_corpus
def test_a_rename_windows_refuses_keeps_the_map_and_the_new_file(tmp_path: Path) -> None:
    path = tmp_path / "map.bsp"
    shutil.copyfile(CORPUS / verbs.MAPS["source-lzma"], path)
    before = path.read_bytes()
    # compact in place renames over the open map: closed first, it goes through
    done = _run("rewrite", "map.bsp", "--layout", "compact", "--in-place", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    compacted = path.read_bytes()
    assert compacted != before and not list(tmp_path.glob("*.new"))
    # another program holds it open: refused, the map is unchanged and the new file kept
    path.write_bytes(before)
    done = _run("ent", "set", "map.bsp", "--where", "classname=worldspawn", "message=x",
                "-o", "copy.bsp", cwd=tmp_path)
    assert done.returncode == 0
    (tmp_path / "copy.bsp").write_bytes(before)
    done = _run("rewrite", "copy.bsp", "--layout", "compact", "--in-place", cwd=tmp_path,
                BSPEDIT_TEST_LOCKED=str(tmp_path / "copy.bsp"))
    assert done.returncode == 2
    message = done.stderr.decode()
    assert "cannot replace it" in message and "copy.bsp.new" in message, message
    assert not re.search("internal error[,:]", message)
    assert (tmp_path / "copy.bsp").read_bytes() == before
    assert (tmp_path / "copy.bsp.new").read_bytes() == compacted
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@needs_corpus
def test_entity_text_on_a_code_page_that_lacks_its_characters(tmp_path: Path) -> None:
    path = tmp_path / "map.bsp"
    shutil.copyfile(CORPUS / verbs.MAPS["q3"], path)
    done = _run("ent", "set", "map.bsp", "--where", "classname=worldspawn",
                "message=Жук é", "--in-place", cwd=tmp_path, portable=False)
    assert done.returncode == 0, done.stderr
    for portable in (False, True):
        shown = _run("ent", "query", "map.bsp", "--where", "classname=worldspawn", cwd=tmp_path,
                     portable=portable, PYTHONIOENCODING="cp1252")
        assert shown.returncode == 0, shown.stderr
        # what cp1252 has comes out in cp1252; what it lacks, escaped
        assert b'"message" "\\u0416\\u0443\\u043a \xe9"' in shown.stdout
    utf8 = _run("ent", "query", "map.bsp", "--where", "classname=worldspawn", cwd=tmp_path,
                PYTHONIOENCODING="utf-8")
    assert '"message" "Жук é"'.encode() in utf8.stdout


@needs_corpus
def test_binary_standard_streams_and_a_reader_that_goes_away(tmp_path: Path) -> None:
    path = tmp_path / "map.bsp"
    shutil.copyfile(CORPUS / verbs.MAPS["source"], path)
    lump = _run("lump", "extract", "map.bsp", "pakfile", "-o", "-", cwd=tmp_path)
    assert lump.returncode == 0
    normal = _run("lump", "extract", "map.bsp", "pakfile", "-o", "-", cwd=tmp_path, portable=False)
    assert lump.stdout == normal.stdout and lump.stdout[:2] == b"PK"
    piped = subprocess.run(f'"{sys.executable}" -m bspedit lump show map.bsp planes | head -1',
                           shell=True, cwd=tmp_path, capture_output=True,
                           env=environment(True), timeout=120)
    assert piped.returncode == 0 and piped.stderr == b"" and piped.stdout


# POSIX-only calls, each allowed only where a module checks for it first
_POSIX_ONLY = {"os": {"pread", "preadv", "pwrite", "pwritev", "readv", "writev",
                      "copy_file_range", "sendfile", "posix_fallocate", "fchmod", "fork",
                      "O_CLOEXEC", "O_NOFOLLOW", "killpg", "getuid", "geteuid", "sync"},
               "signal": {"SIGPIPE", "SIGHUP", "SIGALRM", "pthread_sigmask", "setitimer"}}
_GUARDED = {("bspedit/batch/pool.py", "pthread_sigmask"), ("bspedit/batch/work.py",
                                                           "pthread_sigmask")}


def test_posix_only_calls_go_through_the_portable_layer() -> None:
    """Only container/fileio.py calls what Windows lacks, and only it (and the null device of
    cli/console.py) opens descriptors: `os.open` must add O_BINARY there."""
    import ast

    root = Path(__file__).resolve().parent.parent
    found = []
    for path in sorted((root / "bspedit").rglob("*.py")):
        name = path.relative_to(root).as_posix()
        if "generated" in name or name == "bspedit/container/fileio.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                module, attribute = node.value.id, node.attr
                if attribute in _POSIX_ONLY.get(module, ()) and (name, attribute) not in _GUARDED:
                    found.append(f"{name}:{node.lineno}: {module}.{attribute}")
                if (module, attribute) == ("os", "open") and name != "bspedit/cli/console.py":
                    found.append(f"{name}:{node.lineno}: os.open (use fileio.open_fd)")
    assert found == []
