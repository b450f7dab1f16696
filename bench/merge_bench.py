"""`bspedit merge` of two 3 MB maps: a map with a copy of itself shifted by 16384 units on x.

Usage: python bench/merge_bench.py [--runs 3]
Maps: Quake 1 BSP2 q1/librequake_lq1m1_bsp2.bsp (3.2 MB) and GoldSrc
goldsrc/plague_zm_castle_siege2.bsp (3.2 MB). Both pairs pass a compiler's array size
(MAX_MAP_TEXINFO, MAX_MAP_LIGHTING) that the engines loading them do not have: written, with a
warning (bspedit.format.loadlimits). Times: the whole command line (`bspedit merge ... -o OUT`,
interpreter start-up included: wall and CPU time, the CPU time telling a busy machine apart)
and the merge in one warm process (`bspedit.cli.invoke`), best of N. Target (issue 35): under
2 s.
"""
from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
MAPS = ("q1/librequake_lq1m1_bsp2.bsp", "goldsrc/plague_zm_castle_siege2.bsp")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    from bspedit.cli import invoke

    with tempfile.TemporaryDirectory() as folder:
        for name in MAPS:
            source = CORPUS / name
            copy = Path(folder) / f"copy_{source.name}"
            shutil.copyfile(source, copy)
            out = Path(folder) / "merged.bsp"
            line = ["merge", str(source), str(copy), f"--shift={copy}=16384,0,0",
                    "-o", str(out)]
            command, cpu, warm = [], [], []
            for _ in range(runs):
                start = time.perf_counter()
                used = _children_cpu()
                subprocess.run([sys.executable, "-m", "bspedit", *line], check=True,
                               capture_output=True)
                command.append(time.perf_counter() - start)
                cpu.append(_children_cpu() - used)
                start = time.perf_counter()
                assert invoke(line, capture=True).code == 0
                warm.append(time.perf_counter() - start)
            print(f"{name} ({source.stat().st_size / 1e6:.1f} MB) + shifted copy -> "
                  f"{out.stat().st_size / 1e6:.1f} MB: command {min(command):.2f} s "
                  f"(CPU {min(cpu):.2f} s), "
                  f"in process {min(warm):.2f} s (best of {runs})")


if __name__ == "__main__":
    main()
