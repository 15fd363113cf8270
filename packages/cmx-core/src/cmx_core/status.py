"""status(): installed / tracked / version / drift per targeted platform."""

from __future__ import annotations

from cmx_core.checksum import checksum_dir
from cmx_core.config import load_config
from cmx_core.paths import Layout
from cmx_core.platforms import ArtifactKind, Scope
from cmx_core.report import Status, TargetStatus
from cmx_core.survey import read_locks
from cmx_core.targets import resolve_install_targets


def skill_status(name: str, scope: Scope, layout: Layout) -> Status:
    config = load_config(layout)
    locks = read_locks(layout, scope)
    platforms = resolve_install_targets(
        ArtifactKind.SKILL,
        config.managed_platforms,
        (p for p, lock in locks.items() if lock.packages),
    )
    targets = []
    for platform in platforms:
        skill_dir = layout.skill_dir(platform, scope, name)
        entry = locks[platform].packages.get(name)
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
