"""Edits against `cp`: wall time and peak memory of `ent set`, `pak add` and Quake 2/3 saves.

Usage: python bench/edit_bench.py [--runs N] [--big] [--workdir DIR] [--bspedit CMD]
Builds a 150 MB Source map (and a 600 MB one with --big) from the shared corpus with
../shared/tools/make_big_map.py, then runs every command interleaved (so all see the same
machine), N rounds, and prints medians of wall time and of peak RSS (os.wait4 of each child).
bspedit runs as users install it: the working tree installed (`pip install .`, not editable,
bytecode compiled) into a venv in the work folder, unless --bspedit names a command.
bspedit runs twice per command: `cold` with the digest cache off (BSPEDIT_NO_CACHE=1), `warm`
with a cache the previous run of the same command filled. Figures only: the targets of small
edits are bench/startup_bench.py's (issue 29), which replaced issue 14's ratios to `cp`.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus"


def installed(work: Path) -> list[str]:
    """The `bspedit` of a venv in `work` holding the working tree as a regular install."""
    venv = work / "venv"
    if not (venv / "bin" / "python").exists():
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    subprocess.run([venv / "bin" / "python", "-m", "pip", "install", "-q", "--force-reinstall",
                    "--no-deps", ROOT], check=True)
    subprocess.run([venv / "bin" / "python", "-m", "pip", "install", "-q", ROOT], check=True)
    return [str(venv / "bin" / "bspedit")]


TIME = "/usr/bin/time"       # a small parent: a child's ru_maxrss also counts its parent's pages


def run(argv: list, env: dict[str, str]) -> tuple[float, int]:
    """Wall time and peak resident memory (bytes) of one child process."""
    with tempfile.NamedTemporaryFile("r") as report:
        wrapped = [TIME, "-f", "%M", "-o", report.name] if os.path.exists(TIME) else []
        start = time.perf_counter()
        child = subprocess.Popen(wrapped + [str(a) for a in argv], stdout=subprocess.DEVNULL,
                                 env=env)
        _, status, usage = os.wait4(child.pid, 0)
        elapsed = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"failed: {' '.join(map(str, argv))}")
        rss = int(report.read().split()[-1]) * 1024 if wrapped else usage.ru_maxrss * 1024
    return elapsed, rss


def big_map(folder: Path, megabytes: int) -> Path:
    out = folder / f"big{megabytes}.bsp"
    if not out.exists():
        subprocess.run([sys.executable, SHARED / "tools" / "make_big_map.py",
                        CORPUS / "source" / "valvebsp_testmap.bsp", out, str(megabytes)],
                       check=True, stdout=subprocess.DEVNULL)
    return out


def largest(family: str) -> Path:
    return max((CORPUS / family).glob("*.bsp"), key=lambda p: p.stat().st_size)


class Counter:
    """A fresh value per run, so every edit really changes something."""

    def __init__(self) -> None:
        self.n = 0

    def __call__(self) -> str:
        self.n += 1
        return f"{self.n:06d}"


def commands(work: Path, maps: list[Path], payload: Path,
             bspedit: list[str]) -> dict[str, tuple[list, bool]]:
    """name -> (argv factory, uses bspedit). Each factory is called once per run with the
    cache mode; in-place edits of the cold and the warm runs go to separate copies (a cold
    run's edit would make the warm run's cache entry stale)."""
    tick = Counter()
    table: dict[str, tuple] = {}
    for source in maps:
        label = f"{source.stat().st_size / 1e6:.0f}MB"
        out, copy = work / "out.bsp", work / "cp.bsp"
        in_place = {mode: work / f"edit_{label}_{mode}.bsp" for mode in ("cold", "warm")}
        for path in in_place.values():
            shutil.copyfile(source, path)
        table[f"{label} cp"] = (lambda mode, s=source, c=copy: ["cp", s, c], False)
        table[f"{label} cp+sync"] = (lambda mode, s=source, c=copy: [
            "sh", "-c", f'cp "{s}" "{c}" && sync "{c}"'], False)
        table[f"{label} ent set -o"] = (lambda mode, s=source, o=out: bspedit + [
            "ent", "set", s, "--where", "classname=worldspawn", f"skyname=sky_{tick()}",
            "-o", o], True)
        table[f"{label} ent set --in-place"] = (lambda mode, m=in_place: bspedit + [
            "ent", "set", m[mode], "--where", "classname=worldspawn", f"skyname=sky_{tick()}",
            "--in-place"], True)
        table[f"{label} pak add 300KB --in-place"] = (lambda mode, m=in_place: bspedit + [
            "pak", "add", m[mode], payload, "--as", f"materials/bench/add_{tick()}.vtf",
            "--in-place"], True)
    q3, q2 = largest("q3"), largest("q2")
    table["q3 ent set -o"] = (lambda mode: bspedit + [
        "ent", "set", q3, "--where", "classname=worldspawn", f"message=bench {tick()}",
        "-o", work / "q3.bsp"], True)
    table["q2 rewrite -o"] = (lambda mode: bspedit + ["rewrite", q2, "-o", work / "q2.bsp"], True)
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--big", action="store_true", help="also the 600 MB map")
    parser.add_argument("--workdir", type=Path, help="where maps are built (default: a temp dir)")
    parser.add_argument("--bspedit", help="the command to time (default: an install of this tree)")
    args = parser.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="edit_bench."))
    work.mkdir(parents=True, exist_ok=True)
    bspedit = args.bspedit.split() if args.bspedit else installed(work)
    maps = [big_map(work, 150)] + ([big_map(work, 600)] if args.big else [])
    payload = work / "payload.vtf"
    payload.write_bytes(os.urandom(300 * 1024))
    table = commands(work, maps, payload, bspedit)
    cache = work / "cache"
    envs = {"cold": dict(os.environ, BSPEDIT_NO_CACHE="1"),
            "warm": dict(os.environ, XDG_CACHE_HOME=str(cache))}
    envs["warm"].pop("BSPEDIT_NO_CACHE", None)
    runs: dict[str, list[tuple[float, int]]] = {}
    for name, (argv, ours) in table.items():        # warm the page cache and the digest cache
        for mode in ("cold", "warm") if ours else ("cold",):
            run(argv(mode), envs["warm"])
    for _ in range(args.runs):
        for name, (argv, ours) in table.items():
            for mode in ("cold", "warm") if ours else ("",):
                key = f"{name} {mode}".strip()
                runs.setdefault(key, []).append(run(argv(mode or "cold"), envs[mode or "cold"]))
    medians = {k: (statistics.median(t for t, _ in v), statistics.median(r for _, r in v))
               for k, v in runs.items()}
    print(f"medians of {args.runs} interleaved runs; maps in {work}")
    for key, (seconds, rss) in medians.items():
        print(f"  {key:42s} {seconds:7.3f} s   peak RSS {rss / 2**20:6.1f} MiB")
    print("ratios (figures; the targets are bench/startup_bench.py's):")
    for source in maps:
        label = f"{source.stat().st_size / 1e6:.0f}MB"
        cp, sync = medians[f"{label} cp"][0], medians[f"{label} cp+sync"][0]
        for mode in ("cold", "warm"):
            edit = medians[f"{label} ent set -o {mode}"]
            inplace = medians[f"{label} ent set --in-place {mode}"]
            pak = medians[f"{label} pak add 300KB --in-place {mode}"]
            print(f"  {label} {mode}: ent set -o {edit[0] / sync:.2f}x cp+sync, "
                  f"RSS {edit[1] / 2**20:.0f} MiB; ent set --in-place "
                  f"{inplace[0] / cp:.2f}x cp, RSS {inplace[1] / 2**20:.0f} MiB; "
                  f"pak add --in-place {pak[0] / cp:.2f}x cp, "
                  f"RSS {pak[1] / 2**20:.0f} MiB")
    for mode in ("cold", "warm"):
        print(f"  q3 ent set -o {mode}: {medians[f'q3 ent set -o {mode}'][0]:.3f} s (< 1); "
              f"q2 rewrite {mode}: {medians[f'q2 rewrite -o {mode}'][0]:.3f} s (< 1)")


if __name__ == "__main__":
    main()
