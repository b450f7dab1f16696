"""Time the entity lump model on ~5 MB of real entity text.

Usage: python bench/entities_bench.py [--mb 5] [--runs 5]
The text repeats the entity lumps of the shared corpus maps (those stored
uncompressed) and ends with a NUL. Prints best-of-N times and MB/s for: the
parse, parse + untouched save, parse + one edit + save, parse + every entity
reprinted from its pairs, the untouched save alone (no parse, no reprint), and
lark's own LALR lexer on the same grammar for comparison.
"""
from __future__ import annotations

import argparse
import importlib.util
import time
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path

from lark import Lark

from bspedit.lumps.entities import EntityLump, _Spans

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def corpus_text(megabytes: float) -> bytes:
    spec = importlib.util.spec_from_file_location("bspref", SHARED / "tools" / "bspref.py")
    bspref = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bspref)
    lumps = [bspref.entity_text(path.read_bytes()) for path in sorted(SHARED.glob("corpus/*/*.bsp"))]
    one = b"".join(lump.split(b"\0")[0] for lump in lumps if not lump.startswith(b"LZMA"))
    return one * int(megabytes * 1e6 / len(one) + 1) + b"\0"


def best(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def parse_edit_save(data: bytes) -> bytes:
    lump = EntityLump.parse(data)
    lump.worldspawn.set("skyname", "sky_night")
    return lump.to_bytes()


def parse_reprint_all(data: bytes) -> bytes:
    lump = EntityLump.parse(data)
    for entity in lump:  # a no-op edit pair that forces a reprint from the pairs
        entity.add("x", "y")
        entity.delete("x")
    out = lump.to_bytes()
    assert out == data
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=5.0)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if not (SHARED / "corpus").is_dir():
        raise SystemExit(f"needs the shared corpus at {SHARED}")
    data = corpus_text(args.mb)
    megabytes = len(data) / 1e6
    lump = EntityLump.parse(data)
    print(f"{megabytes:.2f} MB, {len(lump)} entities, {sum(len(e.pairs()) for e in lump)} pairs")

    def report(label: str, seconds: float) -> None:
        print(f"  {label:<42} {seconds * 1e3:9.1f} ms  {megabytes / seconds:6.1f} MB/s")

    report("parse", best(args.runs, lambda: EntityLump.parse(data)))
    report("parse + untouched save", best(args.runs, lambda: EntityLump.parse(data).to_bytes()))
    report("parse + one edit + save (joins all)", best(args.runs, lambda: parse_edit_save(data)))
    report("parse + every entity reprinted", best(args.runs, lambda: parse_reprint_all(data)))
    untouched = EntityLump.parse(data)
    seconds = best(args.runs, untouched.to_bytes)
    print(f"  {'untouched save alone (no parse, no reprint)':<42} {seconds * 1e6:9.1f} us  "
          f"(returns the original bytes: {untouched.to_bytes() is data})")
    grammar = (files("bspedit.grammars") / "entities.lark").read_text(encoding="utf-8")
    own_lexer = Lark(grammar, parser="lalr", transformer=_Spans())
    text = data.decode("latin-1")
    report("for comparison: lark's own lexer, parse", best(1, lambda: own_lexer.parse(text)))


if __name__ == "__main__":
    main()
