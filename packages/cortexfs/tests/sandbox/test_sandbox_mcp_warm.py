"""An MCP tool called from inside a sandbox: the broker decides, and the agent uid's
warm host (outside the sandbox) keeps one server running across calls."""

from __future__ import annotations

import json
import os
from pathlib import Path

from warm_hosts import stop_warm_hosts

from cortexfs.ctl_write import write_control

SERVER = r"""
import json, os, sys
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    if msg["method"] == "initialize":
        result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                  "serverInfo": {"name": "who", "version": "1"}}
    else:
        text = json.dumps({"pid": os.getpid(), "uid": os.getuid(),
                           "mntns": os.readlink("/proc/self/ns/mnt")})
        result = {"content": [{"type": "text", "text": text}]}
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
"""


def _who_tool(world, name: str, *agents) -> str:
    """An MCP tool every one of `agents` may call (each lists it and is allowed it)."""
    server = world.fakes / f"{name}-who.py"
    server.write_text(SERVER)
    server.chmod(0o644)
    controls = world.ctx / "tool" / f"{name}.d"
    os.mkdir(controls)
    argv = json.dumps([world.runtime.python, str(server)])
    write_control(str(controls / "driver"), f"kind=mcp\ncommand={argv}\ntool=who\n".encode())
    rules = "".join(f"allow {a.type} tool:{name} execute\n" for a in agents)
    write_control(str(controls / "policy"), rules.encode())
    for agent in agents:
        write_control(str(agent.controls / "tools"), f"{name}\n".encode())
        write_control(str(agent.controls / "policy"), agent.policy(f"tool:{name} execute"))
    return name


def _answers(agent, tool: str, calls: int) -> list[dict]:
    events = agent.events("".join(f"/ctx/tool/{tool} '{{}}'\n" for _ in range(calls)))
    text = "".join(e["text"] for e in events if e["type"] == "delta")
    results = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    assert [r["exit_code"] for r in results if r["type"] == "done"] == [0] * calls, results
    return [json.loads(r["text"]) for r in results if r["type"] == "message"]


def test_sandboxed_calls_share_one_warm_server(world, make_agent) -> None:
    agent = make_agent()
    tool = _who_tool(world, f"{agent.name}.who", agent)
    agent.start("/bin/sh")
    answers = _answers(agent, tool, 2)
    assert len(answers) == 2
    assert answers[0]["pid"] == answers[1]["pid"]  # one server, kept warm between calls
    assert answers[0]["uid"] == world.uid  # run as the agent
    assert answers[0]["mntns"] == os.readlink("/proc/self/ns/mnt")  # outside the sandbox


def _parent(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat[stat.rfind(")") + 2 :].split()[1])


def test_the_warm_host_outlives_the_agent_that_first_called(world, make_agent) -> None:
    """The supervisor starts the uid's host in a cgroup of its own, so stopping agent A
    stops neither the host nor the server agent B of the same uid is using."""
    first, second = make_agent(), make_agent()
    tool = _who_tool(world, f"{first.name}.shared", first, second)
    first.start("/bin/sh")
    second.start("/bin/sh")
    (served,) = _answers(first, tool, 1)
    host = _parent(served["pid"])
    cgroups = Path(f"/proc/{host}/cgroup").read_text()
    assert first.name not in cgroups and second.name not in cgroups
    assert f"/cortexfs/warm.{world.uid}\n" in cgroups
    assert _answers(second, tool, 1)[0]["pid"] == served["pid"]
    first.stop()
    assert _answers(second, tool, 1)[0]["pid"] == served["pid"]  # the same server, still warm
    assert _parent(served["pid"]) == host
    second.stop()
    # What a world's teardown does: SIGTERM stops the host and, through it, its servers.
    assert stop_warm_hosts(world.runtime) == [host]
    assert not Path(f"/proc/{served['pid']}").exists()
