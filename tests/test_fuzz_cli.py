"""The command line on hostile input, in child processes with an address-space cap: every verb
group exits 0, 1 or 2, status 2 is one `bspedit: ...` line, and nothing prints a traceback."""
from __future__ import annotations

import os
import struct
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fuzzing
import synthetic
from bspedit.bsp import Bsp
from bspedit.format.lzma_lump import compress

pytestmark = pytest.mark.full      # fuzzing and conformance sets: `pytest --full` (CI)

FUZZ = fuzzing.FUZZ


@settings(FUZZ, max_examples=15)
@given(case=st.one_of(fuzzing.map_cases(), fuzzing.pak_cases()))
def test_every_verb_on_fuzzed_maps(case, tmp_path):
    fuzzing.run_cli_case(case, tmp_path)


@settings(FUZZ, max_examples=4)
@given(case=fuzzing.map_cases(among=fuzzing.console_seeds()))
def test_every_verb_on_fuzzed_console_maps(case, tmp_path):
    """Big-endian inputs: mutated console (PSBV) maps through every verb group."""
    fuzzing.run_cli_case(case, tmp_path)


@pytest.mark.parametrize("seed", sorted(fuzzing.console_seeds()))
def test_every_verb_on_console_maps(seed, tmp_path):
    """Unmutated console maps: every verb group runs and the input is kept; none is refused
    but `lump strip --preset no-hdr` on a map whose LDR lighting is empty (the real one)."""
    path = tmp_path / "map.bsp"
    path.write_bytes(fuzzing.seeds()[seed])
    verbs = [argv[:2] for argv in fuzzing.cli_commands(path, tmp_path)]
    with Bsp.open(path) as bsp:
        hdr_only = not bsp.lumps[8].length and bsp.lumps[53].length    # LIGHTING, LIGHTING_HDR
    codes = fuzzing.check_cli(path, tmp_path)
    refused = {verbs.index(["lump", "strip"])} if hdr_only else set()
    assert {i for i, code in enumerate(codes) if code == 2} == refused
    assert path.read_bytes() == fuzzing.seeds()[seed]


def bspedit(*argv: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """`python -m bspedit ARGV` as a user runs it, under the memory cap and a time limit."""
    return subprocess.run([sys.executable, "-m", "bspedit", *argv], capture_output=True,
                          text=True, errors="surrogateescape", timeout=fuzzing.CLI_SECONDS,
                          preexec_fn=fuzzing._cap_memory, env={**os.environ, **(env or {})})


def assert_one_line(child: subprocess.CompletedProcess) -> None:
    assert child.returncode == 2, (child.returncode, child.stderr)
    assert child.stderr.count("\n") == 1 and child.stderr.startswith("bspedit: "), child.stderr


def source_with_entities(entities: bytes) -> bytes:
    return synthetic.make_map("source", {0: entities, 1: synthetic.records(20, 2)}, order=[1, 0])


def lying_lzma(field: int, value: int) -> bytes:
    blob = bytearray(compress(synthetic.ENTITIES))
    struct.pack_into("<I", blob, field, value)
    return bytes(blob)


BROKEN = {
    "empty": b"",
    "seven bytes": b"VBSP\x14\0\0",
    "truncated header": synthetic.sample("source")[:600],
    "lump past the end": synthetic.sample("q2")[:-20],
    "unknown version": b"IBSP" + struct.pack("<i", 99) + bytes(200),
    "console map": b"PSBV" + bytes(2000),
    "negative length": fuzzing.apply(synthetic.sample("q1"), (("int", 8, -5),)),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_maps_give_one_line(tmp_path, name):
    """Maps refused when opened: every command says so in one line, and writes nothing."""
    path = tmp_path / "map.bsp"
    path.write_bytes(BROKEN[name])
    for argv in (["info", str(path)], ["ent", "export", str(path), "-o", str(tmp_path / "x.ent")],
                 ["rewrite", str(path), "-o", str(tmp_path / "out.bsp"), "--layout", "compact"]):
        child = bspedit(*argv)
        assert_one_line(child)
        assert not (tmp_path / "out.bsp").exists()


def test_lzma_dictionary_lie_under_memory_cap(tmp_path):
    """Found by fuzzing: a 4 GiB dictionary size in an LZMA header made liblzma allocate it up
    front, a MemoryError under a memory cap. The stream decodes with a dictionary of its size."""
    path = tmp_path / "map.bsp"
    path.write_bytes(source_with_entities(lying_lzma(13, 2**32 - 1)))
    child = bspedit("ent", "export", str(path), "-o", str(tmp_path / "x.ent"))
    assert "Traceback" not in child.stderr
    assert child.returncode == 0 and (tmp_path / "x.ent").read_bytes() + b"\0" == synthetic.ENTITIES


def test_ent_query_with_invalid_utf8_on_a_strict_stdout(tmp_path):
    """Found by fuzzing: values that are not UTF-8 (latin-1 map text) crashed `ent query` with
    UnicodeEncodeError on a strict UTF-8 stdout (a UTF-8 desktop locale); they print as bytes."""
    path = tmp_path / "map.bsp"
    text = b'{\n"classname" "worldspawn"\n"message" "caf\xe9"\n}\n\0'
    path.write_bytes(source_with_entities(text))
    child = bspedit("ent", "query", str(path), env={"PYTHONIOENCODING": "utf-8:strict"})
    assert child.returncode == 0, child.stderr
    assert '"message" "caf\udce9"' in child.stdout     # the byte 0xE9, as it is in the map
