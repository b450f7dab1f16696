"""Fuzzing support shared by tests/test_fuzz_*.py and bench/fuzz.py: seed maps, hypothesis
strategies that mutate them, and the oracles that decide whether bspedit behaved.

A case is small and printable (a seed name and a list of edits), so a failure reads as a
reproducer: `MapCase(seed, edits).data()` gives the bytes, `bench/fuzz.py` prints them.
"""
from __future__ import annotations

import contextlib
import errno
import json
import resource
import shutil
import signal
import string
import struct
import subprocess
import sys
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import synthetic
from bspedit.bsp import Bsp
from bspedit.format.bspx import bspx_directory
from bspedit.features.checks import problems
from bspedit.cli.container import describe
from bspedit.features.diff import diff_maps
from bspedit.lumps.entities import EntityLump
from bspedit.errors import BspError
from bspedit.lumps.gamelump import read_game_lump, store_game_lump
from bspedit.format.gamelumpdir import game_lump_directory
from bspedit.format.header import read_header
from bspedit.container.layout import compute_layout
from bspedit.limits import caps
from bspedit.format.lzma_lump import compress, decompress, lzma_header
from bspedit.container.mapsums import map_checksums
from bspedit.lumps.pakfile import Pakfile
from bspedit.patching.stripper import apply as stripper_apply, parse_config, plugin_text
from conftest import CONSOLE_MAP, CORPUS, ROOT
from console import to_big_endian

CORPUS_SEED_BYTES = 40_000      # corpus maps up to this size are seeds (fast enough per case)
CASE_SECONDS = 20               # any single case taking longer counts as a hang

# Fuzz tests are reproducible (derandomized, no example database) and count examples, not time.
FUZZ = settings(deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])


class Hang(BaseException):
    """A case ran past its time limit (BaseException so that no `except Exception` eats it)."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise Hang in the main thread if the block runs longer than `seconds`."""
    def expire(signum: int, frame: object) -> None:
        raise Hang(f"still running after {seconds} s")
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# -- seeds ---------------------------------------------------------------------------------------

def _lzma_source() -> bytes:
    """A Source map whose entity lump and one data lump are LZMA lumps (fourCC = real size)."""
    planes = synthetic.records(20, 6)
    lumps = {0: compress(synthetic.ENTITIES), 1: compress(planes), 3: synthetic.records(12, 2)}
    return synthetic.make_map("source", lumps, order=[1, 0, 3],
                              fourccs={0: len(synthetic.ENTITIES), 1: len(planes)})


def _l4d2_source() -> bytes:
    lumps = {0: synthetic.ENTITIES, 1: synthetic.records(20, 2),
             35: synthetic.game_lump([(b"sprp", 0, 7, synthetic.STATIC_PROPS)])}
    return synthetic.make_map("source", lumps, order=[0, 1, 35], version=21, l4d2=True)


@cache
def seeds() -> dict[str, bytes]:
    """Valid maps to mutate: a synthetic map of every family, LZMA and v21 Source maps, the
    shipped tiny.bsp and the small corpus maps when ../shared is present; big-endian (console,
    PSBV) maps: tiny.bsp and the small uncompressed Source corpus maps converted by
    tests/console.py, and the real Xbox 360 map when ../shared/corpus-console is present."""
    found = {f"synthetic/{family}": synthetic.sample(family) for family in synthetic.LUMP_COUNTS}
    found["synthetic/source-lzma"] = _lzma_source()
    found["synthetic/source-l4d2"] = _l4d2_source()
    found["tiny"] = (ROOT / "tests" / "data" / "tiny.bsp").read_bytes()
    found["console/tiny"] = to_big_endian(found["tiny"])
    if CORPUS.is_dir():
        for path in sorted(CORPUS.glob("*/*.bsp")):
            if path.stat().st_size <= CORPUS_SEED_BYTES:
                found[f"corpus/{path.parent.name}/{path.stem}"] = path.read_bytes()
                with contextlib.suppress(ValueError):   # not a v17-v20 uncompressed Source map
                    found[f"console/{path.stem}"] = to_big_endian(path.read_bytes())
    if CONSOLE_MAP.is_file():
        found[f"console/{CONSOLE_MAP.stem}"] = CONSOLE_MAP.read_bytes()
    return found


def console_seeds() -> frozenset[str]:
    """The big-endian seeds."""
    return frozenset(name for name in seeds() if name.startswith("console/"))


@dataclass(frozen=True, slots=True)
class SeedFacts:
    """Where a seed keeps the things worth mutating."""

    fields: dict[str, tuple[int, ...]]  # group -> offsets of its 32-bit fields
    values: tuple[int, ...]             # sizes and offsets of this map: the interesting values
    boundaries: tuple[int, ...]         # every offset where a structure starts or ends
    big_endian: frozenset[str]          # groups whose fields are big-endian (console maps)


