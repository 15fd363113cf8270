"""Gather one observation of each input and classify it (the read-only core).

Order, as the contract's precedence and the reference have it: the manifest
(refusing a source that is the target), the sources, the lock, shadowing, and
only then the target. A target that cannot be used (a symlink, a directory) is
therefore not even looked at while the lock is missing or stale.
"""

from __future__ import annotations

from dataclasses import dataclass

from agents_md_compiler.compile import compile_bundle
from agents_md_compiler.errors import BundleState
from agents_md_compiler.lockfile import read_lock_bytes
from agents_md_compiler.manifest import check_target_alias
from agents_md_compiler.models import CompiledBundle, Manifest, PathPair
from agents_md_compiler.state import LockStatus, lock_bytes_status, lock_status, target_state
from agents_md_compiler.target import (
    OverrideObservation,
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
    target: TargetObservation | None
    override: OverrideObservation
    state: BundleState

    @property
    def target_sha256(self) -> str | None:
        return None if self.target is None else self.target.sha256


def compile_for(manifest: Manifest, target: PathPair | None) -> CompiledBundle:
    """A source may never be the target: the explicit one, else the manifest default."""
    resolved = manifest.default_target_resolved if target is None else target.resolved
    check_target_alias(manifest, resolved)
    return compile_bundle(manifest)


def evaluate_lock_bytes(bundle: CompiledBundle, lock_path: PathPair) -> LockStatus:
    return lock_bytes_status(read_lock_bytes(lock_path), bundle)


def evaluate(manifest: Manifest, lock_path: PathPair, target_path: PathPair) -> Evaluation:
    bundle = compile_for(manifest, target_path)
    override = observe_override(target_path.resolved)
    lock = lock_status(read_lock_bytes(lock_path), lock_path, bundle)

    def result(state: BundleState, target: TargetObservation | None = None) -> Evaluation:
        return Evaluation(bundle, lock_path, lock, target_path, target, override, state)

    if lock.state is not None:
        return result(lock.state)
    if override.present:
        return result(BundleState.SHADOWED)
    target = observe_target(target_path)
    return result(target_state(target, bundle.rendered_sha256), target)
