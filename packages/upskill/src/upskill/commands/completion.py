"""`upskill completion bash|zsh|fish`: print the shell hook for TAB completion."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from upskill.cli.console import Console
    from upskill.world import World


def configure(parser: argparse.ArgumentParser) -> None:
    from upskill.cli.completion import SHELLS

    parser.add_argument("shell", choices=SHELLS, help="the shell to print the hook for")
    parser.epilog = 'Load it with: eval "$(upskill completion bash)" (zsh, fish alike)'


def run(args: argparse.Namespace, console: Console, world: World) -> int:
    from upskill.cli.completion import shell_hook

    console.data(shell_hook(args.shell))
    return 0
