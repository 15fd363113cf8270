"""CortexFS mount throughput as a ratio to the backing directory.

Run from the repository root as root: ``uv run python bench/cortexfs.py [--rounds N]``.

Mounts a temporary storage directory with ``cortexfs-mount``, writes ``--files`` small
files into ``shared/bench/`` through the mount, then times the same operations on the
mount and directly on the backing directory, alternating the two so machine drift hits
both alike:

- stat: ``os.stat`` of every file,
- readdir: ``os.listdir`` of the directory,
- read: open + read + close of every file.

Each operation's throughput ratio (mount / direct) is the median over rounds. Target
(issue brief): at least 0.3x for each. A measurement, not a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

TARGET = 0.3


def _mount(base: Path) -> tuple[Path, Path, subprocess.Popen[bytes]]:
    storage, root = base / "storage", base / "ctx"
    root.mkdir()
    runner = Path(sys.executable).parent / "cortexfs-mount"
    proc = subprocess.Popen(
        [str(runner), "--source", str(storage), "--init", str(root), "--foreground"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            if (root / "status").read_bytes() == b"ready\n":
                return storage, root, proc
        except OSError:
            pass
        time.sleep(0.05)
    proc.kill()
    raise SystemExit("cortexfs-mount did not become ready")


def _stat_all(directory: str, names: list[str]) -> None:
    for name in names:
        os.stat(os.path.join(directory, name))


def _list(directory: str, names: list[str]) -> None:
    for _ in range(len(names) // 10 or 1):
        os.listdir(directory)


def _read_all(directory: str, names: list[str]) -> None:
    for name in names:
        with open(os.path.join(directory, name), "rb") as handle:
            handle.read()


def _rate(op: Callable[[str, list[str]], None], directory: str, names: list[str]) -> float:
    start = time.perf_counter()
    op(directory, names)
    return 1.0 / (time.perf_counter() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--size", type=int, default=1024)
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="cortexfs-bench-"))
    storage, root, proc = _mount(base)
    try:
        mounted = root / "shared" / "bench"
        mounted.mkdir()
        names = [f"f{i:04d}.txt" for i in range(args.files)]
        payload = os.urandom(args.size // 2).hex().encode()
        for name in names:
            (mounted / name).write_bytes(payload)
        direct = str(storage / "shared" / "bench")
        ops = {"stat": _stat_all, "readdir": _list, "read": _read_all}
        print(f"{args.files} files of {args.size} bytes, {args.rounds} rounds (median ratio)")
        print(f"{'operation':<10}{'direct ops/s':>14}{'mount ops/s':>14}{'ratio':>8}  target")
        for label, op in ops.items():
            op(direct, names), op(str(mounted), names)  # warm both caches
            ratios, direct_rates, mount_rates = [], [], []
            count = len(names) if label != "readdir" else (len(names) // 10 or 1)
            for _ in range(args.rounds):
                d = _rate(op, direct, names) * count
                m = _rate(op, str(mounted), names) * count
                direct_rates.append(d)
                mount_rates.append(m)
                ratios.append(m / d)
            ratio = statistics.median(ratios)
            ok = ratio >= TARGET
            print(
                f"{label:<10}{statistics.median(direct_rates):>14,.0f}"
                f"{statistics.median(mount_rates):>14,.0f}{ratio:>8.2f}  "
                f"{'ok' if ok else 'below'} (>= {TARGET})"
            )
    finally:
        subprocess.run(["fusermount3", "-u", str(root)], check=False)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            subprocess.run(["fusermount3", "-u", "-z", str(root)], check=False)
        subprocess.run(["rm", "-rf", "--", str(base)], check=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
