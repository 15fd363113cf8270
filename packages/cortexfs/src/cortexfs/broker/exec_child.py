"""A permitted call, run with the agent's identity outside the sandbox.

The broker authorises the call as root and starts this process with the agent's uid,
gid, groups and umask; it reads the job (driver and arguments) from the descriptor
named in argv, so the tool's secrets never appear on a command line.
"""

from __future__ import annotations

import json
import os
import sys

from cortexfs.errors import EXIT_INTERNAL, CtxError
from cortexfs.events import EventWriter


def main() -> int:
    from cortexfs.drivers import run_driver

    writer = EventWriter(sys.stdout)
    try:
        with os.fdopen(int(sys.argv[1]), "rb") as handle:
            job = json.loads(handle.read())
        code = run_driver(job["driver"], job["where"], job["args"], sys.stdin.buffer, writer)
    except CtxError as exc:
        writer.error(exc.errno_name, exc.message)
        code = exc.exit_code
    except Exception as exc:  # the contract promises JSONL and 70, never a traceback
        writer.error("EIO", f"internal error: {type(exc).__name__}: {exc}")
        code = EXIT_INTERNAL
    writer.done(code)
    return code
