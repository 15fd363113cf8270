"""Unit tests for the write primitives: atomic replace/create and the advisory lock."""

from __future__ import annotations

import json
import os
import stat
import threading
import time
from pathlib import Path

import pytest

from agents_md_compiler.atomic import atomic_create, atomic_write, ensure_private_dir
from agents_md_compiler.errors import MutationError
from agents_md_compiler.locking import LockTiming, advisory_lock
from agents_md_compiler.processes import process_start


def test_atomic_write_replaces_with_mode_and_leaves_no_temp(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"old")
    atomic_write(str(path), b"new", 0o640)
    assert path.read_bytes() == b"new" and stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f"]


def test_atomic_create_never_clobbers(tmp_path: Path) -> None:
    path = tmp_path / "f"
    atomic_create(str(path), b"first")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    with pytest.raises(FileExistsError):
        atomic_create(str(path), b"second")
    assert path.read_bytes() == b"first"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f"]


def test_atomic_write_cleans_up_on_failure(tmp_path: Path) -> None:
    target = tmp_path / "dir-target"
    target.mkdir()
    (target / "inside").write_text("x")
    with pytest.raises(OSError):
        atomic_write(str(target), b"data")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir-target"]


def test_ensure_private_dir_creates_every_level_0700(tmp_path: Path) -> None:
    deep = tmp_path / "a" / "b" / "c"
    ensure_private_dir(str(deep))
    for path in (tmp_path / "a", tmp_path / "a" / "b", deep):
        assert stat.S_IMODE(path.stat().st_mode) == 0o700


def test_advisory_lock_contents_and_release(tmp_path: Path) -> None:
    lock = tmp_path / "locks" / "x.lock"
    with advisory_lock(str(lock)):
        assert json.loads(lock.read_text()) == {
            "acquired_at": "held",
            "pid": os.getpid(),
            "started": process_start(os.getpid()),
        }
        assert stat.S_IMODE(lock.stat().st_mode) == 0o600
        quick = LockTiming(poll_seconds=0.01, timeout_seconds=0.03)
        with (
            pytest.raises(MutationError, match=f"pid {os.getpid()}"),
            advisory_lock(str(lock), quick),
        ):
            pass
    assert not lock.exists()


def test_advisory_lock_waits_for_release(tmp_path: Path) -> None:
    lock = tmp_path / "x.lock"
    order: list[str] = []

    def holder() -> None:
        with advisory_lock(str(lock)):
            order.append("held")
            time.sleep(0.15)
            order.append("releasing")

    thread = threading.Thread(target=holder)
    thread.start()
    while not order:
        time.sleep(0.005)
    with advisory_lock(str(lock), LockTiming(poll_seconds=0.01, timeout_seconds=5)):
        order.append("acquired")
    thread.join()
    assert order == ["held", "releasing", "acquired"]


def test_unreadable_holder_is_reported_as_unknown(tmp_path: Path) -> None:
    lock = tmp_path / "x.lock"
    lock.write_text("garbage")
    quick = LockTiming(poll_seconds=0.01, timeout_seconds=0.02)
    with pytest.raises(MutationError, match="holder unknown"), advisory_lock(str(lock), quick):
        pass
    assert lock.read_text() == "garbage"
