"""What plan() returns: immutable, printable, and the only input apply() trusts."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cmx_core._actions import TargetAction
from cmx_core._identity import ToolIdentity
from cmx_core._platforms import Platform, Scope
from cmx_core._render import block, target_line


@dataclass(frozen=True)
class PlannedFile:
    rel_path: str
    dest_path: Path


@dataclass(frozen=True)
class TargetPlan:
    platform: Platform
    scope: Scope
    dest_dir: Path
    files: tuple[PlannedFile, ...]
    action: TargetAction
    cmx_managed: bool

    def __str__(self) -> str:
        return target_line(self.platform, self.dest_dir, self.action)


@dataclass(frozen=True)
class InstallPlan:
    tool: ToolIdentity
    scope: Scope
    source_checksum: str
    cmx_present: bool
    force: bool
    targets: tuple[TargetPlan, ...]

    @property
    def is_blocked(self) -> bool:
        """Any RefuseNewer target blocks the whole plan; apply() then refuses."""
        return any(t.action.is_blocked for t in self.targets)

    @property
    def will_write(self) -> bool:
        return any(t.action.will_write for t in self.targets)

    @property
    def write_count(self) -> int:
        return sum(1 for t in self.targets if t.action.will_write)

    def __str__(self) -> str:
        header = [
            f"Install plan for {self.tool.name} v{self.tool.version}",
            f"  scope: {self.scope.label}",
            f"  checksum: {self.source_checksum}",
        ]
        return block(header, self.targets)
