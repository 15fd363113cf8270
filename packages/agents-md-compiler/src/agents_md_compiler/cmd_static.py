"""Read-mostly commands: lock, validate, render, check, status."""

from __future__ import annotations

import os
from pathlib import Path

from agents_md_compiler import journal
from agents_md_compiler.atomic import atomic_create, atomic_write
from agents_md_compiler.compile import load_and_compile
from agents_md_compiler.errors import (
    BundleState,
    CompilerIOError,
    ConcurrentChangeError,
    OutputExistsError,
)
from agents_md_compiler.evaluate import (
    check_distinct_outputs,
    check_lock_destination,
    evaluate,
    evaluate_lock,
)
from agents_md_compiler.invocation import Invocation
from agents_md_compiler.lockfile import read_lock_bytes
from agents_md_compiler.locking import advisory_lock
from agents_md_compiler.models import CompiledBundle, PathPair
from agents_md_compiler.outcome import Outcome, bundle_fields
from agents_md_compiler.paths import advisory_lock_path, deployment_dir
from agents_md_compiler.receipts import DeploymentDirs
from agents_md_compiler.state import LockStatus


def _compile(inv: Invocation) -> tuple[CompiledBundle, PathPair]:
    manifest_path = inv.manifest_path()
    bundle = load_and_compile(manifest_path, inv.seams.environ)
    return bundle, inv.lock_path(manifest_path)


def _lock_outcome(status: LockStatus) -> BundleState:
    return BundleState.CURRENT if status.state is None else status.state


def cmd_lock(inv: Invocation) -> Outcome:
    bundle, lock_path = _compile(inv)
    fields: dict[str, object] = {
        "lock_path": lock_path.resolved,
        "lock_sha256": bundle.lock_sha256,
        "manifest_sha256": bundle.manifest.sha256,
        "modules": bundle.module_identities(),
        "written": False,
    }
    check_lock_destination(bundle, lock_path)
    if inv.args.check:
        status = evaluate_lock(bundle, lock_path)
        outcome = Outcome.for_state(_lock_outcome(status), **fields)
        outcome.detail = status.reason
        return outcome
    before = read_lock_bytes(lock_path)
    if before == bundle.lock_bytes:
        outcome = Outcome.for_state(BundleState.CURRENT, **fields)
        outcome.progress.append(f"lock is already current: {lock_path.resolved}")
        return outcome
    if not Path(str(Path(lock_path.resolved).parent)).is_dir():
        raise CompilerIOError("lock directory does not exist", **_where(lock_path))
    inv.seams.hooks.before_recheck(lock_path.resolved)
    with advisory_lock(
        advisory_lock_path(inv.state_root(), lock_path.resolved), inv.seams.lock_timing
    ):
        if read_lock_bytes(lock_path) != before:
            raise ConcurrentChangeError("lock file changed while locking", **_where(lock_path))
        atomic_write(lock_path.resolved, bundle.lock_bytes)
    fields["written"] = True
    outcome = Outcome.for_state(BundleState.CURRENT, **fields)
    outcome.progress.append(f"wrote lock {lock_path.resolved}")
    return outcome


def cmd_validate(inv: Invocation) -> Outcome:
    bundle, lock_path = _compile(inv)
    target_path = inv.target_path(bundle.manifest)
    check_distinct_outputs(bundle, lock_path, target_path)
    status = evaluate_lock(bundle, lock_path)
    outcome = Outcome.for_state(
        _lock_outcome(status), **bundle_fields(bundle, lock_path, target_path, None)
    )
    outcome.detail = status.reason
    return outcome


def cmd_render(inv: Invocation) -> Outcome:
    """In text mode stdout carries only rendered bytes, so the state line is withheld."""
    bundle, lock_path = _compile(inv)
    fields = bundle_fields(bundle, lock_path, None, None)
    if inv.args.locked:
        status = evaluate_lock(bundle, lock_path)
        if status.state is not None:
            outcome = Outcome.for_state(status.state, **fields)
            outcome.detail = status.reason
            outcome.state_line = False
            return outcome
    outcome = Outcome.for_state(BundleState.CURRENT, **fields)
    outcome.state_line = False
    output = inv.resolve_option("output")
    if output is None:
        outcome.stdout = bundle.rendered
        return outcome
    if os.path.lexists(output.resolved):
        raise OutputExistsError(
            "output path already exists; install owns replacement", **_where(output)
        )
    if not Path(str(Path(output.resolved).parent)).is_dir():
        raise CompilerIOError("output parent directory does not exist", **_where(output))
    try:
        atomic_create(output.resolved, bundle.rendered)
    except FileExistsError:
        raise OutputExistsError("output path appeared while rendering", **_where(output)) from None
    outcome.fields["output_path"] = output.resolved
    outcome.progress.append(f"wrote {len(bundle.rendered)} bytes to {output.resolved}")
    return outcome


def cmd_check(inv: Invocation) -> Outcome:
    bundle, lock_path = _compile(inv)
    ev = evaluate(bundle, lock_path, inv.target_path(bundle.manifest))
    outcome = Outcome.for_state(
        ev.state, **bundle_fields(bundle, lock_path, ev.target_path, ev.target.sha256)
    )
    outcome.detail = ev.lock.reason if ev.lock.state is not None else None
    return outcome


def cmd_status(inv: Invocation) -> Outcome:
    bundle, lock_path = _compile(inv)
    ev = evaluate(bundle, lock_path, inv.target_path(bundle.manifest))
    dirs = DeploymentDirs(
        deployment_dir(inv.state_root(), bundle.manifest.bundle_id, ev.target_path.resolved)
    )
    receipts = dirs.receipt_files()
    fields = bundle_fields(bundle, lock_path, ev.target_path, ev.target.sha256)
    fields.update(
        {
            "override_path": ev.override.path,
            "override_present": ev.override.present,
            "state_root": dirs.root,
            "receipt_count": len(receipts),
            "latest_receipt": receipts[-1] if receipts else None,
            "backup_count": len(dirs.backup_files()),
            "lock_present": ev.lock.present,
            "lock_matches": ev.lock.present and ev.lock.state is None,
            "target_kind": str(ev.target.kind),
            "interrupted_journal": journal.pending(dirs),
        }
    )
    outcome = Outcome.for_state(ev.state, **fields)
    outcome.detail = ev.lock.reason if ev.lock.state is not None else None
    outcome.progress.extend(
        f"{key}: {_show(fields[key])}"
        for key in (
            "bundle_id",
            "manifest_path",
            "lock_path",
            "target_path",
            "target_kind",
            "override_present",
            "state_root",
            "receipt_count",
            "latest_receipt",
            "backup_count",
            "interrupted_journal",
        )
    )
    return outcome


def _show(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _where(path: PathPair) -> dict[str, str]:
    return {"lexical": path.lexical, "resolved": path.resolved}
