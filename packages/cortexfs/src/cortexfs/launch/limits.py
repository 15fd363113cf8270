"""Resource limits: prlimit on the chain always, cgroups (v1 or v2) where available.

Defaults follow the reference runtime's unit (MemoryMax=1G, CPUQuota=200%, TasksMax=256)
and its 512 MiB /tmp. Without a cgroup the process count falls back to RLIMIT_NPROC
(which counts every process of the uid); memory and CPU then stay unbounded. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass

from cortexfs.errors import BadInput

MIB = 1024 * 1024
CPU_PERIOD_US = 100_000


@dataclass(frozen=True)
class Limits:
    memory_bytes: int = 1024 * MIB
    tasks: int = 256
    cpu_percent: int = 200
    nofile: int = 4096
    tmp_bytes: int = 512 * MIB

    def check(self) -> Limits:
        for name, value in vars(self).items():
            if type(value) is not int or value <= 0:
                raise BadInput(f"limit {name} must be a positive integer, got {value!r}")
        return self


def prlimit_args(limits: Limits, nofile_hard: int, with_cgroup: bool) -> list[str]:
    """Soft and hard together, never above what the launcher itself may grant."""
    nofile = min(limits.nofile, nofile_hard)
    args = [f"--nofile={nofile}:{nofile}", "--core=0:0"]
    if not with_cgroup:
        args.append(f"--nproc={limits.tasks}:{limits.tasks}")
    return args


OPTIONAL_V1 = frozenset({"memory.memsw.limit_in_bytes"})


def cgroup_v1_values(limits: Limits) -> dict[str, dict[str, str]]:
    """controller -> file -> value, for a v1 hierarchy per controller."""
    return {
        # memsw (memory plus swap) after memory, which it may not undercut: the limit
        # holds on a host with swap too. Only where the kernel accounts swap (OPTIONAL_V1).
        "memory": {
            "memory.limit_in_bytes": str(limits.memory_bytes),
            "memory.memsw.limit_in_bytes": str(limits.memory_bytes),
        },
        "pids": {"pids.max": str(limits.tasks)},
        "cpu": {
            "cpu.cfs_period_us": str(CPU_PERIOD_US),
            "cpu.cfs_quota_us": str(CPU_PERIOD_US * limits.cpu_percent // 100),
        },
    }


def cgroup_v2_values(limits: Limits) -> dict[str, str]:
    quota = CPU_PERIOD_US * limits.cpu_percent // 100
    return {
        "memory.max": str(limits.memory_bytes),
        "pids.max": str(limits.tasks),
        "cpu.max": f"{quota} {CPU_PERIOD_US}",
    }
