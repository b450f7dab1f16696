"""`bspedit pak deps` with cold caches, and its memory against the size of the game's content
(issue 32).

Usage: python bench/pack_bench.py [--runs N] [--workdir DIR] [--bspedit CMD] [--extra N]

Installs a wheel of the working tree into a fresh venv (as bench/startup_bench.py does; an
editable install adds its own import cost), copies ../shared/content's `portalcollab` and
`msrc` mods into the work folder, then per run:
- drops the caches: `sync` and `echo 3 > /proc/sys/vm/drop_caches` when allowed (root);
  otherwise `posix_fadvise(DONTNEED)` on every file of the copied mods and of the venv (the
  interpreter's own files outside the venv stay cached; the figure says which was done);
- times `pak deps MAP --game MOD --json` on portalcollab/maps/pcollab_26_iambread_test.bsp
  (3.6 MB, 327 entities): target at most 2 s cold, 1 s warm; also the CPU seconds (user +
  system) of each run, which a machine busy with other work inflates less than wall time;
- measures peak RSS of the same verb on msrc's `dissenter`, on portalcollab, and on
  portalcollab with N extra unreferenced loose files and an extra VPK-free folder tree
  (`--extra`, default 20000): memory must not grow with the game's content.
Prints medians.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from edit_bench import run
from startup_bench import installed

ROOT = Path(__file__).resolve().parents[1]
CONTENT = ROOT.parent / "shared" / "content"
MAP = "maps/pcollab_26_iambread_test.bsp"


def drop_caches(folders: list[Path]) -> str:
    """Evict the page cache: all of it when allowed, else the files under `folders`."""
    subprocess.run(["sync"], check=False)
    try:
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("3\n")
        return "drop_caches"
    except OSError:
        pass
    if not hasattr(os, "posix_fadvise"):
        return "none (no posix_fadvise: warm caches)"
    for folder in folders:
        for top, _, names in os.walk(folder):
            for name in names:
                try:
                    fd = os.open(os.path.join(top, name), os.O_RDONLY)
                except OSError:
                    continue
                try:
                    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                finally:
                    os.close(fd)
    return "posix_fadvise DONTNEED on the mods and the venv"


def children_cpu() -> float:
    """CPU seconds (user + system) of the child processes waited for so far (NaN where the
    platform has no `resource` module: Windows)."""
    try:
        import resource
    except ImportError:
        return float("nan")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def with_extra(source: Path, target: Path, count: int) -> Path:
    """A copy of `source` with `count` extra unreferenced loose files in 100 folders."""
    if not target.exists():
        shutil.copytree(source, target)
        for n in range(count):
            folder = target / "materials" / "benchextra" / f"d{n % 100:02d}"
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"extra{n}.vmt").write_bytes(b'"UnlitGeneric" { "$basetexture" "x" }\n')
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workdir", type=Path)
    parser.add_argument("--bspedit", help="the bspedit command to time (default: a wheel of "
                                          "this tree in a fresh venv)")
    parser.add_argument("--extra", type=int, default=20000)
    args = parser.parse_args()
    if not (CONTENT / "portalcollab" / MAP).exists():
        raise SystemExit(f"needs ../shared/content: {CONTENT}")
    work = args.workdir or Path(tempfile.mkdtemp(prefix="pack_bench."))
    work.mkdir(parents=True, exist_ok=True)
    if args.bspedit:
        bspedit, venv = args.bspedit, None
    else:
        _, bspedit = installed(work)
        venv = work / "venv"
    mods = {}
    for name in ("portalcollab", "msrc"):
        mods[name] = work / name
        if not mods[name].exists():
            shutil.copytree(CONTENT / name, mods[name])
    big = with_extra(CONTENT / "portalcollab", work / "portalcollab_extra", args.extra)
    env = dict(os.environ)
    cases = {"portalcollab iambread": [bspedit, "pak", "deps", mods["portalcollab"] / MAP,
                                       "--game", mods["portalcollab"], "--json"],
             "msrc dissenter": [bspedit, "pak", "deps", mods["msrc"] / "maps" / "dissenter.bsp",
                                "--game", mods["msrc"], "--json"],
             f"portalcollab + {args.extra} files": [bspedit, "pak", "deps", big / MAP,
                                                    "--game", big, "--json"]}
    folders = [*mods.values(), big] + ([venv] if venv else [])
    cold: dict[str, list[float]] = {k: [] for k in cases}
    warm: dict[str, list[float]] = {k: [] for k in cases}
    rss: dict[str, list[int]] = {k: [] for k in cases}
    cpu: dict[str, list[float]] = {k: [] for k in cases}
    how = ""
    for _ in range(args.runs):
        for name, argv in cases.items():
            how = drop_caches(folders)
            seconds, peak = run(argv, env)
            cold[name].append(seconds)
            rss[name].append(peak)
            before = children_cpu()
            seconds, _ = run(argv, env)
            cpu[name].append(children_cpu() - before)
            warm[name].append(seconds)
    print(f"cache eviction: {how}; {args.runs} runs, medians; load average "
          f"{os.getloadavg()[0] if hasattr(os, 'getloadavg') else float('nan'):.1f} on "
          f"{os.cpu_count()} cores")
    for name in cases:
        print(f"pak deps {name:<32} cold {statistics.median(cold[name]):6.3f} s   "
              f"warm {statistics.median(warm[name]):6.3f} s   "
              f"(CPU {statistics.median(cpu[name]):6.3f} s)   "
              f"peak RSS {statistics.median(rss[name]) / 2**20:6.1f} MiB")
    target = statistics.median(cold["portalcollab iambread"])
    print(f"target: cold deps on the 3.6 MB map at most 2 s: {target:.3f} s "
          f"({'met' if target <= 2 else 'MISSED'})")
    target = statistics.median(warm["portalcollab iambread"])
    print(f"target: warm deps on the 327-entity map at most 1 s: {target:.3f} s "
          f"({'met' if target <= 1 else 'MISSED'})")
    base = statistics.median(rss["msrc dissenter"])
    for name in cases:
        print(f"peak RSS {name} / msrc: {statistics.median(rss[name]) / base:.2f}x")


if __name__ == "__main__":
    main()
