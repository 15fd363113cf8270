"""Issue 23's hardening, each on a live mount: what a probe found, refused now."""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from fake_mcp import server_source
from oserrors import err

from cortexfs.ctl_write import write_control
from cortexfs.errors import BadInput

OTHER_UID = 4242
THIRD_UID = 4343
# A uid no sandbox test uses: /run/user/<uid> appears briefly while a test listens there.
LONE_UID = 4545
DEEP = b"[" * 30000


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


def test_secret_controls_are_owner_only(ctx_mount, unique: str, as_uid) -> None:
    agent = ctx_mount.root / "agent" / f"{unique}.d"
    tool = ctx_mount.root / "tool" / f"{unique}.d"
    assert as_uid(OTHER_UID, lambda: os.mkdir(agent)) == 0
    os.mkdir(tool)
    assert as_uid(OTHER_UID, lambda: write_whole(agent / "env", b"API_KEY=sk-1\n")) == 0
    (tool / "driver").write_bytes(b'kind=exec\ncommand=["/bin/echo","--token=t0"]\n')
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in (agent / "env", tool / "driver")}
    assert modes == {"env": 0o600, "driver": 0o600}
    assert stat.S_IMODE((agent / "policy").stat().st_mode) == 0o644
    read = Path.read_bytes
    assert as_uid(THIRD_UID, lambda: read(agent / "env")) == errno.EACCES
    assert as_uid(OTHER_UID, lambda: read(tool / "driver")) == errno.EACCES
    assert as_uid(OTHER_UID, lambda: read(agent / "policy")) == 0
    assert as_uid(OTHER_UID, lambda: read(agent / "env")) == 0
    assert (agent / "env").read_bytes() == b"API_KEY=sk-1\n"  # root, the administrator


def test_runtime_state_is_the_daemons(ctx_mount, unique: str, as_uid, listening) -> None:
    agents = ctx_mount.root / "agent"
    controls = agents / f"{unique}.d"
    assert as_uid(LONE_UID, lambda: os.mkdir(controls)) == 0
    for control in ("pid", "status", "log"):
        # log is 0644: its owner may append (O_APPEND, test_cortexfs_mcp_warm.py), which
        # the daemon does; a rewrite meets the daemon's EROFS instead of the mode bits.
        appendable = control == "log"
        assert stat.S_IMODE((controls / control).stat().st_mode) == (0o644 if appendable else 0o444)
        for who in (LONE_UID, 0):
            # The owner meets the 0444 mode bits; root, who ignores them, the daemon.
            refusal = errno.EROFS if who == 0 or appendable else errno.EACCES
            assert as_uid(who, lambda c=control: write_whole(controls / c, b"1\n")) == refusal
            forged = lambda c=control: write_control(str(controls / c), b"1\n")  # noqa: E731
            assert as_uid(who, forged) != 0
    assert (controls / "pid").read_bytes() == b""
    assert (controls / "status").read_bytes() == b"stopped\n"
    own = f"/run/user/{LONE_UID}/cortexfs/agent/{unique}.sock"
    assert as_uid(LONE_UID, lambda: os.symlink(own, agents / f"{unique}.sock")) == 0
    # Something listening on another agent's socket (or by another uid) proves nothing.
    with listening(f"/run/cortexfs/agent/{unique}x.sock"):
        assert (controls / "status").read_bytes() == b"stopped\n"
    with listening(own):  # root listens where only LONE_UID's supervisor would
        assert (controls / "status").read_bytes() == b"stopped\n"
        assert as_uid(LONE_UID, lambda: os.unlink(agents / unique)) == 0
    assert not controls.exists()


