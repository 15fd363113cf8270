"""Compose resolve -> render -> observe -> plan into one install/remove outcome.

Nothing here writes: the outcome carries the plan, the changes to the extra files
(`lifecycle.extrafiles`) and the new lockfile, and `commit_outcome` hands them to the journal.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from upskill.clients import SELECTABLE_CLIENTS, render_target
from upskill.clients.base import RULE
from upskill.fsio import replaced_file
from upskill.lifecycle import agenttrees as at
from upskill.lifecycle import catalog as cat
from upskill.lifecycle import compiled as comp
from upskill.lifecycle import edits as ed
from upskill.lifecycle import override as ov
from upskill.lifecycle.adopt import foreign_diffs
from upskill.lifecycle.ancillary import (
    AGENTS_MD,
    IMPORTERS,
    can_add,
    changed,
    installed,
    legacy_members,
    read_optional,
    shape,
    unrecorded,
)
from upskill.lifecycle.contextfiles import configured_reads
from upskill.lifecycle.desired import (
    TEAM_FILE,
    Desired,
    clients_for,
    justifies,
    render_desired,
    undelivered_lines,
)
from upskill.lifecycle.extrafiles import ExtraFile, ExtraOp
from upskill.lifecycle.extraneeds import needed, team_memory, upskill_compiled
from upskill.lifecycle.hashing import FileState, sha256_bytes, tree_hash
from upskill.lifecycle.journal import Remove, Stat, Transaction, Write, apply_transaction
from upskill.lifecycle.observe import Observer
from upskill.lifecycle.plan import Op, Plan, plan_outputs
from upskill.lifecycle.resolve import Resolution, Resolved, ResolveError
from upskill.lifecycle.reuse import GENERATOR, reusable_outputs
from upskill.lifecycle.scope import Scope, ScopeKind
from upskill.lifecycle.selection import check_recorded, in_use, recorded, selected
from upskill.sources.spec import SourceSpec, canonical_label, recorded_spec_of
from upskill.state.lockfile import (
    BundleRecord,
    EditRecord,
    ItemRecord,
    Lockfile,
    OutputRecord,
    Owner,
    serialise_lockfile,
)


@dataclass(frozen=True)
class Repin:
    """An installed item that `add <source>@<ref>` moves from one ref of its source to
    another: the labels as recorded before and as this run records them."""

    item: str  # lock key, `kind:name`
    before: str
    after: str


@dataclass(frozen=True)
class Outcome:
    plan: Plan
    lock: Lockfile
    # The files upskill keeps besides the plan's (`CLAUDE.md`, `opencode.json`, settings),
    # one record per file this run changes: written from these, and reported.
    extras: tuple[ExtraFile, ...]
    items: tuple[ItemRecord, ...]  # items (re)installed by this run
    removed: tuple[str, ...]  # item keys dropped from the lock
    clients: tuple[str, ...]  # selectable clients written, canonical order
    warnings: tuple[str, ...]
    # Regular files this plan read (digest, size, mtime): the fast-path state reuses them.
    seen: Mapping[str, FileState] = dataclasses.field(default_factory=dict)
    # Installed items this run moves to another ref of their source (`add <source>@<ref>`).
    repinned: tuple[Repin, ...] = ()
    # Per kept file upskill never wrote: the diff from it to upskill's rendering.
    diffs: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)

    def transaction(self, current_lock_bytes: bytes | None) -> Transaction:
        writes = [
            Write(a.path, a.data, a.mode)
            for a in self.plan.actions
            if a.op.writes and a.data is not None
        ]
        writes += [Write(x.path, x.data) for x in self.extras if x.data is not None]
        removes = [Remove(a.path, a.expected or "") for a in self.plan.actions if a.op.removes]
        removes += [Remove(x.path, x.expected) for x in self.extras if x.op is ExtraOp.REMOVE]
        new_lock = serialise_lockfile(self.lock)
        lock_bytes = None if new_lock == current_lock_bytes else new_lock
        return Transaction(tuple(writes), tuple(removes), lock_bytes)


def _other_ref(recorded: str, spec: SourceSpec) -> bool:
    """Whether a recorded label names the same repository and path as `spec` at another
    ref: installing from `spec` then re-pins the item instead of conflicting with it."""
    before = recorded_spec_of(recorded, spec)
    return before is not None and before.ref != spec.ref


def _repins(resolution: Resolution, lock: Lockfile) -> tuple[Repin, ...]:
    found = []
    for r in resolution.items:
        existing = lock.item(r.kind, r.name)
        if existing is not None and _other_ref(existing.source, r.catalog.fetched.spec):
            found.append(Repin(r.key, existing.source, r.catalog.label))
    return tuple(sorted(found, key=lambda p: (p.before, p.after, p.item)))


def _lock_conflicts(resolution: Resolution, lock: Lockfile, anchor: Path | None) -> None:
    for r in resolution.items:
        existing = lock.item(r.kind, r.name)
        if existing is not None and _other_ref(existing.source, r.catalog.fetched.spec):
            continue  # a re-pin: the same item of the same source, another ref
        if existing is not None and canonical_label(existing.source, anchor) != r.catalog.label:
            raise ResolveError(
                f"{r.kind} {r.name!r} is already installed from {existing.source}; "
                f"remove it first or install under another name with --as"
            )
        if existing is not None and existing.original_name != r.original:
            # `--as s2` naming an installed `s2` that is another item of the same source
            raise ResolveError(
                f"{r.kind} {r.name!r} is already installed (as {existing.original_name!r} from "
                f"{existing.source}); installing {r.original!r} under that name would replace "
                "it: remove it first or choose another name with --as"
            )


def plan_install(
    scope: Scope,
    lock: Lockfile,
    resolution: Resolution,
    selection: tuple[str, ...] | None,
    *,
    force: bool,
    also_managed: Iterable[str] = (),
    on_item: Callable[[int, int], None] | None = None,
) -> Outcome:
    """`selection` None: each item keeps its recorded selection (`selection.selected`);
    an item without a record (new in its source, or one no selected client had a place
    for, which the lockfile does not record) takes the clients the scope's items were
    selected for, so a bare update never widens the selection; in an empty scope, every
    client.
    `also_managed`: lock items this run owns even if they were not resolved (update).
    `on_item(done, total)`: called as each item is rendered (a progress counter)."""
    keys = {r.key for r in resolution.items}
    managed = frozenset(keys | set(also_managed))
    check_recorded(lock, scope.lockfile)
    _lock_conflicts(resolution, lock, scope.anchor)
    used = in_use(lock)

    def selection_for(r: Resolved) -> Sequence[str]:
        if selection is not None:
            return selection
        existing = lock.item(r.kind, r.name)
        return selected(existing) if existing is not None else used

    def admitted_for(r: Resolved) -> tuple[str, ...]:
        return clients_for(cat.audience(r.item), selection_for(r))

    records = {o.path: o for o in lock.outputs}
    owned_by_managed = {p for p, o in records.items() if any(w.item in managed for w in o.owners)}
    observer = Observer(scope.root)
    observed = observer.observe(owned_by_managed)
    hashes = {r.key: tree_hash(r.item.directory) for r in resolution.items}
    home = scope.kind is ScopeKind.GLOBAL
    current = _compiled_now(scope, records)
    compiled_ok = comp.writable(current)
    imported = _imported(scope, current)
    configured = _configured(scope)

    def twice(r: Resolved, movers: Mapping[str, str]) -> bool:
        return justifies(r.item, admitted_for(r), movers, compiled_ok, configured, imported)

    movers = ov.allowed(current, home, configured)
    moves = _moves(movers, records, managed, resolution.items, twice, imported, configured)
    alternatives = comp.alternatives(current, home)
    reused = {}
    # Codex's or Crush's rules change files: every item is rendered again, its readers'
    # copies too.
    if not force and moves == ov.recorded(records) and not comp.misplaced(records, alternatives):
        reused = reusable_outputs(
            resolution.items,
            lock,
            hashes=hashes,
            clients_of=admitted_for,
            observed=observed,
        )

    read = _reader(scope)
    desired = render_desired(
        resolution.items,
        selection_for,
        reused,
        home=home,
        on_item=on_item,
        compiled_ok=compiled_ok,
        imported=imported,
        configured=configured,
        hidden={} if home else at.expected(scope.root, lock, read),
        moves={render_target(c): p for c, p in moves.items()},
    )
    stale = frozenset(desired.rendered | (managed - set(reused)))
    desired, records = _with_compiled(desired, current, records, stale, force, moves | alternatives)
    # A lockfile with items but no output records was written by upstream upskill (or
    # rewritten by it): files at the paths its items render to are treated as ours.
    in_lock = {i.key for i in lock.items}
    legacy = frozenset(managed & in_lock) if not lock.outputs else frozenset()
    looked = {*desired.files, *_ownerless(records)}
    observed.update(observer.observe(p for p in looked if p not in observed))
    plan = plan_outputs(desired.files, managed, records, observed, legacy=legacy, force=force)
    admitted = {r.key: admitted_for(r) for r in resolution.items}
    new_items = _item_records(resolution, desired, lock, hashes, admitted)
    installed_keys = {i.key for i in new_items}
    items = [i for i in lock.items if i.key not in managed] + new_items
    removed = tuple(sorted(k for k in managed & in_lock if k not in installed_keys))
    bundles = _bundle_records(lock, resolution)
    new_lock = dataclasses.replace(
        lock,
        items=tuple(items),
        bundles=bundles,
        outputs=_owned(plan),
        generator=GENERATOR,
    ).normalised()
    written = sorted({c for cs in desired.item_clients.values() for c in cs})
    ours = upskill_compiled(current)
    extras = _ancillary(scope, lock, new_lock, plan, installing=True, compiled=ours)
    desired = dataclasses.replace(desired, hidden=extras.hidden)
    return Outcome(
        plan,
        dataclasses.replace(new_lock, edits=extras.edits),
        extras.files,
        tuple(new_items),
        removed,
        tuple(c for c in SELECTABLE_CLIENTS if c in written),
        resolution.warnings + desired.warnings + extras.lines,
        observer.files,
        _repins(resolution, lock),
        foreign_diffs(scope.root, plan.actions),
    )


def _item_records(
    resolution: Resolution,
    desired: Desired,
    lock: Lockfile,
    hashes: Mapping[str, str | None],
    admitted: Mapping[str, tuple[str, ...]],
) -> list[ItemRecord]:
    """The lock's item records; `admitted`: each item's selection its audience admits,
    of which the clients it was not delivered to are recorded as `unplaced`."""
    paths: dict[str, set[str]] = {}
    for f in desired.files.values():
        for owner in f.owners:
            paths.setdefault(owner.item, set()).add(f.path)
    out: list[ItemRecord] = []
    for r in resolution.items:
        if r.key not in desired.item_clients:
            continue  # warn-skipped by audience
        existing = lock.item(r.kind, r.name)
        spec = r.catalog.fetched.spec
        delivered = desired.item_clients[r.key]
        clients = recorded(delivered)
        if existing is not None and set(existing.clients) == set(clients):
            # The same selection recorded in another order (a hand merge): kept as it is,
            # so that order alone never rewrites a lockfile. New records are in registry
            # order (`desired.clients_for`).
            clients = existing.clients
        out.append(
            ItemRecord(
                kind=r.kind,
                name=r.name,
                source=r.catalog.label,
                ref=spec.ref,
                hash=hashes[r.key],
                source_name=r.original if r.alias else None,
                required_by=r.required_by,
                group=r.item.group,
                clients=clients,
                unplaced=tuple(c for c in admitted[r.key] if c not in delivered),
                commit=r.catalog.fetched.commit,
                files=len(paths.get(r.key, ())),
                extra=existing.extra if existing is not None else {},
            )
        )
    return out


def _bundle_records(lock: Lockfile, resolution: Resolution) -> tuple[BundleRecord, ...]:
    by_name = {b.name: b for b in lock.bundles}
    for rb in resolution.bundles:
        old = by_name.get(rb.name)
        by_name[rb.name] = BundleRecord(
            rb.name,
            rb.source_label,
            rb.catalog.fetched.spec.ref,
            rb.items,
            old.extra if old is not None else {},
        )
    return tuple(by_name.values())


def _owned(plan: Plan) -> tuple[OutputRecord, ...]:
    """The plan's records, less a team file whose managed block no rule fills any more."""
    return tuple(o for o in plan.outputs if o.owners)


