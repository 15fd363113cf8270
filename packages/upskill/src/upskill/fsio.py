"""Crash-safe file writes shared by every upskill writer.

A reader must never see half a file, and a crash must leave either the old or
the new bytes: data goes to a temp file in the target's directory, is fsynced,
then renamed over the target, and the directory is fsynced. `create_exclusive`
is the variant for files that must not replace anything (`upskill new`): the
complete temp file is hard-linked into place, which fails if the target exists.
`replaced_file` says which file a write to a path replaces: through a symlinked
config (dotfiles) to the file it names, when that is safe.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import os
import stat
from collections.abc import Callable
from pathlib import Path

from upskill.blobs import BlobChanged, FileBlob, Payload, feed
from upskill.errors import UpskillError

MAX_SHARED_FILE_BYTES = 16 * 1024 * 1024


class UnsafeFile(UpskillError):
    """A file upskill will not read: not a regular file, too large, or reached through a
    symlink that leaves the scope."""


def _inside(path: str, base: str) -> bool:
    return path == base or path.startswith(base.rstrip("/") + "/")


def _check_within(path: Path, within: Path) -> None:
    """Raise `UnsafeFile` when `path` really lies outside `within`, naming the symlink that
    leads out: a directory on the way (`.upskill/` -> elsewhere), or the file itself."""
    base = os.path.realpath(within)
    if _inside(os.path.realpath(path), base):
        return
    step = within
    parts = path.parts[len(within.parts) : -1] if path.is_relative_to(within) else ()
    for part in parts:
        step = step / part
        if step.is_symlink() and not _inside(os.path.realpath(step), base):
            raise UnsafeFile("refusing to use a symlinked directory", path=step)
    raise UnsafeFile(
        f"resolves outside {within} (a symlink); refusing to read or replace it", path=path
    )


def read_contained(
    path: Path, *, within: Path | None, limit: int = MAX_SHARED_FILE_BYTES
) -> bytes | None:
    """The bytes of a file the user, a client or a repository may have put there (a client
    config, `CLAUDE.md`, the lockfile, `.upskill/config.yaml`); None when it does not exist.

    A repository can make any of them a symlink to a secret (`.mcp.json` -> `~/.claude.json`)
    or a FIFO, so: the real path must stay inside `within` (the scope root; None for the
    user's own files), the file is opened non-blocking and must be a regular file of at most
    `limit` bytes. Refusals name the file and never quote what lies behind it.
    """
    if within is not None:
        _check_within(path, within)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeFile("is not a regular file", path=path)
        if info.st_size > limit:
            raise UnsafeFile(f"is larger than {limit} bytes", path=path)
        data = b"".join(iter(lambda: os.read(fd, 1 << 20), b""))
        if len(data) > limit:
            raise UnsafeFile(f"is larger than {limit} bytes", path=path)
        return data
    finally:
        os.close(fd)


def replaced_file(path: Path, *, root: Path) -> Path:
    """The file a write to `path` replaces: `path` itself, or, when `path` is a symlink
    (a dotfile linked by GNU stow: `~/.codex/config.toml` -> `dotfiles/...`), the
    regular file it finally resolves to, so the user's file gets the new bytes and the
    link stays a link (a rename over the link would silently cut it off).

    A cloned repository can carry such links, so a write goes through one only when
    the resolved file is a regular file whose real path is inside `root` (the scope
    root: the project, or the user's home) and in no `.git` directory (which
    `lifecycle.confine` keeps every path upskill touches out of). Otherwise
    `UnsafeFile` names the link, before anything is written: a link that dangles,
    leaves `root`, enters `.git` or names no regular file is never replaced by a file
    nor followed."""
    try:
        if not stat.S_ISLNK(os.lstat(path).st_mode):
            return path
    except FileNotFoundError:
        return path
    try:
        info = path.stat()
    except FileNotFoundError:
        raise UnsafeFile("is a dangling symlink; refusing to write through it", path=path) from None
    except OSError as exc:
        raise UnsafeFile(
            f"is a symlink that cannot be followed: {exc.strerror}", path=path
        ) from None
    real, base = os.path.realpath(path), os.path.realpath(root)
    if not _inside(real, base):
        raise UnsafeFile(
            f"is a symlink to a file outside {root}; refusing to write through it or replace it",
            path=path,
        )
    if any(part.casefold() == ".git" for part in Path(real).relative_to(base).parts):
        raise UnsafeFile(
            "is a symlink into a .git directory; refusing to write through it", path=path
        )
    if not stat.S_ISREG(info.st_mode):
        raise UnsafeFile("is a symlink to something other than a regular file", path=path)
    return Path(real)


def fsync_dir(path: Path) -> None:
    """Make a rename or unlink in `path` durable (best effort where unsupported)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Temp file in the same directory, fsync, rename; never a half-written target."""
    path.parent.mkdir(parents=True, exist_ok=True)
    import tempfile  # with `random` and `shutil`: off the path of commands that only read

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        Path(tmp).chmod(mode)
        Path(tmp).replace(path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def replace_file(path: Path, data: bytes) -> None:
    """Atomically replace an existing file, keeping its permission bits."""
    atomic_write(path, data, path.stat().st_mode & 0o7777)


def create_exclusive(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Atomically create `path`; raises FileExistsError instead of replacing a file."""
    temp = path.with_name(f".{path.name}.{os.urandom(6).hex()}.new")
    atomic_write(temp, data, mode)
    try:
        os.link(temp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            temp.unlink()
    fsync_dir(path.parent)


def write_unsynced(
    path: str | Path, data: Payload, mode: int = 0o644, *, dir_fd: int | None = None
) -> os.stat_result:
    """Write a staging file without fsync; callers make a batch durable with `sync_tree`.

    Returns the file's fstat after the write (a later rename keeps its size and mtime).
    The mode is given at create time and fixed only when the umask took bits away."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, mode, dir_fd=dir_fd)
    try:
        if isinstance(data, FileBlob):
            _copy_blob(data, fd)
        else:
            write_all(fd, data)
        st = os.fstat(fd)
        if st.st_mode & 0o7777 != mode:
            os.fchmod(fd, mode)
    finally:
        os.close(fd)
    return st


def _copy_blob(blob: FileBlob, out_fd: int) -> None:
    """Stream `blob` into `out_fd`, checking it is still the file that was hashed at load."""
    try:
        fd = os.open(blob.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise BlobChanged(f"cannot read it again: {exc.strerror}", path=blob.path) from None
    digest = hashlib.sha256()
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise BlobChanged("is no longer a regular file", path=blob.path)
        sink = functools.partial(write_all, out_fd)
        size = feed(digest, fd, expected=blob.size, limit=blob.size, sink=sink)
    except OSError as exc:
        if exc.errno != errno.EFBIG:
            raise
        size = -1  # it grew
    finally:
        os.close(fd)
    if size != blob.size or digest.hexdigest() != blob.sha256:
        raise BlobChanged("changed while upskill was installing it; run again", path=blob.path)


def write_all(fd: int, data: bytes) -> None:
    """`os.write` may write less than asked (signals, quotas): loop until done."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


_SYNCFS: list[Callable[[int], int] | None] = []  # libc's syncfs once looked up


def _syncfs() -> Callable[[int], int] | None:
    """libc's syncfs, resolved from the running process's symbols: `find_library` would
    run `ldconfig -p` in a subprocess on every call."""
    if not _SYNCFS:
        try:
            import ctypes

            _SYNCFS.append(ctypes.CDLL(None, use_errno=True).syncfs)
        except (OSError, AttributeError):
            _SYNCFS.append(None)
    return _SYNCFS[0]


def sync_fd(fd: int) -> None:
    """Flush everything written on the filesystem of the open file `fd`: one syncfs(2)
    instead of an fsync per file (thousands of small outputs), falling back to sync(2)."""
    syncfs = _syncfs()
    if syncfs is not None and syncfs(fd) == 0:
        return
    os.sync()


def sync_tree(path: Path) -> None:
    """`sync_fd` for the filesystem holding `path`."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        os.sync()
        return
    try:
        sync_fd(fd)
    finally:
        os.close(fd)
