"""An agent's runtime state (`.d/status`, `.d/pid`), derived by the mount daemon.

Nobody writes these through the mount: a forged `pid` (1, another user's process)
once made an agent undeletable. The daemon instead asks the socket the agent's
`.sock` alias names: a process listening on the agent's own runtime socket
(`/run/cortexfs/<abi>.sock` for a root supervisor, `/run/user/<owner>/cortexfs/<abi>.sock`
for the owner's) is its supervisor, and the kernel (SO_PEERCRED) tells its pid and uid.
"""

from __future__ import annotations

import contextlib
import os
import socket

from cortexfs.agent_runtime.paths import run_base
from cortexfs.jsonl_socket import peer_of


def _listener(path: str) -> tuple[int, int] | None:
    """(pid, uid) of the process listening on the Unix socket `path`, if one is. The
    connect is non-blocking: the mount daemon asks this while serving a read, and a
    supervisor with a full backlog must not stall it."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_NONBLOCK)
    try:
        sock.connect(path)
        peer = peer_of(sock)
    except OSError:  # absent, refused, not a socket, backlog full: not provably live
        return None
    finally:
        with contextlib.suppress(OSError):
            sock.close()
    return peer.pid, peer.uid


def supervisor_pid(alias_target: str | None, abi_path: str, owner: int) -> int | None:
    """The pid of the agent's supervisor, or None when it is not running. Only the
    agent's own runtime socket counts, served by root or by the agent's owner."""
    own = {uid: f"{run_base(uid)}{abi_path}.sock" for uid in (0, owner)}
    if alias_target is None or alias_target not in own.values():
        return None  # never connect to whatever else an alias may name
    found = _listener(alias_target)
    if found is None:
        return None
    pid, uid = found
    return pid if own.get(uid) == alias_target else None


def render(control: str, pid: int | None) -> bytes:
    """The bytes of `status` or `pid` for a supervisor pid (None: stopped)."""
    if control == "pid":
        return b"" if pid is None else f"{pid}\n".encode()
    return b"stopped\n" if pid is None else b"running\n"


def alias_target(sock_path: str) -> str | None:
    try:
        return os.readlink(sock_path)
    except OSError:
        return None
