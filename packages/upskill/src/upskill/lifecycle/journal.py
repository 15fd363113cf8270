"""Apply a transaction through a journal so a killed run can be completed.

Phase 1 stages every new file (and the new lockfile) under `.upskill/txn/`,
fsynced. Phase 2 writes `.upskill/journal.json` atomically: the commit point.
Phase 3 renames staged files into place and unlinks removals (each step is
idempotent), then the lockfile, then drops the journal. A run killed before
the commit point leaves the tree untouched (stale staging is discarded); one
killed after it is rolled forward by `recover` on the next run.

A write whose directory does not exist yet is staged at `txn/tree/<path>`,
mirroring the scope: the roll-forward then moves the topmost missing directory
into place whole, one rename for everything below it, instead of creating each
directory and renaming each file (a cold install of hundreds of skills
creates a directory per skill and client).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from upskill.errors import UpskillError
from upskill.fsio import sync_fd, write_unsynced
from upskill.lifecycle.fsops import (
    FAULTS,
    DirKind,
    ScopeDirs,
    atomic_write,
    exists_at,
    move_staged,
    open_dir,
    remove_file,
    safe_relative,
)
from upskill.lifecycle.hashing import file_digest

Stat = tuple[int, int]  # (size, mtime_ns)

STATE_DIR = ".upskill"
JOURNAL = "journal.json"
STAGING = "txn"
TREE = "tree"  # under STAGING: writes into new directories, at their scope-relative paths


class JournalError(UpskillError):
    """The journal of an interrupted run cannot be read."""


@dataclass(frozen=True)
class Write:
    path: str  # relative to the scope root
    data: bytes
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
    return root / STATE_DIR


def apply_transaction(root: Path, lockfile: Path, txn: Transaction) -> dict[str, Stat]:
    """Stage, commit and roll forward `txn`. Returns (size, mtime_ns) of each written
    path as fstat saw it when staged (the rename keeps both): the fast-path state needs
    no second look at files this run wrote."""
    if txn.empty:
        return {}
    dirs = ScopeDirs(root)
    # validate containment before touching anything; note writes into new directories
    into_new = [not dirs.check_parent(w.path) for w in txn.writes]
    staging = _fresh_staging(root)
    ops: list[dict[str, object]] = []
    written: dict[str, Stat] = {}
    record: dict[str, object] = {"version": 1, "ops": ops, "lockfile": None}
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
            ops.append({"op": "write", "path": w.path, "staged": staged})
        for r in txn.removes:
            ops.append({"op": "remove", "path": r.path, "sha256": r.expected})
        if txn.lockfile is not None:
            write_unsynced("lockfile", txn.lockfile, dir_fd=staging_fd)
            FAULTS.tick()
            record["lockfile"] = "lockfile"
        sync_fd(staging_fd)  # every staged byte is durable before the commit point
    finally:
        os.close(staging_fd)
    atomic_write(state_dir(root) / JOURNAL, json.dumps(record, indent=1).encode())
    _roll_forward(root, lockfile, record, replay=False)
    return written


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
    try:
        staging.mkdir()
    except FileExistsError:
        shutil.rmtree(staging)
        staging.mkdir()
    except FileNotFoundError:
        staging.mkdir(parents=True)
    return staging


def recover(root: Path, lockfile: Path) -> bool:
    """Complete an interrupted run, if any. True when a journal was replayed."""
    state = state_dir(root)
    journal = state / JOURNAL
    try:
        raw = journal.read_bytes()
    except FileNotFoundError:
        if (state / STAGING).exists():  # killed before the commit point: nothing happened
            shutil.rmtree(state / STAGING, ignore_errors=True)
        return False
    try:
        record = json.loads(raw)
        if type(record) is not dict or type(record.get("ops")) is not list:
            raise ValueError("not a journal object")
    except ValueError as exc:
        raise JournalError(f"cannot replay interrupted run: {exc}", path=journal) from exc
    _roll_forward(root, lockfile, record, replay=True)
    return True


def _valid_op(op: dict[str, object]) -> bool:
    """A journal operation names a safe scope path and, for a write, a staged file inside
    the staging directory (a number, or the path under `tree/`)."""
    rel = str(op.get("path"))
    if not safe_relative(rel):
        return False
    if op.get("op") != "write":
        return True
    staged = str(op.get("staged"))
    return staged.isdigit() or staged == f"{TREE}/{rel}"


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


def _roll_forward(root: Path, lockfile: Path, record: dict[str, object], *, replay: bool) -> None:
    """`replay`: completing a killed run, whose staged files may already be in place (their
    directories are then not recreated, in case the user removed them since)."""
    staging = state_dir(root) / STAGING
    ops = record["ops"]
    assert isinstance(ops, list)
    for op in ops:
        if type(op) is not dict or not _valid_op(op):
            raise JournalError(
                f"cannot replay interrupted run: bad operation {op!r}",
                path=state_dir(root) / JOURNAL,
            )
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
    (state_dir(root) / JOURNAL).unlink(missing_ok=True)
    FAULTS.tick()
    with contextlib.suppress(OSError):
        (staging / TREE).rmdir()  # its directories moved out with what they held
    try:
        staging.rmdir()  # empty after a complete roll-forward
    except FileNotFoundError:
        pass
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)
