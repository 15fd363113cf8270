"""remove(): over the managed-or-all set, delete artifacts and clear lock entries (§8.3)."""

from __future__ import annotations

from pathlib import Path

from cmx_core._config import artifact_home, load_config
from cmx_core._lockfile import load_lockfile, save_lockfile
from cmx_core._paths import Layout
from cmx_core._platforms import ArtifactKind, Platform, Scope
from cmx_core._report import RemoveReport
from cmx_core._scopelock import scope_lock
from cmx_core._sources import bundled_source_name, registered_path, unregister
from cmx_core._targets import resolve_remove_targets
from cmx_core._treewriter import remove_path


def remove_artifact(name: str, kind: ArtifactKind, scope: Scope, layout: Layout) -> RemoveReport:
    config = load_config(layout)
    platforms = resolve_remove_targets(kind, config.managed_platforms)
    with scope_lock(layout.lock_dir(scope)):
        paths: dict[Path, None] = {}
        cleared: list[Platform] = []
        for platform in platforms:
            path = layout.artifact_path(platform, kind, scope, name)
            if path is not None and (path.exists() or path.is_symlink()):
                paths[path] = None
            lock_path = layout.lock_path(platform, scope)
            lock = load_lockfile(lock_path)
            if name in lock.packages:
                # Lockfiles are rewritten, never deleted: cmx-lock.json is shared.
                save_lockfile(lock_path, lock.without(name))
                cleared.append(platform)
        removed = tuple(sorted(paths))
        for path in removed:
            remove_path(path)
        ours = layout.materialized_path(artifact_home(config, layout), kind, name)
        unregistered = _unregister_source(name, layout, ours)
    return RemoveReport(name, scope, removed, tuple(cleared), unregistered)


def _unregister_source(name: str, layout: Layout, ours: Path) -> bool:
    source = bundled_source_name(name)
    present, path = registered_path(layout.sources_path, source)
    if not present:
        return False
    # Only the copy apply() materialised is deleted; a hand-edited path is left alone.
    if path is not None and path == ours and (path.exists() or path.is_symlink()):
        remove_path(path)
    return unregister(layout.sources_path, source)
