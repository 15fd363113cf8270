"""Rollback of one install receipt: validate, plan, restore under the advisory lock."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from agents_md_compiler.atomic import atomic_write, ensure_private_dir
from agents_md_compiler.errors import BundleState, ConcurrentChangeError, ReceiptError
from agents_md_compiler.fileio import ReadProblem, read_regular
from agents_md_compiler.install_plan import NEW_TARGET_MODE
from agents_md_compiler.lockfile import canonical_json
from agents_md_compiler.locking import advisory_lock
from agents_md_compiler.models import DEFAULT_LIMITS, BundleLimits, PathPair, sha256_hex
from agents_md_compiler.paths import (
    advisory_lock_path,
    deployment_dir,
    is_within,
    legacy_bundle_dir,
)
from agents_md_compiler.receipts import (
    DeploymentDirs,
    InstallReceipt,
    format_mode,
    load_install_receipt,
)
from agents_md_compiler.seams import Seams, completed_at, stamp
from agents_md_compiler.target import TargetObservation, observe_target
from agents_md_compiler.version import installed_version


@dataclass(frozen=True)
class RollbackPlan:
    receipt: InstallReceipt
    target_path: PathPair
    current: TargetObservation
    backup: bytes | None
    state: BundleState
    dirs: DeploymentDirs


@dataclass(frozen=True)
class RollbackResult:
    state: BundleState
    restored_sha256: str | None
    preserved_path: str | None
    receipt_written: str


def plan_rollback(
    receipt_path: PathPair,
    bundle_id: str,
    target_path: PathPair,
    root: str,
    limits: BundleLimits = DEFAULT_LIMITS,
) -> RollbackPlan:
    current_root = deployment_dir(root, bundle_id, target_path.resolved)
    legacy_root = legacy_bundle_dir(root, bundle_id)
    container = next(
        (r for r in (current_root, legacy_root) if is_within(receipt_path.resolved, r)), None
    )
    if container is None:
        raise _error(receipt_path, "receipt is not under this bundle and target's deployment root")
    receipt = load_install_receipt(receipt_path, limits.max_receipt_bytes)
    if receipt.bundle_id != bundle_id:
        raise _error(receipt_path, f"receipt bundle_id {receipt.bundle_id!r} does not match")
    if receipt.target_resolved != target_path.resolved:
        raise _error(receipt_path, "receipt target_path does not match the selected target")
    backup = _read_backup(receipt, receipt_path, container)
    current = observe_target(target_path.resolved)
    if current.sha256 != receipt.installed_sha256:
        raise ConcurrentChangeError(
            "target digest does not equal the receipt's installed digest",
            lexical=target_path.lexical,
            resolved=target_path.resolved,
        )
    state = BundleState.MISSING if backup is None else BundleState.DRIFTED
    return RollbackPlan(receipt, target_path, current, backup, state, DeploymentDirs(current_root))


def _read_backup(receipt: InstallReceipt, receipt_path: PathPair, container: str) -> bytes | None:
    if receipt.backup_path is None:
        return None
    if not is_within(os.path.normpath(receipt.backup_path), container):
        raise _error(receipt_path, "receipt backup is outside the receipt's deployment root")
    try:
        data = read_regular(receipt.backup_path, 1 << 40).data
    except ReadProblem as exc:
        raise _error(receipt_path, f"receipt backup {exc}") from None
    if sha256_hex(data) != receipt.backup_sha256:
        raise _error(receipt_path, "receipt backup does not match its recorded digest")
    return data


def apply_rollback(plan: RollbackPlan, root: str, seams: Seams) -> RollbackResult:
    target = plan.target_path.resolved
    dirs = plan.dirs
    for directory in (dirs.receipts, dirs.preserved):
        ensure_private_dir(directory)
    seams.hooks.before_recheck(target)
    with advisory_lock(advisory_lock_path(root, target), seams.lock_timing):
        now = seams.clock()
        opid = seams.operation_id()
        current = observe_target(target)
        if current.fingerprint() != plan.current.fingerprint():
            raise ConcurrentChangeError(
                "target changed after the precondition was captured",
                lexical=plan.target_path.lexical,
                resolved=target,
            )
        preserved: str | None = None
        restored: dict[str, object] | None = None
        if plan.backup is None:
            preserved = str(Path(dirs.preserved, f"{stamp(now)}.{current.sha256}.generated"))
            Path(target).replace(preserved)
        else:
            mode = plan.receipt.previous_mode
            file_mode = NEW_TARGET_MODE if mode is None else int(mode, 8)
            atomic_write(target, plan.backup, file_mode)
            restored = {
                "sha256": sha256_hex(plan.backup),
                "size_bytes": len(plan.backup),
                "mode": format_mode(file_mode),
            }
        receipt_written = str(Path(dirs.receipts, f"{stamp(now)}-rollback-{opid}.json"))
        document = rollback_receipt(plan, current, opid, restored, preserved, completed_at(now))
        atomic_write(receipt_written, canonical_json(document))
    restored_sha = None if restored is None else str(restored["sha256"])
    return RollbackResult(plan.state, restored_sha, preserved, receipt_written)


def rollback_receipt(
    plan: RollbackPlan,
    current: TargetObservation,
    opid: str,
    restored: dict[str, object] | None,
    preserved: str | None,
    done: str,
) -> dict[str, object]:
    source = plan.receipt.document
    copied = (
        "bundle_id",
        "manifest_path",
        "lock_path",
        "manifest_sha256",
        "lock_sha256",
        "modules",
    )
    document: dict[str, object] = {key: source[key] for key in copied}
    document.update(
        {
            "receipt_schema_version": 1,
            "operation": "rollback",
            "operation_id": opid,
            "compiler_version": installed_version(),
            "target_path": plan.target_path.as_json(),
            "previous_target": {
                "state": "MANAGED",
                "sha256": current.sha256,
                "size_bytes": current.size_bytes,
                "mode": None if current.mode is None else format_mode(current.mode),
            },
            "backup": source["backup"],
            "restored": restored,
            "source_receipt": {
                "path": plan.receipt.path,
                "sha256": plan.receipt.sha256,
                "operation_id": plan.receipt.operation_id,
            },
            "preserved_path": preserved,
            "completed_at": done,
            "runtime_verification": None,
        }
    )
    return document


def _error(path: PathPair, message: str) -> ReceiptError:
    return ReceiptError(message, lexical=path.lexical, resolved=path.resolved)
