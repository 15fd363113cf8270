"""plan(): a pure function of the reconciled bundle and the observed machine state."""

from __future__ import annotations

from pathlib import Path

from cmx_core._actions import TargetAction
from cmx_core._bundle import SkillFile
from cmx_core._guard import DiskState, decide_action
from cmx_core._identity import ToolIdentity
from cmx_core._plan import InstallPlan, PlannedFile, TargetPlan
from cmx_core._platforms import Platform, Scope
from cmx_core._survey import MachineState


def disk_state(checksum_on_disk: str | None, source_checksum: str) -> DiskState:
    if checksum_on_disk is None:
        return DiskState.MISSING
    return DiskState.MATCHES_SOURCE if checksum_on_disk == source_checksum else DiskState.DRIFTED


def decide_for_target(
    tool: ToolIdentity,
    platform: Platform,
    dest: Path,
    source_checksum: str,
    state: MachineState,
    force: bool,
) -> TargetAction:
    entry = state.locks[platform].packages.get(tool.name)
    return decide_action(
        bundled_version=tool.version,
        tracked=entry is not None,
        installed_version=entry.version if entry is not None else None,
        disk=disk_state(state.disk_checksums.get(dest), source_checksum),
        force=force,
    )


def build_plan(
    tool: ToolIdentity,
    files: tuple[SkillFile, ...],
    source_checksum: str,
    scope: Scope,
    destinations: dict[Platform, Path],
    state: MachineState,
    force: bool,
) -> InstallPlan:
    cmx_managed = state.managed is not None
    targets = tuple(
        TargetPlan(
            platform=platform,
            scope=scope,
            dest_dir=dest,
            files=tuple(
                PlannedFile(f.rel_path, dest.joinpath(*f.rel_path.split("/"))) for f in files
            ),
            action=decide_for_target(tool, platform, dest, source_checksum, state, force),
            cmx_managed=cmx_managed,
        )
        for platform, dest in destinations.items()
    )
    return InstallPlan(tool, scope, source_checksum, state.cmx_present, force, targets)
