"""`upskill lint [paths] [--strict] [--json]`: validate SSOT files against the format spec."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", type=Path, help="files or directories (default: .)")
    parser.add_argument(
        "-s", "--strict", action="store_true", help="CI mode: warnings become errors"
    )
    parser.add_argument("--json", action="store_true", help="print a JSON report on stdout")


def run(args: argparse.Namespace) -> int:
    from upskill.author.lint import lint_targets
    from upskill.author.lint.findings import render_json, render_text
    from upskill.author.targets import command_targets
    from upskill.errors import UpskillError

    cwd = Path.cwd()
    try:
        targets = command_targets(args.paths)
    except UpskillError as error:
        sys.stderr.write(f"upskill lint: {error}\n")
        return error.exit_code
    report = lint_targets(targets, strict=args.strict)
    if args.json:
        sys.stdout.write(render_json(report, cwd, strict=args.strict))
    else:
        lines = render_text(report, cwd)
        if args.quiet:
            lines = lines[:-1]
        if lines:
            sys.stdout.write("\n".join(lines) + "\n")
    return report.exit_code()