@cache
def facts(name: str) -> SeedFacts:
    """The mutable fields of a seed, by group: header (ident, version, revision), directory,
    lzma (Valve LZMA headers), game-lump (its directory), bspx (the trailer's directory),
    pakfile (the zip end record), lump-start (the first 32 bytes of every lump). On a console
    map the header, directory and game lump directory are big-endian (LZMA headers and the zip
    stay little-endian)."""
    data = seeds()[name]
    header = read_header(data)
    family = header.family
    fields: dict[str, list[int]] = {"header": [0, 4, header.size - 4]}
    if family.header == "vbsp":
        fields["directory"] = [8 + 16 * lump.index + 4 * n for lump in header.lumps
                               for n in range(4)]
    else:
        base = len(family.ident) + 4 * family.has_version
        fields["directory"] = [base + 8 * lump.index + n for lump in header.lumps for n in (0, 4)]
    values = {0, 1, 2, 3, 4, 16, 17, len(data), len(data) - 1, len(data) + 1, len(data) - 4,
              header.size, header.size - 1, header.size + 4, 2**31 - 1, -2**31, -1, 1 << 30}
    bounds = set(range(9)) | {header.size - 1, header.size, header.size + 1, len(data) - 1}
    for lump in header.lumps:
        values |= {lump.offset, lump.end, lump.length}
        if not lump.length:
            continue
        bounds |= {lump.offset - 1, lump.offset, lump.offset + 1, lump.end - 1, lump.end,
                   lump.end + 1}
        body = data[lump.offset:lump.end]
        fields.setdefault("lump-start", []).extend(
            range(lump.offset, min(lump.end, lump.offset + 32) - 3, 4))
        if lzma_header(body):
            fields.setdefault("lzma", []).extend(lump.offset + n for n in (4, 8, 12, 13))
            bounds |= {lump.offset + 16, lump.offset + 17}
        if family.game_lump and lump.index == family.index_of(family.game_lump):
            count = len(game_lump_directory(body, header.endian).entries)
            entries = [lump.offset + 4 + 16 * n for n in range(count)]
            fields["game-lump"] = [lump.offset] + [at + n for at in entries for n in (0, 4, 8, 12)]
            bounds |= set(entries) | {lump.offset + 4 + 16 * count}
            values |= {lump.offset + 4 + 16 * count}
        if family.pakfile and lump.index == family.index_of(family.pakfile):
            end = data.rfind(b"PK\x05\x06", lump.offset, lump.end)
            if end >= 0:
                fields["pakfile"] = [end + n for n in (8, 10, 12, 16)]
    tail = compute_layout(header, len(data)).tail
    trailer = bspx_directory(data[tail.start:tail.end]) if tail else None
    if trailer is not None:
        fields["bspx"] = [tail.start + 4] + [tail.start + 8 + 32 * n + m
                                             for n in range(len(trailer.lumps)) for m in (24, 28)]
        values |= {tail.start, tail.end}
    big_endian = frozenset({"header", "directory", "game-lump"} if header.big_endian else ())
    return SeedFacts({group: tuple(at) for group, at in fields.items()}, tuple(sorted(values)),
                     tuple(sorted(b for b in bounds if 0 <= b < len(data))), big_endian)


# -- mutations -----------------------------------------------------------------------------------

def apply(data: bytes, edits: tuple) -> bytes:
    """Apply edits: ("int", at, value) writes a 32-bit little-endian value, ("int>", at, value)
    a big-endian one, ("short", at, value) a 16-bit little-endian one, ("byte", at, value),
    ("cut", at) truncates, ("append", blob), ("move", src, dst, n) copies n bytes."""
    out = bytearray(data)
    for edit in edits:
        kind = edit[0]
        if kind in ("int", "int>") and edit[1] + 4 <= len(out):
            struct.pack_into(">I" if kind == "int>" else "<I", out, edit[1], edit[2] & 0xFFFFFFFF)
        elif kind == "byte" and edit[1] < len(out):
            out[edit[1]] = edit[2]
        elif kind == "cut":
            del out[edit[1]:]
        elif kind == "short" and edit[1] + 2 <= len(out):
            struct.pack_into("<H", out, edit[1], edit[2] & 0xFFFF)
        elif kind == "append":
            out += edit[1]
        elif kind == "move":
            _, src, dst, n = edit
            out[dst:dst + n] = out[src:src + n]
    return bytes(out)


@dataclass(frozen=True, slots=True)
class MapCase:
    """A seed map and the edits that mutate it."""

    seed: str
    edits: tuple

    def data(self) -> bytes:
        return apply(seeds()[self.seed], self.edits)


def _value(seed: str) -> st.SearchStrategy[int]:
    """Values worth writing into a field: this map's sizes and offsets, or any 32-bit value."""
    return st.one_of(st.sampled_from(facts(seed).values), st.integers(-2**31, 2**32 - 1))


def _ints(seed: str, group: str) -> st.SearchStrategy[tuple]:
    """A 32-bit value written into a field of `group`, in the byte order of that field."""
    info = facts(seed)
    return st.tuples(st.just("int>" if group in info.big_endian else "int"),
                     st.sampled_from(info.fields[group]), _value(seed))


def _edit(seed: str, groups: frozenset[str] | None) -> st.SearchStrategy[tuple]:
    info, size = facts(seed), len(seeds()[seed])
    chosen = sorted(g for g in info.fields if groups is None or g in groups)
    fields = st.sampled_from(chosen).flatmap(lambda group: st.sampled_from(info.fields[group]))
    ints = st.sampled_from(chosen).flatmap(lambda group: _ints(seed, group))
    if groups is not None:
        return ints
    return st.one_of(
        ints,
        st.tuples(st.just("byte"), st.integers(0, read_header(seeds()[seed]).size + 64),
                  st.integers(0, 255)),
        st.tuples(st.just("byte"), st.integers(0, size - 1), st.integers(0, 255)),
        st.tuples(st.just("cut"), st.sampled_from(info.boundaries)),
        st.tuples(st.just("append"), st.binary(max_size=40)),
        st.tuples(st.just("move"), fields, fields, st.sampled_from([4, 8, 16])),
    )


@st.composite
def map_cases(draw: st.DrawFn, groups: frozenset[str] | None = None,
              max_edits: int = 4, among: frozenset[str] | None = None) -> MapCase:
    """A seed map with 1..max_edits mutations; `groups` limits them to 32-bit values written
    into those field groups (see `facts`), and the seeds to maps that have them; `among`
    limits the seeds to those names (such as `console_seeds()`)."""
    names = [n for n in sorted(seeds()) if (groups is None or groups & facts(n).fields.keys())
             and (among is None or n in among)]
    seed = draw(st.sampled_from(names))
    return MapCase(seed, tuple(draw(st.lists(_edit(seed, groups), min_size=1,
                                             max_size=max_edits))))


