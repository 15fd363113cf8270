"""`cortexfs-object-runner OBJECT [ARGS...]`: the interpreter every executable object names."""

from __future__ import annotations

import os
import sys


def main(argv: list[str] | None = None) -> int:
    from cortexfs.runner import run, run_bin

    args = sys.argv[1:] if argv is None else argv
    code = run_bin(args)
    if code is not None:
        return code
    return run(args, os.environ, os.getuid(), sys.stdin.buffer, sys.stdout)
