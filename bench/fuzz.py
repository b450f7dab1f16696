"""Long fuzz run: the strategies and checks of tests/fuzzing.py without example limits.

Usage: python bench/fuzz.py [--seed N] [--seconds S] [--target NAME ...] [--memory SIZE]

Targets take turns in slices of a few seconds until the time budget is spent; each slice is a
hypothesis run seeded from --seed and the slice number, so a seed tries the same inputs in the
same order (how many depends on the machine's speed). The whole
process runs under an address-space cap (--memory) so that runaway allocations show up as
failures. Prints the inputs tried per target and the failures grouped by exception class and
the place it was raised, with the smallest reproducer seen for each.
"""
from __future__ import annotations

import argparse
import collections
import resource
import sys
import tempfile
import time
import traceback
from pathlib import Path

from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import fuzzing  # noqa: E402  (needs tests/ on the path)
from bspedit.limits import parse_size  # noqa: E402


class _SliceOver(BaseException):
    """Ends a hypothesis run when its time slice is spent."""


def where(exc: BaseException) -> str:
    """The innermost bspedit frame of a traceback (else the innermost frame), as file:line."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "/bspedit/" in f.filename] or frames
    frame = ours[-1]
    return f"{Path(frame.filename).name}:{frame.lineno}"


class Tally:
    def __init__(self) -> None:
        self.tried: collections.Counter[str] = collections.Counter()
        self.outcomes: collections.Counter[tuple[str, str]] = collections.Counter()
        self.failures: collections.Counter[tuple[str, str]] = collections.Counter()
        self.examples: dict[tuple[str, str], tuple[str, str, str]] = {}

    def fail(self, target: str, case: object, exc: BaseException) -> None:
        key = (type(exc).__name__, where(exc))
        self.failures[key] += 1
        text = repr(case)
        text = text if len(text) <= 600 else text[:600] + "..."
        if key not in self.examples or len(text) < len(self.examples[key][1]):
            self.examples[key] = (target, text, str(exc).splitlines()[0][:200] if str(exc) else "")


def run_slice(name: str, strategy: object, check: object, slice_seed: int, seconds: float,
              work: Path, tally: Tally) -> None:
    stop = time.monotonic() + seconds

    @seed(slice_seed)
    @settings(max_examples=10**9, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet)
    @given(strategy)
    def one(case: object) -> None:
        if time.monotonic() > stop:
            raise _SliceOver
        tally.tried[name] += 1
        try:
            tally.outcomes[name, check(case, work)] += 1
        except (Exception, fuzzing.Hang) as exc:    # MemoryError is an Exception too
            tally.fail(name, case, exc)

    try:
        one()
    except _SliceOver:
        pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0, help="same seed, same inputs (default 0)")
    parser.add_argument("--seconds", type=float, default=60, help="time budget (default 60)")
    parser.add_argument("--slice", type=float, default=10, help="seconds per turn of a target")
    parser.add_argument("--target", action="append", choices=sorted(fuzzing.targets()),
                        help="run only these targets (repeatable; default: all)")
    parser.add_argument("--memory", type=parse_size, default=parse_size("2G"),
                        help="address-space cap of this process (default 2G)")
    args = parser.parse_args()
    resource.setrlimit(resource.RLIMIT_AS, (args.memory, args.memory))
    names = args.target or sorted(fuzzing.targets())
    tally = Tally()
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bspedit-fuzz-") as scratch:
        turn = 0
        while time.monotonic() - start < args.seconds:
            name = names[turn % len(names)]
            strategy, check = fuzzing.targets()[name]
            left = args.seconds - (time.monotonic() - start)
            run_slice(name, strategy, check, args.seed * 100_003 + turn, min(args.slice, left),
                      Path(scratch), tally)
            turn += 1
    elapsed = time.monotonic() - start
    print(f"seed {args.seed}, {elapsed:.0f} s: {sum(tally.tried.values())} inputs tried, "
          f"{sum(tally.failures.values())} failures in {len(tally.failures)} classes")
    for name in names:
        outcomes = ", ".join(f"{outcome} {n}" for (target, outcome), n in
                             sorted(tally.outcomes.items()) if target == name)
        print(f"  {name}: {tally.tried[name]} inputs ({outcomes})")
    for (kind, place), count in tally.failures.most_common():
        target, case, message = tally.examples[kind, place]
        print(f"FAIL {count}x {kind} at {place}: {message}\n    [{target}] {case}")
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main())
