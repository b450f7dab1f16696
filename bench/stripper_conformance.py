"""Stripper:Source conformance: `bspedit patch --plugin-output --force` against the plugin's
own output on ../shared/stripper-conformance/cases.jsonl (format: that folder's README).

Usage: python bench/stripper_conformance.py [--pcre 2|1] [--every N] [--show KIND] [--limit N]
Runs each case in-process through `stripper.plugin_run` (what the CLI runs) and compares the
sha256 and length of the entity text up to its NUL with the plugin's: `plugin_pcre2` with the
configs read for PCRE2 (`patch --pcre 2`, the default), `plugin_pcre1` with them read for PCRE
7.9 (`patch --pcre 1`; a case whose plugin_pcre1 is null, where that build failed, is not run).
Prints counts per set and in all, for both versions unless --pcre picks one: identical,
different, refused (BspError: bspedit exits 2), crash (any other exception). `--every N` runs
every Nth case; `--show different` (or refused, crash) lists those cases' ids and reasons.
"""
from __future__ import annotations

import argparse
import collections
import hashlib
import json
import sys
import time
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bspedit.patching import stripper  # noqa: E402
from bspedit.bsp import Bsp  # noqa: E402
from bspedit.errors import BspError  # noqa: E402

SHARED = ROOT.parent / "shared"
CASES = SHARED / "stripper-conformance"
KINDS = ("identical", "different", "refused", "crash")
EXPECTED = {2: "plugin_pcre2", 1: "plugin_pcre1"}     # the plugin's output, by --pcre


def cases(every: int = 1) -> Iterator[dict]:
    """Every `every`-th case of cases.jsonl, in file order."""
    with open(CASES / "cases.jsonl", encoding="utf-8") as file:
        for number, line in enumerate(file):
            if number % every == 0:
                yield json.loads(line)


@cache
def _entity_text(case_map: str | None, entities: str | None) -> bytes:
    if entities is not None:
        return (CASES / entities).read_bytes()
    with Bsp.open(SHARED / "corpus" / case_map) as bsp:
        return bsp.entities(lenient=True).to_bytes()   # as --plugin-output reads it


@cache
def _config(path: str, pcre: int) -> stripper.Config:
    return stripper.load_config(CASES / path, path, maps=True, pcre=pcre)


def run_case(case: dict, pcre: int = 2) -> tuple[str, str]:
    """(kind, reason) of one case with the configs read for PCRE version `pcre`: one of KINDS
    and what differed or failed."""
    try:
        data = _entity_text(case.get("map"), case.get("entities"))
        text, _ = stripper.plugin_run([_config(path, pcre) for path in case["configs"]], data)
    except BspError as error:
        return "refused", str(error)
    except Exception as error:  # noqa: BLE001 - a crash is what is counted
        return "crash", f"{type(error).__name__}: {error}"
    text = text.split(b"\0", 1)[0]
    want = case[EXPECTED[pcre]]
    if hashlib.sha256(text).hexdigest() == want["sha256"] and len(text) == want["bytes"]:
        return "identical", ""
    return "different", f"{len(text)} bytes, the plugin's {want['bytes']}"


def run(every: int = 1, pcre: int = 2) -> tuple[collections.Counter, dict[str, list[tuple[str, str]]]]:
    """Counts by (set, kind) and by kind under set "all", and the non-identical cases by kind,
    for PCRE version `pcre` (the cases with the plugin's output for it)."""
    counts: collections.Counter = collections.Counter()
    listed: dict[str, list[tuple[str, str]]] = collections.defaultdict(list)
    for case in cases(every):
        if case[EXPECTED[pcre]] is None:
            continue
        kind, reason = run_case(case, pcre)
        counts[case["id"].split(":", 1)[0], kind] += 1
        counts["all", kind] += 1
        if kind != "identical":
            listed[kind].append((case["id"], reason))
    return counts, listed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pcre", type=int, choices=(2, 1), action="append",
                        help="only this PCRE version (default: 2, then 1)")
    parser.add_argument("--every", type=int, default=1, help="run every Nth case (default: all)")
    parser.add_argument("--show", choices=KINDS[1:], action="append", default=[],
                        help="list the cases of this kind")
    parser.add_argument("--limit", type=int, default=50, help="list at most N per kind")
    args = parser.parse_args()
    if not (CASES / "cases.jsonl").exists():
        print(f"{CASES / 'cases.jsonl'} not found", file=sys.stderr)
        return 2
    for pcre in args.pcre or (2, 1):
        start = time.perf_counter()
        counts, listed = run(args.every, pcre)
        sets = sorted({name for name, _ in counts} - {"all"}) + ["all"]
        print(f"--pcre {pcre} (against {EXPECTED[pcre]})")
        print(f"{'set':<14}" + "".join(f"{kind:>11}" for kind in KINDS))
        for name in sets:
            print(f"{name:<14}" + "".join(f"{counts[name, kind]:>11}" for kind in KINDS))
        print(f"{sum(counts['all', k] for k in KINDS)} cases in {time.perf_counter() - start:.1f} s")
        for kind in args.show:
            for ident, reason in listed[kind][:args.limit]:
                print(f"{kind}: {ident}: {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
