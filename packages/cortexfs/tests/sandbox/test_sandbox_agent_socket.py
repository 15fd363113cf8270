"""The agent socket (ping/send/resume/status/cancel/stop as JSONL), sessions and stop."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from cortexfs.agent_runtime import procs
from cortexfs.ctl_write import write_control


def talk(path: str, *frames: bytes, uid: int | None = None) -> list[dict]:
    """Send raw frames and read one reply line each (as `uid`, in a child, if given)."""
    if uid is None:
        with socket.socket(socket.AF_UNIX) as sock:
            sock.connect(path)
            replies = sock.makefile("rb")
            out = []
            for frame in frames:
                sock.sendall(frame)
                out.append(json.loads(replies.readline()))
            return out
    code = (
        "import socket, sys\n"
        "s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])\n"
        "print(s.makefile().readline(), end='')\n"
    )
    done = subprocess.run(
        ["python3", "-c", code, path],
        capture_output=True,
        text=True,
        user=uid,
        group=uid,
        extra_groups=[],
        timeout=30,
        check=False,
    )
    return [json.loads(done.stdout)]


@pytest.fixture
def shell_agent(world, make_agent):
    """An agent whose hosted command is /bin/sh: each turn's input is its script."""
    agent = make_agent(
        "mount:workspace write", "mount:fake read", extra=("--mount", world.fake_row())
    )
    agent.start("/bin/sh")
    return agent


def test_ping_errors_and_peer_check(world, shell_agent) -> None:
    path = str(world.ctx / "agent" / f"{shell_agent.name}.sock")
    assert os.readlink(path) == f"/run/cortexfs/agent/{shell_agent.name}.sock"
    ping, unknown, bad_json, no_turn = (
        talk(
            path,
            b'{"op": "ping", "id": 7, "extra": true}\n',
            b'{"op": "fly"}\n',
            b"{nope\n",
        )[:2]
        + talk(path, b"{nope\n")
        + talk(path, b'{"op": "resume", "id": "nope"}\n')
    )
    assert ping == {"type": "pong", "id": 7}
    assert (unknown["errno"], bad_json["errno"], no_turn["errno"]) == ("EINVAL", "EINVAL", "ENOENT")
    huge = talk(path, b'{"op": "ping", "pad": "' + b"x" * (1 << 20) + b'"}\n')[0]
    assert huge["errno"] == "EMSGSIZE"
    stranger = talk(path, uid=4343)[0]
    assert (stranger["type"], stranger["errno"]) == ("error", "EACCES")


def test_send_is_idempotent_per_id_and_resumable(world, shell_agent) -> None:
    counter = world.workspace / f"count-{shell_agent.name}"
    script = f"echo run >> /workspace/{counter.name}; echo hello\n"
    first = shell_agent.events(script, "--id", "turn-1")
    again = shell_agent.events(script, "--id", "turn-1")
    assert [e["type"] for e in first] == ["start", "delta", "done"]
    assert first[-1] == {"type": "done", "id": "turn-1", "status": "ok", "exit_code": 0}
    assert again == first
    assert counter.read_text() == "run\n"
    path = str(world.ctx / "agent" / f"{shell_agent.name}.sock")
    resumed = talk(path, b'{"op": "resume", "id": "turn-1"}\n')
    assert resumed[0] == first[0]
    failing = shell_agent.send("echo partial; exit 3\n")
    assert failing.returncode == 3
    assert json.loads(failing.stdout.splitlines()[-1])["status"] == "error"


