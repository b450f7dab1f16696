"""`bspedit ui` on a 150 MB map: seconds from starting `bspedit ui BIG --no-browser` until the
page is usable (its entities table filled) in a headless Chromium; target under 1 s (issue 44:
the picture may follow).

Usage: python bench/ui_bench.py [--runs N] [--megabytes M] [--workdir DIR]
Builds the map from the shared corpus with ../shared/tools/make_big_map.py (a real Source map
whose pakfile grows to M MB) in a temporary folder (or --workdir), starts Chromium once, then
for each run starts the server, loads the page and waits for the table; prints each phase
(address printed, page loaded, table filled) and the median. Needs the ui extra, selenium,
chromium and chromedriver (tests/ui_browser.py finds them).
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(ROOT / "tests"))

FILLED = """const table = document.querySelector('#ent-table');
return document.body.dataset.ready === '1' && Number(table.dataset.shown || 0) > 0 &&
       table.querySelectorAll('.vrow').length > 0 ? Number(table.dataset.shown) : 0"""


def big_map(folder: Path, megabytes: int) -> Path:
    out = folder / f"big{megabytes}.bsp"
    if not out.exists():
        subprocess.run([sys.executable, SHARED / "tools" / "make_big_map.py",
                        SHARED / "corpus" / "source" / "valvebsp_testmap.bsp", out,
                        str(megabytes)], check=True, stdout=subprocess.DEVNULL)
    return out


def one_run(driver: object, path: Path) -> dict[str, float]:
    from ui_browser import wait

    start = time.perf_counter()
    server = subprocess.Popen([sys.executable, "-m", "bspedit", "ui", str(path), "--no-browser"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        url = server.stdout.readline().strip()
        printed = time.perf_counter() - start
        if not url.startswith("http://"):
            raise SystemExit(f"bspedit ui did not start: {url!r} {server.stderr.read()!r}")
        driver.get(url)     # type: ignore[attr-defined]
        loaded = time.perf_counter() - start
        count = wait(driver, lambda d: d.execute_script(FILLED), timeout=60)
        filled = time.perf_counter() - start
    finally:
        server.terminate()
        server.wait()
    return {"printed": printed, "loaded": loaded, "filled": filled, "entities": count}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--megabytes", type=int, default=150)
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args()
    from ui_browser import make_driver

    with tempfile.TemporaryDirectory(prefix="ui-bench-") as scratch:
        folder = args.workdir or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        path = big_map(folder, args.megabytes)
        print(f"map: {path} ({path.stat().st_size / 1e6:.0f} MB)")
        driver = make_driver()
        try:
            one_run(driver, path)       # warm the disk cache and Chromium
            runs = [one_run(driver, path) for _ in range(args.runs)]
        finally:
            driver.quit()
    for n, run in enumerate(runs, 1):
        print(f"run {n}: address printed {run['printed']:.2f} s, page loaded "
              f"{run['loaded']:.2f} s, entities table filled {run['filled']:.2f} s "
              f"({run['entities']} entities)")
    median = statistics.median(run["filled"] for run in runs)
    print(f"median: usable {median:.2f} s after starting bspedit ui (target < 1 s): "
          f"{'met' if median < 1 else 'NOT met'}")


if __name__ == "__main__":
    main()
