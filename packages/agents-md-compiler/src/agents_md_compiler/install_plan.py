"""Pure install planning: which state to report and whether a write may proceed."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from agents_md_compiler.errors import BundleState, ConcurrentChangeError, TargetError
from agents_md_compiler.evaluate import Evaluation
from agents_md_compiler.target import TargetKind, TargetObservation

NEW_TARGET_MODE = 0o600


@dataclass(frozen=True)
class InstallOptions:
    apply: bool = False
    replace_unmanaged: bool = False
    expect_sha256: str | None = None


@dataclass(frozen=True)
class InstallPlan:
    state: BundleState
    proceed: bool
    previous_state: str
    previous: TargetObservation
    target_mode: int


def previous_state_of(target: TargetObservation) -> str:
    if target.content is None:
        return "MISSING"
    return "MANAGED" if target.managed else "UNMANAGED"


def plan_install(ev: Evaluation, options: InstallOptions, parent_is_dir: bool) -> InstallPlan:
    target = ev.target
    previous = previous_state_of(target)
    mode = NEW_TARGET_MODE if target.mode is None else target.mode

    def refuse(state: BundleState) -> InstallPlan:
        return InstallPlan(state, False, previous, target, mode)

    if ev.lock.state is not None:
        return refuse(ev.lock.state)
    if ev.override.present:
        return refuse(BundleState.SHADOWED)
    where = {"lexical": ev.target_path.lexical, "resolved": ev.target_path.resolved}
    if not parent_is_dir:
        parent = str(Path(ev.target_path.resolved).parent)
        raise TargetError(f"target parent directory {parent} does not exist", **where)
    if target.kind is TargetKind.SYMLINK:
        raise TargetError("target is a symbolic link; install refuses to follow it", **where)
    if target.kind is TargetKind.OTHER:
        raise TargetError("target is not a regular file", **where)
    if options.expect_sha256 is not None and options.expect_sha256 != target.sha256:
        raise ConcurrentChangeError("target digest does not equal --expect-target-sha256", **where)
    if previous == "UNMANAGED" and not options.replace_unmanaged:
        return refuse(BundleState.UNMANAGED_TARGET)
    if previous == "MISSING":
        state = BundleState.MISSING
    elif target.sha256 == ev.bundle.rendered_sha256 and previous == "MANAGED":
        state = BundleState.CURRENT
    else:
        state = BundleState.DRIFTED
    return InstallPlan(state, True, previous, target, mode)
