"""Crash-safe file writes for the author commands.

A sibling temp file is written and fsynced, then renamed over the target (or,
for new files, hard-linked into place so an existing file is never replaced),
so a reader or a crash never sees half a file.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_temp(path: Path, data: bytes, mode: int) -> Path:
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    temp = Path(name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        temp.chmod(mode)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return temp


def replace_file(path: Path, data: bytes) -> None:
    """Atomically replace an existing file, keeping its permission bits."""
    mode = path.stat().st_mode & 0o7777
    temp = _write_temp(path, data, mode)
    try:
        temp.replace(path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def create_file(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Atomically create `path`; raises FileExistsError instead of replacing a file."""
    temp = _write_temp(path, data, mode)
    try:
        os.link(temp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            temp.unlink()
    _fsync_dir(path.parent)
