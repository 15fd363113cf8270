"""Atomic file replacement: temp file in the same directory, fsync, rename."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

TEMP_PREFIX = ".agents-md-compiler-"
DIR_MODE = 0o700
FILE_MODE = 0o600


def atomic_write(path: str, data: bytes, mode: int = FILE_MODE) -> None:
    """Replace (or create) path with data; readers see old or new bytes, never a mix."""
    _publish(path, data, mode, exclusive=False)


def atomic_create(path: str, data: bytes, mode: int = FILE_MODE) -> None:
    """Like atomic_write, but raises FileExistsError instead of replacing anything.

    The complete temp file is hard-linked into place, which fails if the name
    appeared in the meantime, so an existing path is never clobbered.
    """
    _publish(path, data, mode, exclusive=True)


def _publish(path: str, data: bytes, mode: int, *, exclusive: bool) -> None:
    directory = str(Path(path).parent)
    fd, temp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        Path(temp).chmod(mode)
        if exclusive:
            os.link(temp, path)
        else:
            Path(temp).replace(path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            Path(temp).unlink()
    fsync_directory(directory)


def fsync_directory(directory: str) -> None:
    """Best effort: persist the rename itself."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def ensure_private_dir(path: str) -> None:
    """Create every missing component 0700; os.makedirs applies mode to the leaf only."""
    missing: list[str] = []
    current = os.path.normpath(path)
    while not Path(current).is_dir():
        missing.append(current)
        parent = str(Path(current).parent)
        if parent == current:
            break
        current = parent
    for directory in reversed(missing):
        with contextlib.suppress(FileExistsError):
            Path(directory).mkdir(DIR_MODE)
        Path(directory).chmod(DIR_MODE)
