"""`upskill remove [names…] | --source LABEL`: uninstall items and their outputs.

Outputs edited since upskill wrote them are left in place (and reported);
`CLAUDE.md` and opencode's config keep everything but the entries of rules that
are gone, and a `.vscode/settings.json` upskill edited is given back as it was
(`lifecycle.edits`).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from upskill.cli.cliargs import dry_run_flag, json_flag, scope_flags

if TYPE_CHECKING:
    from upskill.cli.console import Console
    from upskill.lifecycle.engine import Outcome
    from upskill.state.lockfile import Lockfile
    from upskill.world import World


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("names", nargs="*", help="installed items to remove")
    parser.add_argument(
        "-s",
        "--source",
        metavar="LABEL",
        help="remove everything installed from this source label (exact match)",
    )
    parser.add_argument("-y", "--yes", action="store_true", help="do not ask for confirmation")
    scope_flags(parser)
    dry_run_flag(parser)
    json_flag(parser)


def _targets(lock: Lockfile, names: list[str], source: str | None) -> tuple[set[str], list[str]]:
    """Item keys to remove and bundle names to drop."""
    from upskill.errors import UpskillError

    keys: set[str] = set()
    bundles: list[str] = []
    if source is not None:
        keys |= {i.key for i in lock.items if i.source == source}
        bundles += [b.name for b in lock.bundles if b.source == source]
        if not keys and not bundles:
            labels = sorted({i.source for i in lock.items})
            hint = f" (installed: {', '.join(labels)})" if labels else ""
            raise UpskillError(f"nothing installed from {source!r}{hint}")
    unknown = []
    for name in names:
        found = {i.key for i in lock.items if i.name == name}
        if not found:
            unknown.append(name)
        keys |= found
    if unknown:
        raise UpskillError(f"not installed: {', '.join(unknown)}")
    return keys, bundles


def _confirm(console: Console, count: int, label: str) -> bool:
    question = f"Remove {count} item{'s' if count != 1 else ''} installed from {label}? [y/N] "
    return console.ask(question).lower() in ("y", "yes")


def run(args: argparse.Namespace, console: Console, world: World) -> int:
    import dataclasses

    from upskill.cli.runjson import committed_document, emit, run_document
    from upskill.cli.ui import extra_lines, noteworthy, plural, report_dry_run, tail
    from upskill.errors import UsageError
    from upskill.lifecycle.engine import plan_remove
    from upskill.lifecycle.flow import commit
    from upskill.lifecycle.scope import resolve_scope
    from upskill.lifecycle.scopelock import ScopeLock
    from upskill.lifecycle.session import Session

    if not args.names and not args.source:
        raise UsageError(
            "name the items to remove, or pass --source LABEL (a bare remove is refused)"
        )
    scope = resolve_scope(world, project=args.project, global_=args.global_)
    session = Session(world, scope)

    def plan() -> tuple[Outcome, list[str]]:
        lock = session.read_lock()
        keys, bundles = _targets(lock, args.names, args.source)
        outcome = plan_remove(scope, lock, keys)
        if bundles:
            kept = tuple(b for b in outcome.lock.bundles if b.name not in bundles)
            outcome = dataclasses.replace(
                outcome, lock=dataclasses.replace(outcome.lock, bundles=kept)
            )
        return outcome, bundles

    if args.dry_run:
        if args.json:
            document = run_document("remove", plan()[0], scope=scope.kind.value, dry_run=True)
            return emit(console, document)
        return report_dry_run(console, plan()[0])
    session.read_lock()  # fail on a malformed lockfile before creating anything
    with ScopeLock(scope.lock_path, world.env):
        session.recover()
        outcome, bundles = plan()
        if (
            args.source
            and not args.yes
            and console.interactive
            and not _confirm(console, len(outcome.removed), args.source)
        ):
            console.info("aborted; nothing removed")
            return 1
        committed = commit(session, outcome, selection=(), removed_bundles=bundles)
        messages = committed.messages
    if args.json:
        document = committed_document(
            "remove", outcome, committed, scope=scope.kind.value, bundles=bundles
        )
        return emit(console, document)
    for warning in outcome.warnings:
        console.warn(warning)
    for line in [*noteworthy(outcome.plan.actions), *extra_lines(outcome.extras), *messages]:
        console.info(line)
    removed = len(outcome.removed)
    console.info(f"{plural(removed, 'item')} removed{tail(outcome.plan, outcome.extras)}")
    return 0
