"""Atomic file replacement: temp file in the same directory, fsync, rename."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
import time
from pathlib import Path

from agents_md_compiler.errors import MutationError
from agents_md_compiler.processes import is_alive

TEMP_PREFIX = ".agents-md-compiler-"
TEMP_SUFFIX = ".tmp"
# A leftover temp file without our pid in its name (the reference's) is removed
# only when it is this old: nobody takes an hour to write one file.
ORPHAN_TEMP_SECONDS = 3600.0
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
    try:
        fd, temp = tempfile.mkstemp(
            prefix=f"{TEMP_PREFIX}{os.getpid()}-", suffix=TEMP_SUFFIX, dir=directory
        )
    except OSError as exc:
        raise MutationError(
            f"writing the temporary file failed ({exc.strerror or type(exc).__name__})",
            lexical=path,
        ) from None
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


def remove_orphan_temps(directory: str, now: float | None = None) -> list[str]:
    """Delete `.agents-md-compiler-*.tmp` files a killed writer left in directory.

    Called under the advisory lock of a path in that directory. A temp file named
    with a pid is removed once that process is gone; any other only when stale.
    """
    moment = time.time() if now is None else now
    removed: list[str] = []
    try:
        names = [
            p.name
            for p in Path(directory).iterdir()
            if p.name.startswith(TEMP_PREFIX) and p.name.endswith(TEMP_SUFFIX)
        ]
    except OSError:
        return removed
    for name in sorted(names):
        path = str(Path(directory, name))
        pid_text = name[len(TEMP_PREFIX) :].partition("-")[0]
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode):
            continue
        if pid_text.isdigit():
            orphaned = not is_alive(int(pid_text), None)
        else:
            orphaned = moment - info.st_mtime > ORPHAN_TEMP_SECONDS
        if orphaned:
            with contextlib.suppress(OSError):
                Path(path).unlink()
                removed.append(path)
    return removed
