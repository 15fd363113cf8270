"""`ctx agent` subcommands as functions of (CtxEnv, arguments); they raise CtxError."""

from __future__ import annotations

import argparse
import contextlib
import os
import time
from collections.abc import Iterator
from typing import Any

from cortexfs.agent_runtime import procs
from cortexfs.agent_runtime.client import request, socket_of, stream
from cortexfs.agent_runtime.load import locate_agent
from cortexfs.agent_runtime.paths import RuntimePaths, run_base
from cortexfs.ctl_write import os_error, write_control
from cortexfs.ctx_env import CtxEnv
from cortexfs.errors import BadInput, CtxError, Denied, Failed
from cortexfs.launch.identity import Operator
from cortexfs.launch.limits import Limits
from cortexfs.launch.mountcheck import is_cortexfs_mount
from cortexfs.launch.plan import LaunchRequest
from cortexfs.names import name_problem

STOP_TIMEOUT = 15.0


def _mount_row(text: str) -> str:
    parts = text.split(":")
    if len(parts) not in (3, 4):
        raise BadInput(f"--mount {text!r}: expected SRC:DST:ro|rw[:OPTS]")
    return "\t".join([*parts, "-"][:4]) if len(parts) == 3 else "\t".join(parts)


def _controls(args: argparse.Namespace) -> dict[str, str]:
    values: dict[str, str] = {}
    for control in ("uid", "gid", "label", "perm", "iso"):
        value = getattr(args, control)
        if value is not None:
            values[control] = f"{value}\n"
    if args.groups is not None:
        values["groups"] = "".join(f"{g}\n" for g in args.groups.split(",") if g)
    lists = {"tools": args.tool, "policy": args.allow, "env": args.env,
             "mount": [_mount_row(m) for m in args.mount]}  # fmt: skip
    for control, lines in lists.items():
        if lines:
            values[control] = "".join(f"{line}\n" for line in lines)
    return values


def new(env: CtxEnv, args: argparse.Namespace) -> str:
    """mkdir agent/<name>.d, then each given control; on a refused value the new agent
    is removed again, so nothing half-made stays behind."""
    problem = name_problem(args.name)
    if problem:
        raise BadInput(f"{args.name!r}: not an agent name: {problem}")
    path = f"{env.root}/agent/{args.name}"
    values = _controls(args)
    try:
        os.mkdir(f"{path}.d")
    except OSError as exc:
        raise os_error(f"{path}.d", exc) from exc
    try:
        for control, text in values.items():
            write_control(f"{path}.d/{control}", text.encode())
    except CtxError:
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise
    return path


def _operator() -> Operator:
    return Operator(os.getuid(), os.getgid(), frozenset(os.getgroups()) | {os.getgid()})


def _paths(env: CtxEnv, name: str) -> tuple[str, RuntimePaths]:
    if not is_cortexfs_mount(env.root):
        raise Denied(f"CTX_ROOT={env.root} is not a CortexFS mount")
    ref = locate_agent(env, name)
    return ref.abi_path, RuntimePaths(run_base(os.getuid()), ref.abi_path)


def start(env: CtxEnv, args: argparse.Namespace, command: list[str]) -> str:
    from cortexfs.agent_runtime.start import start as start_agent
    from cortexfs.agent_runtime.supervisor import StartConfig

    _, paths = _paths(env, args.name)
    limits = {k: getattr(args, k) for k in ("memory", "tasks", "cpu", "nofile")}
    chosen = {
        {"memory": "memory_bytes", "cpu": "cpu_percent"}.get(k, k): v
        for k, v in limits.items() if v is not None
    }  # fmt: skip
    workspace = None if args.no_workspace else os.path.realpath(args.workspace or os.getcwd())
    request_ = LaunchRequest(tuple(command), args.pty, workspace, Limits(**chosen))
    cfg = StartConfig(
        locate_agent(env, args.name), os.path.realpath(env.root), request_, _operator(),
        dict(os.environ), paths,
    )  # fmt: skip
    started = start_agent(cfg)
    return f"started {args.name} pid {started.pid} socket {started.socket}"


def status(env: CtxEnv, name: str) -> dict[str, Any]:
    abi, _ = _paths(env, name)
    try:
        return request(socket_of(env.root, abi), {"op": "status"})
    except CtxError as exc:
        if exc.exit_code == Denied.exit_code:
            raise
        return {"agent": name, "path": abi, "state": "stopped"}


def stop(env: CtxEnv, name: str) -> str:
    abi, _ = _paths(env, name)
    socket_path = socket_of(env.root, abi)
    try:
        pid = request(socket_path, {"op": "status"}).get("pid")
        request(socket_path, {"op": "stop"})
    except CtxError as exc:
        if exc.exit_code == Denied.exit_code:
            raise
        return f"{name} is not running"
    deadline = time.monotonic() + STOP_TIMEOUT
    while type(pid) is int and _alive(pid):
        if time.monotonic() > deadline:
            raise Failed(f"{name}: pid {pid} did not stop within {STOP_TIMEOUT:.0f}s")
        time.sleep(0.05)
    return f"stopped {name}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return procs.alive(pid)  # signalable, and neither a zombie nor gone from /proc


def send(env: CtxEnv, args: argparse.Namespace, text: str) -> Iterator[dict[str, Any]]:
    abi, _ = _paths(env, args.name)
    scope = "temp" if args.temp else ("shared" if args.shared else "private")
    frame: dict[str, Any] = {"op": "send", "session": args.session, "input": text, "scope": scope}
    if args.shared:
        frame["shared"] = args.shared
    if args.turn_id:
        frame["id"] = args.turn_id
    if args.cwd:
        frame["cwd"] = args.cwd
    return stream(socket_of(env.root, abi), frame)


def cancel(env: CtxEnv, name: str, turn_id: str | None) -> list[str]:
    abi, _ = _paths(env, name)
    frame: dict[str, Any] = {"op": "cancel"}
    if turn_id:
        frame["id"] = turn_id
    ids = request(socket_of(env.root, abi), frame).get("ids", [])
    return [str(i) for i in ids]
