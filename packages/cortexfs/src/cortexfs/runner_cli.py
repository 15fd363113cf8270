"""`cortexfs-object-runner OBJECT [ARGS...]`: the interpreter every executable object names.

Inside an agent sandbox the launcher binds the tool broker at a fixed path; there every
call goes to the broker, which decides outside the sandbox on facts it derived itself,
whatever CTX_* the caller set. Elsewhere an MCP tool call goes to the uid's warm host
(warm/handoff.py: it decides as the runner would and keeps the server running), and
any other call is decided here, on a live mount only.
"""

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
    args = sys.argv[1:] if argv is None else argv
    if not in_sandbox():
        from cortexfs.warm.handoff import call as warm_call

        warm = warm_call(args)
        if warm is not None:
            if argv is None:  # a real process: its output is written (os.write), so skip
                os._exit(warm)  # the interpreter's teardown, part of every call's latency
            return warm
    from cortexfs.runner import run_bin

    code = run_bin(args)
    if code is not None:
        return code
    if in_sandbox():
        from cortexfs.broker.client import call

        return call(SANDBOX_BROKER, args, sys.stdout)
    from cortexfs.runner import run

    return run(args, os.environ, os.getuid(), sys.stdin.buffer, sys.stdout)
