"""`-` as a file argument: standard output for outputs (maps too), standard input for inputs;
human lines then go to stderr, and --json (which needs standard output) is refused."""
from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

from bspedit.bsp import Bsp

TINY = Path(__file__).resolve().parent / "data" / "tiny.bsp"


def bspedit(*args: object, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bspedit", *map(str, args)], input=stdin,
                          capture_output=True)


def test_a_map_saved_to_stdout_is_the_file_it_would_write(tmp_path):
    edit = ["ent", "set", TINY, "--where", "classname=worldspawn", "message=piped"]
    to_file = bspedit(*edit, "-o", tmp_path / "out.bsp")
    piped = bspedit(*edit, "-o", "-")
    assert piped.returncode == 0 and piped.stdout == (tmp_path / "out.bsp").read_bytes()
    assert piped.stderr.decode().startswith("set: 1 entity matching") and \
        b"wrote - (" in piped.stderr and to_file.stdout.startswith(b"set: 1 entity")
    assert list(tmp_path.iterdir()) == [tmp_path / "out.bsp"]      # no file named -
    compressed = bspedit("compress", TINY, "-o", "-")
    assert compressed.returncode == 0
    assert bspedit("compress", TINY, "-o", tmp_path / "c.bsp").returncode == 0
    assert compressed.stdout == (tmp_path / "c.bsp").read_bytes()


def test_json_with_data_on_stdout_and_a_map_from_stdin_are_refused():
    refused = bspedit("lump", "extract", TINY, "entities", "-o", "-", "--json")
    message = "--json prints the report on standard output, so the data cannot go there too: " \
              "name an output file instead of -"
    assert refused.returncode == 2 and refused.stderr == f"bspedit: {message}\n".encode()
    assert json.loads(refused.stdout) == {"map": str(TINY), "verb": "lump extract",
                                          "result": None, "warnings": [], "error": message,
                                          "exit": 2}
    from_stdin = bspedit("info", "-", stdin=TINY.read_bytes())
    assert from_stdin.returncode == 2 and b"not from standard input (-)" in from_stdin.stderr


def test_outputs_to_stdout(tmp_path):
    with Bsp.open(TINY) as bsp:
        entities = bsp.read_lump("entities")
        sprp = bsp.game_lump.payload("sprp")
        pakfile = bsp.read_lump("PAKFILE")
    assert bspedit("lump", "extract", TINY, "entities", "-o", "-").stdout == entities
    assert bspedit("ent", "export", TINY, "-o", "-").stdout == entities.rstrip(b"\0")
    assert bspedit("gamelump", "extract", TINY, "sprp", "-o", "-").stdout == sprp
    assert bspedit("pak", "extract", TINY, "--to", "-").stdout == pakfile
    assert bspedit("lump", "export", TINY, "entities", "-o", tmp_path / "e.lmp").returncode == 0
    exported = bspedit("lump", "export", TINY, "entities", "-o", "-")
    assert exported.stdout == (tmp_path / "e.lmp").read_bytes() and exported.stderr == b""


def test_inputs_from_stdin(tmp_path):
    with Bsp.open(TINY) as bsp:
        entities = bsp.read_lump("entities")
    text = entities.replace(b"tiny", b"stdin")
    assert bspedit("lump", "replace", TINY, "entities", "-", "-o", tmp_path / "l.bsp",
                   stdin=text).returncode == 0
    with Bsp.open(tmp_path / "l.bsp") as bsp:
        assert bsp.read_lump("entities") == text
    added = bspedit("pak", "add", TINY, "-", "--as", "docs/readme.txt", "-o",
                    tmp_path / "p.bsp", stdin=b"from stdin\n")
    assert added.returncode == 0, added.stderr
    listing = f"lists/readme.txt\n{tmp_path / 'file.txt'}\n".encode()
    (tmp_path / "file.txt").write_bytes(b"listed\n")
    assert bspedit("pak", "addlist", tmp_path / "p.bsp", "-", "--in-place",
                   stdin=listing).returncode == 0
    with Bsp.open(tmp_path / "p.bsp") as bsp:
        archive = zipfile.ZipFile(io.BytesIO(bsp.read_lump("PAKFILE")))
        assert archive.read("docs/readme.txt") == b"from stdin\n"
        assert archive.read("lists/readme.txt") == b"listed\n"
