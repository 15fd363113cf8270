"""`ctx mcp project` against a small stdio MCP server; calls go through policy and MCP."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

CTX = str(Path(sys.executable).parent / "ctx")


def project(run, mount, server: str, command: list[str], *extra: str):
    into = str(mount.root / "tool")
    return run([CTX, "mcp", "project", server, "--into", into, *extra, "--", *command], mount.env())


def grant(mount, agent: str, subject: str, tools: list[str], perm: str = "rwx") -> None:
    controls = mount.root / "agent" / f"{agent}.d"
    os.mkdir(controls)
    (controls / "perm").write_bytes(f"{perm}\n".encode())
    (controls / "label").write_bytes(f"user_u:agent_r:{subject}:s0\n".encode())
    (controls / "tools").write_bytes("".join(f"{t}\n" for t in tools).encode())
    rules = "".join(f"allow {subject} tool:{t} execute\n" for t in tools)
    (controls / "policy").write_bytes(rules.encode())


def test_projection_writes_objects_that_grant_nothing(ctx_mount, mcp_server, unique, run) -> None:
    dry = project(run, ctx_mount, unique, mcp_server, "--dry-run")
    assert dry.returncode == 0, dry.stderr
    tool_dir = ctx_mount.root / "tool"
    assert dry.stdout.decode().splitlines() == [
        f"would project {tool_dir}/{unique}.add",
        f"would project {tool_dir}/{unique}.fail",
    ]
    assert not (tool_dir / f"{unique}.add").exists()
    done = project(run, ctx_mount, unique, mcp_server)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().splitlines() == [
        f"projected {tool_dir}/{unique}.add",
        f"projected {tool_dir}/{unique}.fail",
    ]
    controls = tool_dir / f"{unique}.add.d"
    assert (controls / "description").read_bytes() == b"Add two numbers\n"
    schema = json.loads((controls / "schema").read_bytes())
    assert schema["required"] == ["a", "b"]
    driver = (controls / "driver").read_text().splitlines()
    assert driver == ["kind=mcp", f"command={json.dumps(mcp_server)}", "tool=add"]
    assert (controls / "policy").read_bytes() == b""
    assert (controls / "cap").read_bytes() == b"fs.read\n"  # readOnlyHint, closed world
    assert (tool_dir / f"{unique}.fail.d" / "cap").read_bytes() == b"fs.write\n"  # no hints
    wrapper = (tool_dir / f"{unique}.add").read_text().splitlines()
    assert wrapper[1:] == ["# cortexfs.object=tool", f"# cortexfs.name={unique}.add"]
    # Projecting again is idempotent.
    assert project(run, ctx_mount, unique, mcp_server).returncode == 0


def test_projected_tool_call_follows_policy(ctx_mount, mcp_server, unique, run, parse_events):
    assert project(run, ctx_mount, unique, mcp_server).returncode == 0
    tool = ctx_mount.root / "tool" / f"{unique}.add"
    subject = f"{unique}_t"
    grant(ctx_mount, unique, subject, [f"{unique}.add", f"{unique}.fail"])
    env = ctx_mount.env(CTX_AGENT=unique)
    refused = run([str(tool), '{"a": 2, "b": 3}'], env)
    assert refused.returncode == 13
    assert "tool " + f"{unique}.add policy" in parse_events(refused.stdout)[1]["message"]
    for name in ("add", "fail"):
        rule = f"allow {subject} tool:{unique}.{name} execute\n"
        (ctx_mount.root / "tool" / f"{unique}.{name}.d" / "policy").write_bytes(rule.encode())
    ok = run([str(tool), '{"a": 2, "b": 3}'], env)
    assert ok.returncode == 0, ok.stdout
    assert parse_events(ok.stdout)[-2:] == [
        {"type": "message", "text": "5", "content": [{"type": "text", "text": "5"}]},
        {"type": "done", "status": "ok", "exit_code": 0},
    ]
    via_stdin = run([str(tool)], env, stdin=b'{"a": 1, "b": 1}')
    assert parse_events(via_stdin.stdout)[-2]["text"] == "2"
    bad = run([str(tool), '{"a": "x"}'], env)
    assert bad.returncode == 2
    assert parse_events(bad.stdout)[-2]["errno"] == "EINVAL"
    not_json = run([str(tool), "a=1"], env)
    assert not_json.returncode == 2
    failing = run([str(ctx_mount.root / "tool" / f"{unique}.fail")], env)
    assert failing.returncode == 1
    assert [e["type"] for e in parse_events(failing.stdout)] == [
        "start", "message", "error", "done",
    ]  # fmt: skip


def test_unstartable_server_is_unavailable(ctx_mount, unique, run) -> None:
    result = project(run, ctx_mount, unique, ["/nonexistent/mcp-server"])
    assert result.returncode == 69
    assert result.stderr.decode().startswith("ctx: /nonexistent/mcp-server: cannot start")


def test_bad_server_name_writes_nothing(ctx_mount, mcp_server, run) -> None:
    result = project(run, ctx_mount, "bad/name", mcp_server)
    assert result.returncode == 2
    assert "server name" in result.stderr.decode()


def allow_all(mount, unique: str) -> None:
    for name in ("add", "fail"):
        rule = f"allow {unique}_t tool:{unique}.{name} execute\n"
        (mount.root / "tool" / f"{unique}.{name}.d" / "policy").write_bytes(rule.encode())


@pytest.mark.parametrize(
    ("perm", "add_code", "fail_code"),
    [("rwx", 0, 1), ("r-x", 0, 13), ("-wx", 13, 1), ("--x", 13, 13)],
)
def test_annotations_set_the_perm_ceiling(
    ctx_mount, mcp_server, unique, run, parse_events, perm, add_code, fail_code
) -> None:
    """readOnlyHint gives r only; a tool without hints may write, so it needs w."""
    assert project(run, ctx_mount, unique, mcp_server).returncode == 0
    grant(ctx_mount, unique, f"{unique}_t", [f"{unique}.add", f"{unique}.fail"], perm)
    allow_all(ctx_mount, unique)
    env = ctx_mount.env(CTX_AGENT=unique)
    tools = ctx_mount.root / "tool"
    add = run([str(tools / f"{unique}.add"), '{"a": 1, "b": 2}'], env)
    fail = run([str(tools / f"{unique}.fail")], env)
    assert (add.returncode, fail.returncode) == (add_code, fail_code)
    if fail_code == 13:
        assert parse_events(fail.stdout)[-2] == {
            "type": "error", "errno": "EACCES",
            "message": f"agent {unique} perm {perm} lacks w for {unique}.fail",
        }  # fmt: skip


def test_arguments_are_checked_against_the_schema_first(
    ctx_mount, mcp_server, unique, run, parse_events
) -> None:
    """A mismatch is exit 2 / EINVAL from CortexFS; the server never sees the call."""
    assert project(run, ctx_mount, unique, mcp_server).returncode == 0
    grant(ctx_mount, unique, f"{unique}_t", [f"{unique}.add"])
    allow_all(ctx_mount, unique)
    tool = ctx_mount.root / "tool" / f"{unique}.add"
    env = ctx_mount.env(CTX_AGENT=unique)
    where = f"{tool}.d/schema"
    for argument, problem in (
        ('{"a": 1}', "$: missing required property 'b'"),
        ('{"a": 1, "b": "2"}', "$.b: expected number, got string"),
    ):
        bad = run([str(tool), argument], env)
        assert bad.returncode == 2
        assert parse_events(bad.stdout)[1:] == [
            {"type": "error", "errno": "EINVAL",
             "message": f"arguments do not match {where}: {problem}"},
            {"type": "done", "status": "error", "exit_code": 2},
        ]  # fmt: skip
