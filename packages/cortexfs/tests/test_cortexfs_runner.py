"""The object runner through the mount: policy allow/deny, JSONL events, exit codes."""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

OTHER_UID = 4242

TOOL_SCRIPT = """\
import sys
data = sys.stdin.read()
print("args=" + ",".join(sys.argv[1:]) + " stdin=" + data.strip())
sys.exit(int(sys.argv[1]) if sys.argv[1:2] and sys.argv[1].isdigit() else 0)
"""


@dataclass
class Call:
    root: Path
    tool: str
    agent: str

    @property
    def tool_path(self) -> Path:
        return self.root / "tool" / self.tool

    def controls(self, kind: str) -> Path:
        name = self.tool if kind == "tool" else self.agent
        return self.root / kind / f"{name}.d"

    def env(self, mount, **extra: str) -> dict[str, str]:
        return mount.env(CTX_AGENT=self.agent, **extra)


def put(path: Path, text: str) -> None:
    path.write_bytes(text.encode())


@pytest.fixture
def call(ctx_mount, unique: str, tmp_path: Path) -> Call:
    root = ctx_mount.root
    script = tmp_path / "tool.py"
    script.write_text(TOOL_SCRIPT)
    os.chmod(script, 0o755)
    c = Call(root, f"{unique}.echo", f"{unique}a")
    os.mkdir(root / "tool" / f"{c.tool}.d")
    os.mkdir(root / "agent" / f"{c.agent}.d")
    put(
        c.controls("tool") / "driver",
        f"kind=exec\ncommand={json.dumps([sys.executable, str(script)])}\n",
    )
    put(c.controls("tool") / "policy", f"allow {unique}_t tool:{c.tool} execute\n")
    put(c.controls("agent") / "label", f"user_u:agent_r:{unique}_t:s0\n")
    put(c.controls("agent") / "tools", f"{c.tool}\n")
    put(c.controls("agent") / "policy", f"allow {unique}_t tool:{c.tool} execute\n")
    return c


def test_allowed_call_streams_jsonl(ctx_mount, call: Call, run, parse_events) -> None:
    result = run([str(call.tool_path), "x", "y"], call.env(ctx_mount), stdin=b"hello\n")
    assert result.returncode == 0, result.stdout + result.stderr
    got = parse_events(result.stdout)
    assert got[0] == {
        "type": "start", "object": str(call.tool_path), "name": call.tool, "class": "tool",
    }  # fmt: skip
    text = "args=x,y stdin=hello\n"
    assert "".join(str(e["text"]) for e in got if e["type"] == "delta") == text
    assert got[-2:] == [
        {"type": "message", "text": text},
        {"type": "done", "status": "ok", "exit_code": 0},
    ]


def test_bare_name_resolves_along_ctx_path(ctx_mount, call: Call, run, parse_events) -> None:
    runner = str(Path(sys.executable).parent / "cortexfs-object-runner")
    result = run([runner, call.tool], call.env(ctx_mount))
    assert result.returncode == 0
    assert parse_events(result.stdout)[0]["object"] == str(call.tool_path)
    missing = run([runner, "nosuch"], call.env(ctx_mount))
    assert missing.returncode == 69
    assert parse_events(missing.stdout)[-1] == {"type": "done", "status": "error", "exit_code": 69}


def denied(result, parse_events, fragment: str) -> None:
    assert result.returncode == 13, result.stdout + result.stderr
    got = parse_events(result.stdout)
    assert [e["type"] for e in got] == ["start", "error", "done"]
    assert got[1]["errno"] == "EACCES"
    assert fragment in str(got[1]["message"])
    assert got[2] == {"type": "done", "status": "error", "exit_code": 13}


def test_no_agent_is_denied(ctx_mount, call: Call, run, parse_events) -> None:
    env = ctx_mount.env()
    denied(run([str(call.tool_path)], env), parse_events, "CTX_AGENT unset")


@pytest.mark.parametrize(
    ("control", "text", "fragment"),
    [
        ("tools", "", "not declared"),
        ("perm", "r--\n", "lacks x"),
        ("policy", "", "agent"),
    ],
)
def test_agent_side_refusals(ctx_mount, call: Call, run, parse_events, control, text, fragment):
    put(call.controls("agent") / control, text)
    denied(run([str(call.tool_path)], call.env(ctx_mount)), parse_events, fragment)


def test_tool_policy_is_required_too(ctx_mount, call: Call, run, parse_events) -> None:
    put(call.controls("tool") / "policy", "")
    result = run([str(call.tool_path)], call.env(ctx_mount))
    denied(result, parse_events, f"tool {call.tool} policy")


def test_caps_raise_the_perm_ceiling(ctx_mount, call: Call, run, parse_events) -> None:
    put(call.controls("tool") / "cap", "fs.write\n")
    denied(run([str(call.tool_path)], call.env(ctx_mount)), parse_events, "lacks w")
    put(call.controls("agent") / "perm", "rwx\n")
    assert run([str(call.tool_path)], call.env(ctx_mount)).returncode == 0


