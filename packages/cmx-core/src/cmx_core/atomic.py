"""Crash-safe writes: a sibling temp file, fsync, then rename over the target."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(path: Path, data: bytes, *, tmp_name: str | None = None) -> None:
    """Write `data` so readers see the old bytes or the new ones, never a torn file.

    Lockfiles use the spec's `<name>.tmp` sibling; other files pass their own name.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(tmp_name if tmp_name is not None else f".{path.name}.cmx-tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        tmp.replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(path.parent)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
