"""`cortexfs-mount` refuses bad storage and mountpoints before mounting anything."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

MOUNT = str(Path(sys.executable).parent / "cortexfs-mount")


def mount(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [MOUNT, *args, "--foreground"], capture_output=True, text=True, timeout=30
    )


def test_non_empty_foreign_storage_is_refused(tmp_path: Path) -> None:
    storage, mnt = tmp_path / "storage", tmp_path / "mnt"
    storage.mkdir()
    mnt.mkdir()
    (storage / "precious.txt").write_text("keep\n")
    result = mount("--source", str(storage), str(mnt))
    assert result.returncode == 2
    assert result.stderr == (
        f"cortexfs-mount: {storage}: not empty and not a CortexFS tree "
        "(no bin/cortexfs.bootstrap.json)\n"
    )
    assert sorted(p.name for p in storage.iterdir()) == ["precious.txt"]


def test_newer_tree_is_refused(tmp_path: Path) -> None:
    storage, mnt = tmp_path / "storage", tmp_path / "mnt"
    (storage / "bin").mkdir(parents=True)
    mnt.mkdir()
    (storage / "bin" / "cortexfs.bootstrap.json").write_text(json.dumps({"tree_version": 99}))
    result = mount("--source", str(storage), str(mnt))
    assert result.returncode == 2
    assert "tree_version 99 is newer than 1" in result.stderr


def test_storage_and_mountpoint_must_not_nest(tmp_path: Path) -> None:
    storage = tmp_path / "storage"
    (storage / "ctx").mkdir(parents=True)
    result = mount("--source", str(storage), str(storage / "ctx"))
    assert result.returncode == 2
    assert result.stderr.endswith("storage and mountpoint must not contain each other\n")
    missing = mount("--source", str(storage), str(tmp_path / "nope"))
    assert missing.returncode == 2
    assert missing.stderr == f"cortexfs-mount: {tmp_path / 'nope'}: mountpoint is not a directory\n"


def test_bootstrap_writes_the_reference_tree(tmp_path: Path) -> None:
    from cortexfs.bootstrap import bootstrap

    storage = tmp_path / "storage"
    storage.mkdir()
    assert bootstrap(str(storage), "/usr/bin/cortexfs-object-runner") is True
    assert bootstrap(str(storage), "/usr/bin/cortexfs-object-runner") is False
    assert sorted(p.name for p in storage.iterdir()) == [
        "agent", "bin", "channel", "home", "model", "shared", "tool",
    ]  # fmt: skip
    assert (storage.stat().st_mode & 0o777) == 0o700
    assert (storage / "agent" / "coder.d" / "label").read_text() == "user_u:agent_r:coder_t:s0\n"
    state = json.loads((storage / "bin" / "cortexfs.bootstrap.json").read_text())
    assert state == {"tree_version": 1, "migrations": []}


def test_missing_source_needs_init(tmp_path: Path) -> None:
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    storage = tmp_path / "no" / "such" / "storage"
    result = mount("--source", str(storage), str(mnt))
    assert result.returncode == 2
    assert result.stderr == (
        f"cortexfs-mount: {storage}: storage does not exist (pass --init to create it)\n"
    )
    assert not (tmp_path / "no").exists()
    afile = tmp_path / "file"
    afile.write_text("x")
    result = mount("--source", str(afile), str(mnt))
    assert (result.returncode, result.stderr) == (
        2, f"cortexfs-mount: {afile}: storage is not a directory\n",
    )  # fmt: skip


def test_a_live_mountpoint_is_refused(ctx_mount, tmp_path: Path) -> None:
    other = tmp_path / "storage"
    other.mkdir()
    result = mount("--source", str(other), str(ctx_mount.root))
    assert result.returncode == 1
    assert result.stderr == (
        f"cortexfs-mount: {ctx_mount.root}: already a mount point (fuse.cortexfs); "
        "unmount it first\n"
    )
    assert list(other.iterdir()) == []
    assert (ctx_mount.root / "status").read_bytes() == b"ready\n"


def test_one_storage_is_served_once(ctx_mount, tmp_path: Path) -> None:
    second = tmp_path / "second"
    second.mkdir()
    result = mount("--source", str(ctx_mount.storage), str(second))
    assert result.returncode == 1
    assert result.stderr == (
        f"cortexfs-mount: {ctx_mount.storage}: storage is already served by another "
        "cortexfs-mount\n"
    )
    assert os.listdir(second) == []


def test_dead_mount_is_named_with_its_fix(fresh_mount, run) -> None:
    fresh_mount.proc.send_signal(signal.SIGKILL)
    fresh_mount.proc.wait(timeout=10)
    root = fresh_mount.root
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:  # the kernel notices the daemon is gone
        try:
            os.stat(root)
        except OSError:
            break
        time.sleep(0.05)
    other = fresh_mount.storage.parent / "other"
    other.mkdir()
    result = mount("--source", str(other), str(root))
    assert result.returncode == 69
    assert result.stderr == (
        f"cortexfs-mount: {root}: a dead FUSE mount is left here (its daemon exited); "
        f"unmount it first: fusermount3 -u {root}\n"
    )
    ctx = str(Path(sys.executable).parent / "ctx")
    doctor = run([ctx, "doctor"], fresh_mount.env())
    assert doctor.returncode == 1
    assert doctor.stdout.decode().splitlines()[0] == (
        f"fail fuse-mount: {root} is a dead FUSE mount (its daemon exited): "
        f"run fusermount3 -u {root}, then mount it again"
    )