def test_other_uid_cannot_act_as_the_agent(ctx_mount, call: Call, run, parse_events) -> None:
    uid = str(OTHER_UID)
    argv = ["setpriv", "--reuid", uid, "--regid", uid, "--clear-groups", str(call.tool_path)]
    denied(run(argv, call.env(ctx_mount)), parse_events, f"caller uid {OTHER_UID}")


def test_shadowed_object_is_not_found_via_ctx_path(ctx_mount, call: Call, run, parse_events):
    home_tool = ctx_mount.root / "home" / "0" / "tool"
    os.mkdir(home_tool / f"{call.tool}.d")
    result = run([str(home_tool / call.tool)], call.env(ctx_mount))
    denied(result, parse_events, "shadowed by")


def test_tool_failure_is_exit_1(ctx_mount, call: Call, run, parse_events) -> None:
    result = run([str(call.tool_path), "3"], call.env(ctx_mount))
    assert result.returncode == 1
    got = parse_events(result.stdout)
    assert [e["type"] for e in got][-2:] == ["error", "done"]
    assert "exited with status 3" in str(got[-2]["message"])


def test_missing_driver_is_unavailable(ctx_mount, call: Call, run, parse_events) -> None:
    put(call.controls("tool") / "driver", "")
    result = run([str(call.tool_path)], call.env(ctx_mount))
    assert result.returncode == 69
    assert parse_events(result.stdout)[-2]["errno"] == "ENOENT"


def test_model_echo_needs_model_use(ctx_mount, call: Call, run, parse_events) -> None:
    model = str(ctx_mount.root / "model" / "debug" / "echo")
    denied(run([model, '{"input": "hi"}'], call.env(ctx_mount)), parse_events, "model:debug/echo")
    unique = call.agent[:-1]
    rules = f"allow {unique}_t tool:{call.tool} execute\nallow {unique}_t model:debug/echo use\n"
    put(call.controls("agent") / "policy", rules)
    result = run([model, '{"input": "hi"}'], call.env(ctx_mount))
    assert result.returncode == 0
    assert parse_events(result.stdout)[-2:] == [
        {"type": "message", "text": "hi"},
        {"type": "done", "status": "ok", "exit_code": 0},
    ]
    bad = run([model, "[1]"], call.env(ctx_mount))
    assert bad.returncode == 2
    assert parse_events(bad.stdout)[-2]["errno"] == "EINVAL"


def test_agent_objects_need_the_launcher(ctx_mount, call: Call, run, parse_events) -> None:
    result = run([str(ctx_mount.root / "agent" / call.agent)], call.env(ctx_mount))
    assert result.returncode == 69


def test_bin_ctx_runs_the_ctx_command(ctx_mount, run) -> None:
    result = run([str(ctx_mount.root / "bin" / "ctx"), "status"], ctx_mount.env())
    assert (result.returncode, result.stdout) == (0, b"ready\n")
    tsh = run([str(ctx_mount.root / "bin" / "tsh")], ctx_mount.env(), stdin=b"# nothing\nexit 3\n")
    assert (tsh.returncode, tsh.stdout) == (3, b"")
    ctxterm = run([str(ctx_mount.root / "bin" / "ctxterm"), "--", "/bin/sh", "-c", "exit 5"],
                  ctx_mount.env())  # fmt: skip
    assert ctxterm.returncode == 5


def test_corrupt_backing_policy_is_internal_error(ctx_mount, call: Call, run, parse_events):
    # Only possible behind the mount's back: the filesystem validates every policy write.
    backing = ctx_mount.storage / "tool" / f"{call.tool}.d" / "policy"
    backing.write_bytes(b"# not policy v0\n")
    result = run([str(call.tool_path)], call.env(ctx_mount))
    assert result.returncode == 70
    got = parse_events(result.stdout)
    assert got[-2]["errno"] == "EIO"
    assert "policy: line 1" in str(got[-2]["message"])


def test_exec_timeout_kills_the_group(ctx_mount, call: Call, run, parse_events, tmp_path) -> None:
    """An exec driver's timeout= ends the program and what it started (ETIMEDOUT, 69)."""
    pids = tmp_path / "pids"
    script = (
        "import subprocess, sys, time\n"
        "child = subprocess.Popen(['sleep', '300'])\n"
        f"open({str(pids)!r}, 'w').write(f'{{child.pid}}\\n')\n"
        "time.sleep(300)\n"
    )
    command = json.dumps([sys.executable, "-c", script])
    put(call.controls("tool") / "driver", f"kind=exec\ncommand={command}\ntimeout=1\n")
    result = run([str(call.tool_path)], call.env(ctx_mount), timeout=20)
    assert result.returncode == 69
    assert parse_events(result.stdout)[-2] == {
        "type": "error", "errno": "ETIMEDOUT",
        "message": f"{sys.executable}: still running after 1 s; killed",
    }  # fmt: skip
    child = int(pids.read_text())
    deadline = time.monotonic() + 5
    while os.path.exists(f"/proc/{child}") and time.monotonic() < deadline:
        with open(f"/proc/{child}/stat") as handle:
            if handle.read().rsplit(")", 1)[1].split()[0] == "Z":
                break
        time.sleep(0.05)
    else:
        assert not os.path.exists(f"/proc/{child}"), "the program's child survived"
