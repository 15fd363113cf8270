"""`upskill fmt [paths] [--check]`: canonicalise frontmatter key order and Markdown bodies."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


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


def run(args: argparse.Namespace) -> int:
    from upskill.author.fmt import plan_fmt
    from upskill.author.targets import command_targets
    from upskill.errors import UpskillError
    from upskill.fsio import replace_file

    cwd = Path.cwd()
    try:
        targets = command_targets(args.paths)
    except UpskillError as error:
        sys.stderr.write(f"upskill fmt: {error}\n")
        return error.exit_code
    failed = False
    changed = 0
    for outcome in plan_fmt(targets):
        shown = _shown(outcome.target.path, cwd)
        if outcome.error is not None:
            failed = True
            sys.stderr.write(f"upskill fmt: {outcome.error}\n")
            continue
        if outcome.canonical is None:
            continue
        changed += 1
        if args.check:
            sys.stdout.write(f"would reformat {shown}\n")
            continue
        try:
            replace_file(outcome.target.path, outcome.canonical)
        except OSError as error:
            failed = True
            sys.stderr.write(f"upskill fmt: {shown}: cannot write: {error.strerror}\n")
            continue
        if not args.quiet:
            sys.stdout.write(f"formatted {shown}\n")
    if not args.quiet:
        verb = "would be reformatted" if args.check else "reformatted"
        sys.stdout.write(f"{len(targets)} file(s) checked, {changed} {verb}\n")
    return 1 if failed or (args.check and changed) else 0
