"""Parse the command line, run the selected command, and report its failure.

This is the one error boundary, as pre-commit's `error_handler` and pipx's
`cli()` are: commands raise `UpskillError` and never print their own
failure. Here it becomes one stderr line, ``upskill: error: <message>``,
and the error's exit code; an `OSError` naming a file (permission denied,
read-only or full filesystem) is reported the same way with exit 1.
Anything else is a bug in upskill. It becomes
``upskill: internal error: <type>: <message>`` and exit 70 rather than a
raw traceback; `UPSKILL_DEBUG=1` prints the traceback as well.
"""

from __future__ import annotations

import os
import sys

from upskill import exitcodes
from upskill.cli.console import Console
from upskill.cli.parser import ParserExit, build_parser, load_command, selected_command
from upskill.cli.usage import help_width
from upskill.commands import COMMANDS

# `typing` costs more than the rest of start-up together: only the type checker
# imports it here (the `upskill.cli` front end stays free of it).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import TextIO

    from upskill.world import World

DEBUG_ENV = "UPSKILL_DEBUG"


def dispatch(
    argv: list[str],
    *,
    world: World | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run one command line; every outcome is an exit code, never an exception.

    `world` is where the run happens (cwd, HOME, environment) and the streams are
    what it reads and prints; each defaults to the process's own. Nothing else of
    the process is read, so a test or an embedder runs a command in process, with
    its own directory and environment, exactly as the console script would.

    KeyboardInterrupt (the caller reports it) and BrokenPipeError (the reader
    left; `entry` exits with CPython's own code) pass through.
    """
    boundary = _Boundary(world, stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr)
    try:
        return boundary.run(argv)
    except BrokenPipeError:
        raise
    except Exception as exc:
        # Imported here: `errors` pulls in pathlib, which `--help` does not need.
        from upskill.errors import UpskillError

        if isinstance(exc, UpskillError):
            for warning in exc.warnings:  # what the error refers to: even -q shows it
                boundary.console.warn(warning, always=True)
            boundary.console.error(str(exc))
            return exc.exit_code
        if isinstance(exc, OSError) and exc.filename is not None and exc.strerror:
            # The machine refused (EACCES, EROFS, ENOSPC, ...): the user's problem to fix,
            # named by the file, not a bug in upskill.
            boundary.console.error(f"{exc.filename}: {exc.strerror}")
            return exitcodes.ERROR
        return _internal_error(boundary.console, exc, boundary.env)


class _Boundary:
    """Holds the console once the flags that shape it (-q, --no-color) are parsed.

    The world is built only when a command runs: `--help` and usage errors need
    nothing but the environment (for NO_COLOR)."""

    def __init__(self, world: World | None, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> None:
        self.world = world
        self.env: Mapping[str, str] = os.environ if world is None else world.env
        self.streams = (stdin, stdout, stderr)
        self.console = self._console(quiet=False, no_color=False)

    def run(self, argv: list[str]) -> int:
        stdout, stderr = self.streams[1:]
        width = help_width(self.env, stdout)
        parser = build_parser(selected_command(argv), streams=(stdout, stderr), width=width)
        try:
            args = parser.parse_args(argv)
        except ParserExit as done:
            return done.status
        if args.command is None:
            parser.print_help()
            return exitcodes.OK
        self.console = self._console(quiet=args.quiet, no_color=args.no_color)
        command = load_command(COMMANDS[args.command][0])
        if self.world is None:
            from upskill.world import World

            self.world = World.current()
        return command.run(args, self.console, self.world)

    def _console(self, *, quiet: bool, no_color: bool) -> Console:
        stdin, stdout, stderr = self.streams
        return Console.create(
            stdout, stderr, quiet=quiet, no_color=no_color, env=self.env, answers=stdin
        )


def _internal_error(console: Console, exc: Exception, env: Mapping[str, str]) -> int:
    debug = env.get(DEBUG_ENV, "") not in ("", "0")
    if debug:
        import traceback

        console.done()
        traceback.print_exception(exc, file=console.err)
    hint = "" if debug else f" (set {DEBUG_ENV}=1 for the traceback)"
    console.internal(f"{type(exc).__name__}: {exc}{hint}")
    return exitcodes.INTERNAL


def complete() -> int:
    """Answer a shell's TAB request (argcomplete's environment) from the full parser, every
    command's options included; argcomplete writes the answer to the descriptor the shell
    hook opened and exits the process itself."""
    import argcomplete

    argcomplete.autocomplete(build_parser(None, every=True), always_complete_options="long")
    return 0  # not a completion request after all (argcomplete returned)
