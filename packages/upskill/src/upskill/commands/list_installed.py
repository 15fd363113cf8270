"""`upskill list [--json]`: what the lockfile says is installed (never fetches)."""

from __future__ import annotations

import argparse
import sys

from upskill.install.cliargs import scope_flags


def configure(parser: argparse.ArgumentParser) -> None:
    scope_flags(parser)
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace) -> int:
    import json

    from upskill.errors import UpskillError
    from upskill.install.listing import listing_json, listing_text
    from upskill.install.scope import World, resolve_scope
    from upskill.install.ui import Console
    from upskill.state.lockfile import read_lockfile

    console = Console.create(sys.stdout, sys.stderr, quiet=args.quiet, no_color=args.no_color)
    try:
        world = World.current()
        scope = resolve_scope(world, project=args.project, global_=args.global_)
        lock = read_lockfile(scope.lockfile)
    except UpskillError as exc:
        console.error(str(exc))
        return exc.exit_code
    if args.json:
        console.data(json.dumps(listing_json(lock), indent=2) + "\n")
    else:
        console.data(listing_text(lock, scope.lockfile))
    return 0
