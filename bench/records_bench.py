"""Read every record of every described lump of a big map: Bsp.records and the structure models
(issue 17).

Usage: python bench/records_bench.py [--runs N] [--map PATH]
Opens the map (default: the largest of the shared corpus, openarena_oacmpctf3.bsp, 10.6 MB),
then reads each lump with a fixed record type as read-only records and touches every byte
(a uint8 view of the array, summed: no copy), and parses each variable-size lump that has a
model (visibility, textures, ...) and touches its bytes. Prints the time after open (best of N, target
under 50 ms), the peak RSS of one pass in a fresh process (target: map size + 32 MiB at most),
and the records and lumps read. `--child` runs the one pass and prints `peak BYTES`.

The peak is measured as installs run: with bytecode (a first run fills a temporary
PYTHONPYCACHEPREFIX). Compiling the modules from source, as a checkout with
PYTHONDONTWRITEBYTECODE does, adds a few MiB of peak (the generated record tables' source
is big); that figure is printed too.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bspedit.bsp import Bsp
from bspedit.errors import BspError

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
MIB = 1 << 20


def read_all(bsp: Bsp) -> tuple[int, int, int]:
    """Touch every byte of every fixed-size lump's records, and parse every variable-size lump
    with a model (`bspedit.lumps.structures`): (records, lumps, byte sum)."""
    import numpy

    from bspedit.lumps.structures import structure_for

    records = lumps = total = 0
    for lump in bsp.lumps:
        try:
            array = bsp.records(lump.index)
        except BspError:
            model = structure_for(bsp.family.key, lump.name, lump.version, bsp.header.version)
            if model is None or not lump.length:
                continue
            data = bsp.content(lump.index)
            model.parse(data)
            total += int(numpy.frombuffer(data, numpy.uint8).sum())
            lumps += 1
            continue
        total += int(numpy.frombuffer(array, numpy.uint8).sum()) if len(array) else 0
        records += len(array)
        lumps += 1
    return records, lumps, total


def timed(path: Path) -> tuple[float, int, int]:
    """Seconds from after open to the last byte read, records and lumps read."""
    with Bsp.open(path) as bsp:
        start = time.perf_counter()
        records, lumps, _ = read_all(bsp)
        return time.perf_counter() - start, records, lumps


def peak_rss() -> int:
    """This process's peak resident memory in bytes (VmHWM where /proc has it: ru_maxrss of
    a child also counts the pages of the process it was forked from)."""
    try:
        status = Path("/proc/self/status").read_text()
        return int(re.search(r"VmHWM:\s+(\d+)", status)[1]) * 1024  # type: ignore[index]
    except (OSError, TypeError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def child_peak(path: Path, bytecode: bool = True) -> int:
    """Peak RSS of one pass (import, open, read everything) in a fresh Python process, with
    bytecode compiled by a first run (into a temporary cache), or compiling from source."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    argv = [sys.executable, __file__, "--child", "--map", str(path)]
    with tempfile.TemporaryDirectory() as cache:
        if bytecode:
            env["PYTHONPYCACHEPREFIX"] = cache
            subprocess.run(argv, capture_output=True, env=env, check=True)
        else:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        run = subprocess.run(argv, capture_output=True, text=True, env=env, check=True)
    return int(re.search(r"^peak (\d+)$", run.stdout, re.M)[1])  # type: ignore[index]


def largest_map() -> Path:
    maps = sorted(CORPUS.glob("*/*.bsp"), key=lambda p: p.stat().st_size)
    if not maps:
        raise SystemExit(f"needs the shared corpus at {CORPUS}, or --map")
    return maps[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--map", type=Path)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    path = args.map or largest_map()
    if args.child:
        with Bsp.open(path) as bsp:
            read_all(bsp)
        print(f"peak {peak_rss()}")
        return
    size = os.path.getsize(path)
    runs = [timed(path) for _ in range(args.runs)]
    best = min(seconds for seconds, _, _ in runs)
    _, records, lumps = runs[0]
    peak, compiling = child_peak(path), child_peak(path, bytecode=False)
    print(f"{path.name}: {size / MIB:.1f} MiB, {lumps} lumps, {records} records read")
    print(f"  time after open (best of {args.runs})   {best * 1e3:8.2f} ms   (target < 50 ms)")
    print(f"  peak RSS, fresh process        {peak / MIB:8.1f} MiB  "
          f"(target <= {(size + 32 * MIB) / MIB:.1f} MiB: map + 32 MiB)")
    print(f"  the same, compiling from source {compiling / MIB:7.1f} MiB")


if __name__ == "__main__":
    main()
