"""Tool calls from inside a sandbox go through the broker: authorised outside, on the
agent's real controls; whatever CTX_*, agent or label the sandbox claims grants nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cortexfs.ctl_write import write_control


def _events(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def _calls(text: str) -> list[list[dict]]:
    """The events of each call, split at its `done`."""
    calls: list[list[dict]] = [[]]
    for event in _events(text):
        calls[-1].append(event)
        if event["type"] == "done":
            calls.append([])
    return calls[:-1]


def _tooled(world, make_agent, *command: str):
    """An agent that may call one tool, running `command` (default: /ctx/bin/tsh)."""
    agent = make_agent(extra=("--groups", str(world.extra_gid), "--mount", world.fake_row()))
    tool = f"{agent.name}.probe"
    controls = world.ctx / "tool" / f"{tool}.d"
    os.mkdir(controls)
    argv = json.dumps([world.runtime.python, str(world.fakes / "fake-tool")])
    write_control(str(controls / "driver"), f"kind=exec\ncommand={argv}\n".encode())
    write_control(str(controls / "policy"), f"allow {agent.type} tool:{tool} execute\n".encode())
    write_control(str(agent.controls / "tools"), f"{tool}\n".encode())
    rules = ["mount:workspace write", "mount:fake read", f"tool:{tool} execute"]
    write_control(str(agent.controls / "policy"), agent.policy(*rules))
    agent.start(*command)
    return agent, tool


@pytest.fixture
def tooled(world, make_agent):
    """Running /bin/sh: each turn's input is its script."""
    return _tooled(world, make_agent, "/bin/sh")


def test_tsh_is_the_default_program(world, make_agent) -> None:
    agent, tool = _tooled(world, make_agent)
    script = f"# a comment\nwhich {tool}\n{tool} '{{\"a\": 1}}'\nnosuch\nexit 4\necho never\n"
    events = agent.events(script)
    assert events[-1]["exit_code"] == 4
    text = "".join(e["text"] for e in events if e["type"] == "delta")
    first, *calls = text.split("\n", 1)
    assert first == f"/ctx/tool/{tool}"
    ok, missing = _calls(calls[0])
    assert json.loads(ok[-2]["text"])["args"] == ['{"a": 1}']
    assert missing == [
        {"errno": "ENOENT", "message": "nosuch: not found on CTX_PATH", "type": "error"},
        {"exit_code": 69, "status": "error", "type": "done"},
    ]
    assert agent.status()["command"] == []
    assert agent.status()["argv"][-1] == "/ctx/bin/tsh"


def _run(agent, script: str) -> str:
    events = agent.events(script)
    assert events[-1]["type"] == "done", events
    return "".join(e["text"] for e in events if e["type"] == "delta")


def test_call_runs_outside_the_sandbox_as_the_agent(world, tooled) -> None:
    agent, tool = tooled
    out = _events(_run(agent, f"echo piped | /ctx/tool/{tool} first\n"))
    assert out[0] == {"class": "tool", "name": tool, "object": f"/ctx/tool/{tool}", "type": "start"}
    assert out[-1] == {"exit_code": 0, "status": "ok", "type": "done"}
    result = json.loads(out[-2]["text"])
    assert (result["uid"], result["gid"]) == (world.uid, world.gid)
    assert result["groups"] == [world.extra_gid]  # supplementary: exactly the agent's
    assert result["umask"] == "0077"
    assert result["args"] == ["first"]
    assert result["stdin"] == "piped\n"
    # Outside the sandbox: the host's mount and network namespaces, a clean environment.
    assert result["mntns"] == os.readlink("/proc/self/ns/mnt")
    assert result["netns"] == os.readlink("/proc/self/ns/net")
    assert result["env"] == ["HOME", "LANG", "LOGNAME", "PATH", "USER"]
    assert (result["nofile"], result["core"]) == ([4096, 4096], [0, 0])  # the sandbox's


def test_forged_environment_changes_nothing(world, tooled) -> None:
    agent, tool = tooled
    header = f"#!{world.runtime.runner}\\n# cortexfs.object=tool\\n# cortexfs.name=x\\n"
    script = (
        "mkdir -p /tmp/fake/agent/evil.d /tmp/fake/tool/x.d\n"
        f"printf '{header}' > /tmp/fake/tool/x && chmod 755 /tmp/fake/tool/x\n"
        "printf 'kind=exec\\ncommand=[\"/usr/bin/id\"]\\n' > /tmp/fake/tool/x.d/driver\n"
        "export CTX_ROOT=/tmp/fake CTX_AGENT=evil CTX_PATH=/tmp/fake/tool CTX_HOME=/tmp/fake\n"
        f"/ctx/tool/{tool}\n"
        "/tmp/fake/tool/x\n"
    )
    first, forged = _calls(_run(agent, script))
    assert first[0]["name"] == tool and first[-1]["status"] == "ok"  # the real agent's call
    assert json.loads(first[-2]["text"])["uid"] == world.uid
    assert forged == [
        {"errno": "EACCES", "message": "/tmp/fake/tool/x: calls name objects under /ctx/",
         "type": "error"},
        {"exit_code": 13, "status": "error", "type": "done"},
    ]  # fmt: skip