def _compiled_now(scope: Scope, records: Mapping[str, OutputRecord]) -> list[comp.Current]:
    home = scope.kind is ScopeKind.GLOBAL
    return comp.scan(home, lambda p: read_optional(scope.root / p, scope.root), records)


def _imported(scope: Scope, current: list[comp.Current]) -> frozenset[str]:
    """`AGENTS.md` when Claude will read it through `CLAUDE.md`: a team file with a
    managed block, and every import file absent (this run creates it) or importing it;
    or a file upskill compiles whole that a team's `CLAUDE.md` imports itself (Claude
    Code follows the import: the rules there reach it beside its own copies)."""
    if scope.kind is ScopeKind.GLOBAL:
        return frozenset()
    owned = next((c.owned for c in current if c.path == AGENTS_MD), comp.Owned.OURS)
    memories = [read_optional(scope.root / m, scope.root) for m in IMPORTERS.values()]
    imports = [d is not None and b"@" + AGENTS_MD.encode() in d.split() for d in memories]
    if owned is comp.Owned.OURS:
        return frozenset({AGENTS_MD}) if any(imports) else frozenset()
    if owned is not comp.Owned.BLOCK:
        return frozenset()
    if not all(i or d is None for i, d in zip(imports, memories, strict=True)):
        return frozenset()
    return frozenset({AGENTS_MD})


