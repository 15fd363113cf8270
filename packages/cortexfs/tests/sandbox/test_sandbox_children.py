"""`/ctx/tool/agent.create` from inside a sandbox: the broker makes a child agent only
when the parent may create that name and the child is a subset of the parent (each
child rule mapped onto the parent's subject and allowed there exactly)."""

from __future__ import annotations

import json
import os

from cortexfs.ctl_write import write_control


def _tool(world, *subjects: str) -> None:
    """/ctx/tool/agent.create, whose own policy lets `subjects` execute it."""
    controls = world.ctx / "tool" / "agent.create.d"
    if not controls.exists():
        os.mkdir(controls)
        write_control(str(controls / "driver"), b"kind=agent.create\n")
    old = (controls / "policy").read_text()
    rules = "".join(f"allow {s} tool:agent.create execute\n" for s in subjects)
    write_control(str(controls / "policy"), (old + rules).encode())


def _parent(world, make_agent, *rules: str):
    agent = make_agent(extra=("--groups", str(world.extra_gid), "--mount", world.fake_row(),
                              "--tool", "agent.create"))  # fmt: skip
    base = ("mount:workspace write", "mount:fake read", "tool:agent.create execute")
    write_control(str(agent.controls / "policy"), agent.policy(*base, *rules))
    _tool(world, agent.type)
    agent.start("/bin/sh")
    return agent


def _create(agent, *requests: dict) -> list[tuple[int, list[dict]]]:
    """Each request as one call from inside the sandbox: (exit code, its events)."""
    script = "".join(
        f"/ctx/tool/agent.create '{json.dumps(r)}'; echo \"rc=$?\"\n" for r in requests
    )
    events = agent.events(script)
    assert events[-1]["status"] == "ok", events
    out, calls = "".join(e["text"] for e in events if e["type"] == "delta"), []
    current: list[dict] = []
    for line in out.splitlines():
        if line.startswith("rc="):
            calls.append((int(line[3:]), current))
            current = []
        else:
            current.append(json.loads(line))
    return calls


def _refusal(call: tuple[int, list[dict]]) -> tuple[int, str, str]:
    code, events = call
    (error,) = [e for e in events if e["type"] == "error"]
    assert events[-1] == {"type": "done", "status": "error", "exit_code": code}
    return code, error["errno"], error["message"]


def test_child_is_created_attenuated(world, make_agent) -> None:
    kid = f"{os.urandom(4).hex()}kid"
    parent = _parent(world, make_agent, f"agent:{kid} create")
    world.made.append(kid)
    request = {
        "name": kid, "label": f"user_u:agent_r:{kid}_t:s0",
        "policy": [f"allow {kid}_t mount:fake read"],
        "mount": [[str(world.fakes), "/opt/fake", "ro"]],
        "groups": [world.extra_gid], "perm": "r--", "life": "temp",
    }  # fmt: skip
    ((code, events), second) = _create(parent, request, request)
    assert code == 0, events
    assert events[-2:] == [
        {"type": "message", "text": f"/ctx/agent/{kid}", "agent": f"/ctx/agent/{kid}"},
        {"type": "done", "status": "ok", "exit_code": 0},
    ]
    controls = world.ctx / "agent" / f"{kid}.d"
    values = {c: (controls / c).read_text() for c in (
        "owner", "uid", "gid", "groups", "label", "perm", "iso", "tools", "mount", "policy",
        "parent", "life")}  # fmt: skip
    assert values == {
        "owner": "0\n", "uid": f"{world.uid}\n", "gid": f"{world.gid}\n",
        "groups": f"{world.extra_gid}\n", "label": f"user_u:agent_r:{kid}_t:s0\n",
        "perm": "r--\n", "iso": "1\n", "tools": "",
        "mount": f"{world.fakes}\t/opt/fake\tro\t-\n",
        "policy": f"allow {kid}_t mount:fake read\n",
        "parent": f"agent:{parent.name}\n", "life": "temp\n",
    }  # fmt: skip
    assert (world.ctx / "agent" / kid).is_file()
    assert _refusal(second) == (1, "EEXIST", f"/ctx/agent/{kid} exists")
    # The child runs as an ordinary agent, with only what it was given.
    child = type(parent)(world, kid, f"{kid}_t")  # conftest's Agent
    child.start("/bin/sh")
    script = "id -u; id -G; touch /opt/fake/x 2>/dev/null; echo rc=$?; ls /workspace 2>&1; true\n"
    events = child.events(script, "--temp")
    assert events[-1]["status"] == "ok", events
    out = "".join(e["text"] for e in events if e["type"] == "delta").splitlines()
    assert out[0] == str(world.uid) and out[2] == "rc=1"  # the fakes row is read-only
    assert out[1].split() == [str(world.gid), "65534"]  # its one group, shown unmapped
    assert out[3].endswith("No such file or directory")  # no mount:workspace grant
    refused = child.send("echo hi\n")
    assert (refused.returncode, refused.stderr.decode()) == (
        13,
        f"ctx: EACCES: agent {kid} policy does not allow {kid}_t session:default write\n",
    )


