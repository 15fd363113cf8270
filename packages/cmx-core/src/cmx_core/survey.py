"""Read-only observation of a machine: config, lockfiles and what sits at each destination.

Everything the planner decides on is gathered here, so the planner itself stays pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from cmx_core.checksum import checksum_dir
from cmx_core.config import CmxConfig, load_config
from cmx_core.lockfile import LockFile, load_lockfile
from cmx_core.paths import Layout
from cmx_core.platforms import ALL_PLATFORMS, Platform, Scope


@dataclass(frozen=True)
class MachineState:
    config: CmxConfig
    locks: Mapping[Platform, LockFile]
    disk_checksums: Mapping[Path, str | None]
    """Checksum per destination that exists on disk; None marks an absent destination."""

    @property
    def managed(self) -> tuple[Platform, ...] | None:
        return self.config.managed_platforms

    @property
    def non_empty_locks(self) -> tuple[Platform, ...]:
        return tuple(p for p in ALL_PLATFORMS if self.locks[p].packages)

    @property
    def cmx_present(self) -> bool:
        return self.managed is not None or bool(self.non_empty_locks)


def read_locks(layout: Layout, scope: Scope) -> dict[Platform, LockFile]:
    return {p: load_lockfile(layout.lock_path(p, scope)) for p in ALL_PLATFORMS}


def observe(
    layout: Layout,
    scope: Scope,
    destinations: Mapping[Platform, Path],
    artifact_name: str,
    config: CmxConfig | None = None,
    locks: Mapping[Platform, LockFile] | None = None,
) -> MachineState:
    """Checksum only destinations that are tracked; untracked ones are always Install."""
    config = config if config is not None else load_config(layout)
    locks = locks if locks is not None else read_locks(layout, scope)
    checksums: dict[Path, str | None] = {}
    for platform, dest in destinations.items():
        if dest in checksums or artifact_name not in locks[platform].packages:
            continue
        checksums[dest] = checksum_dir(dest) if dest.is_dir() else None
    return MachineState(config, MappingProxyType(dict(locks)), MappingProxyType(checksums))
