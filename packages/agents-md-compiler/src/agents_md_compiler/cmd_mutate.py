"""Mutating commands: install and rollback (dry run unless --apply)."""

from __future__ import annotations

from agents_md_compiler.cmd_static import evaluation, report_fields
from agents_md_compiler.errors import STATE_EXIT_CODES, BundleState, UsageError
from agents_md_compiler.install_plan import InstallOptions, plan_install, touched_paths
from agents_md_compiler.installation import apply_install
from agents_md_compiler.invocation import Invocation
from agents_md_compiler.manifest import load_manifest
from agents_md_compiler.models import SHA256_RE
from agents_md_compiler.outcome import Outcome
from agents_md_compiler.paths import advisory_lock_path, deployment_dir
from agents_md_compiler.receipts import DeploymentDirs, format_mode
from agents_md_compiler.rollback import apply_rollback, plan_rollback, rollback_paths


def install_options(inv: Invocation) -> InstallOptions:
    expect = inv.option("expect_target_sha256")
    replace = bool(inv.args.replace_unmanaged)
    if expect is not None and not SHA256_RE.match(expect):
        raise UsageError(
            "--expect-target-sha256 must be a lowercase 64-character hexadecimal digest"
        )
    if expect is not None and not replace:
        raise UsageError("--expect-target-sha256 is only meaningful with --replace-unmanaged")
    return InstallOptions(bool(inv.args.apply), replace, expect)


def cmd_install(inv: Invocation) -> Outcome:
    options = install_options(inv)
    ev = evaluation(inv)
    if ev.state in (BundleState.LOCK_MISSING, BundleState.LOCK_STALE):
        return Outcome.report(ev.state, **report_fields(ev))
    plan = plan_install(ev, options)
    root = inv.state_root()
    dirs = DeploymentDirs(
        deployment_dir(root, ev.bundle.manifest.bundle_id, ev.target_path.resolved)
    )
    fields = report_fields(ev) | {
        "applied": False,
        "previous_state": plan.previous_state,
        "previous_sha256": plan.previous.sha256,
        "backup_path": None,
        "backup_sha256": None,
        "receipt_path": None,
        "target_mode": format_mode(plan.target_mode),
    }
    if not options.apply:
        reads, writes = touched_paths(
            ev, plan, dirs, advisory_lock_path(root, ev.target_path.resolved)
        )
        fields["plan"] = {"reads": reads, "writes": writes}
        outcome = Outcome(plan.state, STATE_EXIT_CODES[plan.state], fields)
        outcome.notes.append("dry run; nothing written. Re-run with --apply.")
        outcome.notes += [f"dry run: would read {path}" for path in reads]
        outcome.notes += [f"dry run: would write {path}" for path in writes]
        return outcome
    result = apply_install(ev, plan, root, inv.seams)
    fields.update(
        {
            "applied": True,
            "backup_path": result.backup_path,
            "backup_sha256": result.backup_sha256,
            "receipt_path": result.receipt_path,
            "interrupted_journal": result.interrupted_journal,
        }
    )
    outcome = Outcome(result.state, 0, fields, ok=True)
    outcome.notes += [
        f"removed a temporary file a killed run left: {p}" for p in result.removed_temps
    ]
    if result.interrupted_journal is not None:
        outcome.notes.append(
            "warning: an earlier install was interrupted; its journal is kept at "
            f"{result.interrupted_journal}"
        )
    return outcome


def cmd_rollback(inv: Invocation) -> Outcome:
    manifest = load_manifest(inv.manifest_path(), inv.seams.environ)
    receipt_path = inv.resolve_option("receipt")
    if receipt_path is None:
        raise UsageError("--receipt is required")
    target_path = inv.target_path(manifest)
    root = inv.state_root()
    plan = plan_rollback(receipt_path, manifest.bundle_id, target_path, root)
    fields: dict[str, object] = {
        "applied": False,
        "receipt_path": receipt_path.resolved,
        "target_path": target_path.resolved,
        "restored_sha256": None,
        "preserved_path": None,
        "receipt_written": None,
    }
    if not inv.args.apply:
        outcome = Outcome(plan.state, STATE_EXIT_CODES[plan.state], fields, ok=False)
        outcome.notes.append("dry run; nothing restored. Re-run with --apply.")
        reads, writes = rollback_paths(plan, advisory_lock_path(root, target_path.resolved))
        fields["plan"] = {"reads": reads, "writes": writes}
        outcome.notes += [f"dry run: would read {path}" for path in reads]
        outcome.notes += [f"dry run: would write {path}" for path in writes]
        return outcome
    result = apply_rollback(plan, root, inv.seams)
    fields.update(
        {
            "applied": True,
            "restored_sha256": result.restored_sha256,
            "preserved_path": result.preserved_path,
            "receipt_written": result.receipt_written,
        }
    )
    outcome = Outcome(result.state, 0, fields, ok=True)
    if result.resumed:
        outcome.notes.append("completed an interrupted rollback of this receipt")
    return outcome
