"""One writer per scope: an advisory flock on the directory that holds the lockfiles.

Locking the directory itself (not a marker file) leaves no stray file behind.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterator
from pathlib import Path

from cmx_core._errors import LockHeldError

DEFAULT_WAIT_SECONDS = 5.0


@contextlib.contextmanager
def scope_lock(directory: Path, wait_seconds: float | None = None) -> Iterator[None]:
    directory.mkdir(parents=True, exist_ok=True)
    fd = os.open(directory, os.O_RDONLY)
    try:
        wait = DEFAULT_WAIT_SECONDS if wait_seconds is None else wait_seconds
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise LockHeldError(directory) from None
                time.sleep(0.05)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
