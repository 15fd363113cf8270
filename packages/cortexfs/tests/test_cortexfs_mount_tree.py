"""Black-box checks of the mounted /ctx tree with ordinary file operations."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest
from oserrors import err

ROOT = ["agent", "bin", "channel", "home", "model", "shared", "status", "tool"]


def test_root_listing_is_frozen(ctx_mount) -> None:
    assert sorted(os.listdir(ctx_mount.root)) == ROOT


def test_status_reads_ready_and_refuses_writes(ctx_mount) -> None:
    status = ctx_mount.root / "status"
    assert status.read_bytes() == b"ready\n"
    assert stat.S_IMODE(status.stat().st_mode) == 0o444
    assert err(lambda: os.open(status, os.O_WRONLY)) == errno.EROFS
    assert err(lambda: os.truncate(status, 0)) == errno.EROFS
    assert status.read_bytes() == b"ready\n"


@pytest.mark.parametrize(
    "action",
    [
        lambda r: os.mkdir(r / "provider"),
        lambda r: os.open(r / "mcp", os.O_CREAT | os.O_WRONLY, 0o644),
        lambda r: os.rmdir(r / "tool"),
        lambda r: os.unlink(r / "status"),
        lambda r: os.rename(r / "tool", r / "tools"),
        lambda r: os.symlink("/tmp", r / "skill"),
        lambda r: os.mkdir(r / "bin" / "x"),
        lambda r: os.unlink(r / "bin" / "ctx"),
    ],
    ids=["mkdir", "create", "rmdir", "unlink", "rename", "symlink", "bin-mkdir", "bin-unlink"],
)
def test_root_and_bin_changes_are_erofs(ctx_mount, action) -> None:
    assert err(lambda: action(ctx_mount.root)) == errno.EROFS


def test_reference_tree(ctx_mount) -> None:
    root = ctx_mount.root
    assert sorted(os.listdir(root / "model")) == ["debug", "helper", "main", "route"]
    assert os.readlink(root / "model" / "main") == "/ctx/model/debug/echo"
    assert (root / "model" / "route").read_bytes() == b"fallback: direct\n"
    assert {"coder", "coder.d", "coder.sock"} <= set(os.listdir(root / "agent"))
    assert os.readlink(root / "agent" / "coder.sock") == "/run/cortexfs/agent/coder.sock"
    assert sorted(os.listdir(root / "home" / "0")) == [".tshrc", "agent", "model", "tool"]
    assert os.path.isdir(root / "shared" / "cortexfs-docs" / "man")
    assert stat.S_IMODE((root / "agent").stat().st_mode) == 0o1777


@pytest.mark.parametrize("rel", ["bin/ctx", "bin/tsh", "agent/coder", "model/debug/echo"])
def test_exec_objects_are_0555_runner_scripts(ctx_mount, rel: str) -> None:
    path = ctx_mount.root / rel
    assert stat.S_IMODE(path.stat().st_mode) == 0o555
    lines = path.read_text().splitlines()
    assert lines[0].startswith("#!/") and lines[0].endswith("/cortexfs-object-runner")
    name = rel.split("/", 1)[1]
    assert lines[1:] == [f"# cortexfs.object={rel.split('/')[0]}", f"# cortexfs.name={name}"]
    assert err(lambda: os.open(path, os.O_WRONLY)) == errno.EROFS


def test_xattrs_are_read_only(ctx_mount) -> None:
    coder = ctx_mount.root / "agent" / "coder"
    size = coder.stat().st_size
    expected = {
        "user.cortexfs.kind": b"ctx.agent.exec",
        "user.cortexfs.origin": b"disk",
        "user.cortexfs.abi_path": b"/ctx/agent/coder",
        "user.cortexfs.storage": b"storage",
        "user.cortexfs.mime_type": b"application/x-cortexfs-object",
        "user.cortexfs.bytes": str(size).encode(),
        "user.cortexfs.token_estimate": str((size + 3) // 4).encode(),
        "user.cortexfs.tokenizer": b"byte-estimate-v1",
        "user.cortexfs.cache_policy": b"keep",
        "user.cortexfs.cache_ttl_ms": b"1000",
    }
    assert sorted(os.listxattr(coder)) == sorted(expected)
    assert {name: os.getxattr(coder, name) for name in expected} == expected
    assert os.getxattr(ctx_mount.root / "status", "user.cortexfs.origin") == b"virtual"
    assert os.getxattr(ctx_mount.root, "user.cortexfs.kind") == b"ctx.root"
    assert err(lambda: os.getxattr(coder, "user.cortexfs.nope")) == errno.ENODATA
    assert err(lambda: os.setxattr(coder, "user.cortexfs.kind", b"x")) == errno.EPERM
    assert err(lambda: os.setxattr(coder, "user.other", b"x")) == errno.EPERM
    assert err(lambda: os.removexattr(coder, "user.cortexfs.kind")) == errno.EPERM


def test_backing_storage_is_root_only(ctx_mount) -> None:
    assert stat.S_IMODE(ctx_mount.storage.stat().st_mode) == 0o700


def test_rmdir_rules(ctx_mount, unique: str) -> None:
    shared = ctx_mount.root / "shared" / unique
    os.mkdir(shared)
    (shared / "queue").mkdir()
    (shared / "queue" / "job").write_text("x\n")
    assert err(lambda: os.rmdir(shared / "queue")) == errno.ENOTEMPTY
    os.unlink(shared / "queue" / "job")
    os.rmdir(shared / "queue")
    assert err(lambda: os.rmdir(ctx_mount.root / "agent" / "coder.d")) == errno.EROFS
    assert err(lambda: os.rmdir(ctx_mount.root / "home")) == errno.EROFS
    assert err(lambda: os.rmdir(ctx_mount.root / "shared")) == errno.EROFS
    os.rmdir(shared)
    assert not shared.exists()


def test_unlink_rules_for_objects(ctx_mount, unique: str, listening) -> None:
    agent = ctx_mount.root / "agent"
    os.mkdir(agent / f"{unique}.d")
    assert err(lambda: os.unlink(agent / f"{unique}.d" / "perm")) == errno.EROFS
    assert err(lambda: os.unlink(agent / f"{unique}.sock")) in (errno.EROFS, errno.ENOENT)
    os.symlink(f"/run/cortexfs/agent/{unique}.sock", agent / f"{unique}.sock")
    assert err(lambda: os.unlink(agent / f"{unique}.sock")) == errno.EROFS
    # A live agent (a supervisor listens on its runtime socket) cannot be removed.
    with listening(f"/run/cortexfs/agent/{unique}.sock"):
        assert err(lambda: os.unlink(agent / unique)) == errno.EBUSY
    os.unlink(agent / unique)
    left = [n for n in os.listdir(agent) if n.startswith(unique)]
    assert left == []


def test_bad_names_are_refused(ctx_mount) -> None:
    agent = ctx_mount.root / "agent"
    assert err(lambda: os.mkdir(agent / "-bad.d")) == errno.EINVAL
    assert err(lambda: os.mkdir(agent / ("x" * 65 + ".d"))) == errno.EINVAL
    assert err(lambda: os.mkdir(agent / "a.sock.d")) == errno.EINVAL
    assert err(lambda: os.mkdir(agent / "plain")) == errno.EINVAL
    assert err(lambda: os.mkdir(ctx_mount.root / "shared" / "bad name")) == errno.EINVAL


def test_mkdir_at_root_is_erofs_not_enoent(ctx_mount) -> None:
    assert err(lambda: os.mkdir(ctx_mount.root / "memory")) == errno.EROFS
    assert not Path(ctx_mount.root / "memory").exists()