def _reader(scope: Scope) -> Callable[[str], bytes | None]:
    return lambda p: read_optional(scope.root / p, scope.root)


def _configured(scope: Scope) -> dict[str, frozenset[str]]:
    """The instruction files the project's settings make a client read (project only:
    no client reads another's user-level compiled file)."""
    if scope.kind is ScopeKind.GLOBAL:
        return {}
    return configured_reads(lambda p: read_optional(scope.root / p, scope.root))


def _moves(
    movers: Mapping[str, str],
    records: Mapping[str, OutputRecord],
    managed: frozenset[str],
    items: Sequence[Resolved],
    twice: Callable[[Resolved, Mapping[str, str]], bool],
    imported: frozenset[str],
    configured: Mapping[str, frozenset[str]],
) -> dict[str, str]:
    """Client -> the override its compiled rules go to this run (`lifecycle.override`):
    of the `movers` allowed, all when some rule is read twice because of a mover's text,
    judged from the text for this run's items (`twice`, given render target -> override)
    and from the lockfile for the others."""
    if not movers:
        return {}
    targets = {render_target(c): p for c, p in movers.items()}
    if any(twice(r, targets) for r in items) or ov.justified_by_records(
        records, movers, managed, imported, configured
    ):
        return dict(movers)
    return {}