def truncations() -> list[MapCase]:
    """Every seed cut at every structural boundary (header, each lump's start and end, LZMA
    headers, game lump directory entries)."""
    return [MapCase(name, (("cut", at),)) for name in sorted(seeds())
            for at in facts(name).boundaries]


# -- oracles -------------------------------------------------------------------------------------

def lump_bytes(data: bytes, bsp: Bsp) -> dict[int, bytes]:
    """Every lump of an open map, sliced out of `data` by its directory."""
    return {l.index: data[l.offset:l.end] if l.length > 0 else b"" for l in bsp.lumps}


def check_map(path: Path, work: Path) -> str:
    """Run everything that reads or saves a map on the file at `path`; `work` is a scratch folder.

    Returns "refused" (BspError on open) or "opened". Anything but BspError propagates, and an
    AssertionError says a result was wrong.
    """
    original = path.read_bytes()
    with time_limit(CASE_SECONDS):
        try:
            bsp = Bsp.open(path)
        except BspError:
            _check_refused(path)
            return "refused"
        with bsp:
            _check_opened(bsp, original, work)
        assert path.read_bytes() == original, "the input map changed"
    return "opened"


def _check_refused(path: Path) -> None:
    """A map that does not open: `verify` (open unchecked, list problems) must name a problem."""
    try:
        loose = Bsp.open(path, check=False)
    except BspError:
        return          # the header itself is unreadable
    with loose:
        assert problems(loose), "Bsp.open refused the map but verify finds no problem"


def _check_opened(bsp: Bsp, original: bytes, work: Path) -> None:
    stored = lump_bytes(original, bsp)
    for index, data in stored.items():
        assert bsp.read_lump(index) == data
    for reader in (problems, map_checksums, describe, Bsp.entities):
        try:
            reader(bsp)
        except BspError:
            pass
    for layout in ("stable", "compact"):
        out = work / f"{layout}.bsp"
        try:
            bsp.save(out, layout)
        except BspError:
            assert layout != "stable", "an unedited stable save must not fail"
            continue
        written = out.read_bytes()
        if layout == "stable":
            assert written == original, "an unedited stable save changed the bytes"
        with Bsp.open(out) as saved:
            again = lump_bytes(written, saved)
            game = bsp.family.index_of(bsp.family.game_lump) if bsp.family.game_lump else None
            for index, data in stored.items():
                if index == game:
                    assert len(again[index]) == len(data)
                else:
                    assert again[index] == data, f"lump {index} differs after a {layout} save"
    _check_entity_edit(bsp, original, work)
    _check_game_lump(bsp, work)


def _check_game_lump(bsp: Bsp, work: Path) -> None:
    """The game lump model writes back the lump's bytes, static props theirs; dropping members
    (what `lump strip --preset no-hdr` does) saves a map whose game lump lacks them."""
    index = bsp.family.index_of(bsp.family.game_lump) if bsp.family.game_lump else None
    if index is None or not bsp.lumps[index].length:
        return
    try:
        lump = read_game_lump(bsp)
    except BspError:
        return
    assert lump.to_bytes(bsp.lumps[index].offset) == bsp.read_lump(index), \
        "the game lump model does not write back the lump's bytes"
    try:
        props = bsp.static_props
        assert props.to_bytes() == lump.payload("sprp")
    except BspError:
        pass
    if not lump.remove({"dplh", "sprp"}):
        return
    store_game_lump(bsp, lump)
    bsp.save(work / "members.bsp")
    with Bsp.open(work / "members.bsp") as saved:
        ids = {m.name for m in read_game_lump(saved).members}
        assert not ids & {"dplh", "sprp"}


def _check_entity_edit(bsp: Bsp, original: bytes, work: Path) -> None:
    """Edit the entity text (growing it) and save with -o and in place: only that lump changes."""
    try:
        lump = bsp.entities()
    except BspError:
        return
    lump.add_entity({"classname": "info_target", "targetname": "fuzz" * 8})
    expected = lump.to_bytes()
    copy = work / "in-place.bsp"
    copy.write_bytes(original)
    out = work / "edited.bsp"
    try:
        bsp.save(out, "stable")
    except BspError:
        return
    with Bsp.open(copy) as target:
        target.entities().add_entity({"classname": "info_target", "targetname": "fuzz" * 8})
        target.save_in_place()
    stored = lump_bytes(original, bsp)
    for saved_path in (out, copy):
        written = saved_path.read_bytes()
        with Bsp.open(saved_path) as saved:
            assert saved.entities().to_bytes() == expected
            again = lump_bytes(written, saved)
            for index, data in stored.items():
                if index != bsp.family.entities:
                    assert again[index] == data, f"lump {index} changed by an entity edit"


# -- entity text ---------------------------------------------------------------------------------

_PIECES = (b"{", b"}", b'"', b'"classname"', b'"worldspawn"', b'"origin" "0 0 0"', b'""', b" ",
           b"\n", b"\r\n", b"\t", b"// comment\n", b"//", b"\0", b"\x1b", b"\xc3\xa9", b"\xff",
           b"x", b'{\n"classname" "light"\n}\n')
_KEYS = st.text(st.characters(exclude_characters='"\0', exclude_categories=("Cs",)), max_size=8)


def entity_texts() -> st.SearchStrategy[bytes]:
    """Entity-lump-like bytes: well-formed lumps, token soup, and raw bytes."""
    def lump(entities: list[list[tuple[str, str]]]) -> bytes:
        text = "".join("{\n" + "".join(f'"{k}" "{v}"\n' for k, v in pairs) + "}\n"
                       for pairs in entities)
        return text.encode("utf-8") + b"\0"
    well_formed = st.lists(st.lists(st.tuples(_KEYS, _KEYS), max_size=4), max_size=5).map(lump)
    soup = st.lists(st.one_of(st.sampled_from(_PIECES), st.binary(max_size=3)), max_size=40)
    return st.one_of(well_formed, soup.map(b"".join), st.binary(max_size=200))


