"""The `upskill` command line entry point.

Start-up is on the hot path of every invocation (a no-op `update` must cost
little more than the interpreter itself), so this module imports nothing but
`sys`: argparse and the command modules load only when a command runs, and
`--version` answers before any of them.

Each command lives in `upskill.commands.<module>` and exposes
``configure(parser)`` to declare its arguments and ``run(args) -> int`` to do
the work. Only command modules print.
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn

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
EXIT_FLUSH_FAILED = 120  # what CPython itself returns when flushing stdout fails at exit


def main(argv: list[str] | None = None) -> int:
    args_list = sys.argv[1:] if argv is None else argv
    if args_list in (["--version"], ["-V"]):
        sys.stdout.write(f"upskill {__version__}\n")
        return EXIT_OK
    from upskill.cli_parser import dispatch

    try:
        return dispatch(args_list)
    except KeyboardInterrupt:
        sys.stderr.write("upskill: interrupted\n")
        return EXIT_INTERRUPTED


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
        code = EXIT_FLUSH_FAILED
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        code = code or EXIT_FLUSH_FAILED
    os._exit(code)
