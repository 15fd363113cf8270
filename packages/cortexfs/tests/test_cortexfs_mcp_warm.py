"""Warm MCP calls through a live mount: one server per projected server, reused across
calls, stopped (its whole process group) on idle, timeout and a cancelled caller, its
stderr appended to the object's log."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fake_mcp import server_source

CTX = str(Path(sys.executable).parent / "ctx")

# A server that ignores SIGTERM and outlives its stdin closing (the servers issue 23
# found still running), and whose `hang` tool leaves a child in its process group.
SERVER = server_source(
    "warm",
    r"""
import os, signal, subprocess, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
PIDS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pids")
def note(text):
    print(text, file=sys.stderr, flush=True)
    with open(PIDS, "a") as handle:
        handle.write(text + "\n")
note(f"started {os.getpid()}")
TOOLS = [{"name": n, "inputSchema": {"type": "object"},
          "annotations": {"readOnlyHint": True, "openWorldHint": False}} for n in ("pid", "hang")]
def call(name, arguments):
    if name == "pid":
        print("call pid", file=sys.stderr, flush=True)
        return {"content": [{"type": "text", "text": str(os.getpid())}]}
    child = subprocess.Popen(["sleep", "300"])
    note(f"child {child.pid}")
    time.sleep(300)
""",
    after="time.sleep(300)\n",
)


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def gone_within(pids: list[int], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while any(alive(p) for p in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


class Warm:
    def __init__(self, mount, unique: str, server: Path, run) -> None:
        self.mount, self.unique, self.run = mount, unique, run
        self.pids_file = server.parent / "pids"
        tools = mount.root / "tool"
        projected = run(
            [CTX, "mcp", "project", unique, "--into", str(tools), "--", sys.executable,
             str(server)], mount.env(),
        )  # fmt: skip
        assert projected.returncode == 0, projected.stderr
        controls = mount.root / "agent" / f"{unique}.d"
        os.mkdir(controls)
        names = [f"{unique}.pid", f"{unique}.hang"]
        (controls / "label").write_bytes(f"user_u:agent_r:{unique}_t:s0\n".encode())
        (controls / "tools").write_bytes("".join(f"{n}\n" for n in names).encode())
        rules = "".join(f"allow {unique}_t tool:{n} execute\n" for n in names)
        (controls / "policy").write_bytes(rules.encode())
        for name in names:
            (tools / f"{name}.d" / "policy").write_bytes(rules.encode())
        self.env = mount.env(CTX_AGENT=unique)

    def tool(self, name: str) -> Path:
        return self.mount.root / "tool" / f"{self.unique}.{name}"

    def set_driver(self, name: str, **extra: str) -> None:
        driver = self.mount.root / "tool" / f"{self.unique}.{name}.d" / "driver"
        lines = [ln for ln in driver.read_text().splitlines() if ln.split("=")[0] not in extra]
        driver.write_text(
            "".join(f"{ln}\n" for ln in [*lines, *(f"{k}={v}" for k, v in extra.items())])
        )

    def pids(self) -> str:
        return self.pids_file.read_text() if self.pids_file.exists() else ""

    def call(self, name: str, timeout: float = 30):
        return self.run([str(self.tool(name))], self.env, timeout=timeout)


@pytest.fixture
def warm(ctx_mount, unique, run, tmp_path) -> Warm:
    server = tmp_path / "warm_server.py"
    server.write_text(SERVER)
    return Warm(ctx_mount, unique, server, run)


def started(log: str) -> list[int]:
    return [int(p) for p in re.findall(r"^started (\d+)$", log, re.M)]


def test_one_server_serves_every_call(warm, parse_events) -> None:
    answers = []
    for _ in range(3):
        result = warm.call("pid")
        assert result.returncode == 0, result.stdout
        answers.append(parse_events(result.stdout)[-2]["text"])
    assert len(set(answers)) == 1
    pid = int(answers[0])
    # `ctx mcp project` started a server of its own to list the tools, then the calls one
    assert started(warm.pids())[1:] == [pid]
    assert alive(pid)


def test_idle_server_is_stopped_with_its_group(warm, parse_events) -> None:
    warm.set_driver("pid", idle="1")
    first = int(parse_events(warm.call("pid").stdout)[-2]["text"])
    # It ignores SIGTERM and stdin closing: only SIGKILL to its group ends it.
    assert gone_within([first], 15)
    second = int(parse_events(warm.call("pid").stdout)[-2]["text"])
    assert second != first
    assert started(warm.pids())[1:] == [first, second]


def test_timeout_is_etimedout_and_stops_the_group(warm, parse_events) -> None:
    warm.set_driver("hang", timeout="1.5")
    begun = time.monotonic()
    result = warm.call("hang")
    elapsed = time.monotonic() - begun
    assert result.returncode == 69
    events = parse_events(result.stdout)
    assert events[-2]["errno"] == "ETIMEDOUT"
    assert events[-2]["message"].endswith("no answer within 1.5 s")
    assert 1.5 <= elapsed < 10
    noted = warm.pids()
    server = started(noted)[1:]
    child = [int(p) for p in re.findall(r"^child (\d+)$", noted, re.M)]
    assert len(server) == 1 and len(child) == 1
    assert gone_within(server + child, 10)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_signalled_runner_reports_and_stops_the_group(warm, parse_events, sig) -> None:
    proc = subprocess.Popen(
        [str(warm.tool("hang"))], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, env=warm.env
    )
    assert proc.stdout is not None
    assert json.loads(proc.stdout.readline())["type"] == "start"
    deadline = time.monotonic() + 20
    while "child " not in warm.pids():
        assert time.monotonic() < deadline, "the hang tool never started"
        time.sleep(0.05)
    proc.send_signal(sig)
    rest, _ = proc.communicate(timeout=20)
    assert proc.returncode == 1
    name = signal.Signals(sig).name
    assert parse_events(rest) == [
        {"type": "error", "errno": "ECANCELED",
         "message": f"cancelled by {name}; the MCP server's process group was stopped"},
        {"type": "done", "status": "error", "exit_code": 1},
    ]  # fmt: skip
    server = started(warm.pids())[-1]
    child = int(re.findall(r"^child (\d+)$", warm.pids(), re.M)[0])
    assert gone_within([server, child], 5)


def test_server_stderr_is_appended_to_the_objects_log(warm, parse_events) -> None:
    """At the end of each call, and when a server is stopped (here by its timeout)."""
    pid = int(parse_events(warm.call("pid").stdout)[-2]["text"])
    warm.call("pid")
    log = warm.mount.root / "tool" / f"{warm.unique}.pid.d" / "log"
    assert log.read_text() == f"started {pid}\ncall pid\ncall pid\n"
    warm.set_driver("hang", timeout="1")
    assert warm.call("hang").returncode == 69
    hang_log = (warm.mount.root / "tool" / f"{warm.unique}.hang.d" / "log").read_text()
    child = re.findall(r"^child \d+$", warm.pids(), re.M)
    # one server serves both tools: its start-up went to the log of the call that started it
    assert hang_log == f"{child[0]}\n"


def test_only_the_owner_appends_to_a_log_and_nobody_rewrites_it(warm, as_uid) -> None:
    log = str(warm.mount.root / "tool" / f"{warm.unique}.pid.d" / "log")

    def append(data: bytes) -> None:
        fd = os.open(log, os.O_WRONLY | os.O_APPEND)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)

    append(b"one")
    append(b"two\n")
    assert Path(log).read_bytes() == b"one\ntwo\n"
    assert oct(os.stat(log).st_mode & 0o777) == "0o644"
    with pytest.raises(OSError) as refused:
        Path(log).write_bytes(b"forged\n")  # a whole-file rewrite, root included
    assert refused.value.errno == 30  # EROFS
    assert as_uid(4242, lambda: append(b"x")) == 13  # EACCES: not the owner
    assert Path(log).read_bytes() == b"one\ntwo\n"


def test_log_keeps_the_newest_lines() -> None:
    from cortexfs.object_log import MAX_LOG, appended_log

    old = b"".join(b"line %05d\n" % i for i in range(6000))[-MAX_LOG:]
    new = appended_log(old, b"last")
    assert len(new) <= MAX_LOG
    assert new.endswith(b"line 05999\nlast\n")
    assert new.startswith(b"line ")
    assert appended_log(b"", b"a\x00b") == "a\ufffdb\n".encode()


def test_request_round_trips() -> None:
    from hypothesis import given
    from hypothesis import strategies as st

    from cortexfs.warm.wire import decode_request, encode_request

    text = st.text(st.characters(blacklist_characters="\0", blacklist_categories=["Cs"]))
    keys = st.text(st.characters(blacklist_characters="\0=", blacklist_categories=["Cs"]),
                   min_size=1)  # fmt: skip

    @given(cwd=text, argv=st.lists(text, max_size=4), env=st.dictionaries(keys, text, max_size=4))
    def round_trip(cwd: str, argv: list[str], env: dict[str, str]) -> None:
        data = encode_request(cwd, argv, env)
        head, _, payload = data.partition(b"\n")
        assert int(head) == len(payload)
        assert decode_request(payload) == (b"cfs1", cwd, argv, env)
        job = encode_request(cwd, argv, env, b"cfd1").partition(b"\n")[2]
        assert decode_request(job) == (b"cfd1", cwd, argv, env)

    round_trip()


def test_host_serves_only_its_own_mount_namespace(warm, parse_events, run) -> None:
    """A caller in another mount namespace (as an agent sandbox is) is not served: its
    runner starts a server of its own for the call."""
    warm_pid = parse_events(warm.call("pid").stdout)[-2]["text"]
    other = run(["unshare", "--mount", "--propagation", "unchanged", str(warm.tool("pid"))],
                warm.env)  # fmt: skip
    assert other.returncode == 0, other.stdout
    assert parse_events(other.stdout)[-2]["text"] != warm_pid
    assert parse_events(warm.call("pid").stdout)[-2]["text"] == warm_pid


def test_a_planted_host_directory_is_not_used(tmp_path) -> None:
    from cortexfs.warm.paths import private_dir

    mine = tmp_path / "mine"
    private_dir(str(mine), os.getuid())
    assert oct(mine.stat().st_mode & 0o777) == "0o700"
    private_dir(str(mine), os.getuid())  # an existing private directory is accepted
    open_dir = tmp_path / "open"
    open_dir.mkdir(mode=0o755)
    open_dir.chmod(0o755)
    with pytest.raises(PermissionError):
        private_dir(str(open_dir), os.getuid())
    with pytest.raises(PermissionError):
        private_dir(str(mine), os.getuid() + 1)  # another uid's
    link = tmp_path / "link"
    link.symlink_to(mine)
    with pytest.raises(PermissionError):
        private_dir(str(link), os.getuid())


def test_waiting_for_a_busy_server_counts_against_the_timeout(warm, parse_events) -> None:
    """Calls to one server take turns; a call that cannot get its turn within its own
    timeout ends with ETIMEDOUT, and the server is there for the next call once free."""
    warm.set_driver("pid", timeout="1")
    hang = subprocess.Popen(
        [str(warm.tool("hang"))], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, env=warm.env
    )
    deadline = time.monotonic() + 20
    while "child " not in warm.pids():
        assert time.monotonic() < deadline, "the hang tool never started"
        time.sleep(0.05)
    begun = time.monotonic()
    waited = warm.call("pid")
    assert time.monotonic() - begun < 8
    assert waited.returncode == 69
    assert parse_events(waited.stdout)[-2]["errno"] == "ETIMEDOUT"
    assert parse_events(waited.stdout)[-2]["message"].endswith("busy past 1 s")
    hang.send_signal(signal.SIGTERM)
    hang.communicate(timeout=20)
    after = warm.call("pid")
    assert after.returncode == 0, after.stdout


def test_a_host_in_either_place_is_found_before_another_starts(tmp_path, monkeypatch) -> None:
    """/run/user/<uid> appears with the uid's first login: a host started before it
    listens under /tmp. The next runner, and the next agent's supervisor, looked only
    where a new host would go now, and started a second host (with its own servers)
    beside the first; sandboxed agents of one uid then saw two servers."""
    import socket as sockets

    from cortexfs.broker import warm_host
    from cortexfs.launch.identity import Identity
    from cortexfs.warm import handoff
    from cortexfs.warm.paths import SOCKET, host_dirs

    uid = os.getuid()
    preferred, fallback = tmp_path / "run-user", tmp_path / "tmp"
    for where in (handoff, warm_host):
        monkeypatch.setattr(where, "host_dirs", lambda _uid: [str(preferred), str(fallback)])
    fallback.mkdir(mode=0o700)
    started: list[str] = []
    monkeypatch.setattr(handoff, "_start_host", started.append)
    with sockets.socket(sockets.AF_UNIX, sockets.SOCK_STREAM) as first:
        first.bind(str(fallback / SOCKET))
        first.listen(4)
        runner_side = handoff._host(uid, None)
        assert runner_side is not None
        runner_side.close()
        identity = Identity(uid, os.getgid(), (), 0o022)
        supervisor_side = warm_host.WarmHost(identity, {}, (), None)
        monkeypatch.setattr(supervisor_side, "_start", lambda: started.append("supervisor"))
        assert supervisor_side.ensure() == str(fallback / SOCKET)
    assert started == []
    assert host_dirs(uid)[-1].startswith(f"/tmp/cortexfs-calls-{uid}/")
