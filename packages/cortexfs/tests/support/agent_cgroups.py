"""Where the launcher puts an agent's cgroup on this machine (v1 or v2), for tests that
count them before and after."""

from __future__ import annotations

from pathlib import Path

from cortexfs.launch import cgroups


def hierarchies() -> list[Path]:
    host = cgroups.detect_cgroups()
    return [] if host is None else [Path(point) for _c, point in host.roots]


def cgroup_dirs(key: str) -> list[Path]:
    """`cortexfs/<key>` in each hierarchy that has it (`agent.<name>` for an agent)."""
    found = [root / cgroups.PARENT / key for root in hierarchies()]
    return [path for path in found if path.is_dir()]
