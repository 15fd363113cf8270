"""Apply a transaction through a journal so a killed run can be completed.

Phase 1 stages every new file (and the new lockfile) under `.upskill/txn/`,
fsynced. Phase 2 writes the journal atomically: the commit point. Phase 3
renames staged files into place and unlinks removals (each step is
idempotent), then the lockfile, then drops the journal. A run killed before
the commit point leaves the tree untouched (stale staging is discarded); one
killed after it is rolled forward by `recover` on the next run.

The journal is machine-local state: it lives in the user's state directory
(`Scope.state`), never in the project, because a cloned repository could
otherwise carry one that the next run replays (docs/security.md). Staging
stays in the project so that every move is a rename on one filesystem. A
replay trusts nothing it reads: the journal must be a regular file of this
user, name this scope's real path and the staging directory this run made
(device and inode), every path must pass `confine.refusal`, and every
staged file must still have the sha256 recorded at the commit point. All of
that is checked before the first rename.

A write whose directory does not exist yet is staged at `txn/tree/<path>`,
mirroring the scope: the roll-forward then moves the topmost missing directory
into place whole, one rename for everything below it, instead of creating each
directory and renaming each file (a cold install of hundreds of skills
creates a directory per skill and client).

An ancillary file (a client config, `lifecycle.ancillary`) keeps the mode of
the file it replaces (a user's 0600 config stays 0600). One that is a symlink
into the scope (dotfiles linked by GNU stow) is written through: its staged
file is renamed over the file the link resolves to (`fsio.replaced_file`,
resolved again at the rename, so a replay does the same), and the link stays.
The journal still names the link's path, which `confine` checks as before; the
resolved file must be a regular file whose real path is in the scope, else the
run stops before the commit point with an error naming the link. Item outputs
are upskill's own files and are replaced as ever.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import shutil
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from upskill.blobs import Payload, payload_digest, payload_size
from upskill.errors import UpskillError
from upskill.fsio import replaced_file, sync_fd, write_unsynced
from upskill.lifecycle.ancillary import ANCILLARY_FILES
from upskill.lifecycle.confine import refusal
from upskill.lifecycle.fsops import (
    FAULTS,
    DirKind,
    ScopeDirs,
    UnsafePath,
    atomic_write,
    exists_at,
    move_staged,
    open_dir,
    real_dir,
    remove_file,
)
from upskill.lifecycle.hashing import file_digest
from upskill.lifecycle.scope import JOURNAL_NAME

Stat = tuple[int, int]  # (size, mtime_ns)

STATE_DIR = ".upskill"
JOURNAL = JOURNAL_NAME
STAGING = "txn"
TREE = "tree"  # under STAGING: writes into new directories, at their scope-relative paths
VERSION = 2  # 1: the journal lived in the project's `.upskill/` and is never replayed
STAGED_LOCKFILE = "lockfile"
MAX_JOURNAL_BYTES = 256 << 20
_SHA256_HEX = frozenset("0123456789abcdef")


class JournalError(UpskillError):
    """The journal of an interrupted run cannot be read."""


@dataclass(frozen=True)
class Write:
    path: str  # relative to the scope root
    data: Payload  # a large resource by reference, streamed into staging
    mode: int = 0o644


@dataclass(frozen=True)
class Remove:
    path: str
    expected: str  # sha256 the file must still have; otherwise it is kept


@dataclass(frozen=True)
class Transaction:
    writes: tuple[Write, ...]
    removes: tuple[Remove, ...]
    lockfile: bytes | None  # new lockfile bytes, None: unchanged

    @property
    def empty(self) -> bool:
        return not self.writes and not self.removes and self.lockfile is None


def state_dir(root: Path) -> Path:
    """The project's `.upskill/`, refused when it is a symlink or not a directory: staging
    must never land outside the project."""
    real_dir(root / STATE_DIR)
    return root / STATE_DIR


def apply_transaction(
    root: Path, lockfile: Path, txn: Transaction, *, state: Path
) -> dict[str, Stat]:
    """Stage, commit and roll forward `txn`, journalled in `state` (`Scope.state`).
    Returns (size, mtime_ns) of each written path as fstat saw it when staged (the rename
    keeps both): the fast-path state needs no second look at files this run wrote."""
    if txn.empty:
        return {}
    dirs = ScopeDirs(root)
    # validate containment before touching anything; note writes into new directories
    into_new = [not dirs.check_parent(w.path) for w in txn.writes]
    _preflight(root, dirs, txn, into_new)
    staging = _fresh_staging(root)
    ops: list[dict[str, object]] = []
    written: dict[str, Stat] = {}
    staged_at = os.lstat(staging)
    record: dict[str, object] = {
        "version": VERSION,
        "root": os.path.realpath(root),
        "staging": [staged_at.st_dev, staged_at.st_ino],
        "ops": ops,
        "lockfile": None,
    }
    staging_fd = open_dir(staging)
    made: set[str] = set()
    try:
        for index, w in enumerate(txn.writes):
            staged = str(index)
            if into_new[index]:
                staged = f"{TREE}/{w.path}"
                _make_staged_parents(staged, made, staging_fd)
            st = write_unsynced(staged, w.data, w.mode, dir_fd=staging_fd)
            FAULTS.tick()
            written[w.path] = (st.st_size, st.st_mtime_ns)
            digest = payload_digest(w.data)
            ops.append({"op": "write", "path": w.path, "staged": staged, "sha256": digest})
        for r in txn.removes:
            ops.append({"op": "remove", "path": r.path, "sha256": r.expected})
        if txn.lockfile is not None:
            write_unsynced(STAGED_LOCKFILE, txn.lockfile, dir_fd=staging_fd)
            FAULTS.tick()
            record["lockfile"] = STAGED_LOCKFILE
            record["lockfile_sha256"] = hashlib.sha256(txn.lockfile).hexdigest()
        sync_fd(staging_fd)  # every staged byte is durable before the commit point
    finally:
        os.close(staging_fd)
    _make_private_dir(state)
    atomic_write(state / JOURNAL, json.dumps(record, indent=1).encode(), 0o600)
    _roll_forward(root, lockfile, record, state=state, replay=False)
    return written


# Room kept free beyond the bytes a transaction writes (directories, the journal).
_SPACE_MARGIN = 1 << 20


def _preflight(root: Path, dirs: ScopeDirs, txn: Transaction, into_new: list[bool]) -> None:
    """What can be checked before the commit point is checked before anything is staged,
    so that a run fails whole instead of half-applied: no directory where a file goes,
    every directory written into is writable, and the filesystem has room."""
    for write, new in zip(txn.writes, into_new, strict=True):
        if new:
            continue  # its directory does not exist yet: nothing can be in the way
        try:
            mode = os.lstat(root / write.path).st_mode
        except FileNotFoundError:
            continue
        if stat.S_ISDIR(mode):
            raise UnsafePath("a directory is in the way of an output file", path=root / write.path)
        if stat.S_ISLNK(mode) and write.path in ANCILLARY_FILES:
            replaced_file(root / write.path, root=root)  # refused here, before the commit
    for directory in sorted(_written_dirs(dirs, txn)):
        target = root / directory if directory else root
        if not os.access(target, os.W_OK):
            raise UnsafePath("cannot write here: permission denied", path=target)
    needed = (
        sum(payload_size(w.data) for w in txn.writes) + len(txn.lockfile or b"") + _SPACE_MARGIN
    )
    fs = os.statvfs(root)
    if fs.f_bavail * fs.f_frsize < needed:
        raise UnsafePath(f"not enough free space: {needed} bytes needed", path=root)


def _written_dirs(dirs: ScopeDirs, txn: Transaction) -> set[str]:
    """The existing directories a transaction creates entries in: each path's parent, or
    its nearest existing ancestor when the parent is new."""
    found = {""} if txn.lockfile is not None else set()
    for rel in [w.path for w in txn.writes] + [r.path for r in txn.removes]:
        parent = rel.rpartition("/")[0]
        while parent and dirs.kind(parent)[0] is not DirKind.DIR:
            parent = parent.rpartition("/")[0]
        found.add(parent)
    return found


def _make_private_dir(state: Path) -> None:
    """The journal directory, 0700: other users may not plant or read a journal."""
    try:
        state.mkdir(mode=0o700)
    except FileNotFoundError:
        state.parent.mkdir(parents=True, exist_ok=True)
        state.mkdir(mode=0o700, exist_ok=True)
    except FileExistsError:
        pass


def _make_staged_parents(staged: str, made: set[str], staging_fd: int) -> None:
    parent = staged.rpartition("/")[0]
    if not parent or parent in made:
        return
    _make_staged_parents(parent, made, staging_fd)
    os.mkdir(parent, dir_fd=staging_fd)
    made.add(parent)


def _fresh_staging(root: Path) -> Path:
    """An empty `.upskill/txn/`; leftovers of a run killed before its commit point go."""
    staging = state_dir(root) / STAGING
    _discard(staging)
    try:
        staging.mkdir()
    except FileNotFoundError:
        staging.mkdir(parents=True)
    return staging


def _discard(staging: Path) -> None:
    """Remove stale staging; a symlink or file in its place goes as itself, never followed."""
    try:
        mode = os.lstat(staging).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISDIR(mode):
        shutil.rmtree(staging)
    else:
        staging.unlink()


def recover(root: Path, lockfile: Path, *, state: Path) -> bool:
    """Complete an interrupted run, if this user's journal for the scope names one. True
    when a journal was replayed. A journal inside the project is never read."""
    journal = state / JOURNAL
    raw = _read_own(journal)
    if raw is None:
        _discard(state_dir(root) / STAGING)  # killed before the commit point: nothing happened
        return False
    try:
        record = json.loads(raw)
        if type(record) is not dict or type(record.get("ops")) is not list:
            raise ValueError("not a journal object")
    except (ValueError, RecursionError) as exc:
        raise JournalError(f"cannot replay interrupted run: {exc}", path=journal) from None
    _check_record(root, record, journal)
    _roll_forward(root, lockfile, record, state=state, replay=True)
    return True


def _read_own(journal: Path) -> bytes | None:
    """The journal's bytes, if it is a regular file this user wrote and others cannot."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(journal, flags)
    except FileNotFoundError:
        return None
    except OSError as exc:
        why = "is a symlink" if exc.errno == errno.ELOOP else exc.strerror
        raise JournalError(
            f"cannot replay interrupted run: the journal {why}", path=journal
        ) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            problem = "is not a regular file"
        elif st.st_uid != os.geteuid() or st.st_mode & 0o022:
            problem = "was not written by this user, or others can write it"
        elif st.st_size > MAX_JOURNAL_BYTES:
            problem = f"is larger than {MAX_JOURNAL_BYTES} bytes"
        else:
            return b"".join(iter(lambda: os.read(fd, 1 << 20), b""))
    finally:
        os.close(fd)
    raise JournalError(f"cannot replay interrupted run: the journal {problem}", path=journal)


