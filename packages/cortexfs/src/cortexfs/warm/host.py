"""A uid's warm host: `python -m cortexfs.warm.host DIR READY_FD`, started by the first
object runner that finds none (warm/handoff.py).

It serves `DIR/calls.sock` (0600 in a 0700 directory) to processes of its own uid in
its own mount namespace: a process in an agent sandbox is refused even when the path
is reachable, since it must go through its broker. Each connection is one call, decided
and run exactly as the object runner would (`runner.run` with the caller's argv,
environment, working directory and stdin), except that MCP servers come from the pool
and stay up between calls. The host exits when it has had no session and no call for
HOST_IDLE seconds, or at SIGTERM (how a test world that started it stops it, and
what an operator sends): both stop every server and remove DIR before the host exits
(warm/lifetime.py; at its start the host reaps the directories of hosts that died).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Mapping
from typing import IO, Any

from cortexfs.drivers import run_driver
from cortexfs.events import EventWriter
from cortexfs.jsonl_socket import peer_of
from cortexfs.mcp_calls import McpCall
from cortexfs.runner import guarded, run
from cortexfs.warm.lifetime import reap_around, remove_own, take_lock
from cortexfs.warm.paths import SOCKET
from cortexfs.warm.pool import Pool
from cortexfs.warm.wire import EXIT_PREFIX, MAGIC_JOB, MAX_REQUEST, decode_request

HOST_IDLE = 30.0
_REAP_EVERY = 0.5


class _Bound:
    """The pool as one call sees it: the caller's environment and working directory pick
    the session; the connection closing cancels the call."""

    def __init__(self, pool: Pool, env: Mapping[str, str], cwd: str, cancel_fd: int) -> None:
        self.pool, self.env, self.cwd, self.cancel_fd = pool, env, cwd, cancel_fd

    def call(self, call: McpCall) -> dict[str, Any]:
        return self.pool.call(call, self.env, self.cwd, self.cancel_fd)


class _Out:
    """Text stream for EventWriter: each event line goes straight to the caller."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def write(self, text: str) -> int:
        with contextlib.suppress(OSError):
            self.sock.sendall(text.encode())
        return len(text)

    def flush(self) -> None:
        return None


def _read_request(sock: socket.socket) -> tuple[bytes, list[int]]:
    data, fds = b"", []
    while b"\n" not in data:
        chunk, new_fds, _flags, _addr = socket.recv_fds(sock, 65536, 1)
        fds += new_fds
        if not chunk:
            raise ValueError("connection closed before the request")
        data += chunk
        if len(data) > 32 and b"\n" not in data:
            raise ValueError("bad request header")
    head, _, payload = data.partition(b"\n")
    if not head.isdigit() or int(head) > MAX_REQUEST:
        raise ValueError("bad request length")
    while len(payload) < int(head):
        chunk = sock.recv(min(65536, int(head) - len(payload)))
        if not chunk:
            raise ValueError("connection closed mid-request")
        payload += chunk
    return payload, fds


def _run_job(argv: list[str], stdin: IO[bytes] | None, out: _Out, bound: _Bound) -> int:
    """A call the broker decided (broker/exec_child.py hands it on): run its driver."""
    job = json.loads(argv[0]) if len(argv) == 1 else None
    if not isinstance(job, dict):
        raise ValueError("a job request carries one JSON object")
    writer = EventWriter(out)  # type: ignore[arg-type]
    return guarded(writer, lambda: run_driver(
        job["driver"], job["where"], job["args"], stdin, writer, job.get("schema"), bound
    ))  # fmt: skip


class Host:
    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.pool = Pool()
        self.active = 0
        self.last_activity = time.monotonic()
        self.lock = threading.Lock()
        self.uid = os.getuid()
        self.namespace = os.readlink("/proc/self/ns/mnt")
        self.listener: socket.socket | None = None
        self.stopping = threading.Event()  # set by SIGTERM

    def bind(self) -> bool:
        """Take the directory's lock and listen; False when another host holds it."""
        lock_fd = take_lock(self.directory, self.uid)
        if lock_fd is None:
            return False
        self._lock_fd = lock_fd  # held for the host's life
        path = f"{self.directory}/{SOCKET}"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old_umask = os.umask(0o177)
        try:
            listener.bind(path)
        finally:
            os.umask(old_umask)
        listener.listen(64)
        self.listener = listener
        return True

    def _peer_ok(self, sock: socket.socket) -> bool:
        peer = peer_of(sock)
        if peer.uid != self.uid:
            return False
        try:
            return os.readlink(f"/proc/{peer.pid}/ns/mnt") == self.namespace
        except OSError:
            return False

    def serve(self, sock: socket.socket) -> None:
        fds: list[int] = []
        try:
            if not self._peer_ok(sock):
                return
            payload, fds = _read_request(sock)
            kind, cwd, argv, env = decode_request(payload)
            stdin: IO[bytes] | None = os.fdopen(fds.pop(0), "rb") if fds else None
            bound = _Bound(self.pool, env, cwd, sock.fileno())
            out = _Out(sock)
            with stdin if stdin is not None else contextlib.nullcontext():
                if kind == MAGIC_JOB:
                    code = _run_job(argv, stdin, out, bound)
                else:
                    code = run(argv, env, self.uid, stdin, out, bound)  # type: ignore[arg-type]
            sock.sendall(EXIT_PREFIX + str(code).encode() + b"\n")
        except (OSError, ValueError):
            pass
        finally:
            for fd in fds:
                os.close(fd)
            sock.close()
            with self.lock:
                self.active -= 1
                self.last_activity = time.monotonic()

    def _accept(self) -> None:
        assert self.listener is not None
        while True:
            try:
                sock, _ = self.listener.accept()
            except OSError:
                return
            with self.lock:
                self.active += 1
            threading.Thread(target=self.serve, args=(sock,), daemon=True).start()

    def run_until_idle(self) -> None:
        threading.Thread(target=self._accept, name="warm-accept", daemon=True).start()
        while not self.stopping.wait(_REAP_EVERY):
            left = self.pool.reap()
            with self.lock:
                quiet = time.monotonic() - self.last_activity
                if left == 0 and self.active == 0 and quiet >= HOST_IDLE:
                    break
                if left or self.active:
                    self.last_activity = time.monotonic()
        self.stop()

    def stop(self) -> None:
        """Unlink the socket while still holding the lock, so no runner connects to a
        host that is going away; then stop every server, and remove the directory
        (warm/lifetime.py) before the lock goes with the process."""
        with contextlib.suppress(OSError):
            os.unlink(f"{self.directory}/{SOCKET}")
        if self.listener is not None:
            with contextlib.suppress(OSError):
                self.listener.shutdown(socket.SHUT_RDWR)
            self.listener.close()
        deadline = time.monotonic() + 60
        while self.active and time.monotonic() < deadline:
            time.sleep(0.05)  # a call accepted just before the end finishes first
        self.pool.close_all()
        remove_own(self.directory, self._lock_fd)


def main(argv: list[str]) -> int:
    directory, ready_fd = argv[0], int(argv[1])
    host = Host(directory)
    try:
        bound = host.bind()
    except OSError:
        os.close(ready_fd)
        return 1
    if bound:
        # Before "ready": whoever started the host may stop it as soon as it reads that,
        # and a SIGTERM before the handler would kill it with its directory left behind.
        signal.signal(signal.SIGTERM, lambda _s, _f: host.stopping.set())
    os.write(ready_fd, b"ready\n" if bound else b"busy\n")
    os.close(ready_fd)
    if bound:
        reap_around(directory, host.uid)  # the directories of hosts that died
        host.run_until_idle()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
