"""Time `bspedit rewrite` next to `cp` on a large Source map, and its peak memory.

Usage: python bench/rewrite_bench.py [MAP] [--runs N]
Without MAP it builds bench/out/big.bsp (150 MB) from the shared corpus with
../shared/tools/make_big_map.py. Prints best-of-N wall times, the ratio, and peak RSS.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


def run(argv: list[str]) -> tuple[float, int]:
    """Wall time and peak resident memory (bytes) of one child process."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(argv)}")
    return elapsed, usage.ru_maxrss * 1024


def big_map(megabytes: int) -> Path:
    out = ROOT / "bench" / "out" / f"big{megabytes}.bsp"
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, SHARED / "tools" / "make_big_map.py",
                        SHARED / "corpus" / "source" / "valvebsp_testmap.bsp", out, str(megabytes)],
                       check=True, stdout=subprocess.DEVNULL)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("map", nargs="?", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--megabytes", type=int, default=150)
    args = parser.parse_args()
    source = args.map or big_map(args.megabytes)
    out = source.with_name("rewrite_out.bsp")
    copy = source.with_name("cp_out.bsp")
    commands = {"cp": ["cp", source, copy],
                "cp+sync": ["sh", "-c", f'cp "{source}" "{copy}" && sync "{copy}"'],
                "rewrite": [sys.executable, "-m", "bspedit", "rewrite", source, "-o", out],
                "startup": [sys.executable, "-c", "import bspedit.cli, bspedit.bsp"]}
    best = {name: (float("inf"), 0) for name in commands}
    for _ in range(args.runs):               # interleaved, so both see the same machine
        for name, argv in commands.items():
            elapsed, rss = run([str(a) for a in argv])
            best[name] = (min(best[name][0], elapsed), max(best[name][1], rss))
    identical = out.read_bytes() == source.read_bytes()
    size = source.stat().st_size
    print(f"map: {source} ({size / 2**20:.1f} MiB), best of {args.runs}")
    for name, (elapsed, rss) in best.items():
        print(f"  {name:8s} {elapsed:7.3f} s  {size / elapsed / 2**20:8.0f} MiB/s  "
              f"peak RSS {rss / 2**20:6.1f} MiB")
    print(f"  rewrite/cp ratio: {best['rewrite'][0] / best['cp'][0]:.2f}x (target <= 1.1x); "
          f"against cp+sync (the same durability as our fsynced save): "
          f"{best['rewrite'][0] / best['cp+sync'][0]:.2f}x")
    print(f"  of which interpreter start and imports: {best['startup'][0]:.3f} s")
    print(f"  rewrite peak memory: {best['rewrite'][1] / 2**20:.1f} MiB (target < 64 MiB)")
    print(f"  rewrite output byte-identical: {identical}")
    out.unlink()
    copy.unlink()


if __name__ == "__main__":
    main()