def _check_record(root: Path, record: dict[str, object], journal: Path) -> None:
    """Everything a replay will use, checked before it touches anything."""

    def bad(why: str) -> JournalError:
        return JournalError(
            f"cannot replay interrupted run: {why} (delete the journal to discard the run)",
            path=journal,
        )

    if record.get("version") != VERSION:
        raise bad(f"unknown journal version {record.get('version')!r}")
    if record.get("root") != os.path.realpath(root):
        raise bad("the journal belongs to another directory")
    if record.get("lockfile") not in (None, STAGED_LOCKFILE):
        raise bad(f"bad lockfile entry {record.get('lockfile')!r}")
    ops = record["ops"]
    assert isinstance(ops, list)
    for op in ops:
        if type(op) is not dict or not _valid_op(op):
            raise bad(f"bad operation {op!r}")
        why = refusal(op["path"])
        if why is not None:
            raise bad(f"operation path {op['path']!r} {why}")
    staging = state_dir(root) / STAGING
    try:
        seen = os.lstat(staging)
    except FileNotFoundError:
        return  # every staged file was moved before the crash
    if not stat.S_ISDIR(seen.st_mode) or record.get("staging") != [seen.st_dev, seen.st_ino]:
        raise bad(f"{staging} is not the staging directory the interrupted run made")
    for op in ops:
        if op["op"] == "write":
            _check_staged(staging, str(op["staged"]), str(op["sha256"]), bad)
    if record.get("lockfile") is not None:
        _check_staged(staging, STAGED_LOCKFILE, str(record.get("lockfile_sha256")), bad)


