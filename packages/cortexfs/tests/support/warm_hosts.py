"""Stopping the warm hosts a test world started, and only those: a world's runtime is a
copy of the package of its own, so its install key (warm/paths.py) and the hosts'
directories are its own too."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import struct
import subprocess
import time
from pathlib import Path

from world_runtime import Runtime

# host_dirs as this world's runtime computes them: its install key names its own copy
# of the package, so the hosts found there were started by this world and no other.
_HOST_DIRS = (
    "import sys; sys.path.insert(0, sys.argv[1]); from cortexfs.warm.paths import host_dirs; "
    "print(chr(10).join(host_dirs(int(sys.argv[2]))))"
)
_CRED = struct.Struct("3i")


def _listener_pid(path: str, uid: int) -> int | None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        try:
            sock.connect(path)
            pid, peer_uid, _ = _CRED.unpack(
                sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _CRED.size)
            )
        except OSError:
            return None
    return pid if peer_uid == uid else None


def _running(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def stop_warm_hosts(runtime: Runtime, uid: int, seconds: float = 70) -> list[int]:
    """SIGTERM the warm hosts of `uid` that serve this runtime's installation (the host
    then stops its MCP servers: warm/host.py) and wait for them to exit; their pids."""
    dirs = subprocess.run(
        [runtime.python, "-c", _HOST_DIRS, str(runtime.base / "lib"), str(uid)],
        capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    pids = [p for p in (_listener_pid(f"{d}/calls.sock", uid) for d in dirs) if p]
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + seconds
    while any(_running(pid) for pid in pids):
        assert time.monotonic() < deadline, f"warm hosts {pids} outlived SIGTERM"
        time.sleep(0.05)
    return pids
