"""Is a process that wrote a lock or temp file still running? (pid plus start time)"""

from __future__ import annotations

import os
from pathlib import Path


def process_start(pid: int) -> str | None:
    """The kernel's start time of pid (clock ticks since boot), or None where unknown."""
    try:
        data = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return None
    fields = data.rpartition(b")")[2].split()
    return fields[19].decode() if len(fields) > 19 else None


def is_alive(pid: int, started: str | None) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # exists, owned by someone else
    current = process_start(pid)
    return started is None or current is None or current == started
