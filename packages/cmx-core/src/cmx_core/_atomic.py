"""Crash-safe writes: a sibling temp file, fsync, then rename over the target."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def fsync_dir(directory: Path) -> None:
    """Make a rename inside `directory` durable."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_file(path: Path, data: bytes, *, durable: bool) -> None:
    """Create or truncate `path` and write all of `data`; fsync when `durable`."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        if durable:
            os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(path: Path, data: bytes, *, tmp_name: str | None = None) -> None:
    """Write `data` so readers see the old bytes or the new ones, never a torn file.

    Lockfiles use the spec's `<name>.tmp` sibling; other files pass their own name.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(tmp_name if tmp_name is not None else f".{path.name}.cmx-tmp")
    try:
        write_file(tmp, data, durable=True)
        tmp.replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    fsync_dir(path.parent)
