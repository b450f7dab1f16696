"""Time adding a 10 MB file to the pakfile of a 150 MB map, with `-o` and `--in-place`, next
to `cp` of the map in the same run; the API call and the CLI (with interpreter start-up)
separately.

Usage: python bench/pak_bench.py [MAP] [--runs N] [--megabytes 150] [--file-megabytes 10]
Without MAP it builds bench/out/big150.bsp as bench/rewrite_bench.py does. Prints best-of-N
wall times. Target: an in-place add under 0.1 s (API).
"""
from __future__ import annotations

import argparse
import io
import os
import random
import shutil
import sys
import time
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rewrite_bench import ROOT, big_map, run  # noqa: E402

sys.path.insert(0, str(ROOT))
from bspedit.bsp import Bsp  # noqa: E402
from bspedit.lumps.pakfile import Pakfile  # noqa: E402

NAME = "materials/bench/added.vtf"


def api_add(source: Path, payload: Path, output: Path | None) -> float:
    """Seconds for open, add, save (-o `output`, or in place when None)."""
    start = time.perf_counter()
    with Bsp.open(source) as bsp:
        pak = Pakfile.of(bsp)
        pak.add(NAME, payload.read_bytes())
        pak.apply(bsp, in_place=output is None)
        if output is None:
            bsp.save_in_place()
        else:
            bsp.save(output)
    return time.perf_counter() - start


def fresh_copy(source: Path, target: Path) -> Path:
    """An untimed copy to edit in place, flushed so its writes do not land in the timing."""
    shutil.copyfile(source, target)
    with open(target, "rb+") as handle:
        os.fsync(handle.fileno())
    return target


def check(path: Path, payload: Path) -> bool:
    with Bsp.open(path) as bsp:
        archive = zipfile.ZipFile(io.BytesIO(bsp.read_lump(bsp.family.pakfile)))
        return archive.read(NAME) == payload.read_bytes()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("map", nargs="?", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--megabytes", type=int, default=150)
    parser.add_argument("--file-megabytes", type=int, default=10)
    args = parser.parse_args()
    source = args.map or big_map(args.megabytes)
    work = source.parent
    payload = work / "pak_payload.vtf"
    payload.write_bytes(random.Random(1).randbytes(args.file_megabytes << 20))
    out, copy, edited = work / "pak_out.bsp", work / "pak_cp.bsp", work / "pak_inplace.bsp"
    cli = [sys.executable, "-m", "bspedit", "pak", "add"]
    best: dict[str, float] = {}

    def note(name: str, seconds: float) -> None:
        best[name] = min(best.get(name, float("inf")), seconds)

    for _ in range(args.runs):               # interleaved, so all see the same machine
        note("cp", run(["cp", str(source), str(copy)])[0])
        note("cp+sync", run(["sh", "-c", f'cp "{source}" "{copy}" && sync "{copy}"'])[0])
        note("api -o", api_add(source, payload, out))
        note("api --in-place", api_add(fresh_copy(source, edited), payload, None))
        note("cli -o", run([*cli, str(source), str(payload), "--as", NAME, "-o", str(out)])[0])
        fresh_copy(source, edited)
        note("cli --in-place", run([*cli, str(edited), str(payload), "--as", NAME,
                                    "--in-place"])[0])
        note("cli start-up", run([sys.executable, "-c", "import bspedit.cli.pak"])[0])
    valid = check(out, payload) and check(edited, payload)
    size = source.stat().st_size
    print(f"map: {source} ({size / 2**20:.1f} MiB), added {args.file_megabytes} MiB, "
          f"best of {args.runs}")
    for name, seconds in best.items():
        print(f"  {name:16s} {seconds:7.3f} s")
    print(f"  in-place API target < 0.1 s: {'met' if best['api --in-place'] < 0.1 else 'MISSED'}")
    print(f"  results read back with zipfile: {valid}")
    for path in (out, copy, edited, payload):
        path.unlink()


if __name__ == "__main__":
    main()
