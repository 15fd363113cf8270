"""What apply(), status() and remove() return, with the reference's display strings."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cmx_core._actions import TargetAction
from cmx_core._identity import ToolIdentity
from cmx_core._platforms import Platform, Scope
from cmx_core._render import block, target_line


@dataclass(frozen=True)
class TargetOutcome:
    platform: Platform
    dest_dir: Path
    action: TargetAction
    files_written: int
    installed_checksum: str | None
    discarded_paths: tuple[Path, ...]

    def __str__(self) -> str:
        return target_line(self.platform, self.dest_dir, self.action)


@dataclass(frozen=True)
class Report:
    tool: ToolIdentity
    scope: Scope
    targets: tuple[TargetOutcome, ...]
    source_registered: bool

    @property
    def applied(self) -> tuple[TargetOutcome, ...]:
        return tuple(t for t in self.targets if t.action.will_write)

    @property
    def skipped(self) -> tuple[TargetOutcome, ...]:
        return tuple(t for t in self.targets if not t.action.will_write)

    def __str__(self) -> str:
        header = [f"Installed {self.tool.name} v{self.tool.version} ({self.scope.label})"]
        footer = ["  (registered as cmx source)"] if self.source_registered else []
        return block(header, self.targets, footer)


@dataclass(frozen=True)
class TargetStatus:
    platform: Platform
    dest_dir: Path
    installed: bool
    tracked: bool
    installed_version: str | None
    drifted: bool

    def __str__(self) -> str:
        if not self.installed and not self.tracked:
            state = "not installed"
        elif not self.tracked:
            state = "installed, untracked"
        elif not self.installed:
            state = f"tracked v{self.installed_version or '?'}, missing on disk"
        elif self.drifted:
            state = f"v{self.installed_version or '?'}, drifted (local edits)"
        else:
            state = f"v{self.installed_version or '?'}, up to date"
        return target_line(self.platform, self.dest_dir, state)


@dataclass(frozen=True)
class Status:
    tool_name: str
    scope: Scope
    targets: tuple[TargetStatus, ...]

    @property
    def any_drifted(self) -> bool:
        return any(t.drifted for t in self.targets)

    def __str__(self) -> str:
        return block([f"Status of {self.tool_name} ({self.scope.label})"], self.targets)


@dataclass(frozen=True)
class RemoveReport:
    tool_name: str
    scope: Scope
    removed_dirs: tuple[Path, ...]
    platforms_cleared: tuple[Platform, ...]
    source_unregistered: bool

    @property
    def was_on_disk(self) -> bool:
        return bool(self.removed_dirs)

    @property
    def was_tracked(self) -> bool:
        return bool(self.platforms_cleared)

    def __str__(self) -> str:
        items = [
            *(f"{platform} lock entry cleared" for platform in self.platforms_cleared),
            *(f"removed: {path}" for path in self.removed_dirs),
            *(["unregistered from cmx sources"] if self.source_unregistered else []),
            "note: cmx-lock.json left on disk (shared with other tools)",
        ]
        return block([f"Removed {self.tool_name} ({self.scope.label})"], items)
