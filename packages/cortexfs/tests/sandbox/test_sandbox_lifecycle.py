"""Creating and starting agents: refusals name the problem and leave nothing behind; a
killed supervisor takes its sandboxes with it and the agent can be started again."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import uuid
from pathlib import Path

from agent_cgroups import cgroup_dirs


def test_new_refuses_bad_values_and_keeps_nothing(world) -> None:
    name = "n" + uuid.uuid4().hex[:10]
    bad = world.ctx_cmd("agent", "new", name, "--perm", "rwz")
    assert bad.returncode == 2
    assert bad.stderr.decode().startswith(f"ctx: {world.ctx}/agent/{name}.d/perm: EINVAL")
    assert not (world.ctx / "agent" / name).exists()
    assert not (world.ctx / "agent" / f"{name}.d").exists()
    world.ok("agent", "new", name)
    world.made.append(name)
    again = world.ctx_cmd("agent", "new", name)
    assert again.returncode == 1
    assert b"EEXIST" in again.stderr
    assert world.ctx_cmd("agent", "new", "../x").returncode == 2


def test_start_refusals(world, make_agent) -> None:
    missing = world.ctx_cmd("agent", "start", "nosuchagent")
    assert missing.returncode == 69
    assert missing.stderr.decode() == (
        f"ctx: {world.ctx}/agent/nosuchagent: no such agent "
        "(create it with `ctx agent new nosuchagent`)\n"
    )
    noexec = make_agent("mount:x read", extra=("--mount", "/srv:/opt/x:ro:noexec"))
    refused = world.ctx_cmd("agent", "start", noexec.name)
    assert refused.returncode == 2
    assert refused.stderr.decode() == (
        f"ctx: /agent/{noexec.name}.d/mount: /srv -> /opt/x: option noexec is not supported\n"
    )
    assert noexec.status()["state"] == "stopped"
    assert not Path(f"/run/cortexfs/agent/{noexec.name}.sock").exists()
    plain = world.base / "plain"
    plain.mkdir(exist_ok=True)
    env_root = {**world.env(), "CTX_ROOT": str(plain)}
    result = subprocess.run(
        [world.runtime.ctx, "agent", "start", "x"], env=env_root, capture_output=True, check=False
    )
    assert result.returncode == 13
    assert result.stderr.decode() == f"ctx: CTX_ROOT={plain} is not a CortexFS mount\n"


def test_limits_reach_the_cgroup(world, make_agent) -> None:
    agent = make_agent()
    agent.start(
        "/bin/true", options=("--memory", str(256 << 20), "--tasks", "32", "--no-workspace")
    )
    memory = Path(agent.status()["cgroup"])
    assert (memory / "memory.limit_in_bytes").read_text().strip() == str(256 << 20)
    if (memory / "memory.memsw.limit_in_bytes").exists():  # the kernel accounts swap
        assert (memory / "memory.memsw.limit_in_bytes").read_text().strip() == str(256 << 20)
    pids = Path(str(memory).replace("/memory/", "/pids/"))
    assert (pids / "pids.max").read_text().strip() == "32"
    supervisor = str(agent.status()["pid"])
    assert supervisor in (pids / "cgroup.procs").read_text().split()


def test_cgroup_limits_hold_inside_the_sandbox(world, make_agent) -> None:
    """The task limit stops forks (the supervisor's threads count too); memory past the
    limit gets the sandbox's process killed, and the agent runs on."""
    agent = make_agent("mount:fake read", extra=("--mount", world.fake_row()))
    limits = ("--memory", str(160 << 20), "--tasks", "32", "--no-workspace")
    agent.start("/bin/sh", options=limits)
    forked = agent.events("exec /opt/fake/fake-cli fork 64\n")
    got = json.loads("".join(e["text"] for e in forked if e["type"] == "delta"))
    assert 0 < got["started"] < 32 and got["failure"] == "EAGAIN", got
    grown = agent.events("exec /opt/fake/fake-cli alloc 1024\n")
    done = grown[-1]
    assert (done["status"], done["exit_code"]) == ("error", 137), done
    reached = [int(n) for e in grown if e["type"] == "delta" for n in e["text"].split()]
    assert 16 <= max(reached) < 160, reached
    assert agent.events("echo alive\n")[-2]["text"] == "alive\n"


def test_killed_supervisor_takes_its_sandboxes(world, make_agent) -> None:
    agent = make_agent(
        "mount:workspace write", "mount:fake read", extra=("--mount", world.fake_row())
    )
    agent.start("/opt/fake/fake-cli", "hold", f"/workspace/hold-{agent.name}")
    hold = world.workspace / f"hold-{agent.name}"
    hold.mkdir(mode=0o777)
    hold.chmod(0o777)
    sender = subprocess.Popen(
        [world.runtime.ctx, "agent", "send", agent.name],
        env=world.env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 20
    while not any(hold.iterdir()):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    (pids_file,) = hold.iterdir()
    supervisor = agent.status()["pid"]
    cli_host = [p for p in _all_pids() if _cmdline(p).startswith(b"/usr/bin/python3\0/opt/fake/")]
    assert cli_host
    os.kill(supervisor, signal.SIGKILL)
    sender.wait(30)
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{p}").exists() for p in cli_host):
        assert time.monotonic() < deadline, "sandbox outlived its supervisor"
        time.sleep(0.05)
    assert agent.status()["state"] == "stopped"
    agent.start("/bin/true")
    assert agent.status()["state"] == "running"
    assert pids_file.exists()


def _all_pids() -> list[int]:
    return [int(p) for p in os.listdir("/proc") if p.isdigit()]


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def test_a_sandbox_that_cannot_start_reports_why(world, make_agent) -> None:
    agent = make_agent(
        "mount:gone read", extra=("--mount", f"{world.base}/no-such-dir:/opt/gone:ro")
    )
    agent.start("/bin/true", options=("--no-workspace",))
    sent = agent.send("")  # the source is opened (pinned) before bubblewrap starts
    assert sent.returncode == 1
    assert sent.stderr.decode() == (
        f"ctx: EINVAL: {world.base}/no-such-dir: cannot be bound: No such file or directory\n"
    )
    session = world.ctx / "home" / str(world.uid) / "agent" / agent.name / "session" / "default"
    deadline = time.monotonic() + 10  # recorded right after the error event is sent
    while (session / "state").read_text() != "error\n" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert (session / "state").read_text() == "error\n"


def test_a_failed_start_leaves_nothing_running(world, make_agent) -> None:
    agent = make_agent()
    os.symlink("/run/elsewhere.sock", world.ctx / "agent" / f"{agent.name}.sock")
    failed = world.ctx_cmd("agent", "start", agent.name, "--", "/bin/true")
    assert failed.returncode == 70
    assert failed.stderr.decode() == (
        f"ctx: {world.ctx}/agent/{agent.name}.sock points to /run/elsewhere.sock, "
        f"not /run/cortexfs/agent/{agent.name}.sock\n"
    )
    run = Path("/run/cortexfs/agent")
    assert not (run / f"{agent.name}.sock").exists()
    assert not (run / f"{agent.name}.run").exists()
    assert cgroup_dirs(f"agent.{agent.name}") == []  # in every hierarchy


def _soft_nofile(pid: int) -> str:
    (line,) = [x for x in Path(f"/proc/{pid}/limits").read_text().splitlines()
               if x.startswith("Max open files")]  # fmt: skip
    return line.split()[3]


def _lowest_free_fd(pid: int) -> int:
    used = {int(fd) for fd in os.listdir(f"/proc/{pid}/fd")}
    return min(set(range(len(used) + 1)) - used)


def test_a_supervisor_out_of_descriptors_serves_its_socket_again(world, make_agent) -> None:
    """accept() failing with EMFILE ended the supervisor's accept thread: the agent kept
    running, and every later `ctx agent` command waited on its socket for good. Now the
    supervisor retries, and serves the client that was queued once descriptors are back."""
    agent = make_agent()
    agent.start("/bin/sh")
    supervisor = agent.status()["pid"]
    log = Path(f"/run/cortexfs/agent/{agent.name}.log")
    soft = _soft_nofile(supervisor)
    # Any new descriptor of the supervisor's is past its limit now: accept() is EMFILE.
    subprocess.run(
        ["prlimit", f"--pid={supervisor}", f"--nofile={_lowest_free_fd(supervisor)}:"], check=True
    )
    waiting = subprocess.Popen(
        [world.runtime.ctx, "agent", "status", "--json", agent.name],
        env=world.env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 10
        while "accept failed (Too many open files); retrying" not in log.read_text():
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
    finally:
        subprocess.run(["prlimit", f"--pid={supervisor}", f"--nofile={soft}:"], check=True)
    out, err = waiting.communicate(timeout=30)
    assert waiting.returncode == 0, err
    assert json.loads(out)["state"] == "running"
    events = agent.events("echo served\n")  # a turn, on a new connection
    assert events[-1]["status"] == "ok", events
    assert "".join(e["text"] for e in events if e["type"] == "delta") == "served\n"
