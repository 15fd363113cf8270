"""`ctxterm [--pty] [--umask OCTAL] -- COMMAND [ARGS...]`: run a hosted CLI's exact argv.

ctxterm is the last link of the launch chain, inside the sandbox. It sets the umask the
launcher derived, runs the command as the leader of its own process group (with a
pseudo-terminal it owns when --pty is given, so interactive CLIs see a TTY), relays
input and output, forwards SIGTERM/SIGINT/SIGHUP to the whole group (SIGKILL after a
grace period) and exits with the command's status (128+N when killed by signal N).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable

from cortexfs.errors import EXIT_BAD_INPUT

GRACE_SECONDS = 2.0
FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
EOT = b"\x04"
NOT_FOUND = 127


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ctxterm", description=__doc__.split("\n\n")[0])
    parser.add_argument("--pty", action="store_true", help="run the command on a new PTY")
    parser.add_argument("--umask", default=None, help="octal umask for the command")
    return parser


def _status(raw: int) -> int:
    return os.waitstatus_to_exitcode(raw) if os.WIFEXITED(raw) else 128 + os.WTERMSIG(raw)


def _forward_signals(group: int) -> None:
    """Signal the command's group; after SIGTERM, SIGKILL it if it outlives the grace."""

    def handler(sig: int, _frame: object) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(group, sig)
        if sig == signal.SIGTERM:
            timer = threading.Timer(GRACE_SECONDS, _kill_group, (group,))
            timer.daemon = True
            timer.start()

    for sig in FORWARDED:
        signal.signal(sig, handler)


def _kill_group(group: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, signal.SIGKILL)


def _exec(command: list[str]) -> None:  # pragma: no cover - runs in the child
    try:
        os.execvp(command[0], command)  # noqa: S606 - the hosted argv, exactly, no shell
    except OSError as exc:
        os.write(2, f"ctxterm: {command[0]}: {exc.strerror}\n".encode())
    os._exit(NOT_FOUND)


def _start(fork: Callable[[], tuple[int, int]], command: list[str]) -> tuple[int, int]:
    """Fork with the forwarded signals blocked, so none arrives before its handler."""
    signal.pthread_sigmask(signal.SIG_BLOCK, FORWARDED)
    pid, fd = fork()
    if pid == 0:  # pragma: no cover - child
        signal.pthread_sigmask(signal.SIG_UNBLOCK, FORWARDED)
        _exec(command)
    _forward_signals(pid)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, FORWARDED)
    return pid, fd


def _fork_group() -> tuple[int, int]:
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        os.setpgid(0, 0)
    else:
        with contextlib.suppress(OSError):
            os.setpgid(pid, pid)  # in the parent too: the group exists before any signal
    return pid, -1


def _run_pipes(command: list[str]) -> int:
    pid, _ = _start(_fork_group, command)
    return _status(os.waitpid(pid, 0)[1])


def _pump_input(master: int) -> None:
    """stdin to the terminal; at end of input, one EOT so a line-reading CLI sees EOF."""
    while chunk := os.read(0, 65536):
        os.write(master, chunk)
    with contextlib.suppress(OSError):
        os.write(master, EOT)


def _run_pty(command: list[str]) -> int:
    import pty

    pid, master = _start(pty.fork, command)  # the child leads a new session on the PTY
    threading.Thread(target=_pump_input, args=(master,), daemon=True).start()
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the terminal's last user closed it
            break
        if not chunk:
            break
        os.write(1, chunk)
    os.close(master)
    return _status(os.waitpid(pid, 0)[1])


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    if "--" not in words or words.index("--") == len(words) - 1:
        print("usage: ctxterm [--pty] [--umask OCTAL] -- COMMAND [ARGS...]", file=sys.stderr)
        return EXIT_BAD_INPUT
    split = words.index("--")
    try:
        args = _parser().parse_args(words[:split])
        if args.umask is not None:
            os.umask(int(args.umask, 8))
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
    except ValueError:
        print(f"ctxterm: --umask {args.umask!r} is not octal", file=sys.stderr)
        return EXIT_BAD_INPUT
    command = words[split + 1 :]
    return _run_pty(command) if args.pty else _run_pipes(command)
