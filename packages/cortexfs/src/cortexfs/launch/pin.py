"""The spawn-time half of the chain: what bubblewrap is handed, and how.

- A bind source the plan resolved and checked (the workspace, mount rows) is opened
  `O_PATH|O_NOFOLLOW` and checked again on what the descriptor names: a directory or
  file (not a symlink), whose `/proc/self/fd` path is still the resolved path before and
  after the storage check. bubblewrap binds that descriptor (`--bind-fd`, comparing the
  mount's device and inode with it), so a directory renamed and replaced, or a path
  component swapped for a symlink, after the plan's check is never what gets bound.
- bubblewrap's options travel through `--args FD` (a memfd), not its argv: its argv is
  what `/proc/1/cmdline` shows inside the sandbox (pid 1 there is bubblewrap's own init),
  and the options name host paths (the mount, the storage checks' subjects, the runtime,
  the run directory, bind sources).

bubblewrap closes every descriptor it was handed before it runs the command.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from cortexfs.errors import BadInput


class Chain(Protocol):
    """What of a Launch (launch/chain.py) this needs."""

    @property
    def argv(self) -> tuple[str, ...]: ...
    @property
    def bwrap(self) -> tuple[int, int]: ...
    @property
    def pins(self) -> tuple[int, ...]: ...


@dataclass(frozen=True)
class Spawnable:
    """The argv to execute and the descriptors it needs (close them once it started)."""

    argv: tuple[str, ...]
    fds: tuple[int, ...]

    def close(self) -> None:
        for fd in self.fds:
            with contextlib.suppress(OSError):
                os.close(fd)


def _names(fd: int) -> str:
    return os.readlink(f"/proc/self/fd/{fd}")


def pin(path: str, exposes_ctx: Callable[[str], bool]) -> int:
    """A descriptor for exactly the object at `path` now, or BadInput naming the change."""
    try:
        fd = os.open(path, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:
        raise BadInput(f"{path}: cannot be bound: {exc.strerror}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
            raise BadInput(f"{path}: changed after it was checked (no longer a directory)")
        if _names(fd) != path:
            raise BadInput(f"{path}: changed after it was checked (now {_names(fd)})")
        if exposes_ctx(path) or _names(fd) != path:
            raise BadInput(f"{path}: changed after it was checked; not bound")
    except BaseException:
        os.close(fd)
        raise
    return fd


def _args_fd(options: list[str]) -> int:
    fd = os.memfd_create("bwrap-args", os.MFD_CLOEXEC)
    try:
        data = b"".join(word.encode() + b"\0" for word in options)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.lseek(fd, 0, os.SEEK_SET)
    except BaseException:
        os.close(fd)
        raise
    return fd


def prepare(launch: Chain, exposes_ctx: Callable[[str], bool]) -> Spawnable:
    """Pin the sources, then move bubblewrap's options into a memfd."""
    argv = list(launch.argv)
    fds: list[int] = []
    try:
        for at in launch.pins:
            fds.append(pin(argv[at], exposes_ctx))
            argv[at] = str(fds[-1])
        start, end = launch.bwrap
        fds.append(_args_fd(argv[start + 1 : end]))
    except BaseException:
        Spawnable((), tuple(fds)).close()
        raise
    return Spawnable((*argv[: start + 1], "--args", str(fds[-1]), *argv[end:]), tuple(fds))
