"""The broker's socket: authenticate each connection, dispatch each request by `op`."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cortexfs.broker.protocol import ABI, VERSION, reply
from cortexfs.broker.run import run_call
from cortexfs.jsonl_socket import Conn, FrameError, Peer, listen, peer_of
from cortexfs.launch.identity import Identity
from cortexfs.launch.spec import AgentRef


@dataclass(frozen=True)
class BrokerAgent:
    """What the broker trusts about the agent it serves (set by the supervisor)."""

    ref: AgentRef
    ctx_host: str
    identity: Identity
    switch_credentials: bool  # the supervisor runs as root and sets the agent's identity
    limit: tuple[str, ...] = ()  # prlimit ... -- : the sandbox's rlimits for each call too
    warm: Callable[[], str | None] | None = None  # the uid's warm host socket, started if need be


Handler = Callable[[Conn, dict[str, Any], BrokerAgent], None]


def _hello(conn: Conn, frame: dict[str, Any], agent: BrokerAgent) -> None:
    conn.send(reply("hello", frame.get("id"), abi=ABI, agent=agent.ref.name, ops=sorted(HANDLERS)))


def _call(conn: Conn, frame: dict[str, Any], agent: BrokerAgent) -> None:
    run_call(conn, frame, agent)


HANDLERS: dict[str, Handler] = {"hello": _hello, "call": _call}


class Broker:
    def __init__(self, path: str, agent: BrokerAgent, is_member: Callable[[Peer], bool]) -> None:
        self.path = path
        self.agent = agent
        self.is_member = is_member
        self._sock: socket.socket | None = None

    def start(self) -> None:
        identity = self.agent.identity
        self._sock = listen(self.path, 0o600, (identity.uid, identity.gid))
        threading.Thread(target=self._accept, name="broker-accept", daemon=True).start()

    def stop(self) -> None:
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.shutdown(socket.SHUT_RDWR)
            self._sock.close()

    def _accept(self) -> None:
        assert self._sock is not None
        while True:
            try:
                sock, _ = self._sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(Conn(sock),), daemon=True).start()

    def _serve(self, conn: Conn) -> None:
        try:
            peer = peer_of(conn.sock)
            if peer.uid != self.agent.identity.uid or not self.is_member(peer):
                message = (
                    f"pid {peer.pid} uid {peer.uid} is not in agent {self.agent.ref.name}'s sandbox"
                )
                conn.send(reply("error", None, errno="EACCES", message=message))
                return
            while (frame := conn.recv()) is not None:
                self._dispatch(conn, frame)
        except FrameError as exc:
            conn.send(reply("error", None, errno=exc.errno_name, message=exc.message))
        except OSError:
            pass
        finally:
            conn.close()

    def _dispatch(self, conn: Conn, frame: dict[str, Any]) -> None:
        ident = frame.get("id")
        if frame.get("v", VERSION) != VERSION:
            conn.send(reply("error", ident, errno="EINVAL", message=f"unsupported v; {ABI}"))
            return
        handler = HANDLERS.get(str(frame.get("op")))
        if handler is None:
            conn.send(
                reply("error", ident, errno="EINVAL", message=f"unknown op {frame.get('op')!r}")
            )
            return
        handler(conn, frame, self.agent)
