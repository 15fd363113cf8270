"""Filesystem primitives for apply: contained paths, atomic writes, fault injection.

Every mutation counts toward `UPSKILL_FAULT_AFTER_WRITES` (a documented test
seam): after N mutations the process SIGKILLs itself, so tests can prove that
the journal completes any interrupted run.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

from upskill import fsio
from upskill.errors import UpskillError
from upskill.fsio import fsync_dir as fsync_dir  # re-exported for existing importers

FAULT_ENV = "UPSKILL_FAULT_AFTER_WRITES"


class UnsafePath(UpskillError):
    """An output path would leave the scope root (symlinked parent, traversal)."""


class _FaultCounter:
    def __init__(self) -> None:
        raw = os.environ.get(FAULT_ENV, "")
        self.limit = int(raw) if raw.isdigit() else None
        self.count = 0

    def tick(self) -> None:
        self.count += 1
        if self.limit is not None and self.count >= self.limit:
            os.kill(os.getpid(), signal.SIGKILL)


FAULTS = _FaultCounter()


def contained(root: Path, rel: str, checked: set[str] | None = None) -> Path:
    """`root/rel`, refusing any existing component that is a symlink.

    `checked` remembers directories already validated in this transaction."""
    parts = rel.split("/")
    for depth in range(1, len(parts)):
        prefix = "/".join(parts[:depth])
        if checked is not None and prefix in checked:
            continue
        current = root / prefix
        if current.is_symlink():
            raise UnsafePath("refusing to write through a symlinked directory", path=current)
        if current.exists() and not current.is_dir():
            raise UnsafePath("a file is in the way of an output directory", path=current)
        if checked is not None:
            checked.add(prefix)
    return root / rel


def atomic_write(path: Path, data: bytes, mode: int = 0o644) -> None:
    """`upskill.fsio.atomic_write`, counted as one mutation for fault injection."""
    fsio.atomic_write(path, data, mode)
    FAULTS.tick()


def move_into_place(staged: Path, target: Path, made: set[Path] | None = None) -> None:
    if made is None or target.parent not in made:
        target.parent.mkdir(parents=True, exist_ok=True)
        if made is not None:
            made.add(target.parent)
    try:
        staged.replace(target)
    except OSError as exc:
        if exc.errno != 18:  # EXDEV: staging and target on different filesystems
            raise
        atomic_write(target, staged.read_bytes(), staged.stat().st_mode & 0o7777)
        staged.unlink()
        return
    FAULTS.tick()  # durability: the journal's final sync_tree, or replay after a crash


def remove_file(target: Path, root: Path) -> None:
    target.unlink(missing_ok=True)
    FAULTS.tick()
    prune_empty_dirs(target.parent, root)


def prune_empty_dirs(directory: Path, root: Path) -> None:
    """Remove directories emptied by a removal, up to (not including) the root."""
    current = directory
    while current != root and root in current.parents:
        try:
            current.rmdir()
        except OSError:
            return
        current = current.parent
