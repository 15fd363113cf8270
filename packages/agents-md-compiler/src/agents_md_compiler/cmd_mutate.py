"""Mutating commands: install and rollback (dry run unless --apply)."""

from __future__ import annotations

from pathlib import Path

from agents_md_compiler.compile import load_and_compile
from agents_md_compiler.errors import EXIT_OK, UsageError
from agents_md_compiler.evaluate import evaluate
from agents_md_compiler.install_plan import InstallOptions, plan_install
from agents_md_compiler.installation import apply_install
from agents_md_compiler.invocation import Invocation
from agents_md_compiler.manifest import load_manifest
from agents_md_compiler.models import SHA256_RE
from agents_md_compiler.outcome import Outcome, bundle_fields
from agents_md_compiler.receipts import format_mode
from agents_md_compiler.rollback import apply_rollback, plan_rollback


def install_options(inv: Invocation) -> InstallOptions:
    expect = inv.option("expect_target_sha256")
    replace = bool(inv.args.replace_unmanaged)
    if expect is not None and not SHA256_RE.match(expect):
        raise UsageError("--expect-target-sha256 must be 64 lowercase hex digits")
    if expect is not None and not replace:
        raise UsageError("--expect-target-sha256 is only valid with --replace-unmanaged")
    if replace and expect is None:
        raise UsageError("--replace-unmanaged requires --expect-target-sha256")
    return InstallOptions(bool(inv.args.apply), replace, expect)


def cmd_install(inv: Invocation) -> Outcome:
    options = install_options(inv)
    manifest_path = inv.manifest_path()
    bundle = load_and_compile(manifest_path, inv.seams.environ)
    lock_path = inv.lock_path(manifest_path)
    ev = evaluate(bundle, lock_path, inv.target_path(bundle.manifest))
    parent_is_dir = Path(str(Path(ev.target_path.resolved).parent)).is_dir()
    plan = plan_install(ev, options, parent_is_dir)
    fields = bundle_fields(bundle, lock_path, ev.target_path, ev.target.sha256)
    fields.update(
        {
            "applied": False,
            "previous_state": plan.previous_state,
            "previous_sha256": ev.target.sha256,
            "backup_path": None,
            "backup_sha256": None,
            "receipt_path": None,
            "target_mode": format_mode(plan.target_mode),
            "interrupted_journal": None,
        }
    )
    if not plan.proceed or not options.apply:
        outcome = Outcome.for_state(plan.state, **fields)
        if plan.proceed:
            outcome.progress.append(
                f"dry run: would install {len(bundle.rendered)} bytes to "
                f"{ev.target_path.resolved} (previous: {plan.previous_state}); pass --apply"
            )
        outcome.detail = ev.lock.reason if ev.lock.state is not None else None
        return outcome
    result = apply_install(ev, plan, inv.state_root(), inv.seams)
    fields.update(
        {
            "applied": True,
            "backup_path": result.backup_path,
            "backup_sha256": result.backup_sha256,
            "receipt_path": result.receipt_path,
            "target_sha256": bundle.rendered_sha256,
            "interrupted_journal": result.interrupted_journal,
        }
    )
    outcome = Outcome.for_state(result.state, **fields)
    if result.interrupted_journal is not None:
        outcome.progress.append(
            f"warning: an earlier install was interrupted; its journal is kept at "
            f"{result.interrupted_journal}"
        )
    outcome.progress.append(f"installed {ev.target_path.resolved}; receipt {result.receipt_path}")
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
        "bundle_id": manifest.bundle_id,
        "receipt_path": receipt_path.resolved,
        "target_path": target_path.resolved,
        "target_sha256": plan.current.sha256,
        "restored_sha256": None,
        "preserved_path": None,
        "receipt_written": None,
    }
    if not inv.args.apply:
        outcome = Outcome.for_state(plan.state, **fields)
        action = "remove the created target" if plan.backup is None else "restore the backup"
        outcome.progress.append(f"dry run: would {action} at {target_path.resolved}; pass --apply")
        return outcome
    result = apply_rollback(plan, root, inv.seams)
    fields.update(
        {
            "applied": True,
            "target_sha256": result.restored_sha256,
            "restored_sha256": result.restored_sha256,
            "preserved_path": result.preserved_path,
            "receipt_written": result.receipt_written,
        }
    )
    outcome = Outcome(result.state, EXIT_OK, fields)
    outcome.progress.append(f"rolled back {target_path.resolved}; receipt {result.receipt_written}")
    return outcome
