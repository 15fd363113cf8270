"""Observe the disk for the paths a plan is about (read-only).

Each directory on the way is examined once (`ScopeDirs`), and nothing below a
missing one: a cold install into an empty project observes 1,200 outputs with
three `lstat`s. Files are read with one open/fstat/read/close each, and their
stat data is kept so the fast-path state needs no second look at them.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from upskill.lifecycle.fsops import DirKind, ScopeDirs, UnsafePath
from upskill.lifecycle.hashing import NOT_REGULAR, FileState, probe
from upskill.lifecycle.plan import Observation

# Never equal to a real digest: an output that is a symlink is never ours.
FOREIGN = ("symlink", -1, False)


class Observer:
    """One run's read-only view of the scope tree."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._base = f"{root}/"
        self._dirs = ScopeDirs(root)
        self.files: dict[str, FileState] = {}  # regular files read, by relative path

    def observe(self, paths: Iterable[str]) -> dict[str, Observation]:
        return {rel: self._one(rel) for rel in paths}

    def _one(self, rel: str) -> Observation:
        kind, where = self._dirs.kind(rel.rpartition("/")[0])
        if kind is DirKind.SYMLINK:
            # Never read (or report as "kept") what lies behind a symlinked client directory:
            # it may be outside the scope. The run stops and names it instead.
            raise UnsafePath("refusing to use a symlinked directory", path=self._root / where)
        if kind is not DirKind.DIR:
            return None
        seen = probe(self._base + rel)
        if seen is None:
            return None
        if seen is NOT_REGULAR:
            return FOREIGN
        self.files[rel] = seen
        return seen.sha256, seen.size, seen.executable


def observe(root: Path, paths: Iterable[str]) -> dict[str, Observation]:
    return Observer(root).observe(paths)