def test_a_live_supervisor_shows_and_pins_the_agent(ctx_mount, unique, listening) -> None:
    agents = ctx_mount.root / "agent"
    controls = agents / f"{unique}.d"
    os.mkdir(controls)
    os.symlink(f"/run/cortexfs/agent/{unique}.sock", agents / f"{unique}.sock")
    with listening(f"/run/cortexfs/agent/{unique}.sock"):
        assert (controls / "status").read_bytes() == b"running\n"
        assert (controls / "pid").read_bytes() == f"{os.getpid()}\n".encode()
        assert (controls / "pid").stat().st_size == len(f"{os.getpid()}\n")
        assert err(lambda: os.unlink(agents / unique)) == errno.EBUSY
    assert (controls / "status").read_bytes() == b"stopped\n"
    assert (controls / "pid").read_bytes() == b""
    os.unlink(agents / unique)


def test_identity_env_and_tools_are_checked_on_write(ctx_mount, unique: str, as_uid) -> None:
    controls = ctx_mount.root / "agent" / f"{unique}.d"
    assert as_uid(OTHER_UID, lambda: os.mkdir(controls)) == 0

    def writes(control: str, data: bytes, groups: tuple[int, ...] = ()) -> int:
        return as_uid(OTHER_UID, lambda: write_whole(controls / control, data), groups)

    assert writes("gid", b"0\n") == errno.EACCES
    assert writes("groups", b"0\n27\n") == errno.EACCES
    assert writes("groups", b"4300\n") == errno.EACCES
    assert writes("groups", b"4300\n", groups=(4300,)) == 0  # a group the writer is in
    assert writes("gid", b"4300\n", groups=(4300,)) == 0
    assert writes("gid", b"4242\n") == 0
    assert writes("groups", b"wheel\n") == errno.EINVAL
    assert writes("env", b"LD_PRELOAD=/tmp/evil.so\n") == errno.EINVAL
    assert writes("env", b"CTX_AGENT=coder\n") == errno.EINVAL
    assert writes("env", b"API_BASE=https://example.test\n") == 0
    assert writes("tools", b"../x\n") == errno.EINVAL
    assert writes("tools", b"calc.add\n") == 0
    values = {c: (controls / c).read_bytes() for c in ("gid", "groups", "env", "tools")}
    assert values == {
        "gid": b"4242\n", "groups": b"4300\n", "env": b"API_BASE=https://example.test\n",
        "tools": b"calc.add\n",
    }  # fmt: skip
    # Root provisions agents for other identities.
    assert err(lambda: write_whole(ctx_mount.root / "agent" / "coder.d" / "groups", b"0\n")) == 0
    (ctx_mount.root / "agent" / "coder.d" / "groups").write_bytes(b"")


def test_labels_are_checked_against_types_in_use(ctx_mount, unique: str, as_uid) -> None:
    agents = ctx_mount.root / "agent"
    mine, theirs = agents / f"{unique}.d", agents / f"{unique}b.d"
    assert as_uid(OTHER_UID, lambda: os.mkdir(mine)) == 0
    assert as_uid(THIRD_UID, lambda: os.mkdir(theirs)) == 0
    assert (mine / "label").read_bytes() == f"user_u:agent_r:u{OTHER_UID}_agent_t:s0\n".encode()
    assert (theirs / "label").read_bytes() == f"user_u:agent_r:u{THIRD_UID}_agent_t:s0\n".encode()

    def label(who: int, where: Path, kind: str) -> int:
        text = f"user_u:agent_r:{kind}:s0\n".encode()
        return as_uid(who, lambda: write_whole(where / "label", text))

    assert label(OTHER_UID, mine, "coder_t") == errno.EACCES  # the reference agent's: root's
    assert label(OTHER_UID, mine, f"u{THIRD_UID}_agent_t") == errno.EACCES
    assert label(OTHER_UID, mine, f"{unique}_t") == 0
    assert label(THIRD_UID, theirs, f"{unique}_t") == errno.EACCES  # now OTHER_UID's
    (ctx_mount.root / "tool" / f"{unique}.d").mkdir()
    policy = f"allow {unique}_sys_t tool:{unique} execute\n".encode()
    (ctx_mount.root / "tool" / f"{unique}.d" / "policy").write_bytes(policy)
    assert label(THIRD_UID, theirs, f"{unique}_sys_t") == errno.EACCES  # a system grant
    assert as_uid(OTHER_UID, lambda: write_whole(mine / "label", b"nolabel\n")) == errno.EINVAL
    assert (mine / "label").read_bytes() == f"user_u:agent_r:{unique}_t:s0\n".encode()
    assert label(0, agents / "coder.d", "coder_t") == 0  # root labels with any type