def _with_compiled(
    desired: Desired,
    current: list[comp.Current],
    records: dict[str, OutputRecord],
    stale: frozenset[str],
    force: bool,
    moves: Mapping[str, str],
) -> tuple[Desired, dict[str, OutputRecord]]:
    """Desired files with the compiled instructions files assembled (`lifecycle.compiled`),
    and the output records the planner compares them with."""
    built = comp.assemble(current, desired.sections, records, stale, force=force, moves=moves)
    paths = {c.path for c in current}
    files = {p: f for p, f in desired.files.items() if p not in paths} | built.files
    later = desired.later + tuple(_dropped_lines(built.dropped))
    desired = dataclasses.replace(desired, files=files, later=later)
    return desired, records | built.records


def _ownerless(records: Mapping[str, OutputRecord]) -> set[str]:
    """Recorded files whose every section moved to another file: the plan removes them."""
    return {p for p, r in records.items() if not r.owners}


def _dropped_lines(dropped: Iterable[Owner]) -> list[str]:
    """Kept rules whose client's file is now the team's own: said, as for any rule."""
    missed: dict[tuple[str, str, str], int] = {}
    for owner in dropped:
        key = (owner.client, RULE, TEAM_FILE)
        missed[key] = missed.get(key, 0) + 1
    return undelivered_lines(missed)


