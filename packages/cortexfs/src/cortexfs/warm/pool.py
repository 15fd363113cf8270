"""Live MCP sessions, one per server: the same command, environment and working
directory reuse one initialised server; calls to it take turns. A call that times out
or is cancelled stops the server's process group (its state is unknown), a session
unused for its driver's `idle=` seconds is closed, and the server's stderr goes to the
log of the object whose call was running (or that started it)."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cortexfs.errors import BadInput, Failed, TimedOut
from cortexfs.mcp_calls import McpCall
from cortexfs.mcp_client import McpSession
from cortexfs.object_log import append_log

Key = tuple[tuple[str, ...], tuple[tuple[str, str], ...], str]


@dataclass
class _Live:
    session: McpSession | None
    idle: float
    log: str
    lock: threading.Lock = field(default_factory=threading.Lock)
    last_used: float = field(default_factory=time.monotonic)
    busy: int = 0


class Pool:
    def __init__(self) -> None:
        self._live: dict[Key, _Live] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._live)

    def call(self, call: McpCall, env: Mapping[str, str], cwd: str,
             cancel_fd: int | None) -> dict[str, Any]:  # fmt: skip
        key: Key = (call.command, tuple(sorted(env.items())), cwd)
        deadline = time.monotonic() + call.timeout
        while True:
            live = self._claim(key, call)
            try:
                # Waiting for the server's previous call counts against this call's timeout.
                if not live.lock.acquire(timeout=max(0.0, deadline - time.monotonic())):
                    raise TimedOut(f"{call.command[0]}: busy past {call.timeout:g} s")
                try:
                    if self._current(key, live):
                        return self._call_locked(key, live, call, env, cwd, deadline, cancel_fd)
                finally:
                    live.lock.release()
            finally:
                with self._lock:
                    live.busy -= 1
                    live.last_used = time.monotonic()
            # The session was dropped while this call waited: claim the new one.

    def _current(self, key: Key, live: _Live) -> bool:
        with self._lock:
            return self._live.get(key) is live

    def _call_locked(
        self,
        key: Key,
        live: _Live,
        call: McpCall,
        env: Mapping[str, str],
        cwd: str,
        deadline: float,
        cancel_fd: int | None,
    ) -> dict[str, Any]:
        live.log = call.log
        try:
            session = live.session
            if session is None or not session.alive:
                session = live.session = self._start(call, env, cwd, deadline)
            return session.call_tool(call.remote, call.arguments, deadline, cancel_fd)
        except (BadInput, Failed):
            raise  # the server answered: it stays warm
        except BaseException:
            self._drop(key, live)
            raise
        finally:
            if live.session is not None:
                append_log(live.log, live.session.take_stderr())

    def _claim(self, key: Key, call: McpCall) -> _Live:
        with self._lock:
            live = self._live.get(key)
            if live is None:
                live = _Live(None, call.idle, call.log)
                self._live[key] = live
            live.idle = call.idle
            live.busy += 1
            return live

    @staticmethod
    def _start(call: McpCall, env: Mapping[str, str], cwd: str, deadline: float) -> McpSession:
        session = McpSession(list(call.command), call.timeout, env=env, cwd=cwd)
        try:
            session.initialize(deadline)
        except BaseException:
            session.kill()
            append_log(call.log, session.take_stderr())
            raise
        return session

    def _drop(self, key: Key, live: _Live) -> None:
        with self._lock:
            if self._live.get(key) is live:
                del self._live[key]
        if live.session is not None:
            live.session.kill()

    def reap(self, now: float | None = None) -> int:
        """Close sessions idle past their limit; how many are left."""
        now = time.monotonic() if now is None else now
        with self._lock:
            stale = [
                (k, v) for k, v in self._live.items()
                if not v.busy and now - v.last_used >= v.idle
            ]  # fmt: skip
            for key, _ in stale:
                del self._live[key]
            left = len(self._live)
        for _, live in stale:
            if live.session is not None:
                live.session.close()
                append_log(live.log, live.session.take_stderr())
        return left

    def close_all(self) -> None:
        with self._lock:
            every = list(self._live.values())
            self._live.clear()
        # All at once: a server that ignores stdin closing and SIGTERM takes two grace
        # periods to end, and a host stopping with several would take their sum.
        closing = [threading.Thread(target=_close, args=(live,)) for live in every]
        for thread in closing:
            thread.start()
        for thread in closing:
            thread.join()


def _close(live: _Live) -> None:
    if live.session is not None:
        live.session.close()
        append_log(live.log, live.session.take_stderr())
