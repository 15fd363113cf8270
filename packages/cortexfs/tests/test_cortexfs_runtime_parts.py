"""The launcher's smaller parts on their own: cgroups, session records, socket requests,
frames, mountinfo."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import threading
from pathlib import Path

import pytest

from cortexfs.agent_runtime import control, fs_ops
from cortexfs.agent_runtime.session_policy import check_read, check_send
from cortexfs.agent_runtime.sessions import SessionRef, begin_ops, end_ops, session_ref, text_key
from cortexfs.errors import Denied
from cortexfs.jsonl_socket import MAX_FRAME, Conn, FrameError
from cortexfs.launch import cgroups
from cortexfs.launch.limits import Limits
from cortexfs.launch.mountcheck import cortexfs_mounts, mount_fstype
from cortexfs.launch.spec import AgentRef, AgentSpec, parse_spec


def _mountinfo(tmp_path: Path, lines: list[str]) -> str:
    path = tmp_path / "mountinfo"
    path.write_text("".join(line + "\n" for line in lines))
    return str(path)


def test_cgroup_v1(tmp_path: Path) -> None:
    points = {c: tmp_path / c for c in ("memory", "pids", "cpu")}
    for point in points.values():
        point.mkdir()
    info = _mountinfo(
        tmp_path,
        [f"30 25 0:26 / {points[c]} rw,nosuid - cgroup cgroup rw,{c}" for c in points]
        + ["31 25 0:27 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw"],
    )
    host = cgroups.detect_cgroups(info)
    assert host == cgroups.CgroupHost(1, tuple((c, str(p)) for c, p in points.items()))
    made = cgroups.create(host, "agent.x", Limits(memory_bytes=1 << 30, tasks=7, cpu_percent=150))
    leaf = {c: p / "cortexfs" / "agent.x" for c, p in points.items()}
    assert made == cgroups.Cgroup(1, tuple(str(p) for p in leaf.values()))
    assert (leaf["memory"] / "memory.limit_in_bytes").read_text() == str(1 << 30)
    assert not (leaf["memory"] / "memory.memsw.limit_in_bytes").exists()  # no swap accounting
    assert (leaf["pids"] / "pids.max").read_text() == "7"
    assert (leaf["cpu"] / "cpu.cfs_quota_us").read_text() == "150000"
    cgroups.enter(made, 123)
    assert (leaf["pids"] / "cgroup.procs").read_text() == "123"
    for path in leaf.values():
        for name in os.listdir(path):
            os.unlink(path / name)
    cgroups.leave_and_remove(made, 123)
    assert not leaf["pids"].exists()
    assert (points["pids"] / "cgroup.procs").read_text() == "123"


def test_cgroup_v2_and_none(tmp_path: Path) -> None:
    unified = tmp_path / "unified"
    unified.mkdir()
    info = _mountinfo(tmp_path, [f"31 25 0:27 / {unified} rw - cgroup2 cgroup2 rw"])
    (unified / "cgroup.controllers").write_text("cpuset hugetlb\n")
    assert cgroups.detect_cgroups(info) is None
    (unified / "cgroup.controllers").write_text("cpu memory pids\n")
    host = cgroups.detect_cgroups(info)
    assert host == cgroups.CgroupHost(2, (("unified", str(unified)),))
    made = cgroups.create(host, "agent.y", Limits())
    leaf = unified / "cortexfs" / "agent.y"
    assert made == cgroups.Cgroup(2, (str(leaf),))
    assert (unified / "cgroup.subtree_control").read_text() == "+memory +pids +cpu"
    assert (leaf / "cpu.max").read_text() == "200000 100000"
    assert (leaf / "memory.max").read_text() == str(1 << 30)
    assert cgroups.detect_cgroups(str(tmp_path / "missing")) is None


def test_session_records() -> None:
    ref = SessionRef("/c/home/7/agent/a", "/agent/a", 7, "s1")
    begin = begin_ops(ref, "t1", "/workspace", "hi", "T0")
    assert [op["op"] for op in begin] == [
        "mkdir",
        "mkdir",
        "mkdir",
        "mkdir",
        "mkdir",
        "mkdir",
        "mkdir",
        "write_once",
        "write_once",
        "write",
        "write",
        "write",
        "append",
        "front",
        "write",
        "write",
        "write",
        "write_once",
    ]
    paths = {op["path"].removeprefix("/c/home/7/agent/a/"): op.get("data") for op in begin}
    assert paths["session/s1/state"] == "active\n"
    assert text_key("/workspace") == hashlib.sha256(b"/workspace").hexdigest()[:32]
    assert paths[f"session/index/by-cwd/{text_key('/workspace')}"] == "s1\n"
    assert paths[f"session/index/by-hash/{text_key('hi')}"] == "s1\n"
    assert "session/index/by-hash" in paths
    assert paths[f"session/index/by-uuid/{ref.uuid}"] == "s1\n"
    assert json.loads(paths["session/s1/meta.json"] or "")["uuid"] == ref.uuid
    assert ref.uuid == SessionRef("/elsewhere", "/agent/a", 7, "s1").uuid
    end = end_ops(ref, "t1", "cancelled", "out", [{"type": "delta"}], "T1")
    assert end[3] == fs_ops.write("/c/home/7/agent/a/session/s1/state", "idle\n")
    assert json.loads(end[1]["data"]) == {
        "role": "assistant",
        "status": "cancelled",
        "text": "out",
        "ts": "T1",
        "turn": "t1",
    }


def test_session_scopes() -> None:
    assert session_ref("/c", "a", "/agent/a", 7, "s1", "temp", None) is None
    private = session_ref("/c", "a", "/agent/a", 7, "s1", "private", None)
    assert private == SessionRef("/c/home/7/agent/a", "/agent/a", 7, "s1")
    shared = session_ref("/c", "a", "/agent/a", 7, "s1", "shared", "proj")
    assert shared is not None and shared.scope == "shared"
    assert shared.dir == "/c/shared/proj/agent/a/session/s1"
    assert shared.uuid != private.uuid  # type: ignore[union-attr]
    begin = begin_ops(shared, "t1", "/workspace", "hi", "T0")
    made = [op["path"] for op in begin if op["op"] == "mkdir"]
    assert made == [
        "/c/shared/proj/agent/a/session/s1/context",
        "/c/shared/proj/agent/a/session/index/by-cwd",
        "/c/shared/proj/agent/a/session/index/by-hash",
        "/c/shared/proj/agent/a/session/index/by-uuid",
    ]  # no data/cache/log in a space
    meta = next(op["data"] for op in begin if op["path"].endswith("meta.json"))
    assert json.loads(meta) == {"agent": "/agent/a", "scope": "shared", "session": "s1",
                                "space": "proj", "uuid": shared.uuid}  # fmt: skip


def test_session_policy() -> None:
    def spec(*rules: str) -> AgentSpec:
        controls = {
            "owner": "0\n",
            "uid": "7\n",
            "gid": "7\n",
            "perm": "r-x\n",
            "label": "u:r:a_t:s0\n",
            "policy": "".join(f"allow a_t {r}\n" for r in rules),
        }
        return parse_spec(AgentRef("a", "/agent/a"), controls)  # fmt: skip

    check_send(spec(), "s", "temp", None, exists=True)
    with pytest.raises(Denied, match=r"^agent a policy does not allow a_t session:s write$"):
        check_send(spec("session:t write"), "s", "private", None, exists=False)
    check_send(spec("session:s write"), "s", "private", None, exists=False)
    with pytest.raises(Denied, match=r"a_t session:s resume$"):
        check_send(spec("session:s write"), "s", "private", None, exists=True)
    check_send(spec("session:s write", "session:s resume"), "s", "private", None, exists=True)
    with pytest.raises(Denied, match=r"a_t shared:p write$"):
        check_send(spec("session:s write", "shared:p read"), "s", "shared", "p", exists=False)
    check_send(spec("session:s write", "shared:p write"), "s", "shared", "p", exists=False)
    with pytest.raises(Denied, match=r"a_t session:s read$"):
        check_read(spec("session:s write", "session:s resume"), "s")
    check_read(spec("session:s read"), "s")


def test_fs_ops_in_process(tmp_path: Path) -> None:
    target = tmp_path / "d" / "list"
    fs_ops.run_as(
        os.geteuid(),
        os.getegid(),
        [
            fs_ops.mkdir(str(tmp_path / "d")),
            fs_ops.front(str(target), "b"),
            fs_ops.front(str(target), "a"),
            fs_ops.front(str(target), "b"),
            fs_ops.write_once(str(tmp_path / "once"), "1"),
            fs_ops.write_once(str(tmp_path / "once"), "2"),
            fs_ops.append(str(tmp_path / "log"), "x"),
            fs_ops.append(str(tmp_path / "log"), "y"),
            fs_ops.symlink(str(tmp_path / "ln"), "/run/x"),
            fs_ops.symlink(str(tmp_path / "ln"), "/run/x"),
        ],
    )
    assert target.read_text() == "b\na\n"
    assert ((tmp_path / "once").read_text(), (tmp_path / "log").read_text()) == ("1", "xy")
    with pytest.raises(fs_ops.Internal, match="points to /run/x, not /run/y"):
        fs_ops.run_as(os.geteuid(), 0, [fs_ops.symlink(str(tmp_path / "ln"), "/run/y")])


@pytest.mark.parametrize(
    ("frame", "message"),
    [
        ({"op": "send", "session": "../x"}, "is not a session name"),
        ({"op": "send", "session": "index"}, "is not a session name"),
        ({"op": "send", "scope": "group"}, "scope 'group' is not one of private, shared, temp"),
        ({"op": "send", "scope": "shared"}, "scope 'shared' needs shared: the space's name"),
        ({"op": "send", "scope": "shared", "shared": "../p"}, "shared '../p' is not a space name"),
        ({"op": "send", "shared": "p"}, "shared names a space only for scope 'shared'"),
        ({"op": "send", "input": 3}, "input must be a string"),
        ({"op": "send", "id": "x" * 200}, "id must be a printable string"),
    ],
)
def test_send_requests_are_checked(frame: dict, message: str) -> None:
    with pytest.raises(control.BadRequest, match=message):
        control._turn_of(frame)


def test_frames() -> None:
    left, right = socket.socketpair()
    conn = Conn(right)
    left.sendall(b'{"a": 1}\n[2]\n{bad\n')
    assert conn.recv() == {"a": 1}
    for message in ("not a JSON object", "not JSON"):
        with pytest.raises(FrameError, match=message):
            conn.recv()
    sender = threading.Thread(target=left.sendall, args=(b"x" * (MAX_FRAME + 2),), daemon=True)
    sender.start()
    with pytest.raises(FrameError) as caught:
        conn.recv()
    assert caught.value.errno_name == "EMSGSIZE"
    left.close()
    conn.close()


def test_mountinfo_escapes(tmp_path: Path) -> None:
    info = _mountinfo(
        tmp_path,
        [
            "40 25 0:41 / /tmp/a\\040b rw,nosuid - fuse.cortexfs cortexfs rw",
            "41 25 0:42 / /tmp/c rw - tmpfs tmpfs rw",
            "42 25 0:43 / /srv/ctx rw - fuse.cortexfs cortexfs rw",
            "43 25 0:41 /home /tmp/a\\040b/again rw - fuse.cortexfs cortexfs rw",
        ],
    )
    assert cortexfs_mounts(info) == ("/tmp/a b", "/srv/ctx", "/tmp/a b/again")
    assert cortexfs_mounts(str(tmp_path / "missing")) == ()
    assert mount_fstype("/tmp/a b", info) == "fuse.cortexfs"
    assert mount_fstype("/tmp/c", info) == "tmpfs"
    assert mount_fstype("/tmp/none", info) is None


def test_stale_cgroup_keys_map_back_to_their_agents_only() -> None:
    from cortexfs.agent_runtime.stale_cgroups import abi_path_of

    for path in ("/agent/coder", "/agent/a.b", "/home/1000/agent/x", "/home/7/agent/x.y"):
        assert abi_path_of(AgentRef("", path).key) == path
    for key in ("warm.4242", "agent.", "home.x.agent.y", "home.7.agent.", "test.abc", "agent"):
        assert abi_path_of(key) is None
