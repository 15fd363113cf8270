"""File operations on the mounted tree, applied with another uid's credentials.

The mount refuses root where it is not the owner (root gets no exemption there), so the
supervisor writes an agent's controls as the agent's owner and its session records as
the agent's uid. Operations are data: a JSON list the helper process (`main`, started
with those credentials) applies in order, stopping at the first failure.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from typing import Any

from cortexfs.ctl_write import write_control
from cortexfs.errors import CtxError, Internal

Op = dict[str, str]


def mkdir(path: str) -> Op:
    return {"op": "mkdir", "path": path}


def write(path: str, data: str) -> Op:
    return {"op": "write", "path": path, "data": data}


def write_once(path: str, data: str) -> Op:
    return {"op": "write_once", "path": path, "data": data}


def append(path: str, data: str) -> Op:
    return {"op": "append", "path": path, "data": data}


def front(path: str, line: str) -> Op:
    """Move (or add) `line` to the top of a one-per-line list file."""
    return {"op": "front", "path": path, "data": line}


def unlink(path: str) -> Op:
    """Remove a file if it is there (an agent object: the mount removes its triple)."""
    return {"op": "unlink", "path": path}


def symlink(path: str, target: str) -> Op:
    """Create the link, or accept an existing one that already points at `target`."""
    return {"op": "symlink", "path": path, "data": target}


def _front(path: str, line: str) -> None:
    try:
        with open(path, encoding="utf-8") as handle:
            lines = [x for x in handle.read().split("\n") if x and x != line]
    except FileNotFoundError:
        lines = []
    write_control(path, "".join(f"{x}\n" for x in [line, *lines]).encode())


def _symlink(path: str, target: str) -> None:
    try:
        os.symlink(target, path)
    except FileExistsError:
        if os.readlink(path) != target:
            raise Internal(f"{path} points to {os.readlink(path)}, not {target}") from None


def _write_fd(path: str, flags: int, data: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | flags, 0o600)
    try:
        os.write(fd, data.encode())
    finally:
        os.close(fd)


def apply(op: Op) -> None:
    kind, path, data = op["op"], op["path"], op.get("data", "")
    if kind == "mkdir":
        os.makedirs(path, exist_ok=True)
    elif kind == "write":
        write_control(path, data.encode())
    elif kind == "write_once":
        with contextlib.suppress(FileExistsError):
            _write_fd(path, os.O_EXCL, data)
    elif kind == "append":
        _write_fd(path, os.O_APPEND, data)
    elif kind == "front":
        _front(path, data)
    elif kind == "symlink":
        _symlink(path, data)
    elif kind == "unlink":
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
    else:
        raise Internal(f"unknown file operation {kind!r}")


def apply_all(ops: list[Op]) -> None:
    for op in ops:
        try:
            apply(op)
        except CtxError:
            raise
        except OSError as exc:
            raise Internal(f"{op['op']} {op['path']}: {exc.strerror}") from exc


def run_as(uid: int, gid: int, ops: list[Op]) -> None:
    """Apply `ops` as uid/gid: in this process when that is who we are, else in a helper."""
    if not ops:
        return
    if os.geteuid() == uid:
        apply_all(ops)
        return
    from cortexfs.launch.host import python_command

    result = subprocess.run(
        python_command("cortexfs.agent_runtime.fs_ops"), input=json.dumps(ops).encode(),
        capture_output=True, user=uid, group=gid, extra_groups=[], env={"LANG": "C.UTF-8"},
        cwd="/", check=False, timeout=60, umask=0o077,  # a uid's records are its own
    )  # fmt: skip
    if result.returncode != 0:
        message = result.stderr.decode("utf-8", "replace").strip() or f"exit {result.returncode}"
        raise Internal(f"as uid {uid}: {message}")


def main() -> int:
    try:
        ops: Any = json.loads(sys.stdin.buffer.read())
        apply_all(ops)
    except (CtxError, ValueError, KeyError) as exc:
        print(getattr(exc, "message", str(exc)), file=sys.stderr)
        return 1
    return 0
