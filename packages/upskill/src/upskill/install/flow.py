"""The write half shared by add, update and remove: journal, hooks, fast-path state."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from upskill.install import fastpath
from upskill.install.ancillary import read_optional
from upskill.install.engine import Outcome, commit_outcome
from upskill.install.extensions import HookContext, ResolvedBundle, run_install, run_remove
from upskill.install.hashing import file_digest
from upskill.install.journal import Transaction, apply_transaction
from upskill.install.resolve import Resolution
from upskill.install.selection import load_config_paths
from upskill.install.session import Session
from upskill.sources.cachedir import cache_dir
from upskill.state.lockfile import Lockfile, serialise_lockfile


def hook_context(
    session: Session, lock: Lockfile, selection: Sequence[str], dry_run: bool
) -> HookContext:
    return HookContext(
        root=session.scope.root,
        scope=session.scope.kind.value,
        selection=tuple(selection),
        lock=lock,
        dry_run=dry_run,
        env=session.world.env,
    )


def commit(
    session: Session,
    outcome: Outcome,
    *,
    selection: Sequence[str],
    bundles: Sequence[ResolvedBundle] = (),
    removed_bundles: Sequence[str] = (),
) -> tuple[str, ...]:
    """Apply an outcome, let extension hooks update plugins/mcps, save fast-path state."""
    commit_outcome(session.scope, outcome)
    messages: tuple[str, ...] = ()
    ctx = hook_context(session, outcome.lock, selection, False)
    hooked = run_remove(ctx, removed_bundles) if removed_bundles else run_install(ctx, bundles)
    if hooked.lock != outcome.lock:
        apply_transaction(
            session.scope.root,
            session.scope.lockfile,
            Transaction((), (), serialise_lockfile(hooked.lock)),
        )
    messages = hooked.messages
    save_state(session, hooked.lock)
    return messages


def save_state(session: Session, lock: Lockfile) -> None:
    labels = {i.source for i in lock.items} | {b.source for b in lock.bundles}
    path = state_path(session)
    if not labels <= set(session.fingerprints) or not _outputs_pristine(session, lock):
        # This run did not see every source, or kept local edits or foreign files that a
        # later update must report again: the fast path may not vouch for this state.
        path.unlink(missing_ok=True)
        return
    lock_bytes = read_optional(session.scope.lockfile) or b""
    state = fastpath.snapshot(
        lock_bytes=lock_bytes,
        config_paths=load_config_paths(session.world),
        fingerprints={label: session.fingerprints[label] for label in sorted(labels)},
        root=session.scope.root,
        output_paths=[o.path for o in lock.outputs],
    )
    if state is not None:
        fastpath.save(path, state)


def _outputs_pristine(session: Session, lock: Lockfile) -> bool:
    """Every output recorded and on disk as written (no kept edits, no foreign files)."""
    owned: dict[str, int] = {}
    for record in lock.outputs:
        for item in {o.item for o in record.owners}:
            owned[item] = owned.get(item, 0) + 1
    if any(i.files is not None and i.files != owned.get(i.key, 0) for i in lock.items):
        return False
    for record in lock.outputs:
        seen = file_digest(session.scope.root / record.path)
        if seen is None or seen[0] != record.sha256:
            return False
    return True


def state_path(session: Session) -> Path:
    return fastpath.state_file(cache_dir(session.world.env, session.world.home), session.scope.root)


def hook_bundles(resolution: Resolution) -> list[ResolvedBundle]:
    return [ResolvedBundle(b.name, b.source_label, b.bundle) for b in resolution.bundles]