def test_the_reference_tree_is_immutable(ctx_mount, as_uid) -> None:
    root = ctx_mount.root
    docs = root / "shared" / "cortexfs-docs"
    refused = {
        "unlink model/helper": lambda: os.unlink(root / "model" / "helper"),
        "unlink model/debug/echo": lambda: os.unlink(root / "model" / "debug" / "echo"),
        "unlink agent/coder": lambda: os.unlink(root / "agent" / "coder"),
        "unlink the state": lambda: os.unlink(root / "bin" / "cortexfs.bootstrap.json"),
        "unlink the man page": lambda: os.unlink(docs / "man" / "cortexfs.7"),
        "rewrite the man page": lambda: (docs / "man" / "cortexfs.7").write_text("x\n"),
        "add to the docs": lambda: (docs / "notes.txt").write_text("x\n"),
        "mkdir in the docs": lambda: os.mkdir(docs / "more"),
        "rmdir the docs": lambda: os.rmdir(docs / "man"),
        "rename the docs": lambda: os.rename(docs / "man", docs / "woman"),
        "chmod the docs": lambda: os.chmod(docs, 0o700),
    }
    assert {what: err(action) for what, action in refused.items()} == dict.fromkeys(
        refused, errno.EROFS
    )
    modes = {p: stat.S_IMODE((docs / p).stat().st_mode) for p in (".", "man", "man/cortexfs.7")}
    assert modes == {".": 0o755, "man": 0o755, "man/cortexfs.7": 0o644}
    page = (docs / "man" / "cortexfs.7").read_bytes()
    assert page.startswith(b"CORTEXFS(7)\n")
    assert as_uid(OTHER_UID, lambda: (docs / "man" / "cortexfs.7").read_bytes()) == 0
    assert as_uid(OTHER_UID, lambda: os.listdir(docs / "man")) == 0


def test_doctor_sees_and_a_remount_repairs_the_reference_tree(fresh_mount, remount, run):
    storage = fresh_mount.storage
    ctx = str(Path(sys.executable).parent / "ctx")
    os.unlink(storage / "model" / "helper")  # behind the mount's back
    shutil.rmtree(storage / "shared" / "cortexfs-docs" / "man")
    os.chmod(storage / "shared" / "cortexfs-docs", 0o700)  # as an older bootstrap made it
    os.unlink(storage / "agent" / "coder")
    time.sleep(1.2)  # the kernel's entry cache (1 s) forgets them
    doctor = run([ctx, "doctor"], fresh_mount.env())
    assert doctor.returncode == 1
    assert "fail reference-tree: missing /model/helper, /agent/coder, " in doctor.stdout.decode()
    subprocess.run(["fusermount3", "-u", str(fresh_mount.root)], timeout=20, check=True)
    assert fresh_mount.proc.wait(timeout=10) == 0
    again = remount(fresh_mount)
    assert again.log.read_text().splitlines() == [
        f"cortexfs-mount: restored reference entry {path}"
        for path in ("model/helper", "agent/coder", "shared/cortexfs-docs",
                     "shared/cortexfs-docs/man", "shared/cortexfs-docs/man/cortexfs.7")
    ]  # fmt: skip
    assert os.readlink(again.root / "model" / "helper") == "/ctx/model/debug/echo"
    assert (again.root / "agent" / "coder").read_text().splitlines()[1:] == [
        "# cortexfs.object=agent", "# cortexfs.name=coder",
    ]  # fmt: skip
    assert stat.S_IMODE((again.root / "shared" / "cortexfs-docs").stat().st_mode) == 0o755
    healthy = run([ctx, "doctor"], again.env())
    assert healthy.returncode == 0, healthy.stdout
    assert "ok reference-tree" in healthy.stdout.decode().splitlines()


