"""The argument parser for `upskill`.

Only the selected command's module is imported (to declare its arguments), so
a command's heavy dependencies never load for another command, and `--help`
loads none of them.

The parser writes help and usage errors to the run's own streams, never to
`sys.stdout`/`sys.stderr` directly, and never exits the process: `--help`
and usage errors end in `ParserExit`, whose status the dispatcher returns. So
a run in process (tests, embedders) behaves as the console script does.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from upskill import __version__
from upskill.cli.usage import DESCRIPTION, METAVAR, NO_COLOR, QUIET
from upskill.commands import COMMANDS
from upskill.exitcodes import USAGE

# `typing` costs more than the rest of start-up together: only the type checker
# imports it here (the `upskill.cli` front end stays free of it).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn, Protocol, TextIO

    from upskill.cli.console import Console
    from upskill.world import World

    class CommandModule(Protocol):
        def configure(self, parser: argparse.ArgumentParser) -> None: ...

        def run(self, args: argparse.Namespace, console: Console, world: World) -> int: ...


def load_command(module: str) -> CommandModule:
    """Import a command by its dotted name: the front end never imports commands statically."""
    command: CommandModule = importlib.import_module(f"upskill.commands.{module}")
    return command


class ParserExit(Exception):
    """argparse is done (`--help`, a usage error): the dispatcher returns `status`."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser bound to one run's stdout and stderr and help width."""

    def __init__(
        self, *args: object, streams: tuple[TextIO, TextIO], width: int | None, **kwargs: object
    ) -> None:
        self.out, self.err = streams
        self.width = width  # set first: argparse formats while it declares -h
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def _get_formatter(self) -> argparse.HelpFormatter:
        if self.width is None:
            return super()._get_formatter()
        return self.formatter_class(prog=self.prog, width=self.width)  # type: ignore[call-arg]

    def _print_message(self, message: str, file: object = None) -> None:
        # argparse names `sys.stdout` (help, version) or `sys.stderr` (usage, errors).
        if message:
            (self.err if file is sys.stderr else self.out).write(message)

    def print_usage(self, file: object = None) -> None:
        self._print_message(self.format_usage(), file)

    def print_help(self, file: object = None) -> None:
        self._print_message(self.format_help(), file)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            self.err.write(message)
        raise ParserExit(status)

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.err.write(f"{self.prog}: error: {message}\n")
        raise ParserExit(USAGE)


def _global_flags(parser: argparse.ArgumentParser, *, default: object = None) -> None:
    # Sub-parsers use SUPPRESS so a flag given before the command survives.
    for flags, text in (NO_COLOR, QUIET):
        parser.add_argument(*flags, action="store_true", default=default, help=text)


def build_parser(
    selected: str | None,
    *,
    every: bool = False,
    streams: tuple[TextIO, TextIO] | None = None,
    width: int | None = None,
) -> argparse.ArgumentParser:
    """Build the parser; only the selected command's module is imported and only its
    sub-parser built (no command selected: every sub-parser, so a usage error lists the
    choices; `every`: all of them, for shell completion, which must know every command's
    options). `streams`: where
    help and usage errors go (default: the process's stdout and stderr); `width`: of help
    (`upskill.cli.usage.help_width`; default: argparse's, from the process's terminal)."""
    streams = streams or (sys.stdout, sys.stderr)
    parser = _Parser(prog="upskill", description=DESCRIPTION, streams=streams, width=width)
    parser.add_argument("-V", "--version", action="version", version=f"upskill {__version__}")
    _global_flags(parser, default=False)
    sub = parser.add_subparsers(dest="command", metavar=METAVAR, parser_class=_Parser)
    for name, (module, summary) in COMMANDS.items():
        if selected is not None and name != selected and not every:
            # A run naming its command never sees the others' parsers, so it need
            # not build them (about 1 ms of a 40 ms `list` here).
            continue
        child = sub.add_parser(
            name, help=summary, description=summary, streams=streams, width=width
        )
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
