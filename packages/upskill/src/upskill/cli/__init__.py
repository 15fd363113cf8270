"""The `upskill` command line: entry point and the package of CLI-facing modules.

Start-up is on the hot path of every invocation (a no-op `update` must cost
little more than the interpreter itself), so this module imports nothing but
`sys`, `os` and the exit-code table: argparse and the command modules load
only when a command runs (`upskill.cli.dispatch`), and `--version` and the
top-level `--help` (`upskill.cli.usage`) answer before any of them.

The package's other modules are what commands print with: `console` (the
streams), `ui` (plan and summary lines), `cliargs` (shared flags) and
`listing` (`upskill list`). Only the CLI layer prints.
"""

from __future__ import annotations

import os
import sys

from upskill import __version__, exitcodes

# `typing` costs more than the rest of start-up together (~10 ms): only the type
# checker imports it here.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn, TextIO

    from upskill.world import World


def main(
    argv: list[str] | None = None,
    *,
    world: World | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run `upskill <argv>` and return its exit code (`argv` None: the process's own).

    The keyword arguments are the run's seams, passed on to `dispatch`: where it
    happens (`world`: cwd, HOME, environment) and its streams; each defaults to the
    process's own. Tests run commands in process through here, as the console script
    does, without changing directory or the process environment.
    """
    args_list = sys.argv[1:] if argv is None else argv
    if argv is None and "_ARGCOMPLETE" in os.environ:  # a shell asks what TAB completes
        from upskill.cli.dispatch import complete

        return complete()
    out, err = stdout or sys.stdout, stderr or sys.stderr
    if args_list in (["--version"], ["-V"]):
        out.write(f"upskill {__version__}\n")
        return exitcodes.OK
    if args_list in ([], ["-h"], ["--help"]):
        from upskill.cli.usage import help_width, top_help

        text = top_help(help_width(os.environ if world is None else world.env, out))
        if text is not None:  # else too narrow: argparse lays it out
            out.write(text)
            return exitcodes.OK
    from upskill.cli.dispatch import dispatch

    try:
        return dispatch(args_list, world=world, stdin=stdin, stdout=out, stderr=err)
    except KeyboardInterrupt:
        err.write("upskill: interrupted\n")
        return exitcodes.INTERRUPTED


def entry() -> NoReturn:
    """The console script: `main`, then exit without tearing the interpreter down.

    A large install leaves hundreds of thousands of live objects (parsed items,
    rendered files, lock records); freeing them one by one at shutdown took
    about 5% of a cold install. Every file a command writes is closed before
    the command returns, and no command registers exit handlers, so the only
    buffers left are the standard streams, flushed here.
    """
    try:
        code = main()
    except BrokenPipeError:  # stdout's reader left mid-output (`upskill list | head -1`)
        code = exitcodes.FLUSH_FAILED
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        code = code or exitcodes.FLUSH_FAILED
    os._exit(code)
