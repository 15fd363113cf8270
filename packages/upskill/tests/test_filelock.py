"""The one advisory lock primitive, shared by the scope lock and the git cache."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from upskill.filelock import FileLock, LockTimeout


def test_a_held_lock_times_out_and_a_released_one_is_taken(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    with FileLock(path, timeout=0), pytest.raises(LockTimeout), FileLock(path, timeout=0.1):
        raise AssertionError("acquired a held lock")
    with FileLock(path, timeout=0):
        pass


def test_without_a_timeout_the_second_holder_waits_for_the_first(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    order: list[str] = []
    first = FileLock(path).__enter__()
    waiter_started = threading.Event()

    def second() -> None:
        waiter_started.set()
        with FileLock(path):
            order.append("second")

    thread = threading.Thread(target=second)
    thread.start()
    waiter_started.wait()
    time.sleep(0.2)  # the waiter is blocked in flock, not done
    order.append("first released")
    first.__exit__(None, None, None)
    thread.join(timeout=10)
    assert order == ["first released", "second"]