_ENTITY_EDITS = st.lists(st.one_of(
    st.tuples(st.sampled_from(["set", "add"]), st.integers(0, 5), _KEYS, _KEYS),
    st.tuples(st.sampled_from(["delete", "rename"]), st.integers(0, 5), _KEYS, _KEYS),
    st.tuples(st.just("remove"), st.integers(0, 5)),
    st.tuples(st.just("add-entity"), st.lists(st.tuples(_KEYS, _KEYS), max_size=3)),
), max_size=6)


def entity_edits() -> st.SearchStrategy[list[tuple]]:
    """Edits to apply to a parsed lump: ("set"|"add"|"delete"|"rename", entity, key, value),
    ("remove", entity), ("add-entity", pairs)."""
    return _ENTITY_EDITS


def _fold(text: str) -> str:
    return text.translate(str.maketrans(string.ascii_uppercase, string.ascii_lowercase))


def _model_edit(model: list[list[tuple[str, str]]], edit: tuple) -> None:
    """Apply an edit to a plain list-of-pairs model of the lump (the specification)."""
    kind = edit[0]
    if kind == "add-entity":
        model.append(list(edit[1]))
        return
    if not model:
        return
    at = edit[1] % len(model)
    pairs = model[at]
    if kind == "remove":
        del model[at]
    elif kind == "add":
        pairs.append((edit[2], edit[3]))
    elif kind == "set":
        hit = next((i for i, (k, _) in enumerate(pairs) if _fold(k) == _fold(edit[2])), None)
        if hit is None:
            pairs.append((edit[2], edit[3]))
        else:
            pairs[hit] = (pairs[hit][0], edit[3])
    elif kind == "delete":
        pairs[:] = [(k, v) for k, v in pairs if _fold(k) != _fold(edit[2])]
    else:
        pairs[:] = [(edit[3] if _fold(k) == _fold(edit[2]) else k, v) for k, v in pairs]


def _lump_edit(lump: EntityLump, edit: tuple) -> None:
    entities = list(lump)
    kind = edit[0]
    if kind == "add-entity":
        lump.add_entity(edit[1])
        return
    if not entities:
        return
    entity = entities[edit[1] % len(entities)]
    if kind == "remove":
        lump.remove(entity)
    elif kind == "add":
        entity.add(edit[2], edit[3])
    elif kind == "set":
        entity.set(edit[2], edit[3])
    elif kind == "delete":
        entity.delete(edit[2])
    else:
        entity.rename(edit[2], edit[3])


def check_entity_text(data: bytes, edits: list[tuple] = ()) -> str:
    """Parse strictly and leniently; both give back `data` unedited. A strict parse then takes
    the edits, and its new text parses to exactly what a list-of-pairs model says."""
    with time_limit(CASE_SECONDS):
        loose = EntityLump.parse(data, lenient=True)
        assert loose.to_bytes() == data
        try:
            lump = EntityLump.parse(data)
        except BspError:
            assert loose.kept, "strict parse failed but the lenient one found no problem"
            return "refused"
        assert not loose.kept
        assert lump.to_bytes() == data
        model = [entity.pairs() for entity in lump]
        for edit in edits:
            _model_edit(model, edit)
            _lump_edit(lump, edit)
        again = EntityLump.parse(lump.to_bytes())
        assert [entity.pairs() for entity in again] == model
    return "parsed"


# -- LZMA lumps ----------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class LzmaCase:
    """A payload compressed the Valve way, then edited (sizes, properties, stream bytes)."""

    payload: bytes
    edits: tuple

    def data(self) -> bytes:
        return apply(_compressed(self.payload), self.edits)


@lru_cache(maxsize=256)
def _compressed(payload: bytes) -> bytes:
    return compress(payload)


_DICTIONARIES = (0, 1, 4095, 4096, 1 << 16, 1 << 24, 1 << 30, 2**31 - 1, 2**32 - 1)


@st.composite
def lzma_cases(draw: st.DrawFn) -> LzmaCase:
    payload = draw(st.one_of(st.binary(max_size=300),
                             st.sampled_from([synthetic.ENTITIES, bytes(5000), b"ab" * 3000])))
    size = len(_compressed(payload))
    sizes = st.one_of(st.sampled_from([0, 1, len(payload) - 1, len(payload) + 1, size, 2**31 - 1,
                                       2**32 - 1, 1 << 30]), st.integers(0, 2**32 - 1))
    edit = st.one_of(
        st.tuples(st.just("int"), st.sampled_from([4, 8]), sizes),
        st.tuples(st.just("byte"), st.just(12), st.integers(0, 255)),
        st.tuples(st.just("int"), st.just(13), st.one_of(st.sampled_from(_DICTIONARIES),
                                                         st.integers(0, 2**32 - 1))),
        st.tuples(st.just("byte"), st.integers(0, size - 1), st.integers(0, 255)),
        st.tuples(st.just("cut"), st.integers(0, size)),
        st.tuples(st.just("append"), st.binary(max_size=16)),
    )
    return LzmaCase(payload, tuple(draw(st.lists(edit, max_size=3))))


def check_lzma(case: LzmaCase) -> str:
    """decompress gives exactly the size the header claims (the payload when the stream is
    intact and the header true) or raises BspError."""
    data = case.data()
    with time_limit(CASE_SECONDS):
        try:
            out = decompress(data)
        except BspError:
            return "refused"
    header = lzma_header(data)
    assert len(out) == header.actual_size
    intact = _compressed(case.payload)
    if data[:8] == intact[:8] and data[12:len(intact)] == intact[12:]:
        assert out == case.payload      # only the packed size lies (or junk follows the stream)
    return "decoded"


