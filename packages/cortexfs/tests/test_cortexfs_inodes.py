"""InodeTable: numbers for ABI paths as the low-level FUSE API hands them to the kernel."""

from __future__ import annotations

import pytest

from cortexfs.inodes import ROOT_INO, InodeTable


def test_numbers_are_stable_per_path_and_never_reused() -> None:
    table = InodeTable()
    agent = table.remember("/agent")
    assert table.remember("/agent") == agent
    assert table.child(ROOT_INO, "agent") == "/agent"
    assert table.child(agent, "x.d") == "/agent/x.d"
    table.forget(agent, 2)
    with pytest.raises(KeyError):
        table.path(agent)
    again = table.remember("/agent")
    assert again != agent
    assert table.path(again) == "/agent"


def test_forget_counts_lookups() -> None:
    table = InodeTable()
    ino = table.remember("/status")
    table.remember("/status")
    table.forget(ino, 1)
    assert table.path(ino) == "/status"
    table.forget(ino, 1)
    assert table.known("/status") is None


def test_root_is_never_forgotten() -> None:
    table = InodeTable()
    assert table.remember("/") == ROOT_INO
    table.forget(ROOT_INO, 1)
    assert table.path(ROOT_INO) == "/"


def test_removed_path_keeps_its_number_until_forget() -> None:
    table = InodeTable()
    ino = table.remember("/shared/s/f")
    table.removed("/shared/s/f")
    assert table.path(ino) == "/shared/s/f"  # the kernel may still stat an open file
    fresh = table.remember("/shared/s/f")
    assert fresh != ino
    table.forget(ino, 1)
    assert table.known("/shared/s/f") == fresh


def test_rename_moves_the_subtree_and_detaches_the_target() -> None:
    table = InodeTable()
    space = table.remember("/shared/a")
    inner = table.remember("/shared/a/b/c")
    sibling = table.remember("/shared/ab")
    target = table.remember("/shared/z")
    table.moved("/shared/a", "/shared/z")
    assert table.path(space) == "/shared/z"
    assert table.path(inner) == "/shared/z/b/c"
    assert table.path(sibling) == "/shared/ab"
    assert table.known("/shared/z") == space
    assert table.known("/shared/a") is None
    assert table.known("/shared/z/b/c") == inner
    table.forget(target, 1)  # the replaced entry goes without disturbing the moved one
    assert table.known("/shared/z") == space
