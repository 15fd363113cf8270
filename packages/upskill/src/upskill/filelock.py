"""The one advisory lock primitive: an exclusive `flock` on a file, held for a `with`.

Two places need one writer at a time: a scope (`lifecycle/scopelock.py`,
which waits a bounded time and then fails cleanly) and a git cache entry
shared by concurrent runs (`sources/git.py`, which waits for the other
fetch to finish). Both use this. The lock belongs to the open file
description, so it is released when the process dies, however it dies.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path
from types import TracebackType

_POLL_SECONDS = 0.05


class LockTimeout(Exception):
    """The lock was still held by another process when the timeout ran out."""


class FileLock:
    """`timeout=None` waits as long as it takes; a number polls until that many seconds."""

    def __init__(self, path: Path, *, timeout: float | None = None) -> None:
        self.path = path
        self.timeout = timeout
        self._fd: int | None = None

    def __enter__(self) -> FileLock:
        # O_NOFOLLOW: a lock file planted as a symlink must not create or open a file
        # elsewhere (it fails with ELOOP, reported with the path).
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        try:
            self._acquire(fd)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        return self

    def _acquire(self, fd: int) -> None:
        if self.timeout is None:
            fcntl.flock(fd, fcntl.LOCK_EX)
            return
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise LockTimeout(str(self.path)) from None
                time.sleep(_POLL_SECONDS)

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
