"""The one advisory lock primitive, shared by the scope lock and the git cache."""

from __future__ import annotations

import errno
import fcntl
import importlib.util
import os
import sys
import threading
import time
import types
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


class _StandInMsvcrt(types.ModuleType):
    """Windows' `msvcrt.locking` as far as the lock uses it: a byte-range lock per open
    file that fails at once (EACCES) when another open file holds it. Backed by flock,
    which has the same per-open-file ownership; every call is recorded with the file
    position it ran at, since msvcrt locks from there."""

    LK_UNLCK, LK_LOCK, LK_NBLCK = 0, 1, 2

    def __init__(self) -> None:
        super().__init__("msvcrt")
        self.calls: list[tuple[int, int, int]] = []

    def locking(self, fd: int, mode: int, nbytes: int) -> None:
        self.calls.append((mode, nbytes, os.lseek(fd, 0, os.SEEK_CUR)))
        if mode == self.LK_UNLCK:
            fcntl.flock(fd, fcntl.LOCK_UN)
            return
        assert mode == self.LK_NBLCK, "only the non-blocking lock is used (LK_LOCK gives up)"
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise OSError(errno.EACCES, "Permission denied") from None


@pytest.fixture
def windows_filelock(monkeypatch: pytest.MonkeyPatch) -> tuple[types.ModuleType, _StandInMsvcrt]:
    """upskill.filelock loaded afresh as on Windows: its msvcrt branch, the stand-in above."""
    import upskill.filelock

    stand_in = _StandInMsvcrt()
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setitem(sys.modules, "msvcrt", stand_in)
    spec = importlib.util.spec_from_file_location("filelock_win32", upskill.filelock.__file__)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert not hasattr(module, "fcntl"), "the Windows branch must not import fcntl"
    return module, stand_in


def test_on_windows_a_held_lock_times_out_and_a_released_one_is_taken(  # type: ignore[no-untyped-def]
    windows_filelock, tmp_path: Path
) -> None:
    module, msvcrt = windows_filelock
    path = tmp_path / "x.lock"
    held = module.FileLock(path, timeout=0).__enter__()
    os.lseek(held._fd, 7, os.SEEK_SET)  # whatever the position, the same range is unlocked
    with pytest.raises(module.LockTimeout):
        module.FileLock(path, timeout=0.1).__enter__()
    held.__exit__(None, None, None)
    with module.FileLock(path, timeout=0):
        pass
    region = 0xFFFF
    assert msvcrt.calls[0] == (msvcrt.LK_NBLCK, region, 0)
    assert all(call == (msvcrt.LK_NBLCK, region, 0) for call in msvcrt.calls[1:-3])
    assert msvcrt.calls[-3:] == [
        (msvcrt.LK_UNLCK, region, 0),
        (msvcrt.LK_NBLCK, region, 0),
        (msvcrt.LK_UNLCK, region, 0),
    ]


def test_on_windows_without_a_timeout_the_second_holder_polls_until_released(  # type: ignore[no-untyped-def]
    windows_filelock, tmp_path: Path
) -> None:
    module, _ = windows_filelock
    path = tmp_path / "x.lock"
    order: list[str] = []
    first = module.FileLock(path).__enter__()
    thread = threading.Thread(
        target=lambda: (module.FileLock(path).__enter__(), order.append("second"))
    )
    thread.start()
    time.sleep(0.3)
    order.append("first released")
    first.__exit__(None, None, None)
    thread.join(timeout=10)
    assert order == ["first released", "second"]
