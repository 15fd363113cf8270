"""Supporting resources of an item directory (format spec §2.4).

Every regular file under the item directory is a resource except the
top-level entrypoints, the top-level `<KIND>.<client>.md` override files and
files matched by the item's `ignore:` patterns (gitignore semantics, via
pathspec). Symlinks are never followed: one pointing inside the item is
skipped, one pointing outside it is an error unless `ignore:` covers it (it
would smuggle foreign files into every client tree).
"""

from __future__ import annotations

import errno
import functools
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from upskill.blobs import STREAM_THRESHOLD, FileBlob, Payload, digest_fd, payload_size
from upskill.clients import OVERRIDE_CLIENTS
from upskill.errors import FormatError
from upskill.format.model import KINDS, Resource

if TYPE_CHECKING:
    from collections.abc import Callable

    from pathspec import GitIgnoreSpec

MAX_RESOURCE_BYTES = 64 * 1024 * 1024
# All of one item's resources together: each file under the cap must not add up to more
# memory than a machine has (docs/upskill/security.md).
MAX_ITEM_RESOURCE_BYTES = 256 * 1024 * 1024
# All resources of one source: a registry is refused whole above it.
MAX_SOURCE_RESOURCE_BYTES = 1024 * 1024 * 1024
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


class Listed(NamedTuple):
    """One directory entry as its listing (d_type) describes it, without a stat.

    `link` is never followed: `is_dir`/`regular` say what the entry itself is.
    """

    name: str
    link: bool
    is_dir: bool
    regular: bool


@dataclass(frozen=True)
class ItemFiles:
    """Candidate files of an item directory and the symlinks that leave it.

    The optional fields carry what the directory listing already said, so
    loading needs no stat per file: `regular` (relative paths listed as regular
    files; others are stat'ed first), `top_names`/`top_links` (top-level names
    and which are symlinks; None when unknown, and then callers probe).
    """

    files: tuple[tuple[str, Path], ...]  # (relative POSIX path, absolute path), sorted
    escaping: tuple[tuple[str, Path, Path], ...]  # (relative path, link, resolved target)
    regular: frozenset[str] = frozenset()
    top_names: frozenset[str] | None = None
    top_links: frozenset[str] = frozenset()


_RESERVED_FOLDED = frozenset(name.casefold() for name in RESERVED_TOP_LEVEL)


def list_dir(directory: Path) -> list[Listed] | None:
    """The entries of `directory` (`.git` left out) sorted by name; None if unlistable.

    One scandir: the entry types come from the listing itself, so this costs
    no stat per entry (except on file systems that do not report types).
    """
    try:
        with os.scandir(directory) as it:
            entries = sorted((e for e in it if e.name != VCS_DIR), key=lambda e: e.name)
        return [_listed(e) for e in entries]
    except OSError:
        return None


def _listed(entry: os.DirEntry[str]) -> Listed:
    link = entry.is_symlink()
    try:
        is_dir = not link and entry.is_dir(follow_symlinks=False)
    except OSError:  # as os.walk: an entry that cannot be typed is not walked into
        is_dir = False
    try:
        regular = not link and entry.is_file(follow_symlinks=False)
    except OSError:
        regular = False
    return Listed(entry.name, link, is_dir, regular)


def names_are_exact(listing: list[Listed]) -> bool:
    """False if a top-level name matches a reserved name only up to case.

    On a case-insensitive file system `RULE.md` then exists under another
    spelling; callers fall back to probing the reserved paths so that such a
    tree loads exactly as it did before listings were used.
    """
    return not any(
        e.name.casefold() in _RESERVED_FOLDED and e.name not in RESERVED_TOP_LEVEL for e in listing
    )


# Deeper than any real skill's resources; bounds the walk's recursion (and a hostile
# registry's) well below Python's limit.
MAX_RESOURCE_DEPTH = 64


def installed_mode(st_mode: int) -> int:
    """0755 for a file anyone may execute at the source, else 0644: a registry's setuid,
    setgid, sticky or world-writable bits never reach the user's tree."""
    return 0o755 if st_mode & stat.S_IXUSR else 0o644


def _check_utf8(full: Path) -> None:
    """A name that is not UTF-8 cannot be recorded (the lockfile is JSON) or written
    the same on every machine: the source is refused, naming the file."""
    try:
        full.name.encode()
    except UnicodeEncodeError:
        raise FormatError("file name is not valid UTF-8", path=full) from None


