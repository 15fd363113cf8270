"""`upskill list [--json]`: what the lockfile says is installed (never fetches)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from upskill.cli.cliargs import scope_flags

if TYPE_CHECKING:
    from upskill.cli.console import Console
    from upskill.world import World


def configure(parser: argparse.ArgumentParser) -> None:
    scope_flags(parser)
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace, console: Console, world: World) -> int:
    import json

    from upskill.cli.listing import listing_json, listing_text
    from upskill.lifecycle.scope import resolve_scope
    from upskill.state.lockfile import read_lockfile

    scope = resolve_scope(world, project=args.project, global_=args.global_)
    lock = read_lockfile(scope.lockfile)
    if args.json:
        console.json(json.dumps(listing_json(lock), indent=2) + "\n")
    else:
        console.data(listing_text(lock, scope.lockfile))
    return 0
