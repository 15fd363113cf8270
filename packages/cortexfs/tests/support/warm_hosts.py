"""Stopping the warm hosts a test world started, and only those: a world's runtime is a
copy of the package of its own, so its install key (warm/paths.py) and the hosts'
directories are its own too."""

from __future__ import annotations

import contextlib
import glob
import os
import signal
import socket
import subprocess
import time

from world_runtime import Runtime

from cortexfs.agent_runtime.procs import alive
from cortexfs.jsonl_socket import peer_of

# The install key as this world's runtime computes it: it names the runtime's own copy
# of the package, so the hosts found under it were started by this world and no other.
_INSTALL_KEY = (
    "import sys; sys.path.insert(0, sys.argv[1]); from cortexfs.warm.paths import install_key; "
    "print(install_key())"
)


def _listener_pid(path: str) -> int | None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        try:
            sock.connect(path)
            return peer_of(sock).pid
        except OSError:
            return None


def stop_warm_hosts(runtime: Runtime, seconds: float = 70) -> list[int]:
    """SIGTERM the warm hosts, of any uid, that serve this runtime's installation (the
    host then stops its MCP servers: warm/host.py) and wait for them to exit; their pids.
    A uid's hosts listen in `/run/user/<uid>/cortexfs-calls/<key>/` or
    `/tmp/cortexfs-calls-<uid>/<key>/` (warm/paths.py), and none of those directories
    may outlive its host (warm/lifetime.py)."""
    key = subprocess.run(
        [runtime.python, "-c", _INSTALL_KEY, str(runtime.base / "lib")],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    directories = [*glob.glob(f"/run/user/*/cortexfs-calls/{key}"),
                   *glob.glob(f"/tmp/cortexfs-calls-*/{key}")]  # fmt: skip
    sockets = [f"{directory}/calls.sock" for directory in directories]
    pids = sorted({p for p in map(_listener_pid, sockets) if p})
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + seconds
    while any(alive(pid) for pid in pids):
        assert time.monotonic() < deadline, f"warm hosts {pids} outlived SIGTERM"
        time.sleep(0.05)
    left = [d for d in directories if os.path.lexists(d)]
    assert not left, f"warm host directories outlived their hosts: {left}"
    return pids
