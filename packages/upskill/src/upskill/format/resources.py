"""Supporting resources of an item directory (format spec §2.4).

Every regular file under the item directory is a resource except the
top-level entrypoints, the top-level `<KIND>.<client>.md` override files and
files matched by the item's `ignore:` patterns (gitignore semantics, via
pathspec). Symlinks are never followed: one pointing inside the item is
skipped, one pointing outside it is an error unless `ignore:` covers it (it
would smuggle foreign files into every client tree).
"""

from __future__ import annotations

import functools
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from upskill.clients import OVERRIDE_CLIENTS
from upskill.errors import FormatError
from upskill.format.model import KINDS, Resource

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec

MAX_RESOURCE_BYTES = 64 * 1024 * 1024
VCS_DIR = ".git"

RESERVED_TOP_LEVEL: frozenset[str] = frozenset(
    [k.entrypoint for k in KINDS]
    + [f"{k.name}.{client}.md" for k in KINDS for client in OVERRIDE_CLIENTS]
)


@functools.lru_cache(maxsize=256)
def ignore_spec(patterns: tuple[str, ...]) -> GitIgnoreSpec:
    from pathspec import GitIgnoreSpec

    return GitIgnoreSpec.from_lines(patterns)


def is_ignored(relative: str, patterns: tuple[str, ...]) -> bool:
    return bool(patterns) and ignore_spec(patterns).match_file(relative)


def _inside(target: Path, root: Path) -> bool:
    try:
        target.relative_to(root)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class ItemFiles:
    """Candidate files of an item directory and the symlinks that leave it."""

    files: tuple[tuple[str, Path], ...]  # (relative POSIX path, absolute path), sorted
    escaping: tuple[tuple[str, Path, Path], ...]  # (relative path, link, resolved target)


def scan_files(directory: Path) -> ItemFiles:
    """Walk the item directory without following symlinks.

    `.git` (a directory, or a worktree's pointer file) is VCS metadata, never
    content, so it is not walked: an item at a repository root would otherwise
    ship its history.
    """
    root = directory.resolve()
    found: list[tuple[str, Path]] = []
    escaping: list[tuple[str, Path, Path]] = []
    for current, dirnames, filenames in os.walk(directory, followlinks=False):
        base = Path(current)
        dirnames[:] = sorted(d for d in dirnames if d != VCS_DIR)
        for name in sorted(dirnames + [f for f in filenames if f != VCS_DIR]):
            full = base / name
            relative = full.relative_to(directory).as_posix()
            if not full.is_symlink():
                if name in filenames:
                    found.append((relative, full))
                continue
            target = full.resolve()
            if not _inside(target, root):
                escaping.append((relative, full, target))
        dirnames[:] = [d for d in dirnames if not (base / d).is_symlink()]
    found.sort()
    return ItemFiles(tuple(found), tuple(escaping))


def collect_resources(files: ItemFiles, ignore: tuple[str, ...]) -> tuple[Resource, ...]:
    """The item's resources; a symlink leaving the item is an error unless ignored."""
    for relative, link, target in files.escaping:
        if not is_ignored(relative, ignore):
            raise FormatError(f"symlink leaves the item directory (points to {target})", path=link)
    resources: list[Resource] = []
    for relative, full in files.files:
        if relative in RESERVED_TOP_LEVEL or is_ignored(relative, ignore):
            continue
        info = full.stat()
        if not stat.S_ISREG(info.st_mode):
            continue
        if info.st_size > MAX_RESOURCE_BYTES:
            raise FormatError(
                f"resource is too large ({info.st_size} bytes, limit {MAX_RESOURCE_BYTES})",
                path=full,
            )
        resources.append(Resource(relative, full.read_bytes(), stat.S_IMODE(info.st_mode)))
    return tuple(resources)