def test_sessions_index(world, shell_agent) -> None:
    rules = ("mount:workspace write", "mount:fake read", "session:a write", "session:b write")
    write_control(str(shell_agent.controls / "policy"), shell_agent.policy(*rules))
    for session in ("b", "a"):
        assert shell_agent.send(f"echo in {session}\n", "--session", session).returncode == 0
    assert shell_agent.send("echo once\n", "--temp", "--session", "gone").returncode == 0
    home = world.ctx / "home" / str(world.uid) / "agent" / shell_agent.name
    index = home / "session" / "index"
    assert (index / "list").read_text() == "a\nb\n"
    assert (index / "current").read_text() == "a\n"
    assert sorted(p.name for p in (home / "session").iterdir()) == ["a", "b", "index"]
    session = home / "session" / "a"
    assert (session / "state").read_text() == "done\n"
    assert (session / "cwd").read_text() == "/workspace\n"
    assert (session / "latest.md").read_text() == "in a\n"
    messages = [json.loads(line) for line in (session / "messages.jsonl").read_text().splitlines()]
    assert [(m["role"], m["text"]) for m in messages] == [
        ("user", "echo in a\n"),
        ("assistant", "in a\n"),
    ]
    events = [json.loads(line) for line in (session / "events.jsonl").read_text().splitlines()]
    assert [e["type"] for e in events] == ["start", "delta"]
    meta = json.loads((session / "meta.json").read_text())
    assert (index / "by-uuid" / meta["uuid"]).read_text() == "a\n"
    (by_cwd,) = (index / "by-cwd").iterdir()
    assert by_cwd.read_text() == "a\n" and not by_cwd.is_symlink()
    assert by_cwd.name == hashlib.sha256(b"/workspace").hexdigest()[:32]
    by_hash = sorted(p.name for p in (index / "by-hash").iterdir())
    assert by_hash == sorted(
        hashlib.sha256(t).hexdigest()[:32] for t in (b"echo in a\n", b"echo in b\n")
    )
    assert (
        index / "by-hash" / hashlib.sha256(b"echo in b\n").hexdigest()[:32]
    ).read_text() == "b\n"
    assert {p.stat().st_uid for p in session.iterdir()} == {world.uid}
    assert sorted(p.name for p in home.iterdir()) == ["cache", "data", "log", "session"]


def dead(pid: int) -> bool:
    """Gone, or a zombie its (init) reaper has not collected yet."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return True
    return raw[raw.rfind(b")") + 2 : raw.rfind(b")") + 3] == b"Z"


def _wait(predicate, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_cancel_signals_the_process_group(world, shell_agent) -> None:
    hold = world.workspace / f"hold-{shell_agent.name}"
    hold.mkdir(mode=0o777)
    hold.chmod(0o777)
    result: dict = {}

    def send() -> None:
        result["events"] = shell_agent.events(
            f"exec /opt/fake/fake-cli hold /workspace/{hold.name}\n", "--id", "long"
        )

    thread = threading.Thread(target=send)
    thread.start()
    _wait(lambda: any(p.name.startswith("pids-") for p in hold.iterdir()))
    (turn,) = [t for t in shell_agent.status()["turns"] if t["id"] == "long"]
    tree = [turn["pid"], *procs.descendants(turn["pid"])]
    assert len(tree) >= 5  # prlimit/setpriv/bwrap, bwrap's init, ctxterm, the CLI, its child
    assert world.ok("agent", "cancel", shell_agent.name, "long") == "cancelled long\n"
    thread.join(30)
    assert result["events"][-1]["status"] == "cancelled"
    assert [p.name.split("-")[0] for p in sorted(hold.iterdir())] == ["pids", "term"]
    _wait(lambda: all(dead(pid) for pid in tree), timeout=5)
    session = world.ctx / "home" / str(world.uid) / "agent" / shell_agent.name / "session"
    assert (session / "default" / "state").read_text() == "idle\n"


def test_stop_ends_everything_and_start_twice_is_refused(world, make_agent) -> None:
    agent = make_agent("mount:fake read", extra=("--mount", world.fake_row()))
    agent.start("/bin/sh")
    again = world.ctx_cmd("agent", "start", agent.name, "--", "/bin/sh")
    assert again.returncode == 1
    assert b"already running" in again.stderr
    status = agent.status()
    pid, cgroup = status["pid"], status["cgroup"]
    assert (agent.controls / "status").read_text() == "running\n"
    assert (agent.controls / "pid").read_text() == f"{pid}\n"
    assert Path(cgroup).is_dir()
    assert agent.stop() == f"stopped {agent.name}\n"
    assert dead(pid)
    assert not Path(cgroup).exists()
    assert not Path(f"/run/cortexfs/agent/{agent.name}.sock").exists()
    assert (agent.controls / "status").read_text() == "stopped\n"
    assert (agent.controls / "pid").read_text() == ""
    assert agent.status()["state"] == "stopped"
    down = agent.send("echo hi\n")
    assert down.returncode == 69
    assert b"agent is not running" in down.stderr
