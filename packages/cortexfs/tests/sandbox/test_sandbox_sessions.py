"""Session policy (`session:<s> write|resume|read`) on `ctx agent send` and the agent
socket, and the shared scope: records in shared/<space>/agent/<a>/session/."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import subprocess

from cortexfs.ctl_write import write_control

MOUNTS = ("mount:workspace write", "mount:fake read")


def _key(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _agent(world, make_agent, *rules: str):
    """A /bin/sh agent granted exactly `rules` (and its mounts): no default session."""
    agent = make_agent(*MOUNTS, extra=("--mount", world.fake_row()))
    policy = "".join(f"allow {agent.type} {rule}\n" for rule in (*MOUNTS, *rules))
    write_control(str(agent.controls / "policy"), policy.encode())
    agent.start("/bin/sh")
    return agent


def _refused(result: subprocess.CompletedProcess[bytes], rule: str, name: str) -> None:
    """The turn's EACCES error event, as `ctx agent send` reports it: one line, exit 13."""
    assert (result.returncode, result.stdout) == (13, b""), result
    assert result.stderr.decode() == f"ctx: EACCES: agent {name} policy does not allow {rule}\n"


def _resume(world, agent, turn: str) -> list[dict]:
    with socket.socket(socket.AF_UNIX) as sock:
        sock.connect(str(world.ctx / "agent" / f"{agent.name}.sock"))
        sock.sendall(json.dumps({"op": "resume", "id": turn}).encode() + b"\n")
        lines = sock.makefile("rb")
        first = json.loads(lines.readline())
        if first["type"] == "error":
            return [first]
        out = [first]
        while out[-1]["type"] != "done":
            out.append(json.loads(lines.readline()))
        return out


def test_session_write_resume_and_read_are_policy(world, make_agent) -> None:
    agent = _agent(world, make_agent, "session:s1 write")
    sessions = world.ctx / "home" / str(world.uid) / "agent" / agent.name / "session"
    _refused(
        agent.send("echo hi\n", "--session", "s2"), f"{agent.type} session:s2 write", agent.name
    )
    assert not (sessions / "s2").exists()
    assert agent.send("echo one\n", "--session", "s1", "--id", "t1").returncode == 0
    # Going on with a session that has records is resuming it.
    again = agent.send("echo two\n", "--session", "s1")
    _refused(again, f"{agent.type} session:s1 resume", agent.name)
    messages = (sessions / "s1" / "messages.jsonl").read_text().splitlines()
    assert [json.loads(m)["text"] for m in messages] == ["echo one\n", "one\n"]
    assert (sessions / "s1" / "state").read_text() == "done\n"
    assert (sessions / "index" / "list").read_text() == "s1\n"
    # temp keeps nothing, so it needs no session grant.
    assert agent.send("echo t\n", "--temp", "--session", "s2").returncode == 0
    assert not (sessions / "s2").exists()
    # Replaying a turn reads its session.
    (refusal,) = _resume(world, agent, "t1")
    assert refusal == {"type": "error", "id": "t1", "errno": "EACCES",
                       "message": f"agent {agent.name} policy does not allow "
                                  f"{agent.type} session:s1 read"}  # fmt: skip
    rules = (*MOUNTS, "session:s1 write", "session:s1 resume", "session:s1 read")
    write_control(str(agent.controls / "policy"),
                  "".join(f"allow {agent.type} {r}\n" for r in rules).encode())  # fmt: skip
    assert [e["type"] for e in _resume(world, agent, "t1")] == ["start", "delta", "done"]
    assert agent.send("echo two\n", "--session", "s1").returncode == 0
    messages = (sessions / "s1" / "messages.jsonl").read_text().splitlines()
    assert [json.loads(m)["text"] for m in messages] == [
        "echo one\n",
        "one\n",
        "echo two\n",
        "two\n",
    ]


def _space(world, name: str) -> None:
    """A shared space the agent's uid made (and so may write in)."""
    done = subprocess.run(
        ["mkdir", str(world.ctx / "shared" / name)], user=world.uid, group=world.gid,
        extra_groups=[], capture_output=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_shared_scope_keeps_the_session_in_the_space(world, make_agent) -> None:
    space = "sp" + os.urandom(4).hex()
    _space(world, space)
    agent = _agent(world, make_agent, "session:review write")
    send = ("echo shared\n", "--shared", space, "--session", "review")
    _refused(agent.send(*send), f"{agent.type} shared:{space} write", agent.name)
    rules = (*MOUNTS, "session:review write", f"shared:{space} write")
    write_control(str(agent.controls / "policy"),
                  "".join(f"allow {agent.type} {r}\n" for r in rules).encode())  # fmt: skip
    events = agent.events(*send)
    assert events[0] == {"type": "start", "id": events[0]["id"], "session": "review",
                         "cwd": "/workspace"}  # fmt: skip
    assert events[-1]["status"] == "ok"
    root = world.ctx / "shared" / space / "agent" / agent.name / "session"
    assert sorted(p.name for p in root.iterdir()) == ["index", "review"]
    index = root / "index"
    assert (index / "list").read_text() == "review\n"
    assert (index / "current").read_text() == "review\n"
    assert (index / "by-cwd" / _key("/workspace")).read_text() == "review\n"
    assert (index / "by-hash" / _key("echo shared\n")).read_text() == "review\n"
    meta = json.loads((root / "review" / "meta.json").read_text())
    assert {k: meta[k] for k in ("scope", "space", "session")} == {
        "scope": "shared", "space": space, "session": "review"}  # fmt: skip
    assert (index / "by-uuid" / meta["uuid"]).read_text() == "review\n"
    assert (root / "review" / "latest.md").read_text() == "shared\n"
    assert (root / "review" / "state").read_text() == "done\n"
    assert sorted(p.name for p in (world.ctx / "shared" / space / "agent").iterdir()) == [
        agent.name
    ]
    home = world.ctx / "home" / str(world.uid) / "agent" / agent.name
    assert not (home / "session" / "review").exists()
    bad = world.ctx_cmd("agent", "send", "--shared", "../x", agent.name, stdin=b"echo\n")
    assert bad.returncode != 0