def test_xattrs_say_what_each_path_is(ctx_mount, unique: str, listening) -> None:
    root = ctx_mount.root
    agents = root / "agent"
    os.mkdir(agents / f"{unique}.d")
    os.symlink(f"/run/cortexfs/agent/{unique}.sock", agents / f"{unique}.sock")
    names = ("kind", "origin", "mime_type", "cache_policy")

    def attrs(path: Path) -> tuple[str, ...]:
        return tuple(os.getxattr(path, f"user.cortexfs.{n}").decode() for n in names)

    got = {
        rel: attrs(root / rel)
        for rel in (
            "bin/cortexfs.bootstrap.json", "bin/ctx", "model/route", "agent/coder.d",
            "agent/coder.d/perm", "agent/coder.d/meta.json", "status",
            "shared/cortexfs-docs/man/cortexfs.7", f"agent/{unique}.d/status",
        )
    }  # fmt: skip
    assert got == {
        "bin/cortexfs.bootstrap.json": ("ctx.bin.data", "disk", "application/json", "keep"),
        "bin/ctx": ("ctx.bin.exec", "disk", "application/x-cortexfs-object", "keep"),
        "model/route": ("ctx.model.data", "disk", "text/plain; charset=utf-8", "keep"),
        "agent/coder.d": ("ctx.agent.controls", "disk", "inode/directory", "reread"),
        "agent/coder.d/perm": ("ctx.agent.control", "disk", "text/plain; charset=utf-8",
                               "reread"),
        "agent/coder.d/meta.json": ("ctx.agent.control", "disk", "application/json", "reread"),
        "status": ("ctx.status", "virtual", "text/plain; charset=utf-8", "keep"),
        "shared/cortexfs-docs/man/cortexfs.7": ("ctx.shared.file", "disk", "text/troff", "keep"),
        f"agent/{unique}.d/status": ("ctx.agent.control", "virtual", "text/plain; charset=utf-8",
                                     "direct"),
    }  # fmt: skip
    status = agents / f"{unique}.d" / "status"
    assert os.getxattr(status, "user.cortexfs.bytes") == b"8"  # "stopped\n"
    assert os.getxattr(root / "status", "user.cortexfs.storage") == b"storage"
    assert os.getxattr(root / "status", "user.cortexfs.cache_ttl_ms") == b"1000"
    with listening(f"/run/cortexfs/agent/{unique}.sock"):
        assert os.getxattr(status, "user.cortexfs.bytes") == b"8"  # "running\n"
        pid = agents / f"{unique}.d" / "pid"
        assert os.getxattr(pid, "user.cortexfs.bytes") == str(len(f"{os.getpid()}\n")).encode()
    assert "user.cortexfs.context_tokens" not in os.listxattr(root / "status")


def test_ctx_set_takes_values_that_look_like_options(ctx_mount, unique: str, run) -> None:
    ctx = str(Path(sys.executable).parent / "ctx")
    os.mkdir(ctx_mount.root / "agent" / f"{unique}.d")
    perm = f"agent/{unique}.d/perm"
    for argv, value in (
        ([perm, "--x"], b"--x\n"),
        ([perm, "-w-"], b"-w-\n"),
        ([perm, "--", "r--"], b"r--\n"),
        ([f"agent/{unique}.d/path", "-a", "--", "--b"], b"-a\n--b\n"),
    ):
        result = run([ctx, "set", *argv], ctx_mount.env())
        assert (result.returncode, result.stderr) == (0, b""), argv
        assert (ctx_mount.root / argv[0]).read_bytes() == value
    bad = run([ctx, "set", perm, "--z"], ctx_mount.env())
    assert bad.returncode == 2
    assert bad.stderr == f"ctx: {ctx_mount.root}/{perm}: EINVAL (Invalid argument)\n".encode()


