"""Apply a transaction through a journal so a killed run can be completed.

Phase 1 stages every new file (and the new lockfile) under `.upskill/txn/`,
fsynced. Phase 2 writes `.upskill/journal.json` atomically: the commit point.
Phase 3 renames staged files into place and unlinks removals (each step is
idempotent), then the lockfile, then drops the journal. A run killed before
the commit point leaves the tree untouched (stale staging is discarded); one
killed after it is rolled forward by `recover` on the next run.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from upskill.errors import UpskillError
from upskill.fsio import sync_tree, write_unsynced
from upskill.install.fsops import (
    FAULTS,
    atomic_write,
    contained,
    move_into_place,
    remove_file,
)
from upskill.install.hashing import file_digest

STATE_DIR = ".upskill"
JOURNAL = "journal.json"
STAGING = "txn"


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


def apply_transaction(root: Path, lockfile: Path, txn: Transaction) -> None:
    if txn.empty:
        return
    checked: set[str] = set()
    for w in txn.writes:  # validate containment before touching anything
        contained(root, w.path, checked)
    state = state_dir(root)
    staging = state / STAGING
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir(parents=True)
    ops: list[dict[str, object]] = []
    for index, w in enumerate(txn.writes):
        write_unsynced(staging / str(index), w.data, w.mode)
        FAULTS.tick()
        ops.append({"op": "write", "path": w.path, "staged": str(index)})
    for r in txn.removes:
        ops.append({"op": "remove", "path": r.path, "sha256": r.expected})
    record: dict[str, object] = {"version": 1, "ops": ops, "lockfile": None}
    if txn.lockfile is not None:
        write_unsynced(staging / "lockfile", txn.lockfile)
        FAULTS.tick()
        record["lockfile"] = "lockfile"
    sync_tree(staging)  # every staged byte is durable before the commit point
    atomic_write(state / JOURNAL, json.dumps(record, indent=1).encode())
    _roll_forward(root, lockfile, record)


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
    _roll_forward(root, lockfile, record)
    return True


def _roll_forward(root: Path, lockfile: Path, record: dict[str, object]) -> None:
    staging = state_dir(root) / STAGING
    ops = record["ops"]
    assert isinstance(ops, list)
    checked: set[str] = set()
    made: set[Path] = set()
    for op in ops:
        path = contained(root, str(op["path"]), checked)
        if op["op"] == "write":
            staged = staging / str(op["staged"])
            if staged.exists():  # else: already moved into place before the crash
                move_into_place(staged, path, made)
        elif op["op"] == "remove":
            seen = file_digest(path)
            if seen is not None and seen[0] == op["sha256"]:
                remove_file(path, root)
    if record.get("lockfile"):
        staged_lock = staging / str(record["lockfile"])
        if staged_lock.exists():
            move_into_place(staged_lock, lockfile)
    sync_tree(root)  # the renames are durable before the journal goes
    (state_dir(root) / JOURNAL).unlink(missing_ok=True)
    FAULTS.tick()
    shutil.rmtree(staging, ignore_errors=True)
