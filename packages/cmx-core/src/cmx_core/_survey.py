"""Read-only observation of a machine: config, lockfiles and what sits at each destination.

Everything the planner decides on is gathered here, so the planner itself stays pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType

from cmx_core._checksum import checksum_dir
from cmx_core._config import CmxConfig, load_config
from cmx_core._lockfile import LockFile, load_lockfile
from cmx_core._paths import Layout
from cmx_core._platforms import ALL_PLATFORMS, ArtifactKind, Platform, Scope
from cmx_core._targets import resolve_install_targets


@dataclass(frozen=True)
class MachineState:
    config: CmxConfig
    locks: Mapping[Platform, LockFile]
    disk_checksums: Mapping[Path, str | None] = field(default_factory=lambda: MappingProxyType({}))
    """Checksum per tracked destination; None marks one absent from disk."""

    @property
    def managed(self) -> tuple[Platform, ...] | None:
        return self.config.managed_platforms

    @property
    def non_empty_locks(self) -> tuple[Platform, ...]:
        return tuple(p for p in ALL_PLATFORMS if self.locks[p].packages)

    @property
    def cmx_present(self) -> bool:
        return self.managed is not None or bool(self.non_empty_locks)

    def install_targets(self, kind: ArtifactKind) -> tuple[Platform, ...]:
        return resolve_install_targets(kind, self.managed, self.non_empty_locks)

    def with_skill_checksums(
        self, destinations: Mapping[Platform, Path], name: str
    ) -> MachineState:
        """Checksum only destinations that are tracked; untracked ones are always Install."""
        checksums: dict[Path, str | None] = {}
        for platform, dest in destinations.items():
            if dest not in checksums and name in self.locks[platform].packages:
                checksums[dest] = checksum_dir(dest) if dest.is_dir() else None
        return replace(self, disk_checksums=MappingProxyType(checksums))


def read_state(layout: Layout, scope: Scope) -> MachineState:
    locks = {p: load_lockfile(layout.lock_path(p, scope)) for p in ALL_PLATFORMS}
    return MachineState(load_config(layout), MappingProxyType(locks))
