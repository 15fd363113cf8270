"""Content hashes: per-item source hash (upstream-compatible) and file digests.

Files are read with `os.open`/`os.read` and `O_NOFOLLOW`: one open, one fstat,
one read and one close per file (buffered `open()` adds isatty and seek calls,
and a separate `lstat` to rule out symlinks), which matters at thousands of
outputs.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class FileState:
    """A regular file as read: content digest and the stat data the fast path records."""

    sha256: str
    size: int
    mtime_ns: int


# Something other than a regular file (a symlink, a directory, a device) is at the path.
NOT_REGULAR = FileState("", -1, -1)


def read_regular(path: str | Path) -> tuple[bytes, os.stat_result] | FileState | None:
    """(bytes, fstat) of a regular file; `NOT_REGULAR`; None when absent.

    A final symlink is never followed (`O_NOFOLLOW`), and a FIFO never blocks the
    open (`O_NONBLOCK`) before fstat rejects it."""
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
        data = os.read(fd, st.st_size + 1)
        if len(data) > st.st_size:  # grew since fstat: read to the end
            chunks = [data]
            while chunk := os.read(fd, 1 << 16):
                chunks.append(chunk)
            data = b"".join(chunks)
    finally:
        os.close(fd)
    return data, st


def probe(path: str | Path) -> FileState | None:
    """The state of the file at `path`: None when absent, `NOT_REGULAR` when not a file."""
    found = read_regular(path)
    if found is None or isinstance(found, FileState):
        return found
    data, st = found
    return FileState(sha256_bytes(data), len(data), st.st_mtime_ns)


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
            found = read_regular(full)
            if not isinstance(found, tuple):
                return None
            digest.update(rel.encode())
            digest.update(found[0])
    except OSError:
        return None
    return digest.hexdigest()


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
