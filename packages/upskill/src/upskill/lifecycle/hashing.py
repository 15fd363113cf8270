"""Content hashes: per-item source hash (upstream-compatible) and file digests.

Files are read with `os.open`/`os.read` and `O_NOFOLLOW`, in chunks into the
digest: one open, one fstat, one read (for a file up to a chunk) and one close
per file (buffered `open()` adds isatty and seek calls, and a separate `lstat`
to rule out symlinks), which matters at thousands of outputs.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from upskill.blobs import feed

_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class FileState:
    """A regular file as read: content digest and the stat data the fast path records."""

    sha256: str
    size: int
    mtime_ns: int
    executable: bool = False  # the owner's execute bit, which installs preserve


# Something other than a regular file (a symlink, a directory, a device) is at the path.
NOT_REGULAR = FileState("", -1, -1)


def _digest_regular(path: str | Path) -> tuple[str, int, os.stat_result] | FileState | None:
    """(sha256, size, fstat) of a regular file, read in chunks; `NOT_REGULAR`; None when
    absent. A final symlink is never followed (`O_NOFOLLOW`), and a FIFO never blocks
    the open (`O_NONBLOCK`) before fstat rejects it."""
    try:
        fd = os.open(path, _READ_FLAGS)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # the path is a symlink
            return NOT_REGULAR
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return NOT_REGULAR
        digest = hashlib.sha256()
        size = feed(digest, fd, expected=st.st_size)
    finally:
        os.close(fd)
    return digest.hexdigest(), size, st


def probe(path: str | Path) -> FileState | None:
    """The state of the file at `path`: None when absent, `NOT_REGULAR` when not a file."""
    found = _digest_regular(path)
    if found is None or isinstance(found, FileState):
        return found
    sha256, size, st = found
    return FileState(sha256, size, st.st_mtime_ns, bool(st.st_mode & 0o100))


def file_digest(path: str | Path) -> tuple[str, int] | None:
    """(sha256, size) of a regular file, or None when absent/not a regular file."""
    seen = probe(path)
    if seen is None or seen is NOT_REGULAR:
        return None
    return seen.sha256, seen.size


def tree_hash(directory: Path) -> str | None:
    """Upstream's item hash: bare hex SHA-256 over the sorted non-symlink files,
    feeding each relative POSIX path and then its bytes. None if unreadable."""
    files: list[tuple[str, str]] = []
    _collect(str(directory), "", files)
    if not files:
        return None
    digest = hashlib.sha256()
    try:
        for rel, full in sorted(files):
            if not _feed(digest, rel, full):
                return None
    except OSError:
        return None
    return digest.hexdigest()


def _feed(digest: Any, rel: str, full: str) -> bool:
    """Feed the path, then the file's bytes in chunks; False when it is not a regular file."""
    try:
        fd = os.open(full, _READ_FLAGS)
    except OSError:
        return False
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return False
        digest.update(rel.encode())
        feed(digest, fd, expected=st.st_size)
    finally:
        os.close(fd)
    return True


def _collect(path: str, prefix: str, out: list[tuple[str, str]]) -> None:
    """Non-symlink files below `path` (symlinked directories are not entered); an
    unreadable directory is skipped, as `os.walk` does."""
    try:
        with os.scandir(path) as entries:
            listed = [(e.name, e.path, e.is_symlink(), e.is_dir()) for e in entries]
    except OSError:
        return
    for name, full, is_link, is_dir in listed:
        if is_link:
            continue
        if is_dir:
            _collect(full, f"{prefix}{name}/", out)
        else:
            out.append((f"{prefix}{name}", full))
