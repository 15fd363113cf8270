"""`tsh [-c LINE]`: the tool shell, the default program of an agent started without a
hosted command. Each line is `NAME [ARGS...]` (shell quoting): NAME is looked up along
CTX_PATH and called through the object runner (the broker, inside a sandbox), printing
its JSONL events. Built-ins: `which NAME`, `exit [N]`. Blank lines and `#` comments are
skipped; the exit status is the last call's. Nothing is ever run by a shell.
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Iterable

from cortexfs.errors import EXIT_BAD_INPUT, EXIT_FAILED


def _call(words: list[str]) -> int:
    from cortexfs.runner_cli import SANDBOX_BROKER, in_sandbox

    sys.stdout.flush()
    if in_sandbox():
        from cortexfs.broker.client import call

        # The shell reads its own stdin; a call gets none.
        null = os.open(os.devnull, os.O_RDONLY)
        try:
            return call(SANDBOX_BROKER, words, sys.stdout, null)
        finally:
            os.close(null)
    from cortexfs.runner import run

    return run(words, os.environ, os.getuid(), None, sys.stdout)


def _which(name: str) -> int:
    from cortexfs.ctx_env import ctx_env
    from cortexfs.resolve import which

    found = which(ctx_env(os.environ, os.getuid()), name)
    if found is None:
        print(f"tsh: {name}: not found on CTX_PATH", file=sys.stderr)
        return EXIT_FAILED
    print(found)
    return 0


def run_lines(lines: Iterable[str]) -> int:
    status = 0
    for line in lines:
        try:
            words = shlex.split(line, comments=True)
        except ValueError as exc:
            print(f"tsh: {exc}: {line.strip()}", file=sys.stderr)
            status = EXIT_BAD_INPUT
            continue
        if not words:
            continue
        if words[0] == "exit":
            return int(words[1]) if len(words) > 1 and words[1].isdigit() else status
        status = _which(words[1]) if words[0] == "which" and len(words) == 2 else _call(words)
    return status


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["-c"] and len(args) == 2:
        return run_lines([args[1]])
    if args:
        print("usage: tsh [-c LINE]", file=sys.stderr)
        return EXIT_BAD_INPUT
    return run_lines(sys.stdin)
