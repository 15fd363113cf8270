"""remove(): over the managed-or-all set, delete dirs and clear lock entries (§8.3)."""

from __future__ import annotations

from pathlib import Path

from cmx_core.config import artifact_home, load_config
from cmx_core.lockfile import load_lockfile, save_lockfile
from cmx_core.paths import Layout
from cmx_core.platforms import ArtifactKind, Platform, Scope
from cmx_core.report import RemoveReport
from cmx_core.scopelock import scope_lock
from cmx_core.sources import bundled_source_name, registered_path, unregister
from cmx_core.targets import resolve_remove_targets
from cmx_core.treewriter import remove_path


def remove_skill(name: str, scope: Scope, layout: Layout) -> RemoveReport:
    config = load_config(layout)
    platforms = resolve_remove_targets(ArtifactKind.SKILL, config.managed_platforms)
    with scope_lock(layout.lock_dir(scope)):
        dirs: dict[Path, None] = {}
        cleared: list[Platform] = []
        for platform in platforms:
            skill_dir = layout.skill_dir(platform, scope, name)
            if skill_dir.exists() or skill_dir.is_symlink():
                dirs[skill_dir] = None
            lock_path = layout.lock_path(platform, scope)
            lock = load_lockfile(lock_path)
            if name in lock.packages:
                # Lockfiles are rewritten, never deleted: cmx-lock.json is shared.
                save_lockfile(lock_path, lock.without(name))
                cleared.append(platform)
        removed = tuple(sorted(dirs))
        for skill_dir in removed:
            remove_path(skill_dir)
        unregistered = _unregister_source(name, layout, artifact_home(config, layout))
    return RemoveReport(name, scope, removed, tuple(cleared), unregistered)


def _unregister_source(name: str, layout: Layout, home: Path) -> bool:
    source = bundled_source_name(name)
    present, path = registered_path(layout.sources_path, source)
    if not present:
        return False
    # Only the copy apply() materialised is deleted; a hand-edited path is left alone.
    ours = home / "skills" / name
    if path is not None and path == ours and (path.exists() or path.is_symlink()):
        remove_path(path)
    return unregister(layout.sources_path, source)
