"""`cortexfs-object-runner OBJECT [ARGS...]`: the interpreter every executable object names.

Inside an agent sandbox the launcher binds the tool broker at a fixed path; there every
call goes to the broker, which decides outside the sandbox on facts it derived itself,
whatever CTX_* the caller set. Elsewhere the runner decides locally, on a live mount only.
"""

from __future__ import annotations

import os
import stat
import sys

SANDBOX_BROKER = "/run/cortexfs/broker.sock"


def in_sandbox() -> bool:
    try:
        return stat.S_ISSOCK(os.lstat(SANDBOX_BROKER).st_mode)
    except OSError:
        return False


def main(argv: list[str] | None = None) -> int:
    from cortexfs.runner import run_bin

    args = sys.argv[1:] if argv is None else argv
    code = run_bin(args)
    if code is not None:
        return code
    if in_sandbox():
        from cortexfs.broker.client import call

        return call(SANDBOX_BROKER, args, sys.stdout)
    from cortexfs.runner import run

    return run(args, os.environ, os.getuid(), sys.stdin.buffer, sys.stdout)
