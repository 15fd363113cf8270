"""`cortexfs-mount` refuses bad storage and mountpoints before mounting anything."""

from __future__ import annotations

import json
import subprocess
import sys
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
    assert bootstrap(str(storage), "/usr/bin/cortexfs-object-runner") is True
    assert bootstrap(str(storage), "/usr/bin/cortexfs-object-runner") is False
    assert sorted(p.name for p in storage.iterdir()) == [
        "agent", "bin", "channel", "home", "model", "shared", "tool",
    ]  # fmt: skip
    assert (storage.stat().st_mode & 0o777) == 0o700
    assert (storage / "agent" / "coder.d" / "label").read_text() == "user_u:agent_r:coder_t:s0\n"
    state = json.loads((storage / "bin" / "cortexfs.bootstrap.json").read_text())
    assert state == {"tree_version": 1, "migrations": []}
