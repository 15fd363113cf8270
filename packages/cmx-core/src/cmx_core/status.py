"""status(): installed / tracked / version / drift per targeted platform."""

from __future__ import annotations

from cmx_core.checksum import checksum_dir
from cmx_core.paths import Layout
from cmx_core.platforms import ArtifactKind, Scope
from cmx_core.report import Status, TargetStatus
from cmx_core.survey import read_state


def skill_status(name: str, scope: Scope, layout: Layout) -> Status:
    state = read_state(layout, scope)
    targets = []
    for platform in state.install_targets(ArtifactKind.SKILL):
        skill_dir = layout.skill_dir(platform, scope, name)
        entry = state.locks[platform].packages.get(name)
        installed = skill_dir.is_dir()
        drifted = (
            installed and entry is not None and checksum_dir(skill_dir) != entry.installed_checksum
        )
        targets.append(
            TargetStatus(
                platform=platform,
                dest_dir=skill_dir,
                installed=installed,
                tracked=entry is not None,
                installed_version=entry.version if entry is not None else None,
                drifted=drifted,
            )
        )
    return Status(name, scope, tuple(targets))
