"""Filesystem primitives for apply: contained paths, staged files, fault injection.

Every mutation counts toward `UPSKILL_FAULT_AFTER_WRITES` (a documented test
seam): after N mutations the process SIGKILLs itself, so tests can prove that
the journal completes any interrupted run. The variable is read from the run's
environment (`World.env`) when its session starts (`FAULTS.arm`), not from
the process's at import, so a run in process sees only its own.
"""

from __future__ import annotations

import enum
import errno
import os
import signal
import stat
from collections.abc import Mapping
from pathlib import Path

from upskill import fsio
from upskill.errors import UpskillError
from upskill.fsio import fsync_dir as fsync_dir  # re-exported for existing importers

FAULT_ENV = "UPSKILL_FAULT_AFTER_WRITES"


class UnsafePath(UpskillError):
    """An output path would leave the scope root (symlinked parent, traversal)."""


class _FaultCounter:
    def __init__(self) -> None:
        self.limit: int | None = None
        self.count = 0

    def arm(self, env: Mapping[str, str]) -> None:
        """Start counting a run's mutations afresh, killing at `env`'s limit (if any)."""
        raw = env.get(FAULT_ENV, "")
        self.limit = int(raw) if raw.isdigit() else None
        self.count = 0

    def tick(self) -> None:
        self.count += 1
        if self.limit is not None and self.count >= self.limit:
            os.kill(os.getpid(), signal.SIGKILL)


FAULTS = _FaultCounter()


def safe_relative(path: str) -> bool:
    """A POSIX path that stays below the directory it is relative to."""
    parts = path.split("/")
    return (
        bool(path)
        and not path.startswith("/")
        and "\\" not in path
        and all(p not in ("", ".", "..") for p in parts)
    )


class DirKind(enum.Enum):
    DIR = "dir"
    ABSENT = "absent"
    SYMLINK = "symlink"
    FILE = "file"  # something other than a directory is in the way


class ScopeDirs:
    """What each directory on the way to an output is, learnt once per run.

    Each directory prefix below the root is examined with one `lstat` and
    remembered; below a missing directory, a symlink or a file nothing more is
    examined (a cold install into an empty project costs one `lstat` per
    top-level directory). `make_parent` creates missing directories top-down,
    each once. With `root_fd`, paths are resolved from the open root (one short
    kernel path walk instead of one from `/`)."""

    def __init__(self, root: Path, root_fd: int | None = None) -> None:
        self.root = root
        self._fd = root_fd
        self._base = f"{root}/"
        # prefix -> (kind, the prefix that decided it: itself or the ancestor in the way)
        self._known: dict[str, tuple[DirKind, str]] = {"": (DirKind.DIR, "")}
        self._made: set[str] = set()  # created by this run: empty but for what it added

    def kind(self, directory: str) -> tuple[DirKind, str]:
        known = self._known.get(directory)
        if known is not None and known[1] != directory and self._known.get(known[1]) != known:
            known = None  # the ancestor it was concluded from has changed since
        if known is None:
            above = directory.rpartition("/")[0]
            parent = self.kind(above)
            if parent[0] is not DirKind.DIR:
                known = parent
            elif above in self._made:  # nothing else creates entries in our new directory;
                known = (DirKind.ABSENT, directory)  # if something did, mkdir re-examines
            else:
                known = self._lstat(directory)
            self._known[directory] = known
        return known

    def _lstat(self, directory: str) -> tuple[DirKind, str]:
        try:
            if self._fd is not None:
                mode = os.lstat(directory, dir_fd=self._fd).st_mode
            else:
                mode = os.lstat(self._base + directory).st_mode
        except (FileNotFoundError, NotADirectoryError):
            return DirKind.ABSENT, directory
        if stat.S_ISDIR(mode):
            return DirKind.DIR, directory
        return (DirKind.SYMLINK if stat.S_ISLNK(mode) else DirKind.FILE), directory

    def check_parent(self, rel: str) -> bool:
        """Whether the parent directory of `rel` exists; raises UnsafePath when one of its
        components is a symlink or a file."""
        return self._safe(*self.kind(rel.rpartition("/")[0]))

    def _safe(self, kind: DirKind, where: str) -> bool:
        if kind is DirKind.SYMLINK:
            raise UnsafePath(
                "refusing to write through a symlinked directory", path=self.root / where
            )
        if kind is DirKind.FILE:
            raise UnsafePath("a file is in the way of an output directory", path=self.root / where)
        return kind is DirKind.DIR

    def moved_in(self, directory: str) -> None:
        """`directory` was renamed into place whole: it exists, with whatever it holds."""
        self._known[directory] = (DirKind.DIR, directory)

    def forget(self, directory: str) -> None:
        """Examine `directory` (and what was concluded from it) again."""
        self._known.pop(directory, None)

    def make_parent(self, rel: str) -> None:
        if not self.check_parent(rel):
            self._make(rel.rpartition("/")[0])

    def _make(self, directory: str) -> None:
        parent = directory.rpartition("/")[0]
        if self.kind(parent)[0] is not DirKind.DIR:
            self._make(parent)
        try:
            if self._fd is not None:
                os.mkdir(directory, dir_fd=self._fd)
            else:
                Path(self._base + directory).mkdir()
        except FileExistsError:  # appeared since it was examined: examine it again
            self._known[directory] = self._lstat(directory)
            self._safe(*self._known[directory])
            return
        self._known[directory] = (DirKind.DIR, directory)
        self._made.add(directory)


def real_dir(path: Path) -> bool:
    """Whether `path` exists as a directory; raises `UnsafePath` when it is a symlink or
    something other than a directory. upskill's own state and client directories are
    never followed out of the scope."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return False
    if stat.S_ISLNK(mode):
        raise UnsafePath("refusing to use a symlinked directory", path=path)
    if not stat.S_ISDIR(mode):
        raise UnsafePath("expected a directory here", path=path)
    return True


def atomic_write(path: Path, data: bytes, mode: int = 0o644) -> None:
    """`upskill.fsio.atomic_write`, counted as one mutation for fault injection."""
    fsio.atomic_write(path, data, mode)
    FAULTS.tick()


def exists_at(name: str, dir_fd: int) -> bool:
    try:
        os.lstat(name, dir_fd=dir_fd)
    except FileNotFoundError:
        return False
    return True


def open_dir(path: Path) -> int:
    return os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)


def move_staged(
    staging_fd: int, name: str, target: Path, *, rel: str | None = None, root_fd: int | None = None
) -> bool:
    """Rename staged file `name` over `target` (given as `rel` to `root_fd` when known),
    whose directory exists. False when the staged file is gone: a replay after the move."""
    try:
        if rel is not None and root_fd is not None:
            os.rename(name, rel, src_dir_fd=staging_fd, dst_dir_fd=root_fd)
        else:
            os.rename(name, target, src_dir_fd=staging_fd)
    except FileNotFoundError:
        if not exists_at(name, staging_fd):
            return False
        raise
    except OSError as exc:
        if exc.errno != errno.EXDEV:  # staging and target on different filesystems
            raise
        fd = os.open(name, os.O_RDONLY | os.O_CLOEXEC, dir_fd=staging_fd)
        try:
            mode = stat.S_IMODE(os.fstat(fd).st_mode)
            data = b"".join(iter(lambda: os.read(fd, 1 << 16), b""))
        finally:
            os.close(fd)
        atomic_write(target, data, mode)
        os.unlink(name, dir_fd=staging_fd)
        return True
    FAULTS.tick()  # durability: the journal's final sync, or replay after a crash
    return True


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
