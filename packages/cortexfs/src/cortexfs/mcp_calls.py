"""How an MCP driver's call reaches a server: `McpCall` says what to call and under
which limits; a `Sessions` runs it. `ColdSessions` starts the server for this one call
(the runner's own process, when no warm host is reachable); warm/pool.py keeps servers
running between calls."""

from __future__ import annotations

import contextlib
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass
from types import FrameType
from typing import Any, Protocol

from cortexfs.errors import Cancelled, Internal
from cortexfs.mcp_client import DEFAULT_TIMEOUT, McpSession
from cortexfs.object_log import append_log

DEFAULT_IDLE = 300.0


@dataclass(frozen=True)
class McpCall:
    command: tuple[str, ...]
    remote: str
    arguments: dict[str, Any]
    timeout: float  # seconds for start, initialize and the call together
    idle: float  # a warm server unused this long is stopped
    log: str  # the object's .d/log, where the server's stderr goes


class Sessions(Protocol):
    def call(self, call: McpCall) -> dict[str, Any]: ...


def seconds(driver: dict[str, str], key: str, default: float, where: str) -> float:
    """A driver's `timeout=` / `idle=`: a positive number of seconds."""
    text = driver.get(key)
    if text is None or text == "":
        return default
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0 or value == float("inf"):
        raise Internal(f"{where}: {key}={text} is not a positive number of seconds")
    return value


def mcp_call(driver: dict[str, str], where: str, command: list[str],
             arguments: dict[str, Any]) -> McpCall:  # fmt: skip
    remote = driver.get("tool", "")
    if not remote:
        raise Internal(f"{where}: tool= is missing")
    timeout = seconds(driver, "timeout", DEFAULT_TIMEOUT, where)
    idle = seconds(driver, "idle", DEFAULT_IDLE, where)
    log = where.rsplit("/", 1)[0] + "/log"
    return McpCall(tuple(command), remote, arguments, timeout, idle, log)


@contextlib.contextmanager
def cancel_on_signals() -> Iterator[None]:
    """SIGTERM/SIGINT during the call raise Cancelled, so the caller's `with` stops the
    server's process group and the runner still ends with `error` and `done`."""

    def interrupted(signum: int, _frame: FrameType | None) -> None:
        raise Cancelled(f"cancelled by {signal.Signals(signum).name}")

    previous = {sig: signal.signal(sig, interrupted) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


class ColdSessions:
    """A server started for one call and stopped after it."""

    def call(self, call: McpCall) -> dict[str, Any]:
        deadline = time.monotonic() + call.timeout
        session: McpSession | None = None
        try:
            with cancel_on_signals():
                session = McpSession(list(call.command), call.timeout)
                with session:
                    session.initialize(deadline)
                    return session.call_tool(call.remote, call.arguments, deadline)
        finally:
            if session is not None:
                append_log(call.log, session.take_stderr())
