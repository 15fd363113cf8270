"""Process-tree facts from /proc: who descends from whom, which pid namespace and
process group a process is in. The supervisor uses them to signal a sandbox's hosted
process groups and to check that a broker peer belongs to one of its sandboxes."""

from __future__ import annotations

import contextlib
import os
import signal


def _stat(pid: int) -> list[str] | None:
    """Fields after the command name: [state, ppid, pgrp, session, ...]."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            raw = handle.read().decode("ascii", "replace")
    except OSError:
        return None
    return raw[raw.rfind(")") + 2 :].split()


def parent(pid: int) -> int | None:
    fields = _stat(pid)
    return int(fields[1]) if fields else None


def group(pid: int) -> int | None:
    fields = _stat(pid)
    return int(fields[2]) if fields else None


def start_time(pid: int) -> int | None:
    """Clock ticks after boot (field 22): a pid plus this names one process for good."""
    fields = _stat(pid)
    return int(fields[19]) if fields else None


def pid_namespace(pid: int) -> str | None:
    try:
        return os.readlink(f"/proc/{pid}/ns/pid")
    except OSError:
        return None


def descends_from(pid: int, roots: set[int]) -> bool:
    seen = 0
    current: int | None = pid
    while current and current > 1 and seen < 4096:
        if current in roots:
            return True
        current = parent(current)
        seen += 1
    return False


def descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            ppid = parent(int(entry))
            if ppid is not None:
                children.setdefault(ppid, []).append(int(entry))
    found, queue = [], [root]
    while queue:
        for child in children.get(queue.pop(), []):
            found.append(child)
            queue.append(child)
    return found


def hosted_groups(root: int) -> set[int]:
    """Process groups made inside the sandbox under `root` (ctxterm's hosted command and
    anything it grouped): signalled first, so the hosted CLI can exit cleanly."""
    own = pid_namespace(os.getpid())
    groups = set()
    for pid in descendants(root):
        pgid = group(pid)
        if pgid is not None and pgid != root and pid_namespace(pid) != own:
            groups.add(pgid)
    return groups


def kill_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)
