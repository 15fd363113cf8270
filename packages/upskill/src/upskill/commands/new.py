"""`upskill new <kind> <name>`: scaffold `<name>/<KIND>.md` in the current directory."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from upskill.cli.console import Console
    from upskill.world import World


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kind", help="rule, skill or agent")
    parser.add_argument("name", help="item name: lowercase letters, digits, hyphens (max 64)")


def run(args: argparse.Namespace, console: Console, world: World) -> int:
    from upskill.author.scaffold import plan_scaffold
    from upskill.author.targets import ensure_source_registry
    from upskill.errors import UpskillError
    from upskill.fsio import create_exclusive

    ensure_source_registry([Path()], world.cwd)
    scaffold = plan_scaffold(world.cwd, args.kind, args.name)
    shown = scaffold.path.relative_to(world.cwd)  # as the user named it
    scaffold.path.parent.mkdir(exist_ok=True)
    try:
        create_exclusive(scaffold.path, scaffold.data)
    except FileExistsError:
        raise UpskillError("already exists; refusing to overwrite", path=shown) from None
    if not args.quiet:
        console.data(f"created {shown.as_posix()}\n")
    return 0
