"""`upskill lint [paths] [--strict] [--json]`: validate SSOT files against the format spec."""

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
        "-s", "--strict", action="store_true", help="CI mode: warnings become errors"
    )
    parser.add_argument("--json", action="store_true", help="print a JSON report on stdout")


def run(args: argparse.Namespace, console: Console, world: World) -> int:
    from upskill.author.lint import lint_targets
    from upskill.author.lint.findings import render_json, render_text
    from upskill.author.targets import command_targets

    cwd = world.cwd
    targets = command_targets(args.paths, cwd)
    report = lint_targets(targets, strict=args.strict)
    if args.json:
        console.json(render_json(report, cwd, strict=args.strict))
    else:
        lines = render_text(report, cwd)
        if args.quiet:
            lines = lines[:-1]
        if lines:
            console.data("\n".join(lines) + "\n")
    return report.exit_code()
