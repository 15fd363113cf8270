"""A warm host's directory lives as long as the host (warm/lifetime.py): removed when it
stops, reaped by the next host when it died, and nothing touched that a live host
holds, that is not an install key's, or that is not private to the uid."""

from __future__ import annotations

import fcntl
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cortexfs.warm import lifetime
from cortexfs.warm.lifetime import reap_stale, take_lock
from cortexfs.warm.paths import LOCK, SOCKET


def start_host(directory: Path) -> subprocess.Popen[bytes]:
    """`python -m cortexfs.warm.host DIR READY_FD`, as a runner starts it; returns once
    it listens."""
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(
        [sys.executable, "-m", "cortexfs.warm.host", str(directory), str(write_end)],
        pass_fds=(write_end,), stdin=subprocess.DEVNULL,
    )  # fmt: skip
    os.close(write_end)
    with os.fdopen(read_end, "rb") as handle:
        assert handle.read() == b"ready\n"
    return proc


def tree(parent: Path) -> dict[str, list[str]]:
    return {
        entry.name: sorted(os.listdir(entry)) if entry.is_dir() and not entry.is_symlink() else []
        for entry in sorted(parent.iterdir())
    }


def wait_for(predicate, seconds: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


@pytest.fixture
def uid_dir(tmp_path: Path) -> Path:
    path = tmp_path / "cortexfs-calls"
    path.mkdir(mode=0o700)
    return path


def test_a_host_removes_its_directory_when_it_stops(uid_dir: Path) -> None:
    """Every test world, checkout and upgrade is an install key of its own: with the
    directory kept after its host stopped, /tmp/cortexfs-calls-0 held 222 of them."""
    host = start_host(uid_dir / "0000aaaa")
    assert tree(uid_dir) == {"0000aaaa": [SOCKET, LOCK]}
    host.send_signal(signal.SIGTERM)
    assert host.wait(timeout=30) == 0
    assert tree(uid_dir) == {}


def test_a_host_stopped_the_moment_it_is_ready_still_cleans_up(uid_dir: Path) -> None:
    """The host takes SIGTERM before it says it is ready: a stop sent on "ready" (as a
    test world's teardown may) never meets the default action, which kills the host and
    leaves its directory. Repeated, since the window it closes is short."""
    for n in range(10):
        host = start_host(uid_dir / f"0000{n:04x}")
        host.send_signal(signal.SIGTERM)
        assert host.wait(timeout=30) == 0
    assert tree(uid_dir) == {}


def test_the_next_host_reaps_those_of_hosts_that_died(uid_dir: Path, tmp_path: Path) -> None:
    killed = start_host(uid_dir / "0000dead")
    killed.kill()
    killed.wait(timeout=10)
    assert tree(uid_dir) == {"0000dead": [SOCKET, LOCK]}
    (uid_dir / "0000e000").mkdir(mode=0o700)  # a runner made it; its host never came
    held = uid_dir / "0000beef"  # a live host's (its lock held here)
    held.mkdir(mode=0o700)
    holder = os.open(held / LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(holder, fcntl.LOCK_EX)
    (uid_dir / "not-a-key").mkdir(mode=0o700)
    (uid_dir / "not-a-key" / LOCK).touch()
    elsewhere = tmp_path / "elsewhere"  # planted: a symlink is never followed
    elsewhere.mkdir(mode=0o700)
    (elsewhere / LOCK).touch()
    (uid_dir / "0000cafe").symlink_to(elsewhere)
    try:
        host = start_host(uid_dir / "0000aaaa")
        wait_for(lambda: not {"0000dead", "0000e000"} & set(os.listdir(uid_dir)))
        assert tree(uid_dir) == {
            "0000aaaa": [SOCKET, LOCK], "0000beef": [LOCK], "0000cafe": [],
            "not-a-key": [LOCK],
        }  # fmt: skip
        host.send_signal(signal.SIGTERM)
        assert host.wait(timeout=30) == 0
    finally:
        os.close(holder)
    assert tree(uid_dir) == {"0000beef": [LOCK], "0000cafe": [], "not-a-key": [LOCK]}
    assert os.listdir(elsewhere) == [LOCK]


@pytest.mark.parametrize("mode", [0o755, 0o770])
def test_a_uid_dir_others_can_enter_is_left_alone(uid_dir: Path, mode: int) -> None:
    stale = uid_dir / "0000dead"
    stale.mkdir(mode=0o700)
    (stale / LOCK).touch()
    uid_dir.chmod(mode)
    assert reap_stale(str(uid_dir), os.getuid(), keep="0000aaaa") == []
    uid_dir.chmod(0o700)
    assert reap_stale(str(uid_dir), os.getuid(), keep="0000aaaa") == ["0000dead"]
    assert reap_stale(str(uid_dir), os.getuid() + 1, keep="0000aaaa") == []


def test_a_lock_unlinked_while_waited_for_is_not_taken(uid_dir: Path) -> None:
    """A host that opened the lock just before its stopping holder unlinked it would hold
    a lock no other host sees, and two hosts would serve the directory."""
    directory = uid_dir / "0000aaaa"
    first = take_lock(str(directory), os.getuid())
    assert first is not None
    assert take_lock(str(directory), os.getuid()) is None  # held
    stale = os.open(directory / LOCK, os.O_RDWR)
    os.unlink(directory / LOCK)
    os.close(first)
    fcntl.flock(stale, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the old file is free...
    os.close(stale)
    second = take_lock(str(directory), os.getuid())
    assert second is not None  # ...but the lock taken is a new one, at the path
    assert os.fstat(second).st_ino == os.stat(directory / LOCK).st_ino
    os.close(second)


def test_a_socket_left_by_a_dead_host_goes_with_its_directory(uid_dir: Path) -> None:
    stale = uid_dir / "0000dead"
    stale.mkdir(mode=0o700)
    (stale / LOCK).touch()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.bind(str(stale / SOCKET))
    assert reap_stale(str(uid_dir), os.getuid(), keep="0000aaaa") == ["0000dead"]
    assert tree(uid_dir) == {}


def test_both_places_of_the_uid_are_reaped(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Once /run/user/<uid> exists every host starts there, and nothing reaped the
    directories of the hosts that had died under /tmp (222 for the sandbox worlds' uid)."""
    run_user, tmp = tmp_path / "run-user", tmp_path / "tmp"
    for parent in (run_user, tmp):
        parent.mkdir(mode=0o700)
        for key in ("0000aaaa", "0000dead"):
            (parent / key).mkdir(mode=0o700)
            (parent / key / LOCK).touch()
    monkeypatch.setattr(lifetime, "host_dirs", lambda _uid: [f"{run_user}/k", f"{tmp}/k"])
    own = take_lock(str(run_user / "0000aaaa"), os.getuid())
    assert lifetime.reap_around(str(run_user / "0000aaaa"), os.getuid()) == [
        f"{run_user}/0000dead", f"{tmp}/0000aaaa", f"{tmp}/0000dead",
    ]  # fmt: skip
    assert tree(run_user) == {"0000aaaa": [LOCK]} and tree(tmp) == {}
    assert own is not None
    os.close(own)
