"""Observe the disk for the paths a plan is about (read-only)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from upskill.install.hashing import file_digest
from upskill.install.plan import Observation

# Never equal to a real digest: a symlink (or a path through one) is never ours.
FOREIGN = ("symlink", -1)


def observe(root: Path, paths: Iterable[str]) -> dict[str, Observation]:
    seen: dict[str, Observation] = {}
    for rel in paths:
        seen[rel] = _observe_one(root, rel)
    return seen


def _observe_one(root: Path, rel: str) -> Observation:
    current = root
    for part in rel.split("/"):
        current = current / part
        if current.is_symlink():
            return FOREIGN
    if current.is_dir():
        return FOREIGN
    return file_digest(current)
