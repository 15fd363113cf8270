"""Bind sources are pinned by descriptor between the check and the bind (launch/pin.py),
and bubblewrap gets its options through `--args`: real bubblewrap, the race forced by
swapping the directory after it was checked."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from cortexfs.errors import BadInput
from cortexfs.launch import pin

BWRAP = "/usr/bin/bwrap"


@dataclass(frozen=True)
class Chain:
    argv: tuple[str, ...]
    bwrap: tuple[int, int]
    pins: tuple[int, ...]


def chain(source: str, *command: str) -> Chain:
    options = ["--unshare-pid", "--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin",
               "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
               "--proc", "/proc", "--ro-bind-fd", source, "/workspace"]  # fmt: skip
    argv = (BWRAP, *options, "--", *command)
    return Chain(argv, (0, len(options) + 1), (len(options) - 1,))


def run(spawnable: pin.Spawnable) -> str:
    try:
        proc = subprocess.Popen(
            list(spawnable.argv), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            pass_fds=spawnable.fds,
        )  # fmt: skip
    finally:
        spawnable.close()
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    return out.decode()


@pytest.fixture
def checked(tmp_path: Path, sandbox_tools: None) -> Path:
    work = tmp_path / "work"
    work.mkdir()
    (work / "marker").write_text("checked\n")
    return work


def test_the_checked_directory_is_bound_even_when_replaced_before_the_bind(
    checked: Path,
) -> None:
    spawnable = pin.prepare(chain(str(checked), "cat", "/workspace/marker"), lambda _p: False)
    os.rename(checked, checked.with_name("moved"))  # the race, after the check
    checked.mkdir()
    (checked / "marker").write_text("replacement\n")
    assert run(spawnable) == "checked\n"


def test_bubblewrap_argv_names_no_bind_source(checked: Path) -> None:
    spawnable = pin.prepare(chain(str(checked), "cat", "/proc/1/cmdline"), lambda _p: False)
    argv = spawnable.argv
    assert argv[:2] == (BWRAP, "--args") and argv[3:] == ("--", "cat", "/proc/1/cmdline")
    assert run(spawnable).split("\0") == [BWRAP, "--args", argv[2], "--", "cat",
                                          "/proc/1/cmdline", ""]  # fmt: skip


def test_a_source_swapped_for_a_symlink_after_the_plan_is_refused(
    checked: Path, tmp_path: Path
) -> None:
    storage = tmp_path / "storage"
    storage.mkdir()
    os.rename(checked, tmp_path / "moved")
    checked.symlink_to(storage)  # the path now leads into "storage"
    before = set(os.listdir("/proc/self/fd"))
    with pytest.raises(BadInput, match=r"changed after it was checked \(no longer a directory"):
        pin.prepare(chain(str(checked), "true"), lambda _p: False)
    holder = tmp_path / "holder"
    holder.mkdir()
    (holder / "ws").mkdir()
    os.rename(holder, tmp_path / "gone")
    holder.symlink_to(storage)  # a component above the source swapped
    (storage / "ws").mkdir()
    with pytest.raises(BadInput, match=rf"changed after it was checked \(now {storage}/ws\)"):
        pin.prepare(chain(str(holder / "ws"), "true"), lambda _p: False)
    with pytest.raises(BadInput, match="changed after it was checked; not bound"):
        pin.prepare(chain(str(storage), "true"), lambda path: path == str(storage))
    assert set(os.listdir("/proc/self/fd")) == before  # no descriptor left open
