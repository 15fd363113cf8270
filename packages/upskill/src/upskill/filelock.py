"""The one advisory lock primitive: an exclusive lock on a file, held for a `with`.

Two places need one writer at a time: a scope (`lifecycle/scopelock.py`,
which waits a bounded time and then fails cleanly) and a git cache entry
shared by concurrent runs (`sources/git.py`, which waits for the other
fetch to finish). Both use this. The lock belongs to the open file, so it
is released when the process dies, however it dies.

This is the only module that knows the platform's locking call, as
pre-commit's `file_lock.py` is: `flock` on POSIX, `msvcrt.locking` on a byte
range on Windows (where the rest of upskill is not supported yet: README,
Development).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from types import TracebackType

_POLL_SECONDS = 0.05
# O_NOFOLLOW: a lock file planted as a symlink must not create or open a file elsewhere
# (it fails with ELOOP, reported with the path). Windows has no such flag, nor O_CLOEXEC
# (O_NOINHERIT is its spelling), and needs O_BINARY.
_OPEN_FLAGS = (
    os.O_RDWR
    | os.O_CREAT
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_NOINHERIT", 0)
    | getattr(os, "O_BINARY", 0)
)

if sys.platform == "win32":
    import msvcrt

    # msvcrt locks a byte range from the file position; any fixed range is the mutex.
    _REGION = 0xFFFF

    def _try_lock(fd: int) -> bool:
        os.lseek(fd, 0, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, _REGION)
        except OSError:  # EACCES / EDEADLOCK: another open file holds the range
            return False
        return True

    def _lock(fd: int) -> None:
        # LK_LOCK gives up after ten one-second tries; poll for as long as it takes.
        while not _try_lock(fd):
            time.sleep(_POLL_SECONDS)

    def _unlock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, _REGION)

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _lock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX)

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


class LockTimeout(Exception):
    """The lock was still held by another process when the timeout ran out."""


class FileLock:
    """`timeout=None` waits as long as it takes; a number polls until that many seconds."""

    def __init__(self, path: Path, *, timeout: float | None = None) -> None:
        self.path = path
        self.timeout = timeout
        self._fd: int | None = None

    def __enter__(self) -> FileLock:
        fd = os.open(self.path, _OPEN_FLAGS, 0o644)
        try:
            self._acquire(fd)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        return self

    def _acquire(self, fd: int) -> None:
        if self.timeout is None:
            _lock(fd)
            return
        deadline = time.monotonic() + self.timeout
        while not _try_lock(fd):
            if time.monotonic() >= deadline:
                raise LockTimeout(str(self.path))
            time.sleep(_POLL_SECONDS)

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._fd is not None:
            _unlock(self._fd)
            os.close(self._fd)
            self._fd = None