@dataclass(frozen=True)
class _Extras:
    files: tuple[ExtraFile, ...]  # one per file the run changes, by path
    edits: tuple[EditRecord, ...]  # the lock's record of settings edits after the run
    hidden: dict[str, frozenset[str]]  # the agent trees each client does not read after it
    lines: tuple[str, ...]  # a tree upskill hid that a team file now makes it show again


def _ancillary(
    scope: Scope,
    before: Lockfile,
    after: Lockfile,
    plan: Plan,
    *,
    installing: bool,
    compiled: frozenset[str] = frozenset(),
) -> _Extras:
    """The extra files' changes for a run taking the scope from `before` to `after`.
    `compiled`: the instructions files upskill compiles itself; nothing imports them
    (Claude reads its own copies of those rules). Each file gets the members wanted
    after the run (`extraneeds.needed`, what `doctor` checks), from the team's own
    bytes: a member no longer wanted is undone, and a file upskill created goes with
    its last member (`lifecycle.edits`). A memory file is created only by an install
    and only where none is: a team's own is never written."""
    home = scope.kind is ScopeKind.GLOBAL
    on_disk = {} if home else at.disk(scope.root, (a.path for a in plan.actions if a.op.removes))
    want = needed(scope.root, after, home=home, compiled=compiled, on_disk=on_disk)
    lines: tuple[str, ...] = ()
    if not home:
        lines = at.shown_again(before.edits, want, after.outputs, on_disk, _reader(scope))
    recorded = {e.path: e for e in before.edits}
    legacy = {
        rel: EditRecord(rel, ed.UNSEEN, members=members)
        for rel, members in unrecorded(installed(before, home=home), home=home).items()
        if rel not in recorded
    }
    files: dict[str, ExtraFile] = {}
    final: dict[str, bytes | None] = {}
    for rel in sorted(set(want) | set(recorded) | set(legacy)):
        edit = recorded.pop(rel, None) or legacy.get(rel)
        ours = _ours(rel, edit, home=home)
        current = read_optional(scope.root / rel, scope.root)
        members = want.get(rel, ())
        form = shape(rel)
        if team_memory(rel, edit, current is not None, installing=installing):
            continue  # a team's memory file, or none and a run that is no install
        done = ed.settle(
            rel,
            current,
            edit,
            ours,
            members,
            put=form.put,
            take=form.take,
            value=form.value,
            bare=form.bare,
        )
        if done.data is None and not done.keep and (scope.root / rel).is_symlink():
            # A file upskill created that the user made a link since (moved into their
            # dotfiles) is theirs: only upskill's members are cut, through the link
            # (`fsio.replaced_file`); removing would unlink the link and leave them.
            cut = form.take(ours)(current)
            done = ed.Settled(cut, None, keep=cut is None)
        if done.data is not None and not done.keep:
            replaced_file(scope.root / rel, root=scope.root)  # a bad link: `--dry-run` says so
        final[rel] = current if done.keep else done.data
        if done.record is not None:
            recorded[rel] = done.record
        elif members and (kept := final[rel]) is not None:
            # Needed, and the team's file holds it all: recorded as adding nothing, so
            # no later run reads the file as one a lockfile from before the records made.
            recorded[rel] = EditRecord(rel, sha256_bytes(kept), members=())
        if done.edited:
            files[rel] = ExtraFile(rel, ExtraOp.KEEP)
        if done.keep:
            continue
        reported = dict.fromkeys((*ours, *members)) if form.reported else {}
        files[rel] = changed(rel, current, done.data, tuple(reported), form)
    read = _reader(scope)
    hidden = {} if home else at.hidden(lambda p: final[p] if p in final else read(p))
    extra = tuple(files[p] for p in sorted(files))
    return _Extras(extra, tuple(recorded.values()), hidden, lines)


