"""What the launcher needs from the mount: per-user agent state directories, mount tables
that never name the storage, and a runner that decides nothing on a forged tree."""

from __future__ import annotations

import errno
import json
import os
import sys
from pathlib import Path

import pytest

from cortexfs.ctl_write import write_control
from cortexfs.errors import Denied
from cortexfs.launch.host import backing_path, storage_guard
from cortexfs.launch.mountcheck import cortexfs_mounts

OTHER_UID = 4242
THIRD_UID = 4343
RUNNER = str(Path(sys.executable).parent / "cortexfs-object-runner")


def test_agent_state_directories_belong_to_the_home_uid(ctx_mount, as_uid, unique) -> None:
    home = ctx_mount.root / "home" / str(OTHER_UID)
    if not home.exists():
        assert as_uid(OTHER_UID, lambda: os.mkdir(home)) == 0
    state = home / "agent" / unique
    assert as_uid(OTHER_UID, lambda: os.makedirs(state / "session" / "index")) == 0
    assert as_uid(OTHER_UID, lambda: (state / "session" / "s.jsonl").write_text("{}\n")) == 0
    assert (state / "session" / "s.jsonl").stat().st_uid == OTHER_UID
    assert state.stat().st_uid == OTHER_UID
    assert as_uid(THIRD_UID, lambda: os.mkdir(state / "data")) == errno.EACCES
    assert as_uid(0, lambda: os.mkdir(state / "data")) == errno.EACCES  # root is no owner here
    # The state directory and a home agent of the same name exclude each other.
    assert as_uid(OTHER_UID, lambda: os.mkdir(home / "agent" / f"{unique}.d")) == errno.EEXIST
    assert as_uid(OTHER_UID, lambda: os.mkdir(home / "agent" / f"{unique}b.d")) == 0
    assert as_uid(OTHER_UID, lambda: os.mkdir(home / "agent" / f"{unique}b")) == errno.EEXIST
    # A socket alias is a symlink the kernel follows (to /run), never a state directory.
    alias = home / "agent" / f"{unique}b.sock"
    assert as_uid(OTHER_UID, lambda: os.symlink("/run/user/x", alias)) == 0
    assert as_uid(OTHER_UID, lambda: os.mkdir(alias / "evil")) == errno.ENOENT
    empty = home / "agent" / f"{unique}c"
    assert as_uid(OTHER_UID, lambda: os.mkdir(empty)) == 0
    assert as_uid(OTHER_UID, lambda: os.rmdir(empty)) == 0


def test_mount_rows_naming_the_storage_are_refused(ctx_mount, unique) -> None:
    controls = ctx_mount.root / "agent" / f"{unique}.d"
    os.mkdir(controls)
    storage = ctx_mount.storage
    for source in (storage, storage / "agent", storage.parent):
        for mode in ("rw", "ro"):
            row = f"{source}\t/opt/x\t{mode}\t-\n".encode()
            with pytest.raises(OSError) as direct:
                (controls / "mount").write_bytes(row)
            assert direct.value.errno == errno.EACCES
            with pytest.raises(Denied):
                write_control(str(controls / "mount"), row)
    fine = b"/srv/data\t/opt/data\trw\t-\n"
    (controls / "mount").write_bytes(fine)
    assert (controls / "mount").read_bytes() == fine


def _forged_tree(base: Path, marker: Path) -> None:
    (base / "agent" / "evil.d").mkdir(parents=True)
    (base / "tool" / "id.d").mkdir(parents=True)
    (base / "home" / "0" / "tool").mkdir(parents=True)
    agent = base / "agent" / "evil.d"
    for name, text in {
        "uid": "0\n",
        "perm": "r-x\n",
        "label": "u:r:evil_t:s0\n",
        "tools": "id\n",
        "policy": "allow evil_t tool:id execute\n",
    }.items():
        (agent / name).write_text(text)
    tool = base / "tool" / "id"
    tool.write_text(f"#!{RUNNER}\n# cortexfs.object=tool\n# cortexfs.name=id\n")
    tool.chmod(0o755)
    command = json.dumps(["/bin/sh", "-c", f"/usr/bin/id > {marker}"])
    (base / "tool" / "id.d" / "driver").write_text(f"kind=exec\ncommand={command}\n")
    (base / "tool" / "id.d" / "policy").write_text("allow evil_t tool:id execute\n")


def test_forged_tree_grants_nothing(ctx_mount, tmp_path: Path, run, parse_events) -> None:
    forged, marker = tmp_path / "forged", tmp_path / "ran"
    _forged_tree(forged, marker)
    plain = {"PATH": "/usr/bin:/bin", "CTX_ROOT": str(forged), "CTX_AGENT": "evil"}
    result = run([str(forged / "tool" / "id")], plain)
    assert result.returncode == 13
    assert parse_events(result.stdout)[0] == {
        "type": "error",
        "errno": "EACCES",
        "message": f"CTX_ROOT={forged} is not a CortexFS mount; nothing is authorised",
    }
    # The real mount as CTX_ROOT, but the agent and tool from elsewhere: still refused.
    mixed = ctx_mount.env(
        CTX_AGENT=str(forged / "agent" / "evil"),
        CTX_PATH=str(forged / "tool"),
        CTX_HOME=str(forged / "home" / "0"),
    )
    result = run([RUNNER, "id"], mixed)
    assert result.returncode == 13
    assert "is outside the CortexFS mount" in parse_events(result.stdout)[0]["message"]
    assert not marker.exists()


def test_state_paths_classify_as_home_files() -> None:
    from cortexfs import decide
    from cortexfs.layout import Kind, classify

    assert classify("/home/7/agent/a/session/index/list").kind is Kind.HOME_FILE
    assert classify("/home/7/agent/a/session").home_uid == 7
    assert classify("/home/7/agent/a.d/policy").kind is Kind.CONTROL
    assert classify("/home/7/agent/a.sock/x").kind is Kind.OBJECT
    assert decide.mkdir(classify("/home/7/agent/a"), 7, 7) is decide.Plan.PLAIN
    for path in ("/agent/a", "/home/7/tool/a"):
        with pytest.raises(OSError) as caught:
            decide.mkdir(classify(path), 0, 0)
        assert caught.value.errno == errno.EINVAL


def test_the_launcher_finds_the_mount_and_its_storage(ctx_mount, tmp_path) -> None:
    """The root names its storage; a bind of anything that is, holds or lies in the
    mount or the storage is refused (binds are recursive), a sibling directory is not."""
    storage = os.path.realpath(ctx_mount.storage)
    assert os.getxattr(ctx_mount.root, "user.cortexfs.backing_path") == storage.encode()
    assert "user.cortexfs.backing_path" in os.listxattr(ctx_mount.root)
    assert "user.cortexfs.backing_path" not in os.listxattr(ctx_mount.root / "agent")
    assert backing_path(str(ctx_mount.root)) == storage
    assert str(ctx_mount.root) in cortexfs_mounts()
    exposes = storage_guard()
    for path in (ctx_mount.root, ctx_mount.root / "home", ctx_mount.storage,
                 ctx_mount.storage / "agent", ctx_mount.storage.parent, Path("/")):  # fmt: skip
        assert exposes(str(path)), path
    assert not exposes(str(tmp_path))
    link = tmp_path / "link"
    link.symlink_to(ctx_mount.storage.parent)  # a row's source retargeted after it was written
    assert exposes(str(link))
