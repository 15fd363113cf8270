"""Binding-level semantics through the mount: listings after side effects, rename flags, times."""

from __future__ import annotations

import errno
import os
import time
from pathlib import Path


def listing_settles(directory: Path, expected: set[str], prefix: str) -> bool:
    """Side-effect changes reach the kernel's listing cache right after the reply."""
    deadline = time.monotonic() + 3.0
    while {n for n in os.listdir(directory) if n.startswith(prefix)} != expected:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_cached_listing_follows_object_lifecycle(ctx_mount, unique: str) -> None:
    agent = ctx_mount.root / "agent"
    assert [n for n in os.listdir(agent) if n.startswith(unique)] == []
    os.mkdir(agent / f"{unique}.d")
    assert {n for n in os.listdir(agent) if n.startswith(unique)} == {unique, f"{unique}.d"}
    os.symlink(f"/run/cortexfs/agent/{unique}.sock", agent / f"{unique}.sock")
    assert f"{unique}.sock" in os.listdir(agent)
    os.unlink(agent / unique)
    assert listing_settles(agent, set(), unique)


def test_refused_new_control_leaves_the_listing(ctx_mount, unique: str) -> None:
    controls = ctx_mount.root / "agent" / f"{unique}.d"
    os.mkdir(controls)
    before = set(os.listdir(controls))
    fd = os.open(controls / "approval", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        assert "approval" in os.listdir(controls)  # created, pending its value
        try:
            os.write(fd, b"\xff\n")
            raised = 0
        except OSError as exc:
            raised = exc.errno or -1
        assert raised == errno.EILSEQ
    finally:
        os.close(fd)
    assert listing_settles(controls, before, "")
    assert not os.path.lexists(controls / "approval")


def test_listing_follows_temp_rename_and_rmdir(ctx_mount, unique: str) -> None:
    space = ctx_mount.root / "shared" / unique
    os.mkdir(space)
    assert os.listdir(space) == []
    (space / "a").write_bytes(b"1")
    assert os.listdir(space) == ["a"]
    os.rename(space / "a", space / "b")
    assert os.listdir(space) == ["b"]
    os.unlink(space / "b")
    assert os.listdir(space) == []
    os.rmdir(space)
    assert unique not in os.listdir(ctx_mount.root / "shared")


def renameat2(old: Path, new: Path, flags: int) -> int:
    """0 or the errno of renameat2(2), which os.rename cannot pass flags to."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    at_fdcwd = -100
    rc = libc.renameat2(at_fdcwd, bytes(old), at_fdcwd, bytes(new), flags)
    return 0 if rc == 0 else ctypes.get_errno()


def test_rename_flags_and_times(ctx_mount, unique: str) -> None:
    space = ctx_mount.root / "shared" / unique
    os.mkdir(space)
    (space / "a").write_bytes(b"1")
    (space / "b").write_bytes(b"2")
    noreplace, exchange = 1, 2
    assert renameat2(space / "a", space / "b", noreplace) == errno.EEXIST
    assert renameat2(space / "a", space / "b", exchange) == errno.EINVAL
    assert renameat2(space / "a", space / "c", noreplace) == 0
    assert sorted(os.listdir(space)) == ["b", "c"]
    assert (space / "c").read_bytes() == b"1"
    os.utime(space / "c", ns=(1_000_000_123, 2_000_000_456))
    st = os.stat(space / "c")
    assert (st.st_atime_ns, st.st_mtime_ns) == (1_000_000_123, 2_000_000_456)
    before = time.time_ns()
    os.utime(space / "c")
    assert os.stat(space / "c").st_mtime_ns >= before - 100_000_000  # coarse fs clock
