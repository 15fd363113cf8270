"""cgroup limits for one agent process tree: v1 (one hierarchy per controller) or v2.

The supervisor moves itself into the agent's cgroup before it starts anything, so every
sandbox and tool process it forks inherits the limits (a transient systemd unit would do
the same where systemd is PID 1; here it is not).
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from dataclasses import dataclass

from cortexfs.launch.limits import OPTIONAL_V1, Limits, cgroup_v1_values, cgroup_v2_values

CONTROLLERS = ("memory", "pids", "cpu")
PARENT = "cortexfs"


@dataclass(frozen=True)
class CgroupHost:
    version: int
    roots: tuple[tuple[str, str], ...]  # (controller or "unified", mount point)


@dataclass(frozen=True)
class Cgroup:
    version: int
    dirs: tuple[str, ...]


def _mounts(mountinfo: str) -> list[tuple[str, str, set[str]]]:
    """(fstype, mount point, super options) of every cgroup mount."""
    found = []
    with open(mountinfo, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            before, _, after = line.partition(" - ")
            fields = after.split()
            if len(fields) >= 3 and fields[0] in ("cgroup", "cgroup2"):
                found.append((fields[0], before.split()[4], set(fields[2].split(","))))
    return found


def detect_cgroups(mountinfo: str = "/proc/self/mountinfo") -> CgroupHost | None:
    """A writable hierarchy with the memory, pids and cpu controllers, else None."""
    try:
        mounts = _mounts(mountinfo)
    except OSError:
        return None
    v1 = {
        c: point
        for kind, point, opts in mounts
        if kind == "cgroup"
        for c in CONTROLLERS
        if c in opts
    }
    if all(c in v1 for c in CONTROLLERS) and all(os.access(p, os.W_OK) for p in v1.values()):
        return CgroupHost(1, tuple((c, v1[c]) for c in CONTROLLERS))
    for kind, point, _ in mounts:
        if kind != "cgroup2":
            continue
        try:
            with open(os.path.join(point, "cgroup.controllers"), encoding="ascii") as handle:
                available = set(handle.read().split())
        except OSError:
            continue
        if set(CONTROLLERS) <= available and os.access(point, os.W_OK):
            return CgroupHost(2, (("unified", point),))
    return None


def _write(path: str, value: str) -> None:
    with open(path, "w", encoding="ascii") as handle:
        handle.write(value)


def create(host: CgroupHost, key: str, limits: Limits) -> Cgroup:
    """Make `<root>/cortexfs/<key>` with the limits written; an empty leftover is reused.
    A failure half-way removes the directories this call made (in every hierarchy), so
    a launch that fails leaves no cgroup behind."""
    made: list[str] = []
    try:
        return _create(host, key, limits, made)
    except OSError:
        for path in reversed(made):
            with contextlib.suppress(OSError):
                os.rmdir(path)
        raise


def _mkdir(path: str, made: list[str]) -> None:
    try:
        os.mkdir(path)
    except FileExistsError:
        return
    made.append(path)


def _create(host: CgroupHost, key: str, limits: Limits, made: list[str]) -> Cgroup:
    dirs = []
    if host.version == 1:
        values = cgroup_v1_values(limits)
        for controller, point in host.roots:
            path = os.path.join(point, PARENT, key)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            _mkdir(path, made)
            for name, value in values[controller].items():
                target = os.path.join(path, name)
                if name in OPTIONAL_V1 and not os.path.exists(target):
                    continue  # e.g. swap accounting is off: nothing to cap
                _write(target, value)
            dirs.append(path)
        return Cgroup(1, tuple(dirs))
    point = host.roots[0][1]
    parent = os.path.join(point, PARENT)
    os.makedirs(parent, exist_ok=True)
    enable = " ".join(f"+{c}" for c in CONTROLLERS)
    _write(os.path.join(point, "cgroup.subtree_control"), enable)
    _write(os.path.join(parent, "cgroup.subtree_control"), enable)
    path = os.path.join(parent, key)
    _mkdir(path, made)
    for name, value in cgroup_v2_values(limits).items():
        _write(os.path.join(path, name), value)
    return Cgroup(2, (path,))


def enter(cgroup: Cgroup, pid: int) -> None:
    for path in cgroup.dirs:
        _write(os.path.join(path, "cgroup.procs"), str(pid))


def members(cgroup: Cgroup) -> set[int]:
    found: set[int] = set()
    for path in cgroup.dirs:
        with contextlib.suppress(OSError), open(os.path.join(path, "cgroup.procs")) as handle:
            found |= {int(word) for word in handle.read().split()}
    return found


def kill_others(cgroup: Cgroup, pid: int, timeout: float = 5.0) -> set[int]:
    """SIGKILL every process in the cgroup but `pid` (the supervisor), until none is left
    or `timeout` passes: what a call's child left behind in a session of its own (a
    daemon) would otherwise outlive the agent. Returns the pids still there."""
    deadline = time.monotonic() + timeout
    while (left := members(cgroup) - {pid}) and time.monotonic() < deadline:
        for other in left:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(other, signal.SIGKILL)
        time.sleep(0.05)
    return members(cgroup) - {pid}


def remove(cgroup: Cgroup) -> bool:
    """rmdir the cgroup in every hierarchy; False when a process is still in one (EBUSY:
    it stays, and a later `reap_stale` removes it once empty)."""
    removed = True
    for path in cgroup.dirs:
        try:
            os.rmdir(path)
        except FileNotFoundError:
            pass
        except OSError:
            removed = False
    return removed


def leave_and_remove(cgroup: Cgroup, pid: int) -> bool:
    """Move `pid` back to the hierarchy's root and remove the (now empty) cgroup."""
    for path in cgroup.dirs:
        root = os.path.dirname(os.path.dirname(path))
        with contextlib.suppress(OSError):
            _write(os.path.join(root, "cgroup.procs"), str(pid))
    return remove(cgroup)


def existing(host: CgroupHost, prefix: str) -> dict[str, Cgroup]:
    """Every `cortexfs/<key>` whose key starts with `prefix`, by key, with its directory
    in each hierarchy that has it (a crash between two mkdirs leaves some only)."""
    found: dict[str, list[str]] = {}
    for _controller, point in host.roots:
        parent = os.path.join(point, PARENT)
        try:
            names = sorted(os.listdir(parent))
        except OSError:
            continue
        for name in names:
            path = os.path.join(parent, name)
            if name.startswith(prefix) and os.path.isdir(path):
                found.setdefault(name, []).append(path)
    return {key: Cgroup(host.version, tuple(dirs)) for key, dirs in found.items()}
