"""Gather one observation of each input and classify it (the read-only core)."""

from __future__ import annotations

from dataclasses import dataclass

from agents_md_compiler.errors import BundleState, TargetError, UsageError
from agents_md_compiler.lockfile import read_lock_bytes
from agents_md_compiler.manifest import check_target_alias
from agents_md_compiler.models import CompiledBundle, PathPair
from agents_md_compiler.state import LockStatus, classify, lock_status
from agents_md_compiler.target import (
    OverrideObservation,
    TargetKind,
    TargetObservation,
    observe_override,
    observe_target,
)


@dataclass(frozen=True)
class Evaluation:
    bundle: CompiledBundle
    lock_path: PathPair
    lock: LockStatus
    target_path: PathPair
    target: TargetObservation
    override: OverrideObservation
    state: BundleState


def evaluate_lock(bundle: CompiledBundle, lock_path: PathPair) -> LockStatus:
    return lock_status(read_lock_bytes(lock_path), lock_path, bundle)


def check_distinct_outputs(bundle: CompiledBundle, lock_path: PathPair, target: PathPair) -> None:
    """The target must never be a source (INVALID_MANIFEST), the manifest or the lock."""
    check_target_alias(bundle.manifest, target.resolved)
    where = {"lexical": target.lexical, "resolved": target.resolved}
    if target.resolved in (bundle.manifest.path.resolved, lock_path.resolved):
        raise UsageError("the selected target is the manifest or the lock file", **where)


def check_lock_destination(bundle: CompiledBundle, lock_path: PathPair) -> None:
    sources = {spec.resolved_source for spec in bundle.manifest.modules}
    if lock_path.resolved in sources | {bundle.manifest.path.resolved}:
        raise UsageError(
            "the lock path is the manifest or a source",
            lexical=lock_path.lexical,
            resolved=lock_path.resolved,
        )


def evaluate(bundle: CompiledBundle, lock_path: PathPair, target_path: PathPair) -> Evaluation:
    check_distinct_outputs(bundle, lock_path, target_path)
    lock = evaluate_lock(bundle, lock_path)
    target = observe_target(target_path.resolved)
    if target.kind is TargetKind.OTHER:
        raise TargetError(
            "target is not a regular file",
            lexical=target_path.lexical,
            resolved=target_path.resolved,
        )
    override = observe_override(target_path.resolved)
    state = classify(lock, override, target, bundle.rendered_sha256)
    return Evaluation(bundle, lock_path, lock, target_path, target, override, state)
