"""`upskill update [names…]`: re-fetch sources and regenerate what changed.

A bare update with no flags first asks the fast path whether anything it
depends on changed; only then does it load the parser and renderer.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from upskill.cli.cliargs import client_flags, dry_run_flag, json_flag, scope_flags, strict_flag

if TYPE_CHECKING:
    from upskill.cli.console import Console
    from upskill.lifecycle.engine import Outcome
    from upskill.lifecycle.resolve import Resolution
    from upskill.lifecycle.scope import Scope
    from upskill.world import World


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("names", nargs="*", help="installed items or bundles (default: everything)")
    dry_run_flag(parser)
    scope_flags(parser)
    parser.add_argument(
        "--force",
        action="store_true",
        help="replace outputs that were edited locally (lists what was discarded)",
    )
    client_flags(parser)
    strict_flag(parser)
    json_flag(parser)


def run(args: argparse.Namespace, console: Console, world: World) -> int:
    from upskill.cli.cliargs import chosen_clients
    from upskill.lifecycle.scope import resolve_scope

    scope = resolve_scope(world, project=args.project, global_=args.global_)
    flags = chosen_clients(args)
    bare = not (args.names or flags or args.force or args.dry_run or args.strict or args.json)
    if bare and _nothing_changed(world, scope):
        # The nothing-changed path: no YAML parser, formatter or renderer is loaded.
        console.info("Already up to date.")
        return 0
    return _full(args, console, world, scope, flags)


def _nothing_changed(world: World, scope: Scope) -> bool:
    import os

    from upskill.lifecycle import fastpath
    from upskill.state.config import load_config_paths

    if os.path.lexists(scope.journal) or (scope.root / ".upskill").is_symlink():
        return False  # an interrupted run, or a state directory the full path refuses
    try:
        lock_bytes = scope.lockfile.read_bytes()
    except OSError:
        return False
    state = fastpath.state_file(world.cache_dir, scope.root)

    def fingerprints(labels: list[str]) -> dict[str, str | None]:
        """Local sources by stat signature; git sources fetched together, in parallel."""
        from upskill.errors import UpskillError
        from upskill.sources.local import local_fetched
        from upskill.sources.spec import parse_label

        found: dict[str, str | None] = {}
        remote = []
        for label in labels:
            try:
                spec = parse_label(label, scope.anchor)
                if spec.is_git:
                    remote.append(spec)
                else:
                    found[label] = fastpath.fingerprint_of(local_fetched(spec))
            except UpskillError:
                found[label] = None
        if remote and all(found.get(label, "") is not None for label in labels):
            from upskill.sources.fetch import Fetcher

            for spec, got in Fetcher(world).fetch_each(remote).items():
                if isinstance(got, UpskillError):
                    found[spec.label] = None
                else:
                    found[spec.label] = fastpath.fingerprint_of(got)
        return found

    return fastpath.unchanged(
        state,
        lock_bytes=lock_bytes,
        config_paths=load_config_paths(world),
        root=scope.root,
        fingerprints=fingerprints,
    )


def _full(
    args: argparse.Namespace, console: Console, world: World, scope: Scope, flags: tuple[str, ...]
) -> int:
    import dataclasses

    from upskill.cli.runjson import committed_document, emit, empty_document, run_document
    from upskill.cli.ui import report_dry_run, report_update
    from upskill.lifecycle.engine import plan_install
    from upskill.lifecycle.flow import check, commit, hook_bundles
    from upskill.lifecycle.requests import update_requests
    from upskill.lifecycle.resolve import Resolver
    from upskill.lifecycle.scopelock import ScopeLock
    from upskill.lifecycle.selection import choose
    from upskill.lifecycle.session import Session
    from upskill.sources.spec import canonical_label
    from upskill.state.config import load_config

    selection = choose(flags, load_config(world))
    session = Session(
        world,
        scope,
        on_fetch=lambda s: console.progress(f"fetching {s.label}"),
        strict=args.strict,
    )

    def plan() -> tuple[Resolution, Outcome] | None:
        lock = session.read_lock()
        if not lock.items and not lock.bundles:
            return None
        todo = update_requests(lock, args.names, scope.anchor)
        failed = session.prefetch([r.spec for r in todo.requests])
        requests = [r for r in todo.requests if r.spec not in failed]
        resolver = Resolver(session.catalog, home=world.home, anchor=scope.anchor)
        resolution = resolver.resolve(requests)
        unreachable = {spec.label for spec in failed}
        kept = {
            i.key
            for i in lock.items
            if i.original_name in resolution.missing
            or canonical_label(i.source, scope.anchor) in unreachable
        }
        kept |= {i.key for i in lock.items if set(i.required_by) & kept}
        console.progress("rendering")
        outcome = plan_install(
            scope,
            lock,
            resolution,
            selection,
            force=args.force,
            also_managed=todo.managed - kept,
            on_item=lambda done, total: console.count("rendering", done, total),
        )
        notes = tuple(
            f"cannot fetch {spec.label} ({error}); its items were left as they are"
            for spec, error in failed.items()
        )
        return resolution, dataclasses.replace(outcome, warnings=notes + outcome.warnings)

    # Fetch before taking the scope lock, so network time never holds it.
    ahead = update_requests(session.read_lock(), args.names, scope.anchor)
    session.prefetch([r.spec for r in ahead.requests])
    where = scope.kind.value
    if args.dry_run:
        planned = plan()
        if planned is None:
            if args.json:
                return emit(console, empty_document("update", scope=where, dry_run=True))
            console.info("nothing installed")
            return 0
        check(
            session,
            planned[1].lock,
            selection=selection or (),
            bundles=hook_bundles(planned[0]),
            dry_run=True,
        )
        if args.json:
            return emit(console, run_document("update", planned[1], scope=where, dry_run=True))
        return report_dry_run(console, planned[1])
    with ScopeLock(scope.lock_path, world.env):
        if session.recover():
            console.info("completed an interrupted run first")
        planned = plan()
        if planned is None:
            if args.json:
                return emit(console, empty_document("update", scope=where, dry_run=False))
            console.info("nothing installed")
            return 0
        resolution, outcome = planned
        console.progress("writing")
        committed = commit(
            session,
            outcome,
            selection=selection or (),
            bundles=hook_bundles(resolution),
            force=args.force,
        )
    bundles = {b.name for b in resolution.bundles}
    if args.json:
        document = committed_document("update", outcome, committed, scope=where, bundles=bundles)
        return emit(console, document)
    return report_update(console, outcome, committed, bundles)
