"""Apply an install plan under the advisory lock: backup, replace, verify, receipt."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from agents_md_compiler import journal
from agents_md_compiler.atomic import atomic_write, ensure_private_dir
from agents_md_compiler.errors import BundleState, ConcurrentChangeError, MutationError
from agents_md_compiler.evaluate import Evaluation
from agents_md_compiler.install_plan import InstallPlan
from agents_md_compiler.lockfile import canonical_json
from agents_md_compiler.locking import advisory_lock
from agents_md_compiler.models import sha256_hex
from agents_md_compiler.paths import advisory_lock_path, deployment_dir
from agents_md_compiler.receipts import DeploymentDirs, format_mode
from agents_md_compiler.seams import Seams, completed_at, stamp
from agents_md_compiler.target import observe_override, observe_target
from agents_md_compiler.version import installed_version


@dataclass(frozen=True)
class InstallResult:
    state: BundleState
    backup_path: str | None
    backup_sha256: str | None
    receipt_path: str
    interrupted_journal: str | None


def apply_install(ev: Evaluation, plan: InstallPlan, root: str, seams: Seams) -> InstallResult:
    target_path = ev.target_path.resolved
    dirs = DeploymentDirs(deployment_dir(root, ev.bundle.manifest.bundle_id, target_path))
    for directory in (dirs.receipts, dirs.backups, dirs.preserved):
        ensure_private_dir(directory)
    seams.hooks.before_recheck(target_path)
    with advisory_lock(advisory_lock_path(root, target_path), seams.lock_timing):
        now = seams.clock()
        opid = seams.operation_id()
        _recheck(ev, plan)
        interrupted = journal.set_aside(dirs, stamp(now))
        backup_path = _write_backup(dirs, plan, stamp(now))
        journal.begin(dirs, _intent(ev, plan, opid, backup_path, completed_at(now)))
        atomic_write(target_path, ev.bundle.rendered, plan.target_mode)
        receipt_path = str(Path(dirs.receipts, f"{stamp(now)}-install-{opid}.json"))
        try:
            seams.hooks.after_replace(target_path)
            after = observe_target(target_path)
            if after.sha256 != ev.bundle.rendered_sha256:
                raise MutationError("postcondition failed: target digest differs after write")
            receipt = install_receipt(ev, plan, opid, backup_path, completed_at(now))
            atomic_write(receipt_path, canonical_json(receipt))
            last = {
                "completed_at": completed_at(now),
                "installed_sha256": ev.bundle.rendered_sha256,
                "installed_size_bytes": len(ev.bundle.rendered),
                "receipt": receipt_path,
            }
            atomic_write(dirs.last_installed, canonical_json(last))
            journal.finish(dirs)
        except Exception as exc:
            outcome = _recover(ev, plan, dirs, backup_path, receipt_path, stamp(now), opid)
            raise MutationError(
                f"install failed after replacing the target ({_describe(exc)}); {outcome}",
                lexical=ev.target_path.lexical,
                resolved=target_path,
            ) from exc
    backup_sha = None if backup_path is None else plan.previous.sha256
    return InstallResult(BundleState.CURRENT, backup_path, backup_sha, receipt_path, interrupted)


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
    where = {"lexical": ev.target_path.lexical, "resolved": ev.target_path.resolved}
    now = observe_target(ev.target_path.resolved)
    if now.fingerprint() != plan.previous.fingerprint():
        raise ConcurrentChangeError("target changed after the precondition was captured", **where)
    if observe_override(ev.target_path.resolved).present:
        raise ConcurrentChangeError("an AGENTS.override.md appeared during install", **where)


def _write_backup(dirs: DeploymentDirs, plan: InstallPlan, when: str) -> str | None:
    content = plan.previous.content
    if content is None:
        return None
    path = str(Path(dirs.backups, f"{when}.{plan.previous.sha256}.bak"))
    if os.path.lexists(path):
        if Path(path).read_bytes() == content:
            return path
        raise ConcurrentChangeError("a different backup with the same name exists", lexical=path)
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
        current = observe_target(target_path)
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
        restored = observe_target(target_path)
    except OSError as exc:
        return f"recovery FAILED: {exc.strerror}; backup kept at {backup_path}"
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
