"""Process-tree facts from /proc: who descends from whom, which pid namespace and
process group a process is in. The supervisor uses them to signal a sandbox's hosted
process groups and to check that a broker peer belongs to one of its sandboxes."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import time


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


_PR_SET_CHILD_SUBREAPER = 36
_WNOTHREAD = 0x20000000  # wait only for the calling thread's own children


def become_subreaper() -> None:
    """Orphans below this process come to it instead of to PID 1, so nothing a tool
    call starts (a daemon in a session of its own included) leaves its process tree."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def reap_adopted() -> None:
    """Reap the adopted orphans that have exited. Call it from the main thread, which
    starts no process itself while it reaps: the kernel hands orphans to a subreaper's
    first live thread, so with `__WNOTHREAD` this never takes a child another thread's
    Popen is waiting for."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG | _WNOTHREAD)[0] > 0:
            pass


def alive(pid: int) -> bool:
    """Whether `pid` is a process that has not exited (a zombie has)."""
    fields = _stat(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def _below(root: int, spared: set[int]) -> set[int]:
    """Live descendants of `root`, less the spared processes and everything below them."""
    spare = {p for p in spared if alive(p)}
    for pid in list(spare):
        spare.update(descendants(pid))
    return {p for p in descendants(root) if p not in spare and alive(p)}


def kill_below(root: int, spared: set[int], timeout: float = 5.0) -> set[int]:
    """SIGKILL every live descendant of `root` but the spared subtrees: stopped first
    (SIGSTOP cannot be caught, and a stopped process forks no more), listed again until
    no new one appears, then killed, so none escapes by forking or by being orphaned
    during the sweep. Returns those still alive after `timeout`."""
    deadline = time.monotonic() + timeout
    while (left := _below(root, spared)) and time.monotonic() < deadline:
        stopped: set[int] = set()
        while new := left - stopped:
            for pid in new:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGSTOP)
            stopped |= new
            left = _below(root, spared)
        for pid in stopped:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.02)
        reap_adopted()
    return _below(root, spared)
