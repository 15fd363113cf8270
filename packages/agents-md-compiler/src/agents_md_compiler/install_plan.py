"""Pure-ish install planning: the refusals, the reported state, and what a run would touch."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from agents_md_compiler.errors import (
    BundleState,
    ShadowedError,
    UnmanagedTargetError,
    UsageError,
)
from agents_md_compiler.evaluate import Evaluation
from agents_md_compiler.receipts import DeploymentDirs
from agents_md_compiler.target import TargetKind, TargetObservation, require_parent

NEW_TARGET_MODE = 0o600


@dataclass(frozen=True)
class InstallOptions:
    apply: bool = False
    replace_unmanaged: bool = False
    expect_sha256: str | None = None


@dataclass(frozen=True)
class InstallPlan:
    state: BundleState
    previous: TargetObservation
    target_mode: int

    @property
    def previous_state(self) -> str:
        return str(self.previous.kind)


def plan_install(ev: Evaluation, options: InstallOptions) -> InstallPlan:
    """Refuse (raise) or return the plan; ev's lock is already known to match."""
    target_path = ev.target_path
    if ev.override.present:
        raise ShadowedError(
            f"{ev.override.path} is non-empty and would be loaded instead of "
            f"{target_path.resolved}; resolve the override explicitly",
            lexical=ev.override.path,
        )
    require_parent(target_path)
    target = ev.target
    assert target is not None  # evaluate observed it: the lock matched and nothing shadows
    resolved = target_path.resolved
    if target.kind is TargetKind.UNMANAGED and not options.replace_unmanaged:
        raise UnmanagedTargetError(
            "replacing an unmanaged target requires --replace-unmanaged "
            f"({_unmanaged_detail(target)}) at {resolved}",
            lexical=resolved,
        )
    if target.kind is TargetKind.UNMANAGED and options.expect_sha256 is None:
        raise UnmanagedTargetError(
            f"--replace-unmanaged requires --expect-target-sha256 at {resolved}", lexical=resolved
        )
    if options.expect_sha256 is not None and options.expect_sha256 != target.sha256:
        raise UnmanagedTargetError(
            "target digest does not match --expect-target-sha256 "
            f"(expected {options.expect_sha256}, observed {target.sha256}) at {resolved}",
            lexical=resolved,
        )
    if target_path.resolved in (ev.bundle.manifest.path.resolved, ev.lock_path.resolved):
        raise UsageError(  # hardening: adoption never replaces the inputs themselves
            "the selected target is the manifest or the lock file",
            lexical=target_path.lexical,
            resolved=target_path.resolved,
        )
    mode = NEW_TARGET_MODE if target.mode is None else target.mode
    if target.sha256 == ev.bundle.rendered_sha256:
        state = BundleState.CURRENT
    elif target.kind is TargetKind.MISSING:
        state = BundleState.MISSING
    else:
        state = BundleState.DRIFTED
    return InstallPlan(state, target, mode)


def _unmanaged_detail(target: TargetObservation) -> str:
    if target.declared_format is not None:
        return "declares an unrecognized generated format"
    return "no generated header"


def touched_paths(
    ev: Evaluation, plan: InstallPlan, dirs: DeploymentDirs, lock_file: str
) -> tuple[list[str], list[str]]:
    """Every path an `install --apply` would read and write (the dry run prints them)."""
    bundle = ev.bundle
    reads = [bundle.manifest.path.resolved, ev.lock_path.resolved]
    reads += [spec.resolved_source for spec in bundle.manifest.modules]
    if ev.override.path is not None:
        reads.append(ev.override.path)
    reads.append(ev.target_path.resolved)
    writes = [ev.target_path.resolved]
    if plan.previous.content is not None:
        writes.append(str(Path(dirs.backups, f"<stamp>.{plan.previous.sha256}.bak")))
    writes += [
        str(Path(dirs.receipts, "<stamp>-install-<operation id>.json")),
        dirs.last_installed,
        dirs.journal,
        lock_file,
    ]
    return reads, writes
