"""Pure state classification, in the contract's precedence order."""

from __future__ import annotations

from dataclasses import dataclass

from agents_md_compiler.errors import BundleState
from agents_md_compiler.lockfile import parse_lock, staleness
from agents_md_compiler.models import CompiledBundle, Lock, PathPair
from agents_md_compiler.target import OverrideObservation, TargetObservation


@dataclass(frozen=True)
class LockStatus:
    """LOCK_MISSING, LOCK_STALE or None (matches); parse failures raise LockError."""

    present: bool
    state: BundleState | None
    reason: str | None
    parsed: Lock | None


def lock_status(on_disk: bytes | None, path: PathPair, bundle: CompiledBundle) -> LockStatus:
    if on_disk is None:
        return LockStatus(False, BundleState.LOCK_MISSING, "lock does not exist", None)
    parsed = parse_lock(on_disk, path)
    reason = staleness(on_disk, parsed, bundle.lock, bundle.lock_bytes)
    return LockStatus(True, None if reason is None else BundleState.LOCK_STALE, reason, parsed)


def target_state(target: TargetObservation, rendered_sha256: str) -> BundleState:
    if target.content is None:
        return BundleState.MISSING
    if not target.managed:
        return BundleState.UNMANAGED_TARGET
    if target.sha256 == rendered_sha256:
        return BundleState.CURRENT
    return BundleState.DRIFTED


def classify(
    lock: LockStatus,
    override: OverrideObservation,
    target: TargetObservation,
    rendered_sha256: str,
) -> BundleState:
    """Invalid inputs were raised earlier; then lock, shadowing, target."""
    if lock.state is not None:
        return lock.state
    if override.present:
        return BundleState.SHADOWED
    return target_state(target, rendered_sha256)
