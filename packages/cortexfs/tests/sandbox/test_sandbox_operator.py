"""A non-root operator launches its own agent: no credential change, no cgroup (prlimit's
process limit instead), no pasta (it needs root here), runtime under /run/user/<uid>."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import uuid
from pathlib import Path

import pytest


@pytest.fixture
def user_run(world):
    """/run/user/<uid>, as a login session would provide it.

    Other test runs on this machine use the same uid at the same time, and move in: the
    uid's warm MCP host listens under /run/user/<uid> whenever it exists. Removing the
    directory with what is in it took that host away between two calls of another run's
    test (which then saw two servers). So only what this test left is removed (its
    agents' lock and log; their supervisors removed the rest at stop), then the
    directories it made, each only if empty."""
    path = Path(f"/run/user/{world.uid}")
    created = not path.exists()
    if created:
        path.mkdir(parents=True, mode=0o700)
        os.chown(path, world.uid, world.gid)
    before = set(world.made)
    yield path
    agents = path / "cortexfs" / "agent"
    for name in set(world.made) - before:
        for suffix in (".lock", ".log"):
            (agents / f"{name}{suffix}").unlink(missing_ok=True)
    made = [agents, agents.parent] + ([path] if created else [])
    for directory in made:
        with contextlib.suppress(OSError):  # not empty: another run moved in
            directory.rmdir()


def test_user_operator_starts_its_own_agent(world, user_run) -> None:
    name = "u" + uuid.uuid4().hex[:10]
    kind = f"u{world.uid}_{name}_t"
    rules = ("mount:fake read", "network:default connect", "session:default write")
    new = [
        "agent",
        "new",
        name,
        "--label",
        f"user_u:agent_r:{kind}:s0",
        "--mount",
        world.fake_row(),
        *[a for r in rules for a in ("--allow", f"allow {kind} {r}")],
    ]
    world.ok(*new, uid=world.uid)
    world.made.append(name)
    started = world.ok(
        "agent",
        "start",
        name,
        "--no-workspace",
        "--",
        "/opt/fake/fake-cli",
        "report",
        uid=world.uid,
    )
    socket_path = f"{user_run}/cortexfs/agent/{name}.sock"
    assert started.endswith(f"socket {socket_path}\n")
    try:
        assert os.readlink(world.ctx / "agent" / f"{name}.sock") == socket_path
        refused = world.ctx_cmd("agent", "stop", name, uid=4343)
        assert refused.returncode == 13
        sent = world.ctx_cmd("agent", "send", name, uid=world.uid)
        got = json.loads(sent.stdout)
        assert (got["uid"], got["gid"]) == (world.uid, world.gid)
        assert got["nproc"] == [256, 256]
        assert "/cortexfs/" not in got["cgroup"]
        assert got["interfaces"] == ["lo"]
        status = json.loads(world.ok("agent", "status", "--json", name, uid=world.uid))
        assert status["network"] == "granted, but pasta needs a root operator here"
        assert status["cgroup"] is None
        argv = status["argv"]
        assert argv[0] == "/usr/bin/prlimit" and "--nproc=256:256" in argv
        setpriv = argv.index("/usr/bin/setpriv")
        assert argv[setpriv + 1] == "--inh-caps=-all"  # no credential options: it holds none
    finally:
        world.ok("agent", "stop", name, uid=world.uid)


def _parent(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat[stat.rfind(")") + 2 :].split()[1])


def _sleepers(seconds: str) -> list[int]:
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        with contextlib.suppress(OSError):
            if Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")[:2] == [
                b"sleep", seconds.encode(),
            ]:  # fmt: skip
                found.append(int(entry))
    return found


def test_a_daemon_a_call_leaves_dies_with_a_user_operators_agent(world, user_run) -> None:
    """No cgroup here: the supervisor is the subreaper of what its calls start, so a
    double-forked sleeper in a session of its own is adopted by it and killed at stop."""
    name = "u" + uuid.uuid4().hex[:10]
    kind = f"u{world.uid}_{name}_t"
    tool = f"{name}.daemon"
    seconds = str(4000 + os.getpid() % 1000)
    rules = (f"tool:{tool} execute", "session:default write")
    allow = [a for r in rules for a in ("--allow", f"allow {kind} {r}")]
    world.ok("agent", "new", name, "--label", f"user_u:agent_r:{kind}:s0", *allow, uid=world.uid)
    world.made.append(name)
    daemon = f"(setsid sleep {seconds} </dev/null >/dev/null 2>&1 &); echo left"
    driver = json.dumps(["/bin/sh", "-c", daemon])
    controls = world.ctx / "home" / str(world.uid) / "tool" / f"{tool}.d"
    made = subprocess.run(  # the tool is the operator's own: its driver is owner-only
        ["/bin/sh", "-c", 'mkdir -p "$1" && printf "%s" "$2" > "$1/driver" && '
         'printf "%s" "$3" > "$1/policy" && printf "%s" "$4" > "$5"', "-", str(controls),
         f"kind=exec\ncommand={driver}\n", f"allow {kind} tool:{tool} execute\n",
         f"{tool}\n", str(world.ctx / "agent" / f"{name}.d" / "tools")],
        user=world.uid, group=world.gid, extra_groups=[], capture_output=True, check=False,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    world.ok("agent", "start", name, "--no-workspace", "--", "/bin/sh", uid=world.uid)
    try:
        script = f"/ctx/home/{world.uid}/tool/{tool}\n".encode()
        sent = world.ctx_cmd("agent", "send", "--json", name, stdin=script, uid=world.uid)
        assert sent.returncode == 0, sent.stdout.decode()
        deltas = [json.loads(line) for line in sent.stdout.splitlines()]
        # A delta is a chunk of the terminal's output, not a line: join, then split.
        text = "".join(d["text"] for d in deltas if d["type"] == "delta")
        inner = [json.loads(line) for line in text.splitlines() if line.strip()]
        assert (inner[-1]["type"], inner[-1]["exit_code"]) == ("done", 0), inner
        (sleeper,) = _sleepers(seconds)
        status = json.loads(world.ok("agent", "status", "--json", name, uid=world.uid))
        assert status["cgroup"] is None
        assert _parent(sleeper) == status["pid"]  # adopted by the supervisor, not by PID 1
    finally:
        world.ok("agent", "stop", name, uid=world.uid)
    assert _sleepers(seconds) == []
