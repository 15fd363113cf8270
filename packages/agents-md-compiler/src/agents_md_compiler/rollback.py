"""Rollback of one install receipt: validate, plan, restore under the advisory lock.

Resumable: before the target is touched, a rollback journal (identity only)
records which receipt is being undone and what the target will hold afterwards.
If the process dies after restoring but before its receipt is written, the next
`rollback --apply` of the same receipt finds the journal, sees the target already
in the journalled state, and writes the missing receipt instead of refusing the
now-changed target as a concurrent change.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from agents_md_compiler.atomic import atomic_write, ensure_private_dir, remove_orphan_temps
from agents_md_compiler.errors import (
    BundleState,
    ConcurrentChangeError,
    ReceiptError,
)
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
from agents_md_compiler.target import TargetObservation, observe_again, observe_target
from agents_md_compiler.version import installed_version


@dataclass(frozen=True)
class RollbackPlan:
    receipt: InstallReceipt
    target_path: PathPair
    current: TargetObservation
    backup: bytes | None
    state: BundleState
    dirs: DeploymentDirs
    resume: dict[str, object] | None


@dataclass(frozen=True)
class RollbackResult:
    state: BundleState
    restored_sha256: str | None
    preserved_path: str | None
    receipt_written: str
    resumed: bool


def plan_rollback(
    receipt_path: PathPair,
    bundle_id: str,
    target_path: PathPair,
    root: str,
    limits: BundleLimits = DEFAULT_LIMITS,
) -> RollbackPlan:
    current_root = deployment_dir(root, bundle_id, target_path.resolved)
    legacy_root = legacy_bundle_dir(root, bundle_id)
    in_legacy = is_within(receipt_path.resolved, legacy_root)
    container = (
        legacy_root
        if in_legacy and not is_within(receipt_path.resolved, current_root)
        else current_root
    )
    if not is_within(receipt_path.resolved, container):
        raise _error(receipt_path, f"receipt is not under the expected state root {container}")
    receipt = load_install_receipt(receipt_path, limits.max_receipt_bytes)
    if receipt.bundle_id != bundle_id:
        raise _error(receipt_path, f"receipt bundle_id {receipt.bundle_id!r} does not match")
    if receipt.target_resolved != target_path.resolved:
        raise _error(receipt_path, "receipt target_path does not match the selected target")
    if receipt.backup_path is not None and not is_within(
        os.path.normpath(receipt.backup_path), container
    ):
        raise _error(receipt_path, "receipt backup path escapes the expected state root")
    dirs = DeploymentDirs(current_root)
    current = observe_target(target_path)
    restored_state = BundleState.MISSING if receipt.backup_path is None else BundleState.DRIFTED
    resume = _resumable(dirs, receipt, current)
    if resume is not None:
        return RollbackPlan(receipt, target_path, current, None, restored_state, dirs, resume)
    if current.sha256 != receipt.installed_sha256:
        raise ConcurrentChangeError(
            f"target changed after its precondition was captured (receipt installed "
            f"{receipt.installed_sha256}, target is {current.sha256})",
            lexical=target_path.resolved,
        )
    backup = _read_backup(receipt, receipt_path)
    return RollbackPlan(receipt, target_path, current, backup, restored_state, dirs, None)


def _read_backup(receipt: InstallReceipt, receipt_path: PathPair) -> bytes | None:
    if receipt.backup_path is None:
        return None
    try:
        data = read_regular(receipt.backup_path, 1 << 40).data
    except ReadProblem as exc:
        raise _error(receipt_path, f"receipt backup file {exc}: {receipt.backup_path}") from None
    if sha256_hex(data) != receipt.backup_sha256:
        raise _error(receipt_path, "receipt backup content does not match its recorded digest")
    return data


def _resumable(
    dirs: DeploymentDirs, receipt: InstallReceipt, current: TargetObservation
) -> dict[str, object] | None:
    """The journal of an interrupted rollback of this receipt whose restore already happened."""
    try:
        data = read_regular(dirs.rollback_journal, 1 << 20).data
        journal = json.loads(data.decode("utf-8"))
    except (ReadProblem, ValueError, RecursionError):
        return None
    if not isinstance(journal, dict) or journal.get("source_sha256") != receipt.sha256:
        return None
    if current.sha256 != journal.get("restored_sha256"):
        return None  # not restored yet (or changed since): the normal rules apply
    preserved = journal.get("preserved_path")
    if preserved is not None and not (isinstance(preserved, str) and Path(preserved).is_file()):
        return None
    return journal


def rollback_paths(plan: RollbackPlan, lock_file: str) -> tuple[list[str], list[str]]:
    """Every path a `rollback --apply` would read and write (the dry run prints them)."""
    reads = [plan.receipt.path, plan.target_path.resolved]
    if plan.receipt.backup_path is not None:
        reads.append(plan.receipt.backup_path)
    writes = [plan.target_path.resolved]
    if plan.receipt.backup_path is None:
        writes.append(
            str(Path(plan.dirs.preserved, f"<stamp>.{plan.receipt.installed_sha256}.generated"))
        )
    writes += [
        str(Path(plan.dirs.receipts, "<stamp>-rollback-<operation id>.json")),
        plan.dirs.rollback_journal,
        lock_file,
    ]
    return reads, writes


def apply_rollback(plan: RollbackPlan, root: str, seams: Seams) -> RollbackResult:
    target = plan.target_path.resolved
    dirs = plan.dirs
    for directory in (dirs.receipts, dirs.preserved):
        ensure_private_dir(directory)
    seams.hooks.before_recheck(target)
    with advisory_lock(advisory_lock_path(root, target), seams.lock_timing):
        current = _recheck(plan)
        remove_orphan_temps(str(Path(target).parent))
        if plan.resume is not None:
            return _finish(plan, dict(plan.resume), resumed=True)
        now = seams.clock()
        journal: dict[str, object] = {
            "operation": "rollback",
            "operation_id": seams.operation_id(),
            "stamp": stamp(now),
            "completed_at": completed_at(now),
            "source_sha256": plan.receipt.sha256,
            "previous_target": _record(current, current.kind.value),
            "restored_sha256": None if plan.backup is None else sha256_hex(plan.backup),
            "restored": None,
            "preserved_path": None,
        }
        if plan.backup is None:
            preserved = str(
                Path(dirs.preserved, f"{stamp(now)}.{plan.receipt.installed_sha256}.generated")
            )
            journal["preserved_path"] = preserved
            atomic_write(dirs.rollback_journal, canonical_json(journal))
            Path(target).replace(preserved)
            Path(preserved).chmod(0o600)
        else:
            mode = plan.receipt.previous_mode
            file_mode = NEW_TARGET_MODE if mode is None else int(mode, 8)
            journal["restored"] = {
                "sha256": sha256_hex(plan.backup),
                "size_bytes": len(plan.backup),
                "mode": format_mode(file_mode),
            }
            atomic_write(dirs.rollback_journal, canonical_json(journal))
            atomic_write(target, plan.backup, file_mode)
            if observe_target(plan.target_path).sha256 != journal["restored_sha256"]:
                raise ConcurrentChangeError(
                    "the restored target does not match the backup", lexical=target
                )
        seams.hooks.after_replace(target)
        return _finish(plan, journal, resumed=False)


def _recheck(plan: RollbackPlan) -> TargetObservation:
    target = plan.target_path.resolved
    current = observe_again(plan.target_path)
    if current.sha256 != plan.current.sha256:
        raise ConcurrentChangeError(
            "target changed after its precondition was captured", lexical=target
        )
    return current


def _finish(plan: RollbackPlan, journal: dict[str, object], *, resumed: bool) -> RollbackResult:
    """Write the rollback receipt the journal describes, then drop the journal."""
    receipt_written = str(
        Path(plan.dirs.receipts, f"{journal['stamp']}-rollback-{journal['operation_id']}.json")
    )
    document = rollback_receipt(plan, journal)
    atomic_write(receipt_written, canonical_json(document))
    with contextlib.suppress(FileNotFoundError):
        Path(plan.dirs.rollback_journal).unlink()
    restored = journal["restored"]
    restored_sha = str(restored["sha256"]) if isinstance(restored, dict) else None
    preserved = journal["preserved_path"]
    return RollbackResult(
        plan.state,
        restored_sha,
        preserved if isinstance(preserved, str) else None,
        receipt_written,
        resumed,
    )


def _record(current: TargetObservation, state: str) -> dict[str, object]:
    return {
        "state": state,
        "sha256": current.sha256,
        "size_bytes": current.size_bytes,
        "mode": None if current.mode is None else format_mode(current.mode),
    }


def rollback_receipt(plan: RollbackPlan, journal: dict[str, object]) -> dict[str, object]:
    source = plan.receipt.document
    copied = (
        "bundle_id",
        "manifest_path",
        "lock_path",
        "target_path",
        "manifest_sha256",
        "lock_sha256",
        "modules",
        "backup",
    )
    document: dict[str, object] = {key: source[key] for key in copied}
    document.update(
        {
            "receipt_schema_version": 1,
            "operation": "rollback",
            "operation_id": journal["operation_id"],
            "compiler_version": installed_version(),
            "previous_target": journal["previous_target"],
            "restored": journal["restored"],
            "source_receipt": {
                "path": plan.receipt.path,
                "sha256": plan.receipt.sha256,
                "operation_id": plan.receipt.operation_id,
            },
            "preserved_path": journal["preserved_path"],
            "completed_at": journal["completed_at"],
            "runtime_verification": None,
        }
    )
    return document


def _error(path: PathPair, message: str) -> ReceiptError:
    return ReceiptError(message, lexical=path.lexical, resolved=path.resolved)
