"""Argument parsing and command dispatch for `upskill`.

Kept apart from `upskill.cli` so that argparse is imported only when a command
actually runs. Only the selected command's module is imported, so a command's
heavy dependencies never load for another command.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Protocol, cast

from upskill import __version__
from upskill.cli import COMMANDS, EXIT_OK, EXIT_USAGE


class CommandModule(Protocol):
    def configure(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


def load_command(module: str) -> CommandModule:
    return cast(CommandModule, importlib.import_module(f"upskill.commands.{module}"))


class _UsageExit(Exception):
    """argparse wants to exit with a usage error; we own the exit code."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise _UsageExit


def _global_flags(parser: argparse.ArgumentParser, *, default: object = None) -> None:
    # Sub-parsers use SUPPRESS so a flag given before the command survives.
    parser.add_argument(
        "--no-color", action="store_true", default=default, help="disable coloured output"
    )
    parser.add_argument(
        "-q", "--quiet", action="store_true", default=default, help="print only errors and data"
    )


def build_parser(selected: str | None) -> argparse.ArgumentParser:
    """Build the parser; only the selected command's module is imported."""
    parser = _Parser(
        prog="upskill",
        description="Author rules, skills and agents once; install them into every AI client.",
    )
    parser.add_argument("-V", "--version", action="version", version=f"upskill {__version__}")
    _global_flags(parser, default=False)
    sub = parser.add_subparsers(dest="command", metavar="<command>", parser_class=_Parser)
    for name, (module, summary) in COMMANDS.items():
        child = sub.add_parser(name, help=summary, description=summary)
        _global_flags(child, default=argparse.SUPPRESS)
        if name == selected:
            load_command(module).configure(child)
    return parser


def _selected_command(argv: list[str]) -> str | None:
    for token in argv:
        if token in COMMANDS:
            return token
        if not token.startswith("-"):
            return None
    return None


def dispatch(argv: list[str]) -> int:
    selected = _selected_command(argv)
    parser = build_parser(selected)
    try:
        args = parser.parse_args(argv)
    except _UsageExit:
        return EXIT_USAGE
    if args.command is None:
        parser.print_help()
        return EXIT_OK
    return load_command(COMMANDS[args.command][0]).run(args)
