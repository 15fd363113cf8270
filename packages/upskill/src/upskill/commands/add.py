"""`upskill add <source> [items…]`: install items from a source into the selected clients."""

from __future__ import annotations

import argparse
import functools
from typing import TYPE_CHECKING

from upskill.cli.cliargs import client_flags, dry_run_flag, json_flag, scope_flags, strict_flag

if TYPE_CHECKING:
    from upskill.cli.console import Console
    from upskill.lifecycle.engine import Outcome
    from upskill.world import World


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", help="owner/repo[@ref][:path], an https URL or a local path")
    parser.add_argument("items", nargs="*", help="items or bundles to install (default: all items)")
    scope_flags(parser)
    parser.add_argument(
        "--force",
        action="store_true",
        help="replace files that were edited locally or not written by upskill",
    )
    parser.add_argument(
        "--as",
        dest="aliases",
        action="append",
        default=[],
        metavar="ALIAS",
        help="install under another name: ALIAS, or orig=alias (repeatable)",
    )
    parser.add_argument(
        "--exclude", action="append", default=[], metavar="NAME", help="skip an item (repeatable)"
    )
    client_flags(parser)
    strict_flag(parser)
    json_flag(parser)
    dry_run_flag(parser)


def run(args: argparse.Namespace, console: Console, world: World) -> int:
    from upskill.cli.cliargs import chosen_clients
    from upskill.cli.runjson import committed_document, emit, run_document
    from upskill.cli.ui import report_dry_run, report_install, report_update
    from upskill.lifecycle.detect import Detection, detect
    from upskill.lifecycle.engine import plan_install
    from upskill.lifecycle.flow import check, commit, hook_bundles
    from upskill.lifecycle.requests import carried_aliases
    from upskill.lifecycle.resolve import Request, Resolver, parse_aliases
    from upskill.lifecycle.scope import ScopeKind, resolve_scope
    from upskill.lifecycle.scopelock import ScopeLock
    from upskill.lifecycle.selection import choose, in_use
    from upskill.lifecycle.session import Session
    from upskill.sources.spec import parse_source
    from upskill.state.config import load_config

    scope = resolve_scope(world, project=args.project, global_=args.global_)
    if scope.kind is ScopeKind.GLOBAL and not args.global_:
        # Chosen because no repository encloses the cwd: said before anything is written.
        console.info(
            f"no git repository here: installing into the global scope ({scope.root}); "
            "use --project to install into this directory"
        )
    spec = parse_source(args.source, cwd=world.cwd, home=world.home, anchor=scope.anchor)
    aliases, single = parse_aliases(args.aliases)
    flags, config = chosen_clients(args), load_config(world)
    chosen = choose(flags, config)
    session = Session(
        world,
        scope,
        on_fetch=lambda s: console.progress(f"fetching {s.label}"),
        strict=args.strict,
    )
    # A malformed lockfile fails before anything is fetched or created.
    lock = session.read_lock()
    if single is None:  # `--as ALIAS` names the one item; otherwise aliases carry over
        aliases = {**carried_aliases(lock, spec), **aliases}
    request = Request(spec, tuple(args.items), tuple(args.exclude), aliases, single)
    # Fetch and resolve before taking the scope lock: a bad source writes nothing.
    resolver = Resolver(session.catalog, home=world.home, anchor=scope.anchor)
    resolution = resolver.resolve([request])

    @functools.cache
    def detected() -> tuple[Detection, ...]:
        """The clients detected here, looked for once per run (the check before the scope
        lock and the selection under it both ask)."""
        home_scope = scope.kind is ScopeKind.GLOBAL
        return detect(scope.root, world.home, world.env, global_=home_scope)

    def clients_here() -> tuple[tuple[str, ...], str | None]:
        """Flags or config, else what the scope already uses (its lockfile), else the
        clients detected here, else the baseline; and the line saying they were detected."""
        if chosen is not None:
            return chosen, None
        used = in_use(session.read_lock())
        if used:
            return used, None
        found = detected()
        signs = ", ".join(f"{d.client} ({d.reason})" for d in found)
        said = f"installing for the clients detected here: {signs} (--all: every client)"
        return tuple(d.client for d in found), said if found else None

    def select() -> tuple[str, ...]:
        """`clients_here`, asked once the scope is settled (an interrupted run completed),
        so upskill's own outputs read as the lockfile's."""
        selection, said = clients_here()
        if said is not None:
            console.info(said)
        return selection

    # A bundle a selected client would evaluate as code is refused before the scope lock
    # is taken: like a bad source, it writes nothing (`commit` checks again under the lock).
    check(
        session,
        lock,
        selection=clients_here()[0],
        bundles=hook_bundles(resolution),
        dry_run=args.dry_run,
    )

    def plan() -> Outcome:
        console.progress("rendering")
        lock = session.read_lock()
        return plan_install(
            scope,
            lock,
            resolution,
            selection,
            force=args.force,
            on_item=lambda done, total: console.count("rendering", done, total),
        )

    if args.dry_run:
        selection = select()
        planned = plan()
        if args.json:
            return emit(console, run_document("add", planned, scope=scope.kind.value, dry_run=True))
        return report_dry_run(console, planned)
    with ScopeLock(scope.lock_path, world.env):
        if session.recover():
            console.info("completed an interrupted run first")
        selection = select()
        outcome = plan()
        console.progress("writing")
        committed = commit(
            session,
            outcome,
            selection=selection,
            bundles=hook_bundles(resolution),
            force=args.force,
        )
    bundles = {b.name for b in resolution.bundles}
    if args.json:
        document = committed_document(
            "add", outcome, committed, scope=scope.kind.value, bundles=bundles
        )
        return emit(console, document)
    if outcome.repinned:  # another ref of an installed source: reported as update does
        return report_update(console, outcome, committed, bundles)
    return report_install(console, outcome, committed, bundles, verb="installed")
