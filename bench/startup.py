"""CLI start-up cost as a ratio to the bare interpreter.

Run from the repository root: ``uv run python bench/startup.py [--runs N]``.

Each command is timed against ``python -c pass`` with the same interpreter,
alternating A and B so that drift in machine speed hits both alike; the ratio
is taken pair by pair and the median reported. Budget (issues #2 and #19): at
most 1.5x for ``upskill --version``, ``upskill --help`` and
``agents-md-compiler --version``; ``upskill list`` in an empty directory
(temporary HOME, nothing installed) is the cheapest dispatch of a real command,
argparse and the lockfile reader included, and is reported against the same
goal. This is a measurement, not a test: noisy machines can exceed it once
without anything being wrong.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine import cpu  # bench/machine.py, beside this script

BUDGET = 1.5


def _wall(argv: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, cwd=cwd, env=env)
    return time.perf_counter() - start


def measure(
    cli: list[str], baseline: list[str], runs: int, cwd: Path, env: dict[str, str]
) -> tuple[float, float, float]:
    """Return (median cli seconds, median baseline seconds, median pairwise ratio); both
    run in `cwd` with `env`."""
    for _ in range(3):  # warm the page cache and the bytecode cache
        _wall(cli, cwd, env)
        _wall(baseline, cwd, env)
    a_times: list[float] = []
    b_times: list[float] = []
    for _ in range(runs):
        a_times.append(_wall(cli, cwd, env))
        b_times.append(_wall(baseline, cwd, env))
    ratios = [a / b for a, b in zip(a_times, b_times, strict=True)]
    return statistics.median(a_times), statistics.median(b_times), statistics.median(ratios)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    bindir = Path(sys.executable).parent
    baseline = [sys.executable, "-c", "pass"]
    commands = [
        ["upskill", "--version"],
        ["upskill", "--help"],
        ["upskill", "list"],
        ["agents-md-compiler", "--version"],
    ]
    print(f"{cpu()}, {args.runs} paired runs")
    print(f"{'command':<34} {'median ms':>10} {'python ms':>10} {'ratio':>7}  budget {BUDGET}x")
    with tempfile.TemporaryDirectory() as tmp:
        empty, home = Path(tmp, "empty"), Path(tmp, "home")
        empty.mkdir()
        home.mkdir()
        env = {**os.environ, "HOME": str(home), "COLUMNS": "80"}
        # An installed tool runs from bytecode (pip compiles at install; otherwise the
        # first run writes it). With PYTHONDONTWRITEBYTECODE, set on CI machines, every
        # run would compile every upskill module again and time the compiler instead.
        for key in (
            "XDG_CONFIG_HOME",
            "XDG_CACHE_HOME",
            "XDG_STATE_HOME",
            "PYTHONDONTWRITEBYTECODE",
        ):
            env.pop(key, None)
        for name, *rest in commands:
            argv = [str(bindir / name), *rest]
            a, b, ratio = measure(argv, baseline, args.runs, empty, env)
            verdict = "ok" if ratio <= BUDGET else "OVER"
            label = " ".join([name, *rest])
            print(f"{label:<34} {a * 1e3:>10.2f} {b * 1e3:>10.2f} {ratio:>7.2f}  {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
