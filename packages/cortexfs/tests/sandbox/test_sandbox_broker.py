"""Tool calls from inside a sandbox go through the broker: authorised outside, on the
agent's real controls; whatever CTX_*, agent or label the sandbox claims grants nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys

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


@pytest.fixture
def tooled(world, make_agent):
    """An agent running /bin/sh (its input is the script) that may call one tool."""
    agent = make_agent("mount:workspace write", extra=("--groups", str(world.extra_gid)))
    tool = f"{agent.name}.probe"
    controls = world.ctx / "tool" / f"{tool}.d"
    os.mkdir(controls)
    command = json.dumps([world.runtime.python, str(world.fakes / "fake-tool")])
    write_control(str(controls / "driver"), f"kind=exec\ncommand={command}\n".encode())
    write_control(str(controls / "policy"), f"allow {agent.type} tool:{tool} execute\n".encode())
    write_control(str(agent.controls / "tools"), f"{tool}\n".encode())
    rules = f"allow {agent.type} mount:workspace write\nallow {agent.type} tool:{tool} execute\n"
    write_control(str(agent.controls / "policy"), rules.encode())
    agent.start("/bin/sh")
    return agent, tool


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


def test_forged_environment_changes_nothing(world, tooled) -> None:
    agent, tool = tooled
    header = f"#!{world.runtime.runner}\\n# cortexfs.object=tool\\n# cortexfs.name=x\\n"
    script = (
        "mkdir -p /tmp/fake/agent/evil.d /tmp/fake/tool/x.d\n"
        f"printf '{header}' > /tmp/fake/tool/x && chmod 755 /tmp/fake/tool/x\n"
        "printf 'kind=exec\\ncommand=[\"/usr/bin/id\"]\\n' > /tmp/fake/tool/x.d/driver\n"
        f"CTX_ROOT=/tmp/fake CTX_AGENT=evil CTX_PATH=/tmp/fake/tool CTX_HOME=/tmp/fake /ctx/tool/{tool}\n"
        "CTX_ROOT=/tmp/fake CTX_AGENT=evil CTX_PATH=/tmp/fake/tool /tmp/fake/tool/x\n"
    )
    first, forged = _calls(_run(agent, script))
    assert first[0]["name"] == tool and first[-1]["status"] == "ok"  # the real agent's call
    assert json.loads(first[-2]["text"])["uid"] == world.uid
    assert forged == [
        {"errno": "EACCES", "message": "/tmp/fake/tool/x: calls name objects under /ctx/",
         "type": "error"},
        {"exit_code": 13, "status": "error", "type": "done"},
    ]  # fmt: skip


def test_a_self_made_agent_or_label_grants_nothing(world, tooled, make_agent) -> None:
    agent, tool = tooled
    other = make_agent()
    guarded = world.ctx / "tool" / f"{other.name}.guarded.d"
    os.mkdir(guarded)
    write_control(str(guarded / "driver"), b'kind=exec\ncommand=["/usr/bin/id"]\n')
    write_control(
        str(guarded / "policy"), f"allow evil_t tool:{other.name}.guarded execute\n".encode()
    )
    own = f"/ctx/agent/{agent.name}"
    script = (
        "mkdir /ctx/agent/evil$$.d || exit 1\n"
        f"printf 'user_u:agent_r:evil_t:s0\\n' > /ctx/agent/evil$$.d/label\n"
        f"printf '{other.name}.guarded\\n' > /ctx/agent/evil$$.d/tools\n"
        f"printf 'allow evil_t tool:{other.name}.guarded execute\\n' > /ctx/agent/evil$$.d/policy\n"
        f"CTX_AGENT=evil$$ /ctx/tool/{other.name}.guarded\n"
        f"printf 'user_u:agent_r:evil_t:s0\\n' > {own}.d/label 2>/dev/null || echo label:refused\n"
        f"printf 'allow evil_t tool:x execute\\n' > {own}.d/policy 2>/dev/null || echo policy:refused\n"
        f"chmod 777 {own} 2>/dev/null || echo perm:refused\n"
    )
    text = _run(agent, script)
    (call,) = _calls(text)
    assert call[1]["errno"] == "EACCES"
    assert f"not declared in agent {agent.name}'s tools" in call[1]["message"]  # the real agent
    assert [line for line in text.splitlines() if not line.startswith("{")] == [
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
        's.sendall(b\'{"v": 1, "op": "hello"}\\n\')\n'
        "print(s.makefile().readline(), end='')\n"
    )
    as_agent = subprocess.run(
        [world.runtime.python, "-c", probe, broker], capture_output=True, text=True, timeout=30,
        user=world.uid, group=world.gid, extra_groups=[], check=False,
    )  # fmt: skip
    reply = json.loads(as_agent.stdout)
    assert (reply["type"], reply["errno"]) == ("error", "EACCES")
    assert "is not in agent" in reply["message"]
    as_root = subprocess.run([sys.executable, "-c", probe, broker], capture_output=True, text=True)
    assert json.loads(as_root.stdout)["errno"] == "EACCES"


def test_broker_protocol_is_versioned(world, tooled) -> None:
    agent, _tool = tooled
    script = (
        f"{world.runtime.python} -c '\n"
        "import socket\n"
        's = socket.socket(socket.AF_UNIX); s.connect("/run/cortexfs/broker.sock")\n'
        'f = s.makefile("rwb")\n'
        'for line in (b"{\\"v\\": 1, \\"op\\": \\"hello\\"}", b"{\\"v\\": 2, \\"op\\": \\"hello\\"}",\n'
        '             b"{\\"op\\": \\"mcp\\"}"):\n'
        '    f.write(line + b"\\n"); f.flush(); print(f.readline().decode(), end="")\n'
        "'\n"
    )
    replies = [json.loads(line) for line in _run(agent, script).splitlines()]
    assert replies[0] == {"abi": "cortexfs.broker/v1", "agent": agent.name, "ops": ["call", "hello"],
                          "type": "hello", "v": 1}  # fmt: skip
    assert [r["errno"] for r in replies[1:]] == ["EINVAL", "EINVAL"]
