"""A permitted call, run with the agent's identity outside the sandbox.

The broker authorises the call as root and starts this process with the agent's uid,
gid, groups and umask; it reads the job (driver and arguments) from the descriptor
named in argv, so the tool's secrets never appear on a command line.
"""

from __future__ import annotations

import json
import os
import sys

from cortexfs.events import EventWriter


def _run(writer: EventWriter) -> int:
    from cortexfs.drivers import run_driver

    with os.fdopen(int(sys.argv[1]), "rb") as handle:
        job = json.loads(handle.read())
    return run_driver(
        job["driver"], job["where"], job["args"], sys.stdin.buffer, writer, job.get("schema")
    )


def main() -> int:
    from cortexfs.runner import guarded

    writer = EventWriter(sys.stdout)
    return guarded(writer, lambda: _run(writer))