# -- the command line ----------------------------------------------------------------------------

CLI_MEMORY = 1 << 30           # address-space cap of a CLI child process
CLI_SECONDS = 120
_CLI_CHILD = r"""
import contextlib, io, json, sys, traceback
from bspedit.cli import main
results = []
for argv in json.load(sys.stdin):
    # stdout as on a UTF-8 desktop locale: strict, so unencodable text fails as it would there
    out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    except SystemExit as exc:
        code = exc.code
    except BaseException:
        code = "crash"
        err.write(traceback.format_exc())
    results.append([argv, code, err.getvalue()])
print(json.dumps(results))
"""


def cli_commands(path: Path, work: Path) -> list[list[str]]:
    """Every verb group on one map: read-only verbs, every kind of save, and in-place edits of
    copies. Extraction runs with small caps (--max-extract-size) so bombs are refused."""
    m, w = str(path), str(work)
    copies = []
    for name in ("in-place.bsp", "pak-in-place.bsp"):
        (work / name).write_bytes(path.read_bytes())
        copies.append(str(work / name))
    (work / "fuzz.cfg").write_bytes(b'modify:\n{\n match:\n {\n "classname" "worldspawn"\n }\n'
                                    b' insert:\n {\n "fuzz" "1"\n }\n}\n')
    (work / "added.txt").write_bytes(b"added by the fuzzer\n")
    return [["info", m], ["info", m, "--json"], ["verify", m], ["lump", "list", m],
            ["checksum", m, "--json"], ["ent", "export", m, "-o", f"{w}/x.ent"],
            ["ent", "query", m, "--where", "classname=worldspawn"],
            ["lump", "extract", m, "0", "-o", f"{w}/x.lmp"],
            ["lump", "export", m, "0", "-o", f"{w}/y.lmp"],
            ["rewrite", m, "-o", f"{w}/r.bsp"],
            ["rewrite", m, "-o", f"{w}/c.bsp", "--layout", "compact"],
            ["ent", "set", m, "--where", "classname=worldspawn", "fuzz=1", "-o", f"{w}/e.bsp"],
            ["ent", "add", m, "classname=info_target", "-o", f"{w}/a.bsp", "--layout", "compact"],
            ["lump", "strip", m, "--preset", "no-hdr", "-o", f"{w}/s.bsp"],
            ["lump", "merge", m, f"{w}/y.lmp", "-o", f"{w}/g.bsp"],
            ["diff", m, f"{w}/e.bsp"],
            ["props", "list", m], ["gamelump", "list", m, "--json"],
            ["pak", "list", m],
            ["--max-extract-size", "256K", "pak", "extract", m, f"{w}/pak"],
            ["pak", "add", m, f"{w}/added.txt", "--as", "fuzz/added.txt", "--update",
             "-o", f"{w}/p.bsp"],
            ["patch", m, f"{w}/fuzz.cfg", "-o", f"{w}/t.bsp"],
            ["compress", m, "-o", f"{w}/z.bsp"], ["decompress", m, "-o", f"{w}/d.bsp"],
            ["render", m, "-o", f"{w}/top.png", "--size", "64"],
            ["render", m, "-o", f"{w}/top.svg", "--color", "lightmap", "--size", "64"],
            ["render", m, "--minimap", "-o", f"{w}/mini.tga", "--size", "32"],
            ["lightmaps", m, "-o", f"{w}/light"],
            ["ent", "set", copies[0], "--where", "classname=worldspawn", "fuzz=1", "--in-place"],
            ["pak", "add", copies[1], f"{w}/added.txt", "--as", "fuzz/added.txt", "--update",
             "--in-place"]]


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CLI_MEMORY, CLI_MEMORY))


def run_cli_batch(commands: list[list[str]]) -> list[tuple[list[str], object, str]]:
    """Run bspedit's main() on each argv in one child process with a memory cap and a time
    limit; return (argv, exit status or "crash", stderr) for each."""
    child = subprocess.run([sys.executable, "-c", _CLI_CHILD], input=json.dumps(commands),
                           capture_output=True, text=True, timeout=CLI_SECONDS,
                           preexec_fn=_cap_memory)
    assert child.returncode == 0, f"CLI child died ({child.returncode}): {child.stderr[-2000:]}"
    return [tuple(row) for row in json.loads(child.stdout)]


def check_cli(path: Path, work: Path) -> list[object]:
    """Every command exits 0, 1 or 2; status 2 is exactly one `bspedit: ...` line on stderr;
    no command prints a traceback. Returns the exit statuses."""
    codes = []
    for argv, code, err in run_cli_batch(cli_commands(path, work)):
        assert code in (0, 1, 2), f"{argv}: exit {code}\n{err}"
        assert "Traceback" not in err, f"{argv}: {err}"
        if code == 2:
            assert err.count("\n") == 1 and err.startswith("bspedit: "), f"{argv}: {err!r}"
        codes.append(code)
    return codes


# -- pictures: render and lightmaps on real maps with one lump damaged ----------------------------

#: how a lump is damaged: every 5th or 7th of its bytes inverted or zeroed, or the file cut
#: halfway through it (the damage issue 41 found render's internal errors with)
DAMAGES = ("invert5", "invert7", "zero5", "zero7", "cut")
_INVERT = bytes(range(255, -1, -1))


