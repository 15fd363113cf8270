"""Directory listings are cached by the kernel; every change must still show in them."""

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
