"""Gather one observation of each input and classify it (the read-only core)."""

from __future__ import annotations

from dataclasses import dataclass

from agents_md_compiler.errors import BundleState, TargetError
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


def evaluate(bundle: CompiledBundle, lock_path: PathPair, target_path: PathPair) -> Evaluation:
    check_target_alias(bundle.manifest, target_path.resolved)
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
