"""Reaping the empty cgroups of agents that are not running.

A supervisor removes its agent's cgroup when it stops, but one that is SIGKILLed (or
whose stop found a process it could not kill) cannot: the parent-death signals empty
the cgroup, and the empty directory would stay until reboot. Every supervisor that
creates a cgroup therefore first reaps the others': an `agent.*` cgroup (or
`home.<uid>.agent.*`) with no process in any hierarchy, whose agent's lock is free,
so nobody is running or starting that agent. The lock is held while removing, so a
start of that agent waits for the rmdir rather than entering a cgroup being removed.
"""

from __future__ import annotations

import fcntl
import os

from cortexfs.agent_runtime.paths import RuntimePaths
from cortexfs.launch import cgroups
from cortexfs.launch.spec import AgentRef


def abi_path_of(key: str) -> str | None:
    """The agent ABI path whose `AgentRef.key` is `key`, or None for other cgroups
    (`warm.<uid>`, anything not made for an agent)."""
    head, _, rest = key.partition(".")
    if head == "agent" and rest:
        path = f"/agent/{rest}"
    else:
        uid, _, name = rest.partition(".agent.")
        if head != "home" or not uid.isdigit() or not name:
            return None
        path = f"/home/{uid}/agent/{name}"
    return path if AgentRef("", path).key == key else None


def reap_stale(host: cgroups.CgroupHost, run_base: str) -> list[str]:
    """Remove every empty agent cgroup whose agent's lock (under `run_base`) is free;
    the keys removed. The caller's own agent is skipped: its lock is held."""
    reaped = []
    for key, cgroup in cgroups.existing(host, "").items():
        abi_path = abi_path_of(key)
        if abi_path is None or cgroups.members(cgroup):
            continue
        lock = RuntimePaths(run_base, abi_path).lock
        try:
            os.makedirs(os.path.dirname(lock), mode=0o755, exist_ok=True)
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if not cgroups.members(cgroup) and cgroups.remove(cgroup):
                reaped.append(key)
        except BlockingIOError:
            pass  # running or starting: its supervisor owns the cgroup
        finally:
            os.close(fd)
    return reaped