@dataclass(frozen=True, slots=True)
class LumpDamage:
    """A corpus map (`name`: its path under the corpus) with lump `lump` damaged `how`."""

    name: str
    lump: int
    how: str

    def data(self) -> bytes:
        data = bytearray((CORPUS / self.name).read_bytes())
        lump = read_header(bytes(data)).lumps[self.lump]
        if self.how == "cut":
            return bytes(data[:lump.offset + lump.length // 2])
        step = int(self.how[-1])
        part = data[lump.offset:lump.end:step]
        data[lump.offset:lump.end:step] = bytes(len(part)) if self.how.startswith("zero") \
            else part.translate(_INVERT)
        return bytes(data)


def lump_damages(name: str) -> list[LumpDamage]:
    """Every non-empty lump of the corpus map `name`, damaged in each way of DAMAGES."""
    lumps = read_header((CORPUS / name).read_bytes()).lumps
    return [LumpDamage(name, lump.index, how) for lump in lumps if lump.length > 0
            for how in DAMAGES]


def picture_commands(path: Path, out: Path) -> list[list[str]]:
    """render in every colour mode as PNG and SVG, its minimap and a CS:GO radar (with its
    levels), and lightmaps, of the map at `path`, writing into the folder `out`."""
    m, o = str(path), str(out)
    small = ["--size", "256"]
    return [["render", m, "-o", f"{o}/height.png", *small],
            ["render", m, "-o", f"{o}/texture.png", "--color", "texture", *small],
            ["render", m, "-o", f"{o}/light.png", "--color", "lightmap", *small],
            ["render", m, "-o", f"{o}/height.svg", *small],
            ["render", m, "-o", f"{o}/texture.svg", "--color", "texture", *small],
            ["render", m, "-o", f"{o}/light.svg", "--color", "lightmap", *small],
            ["render", m, "--minimap", "-o", f"{o}/minimap.tga", "--size", "128"],
            ["render", m, "--radar", "csgo", "-o", f"{o}/radar"],
            ["lightmaps", m, "-o", f"{o}/lightmaps"]]


def check_pictures(paths: list[Path], work: Path,
                   pick: list[int] | None = None) -> list[list[object]]:
    """`picture_commands` on each map of `paths` (only the `pick[n]`th on map n when given),
    all in one child process: each command exits 0, 1 or 2 (never 3, no traceback), anything
    but 0 in one `bspedit: ...` line with nothing written, 0 with its output written. Returns
    the exit statuses, a list per map."""
    out = work / "pictures"
    shutil.rmtree(out, ignore_errors=True)
    batches = [picture_commands(path, out / str(n)) for n, path in enumerate(paths)]
    if pick is not None:
        batches = [[batch[i % len(batch)]] for batch, i in zip(batches, pick, strict=True)]
    for n in range(len(paths)):
        (out / str(n)).mkdir(parents=True)
    rows = iter(run_cli_batch([argv for batch in batches for argv in batch]))
    codes: list[list[object]] = []
    for batch in batches:
        codes.append([])
        for argv, code, err in (next(rows) for _ in batch):
            target = argv[argv.index("-o") + 1]
            assert code in (0, 1, 2), f"{argv}: exit {code}\n{err}"
            assert "Traceback" not in err, f"{argv}: {err}"
            if code == 0:
                assert Path(target).exists(), f"{argv}: exit 0 but nothing written"
                assert all(line.startswith("bspedit: warning: ") for line in err.splitlines()), \
                    f"{argv}: {err!r}"          # no Python warning (numpy's overflow, say)
            else:
                assert err.count("\n") == 1 and err.startswith("bspedit: "), f"{argv}: {err!r}"
                assert not Path(target).exists(), f"{argv}: exit {code} but {target} written"
            codes[-1].append(code)
    return codes


def run_picture_cases(cases: list[LumpDamage], work: Path, *,
                      rotate: bool = False) -> list[str]:
    """Check the pictures of damaged maps, one child process for them all; per case its
    outcome: "refused" (some command exited 2), "nothing drawn" (some 1), else "drawn".
    `rotate` runs one command per case, not all nine: the next one for each damage of a lump,
    starting where the map and lump put it: a lump's damages meet five different commands, and
    across the corpus 115 of the 123 kinds of lump (a family's lump index) meet all nine."""
    pick = [zlib.crc32(case.name.encode()) + case.lump + DAMAGES.index(case.how)
            for case in cases] if rotate else None
    paths = []
    for n, case in enumerate(cases):
        paths.append(work / f"map{n}.bsp")
        paths[-1].write_bytes(case.data())
    outcomes = ["refused" if 2 in codes else "nothing drawn" if 1 in codes else "drawn"
                for codes in check_pictures(paths, work, pick)]
    for path in paths:
        path.unlink()
    return outcomes


def run_picture_case(case: LumpDamage, work: Path) -> str:
    return run_picture_cases([case], work)[0]


def picture_cases() -> list[LumpDamage]:
    """Every damage of every lump of every corpus map (none without the corpus)."""
    return [case for path in sorted(CORPUS.glob("*/*.bsp"))
            for case in lump_damages(f"{path.parent.name}/{path.name}")]


# -- targets: a strategy and the check that runs one of its cases --------------------------------

def run_map_case(case: MapCase, work: Path) -> str:
    path = work / "map.bsp"
    path.write_bytes(case.data())
    return check_map(path, work)


def run_cli_case(case: MapCase | PakCase, work: Path) -> str:
    path = work / "map.bsp"
    path.write_bytes(case.data())
    return "some refused" if 2 in check_cli(path, work) else "all ran"


@cache
def targets() -> dict[str, tuple[st.SearchStrategy, Callable[[object, Path], str]]]:
    """What bench/fuzz.py runs, by name (the tests run the same strategies and checks)."""
    return {
        "maps": (map_cases(), run_map_case),
        "console-maps": (map_cases(among=console_seeds()), run_map_case),
        "truncations": (st.sampled_from(truncations()), run_map_case),
        "game-lump": (map_cases(frozenset({"game-lump"})), run_map_case),
        "lzma-lumps": (map_cases(frozenset({"lzma"})), run_map_case),
        "bspx": (map_cases(frozenset({"bspx"})), run_map_case),
        "entities": (st.tuples(entity_texts(), entity_edits()),
                     lambda case, work: check_entity_text(*case)),
        "lzma": (lzma_cases(), lambda case, work: check_lzma(case)),
        "pak": (pak_cases(), check_pak),
        "stripper": (stripper_configs(), lambda case, work: check_stripper(case)),
        "cli": (st.one_of(map_cases(), pak_cases()), run_cli_case),
        **({"pictures": (st.sampled_from(cases), run_picture_case)}
           if (cases := picture_cases()) else {}),
    }


# -- pakfiles ------------------------------------------------------------------------------------

ZIP_SLIP = (b"../evil.txt", b"../../etc/passwd", b"/abs/path.vmt", b"C:\\windows\\x.vmt",
            b"a/../../b.txt", b"a\\..\\..\\b.txt", b"nul\0byte.txt", b"", b"dir/", b"./x.txt",
            b"a//b.txt", b"materials/\xff\xfe.vmt", b"MATERIALS/Upper.VMT", b"materials/upper.vmt",
            b"x" * 300)
EXTRACT_CAPS = {"extract_entry": 256 << 10, "extract_total": 512 << 10}   # bombs go over these


@dataclass(frozen=True, slots=True)
class PakCase:
    """A zip of `members` (raw name, content, method 0/8/14, general flags) with `edits` applied
    to its bytes, as the PAKFILE lump (stored last) of a Source map. A content given as an int
    n stands for n zero bytes (a bomb once compressed)."""

    members: tuple[tuple[bytes, bytes | int, int, int], ...]
    edits: tuple

    def zip(self) -> bytes:
        return apply(build_zip(self.members)[0], self.edits)

    def data(self) -> bytes:
        lumps = {0: synthetic.ENTITIES, 1: synthetic.records(20, 2), 40: self.zip()}
        return synthetic.make_map("source", lumps, order=[1, 0, 40])


def _stored_form(content: bytes, method: int) -> bytes:
    if method == 8:
        packer = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
        return packer.compress(content) + packer.flush()
    if method == 14:
        lump = _compressed(content)
        return bytes([9, 38, 5, 0]) + lump[12:]
    return content


@lru_cache(maxsize=64)
def build_zip(members: tuple[tuple[bytes, bytes, int, int], ...]) -> tuple[bytes, dict]:
    """A plain zip of `members` and the offsets of its fields by size: {2: [...], 4: [...]}."""
    out, central = bytearray(), bytearray()
    fields: dict[int, list[int]] = {2: [], 4: []}
    local_at = []
    for name, content, method, flags in members:
        content = bytes(content) if isinstance(content, int) else content
        stored = _stored_form(content, method)
        crc = zlib.crc32(content)
        local_at.append(len(out))
        fields[2] += [len(out) + n for n in (6, 8, 26, 28)]
        fields[4] += [len(out) + n for n in (14, 18, 22)]
        out += struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 20, flags, method, 0, 0, crc,
                           len(stored), len(content), len(name), 0) + name + stored
        central += struct.pack("<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", 20, 20, flags, method, 0, 0,
                               crc, len(stored), len(content), len(name), 0, 0, 0, 0, 0,
                               local_at[-1]) + name
    cd_offset = len(out)
    position = cd_offset
    for (name, *_), at in zip(members, local_at):
        fields[2] += [position + n for n in (8, 10, 28, 30, 32)]
        fields[4] += [position + n for n in (16, 20, 24, 42)]
        position += 46 + len(name)
    out += central
    fields[2] += [len(out) + n for n in (8, 10, 20)]
    fields[4] += [len(out) + n for n in (12, 16)]
    out += struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, len(members), len(members),
                       len(central), cd_offset, 32) + b"XZP1 0".ljust(32, b"\0")
    return bytes(out), fields


