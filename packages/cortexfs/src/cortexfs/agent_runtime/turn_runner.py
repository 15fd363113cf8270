"""Run one turn: derive the launch from the agent's current controls, record the session,
start the chain, stream its output, and cancel it by process group when asked."""

from __future__ import annotations

import codecs
import contextlib
import datetime
import os
import signal
import subprocess
import threading
from collections.abc import Callable

from cortexfs.agent_runtime import fs_ops, procs
from cortexfs.agent_runtime.sessions import SessionRef, begin_ops, end_ops
from cortexfs.agent_runtime.turns import RUNNING, Turn
from cortexfs.errors import EXIT_INTERNAL, EXIT_UNAVAILABLE, CtxError
from cortexfs.launch import pin
from cortexfs.launch.chain import Launch
from cortexfs.launch.host import SYSTEM_PATH

GRACE_SECONDS = 2.0
STDERR_TAIL = 4096


def now() -> str:
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _exit_code(returncode: int) -> int:
    return returncode if returncode >= 0 else 128 - returncode


def _tail(path: str) -> str:
    try:
        with open(path, "rb") as handle:
            handle.seek(max(0, os.path.getsize(path) - STDERR_TAIL))
            return handle.read().decode("utf-8", "replace")
    except OSError:
        return ""


class TurnRunner:
    def __init__(
        self, plan: Callable[[Turn], tuple[Launch, SessionRef | None]], session_home: str,
        stderr_path: Callable[[str], str], roots: set[int], exposes_ctx: Callable[[str], bool],
    ) -> None:  # fmt: skip
        self.plan = plan  # the launch and the session, once the turn's policy allowed both
        self.session_home = session_home
        self.stderr_path = stderr_path
        self.roots = roots  # chain pids of running turns: the broker's peers descend from one
        self.exposes_ctx = exposes_ctx  # checked again on each pinned bind source at spawn
        self.last: Launch | None = None  # the most recent launch (shown by `status`)

    def run(self, turn: Turn) -> None:
        """Whatever happens, the turn ends with one `done` (a client is waiting for it)."""
        try:
            self._run(turn)
        except Exception as exc:
            turn.emit("error", errno="EIO", message=f"internal error: {type(exc).__name__}: {exc}")
            turn.emit("done", status="error", exit_code=EXIT_INTERNAL)

    def _run(self, turn: Turn) -> None:
        try:
            launch, session = self.plan(turn)
            cwd = launch.mounts.cwd
            # The sandbox binds the agent's state directory, so it must exist first.
            ops = [fs_ops.mkdir(self.session_home)] if launch.mounts.ctx_writable else []
            if session:
                ops += begin_ops(session, turn.id, cwd, turn.text, now())
            fs_ops.run_as(launch.identity.uid, launch.identity.gid, ops)
        except CtxError as exc:
            turn.emit("error", errno=exc.errno_name, message=exc.message)
            turn.emit("done", status="error", exit_code=exc.exit_code)
            return
        self.last = launch
        turn.emit("start", session=turn.session, cwd=cwd)
        try:
            code = self._spawn(turn, launch)
        except OSError as exc:
            turn.emit("error", errno="EIO", message=f"{launch.argv[0]}: {exc.strerror}")
            code = EXIT_UNAVAILABLE
        except CtxError as exc:  # a bind source changed after the plan checked it
            turn.emit("error", errno=exc.errno_name, message=exc.message)
            code = exc.exit_code
        status = "cancelled" if turn.cancelled else ("ok" if code == 0 else "error")
        extra = {} if status == "ok" else {"stderr": _tail(self.stderr_path(turn.id))}
        if session:
            ops = end_ops(session, turn.id, status, turn.output, list(turn.events), now())
            try:
                fs_ops.run_as(launch.identity.uid, launch.identity.gid, ops)
            except CtxError as exc:
                turn.emit("error", errno=exc.errno_name, message=f"session: {exc.message}")
        turn.emit("done", status=status, exit_code=code, **extra)

    def _spawn(self, turn: Turn, launch: Launch) -> int:
        spawnable = pin.prepare(launch, self.exposes_ctx)
        try:
            with open(self.stderr_path(turn.id), "wb") as stderr:
                proc = subprocess.Popen(
                    list(spawnable.argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                    stderr=stderr, env={"PATH": SYSTEM_PATH}, cwd="/", start_new_session=True,
                    pass_fds=spawnable.fds,
                )  # fmt: skip
        finally:
            spawnable.close()
        turn.pid = proc.pid
        self.roots.add(proc.pid)
        try:
            if turn.cancelled:
                self.cancel(turn)
            threading.Thread(target=self._feed, args=(proc, turn.text), daemon=True).start()
            self._stream(proc, turn)
            return _exit_code(proc.wait())
        finally:
            self.roots.discard(proc.pid)

    @staticmethod
    def _feed(proc: subprocess.Popen[bytes], text: str) -> None:
        assert proc.stdin is not None
        with contextlib.suppress(OSError):
            proc.stdin.write(text.encode())
        with contextlib.suppress(OSError):
            proc.stdin.close()

    @staticmethod
    def _stream(proc: subprocess.Popen[bytes], turn: Turn) -> None:
        assert proc.stdout is not None
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        while chunk := os.read(proc.stdout.fileno(), 65536):
            text = decoder.decode(chunk)
            if text:
                turn.emit("delta", text=text)
        tail = decoder.decode(b"", final=True)
        if tail:
            turn.emit("delta", text=tail)
        proc.stdout.close()

    def cancel(self, turn: Turn) -> bool:
        """SIGTERM the sandbox's hosted process groups (the chain's own group if there
        are none yet), SIGKILL the whole chain if it outlives the grace period."""
        if turn.state != RUNNING:
            return False
        turn.cancelled = True
        if turn.pid is None:
            return True  # not started yet: `_spawn` cancels it as soon as it exists
        groups = procs.hosted_groups(turn.pid) or {turn.pid}
        for pgid in groups:
            procs.kill_group(pgid, signal.SIGTERM)
        timer = threading.Timer(GRACE_SECONDS, self._kill, (turn, turn.pid))
        timer.daemon = True
        timer.start()
        return True

    @staticmethod
    def _kill(turn: Turn, root: int) -> None:
        if turn.state != RUNNING:
            return
        for pid in [root, *procs.descendants(root)]:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
