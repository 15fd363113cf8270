"""A permitted call, run with the agent's identity outside the sandbox.

The broker authorises the call as root and starts this process with the agent's uid,
gid, groups and umask; it reads the job (driver and arguments) from the descriptor
named in argv, so the tool's secrets never appear on a command line. An MCP job goes
on to the agent uid's warm host (warm/handoff.py), which keeps the server running
between calls; without one it runs here, starting the server for this call.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from cortexfs.events import EventWriter


def _run(job: dict[str, Any], writer: EventWriter) -> int:
    from cortexfs.drivers import run_driver

    return run_driver(
        job["driver"], job["where"], job["args"], sys.stdin.buffer, writer, job.get("schema")
    )


def main() -> int:
    from cortexfs.runner import guarded

    with os.fdopen(int(sys.argv[1]), "rb") as handle:
        raw = handle.read()
    job = json.loads(raw)
    if job.get("driver", {}).get("kind") == "mcp":
        # The agent's warm host (outside the sandbox, this uid) keeps the server running.
        from cortexfs.warm.handoff import call_job

        host = job.get("host")
        code = call_job(raw.decode(), host if isinstance(host, str) else None)
        if code is not None:
            sys.stdout.flush()
            return code
    writer = EventWriter(sys.stdout)
    return guarded(writer, lambda: _run(job, writer))