_CONTENTS = st.one_of(st.binary(max_size=64), st.sampled_from([1 << 20, 300_000]))
_MEMBERS = st.lists(st.tuples(st.one_of(st.sampled_from(ZIP_SLIP),
                                        st.text("abc/._", min_size=1, max_size=12).map(str.encode)),
                              _CONTENTS, st.sampled_from([0, 8, 14]),
                              st.sampled_from([0, 0, 0x800, 0x8, 0x1])),
                    max_size=4).map(tuple)


@st.composite
def pak_cases(draw: st.DrawFn) -> PakCase:
    """Zips with zip-slip names, bombs (1 MiB of zeros in a few bytes), and edits: CRCs, sizes,
    offsets and counts that lie, overlapping entries (two records naming one local header)."""
    members = draw(_MEMBERS)
    blob, fields = build_zip(members)
    values = st.one_of(st.sampled_from([0, 1, 2, 30, 46, len(blob), len(blob) - 22, 0xFFFF,
                                        0xFFFFFFFF, 1 << 20, 1 << 31]),
                       st.integers(0, 2**32 - 1))
    edits = []
    if fields[2]:
        edits.append(st.tuples(st.just("short"), st.sampled_from(fields[2]), values))
    edits += [st.tuples(st.just("int"), st.sampled_from(fields[4]), values),
              st.tuples(st.just("byte"), st.integers(0, max(len(blob) - 1, 0)),
                        st.integers(0, 255)),
              st.tuples(st.just("cut"), st.integers(0, len(blob))),
              st.tuples(st.just("append"), st.binary(max_size=30))]
    return PakCase(members, tuple(draw(st.lists(st.one_of(edits), max_size=3))))


