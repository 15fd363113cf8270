"""Apply an install plan under the advisory lock: backup, replace, verify, receipt."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from agents_md_compiler import journal
from agents_md_compiler.atomic import atomic_write, ensure_private_dir, remove_orphan_temps
from agents_md_compiler.errors import (
    BundleState,
    CompilerError,
    ConcurrentChangeError,
    MutationError,
)
from agents_md_compiler.evaluate import Evaluation
from agents_md_compiler.install_plan import InstallPlan
from agents_md_compiler.lockfile import canonical_json
from agents_md_compiler.locking import advisory_lock
from agents_md_compiler.models import sha256_hex
from agents_md_compiler.paths import advisory_lock_path, deployment_dir
from agents_md_compiler.receipts import DeploymentDirs, format_mode
from agents_md_compiler.seams import Seams, completed_at, stamp
from agents_md_compiler.target import observe_again, observe_override, observe_target
from agents_md_compiler.version import installed_version


@dataclass(frozen=True)
class InstallResult:
    state: BundleState
    backup_path: str | None
    backup_sha256: str | None
    receipt_path: str
    interrupted_journal: str | None
    removed_temps: list[str]


def apply_install(ev: Evaluation, plan: InstallPlan, root: str, seams: Seams) -> InstallResult:
    target_path = ev.target_path.resolved
    dirs = DeploymentDirs(deployment_dir(root, ev.bundle.manifest.bundle_id, target_path))
    for directory in (dirs.receipts, dirs.backups, dirs.preserved):
        ensure_private_dir(directory)
    seams.hooks.before_recheck(target_path)
    with advisory_lock(advisory_lock_path(root, target_path), seams.lock_timing):
        opid = seams.operation_id()
        _recheck(ev, plan)
        now = seams.clock()
        cleaned = remove_orphan_temps(str(Path(target_path).parent))
        interrupted = journal.set_aside(dirs, stamp(now))
        backup_path = _write_backup(dirs, plan, stamp(now))
        journal.begin(dirs, _intent(ev, plan, opid, backup_path, completed_at(now)))
        try:
            atomic_write(target_path, ev.bundle.rendered, plan.target_mode)
        except MutationError:
            journal.finish(dirs)  # nothing was replaced: no interrupted install to report
            raise
        receipt_path = str(Path(dirs.receipts, f"{stamp(now)}-install-{opid}.json"))
        try:
            seams.hooks.after_replace(target_path)
            after = observe_target(ev.target_path)
            if after.sha256 != ev.bundle.rendered_sha256:
                raise MutationError("postcondition failed: target digest differs after write")
            receipt = install_receipt(ev, plan, opid, backup_path, completed_at(now))
            atomic_write(receipt_path, canonical_json(receipt))
            last = {
                "completed_at": completed_at(now),
                "installed_sha256": ev.bundle.rendered_sha256,
                "installed_size_bytes": len(ev.bundle.rendered),
                "receipt": Path(receipt_path).name,
            }
            atomic_write(dirs.last_installed, canonical_json(last))
            journal.finish(dirs)
        except Exception as exc:
            outcome = _recover(ev, plan, dirs, backup_path, receipt_path, stamp(now), opid)
            raise MutationError(
                f"install failed after replacing the target ({_describe(exc)}); {outcome}",
                lexical=target_path,
            ) from exc
    backup_sha = None if backup_path is None else plan.previous.sha256
    return InstallResult(
        BundleState.CURRENT, backup_path, backup_sha, receipt_path, interrupted, cleaned
    )


def _intent(
    ev: Evaluation, plan: InstallPlan, opid: str, backup_path: str | None, started: str
) -> dict[str, object]:
    return {
        "operation": "install",
        "operation_id": opid,
        "started_at": started,
        "target_path": ev.target_path.as_json(),
        "previous_sha256": plan.previous.sha256,
        "backup_path": backup_path,
        "installed_sha256": ev.bundle.rendered_sha256,
    }


def _recheck(ev: Evaluation, plan: InstallPlan) -> None:
    """Under the lock: the target must be exactly what the plan observed."""
    resolved = ev.target_path.resolved
    now = observe_again(ev.target_path)
    before = plan.previous
    if before.content is None and now.content is not None:
        raise ConcurrentChangeError(
            "target appeared after it was observed to be missing", lexical=resolved
        )
    if before.content is not None and now.content is None:
        raise ConcurrentChangeError(
            "target disappeared after it was observed to exist", lexical=resolved
        )
    if now.fingerprint() != before.fingerprint():
        raise ConcurrentChangeError(
            "target changed after its precondition was captured "
            f"(expected {before.sha256}, observed {now.sha256})",
            lexical=resolved,
        )
    if observe_override(resolved).present:
        raise ConcurrentChangeError(
            "an AGENTS.override.md appeared during install", lexical=resolved
        )


def _write_backup(dirs: DeploymentDirs, plan: InstallPlan, when: str) -> str | None:
    content = plan.previous.content
    if content is None:
        return None
    path = str(Path(dirs.backups, f"{when}.{plan.previous.sha256}.bak"))
    if os.path.lexists(path):
        if Path(path).read_bytes() == content:
            return path
        raise ConcurrentChangeError("an existing backup has different content", lexical=path)
    atomic_write(path, content)
    return path


def install_receipt(
    ev: Evaluation, plan: InstallPlan, opid: str, backup_path: str | None, done: str
) -> dict[str, object]:
    previous = plan.previous
    bundle = ev.bundle
    return {
        "receipt_schema_version": 1,
        "operation": "install",
        "operation_id": opid,
        "compiler_version": installed_version(),
        "bundle_id": bundle.manifest.bundle_id,
        "manifest_path": bundle.manifest.path.as_json(),
        "lock_path": ev.lock_path.as_json(),
        "target_path": ev.target_path.as_json(),
        "manifest_sha256": bundle.manifest.sha256,
        "lock_sha256": bundle.lock_sha256,
        "modules": bundle.module_identities(),
        "previous_target": {
            "state": plan.previous_state,
            "sha256": previous.sha256,
            "size_bytes": previous.size_bytes,
            "mode": None if previous.mode is None else format_mode(previous.mode),
        },
        "backup": None
        if backup_path is None
        else {"path": backup_path, "sha256": previous.sha256, "size_bytes": previous.size_bytes},
        "installed": {
            "sha256": bundle.rendered_sha256,
            "size_bytes": len(bundle.rendered),
            "mode": format_mode(plan.target_mode),
        },
        "completed_at": done,
        "runtime_verification": None,
    }


def _recover(
    ev: Evaluation,
    plan: InstallPlan,
    dirs: DeploymentDirs,
    backup_path: str | None,
    receipt_path: str,
    when: str,
    opid: str,
) -> str:
    """Put the previous bytes back (verified) and keep the failed output for inspection."""
    target_path = ev.target_path.resolved
    try:
        current = observe_target(ev.target_path)
        if current.content is not None:
            name = f"{when}-failed-install-{opid}.{current.sha256}.generated"
            Path(target_path).replace(Path(dirs.preserved, name))
        if os.path.lexists(receipt_path):
            Path(receipt_path).replace(receipt_path + ".failed")
        if backup_path is not None and plan.previous.content is not None:
            saved = Path(backup_path).read_bytes()
            if sha256_hex(saved) != plan.previous.sha256:
                return "recovery FAILED: the backup no longer matches its digest"
            atomic_write(target_path, saved, plan.target_mode)
        restored = observe_target(ev.target_path)
    except (OSError, CompilerError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else exc.message
        return f"recovery FAILED: {why}; backup kept at {backup_path}"
    if restored.sha256 != plan.previous.sha256:
        return "recovery FAILED: the target does not match its previous digest"
    journal.finish(dirs)
    if plan.previous.content is None:
        return "recovery verified: the created target was removed"
    return "recovery verified: the previous target was restored"


def _describe(exc: Exception) -> str:
    """Name the failure without echoing arbitrary exception text (it could quote content)."""
    if isinstance(exc, MutationError):
        return exc.message
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return type(exc).__name__
