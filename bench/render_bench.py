"""`bspedit render` at 1024 px: time and peak memory.

Usage: python bench/render_bench.py [--runs 3]
Times: the 10 MB Quake 3 map q3/openarena_oacmpctf3.bsp in each colour mode, the whole
command line (`bspedit render MAP -o OUT.png`, interpreter start-up included: wall and CPU
time, the CPU time telling a busy machine apart) and `topdown()` alone in one warm process,
best of N, with bytecode cached. Target (issue 33): under 1 s. Memory: the peak RSS of the command on a small map,
on the 10 MB map and on a 150 MB Source map (a corpus map whose pakfile gets 150 MB of stored
files, /work/shared/tools/make_big_map.py): render never reads the pakfile, so the 150 MB map
costs what its source map costs.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
MAKE_BIG = ROOT.parent / "shared" / "tools" / "make_big_map.py"
BIG = "q3/openarena_oacmpctf3.bsp"
SMALL = "q1/bsptool_quake_mp_lobby.bsp"
SOURCE = "source/sdk2013_sdk_vehicles_v19.bsp"
COLORS = ("height", "texture", "lightmap")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _peak_rss(command: list[str]) -> float:
    """Peak RSS in MB of one run of `command` (its own process)."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(process.pid, 0)
    if status:
        error = process.stderr.read().decode() if process.stderr else ""
        raise SystemExit(f"{command} failed: {error}")
    return usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    render = [sys.executable, "-m", "bspedit", "render"]
    with tempfile.TemporaryDirectory() as folder:
        # bytecode cached, as an installed package has it (this machine sets
        # PYTHONDONTWRITEBYTECODE: each command would compile bspedit's modules again)
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        os.environ["PYTHONPYCACHEPREFIX"] = str(Path(folder) / "pycache")
        out = str(Path(folder) / "top.png")
        source = CORPUS / BIG
        # first, while this process is small: a child's peak RSS starts from its parent's
        big = Path(folder) / "big_source.bsp"
        subprocess.run([sys.executable, str(MAKE_BIG), str(CORPUS / SOURCE), str(big), "150"],
                       check=True, capture_output=True)
        print("peak RSS of the command (--color height, 1024 px):")
        for name, path in ((SMALL, CORPUS / SMALL), (BIG, source), (SOURCE, CORPUS / SOURCE),
                           (f"{SOURCE} + 150 MB pakfile", big)):
            rss = _peak_rss([*render, str(path), "-o", out])
            print(f"  {name} ({path.stat().st_size / 1e6:.1f} MB): {rss:.0f} MB")
        import bspedit
        from bspedit.features.render.picture import topdown

        print(f"{BIG} ({source.stat().st_size / 1e6:.1f} MB) at 1024 px, best of {runs}:")
        for color in COLORS:
            command, cpu, warm = [], [], []
            for _ in range(runs):
                start, used = time.perf_counter(), _children_cpu()
                subprocess.run([*render, str(source), "-o", out, "--color", color],
                               check=True, capture_output=True)
                command.append(time.perf_counter() - start)
                cpu.append(_children_cpu() - used)
                with bspedit.open(source) as bsp:
                    start = time.perf_counter()
                    topdown(bsp, size=1024, color=color)
                    warm.append(time.perf_counter() - start)
            print(f"  --color {color:<8} command {min(command):.2f} s (CPU {min(cpu):.2f} s), "
                  f"topdown() {min(warm):.2f} s")


if __name__ == "__main__":
    main()