CRASHING_SERVER = server_source(
    "crash",
    r"""
import os
TOOLS = [{"name": "boom", "inputSchema": {"type": "object"}}]
def call(name, arguments):
    os._exit(3)  # dies mid-call
""",
)


def test_a_crashed_mcp_server_is_econnreset(tmp_path: Path) -> None:
    """At the session, which both the cold path and the uid's warm host use (a warm host
    is shared by every run of this uid, so a call through the mount may meet one
    started from other code)."""
    from cortexfs.errors import ConnectionLost
    from cortexfs.mcp_client import McpSession

    server = tmp_path / "crash.py"
    server.write_text(CRASHING_SERVER)
    with McpSession([sys.executable, str(server)]) as session:
        session.initialize()
        with pytest.raises(ConnectionLost, match="MCP server closed its output") as lost:
            session.call_tool("boom", {})
    assert (lost.value.errno_name, lost.value.exit_code) == ("ECONNRESET", 69)


def test_an_agent_that_hangs_up_is_econnreset(tmp_path: Path) -> None:
    from cortexfs.agent_runtime.client import request, stream
    from cortexfs.errors import ConnectionLost

    path = str(tmp_path / "agent.sock")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(4)

    def hang_up() -> None:
        for _ in range(2):
            conn, _ = server.accept()
            conn.recv(4096)  # the client's ping: a live agent answers it
            conn.sendall(b'{"type": "pong"}\n')
            conn.recv(4096)
            conn.close()

    thread = threading.Thread(target=hang_up)
    thread.start()
    try:
        with pytest.raises(ConnectionLost, match="the agent closed the connection") as closed:
            request(path, {"op": "status"})
        assert closed.value.errno_name == "ECONNRESET"
        assert closed.value.exit_code == 69
        with pytest.raises(ConnectionLost, match="the agent went away during the turn"):
            list(stream(path, {"op": "send", "id": "t1", "input": "hi"}))
    finally:
        thread.join(10)
        server.close()


def test_an_agent_that_does_not_accept_is_etimedout(tmp_path: Path) -> None:
    from cortexfs.agent_runtime.client import open_agent
    from cortexfs.errors import TimedOut

    path = str(tmp_path / "stuck.sock")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(0)  # never accepts: the backlog fills
    queued = []
    try:
        with pytest.raises(TimedOut, match=r"the agent did not accept within 0\.3 s") as late:
            for _ in range(8):
                queued.append(open_agent(path, timeout=0.3))
        assert (late.value.errno_name, late.value.exit_code) == ("ETIMEDOUT", 69)
    finally:
        for conn in queued:
            conn.close()
        server.close()


class _Hung(BaseException):
    """Raised by the alarm: what the code under test would otherwise wait on forever."""


