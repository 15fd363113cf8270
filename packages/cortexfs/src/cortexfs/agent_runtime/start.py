"""`ctx agent start`: check everything a launch needs, then leave a supervisor behind.

The first launch is planned here, in the operator's process, so a bad mount row, a
missing tool or an unreachable runtime is reported before anything starts. The
supervisor is a grandchild in its own session (not killed with the operator's terminal);
it reports readiness (or its error) over a pipe once its socket answers and the `.sock`
alias in /ctx resolves to it.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
import time
from dataclasses import dataclass

from cortexfs.agent_runtime.client import request
from cortexfs.agent_runtime.supervisor import StartConfig, Supervisor
from cortexfs.errors import EXIT_INTERNAL, CtxError, Failed, Internal
from cortexfs.launch.host import gather
from cortexfs.launch.identity import may_operate
from cortexfs.launch.plan import plan_launch

LOCK_WAIT = 1.0


@dataclass(frozen=True)
class Started:
    pid: int
    socket: str


def _running_pid(socket_path: str) -> int | None:
    with contextlib.suppress(CtxError):
        status = request(socket_path, {"op": "status"})
        pid = status.get("pid")
        return pid if type(pid) is int else 0
    return None


def _report(fd: int, line: str) -> None:
    with contextlib.suppress(OSError):
        os.write(fd, line.encode())
    os.close(fd)


def _supervise(cfg: StartConfig, sup: Supervisor, ready: int) -> int:  # pragma: no cover
    """In the grandchild: stdio to the log, prepare, report, serve until stopped."""
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    logfd = os.open(cfg.paths.log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(logfd, 1)
    os.dup2(logfd, 2)
    try:
        sup.prepare()
    except (CtxError, OSError) as exc:
        code, message = (exc.exit_code, exc.message) if isinstance(exc, CtxError) else (
            EXIT_INTERNAL, str(exc),
        )  # fmt: skip
        with contextlib.suppress(Exception):
            sup.shutdown()  # leave no socket, run directory or cgroup behind
        _report(ready, f"error {code} {message}\n")
        return code
    _report(ready, f"ready {os.getpid()}\n")
    sup.serve()
    return 0


def start(cfg: StartConfig) -> Started:
    from cortexfs.agent_runtime.load import ctxterm_runner, load_spec

    spec = load_spec(cfg.ctx_host, cfg.ref)
    may_operate(spec, cfg.operator)
    pid = _running_pid(cfg.paths.socket)
    if pid is not None:
        raise Failed(f"{cfg.ref.abi_path}: already running (pid {pid}, {cfg.paths.socket})")
    host = gather(ctxterm_runner(cfg.ctx_host), cfg.operator.uid)
    first = plan_launch(
        spec, cfg.request, cfg.operator, cfg.operator_env, cfg.ctx_host, cfg.paths.broker, host,
    )  # fmt: skip
    sup = Supervisor(cfg, host, first, spec.owner)
    os.makedirs(os.path.dirname(cfg.paths.log), mode=0o755, exist_ok=True)
    lock = _lock(cfg.paths.lock)
    try:
        return _fork_supervisor(cfg, sup)
    finally:
        os.close(lock)


def _fork_supervisor(cfg: StartConfig, sup: Supervisor) -> Started:
    read_end, write_end = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    child = os.fork()
    if child == 0:  # pragma: no cover - the detaching child
        os.close(read_end)
        os.setsid()
        if os.fork() == 0:
            code = EXIT_INTERNAL
            try:
                code = _supervise(cfg, sup, write_end)
            finally:
                os._exit(code)
        os._exit(0)
    os.close(write_end)
    os.waitpid(child, 0)
    with os.fdopen(read_end, "rb") as handle:
        answer = handle.read().decode("utf-8", "replace").strip()
    word, _, rest = answer.partition(" ")
    if word == "ready" and rest.isdigit():
        return Started(int(rest), cfg.paths.socket)
    if word == "error":
        number, _, message = rest.partition(" ")
        error = Internal(message)
        error.exit_code = int(number) if number.isdigit() else EXIT_INTERNAL
        raise error
    raise Internal(f"the supervisor exited before it was ready; see {cfg.paths.log}")


def _lock(path: str) -> int:
    """Taken before planning; the supervisor inherits it and holds it until it exits.
    Another agent's supervisor may hold it for an instant while it reaps this agent's
    stale cgroup (stale_cgroups.py): that is waited for, up to LOCK_WAIT seconds."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() >= deadline:
                os.close(fd)
                raise Failed(f"{path}: the agent is already running or starting") from None
            time.sleep(0.02)
