"""`upskill clients [--json]`: the supported clients, what each takes, and which this scope
shows signs of (the ones a bare `add` would install for)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from upskill.cli.cliargs import json_flag, scope_flags

if TYPE_CHECKING:
    from upskill.cli.console import Console
    from upskill.world import World


def configure(parser: argparse.ArgumentParser) -> None:
    scope_flags(parser)
    json_flag(parser)


def run(args: argparse.Namespace, console: Console, world: World) -> int:
    import json

    from upskill.cli.clientlist import clients_json, clients_text
    from upskill.lifecycle.detect import detect
    from upskill.lifecycle.scope import ScopeKind, resolve_scope

    scope = resolve_scope(world, project=args.project, global_=args.global_)
    home = scope.kind is ScopeKind.GLOBAL
    found = {d.client: d.reason for d in detect(scope.root, world.home, world.env, global_=home)}
    if args.json:
        console.json(json.dumps(clients_json(found, home=home), indent=2) + "\n")
    else:
        console.data(clients_text(found, home=home))
    return 0
