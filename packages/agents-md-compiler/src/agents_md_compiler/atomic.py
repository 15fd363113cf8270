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
    directory = str(Path(path).parent) or "."
    fd, temp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        Path(temp).chmod(mode)
        Path(temp).replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            Path(temp).unlink()
        raise
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
