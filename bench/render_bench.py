"""`bspedit render`: time and peak memory at 1024 px and at big sizes.

Usage: python bench/render_bench.py [--runs 3] [--big-runs 1]
Run it with the python of a venv holding a wheel of the working tree (an editable install
adds its own import cost). Times: the 10 MB Quake 3 map q3/openarena_oacmpctf3.bsp in each
colour mode, the whole command line (`bspedit render MAP -o OUT.png`, interpreter start-up
included: wall and CPU time, the CPU time telling a busy machine apart) and the picture and
its PNG alone (`png_bytes(topdown())`) in one warm process, best of N, with bytecode cached. Target (issue 33): under 1 s. Memory:
the peak RSS of the command on a small map, on the 10 MB map and on a 150 MB Source map (a
corpus map whose pakfile gets 150 MB of stored files, /work/shared/tools/make_big_map.py):
render never reads the pakfile, so the 150 MB map costs what its source map costs. Big
pictures (issue 41): the 10 MB map at --size 4096, 8192 and 16384 (PNG, height colours; at
16384 also lightmap colours and the SVG), wall and CPU time and peak RSS, best of M. Target:
peak RSS under 400 MiB at 16384 (the pixels are made and written in bands of rows).
"""
from __future__ import annotations

import argparse
import os
import resource
import struct
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
SIZES = (4096, 8192, 16384)
#: issue 41's bound on the peak RSS of a 16384 px picture
BIG_TARGET = 400


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _measure(command: list[str]) -> tuple[float, float, float]:
    """Wall time (s), CPU time (s) and peak RSS (MiB) of one run of `command` (its own
    process)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if status:
        error = process.stderr.read().decode() if process.stderr else ""
        raise SystemExit(f"{command} failed: {error}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def _big(render: list[str], source: Path, out: Path, runs: int, *options: str
         ) -> tuple[str, float]:
    """The best wall and CPU time and the highest peak RSS of `runs` renders, as a line, and
    that RSS."""
    measured = [_measure([*render, str(source), "-o", str(out), *options]) for _ in range(runs)]
    wall, cpu = min(m[0] for m in measured), min(m[1] for m in measured)
    rss = max(m[2] for m in measured)
    width, height = struct.unpack(">II", out.read_bytes()[16:24]) if out.suffix == ".png" \
        else (0, 0)
    shape = f"{width} x {height} px, " if width else ""
    return (f"{shape}{wall:.2f} s (CPU {cpu:.2f} s), peak RSS {rss:.0f} MiB, "
            f"{out.stat().st_size / 1e6:.2f} MB"), rss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--big-runs", type=int, default=1)
    args = parser.parse_args()
    runs = args.runs
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
            rss = _measure([*render, str(path), "-o", out])[2]
            print(f"  {name} ({path.stat().st_size / 1e6:.1f} MB): {rss:.0f} MiB")
        print(f"{BIG} at big sizes, best of {args.big_runs} (the whole command):")
        png, svg = Path(folder) / "big.png", Path(folder) / "big.svg"
        peaks = []
        for name, target, options in (
                *((f"--size {size}", png, ["--size", str(size)]) for size in SIZES),
                (f"--size {SIZES[-1]} --color lightmap", png,
                 ["--size", str(SIZES[-1]), "--color", "lightmap"]),
                (f"--size {SIZES[-1]} SVG", svg, ["--size", str(SIZES[-1])])):
            line, rss = _big(render, source, target, args.big_runs, *options)
            print(f"  {name}: {line}")
            peaks.append(rss)
        print(f"  target: peak RSS under {BIG_TARGET} MiB at {SIZES[-1]} px: "
              f"{'met' if max(peaks[2:]) < BIG_TARGET else 'NOT met'}")
        import bspedit
        from bspedit.features.render.picture import topdown
        from bspedit.features.render.writers import png_bytes

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
                    png_bytes(topdown(bsp, size=1024, color=color))
                    warm.append(time.perf_counter() - start)
            print(f"  --color {color:<8} command {min(command):.2f} s (CPU {min(cpu):.2f} s), "
                  f"png_bytes(topdown()) {min(warm):.2f} s")


if __name__ == "__main__":
    main()
