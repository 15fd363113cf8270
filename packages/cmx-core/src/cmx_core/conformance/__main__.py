"""`python -m cmx_core.conformance DIR [DIR...]`: run fixture directories, exit 1 on any failure."""

from __future__ import annotations

import sys
from pathlib import Path

from cmx_core.conformance._runner import RunResult, run_directory


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: python -m cmx_core.conformance DIR [DIR...]", file=sys.stderr)
        return 2
    results = [run_directory(Path(arg)) for arg in argv]
    total = RunResult(sum(r.passed for r in results), tuple(f for r in results for f in r.failures))
    for failure in total.failures:
        print(failure)
    print(total.summary())
    return 0 if total.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
