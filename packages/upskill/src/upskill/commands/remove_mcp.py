"""`upskill remove-mcp <name>`: unregister a bundle's MCP server everywhere it was configured."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from upskill.cli.cliargs import json_flag, scope_flags

if TYPE_CHECKING:
    from upskill.cli.console import Console
    from upskill.world import World


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", help="the MCP server name recorded in the lockfile")
    scope_flags(parser)
    json_flag(parser)


def run(args: argparse.Namespace, console: Console, world: World) -> int:
    import dataclasses

    from upskill.clientconf.clientcli import SubprocessCli
    from upskill.clientconf.places import client_scope, places_for
    from upskill.errors import UpskillError
    from upskill.lifecycle.journal import Transaction, apply_transaction
    from upskill.lifecycle.scope import resolve_scope
    from upskill.lifecycle.scopelock import ScopeLock
    from upskill.lifecycle.session import Session
    from upskill.mcp import records as conv
    from upskill.mcp.unregister import unregister
    from upskill.state.lockfile import serialise_lockfile

    scope = resolve_scope(world, project=args.project, global_=args.global_)
    session = Session(world, scope)
    session.read_lock()  # fail on a malformed lockfile before locking
    with ScopeLock(scope.lock_path, world.env):
        session.recover()  # finish a run that was killed before rewriting its lockfile
        lock = session.read_lock()
        mine = [m for m in lock.mcps if m.name == args.name]
        if not mine:
            recorded = sorted({m.name for m in lock.mcps})
            hint = f" (recorded: {', '.join(recorded)})" if recorded else ""
            raise UpskillError(f"no MCP server named {args.name!r} is recorded{hint}")
        default = client_scope(scope.kind.value == "global")
        typed = [conv.mcp_record(m, default) for m in mine]
        report = unregister(
            typed, places=places_for(scope.root, world), cli=SubprocessCli(world.env)
        )
        kept = tuple(m for m in lock.mcps if m.name != args.name)
        new = dataclasses.replace(lock, mcps=kept)
        apply_transaction(
            scope.root,
            scope.lockfile,
            Transaction((), (), serialise_lockfile(new)),
            state=scope.state,
        )
    if args.json:
        import json

        document = {
            "schema": 1,
            "command": "remove-mcp",
            "scope": scope.kind.value,
            "name": args.name,
            "clients": [r.client for r in typed],
            "messages": list(report.notices),
            "warnings": list(report.warnings),
        }
        console.json(json.dumps(document, indent=2) + "\n")
        return 0
    for line in report.notices:
        console.info(line)
    for line in report.warnings:
        console.warn(line)
    clients = ", ".join(r.client for r in typed)
    console.info(f"removed MCP server {args.name} ({clients})")
    return 0