def _ours(rel: str, edit: EditRecord | None, *, home: bool) -> tuple[ed.Member, ...]:
    """The members a record says upskill added, of those upskill adds to that file: a
    lockfile is data a repository carries, and must not name a team member to cut."""
    if edit is None:
        return ()
    hides = {h.member for h in at.HIDES if h.settings == rel}
    listed = legacy_members(rel) if edit.members is None else edit.members
    return tuple(m for m in listed if m in hides or can_add(rel, m, home=home))


def plan_remove(scope: Scope, lock: Lockfile, keys: Iterable[str]) -> Outcome:
    """Drop items (and dependencies nothing else needs) and their outputs."""
    removing = set(keys)
    changed = True
    while changed:  # cascade: a dependency whose every requirer goes, goes too
        changed = False
        for item in lock.items:
            if item.key in removing or not item.required_by:
                continue
            if all(req in removing for req in item.required_by):
                removing.add(item.key)
                changed = True
    managed = frozenset(removing)
    records = {o.path: o for o in lock.outputs}
    owned = {p for p, o in records.items() if any(w.item in managed for w in o.owners)}
    observer = Observer(scope.root)
    current = _compiled_now(scope, records)
    home = scope.kind is ScopeKind.GLOBAL
    configured = _configured(scope)
    movers = ov.allowed(current, home, configured)
    imported = _imported(scope, current)
    justified = ov.justified_by_records(records, movers, managed, imported, configured)
    moves = movers if movers and justified else {}
    moves |= comp.alternatives(current, home)
    built = comp.assemble(current, (), records, managed, force=False, moves=moves)
    records |= built.records
    observed = observer.observe(owned | set(built.files) | _ownerless(records))
    plan = plan_outputs(built.files, managed, records, observed)
    items = []
    for item in lock.items:
        if item.key in managed:
            continue
        kept = tuple(r for r in item.required_by if r not in managed)
        items.append(dataclasses.replace(item, required_by=kept))
    gone_names = {k.split(":", 1)[1] for k in managed} - {i.name for i in items}
    bundles = []
    for b in lock.bundles:
        left = tuple(n for n in b.items if n not in gone_names)
        if left:
            bundles.append(dataclasses.replace(b, items=left))
    new_lock = dataclasses.replace(
        lock,
        items=tuple(items),
        bundles=tuple(bundles),
        outputs=_owned(plan),
    ).normalised()
    ours = upskill_compiled(current)
    extras = _ancillary(scope, lock, new_lock, plan, installing=False, compiled=ours)
    new_lock = dataclasses.replace(new_lock, edits=extras.edits)
    warnings: tuple[str, ...] = extras.lines
    if lock.items and not lock.outputs:
        warnings += (
            "this lockfile has no output records (written by another upskill): the removed "
            "items' files were left in place; run `upskill update` before `remove` to adopt them",
        )
    return Outcome(
        plan,
        new_lock,
        extras.files,
        (),
        tuple(sorted(managed)),
        (),
        warnings,
        observer.files,
    )


def commit_outcome(scope: Scope, outcome: Outcome) -> dict[str, Stat]:
    """Apply the outcome; (size, mtime_ns) of every file written, by relative path."""
    return apply_transaction(
        scope.root,
        scope.lockfile,
        outcome.transaction(read_optional(scope.lockfile, scope.root)),
        state=scope.state,
    )


__all__ = ["Op", "Outcome", "Repin", "commit_outcome", "plan_install", "plan_remove"]
