"""Cached listings on a real mount: every change shows at once, to every uid, and a cached
listing never lets a uid read a directory its mode keeps from it.

The daemon caches each directory's listing until anything changes, and the kernel keeps
its own copy across opens where libfuse allows it (3.16 on). Each test lists first, as
every uid involved, so that a stale copy would be what the next listing shows.
"""

from __future__ import annotations

import errno
import os
import signal
import time
from pathlib import Path
from typing import Any

OTHER_UID = 4242  # the uids conftest's as_uid tests use
THIRD_UID = 4343
Mount = Any  # conftest.Mount, which cannot be imported under importlib mode


def listing_as(uid: int, directory: Path) -> list[str]:
    """`sorted(os.listdir(directory))` in a child running as `uid`; OSError with its errno."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        code = 0
        signal.alarm(20)  # a hung mount kills the child instead of the test run
        try:
            os.close(read)
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            data = "\0".join(sorted(os.listdir(directory))).encode("utf-8", "surrogateescape")
            while data:
                data = data[os.write(write, data) :]
        except OSError as exc:
            code = exc.errno or 254
        except BaseException:
            code = 255
        os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code:
        raise OSError(code, f"listing {directory} as uid {uid}")
    return data.decode("utf-8", "surrogateescape").split("\0") if data else []


def listing_errno(uid: int, directory: Path) -> int:
    try:
        listing_as(uid, directory)
    except OSError as exc:
        return exc.errno or -1
    return 0


def listings(directory: Path) -> tuple[list[str], list[str]]:
    """As root and as another uid, each listing once more right after (a cached copy)."""
    mine, theirs = sorted(os.listdir(directory)), listing_as(OTHER_UID, directory)
    assert sorted(os.listdir(directory)) == mine
    assert listing_as(OTHER_UID, directory) == theirs
    return mine, theirs


def test_changes_by_root_show_at_once_to_every_uid(ctx_mount: Mount, unique: str) -> None:
    space = ctx_mount.root / "shared" / unique
    os.mkdir(space, 0o755)
    assert listings(space) == ([], [])
    (space / "a").write_bytes(b"1")
    assert listings(space) == (["a"], ["a"])
    os.mkdir(space / "d")
    assert listings(space) == (["a", "d"], ["a", "d"])
    os.rename(space / "a", space / "b")
    assert listings(space) == (["b", "d"], ["b", "d"])
    assert listings(space / "d") == ([], [])
    os.rename(space / "b", space / "d" / "b")
    assert listings(space) == (["d"], ["d"])
    assert listings(space / "d") == (["b"], ["b"])
    os.unlink(space / "d" / "b")
    assert listings(space / "d") == ([], [])
    os.rmdir(space / "d")
    assert listings(space) == ([], [])
    os.rmdir(space)
    assert unique not in os.listdir(ctx_mount.root / "shared")
    assert unique not in listing_as(OTHER_UID, ctx_mount.root / "shared")


def test_changes_by_another_uid_show_at_once_to_every_uid(
    ctx_mount: Mount, unique: str, as_uid
) -> None:
    space = ctx_mount.root / "shared" / unique
    assert as_uid(OTHER_UID, lambda: os.mkdir(space, 0o755)) == 0
    assert os.stat(space).st_uid == OTHER_UID
    assert listings(space) == ([], [])
    assert as_uid(OTHER_UID, lambda: (space / "x").write_bytes(b"1")) == 0
    assert listings(space) == (["x"], ["x"])
    assert as_uid(OTHER_UID, lambda: os.rename(space / "x", space / "y")) == 0
    assert listings(space) == (["y"], ["y"])
    assert listing_as(THIRD_UID, space) == ["y"]
    assert as_uid(OTHER_UID, lambda: os.unlink(space / "y")) == 0
    assert listings(space) == ([], [])
    assert listing_as(THIRD_UID, space) == []


def test_a_moved_directory_lists_its_own_entries(ctx_mount: Mount, unique: str) -> None:
    """Listings are kept by path; a rename moves a directory to a path listed before."""
    space = ctx_mount.root / "shared" / unique
    os.mkdir(space, 0o755)
    for name in ("x", "y"):
        os.mkdir(space / name)
        (space / name / f"in-{name}").write_bytes(b"")
        assert listings(space / name) == ([f"in-{name}"], [f"in-{name}"])
    os.rename(space / "x", space / "z")
    assert listings(space / "z") == (["in-x"], ["in-x"])
    os.mkdir(space / "x")
    assert listings(space / "x") == ([], [])
    # Replacing a directory needs it empty: y moves over the now empty x.
    os.rename(space / "y", space / "x")
    assert listings(space / "x") == (["in-y"], ["in-y"])
    assert listings(space) == (["x", "z"], ["x", "z"])


def test_daemon_side_changes_show_at_once(ctx_mount: Mount, unique: str) -> None:
    """Entries the daemon adds or removes beside the one asked for: an agent's `.d` and
    `.sock` go with it, and a control created but never validly written is listed only
    while it is pending."""
    agent = ctx_mount.root / "agent"
    os.mkdir(agent / f"{unique}.d")
    os.symlink(f"/run/cortexfs/agent/{unique}.sock", agent / f"{unique}.sock")
    mine, theirs = listings(agent)
    expected = [unique, f"{unique}.d", f"{unique}.sock"]
    assert [n for n in mine if n.startswith(unique)] == expected
    assert [n for n in theirs if n.startswith(unique)] == expected
    controls = agent / f"{unique}.d"
    before = listings(controls)
    fd = os.open(controls / "approval", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        # The forked lister inherits fd, and its exit flushes it: that commits nothing.
        mine, theirs = listings(controls)  # created, pending its value
        assert "approval" in mine
        assert "approval" in theirs
        try:
            os.write(fd, b"\xff\n")
            raised = 0
        except OSError as exc:
            raised = exc.errno or -1
        assert raised == errno.EILSEQ
    finally:
        os.close(fd)
    deadline = time.monotonic() + 3.0  # the kernel sends release after close returns
    while listings(controls) != before:
        assert time.monotonic() < deadline, listings(controls)
        time.sleep(0.02)
    os.unlink(agent / unique)
    mine, theirs = listings(agent)
    assert [n for n in mine if n.startswith(unique)] == []
    assert [n for n in theirs if n.startswith(unique)] == []


def test_a_cached_listing_is_no_wider_than_the_directory_mode(
    ctx_mount: Mount, unique: str
) -> None:
    space = ctx_mount.root / "shared" / unique
    os.mkdir(space, 0o700)
    (space / "secret").write_bytes(b"")
    assert sorted(os.listdir(space)) == ["secret"]  # the owner's listing, cached
    assert listing_errno(OTHER_UID, space) == errno.EACCES
    os.chmod(space, 0o755)
    assert listing_as(OTHER_UID, space) == ["secret"]
    os.chmod(space, 0o700)
    assert listing_errno(OTHER_UID, space) == errno.EACCES
    assert sorted(os.listdir(space)) == ["secret"]


def test_a_new_value_keeps_every_listing(ctx_mount: Mount, unique: str) -> None:
    """A control's new value, a log append and a chmod (which writes `perm`) change no
    name, so every cached listing stays. What shows it: an entry put into the storage
    behind the daemon's back, which nothing detects (design.md), stays unlisted across
    those writes; a new name (a created control, a created file) drops only its own
    directory's listing."""
    space = ctx_mount.root / "shared" / unique
    os.mkdir(space, 0o755)
    (space / "a").write_bytes(b"")
    agent = ctx_mount.root / "agent"
    os.mkdir(agent / f"{unique}.d")
    controls = agent / f"{unique}.d"
    assert listings(space) == (["a"], ["a"])
    before = listings(controls)
    (ctx_mount.storage / "shared" / unique / "behind").write_bytes(b"")
    (controls / "cwd").write_bytes(b"/tmp\n")
    (controls / "cwd").write_bytes(b"/\n")
    with open(controls / "log", "ab") as log:
        log.write(b"appended\n")
    os.chmod(agent / unique, 0o700)
    assert listings(space) == (["a"], ["a"])
    assert listings(controls) == before
    (controls / "approval").write_bytes(b"ask\n")  # created: a name in controls/ only
    mine, theirs = listings(controls)
    assert mine == theirs == sorted([*before[0], "approval"])
    assert listings(space) == (["a"], ["a"])
    (space / "b").write_bytes(b"")
    assert listings(space) == (["a", "b", "behind"], ["a", "b", "behind"])
