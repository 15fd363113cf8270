"""Crash-safe writes for the author commands, on top of the installer's `atomic_write`.

`fmt` replaces a file atomically and keeps its permission bits. `new` must
never replace an existing file, even one created a moment ago by someone
else, so it writes a complete temp file and hard-links it into place:
`link` fails when the target exists, and a reader never sees half a file.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from upskill.install.fsops import atomic_write, fsync_dir


def replace_file(path: Path, data: bytes) -> None:
    """Atomically replace an existing file, keeping its permission bits."""
    atomic_write(path, data, path.stat().st_mode & 0o7777)


def create_file(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Atomically create `path`; raises FileExistsError instead of replacing a file."""
    temp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.new")
    atomic_write(temp, data, mode)
    try:
        os.link(temp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            temp.unlink()
    fsync_dir(path.parent)
