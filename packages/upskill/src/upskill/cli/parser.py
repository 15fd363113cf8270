"""The argument parser for `upskill`.

Only the selected command's module is imported (to declare its arguments), so
a command's heavy dependencies never load for another command, and `--help`
loads none of them.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import TYPE_CHECKING, Protocol, cast

from upskill import __version__
from upskill.commands import COMMANDS

if TYPE_CHECKING:
    from upskill.cli.console import Console


class CommandModule(Protocol):
    def configure(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace, console: Console) -> int: ...


def load_command(module: str) -> CommandModule:
    """Import a command by its dotted name: the front end never imports commands statically."""
    return cast(CommandModule, importlib.import_module(f"upskill.commands.{module}"))


class UsageExit(Exception):
    """argparse wants to exit with a usage error; the dispatcher owns the exit code."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise UsageExit


def _global_flags(parser: argparse.ArgumentParser, *, default: object = None) -> None:
    # Sub-parsers use SUPPRESS so a flag given before the command survives.
    parser.add_argument(
        "--no-color", action="store_true", default=default, help="disable coloured output"
    )
    parser.add_argument(
        "-q", "--quiet", action="store_true", default=default, help="print only errors and data"
    )


def build_parser(selected: str | None, *, every: bool = False) -> argparse.ArgumentParser:
    """Build the parser; only the selected command's module is imported (`every`: all of
    them, for shell completion, which must know every command's options)."""
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
        if every or name == selected:
            load_command(module).configure(child)
    return parser


def selected_command(argv: list[str]) -> str | None:
    for token in argv:
        if token in COMMANDS:
            return token
        if not token.startswith("-"):
            return None
    return None
