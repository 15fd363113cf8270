"""The agent socket: JSONL requests from the agent's owner (or root), one reply stream each.

    {"op": "ping"}                                   -> {"type": "pong"}
    {"op": "send", "id", "session", "scope", ["shared",] "cwd", "input"}
        -> start, delta..., [error], done {"status": "ok|error|cancelled", "exit_code"}
    {"op": "resume", "id"}                           -> the turn's events, then live ones
    {"op": "status"}                                 -> {"type": "status", ...}
    {"op": "cancel", ["id"]}                         -> {"type": "cancelled", "ids": [...]}
    {"op": "stop"}                                   -> {"type": "stopping"}
A `send` retried with an id already seen replays that turn; it never runs twice.
`scope` is private (the default), shared (with `shared` naming the space) or temp. Which
sessions the agent may use is its policy's (session_policy): a refused `send` ends in
an EACCES error and done; a refused `resume` is one EACCES frame.
Unknown fields are ignored; an unknown op is EINVAL; a frame over 1 MiB is EMSGSIZE.
"""

from __future__ import annotations

import errno
import os
import socket
import threading
from collections.abc import Callable
from typing import Any

from cortexfs.agent_runtime.turns import Turn
from cortexfs.errors import CtxError
from cortexfs.jsonl_socket import Conn, FrameError, error_frame, peer_of
from cortexfs.names import name_problem

SCOPES = ("private", "shared", "temp")
# accept() failures that say nothing about the listener: the process is out of
# descriptors or memory for now, or a queued client gave up. The next accept can work.
TRANSIENT_ACCEPT = frozenset(
    {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM, errno.ECONNABORTED,
     errno.EINTR, errno.EPROTO}
)  # fmt: skip
RETRY_ACCEPT = 0.1  # seconds between tries while accept() fails for one of those


class Requests:
    """What the socket needs from the supervisor."""

    def __init__(
        self, owner: int, get_or_start: Callable[[Turn], Turn], find: Callable[[str], Turn | None],
        may_read: Callable[[Turn], None], cancel: Callable[[str | None], list[str]],
        status: Callable[[], dict[str, Any]], stop: Callable[[], None],
    ) -> None:  # fmt: skip
        self.owner = owner
        self.get_or_start = get_or_start
        self.find = find
        self.may_read = may_read  # raises CtxError when the agent may not read the session
        self.cancel = cancel
        self.status = status
        self.stop = stop


class BadRequest(Exception):
    pass


def _turn_of(frame: dict[str, Any]) -> Turn:
    ident = frame.get("id") or os.urandom(8).hex()
    session = frame.get("session", "default")
    scope = frame.get("scope", "private")
    cwd = frame.get("cwd")
    text = frame.get("input", "")
    if not isinstance(ident, str) or len(ident) > 128 or not ident.isprintable():
        raise BadRequest("id must be a printable string of at most 128 characters")
    if not isinstance(session, str) or name_problem(session) or session == "index":
        raise BadRequest(f"session {session!r} is not a session name")
    if scope not in SCOPES:
        raise BadRequest(f"scope {scope!r} is not one of {', '.join(SCOPES)}")
    space = frame.get("shared")
    if scope == "shared" and space is None:
        raise BadRequest("scope 'shared' needs shared: the space's name")
    if space is not None and scope != "shared":
        raise BadRequest("shared names a space only for scope 'shared'")
    if space is not None and (not isinstance(space, str) or name_problem(space)):
        raise BadRequest(f"shared {space!r} is not a space name")
    if cwd is not None and not isinstance(cwd, str):
        raise BadRequest("cwd must be a string")
    if not isinstance(text, str):
        raise BadRequest("input must be a string")
    return Turn(ident, session, scope, cwd, text, space)


def _stream(conn: Conn, turn: Turn) -> None:
    for event in turn.follow():
        if not conn.send(event):
            return  # the client left; the turn goes on and can be resumed


def handle(conn: Conn, frame: dict[str, Any], requests: Requests) -> None:
    op, ident = frame.get("op"), frame.get("id")
    try:
        if op == "ping":
            conn.send({"type": "pong", **({"id": ident} if ident is not None else {})})
        elif op == "send":
            _stream(conn, requests.get_or_start(_turn_of(frame)))
        elif op == "resume":
            turn = requests.find(str(ident))
            if turn is None:
                conn.send(error_frame("ENOENT", f"no turn {ident!r}", ident))
            else:
                requests.may_read(turn)
                _stream(conn, turn)
        elif op == "status":
            conn.send({"type": "status", **requests.status()})
        elif op == "cancel":
            ids = requests.cancel(None if ident is None else str(ident))
            if ident is not None and not ids:
                conn.send(error_frame("ENOENT", f"no running turn {ident!r}", ident))
            else:
                conn.send({"type": "cancelled", "ids": ids})
        elif op == "stop":
            conn.send({"type": "stopping"})
            requests.stop()
        else:
            conn.send(error_frame("EINVAL", f"unknown op {op!r}", ident))
    except BadRequest as exc:
        conn.send(error_frame("EINVAL", str(exc), ident))
    except CtxError as exc:
        conn.send(error_frame(exc.errno_name, exc.message, ident))


def serve(conn: Conn, requests: Requests) -> None:
    try:
        peer = peer_of(conn.sock)
        if peer.uid not in (0, requests.owner):
            conn.send(error_frame("EACCES", f"uid {peer.uid} is not this agent's owner"))
            return
        while (frame := conn.recv()) is not None:
            handle(conn, frame, requests)
    except FrameError as exc:
        conn.send(error_frame(exc.errno_name, exc.message))
    except OSError:
        pass
    finally:
        conn.close()


def accept_loop(
    listener: socket.socket, requests: Requests, stopping: threading.Event,
    log: Callable[[str], None],
) -> None:  # fmt: skip
    """Serve each connection in a thread of its own until `stopping` is set.

    A transient failure (TRANSIENT_ACCEPT, or no thread to serve with) is logged once per
    spell and retried: the queued client is served when descriptors come back. Any other
    failure is raised; the supervisor then stops, since a listener nobody accepts on
    would leave every client waiting on it."""
    failing = False
    while not stopping.is_set():
        try:
            sock, _ = listener.accept()
        except OSError as exc:
            if stopping.is_set():
                return  # the supervisor closed the listener
            if exc.errno not in TRANSIENT_ACCEPT:
                raise
            if not failing:
                log(f"agent socket: accept failed ({os.strerror(exc.errno or 0)}); retrying")
            failing = True
            stopping.wait(RETRY_ACCEPT)
            continue
        thread = threading.Thread(target=serve, args=(Conn(sock), requests), daemon=True)
        try:
            thread.start()
        except RuntimeError as exc:  # can't start new thread: like EMFILE, for now
            sock.close()
            if not failing:
                log(f"agent socket: cannot serve a connection ({exc}); retrying")
            failing = True
            stopping.wait(RETRY_ACCEPT)
            continue
        failing = False
