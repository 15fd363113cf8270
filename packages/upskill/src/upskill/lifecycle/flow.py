"""The write half shared by add, update and remove: journal, hooks, fast-path state."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from upskill.hooks.api import HookContext, ResolvedBundle
from upskill.lifecycle import fastpath
from upskill.lifecycle.agenttrees import HIDES
from upskill.lifecycle.ancillary import AGENTS_MD, ANCILLARY_FILES, read_optional
from upskill.lifecycle.compiled import recorded_alternatives
from upskill.lifecycle.engine import Outcome, commit_outcome
from upskill.lifecycle.extensions import run_check, run_install, run_remove
from upskill.lifecycle.hashing import FileState, probe
from upskill.lifecycle.journal import Transaction, apply_transaction
from upskill.lifecycle.override import unwatched
from upskill.lifecycle.resolve import Resolution
from upskill.lifecycle.scope import Scope, ScopeKind
from upskill.lifecycle.session import Session
from upskill.state.config import load_config_paths
from upskill.state.lockfile import Lockfile, serialise_lockfile


@dataclass(frozen=True)
class Committed:
    """What a write left: the lockfile as saved (hooks included) and lines for the user."""

    lock: Lockfile
    messages: tuple[str, ...]


def hook_context(
    session: Session,
    lock: Lockfile,
    selection: Sequence[str],
    dry_run: bool,
    *,
    force: bool = False,
) -> HookContext:
    return HookContext(
        root=session.scope.root,
        scope=session.scope.kind.value,
        selection=tuple(selection),
        lock=lock,
        dry_run=dry_run,
        world=session.world,
        force=force,
    )


def check(
    session: Session,
    lock: Lockfile,
    *,
    selection: Sequence[str],
    bundles: Sequence[ResolvedBundle],
    dry_run: bool,
) -> None:
    """Let the extension hooks refuse the run (an `UpskillError`) before any write: a
    dry run refuses what the run would."""
    run_check(hook_context(session, lock, selection, dry_run), bundles)


def commit(
    session: Session,
    outcome: Outcome,
    *,
    selection: Sequence[str],
    bundles: Sequence[ResolvedBundle] = (),
    removed_bundles: Sequence[str] = (),
    force: bool = False,
) -> Committed:
    """Apply an outcome, let extension hooks update plugins/mcps, save fast-path state."""
    if not removed_bundles:
        check(session, outcome.lock, selection=selection, bundles=bundles, dry_run=False)
    written = commit_outcome(session.scope, outcome)
    ctx = hook_context(session, outcome.lock, selection, False, force=force)
    hooked = run_remove(ctx, removed_bundles) if removed_bundles else run_install(ctx, bundles)
    if hooked.lock != outcome.lock:
        apply_transaction(
            session.scope.root,
            session.scope.lockfile,
            Transaction((), (), serialise_lockfile(hooked.lock)),
            state=session.scope.state,
        )
    known = dict(outcome.seen)
    records = {o.path: o for o in outcome.lock.outputs}
    for path, (size, mtime_ns) in written.items():  # what this run wrote is what it recorded
        if path in records:
            record = records[path]
            known[path] = FileState(record.sha256, size, mtime_ns, bool(record.mode & 0o100))
    save_state(session, hooked.lock, known)
    return Committed(hooked.lock, hooked.messages)


def save_state(
    session: Session, lock: Lockfile, known: Mapping[str, FileState] | None = None
) -> None:
    """`known`: outputs this run read or wrote, as it saw them; any other recorded output
    is read now."""
    labels = {i.source for i in lock.items} | {b.source for b in lock.bundles}
    path = state_path(session)
    outputs = _pristine_stats(session, lock, known or {})
    moved_aside = recorded_alternatives({o.path: o for o in lock.outputs})
    if not labels <= set(session.fingerprints) or outputs is None or unwatched(lock) or moved_aside:
        # This run did not see every source, or kept local edits or foreign files that a
        # later update must report again, or a file may appear that the next run must
        # see (an override's, or an alternative's team file going or taking a block):
        # the fast path may not vouch for this state.
        path.unlink(missing_ok=True)
        return
    lock_bytes = read_optional(session.scope.lockfile, session.scope.root) or b""
    state = fastpath.snapshot(
        lock_bytes=lock_bytes,
        config_paths=load_config_paths(session.world),
        fingerprints={label: session.fingerprints[label] for label in sorted(labels)},
        outputs=outputs,
        watched=fastpath.listings(session.scope.root, watched_trees(session.scope)),
        files=fastpath.file_stats(session.scope.root, (*ANCILLARY_FILES, AGENTS_MD)),
    )
    fastpath.save(path, state)


def watched_trees(scope: Scope) -> tuple[str, ...]:
    """The directories whose entries decide a settings member (`lifecycle.agenttrees`):
    project scope only."""
    if scope.kind is ScopeKind.GLOBAL:
        return ()
    return tuple(sorted({h.tree for h in HIDES}))


def _pristine_stats(
    session: Session, lock: Lockfile, known: Mapping[str, FileState]
) -> dict[str, list[int]] | None:
    """[size, mtime_ns, executable] of every recorded output when each is on disk as
    recorded, bytes and executable bit (no kept edits, no foreign files); None otherwise."""
    owned: dict[str, int] = {}
    for record in lock.outputs:
        for item in {o.item for o in record.owners}:
            owned[item] = owned.get(item, 0) + 1
    if any(i.files is not None and i.files != owned.get(i.key, 0) for i in lock.items):
        return None
    stats: dict[str, list[int]] = {}
    base = f"{session.scope.root}/"
    for record in lock.outputs:
        executable = bool(record.mode & 0o100)
        seen = known.get(record.path)
        if seen is None or seen.sha256 != record.sha256 or seen.executable != executable:
            seen = probe(base + record.path)
            if seen is None or seen.sha256 != record.sha256 or seen.executable != executable:
                return None
        stats[record.path] = [seen.size, seen.mtime_ns, int(executable)]
    return stats


def state_path(session: Session) -> Path:
    return fastpath.state_file(session.world.cache_dir, session.scope.root)


def hook_bundles(resolution: Resolution) -> list[ResolvedBundle]:
    return [ResolvedBundle(b.name, b.source_label, b.bundle) for b in resolution.bundles]
