"""Content hashes: per-item source hash (upstream-compatible) and file digests."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_digest(path: Path) -> tuple[str, int] | None:
    """(sha256, size) of a regular file, or None when absent/not a regular file."""
    try:
        with path.open("rb") as fh:
            data = fh.read()
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return None
    if path.is_symlink():
        return None
    return sha256_bytes(data), len(data)


def tree_hash(directory: Path) -> str | None:
    """Upstream's item hash: bare hex SHA-256 over the sorted non-symlink files,
    feeding each relative POSIX path and then its bytes. None if unreadable."""
    digest = hashlib.sha256()
    files: list[tuple[str, Path]] = []
    try:
        for dirpath, dirnames, filenames in os.walk(directory):
            dirnames[:] = [d for d in dirnames if not (Path(dirpath) / d).is_symlink()]
            for name in filenames:
                full = Path(dirpath) / name
                if full.is_symlink():
                    continue
                files.append((full.relative_to(directory).as_posix(), full))
        if not files:
            return None
        for rel, full in sorted(files):
            digest.update(rel.encode())
            digest.update(full.read_bytes())
    except OSError:
        return None
    return digest.hexdigest()
