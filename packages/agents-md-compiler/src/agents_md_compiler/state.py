"""Pure state classification, in the contract's precedence order."""

from __future__ import annotations

from dataclasses import dataclass

from agents_md_compiler.errors import BundleState
from agents_md_compiler.lockfile import parse_lock, staleness
from agents_md_compiler.models import CompiledBundle, Lock, PathPair
from agents_md_compiler.target import TargetKind, TargetObservation


@dataclass(frozen=True)
class LockStatus:
    """LOCK_MISSING, LOCK_STALE or None (matches); parse failures raise LockError."""

    present: bool
    state: BundleState | None
    parsed: Lock | None


def lock_status(on_disk: bytes | None, path: PathPair, bundle: CompiledBundle) -> LockStatus:
    """The structural comparison check, status and install use: a lock that does not
    parse is INVALID_LOCK (raised)."""
    if on_disk is None:
        return LockStatus(False, BundleState.LOCK_MISSING, None)
    parsed = parse_lock(on_disk, path)
    stale = staleness(on_disk, parsed, bundle.lock, bundle.lock_bytes) is not None
    return LockStatus(True, BundleState.LOCK_STALE if stale else None, parsed)


def lock_bytes_status(on_disk: bytes | None, bundle: CompiledBundle) -> LockStatus:
    """The byte comparison lock, validate and render --locked use: any lock that is not
    the canonical fresh bytes, parseable or not, is LOCK_STALE (as the reference does)."""
    if on_disk is None:
        return LockStatus(False, BundleState.LOCK_MISSING, None)
    if on_disk != bundle.lock_bytes:
        return LockStatus(True, BundleState.LOCK_STALE, None)
    return LockStatus(True, None, bundle.lock)


def target_state(target: TargetObservation, rendered_sha256: str) -> BundleState:
    if target.kind is TargetKind.MISSING:
        return BundleState.MISSING
    if target.kind is TargetKind.UNMANAGED:
        return BundleState.UNMANAGED_TARGET
    if target.sha256 == rendered_sha256:
        return BundleState.CURRENT
    return BundleState.DRIFTED
