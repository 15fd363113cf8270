"""`upskill fmt [paths] [--check]`: canonicalise frontmatter key order and Markdown bodies."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from upskill.cli.console import Console
    from upskill.world import World


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", type=Path, help="files or directories (default: .)")
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; list files that would change and exit 1 if any",
    )


def _shown(path: Path, base: Path) -> str:
    try:
        return path.relative_to(base).as_posix()
    except ValueError:
        return path.as_posix()


def run(args: argparse.Namespace, console: Console, world: World) -> int:
    from upskill.author.fmt import plan_fmt
    from upskill.author.targets import command_targets
    from upskill.fsio import replace_file

    cwd = world.cwd
    targets = command_targets(args.paths, cwd)
    failed = False
    changed = 0
    for outcome in plan_fmt(targets):
        shown = _shown(outcome.target.path, cwd)
        if outcome.error is not None:
            failed = True
            console.error(outcome.error.shown_from(cwd))  # one bad file does not stop the others
            continue
        if outcome.body_kept:
            console.warn(
                f"{shown}: body left as written: formatting it would change its Markdown "
                "structure (what it says), so only the frontmatter is canonicalised"
            )
        if outcome.canonical is None:
            continue
        changed += 1
        if args.check:
            console.data(f"would reformat {shown}\n")
            continue
        try:
            replace_file(outcome.target.path, outcome.canonical)
        except OSError as error:
            failed = True
            console.error(f"{shown}: cannot write: {error.strerror}")
            continue
        if not args.quiet:
            console.data(f"formatted {shown}\n")
    if not args.quiet:
        verb = "would be reformatted" if args.check else "reformatted"
        console.data(f"{len(targets)} file(s) checked, {changed} {verb}\n")
    return 1 if failed or (args.check and changed) else 0
