"""One writer per scope: an advisory `fcntl.flock` on `<root>/.upskill/.lock`.

A second `upskill` in the same scope waits (up to `UPSKILL_LOCK_TIMEOUT`
seconds, default 30) and then fails cleanly; it re-reads the lockfile once it
holds the lock, so concurrent runs serialise instead of clobbering each other.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path
from types import TracebackType

from upskill.errors import UpskillError
from upskill.fsio import atomic_write

LOCK_TIMEOUT_ENV = "UPSKILL_LOCK_TIMEOUT"
STATE_GITIGNORE = (
    b"# upskill run-time state (lock, journal, staging)\n/.lock\n/journal.json\n/txn/\n"
)


class ScopeBusy(UpskillError):
    """Another upskill process holds the scope lock."""


class ScopeLock:
    def __init__(self, path: Path, timeout: float | None = None) -> None:
        self.path = path
        if timeout is None:
            raw = os.environ.get(LOCK_TIMEOUT_ENV, "30")
            try:
                timeout = float(raw)
            except ValueError:
                timeout = 30.0
        self.timeout = timeout
        self._fd: int | None = None

    def __enter__(self) -> ScopeLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise ScopeBusy(
                        "another upskill process is writing this scope; try again when it finishes",
                        path=self.path,
                    ) from None
                time.sleep(0.05)
        self._fd = fd
        ignore = self.path.parent / ".gitignore"
        if not ignore.exists():  # config.yaml is committed; the run-time state is not
            atomic_write(ignore, STATE_GITIGNORE)
        return self

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
