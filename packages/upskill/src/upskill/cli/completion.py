"""Shell completion: the shell runs `upskill` with argcomplete's environment on TAB.

`upskill completion bash|zsh|fish` prints the hook a shell sources once
(`eval "$(upskill completion bash)"`); after that each TAB runs upskill, which
answers from the full argument parser (`upskill.cli.dispatch.complete`) without
running a command. Only these paths import argcomplete.
"""

from __future__ import annotations

SHELLS = ("bash", "zsh", "fish")


def shell_hook(shell: str) -> str:
    from argcomplete.shell_integration import shellcode

    return shellcode(["upskill"], shell=shell)
