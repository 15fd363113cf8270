"""The `upskill` command line.

Start-up is on the hot path of every invocation (a no-op `update` must cost
little more than the interpreter itself), so this module imports only argparse
and looks command modules up by name: a command's dependencies load only when
that command runs.

Each command lives in `upskill.commands.<module>` and exposes
``configure(parser)`` to declare its arguments and ``run(args) -> int`` to do
the work. Only command modules print.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Protocol, cast

from upskill import __version__

# name -> (module under upskill.commands, one-line help). The table is the
# single place a command is registered; the order is the order of --help.
COMMANDS: dict[str, tuple[str, str]] = {
    "add": ("add", "Install items from a source into every selected client"),
    "update": ("update", "Re-fetch sources and regenerate changed items"),
    "remove": ("remove", "Remove installed items"),
    "remove-mcp": ("remove_mcp", "Unregister an MCP server a bundle configured"),
    "list": ("list_installed", "Show what is installed"),
    "doctor": ("doctor", "Check on-disk state against the lockfile"),
    "search": ("search", "Search the public registry and configured registries"),
    "index": ("index", "Build or clear the local registry index"),
    "new": ("new", "Scaffold a new rule, skill or agent"),
    "lint": ("lint", "Validate SSOT files against the format spec"),
    "fmt": ("fmt", "Canonicalise frontmatter and format Markdown bodies"),
}

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class CommandModule(Protocol):
    def configure(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


def _load(module: str) -> CommandModule:
    return cast(CommandModule, importlib.import_module(f"upskill.commands.{module}"))


class _UsageExit(Exception):
    """argparse wants to exit with a usage error; we own the exit code."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise _UsageExit


def _global_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-color", action="store_true", help="disable coloured output")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only errors and data")


def build_parser(selected: str | None) -> argparse.ArgumentParser:
    """Build the parser; only the selected command's module is imported."""
    parser = _Parser(
        prog="upskill",
        description="Author rules, skills and agents once; install them into every AI client.",
    )
    parser.add_argument("-V", "--version", action="version", version=f"upskill {__version__}")
    _global_flags(parser)
    sub = parser.add_subparsers(dest="command", metavar="<command>")
    for name, (module, summary) in COMMANDS.items():
        child = sub.add_parser(name, help=summary, description=summary)
        _global_flags(child)
        if name == selected:
            _load(module).configure(child)
    return parser


def _selected_command(argv: list[str]) -> str | None:
    for token in argv:
        if token in COMMANDS:
            return token
        if not token.startswith("-"):
            return None
    return None


def main(argv: list[str] | None = None) -> int:
    args_list = sys.argv[1:] if argv is None else argv
    selected = _selected_command(args_list)
    parser = build_parser(selected)
    try:
        args = parser.parse_args(args_list)
    except _UsageExit:
        return EXIT_USAGE
    if args.command is None:
        parser.print_help()
        return EXIT_OK
    try:
        return _load(COMMANDS[args.command][0]).run(args)
    except KeyboardInterrupt:
        sys.stderr.write("upskill: interrupted\n")
        return EXIT_INTERRUPTED
