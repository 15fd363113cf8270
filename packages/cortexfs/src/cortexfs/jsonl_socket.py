"""JSON Lines over Unix stream sockets: one JSON object per line, at most 1 MiB a frame,
descriptors passed alongside (SCM_RIGHTS), and the peer's credentials (SO_PEERCRED).

Both the agent sockets and the tool broker speak it; only the frames' `op`s differ.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import struct
import threading
from dataclasses import dataclass
from typing import Any

from cortexfs.json_bounds import loads_bounded

MAX_FRAME = 1 << 20
_CHUNK = 65536
_MAX_FDS = 4


class FrameError(Exception):
    """A frame the peer sent that cannot be read; answered with an error frame."""

    def __init__(self, errno_name: str, message: str) -> None:
        super().__init__(message)
        self.errno_name = errno_name
        self.message = message


@dataclass(frozen=True)
class Peer:
    pid: int
    uid: int
    gid: int


def peer_of(sock: socket.socket) -> Peer:
    """The connected peer's credentials, as the kernel recorded them at connect (or
    socketpair). The one reading of `struct ucred` in the package: how to connect
    (blocking or not) stays with the caller. warm/handoff.py keeps its own, since the
    object runner imports only modules the interpreter has already loaded."""
    raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    pid, uid, gid = struct.unpack("3i", raw)
    return Peer(pid, uid, gid)


def encode(frame: dict[str, Any]) -> bytes:
    return (json.dumps(frame, ensure_ascii=False, sort_keys=True) + "\n").encode()


class Conn:
    """One connection: buffered frame reads (keeping passed fds), locked writes."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self._buffer = bytearray()
        self._fds: list[int] = []
        self._lock = threading.Lock()
        self.closed = False

    def send(self, frame: dict[str, Any]) -> bool:
        """False when the peer is gone (the caller stops streaming to it)."""
        data = encode(frame)
        with self._lock:
            try:
                self.sock.sendall(data)
            except OSError:
                self.closed = True
                return False
        return True

    def send_with_fds(self, frame: dict[str, Any], fds: list[int]) -> None:
        data = encode(frame)
        with self._lock:
            sent = socket.send_fds(self.sock, [data], fds)
            self.sock.sendall(data[sent:])

    def _fill(self) -> bool:
        data, fds, _flags, _addr = socket.recv_fds(self.sock, _CHUNK, _MAX_FDS)
        self._fds.extend(fds)
        if not data:
            return False
        self._buffer += data
        return True

    def recv(self) -> dict[str, Any] | None:
        """The next frame, or None at end of stream."""
        while b"\n" not in self._buffer:
            if len(self._buffer) > MAX_FRAME:
                raise FrameError("EMSGSIZE", f"frame over {MAX_FRAME} bytes")
            if not self._fill():
                if self._buffer:
                    raise FrameError("EINVAL", "stream ended inside a frame")
                return None
        line, _, rest = bytes(self._buffer).partition(b"\n")
        self._buffer = bytearray(rest)
        if len(line) > MAX_FRAME:
            raise FrameError("EMSGSIZE", f"frame over {MAX_FRAME} bytes")
        try:
            frame = loads_bounded(line.decode("utf-8"))
        except ValueError as exc:
            raise FrameError("EINVAL", f"frame is not JSON: {exc}") from exc
        if not isinstance(frame, dict):
            raise FrameError("EINVAL", "frame is not a JSON object")
        return frame

    def take_fd(self) -> int | None:
        return self._fds.pop(0) if self._fds else None

    def close(self) -> None:
        for fd in self._fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        self._fds.clear()
        self.closed = True
        with contextlib.suppress(OSError):
            self.sock.close()


def connect(path: str, timeout: float | None = None) -> Conn:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(path)
    except OSError:
        sock.close()
        raise
    sock.settimeout(None)
    return Conn(sock)


def listen(path: str, mode: int, owner: tuple[int, int] | None = None) -> socket.socket:
    """Bind a fresh socket at `path` (a stale one is replaced), chmod/chown it, listen."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(path)
    os.chmod(path, mode)
    if owner is not None:
        os.chown(path, *owner)
    sock.listen(16)
    return sock


def error_frame(errno_name: str, message: str, ident: object = None) -> dict[str, Any]:
    frame: dict[str, Any] = {"type": "error", "errno": errno_name, "message": message}
    if ident is not None:
        frame["id"] = ident
    return frame
