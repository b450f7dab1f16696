"""A long life of in-place edits: how much the map grows beyond what the edits add.

Usage: python bench/growth_bench.py [MAP] [--payload BYTES] [--rounds N] [--workdir DIR]
Without MAP, builds the 150 MB Source map (../shared/tools/make_big_map.py from the corpus's
valvebsp_testmap.bsp). Runs N rounds (default 4) of five `--in-place` edits through the CLI:
`ent set` growing the worldspawn text, `pak add` of a PAYLOAD-byte file (default 300 KB),
`props set` (when the map has static props), `pak remove` of that file, `ent set` shrinking the
text back. After every edit: `bspedit verify` passes, the CRC-32 the save printed equals
../shared/tools/bspref.py's independent one, and the bytes the save wrote are counted (os.write,
pwrite and copy_file_range, in the process). Prints one line per edit and the totals: the file's
growth, the net bytes the edits added to lumps, and their difference (issue 14's target: at most
64 KiB). Also times `pak add` right after a first `ent set` (the pakfile no longer last).
"""
from __future__ import annotations

import argparse
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
LIMIT = 64 * 1024


def reference_crc(path: Path) -> int:
    """The Source map CRC from ../shared/tools/bspref.py (independent of bspedit)."""
    spec = importlib.util.spec_from_file_location("bspref", SHARED / "tools" / "bspref.py")
    bspref = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bspref)
    return bspref.source_checksum(path.read_bytes())


def lump_total(path: Path) -> int:
    from bspedit.bsp import Bsp

    with Bsp.open(path) as bsp:
        return sum(max(l.length, 0) for l in bsp.lumps)


def has_props(path: Path) -> bool:
    from bspedit.bsp import Bsp

    with Bsp.open(path) as bsp:
        try:
            props = bsp.static_props
        except Exception:          # no game lump or no sprp member: no props edit
            return False
        return len(props) > 0


def edit(argv: list[str]) -> tuple[str, int, float]:
    """Run `bspedit ARGV` in this process; its output, the bytes it wrote and its wall time."""
    from bspedit.cli import main

    written = [0]
    real = {name: getattr(os, name) for name in ("write", "pwrite", "copy_file_range")}

    def counting(name):
        def step(*args):
            done = real[name](*args)
            written[0] += done if name != "copy_file_range" or done > 0 else 0
            return done
        return step

    out = io.StringIO()
    for name in real:
        setattr(os, name, counting(name))
    start = time.perf_counter()
    try:
        with redirect_stdout(out):
            code = main(argv)
    finally:
        for name, function in real.items():
            setattr(os, name, function)
    elapsed = time.perf_counter() - start
    if code != 0:
        raise SystemExit(f"bspedit {' '.join(argv)}: exit {code}\n{out.getvalue()}")
    return out.getvalue(), written[0], elapsed


def verify(path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "bspedit", "verify", str(path)],
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"verify failed after an edit:\n{result.stdout}{result.stderr}")


def printed_crc(output: str) -> int:
    found = re.search(r"map checksum crc32: before 0x[0-9a-f]+, after 0x([0-9a-f]+)", output)
    return int(found.group(1), 16)


def life(path: Path, payload: Path, rounds: int, *, check: bool = True) -> list[dict]:
    """The edits, in place on `path`; one record per edit."""
    props = has_props(path)
    name = "materials/bspedit/growth.vtf"
    steps = []
    for n in range(rounds):
        sequence = [
            ("ent grow", ["ent", "set", str(path), "--where", "classname=worldspawn",
                          f"message=round {n}: " + "grown text " * 200, "--in-place"]),
            ("pak add", ["pak", "add", str(path), str(payload), "--as", name, "--in-place"]),
            ("props set", ["props", "set", str(path), "0", f"skin={(n + 1) % 2}",
                           "--in-place"]) if props else None,
            ("pak remove", ["pak", "remove", str(path), name, "--in-place"]),
            ("ent shrink", ["ent", "set", str(path), "--where", "classname=worldspawn",
                            f"message=round {n}", "--in-place"])]
        for label, argv in filter(None, sequence):
            size, lumps = path.stat().st_size, lump_total(path)
            output, written, seconds = edit(argv)
            record = {"edit": label, "size": path.stat().st_size,
                      "grew": path.stat().st_size - size, "added": lump_total(path) - lumps,
                      "written": written, "seconds": round(seconds, 3)}
            if check:
                verify(path)
                record["crc_ok"] = printed_crc(output) == reference_crc(path)
                if not record["crc_ok"]:
                    raise SystemExit(f"{label}: printed CRC differs from bspref's")
            steps.append(record)
    return steps


def summary(start: int, steps: list[dict]) -> dict:
    net = sum(s["added"] for s in steps)
    growth = steps[-1]["size"] - start
    return {"edits": len(steps), "start": start, "end": steps[-1]["size"], "growth": growth,
            "net_added": net, "excess": growth - net,
            "max_excess": max(s["size"] - start - sum(t["added"] for t in steps[:i + 1])
                              for i, s in enumerate(steps)),
            "written": sum(s["written"] for s in steps)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("map", nargs="?", type=Path)
    parser.add_argument("--payload", type=int, default=300_000)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="growth-"))
    work.mkdir(parents=True, exist_ok=True)
    source = args.map
    if source is None:
        source = work / "big150.bsp"
        if not source.exists():
            subprocess.run([sys.executable, SHARED / "tools" / "make_big_map.py",
                            SHARED / "corpus" / "source" / "valvebsp_testmap.bsp", source, "150"],
                           check=True, stdout=subprocess.DEVNULL)
    payload = work / "payload.vtf"
    payload.write_bytes(os.urandom(args.payload))
    path = work / "life.bsp"

    shutil.copyfile(source, path)
    edit(["ent", "set", str(path), "--where", "classname=worldspawn", "message=first",
          "--in-place"])
    size = path.stat().st_size
    _, written, seconds = edit(["pak", "add", str(path), str(payload), "--as", "materials/x.vtf",
                                "--in-place"])
    print(f"pak add {args.payload} B --in-place after ent set --in-place: wrote {written} B, "
          f"file grew {path.stat().st_size - size} B, {seconds:.3f} s")

    shutil.copyfile(source, path)
    start = path.stat().st_size
    steps = life(path, payload, args.rounds)
    for n, step in enumerate(steps, 1):
        print(f"{n:>2} {step['edit']:<10} size {step['size']:>11}  grew {step['grew']:>+9}  "
              f"lumps {step['added']:>+9}  wrote {step['written']:>9}  {step['seconds']:.3f} s"
              f"  verify ok, crc {'ok' if step['crc_ok'] else 'WRONG'}")
    totals = summary(start, steps)
    print(json.dumps(totals))
    print(f"growth {totals['growth']} B, net added to lumps {totals['net_added']} B, excess "
          f"{totals['excess']} B (target <= {LIMIT}): {'met' if totals['excess'] <= LIMIT else 'MISSED'}")
    if not args.workdir:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
