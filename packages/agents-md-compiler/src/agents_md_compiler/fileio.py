"""Bounded single reads of regular, non-symlink files.

Every input (manifest, lock, source, receipt) is read once through here so the
identity check (the file did not change between stat and read) lives in one place.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass

# Non-blocking and no-follow: a FIFO swapped in after lstat cannot hang the read.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


class ReadProblem(Exception):
    """A reason the file could not be read; callers wrap it in their typed error."""


@dataclass(frozen=True)
class FileRead:
    data: bytes
    mode: int


def read_regular(path: str, limit: int, *, allow_empty: bool = True) -> FileRead:
    """lstat, refuse symlinks/non-regular/oversize, read limit+1, confirm identity."""
    try:
        before = os.lstat(path)
    except FileNotFoundError:
        raise ReadProblem("does not exist") from None
    except OSError as exc:
        raise ReadProblem(f"cannot stat: {exc.strerror}") from None
    except ValueError:  # an embedded NUL: no such path can exist
        raise ReadProblem("path contains a NUL byte") from None
    if stat.S_ISLNK(before.st_mode):
        raise ReadProblem("is a symbolic link")
    if not stat.S_ISREG(before.st_mode):
        raise ReadProblem("is not a regular file")
    if not allow_empty and before.st_size == 0:
        raise ReadProblem("is empty")
    if before.st_size > limit:
        raise ReadProblem(f"is larger than {limit} bytes")
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as exc:
        raise ReadProblem(f"cannot open: {exc.strerror}") from None
    try:
        after = os.fstat(fd)
        if not stat.S_ISREG(after.st_mode):
            raise ReadProblem("is not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(min(limit, after.st_size) + 1)
    except OSError as exc:
        raise ReadProblem(f"cannot be read: {exc.strerror}") from None
    finally:
        os.close(fd)
    if (after.st_dev, after.st_ino, after.st_size) != (
        before.st_dev,
        before.st_ino,
        before.st_size,
    ):
        raise ReadProblem("changed while reading")
    if len(data) != after.st_size:
        raise ReadProblem("changed while reading")
    return FileRead(data, stat.S_IMODE(after.st_mode))