def _within(seconds: float, action: Callable[[], object]) -> float:
    """Run `action`, failing the test if it takes `seconds`; how long it took."""

    def alarm(_signum: int, _frame: object) -> None:
        raise _Hung(f"still waiting after {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    start = time.monotonic()
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        action()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return time.monotonic() - start


def test_a_listener_nobody_accepts_on_fails_within_the_timeout(tmp_path: Path) -> None:
    """connect() succeeds while the backlog has room, so a supervisor whose accept
    thread died looked like an agent that takes its time: `send` waited forever."""
    from cortexfs.agent_runtime.client import open_agent
    from cortexfs.errors import TimedOut

    path = str(tmp_path / "deaf.sock")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(8)  # room in the backlog, and nothing accepts

    def connect() -> None:
        with pytest.raises(TimedOut) as late:
            open_agent(path, timeout=0.3)
        assert str(late.value) == (
            f"{path}: the agent did not accept within 0.3 s (its supervisor, pid "
            f"{os.getpid()}, is running but does not serve its socket)"
        )
        assert late.value.exit_code == 69

    try:
        assert _within(5, connect) < 2
    finally:
        server.close()


def test_a_socket_whose_supervisor_is_gone_fails_at_once(tmp_path: Path) -> None:
    """A listener can outlive the supervisor that made it (a forked child holds it):
    SO_PEERCRED names the supervisor, and a gone one is said at once."""
    from cortexfs.agent_runtime.client import request, stream
    from cortexfs.errors import Unavailable

    path = str(tmp_path / "orphan.sock")
    hold_read, hold_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child: listens, leaves the listener to a child, exits
        try:
            server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            server.bind(path)
            server.listen(8)
            if os.fork() == 0:
                os.close(hold_write)
                os.read(hold_read, 1)  # holds the listener until the test closes the pipe
        finally:
            os._exit(0)
    os.close(hold_read)
    os.waitpid(pid, 0)
    expected = f"{path}: agent is not running (its supervisor, pid {pid}, is gone)"
    try:
        send = {"op": "send", "id": "t1", "input": "hi"}
        for call in (lambda: request(path, {"op": "status"}), lambda: list(stream(path, send))):

            def refused(call: Callable[[], object] = call) -> None:
                with pytest.raises(Unavailable) as gone:
                    call()
                assert str(gone.value) == expected
                assert gone.value.exit_code == 69

            assert _within(5, refused) < 1
    finally:
        os.close(hold_write)


def test_deep_json_frames_and_replies_are_refused_not_recursed() -> None:
    """Agent sockets and the broker read frames a sandbox writes; MCP replies come from
    a server: deep nesting is an ordinary refusal there too."""
    from cortexfs.jsonl_socket import Conn, FrameError

    mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    with mine, theirs:
        theirs.sendall(DEEP + b"\n" + b'{"op": "ping"}\n')
        conn = Conn(mine)
        with pytest.raises(FrameError, match="JSON nested 30000 deep") as bad:
            conn.recv()
        assert bad.value.errno_name == "EINVAL"
        assert conn.recv() == {"op": "ping"}  # the stream goes on


def test_deep_mcp_reply_is_an_internal_error(tmp_path: Path) -> None:
    from cortexfs.errors import Internal
    from cortexfs.mcp_client import McpSession

    server = tmp_path / "deep.py"
    server.write_text(
        "import sys\nfor line in sys.stdin:\n"
        '    print(\'{"jsonrpc": "2.0", "id": 1, "result": \' + \'[\' * 30000, flush=True)\n'
    )
    session = McpSession([sys.executable, str(server)])
    with session, pytest.raises(Internal, match="MCP server sent invalid JSON"):
        session.initialize()


def test_a_tool_whose_mcp_server_crashes_is_econnreset(ctx_mount, unique, run, parse_events,
                                                        tmp_path):  # fmt: skip
    server = tmp_path / "crash.py"
    server.write_text(CRASHING_SERVER)
    server.chmod(0o644)
    tool, agent = f"{unique}.boom", f"{unique}a"
    tools, agents = ctx_mount.root / "tool", ctx_mount.root / "agent"
    os.mkdir(tools / f"{tool}.d")
    os.mkdir(agents / f"{agent}.d")
    command = json.dumps([sys.executable, str(server)])
    (tools / f"{tool}.d" / "driver").write_text(f"kind=mcp\ntool=boom\ncommand={command}\n")
    rule = f"allow {unique}_t tool:{tool} execute\n"
    (tools / f"{tool}.d" / "policy").write_text(rule)
    (agents / f"{agent}.d" / "policy").write_text(rule)
    (agents / f"{agent}.d" / "label").write_text(f"user_u:agent_r:{unique}_t:s0\n")
    (agents / f"{agent}.d" / "tools").write_text(f"{tool}\n")
    result = run([str(tools / tool), "{}"], ctx_mount.env(CTX_AGENT=agent))
    assert result.returncode == 69, result.stdout + result.stderr
    got = parse_events(result.stdout)
    assert got[-2]["errno"] == "ECONNRESET", got
    assert got[-1] == {"type": "done", "status": "error", "exit_code": 69}
