"""An MCP tool called from inside a sandbox: the broker decides, and the agent uid's
warm host (outside the sandbox) keeps one server running across calls."""

from __future__ import annotations

import json
import os

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


def test_sandboxed_calls_share_one_warm_server(world, make_agent) -> None:
    agent = make_agent()
    tool = f"{agent.name}.who"
    server = world.fakes / f"{agent.name}-who.py"
    server.write_text(SERVER)
    server.chmod(0o644)
    controls = world.ctx / "tool" / f"{tool}.d"
    os.mkdir(controls)
    argv = json.dumps([world.runtime.python, str(server)])
    write_control(str(controls / "driver"), f"kind=mcp\ncommand={argv}\ntool=who\n".encode())
    write_control(str(controls / "policy"), f"allow {agent.type} tool:{tool} execute\n".encode())
    write_control(str(agent.controls / "tools"), f"{tool}\n".encode())
    write_control(str(agent.controls / "policy"), agent.policy(f"tool:{tool} execute"))
    agent.start("/bin/sh")
    events = agent.events(f"/ctx/tool/{tool}\n/ctx/tool/{tool} '{{}}'\n")
    text = "".join(e["text"] for e in events if e["type"] == "delta")
    results = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    answers = [json.loads(r["text"]) for r in results if r["type"] == "message"]
    assert [r["exit_code"] for r in results if r["type"] == "done"] == [0, 0]
    assert len(answers) == 2
    assert answers[0]["pid"] == answers[1]["pid"]  # one server, kept warm between calls
    assert answers[0]["uid"] == world.uid  # run as the agent
    assert answers[0]["mntns"] == os.readlink("/proc/self/ns/mnt")  # outside the sandbox
