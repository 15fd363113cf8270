"""One `call`: resolve, authorise, run as the agent, stream the events back."""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import selectors
import signal
import socket
import subprocess
from typing import TYPE_CHECKING, Any

from cortexfs.broker import agent_create
from cortexfs.broker.calls import (
    authorise,
    call_schema,
    driver_path,
    resolve,
    shown,
    trusted_env,
)
from cortexfs.broker.protocol import reply
from cortexfs.errors import EXIT_INTERNAL, EXIT_UNAVAILABLE, CtxError
from cortexfs.events import EventWriter
from cortexfs.jsonl_socket import Conn
from cortexfs.launch.host import python_command
from cortexfs.launch.identity import Identity

if TYPE_CHECKING:
    from cortexfs.broker.server import BrokerAgent

_TERM_GRACE = 2.0


class _Frames:
    """A text stream for EventWriter whose lines become `event` frames on the socket."""

    def __init__(self, conn: Conn, ident: object) -> None:
        self.conn = conn
        self.ident = ident
        self.done = False

    def write(self, line: str) -> int:
        event = json.loads(line)
        self.done = self.done or event.get("type") == "done"
        self.conn.send(reply("event", self.ident, event=event))
        return len(line)

    def flush(self) -> None:
        return None


def child_env(uid: int) -> dict[str, str]:
    try:
        entry = pwd.getpwuid(uid)
        home, user = entry.pw_dir, entry.pw_name
    except KeyError:
        home, user = "/", f"u{uid}"
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": home,
            "USER": user, "LOGNAME": user}  # fmt: skip


def credentials(identity: Identity, switch: bool) -> dict[str, Any]:
    if not switch:
        return {"umask": identity.umask}
    return {"user": identity.uid, "group": identity.gid,
            "extra_groups": list(identity.groups), "umask": identity.umask}  # fmt: skip


def _peer_gone(sock: socket.socket) -> bool:
    try:
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def _relay(proc: subprocess.Popen[bytes], conn: Conn, frames: _Frames) -> None:
    """Child stdout lines become event frames; a caller that hangs up cancels the call."""
    assert proc.stdout is not None
    with selectors.DefaultSelector() as selector:
        selector.register(proc.stdout, selectors.EVENT_READ, "child")
        selector.register(conn.sock, selectors.EVENT_READ, "peer")
        while True:
            for key, _ in selector.select():
                if key.data == "peer" and _peer_gone(conn.sock):
                    _stop(proc)
                    return
                if key.data == "child":
                    line = proc.stdout.readline()
                    if not line:
                        return
                    with contextlib.suppress(ValueError):
                        frames.write(line.decode("utf-8", "replace"))


def _stop(proc: subprocess.Popen[bytes]) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(_TERM_GRACE)
            return
        except subprocess.TimeoutExpired:
            continue


def _spawn(job: dict[str, Any], stdin: int | None, agent: BrokerAgent) -> subprocess.Popen[bytes]:
    identity = agent.identity
    read_end, write_end = os.pipe()
    try:
        proc = subprocess.Popen(
            [*agent.limit, *python_command("cortexfs.broker.exec_child"), str(read_end)],
            stdin=stdin if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, pass_fds=(read_end,),
            env=child_env(identity.uid), cwd="/", start_new_session=True,
            **credentials(identity, agent.switch_credentials),
        )  # fmt: skip
    finally:
        os.close(read_end)
    with os.fdopen(write_end, "wb") as handle, contextlib.suppress(BrokenPipeError):
        handle.write(json.dumps(job).encode())
    return proc


def _bad_request(frame: dict[str, Any]) -> str | None:
    target, args = frame.get("object"), frame.get("args", [])
    if not isinstance(target, str) or not target:
        return "call needs object: a name or a /ctx path"
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        return "call args must be a list of strings"
    return None


def _refused(writer: EventWriter, exc: CtxError, ctx_host: str) -> int:
    writer.error(exc.errno_name, shown(ctx_host, exc.message))
    writer.done(exc.exit_code)
    return exc.exit_code


def _decide_and_run(
    frames: _Frames, frame: dict[str, Any], stdin: int | None, agent: BrokerAgent
) -> int:
    writer = EventWriter(frames)  # type: ignore[arg-type]
    ctx_host = agent.ctx_host
    env = trusted_env(ctx_host, agent.ref, agent.identity.uid)
    try:
        resolved = resolve(env, frame["object"])
    except CtxError as exc:
        return _refused(writer, exc, ctx_host)
    header = resolved.header
    writer.start(resolved.shown, header.name, header.object_class.value)
    try:
        driver = authorise(env, resolved)
    except CtxError as exc:
        return _refused(writer, exc, ctx_host)
    if driver.get("kind") == agent_create.KIND:
        return agent_create.run_create(writer, frame.get("args", []), stdin, agent)
    job = {"driver": driver, "where": driver_path(resolved), "args": frame.get("args", []),
           "schema": call_schema(resolved, driver)}  # fmt: skip
    if agent.warm is not None and driver.get("kind") == "mcp":
        job["host"] = agent.warm()  # the uid's warm host, outside this agent's cgroup
    try:
        proc = _spawn(job, stdin, agent)
    except OSError as exc:
        writer.error("EIO", f"cannot start the call: {exc.strerror}")
        writer.done(EXIT_UNAVAILABLE)
        return EXIT_UNAVAILABLE
    _relay(proc, frames.conn, frames)
    code = proc.wait()
    if not frames.done:
        writer.error("EIO", "the call ended without a result")
        code = code if code > 0 else EXIT_INTERNAL
        writer.done(code)
    return code


def run_call(conn: Conn, frame: dict[str, Any], agent: BrokerAgent) -> None:
    ident = frame.get("id")
    stdin = conn.take_fd() if frame.get("stdin") is True else None
    try:
        problem = _bad_request(frame)
        if problem:
            conn.send(reply("error", ident, errno="EINVAL", message=problem))
            return
        frames = _Frames(conn, ident)
        code = _decide_and_run(frames, frame, stdin, agent)
        conn.send(reply("result", ident, exit_code=code))
    finally:
        if stdin is not None:
            os.close(stdin)
