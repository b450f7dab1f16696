"""The command line through real subprocesses: output, exit codes, nothing written on error."""
from __future__ import annotations

import json
import struct
import subprocess
import sys

import pytest

import synthetic
from conftest import run_cli
from test_container import BAD_INPUTS
from bspedit.bsp import Bsp


def test_info_prints_family_and_lump_table(write_map):
    path = write_map(synthetic.sample("source"))
    result = run_cli("info", path)
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0] == f"{path}: Source engine (VBSP)"
    assert "version 20, map revision 42, lump_t order standard" in lines[1]
    row = next(line for line in lines if line.split()[:2] == ["35", "GAME_LUMP"])
    assert row.split()[-1] == "3"    # fourth lump in file order


def test_info_json_reports_gaps_and_bspx(write_map):
    path = write_map(synthetic.sample("q1"))
    facts = json.loads(run_cli("info", path, "--json").stdout)["result"]
    assert facts["family"] == "q1" and facts["version"] == 29
    assert [g["kind"] for g in facts["gaps"]] == ["padding", "trailing"]
    assert facts["gaps"][0]["zero"] is False        # the synthetic map pads with "\n"
    assert facts["bspx_lumps"] == [{"name": "RGBLIGHTING", "offset": facts["gaps"][1]["start"] + 40,
                                    "length": 15}]


def test_info_does_not_import_lark_or_pylzma(write_map):
    path = write_map(synthetic.sample("source"))
    code = ("import sys; from bspedit.cli import main; main(['info', %r]); "
            "print(sorted(m for m in ('lark', 'pylzma') if m in sys.modules))" % str(path))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.splitlines()[-1] == "[]"


def test_an_entity_edit_loads_only_what_it_uses(write_map, tmp_path):
    """`ent set -o` (the start-up bench's edit, issue 42) loads none of the modules it does
    without: dataclasses (and inspect), pathlib, shutil (and bz2), lzma (the map has no LZMA
    lump), threading, string; nor lark, numpy or srctools."""
    path, out = write_map(synthetic.sample("source")), tmp_path / "out.bsp"
    unused = ["dataclasses", "inspect", "pathlib", "shutil", "bz2", "lzma", "threading", "string",
              "lark", "numpy", "srctools"]
    code = ("import sys; before = set(sys.modules); from bspedit.cli import main; "
            f"code = main(['ent', 'set', {str(path)!r}, '--where', 'classname=worldspawn', "
            f"'skyname=sky_x', '-o', {str(out)!r}]); "
            f"print(code, sorted(m for m in {unused!r} if m in set(sys.modules) - before))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.splitlines()[-1] == "0 []", result.stderr
    with Bsp.open(out) as saved:
        assert saved.entities().worldspawn["skyname"] == "sky_x"


@pytest.mark.parametrize("columns", [None, "50", "200", "0", "wide"])
def test_help_is_as_wide_as_argparse_makes_it(monkeypatch, columns):
    """The parser finds the help's width once per process (bspedit.cli.parser), as argparse
    finds it with shutil for every argument: the same help."""
    import shutil

    from bspedit.cli.parser import help_width

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert help_width.__wrapped__() == shutil.get_terminal_size().columns - 2


@pytest.mark.parametrize("layout", ["stable", "compact"])
def test_rewrite_writes_the_output(write_map, tmp_path, layout):
    original = synthetic.sample("q2")
    path = write_map(original)
    out = tmp_path / "out.bsp"
    result = run_cli("rewrite", path, "-o", out, "--layout", layout)
    assert result.returncode == 0
    assert result.stdout.startswith(f"wrote {out} (")
    expected = bytearray(original)
    if layout == "compact":                  # same places; the non-zero padding becomes zeros
        with Bsp.open(path) as bsp:
            for gap in bsp.layout.gaps:
                expected[gap.start:gap.end] = bytes(gap.length)
    assert out.read_bytes() == expected


def test_verify_lists_every_problem_and_exits_1(write_map):
    data = bytearray(synthetic.sample("q1"))
    struct.pack_into("<i", data, 4 + 8 * 1 + 4, 79)            # planes: 79 bytes, not 20*n
    struct.pack_into("<i", data, 4 + 8 * 12 + 4, 2)            # edges: 2 bytes, not 4*n
    struct.pack_into("<i", data, 4 + 8 * 12, 130)
    path = write_map(bytes(data))
    result = run_cli("verify", path)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        f"{path}: lump 1 (PLANES): file offset 124: length 79 is not a multiple of its 20-byte records",
        f"{path}: lump 12 (EDGES): file offset 130: length 2 is not a multiple of its 4-byte records",
    ] or "overlaps" in result.stdout


def test_verify_reports_directory_problems_with_exit_1(write_map):
    data = bytearray(synthetic.sample("q2"))
    struct.pack_into("<ii", data, 8 + 8 * 5, 10_000_000, 8)
    path = write_map(bytes(data))
    result = run_cli("verify", path)
    assert result.returncode == 1
    assert result.stdout.strip() == (f"{path}: lump 5 (TEXINFO): file offset 10000000: lump of 8 bytes "
                                     "runs past the end of the file (ends at 10000008, file has "
                                     f"{len(data)} bytes)")


@pytest.mark.parametrize("command", ["info", "rewrite", "verify"])
def test_bad_input_is_one_line_exit_2_and_nothing_written(write_map, tmp_path, command):
    path = write_map(b"IBSP" + struct.pack("<i", 38) + bytes(40))
    out = tmp_path / "out.bsp"
    args = [command, path] + (["-o", out] if command == "rewrite" else [])
    result = run_cli(*args)
    assert result.returncode == 2
    assert result.stderr == f"bspedit: {path}: file offset 48: truncated header: 48 of 160 bytes\n"
    assert "Traceback" not in result.stdout + result.stderr
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["map.bsp"]


@pytest.mark.parametrize("case", BAD_INPUTS)
def test_every_bad_input_case_through_rewrite(write_map, tmp_path, case):
    data, message = BAD_INPUTS[case]
    path = write_map(data)
    result = run_cli("rewrite", path, "-o", tmp_path / "out.bsp")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"bspedit: {path}: ") and message in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["map.bsp"]


def test_missing_file_and_usage_errors_exit_2(tmp_path):
    missing = run_cli("info", tmp_path / "nope.bsp")
    assert missing.returncode == 2
    assert missing.stderr == f"bspedit: {tmp_path / 'nope.bsp'}: cannot open: No such file or directory\n"
    assert run_cli("rewrite", tmp_path / "nope.bsp").returncode == 2     # -o is required
    assert run_cli("frobnicate").returncode == 2


def test_command_table_names_every_command_and_its_group():
    """`bspedit COMMAND` registers only COMMAND's verb group: the table must be complete."""
    import argparse
    import importlib

    from bspedit.cli import COMMANDS, SUMMARIES, _command, build_parser

    def commands(parser: argparse.ArgumentParser) -> set[str]:
        action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        return set(action.choices)

    assert commands(build_parser()) == commands(build_parser(complete=True)) == set(COMMANDS) \
        == set(SUMMARIES)
    for command, module in COMMANDS.items():
        assert command in commands(build_parser(command))
        group = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(f"bspedit.cli.{module}").register(group)
        assert command in group.choices
    assert _command(["--max-lump-size", "2G", "--debug", "ent", "set"]) == "ent"
    assert _command(["--version"]) is None
