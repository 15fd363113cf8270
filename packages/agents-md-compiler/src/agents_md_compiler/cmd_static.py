"""Read-mostly commands: lock, validate, render, check, status."""

from __future__ import annotations

import os

from agents_md_compiler import journal
from agents_md_compiler.atomic import atomic_create, atomic_write
from agents_md_compiler.errors import (
    BundleState,
    ConcurrentChangeError,
    OutputExistsError,
    UsageError,
)
from agents_md_compiler.evaluate import Evaluation, compile_for, evaluate, evaluate_lock_bytes
from agents_md_compiler.invocation import Invocation
from agents_md_compiler.lockfile import read_lock_bytes
from agents_md_compiler.locking import advisory_lock
from agents_md_compiler.manifest import load_manifest
from agents_md_compiler.models import CompiledBundle, Manifest, PathPair
from agents_md_compiler.outcome import Outcome, bundle_fields
from agents_md_compiler.paths import advisory_lock_path, deployment_dir
from agents_md_compiler.receipts import DeploymentDirs
from agents_md_compiler.state import lock_bytes_status
from agents_md_compiler.target import require_parent


def load(inv: Invocation) -> tuple[Manifest, PathPair]:
    manifest_path = inv.manifest_path()
    return load_manifest(manifest_path, inv.seams.environ), inv.lock_path(manifest_path)


def cmd_lock(inv: Invocation) -> Outcome:
    manifest, lock_path = load(inv)
    bundle = compile_for(manifest, None)
    check_lock_destination(bundle, lock_path)
    before = read_lock_bytes(lock_path)
    status = lock_bytes_status(before, bundle)
    fields: dict[str, object] = {
        "lock_path": lock_path.resolved,
        "lock_sha256": bundle.lock_sha256,
        "manifest_sha256": bundle.manifest.sha256,
        "modules": bundle.module_identities(),
        "written": False,
    }
    if inv.args.check:
        return Outcome.report(status.state or BundleState.CURRENT, **fields)
    if status.state is None:
        outcome = Outcome.report(BundleState.CURRENT, **fields)
        outcome.notes.append("lock already current")
        return outcome
    root = inv.state_root()
    inv.seams.hooks.before_recheck(lock_path.resolved)
    with advisory_lock(advisory_lock_path(root, lock_path.resolved), inv.seams.lock_timing):
        if read_lock_bytes(lock_path) != before:
            raise ConcurrentChangeError(
                "lock changed after its precondition was captured",
                lexical=lock_path.resolved,
            )
        atomic_write(lock_path.resolved, bundle.lock_bytes)
    fields["written"] = True
    outcome = Outcome.report(BundleState.CURRENT, **fields)
    outcome.notes.append(f"wrote {lock_path.resolved}")
    return outcome


def check_lock_destination(bundle: CompiledBundle, lock_path: PathPair) -> None:
    """Hardening: `lock` never writes its JSON over the manifest or a source."""
    sources = {spec.resolved_source for spec in bundle.manifest.modules}
    if lock_path.resolved in sources | {bundle.manifest.path.resolved}:
        raise UsageError(
            "the lock path is the manifest or a source",
            lexical=lock_path.lexical,
            resolved=lock_path.resolved,
        )


def cmd_validate(inv: Invocation) -> Outcome:
    manifest, lock_path = load(inv)
    target_path = inv.target_path(manifest)
    bundle = compile_for(manifest, target_path)
    status = evaluate_lock_bytes(bundle, lock_path)
    fields = bundle_fields(bundle, lock_path, target_path)
    return Outcome.report(status.state or BundleState.CURRENT, **fields, target_sha256=None)


def cmd_render(inv: Invocation) -> Outcome:
    """In text mode stdout carries only rendered bytes (or the refusal's state token)."""
    manifest, lock_path = load(inv)
    bundle = compile_for(manifest, None)
    if inv.args.locked:
        status = evaluate_lock_bytes(bundle, lock_path)
        if status.state is not None:
            outcome = Outcome.report(status.state, lock_path=lock_path.resolved)
            outcome.text_diagnostics.clear()
            outcome.diagnostics.append(f"{status.state} at {lock_path.resolved}")
            return outcome
    fields = bundle_fields(bundle, lock_path, None)
    output = inv.resolve_option("output")
    if output is None:
        outcome = Outcome.report(BundleState.CURRENT, **fields, output_path=None)
        outcome.stdout = bundle.rendered
        return outcome
    if os.path.lexists(output.resolved):
        raise _exists(output)
    require_parent(output)
    try:
        atomic_create(output.resolved, bundle.rendered)
    except FileExistsError:
        raise _exists(output) from None
    outcome = Outcome.report(BundleState.CURRENT, **fields, output_path=output.resolved)
    outcome.text = output.resolved + "\n"
    outcome.notes.append(f"wrote {output.resolved}")
    return outcome


def _exists(output: PathPair) -> OutputExistsError:
    return OutputExistsError(
        f"refusing to write {output.resolved}: path exists; use 'install' when "
        "replacement, backup, and rollback semantics are required",
        lexical=output.lexical,
        resolved=output.resolved,
    )


def evaluation(inv: Invocation) -> Evaluation:
    manifest, lock_path = load(inv)
    return evaluate(manifest, lock_path, inv.target_path(manifest))


def report_fields(ev: Evaluation) -> dict[str, object]:
    """What check (and install and verify-codex when they only report) put in JSON."""
    return bundle_fields(ev.bundle, ev.lock_path, ev.target_path) | {
        "target_sha256": ev.target_sha256
    }


def cmd_check(inv: Invocation) -> Outcome:
    ev = evaluation(inv)
    return Outcome.report(ev.state, **report_fields(ev))


def cmd_status(inv: Invocation) -> Outcome:
    ev = evaluation(inv)
    dirs = DeploymentDirs(
        deployment_dir(inv.state_root(), ev.bundle.manifest.bundle_id, ev.target_path.resolved)
    )
    receipts = dirs.receipt_files()
    fields = report_fields(ev) | {
        "override_path": ev.override.path,
        "override_present": ev.override.present,
        "state_root": dirs.root,
        "receipt_count": len(receipts),
        "latest_receipt": receipts[-1] if receipts else None,
        "backup_count": len(dirs.backup_files()),
        "lock_present": ev.lock.present,
        "lock_matches": ev.lock.present and ev.lock.state is None,
        "target_kind": None if ev.target is None else str(ev.target.kind),
        "interrupted_journal": journal.pending(dirs) or journal.pending_rollback(dirs),
    }
    outcome = Outcome.report(ev.state, **fields)
    if fields["interrupted_journal"] is not None:
        outcome.notes.append(
            f"warning: an install was interrupted; its journal is {fields['interrupted_journal']}"
        )
    return outcome