def test_another_agent_or_label_grants_nothing(world, tooled, make_agent) -> None:
    """An agent whose label the guarded tool trusts exists; naming it (CTX_AGENT) from
    inside the sandbox does not make the caller that agent."""
    agent, _tool = tooled
    trusted = make_agent()
    guarded = world.ctx / "tool" / f"{trusted.name}.guarded.d"
    os.mkdir(guarded)
    write_control(str(guarded / "driver"), b'kind=exec\ncommand=["/usr/bin/id"]\n')
    rule = f"allow {trusted.type} tool:{trusted.name}.guarded execute\n"
    write_control(str(guarded / "policy"), rule.encode())
    write_control(str(trusted.controls / "policy"), rule.encode())
    write_control(str(trusted.controls / "tools"), f"{trusted.name}.guarded\n".encode())
    own = f"/ctx/agent/{agent.name}"
    script = (
        f"CTX_AGENT={trusted.name} /ctx/tool/{trusted.name}.guarded\n"
        "exec 2>/dev/null\n"
        "mkdir /ctx/agent/evil$$.d || echo mkdir:refused\n"
        f"printf 'user_u:agent_r:{trusted.type}:s0\\n' > {own}.d/label || echo label:refused\n"
        f"printf '{rule.strip()}\\n' > {own}.d/policy || echo policy:refused\n"
        f"chmod 777 {own} || echo perm:refused\n"
    )
    text = _run(agent, script)
    (call,) = _calls(text)
    assert call[1]["errno"] == "EACCES"
    assert f"not declared in agent {agent.name}'s tools" in call[1]["message"]  # the real agent
    assert [line for line in text.splitlines() if not line.startswith("{")] == [
        "mkdir:refused",
        "label:refused",
        "policy:refused",
        "perm:refused",
    ]
    assert (agent.controls / "label").read_text() == f"user_u:agent_r:{agent.type}:s0\n"


def test_broker_refuses_processes_outside_the_sandbox(world, tooled) -> None:
    agent, _tool = tooled
    broker = f"/run/cortexfs/agent/{agent.name}.run/broker.sock"
    probe = (
        "import json, socket, sys\n"
        "s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])\n"
        # A refused peer is told so at once, before it sends anything.
        "print(s.makefile().readline(), end='')\n"
    )
    as_agent = subprocess.run(
        [world.runtime.python, "-c", probe, broker], capture_output=True, text=True, timeout=30,
        user=world.uid, group=world.gid, extra_groups=[], check=False,
    )  # fmt: skip
    assert as_agent.returncode == 0, as_agent.stderr
    reply = json.loads(as_agent.stdout)
    assert (reply["type"], reply["errno"]) == ("error", "EACCES")
    assert "is not in agent" in reply["message"]
    as_root = subprocess.run([sys.executable, "-c", probe, broker], capture_output=True, text=True)
    assert json.loads(as_root.stdout)["errno"] == "EACCES"


def test_broker_protocol_is_versioned(world, tooled) -> None:
    agent, _tool = tooled
    lines = ['{"v": 1, "op": "hello"}', '{"v": 2, "op": "hello"}', '{"op": "mcp"}', "[1]"]
    script = "/opt/fake/fake-cli raw /run/cortexfs/broker.sock " + " ".join(
        f"'{line}'" for line in lines
    )
    replies = [json.loads(line) for line in _run(agent, script + "\n").splitlines()]
    assert replies[0] == {
        "abi": "cortexfs.broker/v1", "agent": agent.name, "ops": ["call", "hello"],
        "type": "hello", "v": 1,
    }  # fmt: skip
    assert [r["errno"] for r in replies[1:]] == ["EINVAL", "EINVAL", "EINVAL"]
    assert "unknown op 'mcp'" in replies[2]["message"]


def _sleepers(seconds: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    argv = handle.read().split(b"\0")
            except OSError:
                continue
            if argv[:2] == [b"sleep", seconds.encode()]:
                found.append(int(entry))
    return found


def test_stop_kills_what_a_call_left_behind(world, make_agent) -> None:
    """A tool that leaves a daemon (its own session, outside the call's process group)
    does not outlive the agent: stop kills everything left in the agent's cgroup."""
    agent, tool = _tooled(world, make_agent, "/bin/sh")
    seconds = str(3000 + os.getpid() % 1000)
    daemon = f"setsid sleep {seconds} </dev/null >/dev/null 2>&1 & echo left"
    driver = json.dumps(["/bin/sh", "-c", daemon])
    write_control(str(world.ctx / "tool" / f"{tool}.d" / "driver"),
                  f"kind=exec\ncommand={driver}\n".encode())  # fmt: skip
    (call,) = _calls(_run(agent, f"/ctx/tool/{tool}\n"))
    assert call[-1]["status"] == "ok", call
    left = _sleepers(seconds)
    assert len(left) == 1
    cgroup = agent.status()["cgroup"]
    assert str(left[0]) in (Path(cgroup) / "cgroup.procs").read_text().split()
    agent.stop()
    assert _sleepers(seconds) == []
    assert not Path(cgroup).exists()
