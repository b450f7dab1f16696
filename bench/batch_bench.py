"""`bspedit each` on 200 maps (the shared corpus copied 5 times) through `patch --config-dir`
with -j 1 and -j 2: wall times, the speed-up, and the per-map overhead of a batch.

Usage: python bench/batch_bench.py [--copies 5] [--runs 3] [--folder DIR]
Every map is edited (the config's `modify:` inserts a key into worldspawn) and written to a
fresh `-o OUT/` folder each run. The overhead per map is (batch wall time - the sum of the
same per-map command lines timed one by one in one warm process) / maps: interpreter start,
the pool, moving reports between processes and printing them. Best of N runs. Targets
(issue 16): -j 2 at least 1.7x faster than -j 1, overhead under 30 ms per map.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
CONFIG = """modify:
{
\tmatch:
\t{
\t\t"classname" "worldspawn"
\t}
\tinsert:
\t{
\t\t"bspedit_batch_bench" "1"
\t}
}
"""
WORK = """
import os, sys, time
from bspedit import batch
from bspedit.cli import invoke
planned = batch.command_lines(batch.expand([sys.argv[1]]), sys.argv[2:])
os.makedirs(planned.folder)
total = 0.0
for line in planned.lines:
    start = time.perf_counter()
    code = invoke(line, capture=True).code
    total += time.perf_counter() - start
    assert code == 0, (line, code)
print(total)
"""


def prepare(folder: Path, copies: int) -> tuple[Path, Path]:
    """`copies` copies of every corpus map in one folder, and a config folder for them."""
    maps, configs = folder / "maps", folder / "cfg"
    maps.mkdir()
    configs.mkdir()
    (configs / "global_filters.cfg").write_text(CONFIG)
    for copy in range(copies):
        for source in sorted(CORPUS.glob("*/*.bsp")):
            shutil.copyfile(source, maps / f"c{copy}_{source.parent.name}_{source.name}")
    subprocess.run(["sync"], check=True)
    return maps, configs


def command(configs: Path, out: Path) -> list[str]:
    return ["patch", "--config-dir", str(configs), "-o", f"{out}/"]


def batch_seconds(maps: Path, configs: Path, out: Path, jobs: int) -> float:
    """Wall time of one `bspedit each -j JOBS` run, interpreter start included."""
    argv = [sys.executable, "-m", "bspedit", "each", "-j", str(jobs), "--quiet", str(maps),
            "--", *command(configs, out)]
    start = time.perf_counter()
    result = subprocess.run(argv, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"batch_bench: -j {jobs} exited {result.returncode}: {result.stderr[-2000:]}")
    return seconds


def work_seconds(maps: Path, configs: Path, out: Path) -> float:
    """The sum of the per-map command lines' times, run one by one in one warm process."""
    result = subprocess.run([sys.executable, "-c", WORK, str(maps), *command(configs, out)],
                            capture_output=True, text=True, check=True)
    return float(result.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=5)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--folder", type=Path, help="where to copy the maps (default: a "
                        "temporary folder, removed after)")
    args = parser.parse_args()
    if not CORPUS.is_dir():
        sys.exit(f"batch_bench: no corpus at {CORPUS}")
    with tempfile.TemporaryDirectory(dir=args.folder) as tmp:
        folder = Path(tmp)
        maps, configs = prepare(folder, args.copies)
        count = sum(1 for _ in maps.iterdir())
        best: dict[str, float] = {}
        for run in range(args.runs):
            for label, measure in (
                    ("work", lambda out: work_seconds(maps, configs, out)),
                    ("-j 1", lambda out: batch_seconds(maps, configs, out, 1)),
                    ("-j 2", lambda out: batch_seconds(maps, configs, out, 2))):
                out = folder / f"out-{label.replace(' ', '')}-{run}"
                seconds = measure(out)
                best[label] = min(best.get(label, seconds), seconds)
                shutil.rmtree(out, ignore_errors=True)
        speedup = best["-j 1"] / best["-j 2"]
        overhead = (best["-j 1"] - best["work"]) / count * 1000
        print(f"{count} maps, patch --config-dir, -o OUT/, best of {args.runs}")
        print(f"  work (sum of per-map runs, one warm process): {best['work']:.2f} s "
              f"({best['work'] / count * 1000:.1f} ms/map)")
        print(f"  bspedit each -j 1: {best['-j 1']:.2f} s")
        print(f"  bspedit each -j 2: {best['-j 2']:.2f} s")
        print(f"  speed-up -j 2 over -j 1: {speedup:.2f}x (target >= 1.7x)")
        print(f"  overhead per map (-j 1 - work) / maps: {overhead:.1f} ms (target < 30 ms)")
        print("PASS" if speedup >= 1.7 and overhead < 30 else "FAIL")


if __name__ == "__main__":
    main()