class _Walk:
    """The state of one `scan_files` walk (root resolved only if a symlink needs it)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._root: Path | None = None
        self.found: list[tuple[str, Path]] = []
        self.escaping: list[tuple[str, Path, Path]] = []
        self.regular: set[str] = set()

    def root(self) -> Path:
        if self._root is None:
            self._root = self.directory.resolve()
        return self._root

    def walk(self, base: Path, prefix: str, listing: list[Listed], *, verify: bool) -> None:
        """Entries of one directory in name order, then its subdirectories (as os.walk).

        With `verify`, the first entry is probed with `is_symlink()` exactly as
        the stat-per-entry walk did first, so a directory that can be listed but
        not searched fails the same way.
        """
        subdirs: list[str] = []
        for index, entry in enumerate(listing):
            full = base / entry.name
            relative = prefix + entry.name
            if not entry.name.isascii():
                _check_utf8(full)
            link = full.is_symlink() if verify and index == 0 else entry.link
            if link:
                target = full.resolve()
                if not _inside(target, self.root()):
                    self.escaping.append((relative, full, target))
            elif entry.is_dir:
                subdirs.append(entry.name)
            else:
                self.found.append((relative, full))
                if entry.regular:
                    self.regular.add(relative)
        if subdirs and prefix.count("/") >= MAX_RESOURCE_DEPTH:
            raise FormatError(
                f"resources nest deeper than {MAX_RESOURCE_DEPTH} directories",
                path=base / subdirs[0],
            )
        for name in subdirs:
            sub = base / name
            listed = list_dir(sub)
            if listed is not None:  # as os.walk: an unreadable directory is skipped
                self.walk(sub, f"{prefix}{name}/", listed, verify=True)

    def files(self, top: list[Listed]) -> ItemFiles:
        self.found.sort()
        exact = names_are_exact(top)
        return ItemFiles(
            tuple(self.found),
            tuple(self.escaping),
            frozenset(self.regular),
            frozenset(e.name for e in top) if exact else None,
            frozenset(e.name for e in top if e.link),
        )


def scan_files(directory: Path) -> ItemFiles:
    """Walk the item directory without following symlinks.

    `.git` (a directory, or a worktree's pointer file) is VCS metadata, never
    content, so it is not walked: an item at a repository root would otherwise
    ship its history.
    """
    listing = list_dir(directory)
    if listing is None:
        directory.resolve()  # as before: a symlink loop is a RuntimeError
        return ItemFiles((), ())
    return scan_listed(directory, listing, verify=True)


def scan_listed(directory: Path, listing: list[Listed], *, verify: bool) -> ItemFiles:
    """`scan_files` over an existing top-level listing (one scandir per directory).

    `verify=False` is for callers that already opened a file in `directory`
    (so it is searchable).
    """
    walk = _Walk(directory)
    walk.walk(directory, "", listing, verify=verify)
    return walk.files(listing)


def collect_resources(files: ItemFiles, ignore: tuple[str, ...]) -> tuple[Resource, ...]:
    """The item's resources; a symlink leaving the item is an error unless ignored."""
    for relative, link, target in files.escaping:
        if not is_ignored(relative, ignore):
            raise FormatError(f"symlink leaves the item directory (points to {target})", path=link)
    resources: list[Resource] = []
    total = 0
    for relative, full in files.files:
        if relative in RESERVED_TOP_LEVEL or is_ignored(relative, ignore):
            continue
        resource = _resource(relative, full, listed_regular=relative in files.regular)
        if resource is not None:
            total += payload_size(resource.data)
            if total > MAX_ITEM_RESOURCE_BYTES:
                raise FormatError(
                    f"the item's resources exceed {MAX_ITEM_RESOURCE_BYTES} bytes in total",
                    path=full,
                )
            resources.append(resource)
    return tuple(resources)


READ_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0)


def read_fd(fd: int, size: int) -> bytes:
    """Everything left in `fd` (as `read_bytes`: until end of file, even if it grew)."""
    chunks: list[bytes] = []
    want = size + 1
    read = 0
    while chunk := os.read(fd, want):
        chunks.append(chunk)
        read += len(chunk)
        if read > MAX_RESOURCE_BYTES:  # it grew past the cap while being read
            raise OSError(errno.EFBIG, "resource grew past the size limit while being read")
        want = max(want, 64 * 1024)
    return b"".join(chunks)


def _resource(relative: str, full: Path, *, listed_regular: bool) -> Resource | None:
    """One resource, or None for a non-regular file.

    A file the listing typed as regular is opened directly (open, fstat,
    read); if that fails, or the type is unknown, the stat-first sequence runs
    so that its errors are exactly those of before. Never open a possible FIFO
    or device without knowing its type: opening one can block.
    """
    if listed_regular:
        try:
            fd = os.open(full, READ_FLAGS)
        except OSError:
            pass
        else:
            try:
                info = os.fstat(fd)
                return _checked(relative, full, info, lambda: _content(fd, info.st_size, full))
            finally:
                os.close(fd)
    return _checked(relative, full, full.stat(), lambda: _content_at(full))


def _content(fd: int, size: int, full: Path) -> Payload:
    """Small files in memory; a large one by reference, hashed in chunks (`upskill.blobs`)."""
    if size <= STREAM_THRESHOLD:
        return read_fd(fd, size)
    sha256, read = digest_fd(fd, expected=size, limit=MAX_RESOURCE_BYTES)
    return FileBlob(full, read, sha256)


def _content_at(full: Path) -> Payload:
    fd = os.open(full, READ_FLAGS)
    try:
        return _content(fd, os.fstat(fd).st_size, full)
    finally:
        os.close(fd)


def _checked(
    relative: str, full: Path, info: os.stat_result, read: Callable[[], Payload]
) -> Resource | None:
    if not stat.S_ISREG(info.st_mode):
        return None
    if info.st_size > MAX_RESOURCE_BYTES:
        raise FormatError(
            f"resource is too large ({info.st_size} bytes, limit {MAX_RESOURCE_BYTES})",
            path=full,
        )
    return Resource(relative, read(), installed_mode(info.st_mode))
