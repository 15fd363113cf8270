"""Issue 23's hardening, each on a live mount: what a probe found, refused now."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from cortexfs.ctl_write import write_control
from cortexfs.errors import BadInput

OTHER_UID = 4242
DEEP = b"[" * 30000


def err(action: object) -> int:
    try:
        action()  # type: ignore[operator]
    except OSError as exc:
        return exc.errno or -1
    return 0


def write_whole(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def test_deep_json_controls_are_einval_and_the_daemon_lives(ctx_mount, unique: str) -> None:
    agent = ctx_mount.root / "agent" / f"{unique}.d"
    tool = ctx_mount.root / "tool" / f"{unique}.d"
    os.mkdir(agent)
    os.mkdir(tool)
    for control in (agent / "meta.json", tool / "schema"):
        before = control.read_bytes()
        assert err(lambda c=control: write_whole(c, DEEP)) == errno.EINVAL
        with pytest.raises(BadInput, match="EINVAL"):
            write_control(str(control), DEEP + b"\n")
        assert control.read_bytes() == before
    assert ctx_mount.proc.poll() is None
    assert (ctx_mount.root / "status").read_bytes() == b"ready\n"


def test_deep_json_input_to_the_runner_is_exit_2(ctx_mount, unique: str, run, parse_events):
    agent = ctx_mount.root / "agent" / f"{unique}.d"
    os.mkdir(agent)
    (agent / "label").write_bytes(f"user_u:agent_r:{unique}_t:s0\n".encode())
    (agent / "policy").write_bytes(f"allow {unique}_t model:debug/echo use\n".encode())
    model = str(ctx_mount.root / "model" / "debug" / "echo")
    result = run([model], ctx_mount.env(CTX_AGENT=unique), stdin=DEEP)
    assert result.returncode == 2, result.stdout
    got = parse_events(result.stdout)
    assert got[-2]["errno"] == "EINVAL"
    assert got[-2]["message"] == (
        "input is not JSON: JSON nested 30000 deep; at most 64 levels are accepted"
    )
    assert got[-1] == {"type": "done", "status": "error", "exit_code": 2}
