"""The ui's Map, Logic, Pakfile and Lumps views on a 150 MB map: how long each request of
theirs takes against the real server (`bspedit ui MAP --no-browser`), first and again after a
pending edit (an edit of the pakfile alone keeps the picture; one of the entities makes it
again, on the file opened apart with the edits replayed).

Usage: python bench/ui_views_bench.py [BIG.bsp] [--runs 3]
Without BIG.bsp, ../shared/tools/make_big_map.py makes one (a real Source map whose pakfile
holds 150 MB more) in a temporary folder. Best of N runs, milliseconds. Targets (issue 44):
nothing a view asks for keeps the page waiting: the pakfile listing reads only the zip's
directory (well under 100 ms on 150 MB), the picture (which may follow the page) under 1 s.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SOURCE = SHARED / "corpus" / "source" / "valvebsp_testmap.bsp"
sys.path.insert(0, str(ROOT / "tests"))

REQUESTS = [("map summary", "GET", ""), ("pak listing", "GET", "/pak"),
            ("picture frame + markers", "GET", "/picture.json"),
            ("picture PNG (made with the frame)", "GET", "/picture.png"),
            ("ent check", "GET", "/check"), ("graph around entity 1", "GET", "/graph?entity=1"),
            ("lumps (info, stats)", "GET", "/lumps"),
            ("VTF preview", "GET", "/pak/preview?path=materials/maps/testmap/c0_384_96.vtf"),
            ("download a 512 KiB entry", "GET", "/pak/file?path=materials/bench/tex0001.vtf")]
AFTER = [("edit: pak_remove", "POST", "/edits"), ("pak listing", "GET", "/pak"),
         ("picture frame (the pakfile alone changed: kept)", "GET", "/picture.json"),
         ("edit: set_key", "POST", "/edits"),
         ("picture frame (entities changed: made again)", "GET", "/picture.json")]


def run(path: Path) -> dict[str, float]:
    from ui_browser import UiServer

    times: dict[str, float] = {}
    with UiServer([path]) as server:
        def ask(name: str, method: str, suffix: str, body: bytes | None = None) -> None:
            start = time.perf_counter()
            code, raw, _ = server.request(method, f"/api/maps/m1{suffix}", body=body)
            times[name] = (time.perf_counter() - start) * 1000
            assert code == 200, (name, raw[:200])

        for name, method, suffix in REQUESTS:
            ask(name, method, suffix)
        edits = iter([{"op": "pak_remove", "path": "materials/bench/tex0002.vtf"},
                      {"op": "set_key", "entity": 0, "key": "message", "value": "bench"}])
        for name, method, suffix in AFTER:
            ask(f"then {name}", method, suffix,
                json.dumps(next(edits)).encode() if method == "POST" else None)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("map", nargs="?", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = args.map
        if path is None:
            path = Path(folder) / "big.bsp"
            subprocess.run([sys.executable, str(SHARED / "tools" / "make_big_map.py"),
                            str(SOURCE), str(path), "150"], check=True, capture_output=True)
        print(f"{path.name}: {path.stat().st_size / 1e6:.0f} MB, best of {args.runs} runs")
        best: dict[str, float] = {}
        for _ in range(args.runs):
            for name, ms in run(path).items():
                best[name] = min(ms, best.get(name, ms))
        for name, ms in best.items():
            print(f"  {name:<58} {ms:8.1f} ms")


if __name__ == "__main__":
    main()