def test_child_wider_than_its_parent_is_refused(world, make_agent) -> None:
    tag = os.urandom(4).hex()
    names = [f"{tag}k{i}" for i in range(6)]
    parent = _parent(world, make_agent, *(f"agent:{n} create" for n in names[1:]))
    p, t = parent.name, parent.type
    label = {n: f"user_u:agent_r:{n}_t:s0" for n in names}
    row = [str(world.fakes), "/opt/fake"]
    calls = _create(
        parent,
        {"name": names[0]},  # no agent:<name> create
        {"name": names[1], "label": label[names[1]],
         "policy": [f"allow {names[1]}_t network:default connect"]},
        {"name": names[2], "mount": [[*row, "rw"]]},
        {"name": names[3], "mount": [["/etc", "/opt/fake", "ro"]]},
        {"name": names[4], "groups": [9999]},
        {"name": names[5], "perm": "rwx", "tools": ["agent.create"]},
    )  # fmt: skip
    assert [_refusal(c) for c in calls] == [
        (13, "EACCES", f"agent {p} policy does not allow {t} agent:{names[0]} create"),
        (13, "EACCES", f"agent.create: allow {names[1]}_t network:default connect maps to "
                       f"allow {t} network:default connect, which agent {p} policy does not allow"),
        (13, "EACCES", "agent.create: /opt/fake is read-only for the parent"),
        (13, "EACCES", "agent.create: /etc at /opt/fake is not a mount of the parent"),
        (13, "EACCES", "agent.create: groups 9999 are not the parent's"),
        (13, "EACCES", "agent.create: perm rwx is wider than the parent's r-x"),
    ]  # fmt: skip
    for name in names:
        assert not (world.ctx / "agent" / f"{name}.d").exists()
        assert not (world.ctx / "agent" / name).exists()


def test_agent_create_needs_the_tool_grant(world, make_agent) -> None:
    """Without `tool:agent.create execute` in its own policy the call is refused like any
    tool's, before the broker looks at the request."""
    kid = f"{os.urandom(4).hex()}kid"
    parent = make_agent(extra=("--tool", "agent.create"))
    write_control(str(parent.controls / "policy"), parent.policy(f"agent:{kid} create"))
    _tool(world, parent.type)
    parent.start("/bin/sh")
    ((code, events),) = _create(parent, {"name": kid})
    assert (code, events[-1]["exit_code"]) == (13, 13)
    (error,) = [e for e in events if e["type"] == "error"]
    assert error["message"] == (f"agent {parent.name} policy does not allow "
                                f"{parent.type} tool:agent.create execute")  # fmt: skip
    assert not (world.ctx / "agent" / f"{kid}.d").exists()
