"""apply(): the only code path that writes skills, lock entries and source registrations."""

from __future__ import annotations

from pathlib import Path

from cmx_core._actions import Downgrade, Update
from cmx_core._bundle import SkillFile
from cmx_core._checksum import checksum_pairs, is_canonical, read_canonical_tree
from cmx_core._config import artifact_home, load_config
from cmx_core._environment import Clock, rfc3339
from cmx_core._errors import BlockedPlanError, ParityError
from cmx_core._identity import ToolIdentity
from cmx_core._lockfile import LockEntry, LockSource, load_lockfile, save_lockfile
from cmx_core._paths import Layout
from cmx_core._plan import InstallPlan
from cmx_core._platforms import ArtifactKind
from cmx_core._report import Report, TargetOutcome
from cmx_core._scopelock import scope_lock
from cmx_core._sources import bundled_source_name, register
from cmx_core._treewriter import commit_trees, stage_tree


def discarded_paths(dest: Path, files: tuple[SkillFile, ...]) -> tuple[Path, ...]:
    """Canonical files a forced replace loses: changed, added locally, or missing (§9)."""
    if not dest.exists():
        return ()
    installed = read_canonical_tree(dest)
    bundled = {f.rel_path: f.data for f in files if is_canonical(f.rel_path)}
    changed = [
        rel for rel in set(installed) | set(bundled) if installed.get(rel) != bundled.get(rel)
    ]
    changed.sort(key=lambda rel: rel.split("/"))
    return tuple(dest.joinpath(*rel.split("/")) for rel in changed)


def skill_lock_entry(tool: ToolIdentity, checksum: str, installed_at: str) -> LockEntry:
    return LockEntry(
        kind=ArtifactKind.SKILL,
        version=tool.version,
        installed_at=installed_at,
        source=LockSource(repo=tool.source_repo, path=f"skills/{tool.name}"),
        source_checksum=checksum,
        installed_checksum=checksum,
    )


def check_preconditions(plan: InstallPlan, files: tuple[SkillFile, ...]) -> None:
    if plan.is_blocked:
        raise BlockedPlanError(plan.tool.name)
    if checksum_pairs((f.rel_path, f.data) for f in files) != plan.source_checksum:
        raise ParityError(plan.tool.name)


def apply_plan(
    plan: InstallPlan, files: tuple[SkillFile, ...], layout: Layout, clock: Clock
) -> Report:
    """`files` are the reconciled bundle; the caller re-reconciles before calling."""
    check_preconditions(plan, files)
    with scope_lock(layout.lock_dir(plan.scope)):
        return _apply_locked(plan, files, layout, clock)


def _apply_locked(
    plan: InstallPlan, files: tuple[SkillFile, ...], layout: Layout, clock: Clock
) -> Report:
    writing = [t for t in plan.targets if t.action.will_write]
    replaced = {
        t.dest_dir for t in writing if plan.force and isinstance(t.action, Update | Downgrade)
    }
    discarded = {dest: discarded_paths(dest, files) for dest in sorted(replaced)}
    config = load_config(layout)
    registering = plan.cmx_present and config.managed_platforms is not None
    materialized = layout.materialized_path(
        artifact_home(config, layout), ArtifactKind.SKILL, plan.tool.name
    )
    # Everything is staged before anything existing is touched, so a failure while
    # writing leaves the previous install intact.
    trees = [
        stage_tree(dest, files, replace=dest in replaced)
        for dest in dict.fromkeys(t.dest_dir for t in writing)
    ]
    if registering:
        trees.append(stage_tree(materialized, files))
    commit_trees(trees)

    installed_at = rfc3339(clock.now())
    entry = skill_lock_entry(plan.tool, plan.source_checksum, installed_at)
    outcomes = []
    for target in plan.targets:
        if not target.action.will_write:
            outcomes.append(
                TargetOutcome(target.platform, target.dest_dir, target.action, 0, None, ())
            )
            continue
        lock_path = layout.lock_path(target.platform, plan.scope)
        save_lockfile(lock_path, load_lockfile(lock_path).with_entry(plan.tool.name, entry))
        outcomes.append(
            TargetOutcome(
                target.platform,
                target.dest_dir,
                target.action,
                len(target.files),
                plan.source_checksum,
                discarded.get(target.dest_dir, ()),
            )
        )
    if registering:
        register(
            layout.sources_path,
            bundled_source_name(plan.tool.name),
            materialized,
            installed_at,
            replace=False,
        )
    return Report(plan.tool, plan.scope, tuple(outcomes), registering)
