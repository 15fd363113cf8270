"""status(): installed / tracked / version / drift per targeted platform."""

from __future__ import annotations

from cmx_core._checksum import checksum_installed
from cmx_core._paths import Layout
from cmx_core._platforms import ArtifactKind, Scope
from cmx_core._report import Status, TargetStatus
from cmx_core._survey import read_state


def artifact_status(name: str, kind: ArtifactKind, scope: Scope, layout: Layout) -> Status:
    state = read_state(layout, scope)
    targets = []
    for platform in state.install_targets(kind):
        path = layout.artifact_path(platform, kind, scope, name)
        assert path is not None  # install targets are filtered to platforms with this kind
        entry = state.locks[platform].packages.get(name)
        installed = path.exists()
        drifted = (
            installed and entry is not None and checksum_installed(path) != entry.installed_checksum
        )
        targets.append(
            TargetStatus(
                platform=platform,
                dest_dir=path,
                installed=installed,
                tracked=entry is not None,
                installed_version=entry.version if entry is not None else None,
                drifted=drifted,
            )
        )
    return Status(name, scope, tuple(targets))