def check_pak(case: PakCase, work: Path) -> str:
    """A crafted pakfile: its entries read (CRC-checked) or BspError; extraction writes only
    inside its folder and within the caps, or refuses before writing; adding a file and saving
    (-o and in place) keeps every other entry readable as it was."""
    path = work / "map.bsp"
    path.write_bytes(case.data())
    with time_limit(CASE_SECONDS), caps(**EXTRACT_CAPS), Bsp.open(path) as bsp:
        try:
            pak = Pakfile.of(bsp)
        except BspError:
            return "refused"
        contents = {}       # position in the central directory -> content
        for position, entry in enumerate(pak.entries):
            try:
                data = pak.read(entry)
            except BspError:
                continue
            assert len(data) == entry.size and zlib.crc32(data) == entry.crc
            contents[position] = data
        _check_extract(pak, work)
        try:
            pak.add("fuzz/added.txt", b"added by the fuzzer", update=True)
        except BspError:
            return "read"
        pak.apply(bsp)
        bsp.save(work / "added.bsp")
        with Bsp.open(work / "added.bsp") as saved:
            diff_maps(bsp, saved)
            _check_pak_after_add(Pakfile.of(saved), contents)
    with Bsp.open(path) as bsp:
        pak = Pakfile.of(bsp)
        pak.add("fuzz/added.txt", b"added by the fuzzer", update=True)
        pak.apply(bsp, in_place=True)
        bsp.save_in_place()
        _check_pak_after_add(Pakfile.of(bsp), contents)
    return "edited"


def _check_extract(pak: Pakfile, work: Path) -> None:
    root = work / "extract"
    shutil.rmtree(root, ignore_errors=True)
    inside = root / "inside"
    inside.mkdir(parents=True)
    written = None     # entries written before a bad one (CRC, encrypted) stay: each is whole
    try:
        written = pak.extract(pak.entries, inside)
    except BspError:
        pass
    except OSError as exc:        # the file system refused a name (too long, say)
        assert exc.errno == errno.ENAMETOOLONG, exc
    files = [p for p in root.rglob("*") if p.is_file()]
    assert all(inside in p.parents for p in files), f"written outside the folder: {files}"
    total = sum(p.stat().st_size for p in files)
    assert total <= EXTRACT_CAPS["extract_total"]
    if written is not None:
        assert total <= written     # duplicate names overwrite each other


def _check_pak_after_add(pak: Pakfile, contents: dict[int, bytes]) -> None:
    assert pak.read("fuzz/added.txt") == b"added by the fuzzer"
    entries = pak.entries
    for position, data in contents.items():
        entry = entries[position]
        if entry.key != "fuzz/added.txt":
            assert pak.read(entry) == data, f"pak entry {entry.name!r} changed"


# -- Stripper:Source configs ---------------------------------------------------------------------

STRIPPER_LUMP = (b'{\n"classname" "worldspawn"\n"skyname" "sky_day01_01"\n}\n'
                 b'{\n"classname" "light"\n"targetname" "lamp"\n"_light" "255 255 255 200"\n}\n'
                 b'{\n"classname" "logic_relay"\n"targetname" "relay"\n'
                 b'"OnTrigger" "door\x1bOpen\x1b\x1b0\x1b-1"\n"OnTrigger" "door,Close,,5,-1"\n}\n'
                 b'{\n"classname" "func_door"\n"targetname" "aaaaaaaaaaaab"\n"" ""\n}\n\x00')
_REGEX_ATOMS = ("a", "b", ".", "[a-z]", "[^x]", "\\d", "\\w", "(a|b)", "(?:lamp)", "\\x41",
                "\\Q.\\E", "[[:alpha:]]", "(?i)", "^", "$", "\\b", "(", ")", "[", "\\", "\\1",
                "(?<n>a)", "\\k<n>", "(?<=a)", "(*UTF)", "{", "}", "|")
_REGEX = st.lists(st.tuples(st.sampled_from(_REGEX_ATOMS),
                            st.sampled_from(["", "", "*", "+", "?", "{2}", "{1,3}", "*?", "++"])),
                  max_size=5).map(lambda parts: "/" + "".join(a + q for a, q in parts) + "/")
_WORDS = st.sampled_from(["classname", "targetname", "light", "lamp", "relay", "worldspawn",
                          "OnTrigger", "func_door", "origin", "0 0 0", "", "LAMP",
                          "door,Open,,0,-1"])
_STRIPPER_LINES = st.one_of(
    st.sampled_from(["filter:", "remove:", "add:", "modify:", "match:", "replace:", "delete:",
                     "insert:", "filter: {", "modify:junk", "{", "}", "} }", "{ }", "", ";", "//",
                     "# comment", '"classname" "light" // comment']),
    st.tuples(_WORDS, st.one_of(_WORDS, _REGEX)).map(lambda kv: f'"{kv[0]}" "{kv[1]}"'),
    st.tuples(_WORDS, _WORDS).map(lambda kv: f'"{kv[0]}""{kv[1]}"'),
    st.text(max_size=20),
    st.integers(250, 300).map(lambda n: f'"targetname" "{"x" * n}"'),   # past fgets' 253 bytes
)


def stripper_configs() -> st.SearchStrategy[bytes]:
    """Config text: section headers, braces, pairs with plain and regex values (PCRE syntax
    Python lacks, broken patterns), junk, over-long lines, CR LF and latin-1 bytes."""
    return st.tuples(st.lists(_STRIPPER_LINES, max_size=16),
                     st.sampled_from(["\n", "\r\n", "\r"])).map(
        lambda lines: lines[1].join(lines[0]).encode("utf-8", "surrogateescape"))


def check_stripper(config: bytes) -> str:
    """parse_config never raises (it reports diagnostics) and apply edits the lump (PCRE2 runs
    every pattern), whose text then parses to exactly the entities it holds."""
    with time_limit(CASE_SECONDS):
        parsed = parse_config(config, "fuzz.cfg")
        lump = EntityLump.parse(STRIPPER_LUMP)
        stripper_apply(parsed, lump)
        again = EntityLump.parse(lump.to_bytes())
        assert [e.pairs() for e in again] == [e.pairs() for e in lump]
        plugin_text(lump.to_bytes())
    return "applied"
