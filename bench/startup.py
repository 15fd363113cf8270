"""CLI start-up cost as a ratio to the bare interpreter.

Run from the repository root: ``uv run python bench/startup.py [--runs N]``.

Each CLI's ``--version`` is timed against ``python -c pass`` with the same
interpreter, alternating A and B so that drift in machine speed hits both
alike; the ratio is taken pair by pair and the median reported. Budget
(issue #2): at most 1.5x for ``upskill --version`` and
``agents-md-compiler --version``. This is a measurement, not a test: noisy
machines can exceed it once without anything being wrong.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

BUDGET = 1.5


def _wall(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def measure(cli: list[str], baseline: list[str], runs: int) -> tuple[float, float, float]:
    """Return (median cli seconds, median baseline seconds, median pairwise ratio)."""
    for _ in range(3):  # warm the page cache and the bytecode cache
        _wall(cli)
        _wall(baseline)
    a_times: list[float] = []
    b_times: list[float] = []
    for _ in range(runs):
        a_times.append(_wall(cli))
        b_times.append(_wall(baseline))
    ratios = [a / b for a, b in zip(a_times, b_times, strict=True)]
    return statistics.median(a_times), statistics.median(b_times), statistics.median(ratios)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    bindir = Path(sys.executable).parent
    baseline = [sys.executable, "-c", "pass"]
    print(f"{'command':<34} {'median ms':>10} {'python ms':>10} {'ratio':>7}  budget {BUDGET}x")
    for name in ("upskill", "agents-md-compiler"):
        a, b, ratio = measure([str(bindir / name), "--version"], baseline, args.runs)
        verdict = "ok" if ratio <= BUDGET else "OVER"
        label = f"{name} --version"
        print(f"{label:<34} {a * 1e3:>10.2f} {b * 1e3:>10.2f} {ratio:>7.2f}  {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