def _check_staged(staging: Path, name: str, sha256: str, bad: Callable[[str], Exception]) -> None:
    """A staged file still present must hold the bytes recorded at the commit point."""
    try:
        fd = os.open(staging / name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return  # moved into place before the crash
    except OSError as exc:
        raise bad(f"staged file {name!r}: {exc.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise bad(f"staged file {name!r} is not a regular file")
        digest = hashlib.sha256()
        for chunk in iter(lambda: os.read(fd, 1 << 20), b""):
            digest.update(chunk)
    finally:
        os.close(fd)
    if digest.hexdigest() != sha256:
        raise bad(f"staged file {name!r} changed since the interrupted run")


def _valid_op(op: dict[str, object]) -> bool:
    """A journal operation is a write of a staged file inside the staging directory (a
    number, or the path under `tree/`) or a remove, each with a sha256, of a string path."""
    rel = op.get("path")
    sha = op.get("sha256")
    if type(rel) is not str or type(sha) is not str or len(sha) != 64 or set(sha) - _SHA256_HEX:
        return False
    if op.get("op") == "remove":
        return True
    staged = op.get("staged")
    return (
        op.get("op") == "write"
        and type(staged) is str
        and (staged.isdigit() or staged == f"{TREE}/{rel}")
    )


def _move_new_directory(dirs: ScopeDirs, rel: str, staging_fd: int, root_fd: int) -> bool:
    """Move the staged copy of the topmost missing directory above `rel` into place: one
    rename for every staged file below it. False when no directory above `rel` is missing
    any more, or it cannot be moved whole (it appeared meanwhile, another filesystem): the
    file is then moved alone."""
    prefix = ""
    for part in rel.split("/")[:-1]:
        prefix = f"{prefix}/{part}" if prefix else part
        if dirs.kind(prefix)[0] is not DirKind.ABSENT:
            continue
        try:
            os.rename(f"{TREE}/{prefix}", prefix, src_dir_fd=staging_fd, dst_dir_fd=root_fd)
        except OSError as exc:
            if exc.errno not in (errno.EEXIST, errno.ENOTEMPTY, errno.EXDEV):
                raise
            dirs.forget(prefix)
            return False
        FAULTS.tick()
        dirs.moved_in(prefix)
        return True
    return False


def _write_through(root: Path, rel: str, staged: str, staging_fd: int) -> bool:
    """Give the staged copy of ancillary file `rel` the mode of the file it replaces (a
    user's 0600 config stays 0600), and move it over the file the symlink at `rel` names
    when `rel` is one; False when it is not (the staged file then replaces `rel`)."""
    target = replaced_file(root / rel, root=root)
    with contextlib.suppress(FileNotFoundError):
        os.chmod(staged, stat.S_IMODE(target.stat().st_mode), dir_fd=staging_fd)
    if target == root / rel:
        return False
    move_staged(staging_fd, staged, target)
    return True


def _roll_forward(
    root: Path, lockfile: Path, record: dict[str, object], *, state: Path, replay: bool
) -> None:
    """`replay`: completing a killed run, whose staged files may already be in place (their
    directories are then not recreated, in case the user removed them since)."""
    staging = state_dir(root) / STAGING
    ops = record["ops"]
    assert isinstance(ops, list)
    root_fd = open_dir(root)
    try:
        staging_fd = open_dir(staging)
    except FileNotFoundError:  # nothing staged is left: every write was moved
        staging_fd = None
    try:
        dirs = ScopeDirs(root, root_fd)
        for op in ops:
            rel = str(op["path"])
            if op["op"] == "write":
                dirs.check_parent(rel)
                staged = str(op["staged"])
                in_tree = staged.startswith(f"{TREE}/")  # `_valid_op`: exactly tree/<rel>
                if staging_fd is None or (
                    (replay or in_tree) and not exists_at(staged, staging_fd)
                ):
                    continue  # moved into place before the crash, or with its directory
                if in_tree and _move_new_directory(dirs, rel, staging_fd, root_fd):
                    continue
                if rel in ANCILLARY_FILES and _write_through(root, rel, staged, staging_fd):
                    continue
                dirs.make_parent(rel)
                move_staged(staging_fd, staged, root / rel, rel=rel, root_fd=root_fd)
            elif op["op"] == "remove":
                dirs.check_parent(rel)
                seen = file_digest(root / rel)
                if seen is not None and seen[0] == op["sha256"]:
                    remove_file(root / rel, root)
        if record.get("lockfile") and staging_fd is not None:
            move_staged(staging_fd, str(record["lockfile"]), lockfile)
        sync_fd(root_fd)  # the renames are durable before the journal goes
    finally:
        if staging_fd is not None:
            os.close(staging_fd)
        os.close(root_fd)
    (state / JOURNAL).unlink(missing_ok=True)
    FAULTS.tick()
    with contextlib.suppress(OSError):
        (staging / TREE).rmdir()  # its directories moved out with what they held
    try:
        staging.rmdir()  # empty after a complete roll-forward
    except FileNotFoundError:
        pass
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)
