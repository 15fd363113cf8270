"""What /proc says about the thread behind a FUSE request.

The request context names the calling thread (the kernel's task id, in the daemon's
pid namespace; 0 when the caller is outside it). Rules that depend on who asks beyond
uid and gid read the rest from `/proc/<tid>/status`, which the kernel keeps while the
thread is inside the request, even one sent from its exit (the flush of its files).
"""

from __future__ import annotations


def _status_line(tid: int, key: str) -> list[str] | None:
    """The fields after `key:` in the thread's status, or None if it cannot be read."""
    if tid <= 0:
        return None
    try:
        with open(f"/proc/{tid}/status", encoding="ascii", errors="replace") as handle:
            for line in handle:
                if line.startswith(key):
                    return line.split()[1:]
    except OSError:
        pass
    return None


def groups(tid: int) -> set[int]:
    """The supplementary groups of the requesting thread (empty if it is gone)."""
    fields = _status_line(tid, "Groups:") or []
    return {int(g) for g in fields if g.isdigit()}


def process(tid: int) -> int | None:
    """The process (thread group) the requesting thread belongs to, None if unknown.

    Two requests come from the same process exactly when they come from the same fd
    table's owner, short of `clone(CLONE_FILES)` without a thread group: a forked child
    that inherited an fd is another process."""
    fields = _status_line(tid, "Tgid:")
    return int(fields[0]) if fields and fields[0].isdigit() else None
