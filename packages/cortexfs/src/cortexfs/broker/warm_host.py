"""The agent uid's warm MCP host, started by the supervisor rather than by a call.

A host that a call started would be in the agent's cgroup and under its process tree,
so stopping that agent killed it, and with it the warm servers of every other agent
of the same uid. Started here it runs with the agent's identity and limits, in a
cgroup of its own (`cortexfs/warm.<uid>`, root operators only) and outside anything
the supervisor kills at stop; it outlives the agent and exits when idle
(warm/host.py). The call hands its job to whichever host serves the uid.
"""

from __future__ import annotations

import contextlib
import os
import select
import socket
import subprocess
import threading
import time
from typing import Any

from cortexfs.jsonl_socket import peer_of
from cortexfs.launch import cgroups
from cortexfs.launch.host import python_command
from cortexfs.launch.identity import Identity
from cortexfs.launch.limits import Limits
from cortexfs.warm.paths import SOCKET, host_dirs

_READY_WAIT = 10.0


def serving(path: str, uid: int) -> bool:
    """Does a process of `uid` listen at `path`?"""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        try:
            sock.connect(path)
            peer_uid = peer_of(sock).uid
        except OSError:
            return False
    return bool(peer_uid == uid)


def _read_ready(fd: int) -> str:
    data = b""
    with os.fdopen(fd, "rb", buffering=0) as handle:
        while select.select([handle], [], [], _READY_WAIT)[0]:
            chunk = handle.read(4096)
            if not chunk:
                break
            data += chunk
    return data.decode("utf-8", "replace")


class WarmHost:
    def __init__(
        self, identity: Identity, spawn: dict[str, Any], limit: tuple[str, ...],
        cgroup_host: cgroups.CgroupHost | None,
    ) -> None:  # fmt: skip
        self.identity = identity
        self.spawn = spawn  # Popen credentials and environment: those of a call
        self.limit = limit
        self.cgroup_host = cgroup_host
        self.lock = threading.Lock()
        self.socket: str | None = None
        self.pids: set[int] = set()  # hosts started here: spared when the agent stops

    def ensure(self) -> str | None:
        """The socket of a host serving the uid, started if none does; None leaves the
        call to run cold."""
        with self.lock:
            uid = self.identity.uid
            if self.socket and serving(self.socket, uid):
                return self.socket
            # Another agent's supervisor may have started the uid's host, in either place.
            found = (f"{d}/{SOCKET}" for d in host_dirs(uid))
            self.socket = next((path for path in found if serving(path, uid)), None)
            if self.socket is not None:
                return self.socket
            deadline = time.monotonic() + _READY_WAIT
            while self.socket is None and time.monotonic() < deadline:
                with contextlib.suppress(OSError):
                    self._start()
                if self.socket is None:
                    time.sleep(0.05)  # a host going idle still holds the directory
            return self.socket

    def _reap(self, proc: subprocess.Popen[bytes]) -> None:
        proc.wait()
        self.pids.discard(proc.pid)

    def _start(self) -> None:
        cgroup = None
        if self.cgroup_host is not None:
            cgroup = cgroups.create(self.cgroup_host, f"warm.{self.identity.uid}", Limits())
        go_read, go_write = os.pipe()
        ready_read, ready_write = os.pipe()
        try:
            argv = [*self.limit, *python_command("cortexfs.warm.for_broker")]
            proc = subprocess.Popen(
                [*argv, str(go_read), str(ready_write)], stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                pass_fds=(go_read, ready_write), cwd="/", start_new_session=True,
                **self.spawn,
            )  # fmt: skip
        finally:
            os.close(go_read)
            os.close(ready_write)
        self.pids.add(proc.pid)
        threading.Thread(target=self._reap, args=(proc,), name="warm-reaper", daemon=True).start()
        try:
            if cgroup is not None:
                cgroups.enter(cgroup, proc.pid)
            os.write(go_write, b"go")
        finally:
            os.close(go_write)
        directory, _, word = _read_ready(ready_read).partition("\n")
        path = f"{directory}/{SOCKET}"
        if word.strip() == "ready" or (word.strip() == "busy" and serving(path, self.identity.uid)):
            self.socket = path
