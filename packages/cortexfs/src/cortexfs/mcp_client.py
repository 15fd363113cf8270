"""A minimal MCP client over stdio: JSON-RPC 2.0, one message per line (initialize,
tools/list, tools/call). Reused as-is from the protocol, never wrapped in a new one."""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Mapping
from types import TracebackType
from typing import Any

from cortexfs import __version__
from cortexfs.errors import (
    BadInput,
    Cancelled,
    ConnectionLost,
    Failed,
    Internal,
    TimedOut,
    Unavailable,
)  # fmt: skip
from cortexfs.json_bounds import loads_bounded

PROTOCOL_VERSION = "2025-06-18"
SUPPORTED_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
DEFAULT_TIMEOUT = 30.0
MAX_LINE = 16 * 1024 * 1024
INVALID_PARAMS = -32602
# A server's replies may nest deeper than controls do, but never without bound.
MAX_DEPTH = 256
MAX_STDERR = 32 * 1024
CLOSE_GRACE = 2.0


class McpSession:
    """One server process; `with McpSession(argv) as s: s.initialize(); s.list_tools()`.

    The server runs in a process group of its own, so stopping it stops whatever it
    started too, even a server that ignores its stdin closing. Its stderr is kept (the
    last MAX_STDERR bytes) for the caller to append to the object's log.
    """

    def __init__(
        self,
        argv: list[str],
        timeout: float = DEFAULT_TIMEOUT,
        env: Mapping[str, str] | None = None,
        cwd: str | None = None,
    ) -> None:
        if not argv:
            raise BadInput("MCP server command is empty")
        self.argv = argv
        self.timeout = timeout
        self.next_id = 1
        self.buffer = b""
        self._stderr = bytearray()
        try:
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                env=env, cwd=cwd, start_new_session=True,
            )  # fmt: skip
        except OSError as exc:
            raise Unavailable(f"{argv[0]}: cannot start MCP server: {exc.strerror}") from exc
        assert self.proc.stderr is not None
        self._stderr_fd = self.proc.stderr.fileno()
        os.set_blocking(self._stderr_fd, False)

    def __enter__(self) -> McpSession:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if exc is None:
            self.close()
        else:
            self.kill()

    def _drain_stderr(self) -> None:
        """Keep what the server has written to stderr so far (read in the same thread
        as its replies, so everything written before a reply is kept with it)."""
        while self._stderr_fd >= 0:
            try:
                chunk = os.read(self._stderr_fd, 65536)
            except OSError:  # BlockingIOError: nothing more for now
                return
            if not chunk:
                self._stderr_fd = -1  # EOF: the pipe object is closed in kill()
                return
            self._stderr += chunk
            del self._stderr[:-MAX_STDERR]

    def take_stderr(self) -> bytes:
        """What the server wrote to stderr since the last take."""
        self._drain_stderr()
        data = bytes(self._stderr)
        self._stderr.clear()
        return data

    def close(self) -> None:
        """Polite end: close stdin, give the server a moment, then stop its group."""
        if self.proc.stdin and not self.proc.stdin.closed:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=CLOSE_GRACE)
        self.kill()

    def kill(self) -> None:
        """SIGTERM to the server's process group, SIGKILL after a grace period."""
        for sig in (signal.SIGTERM, signal.SIGKILL):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, sig)
            try:
                self.proc.wait(timeout=CLOSE_GRACE)
                break
            except subprocess.TimeoutExpired:
                continue
        self._drain_stderr()
        self._stderr_fd = -1
        for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def _send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(message).encode() + b"\n")
            self.proc.stdin.flush()
        except BrokenPipeError as exc:
            raise ConnectionLost(f"{self.argv[0]}: MCP server exited") from exc

    def _read_line(self, deadline: float, cancel_fd: int | None) -> bytes:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ, "server")
            if self._stderr_fd >= 0:
                selector.register(self._stderr_fd, selectors.EVENT_READ, "stderr")
            if cancel_fd is not None:
                selector.register(cancel_fd, selectors.EVENT_READ, "cancel")
            while b"\n" not in self.buffer:
                remaining = deadline - time.monotonic()
                ready = selector.select(remaining) if remaining > 0 else []
                if not ready:
                    raise TimedOut(f"{self.argv[0]}: no answer within {self.timeout:g} s")
                kinds = {key.data for key, _ in ready}
                if "cancel" in kinds:
                    raise Cancelled(f"{self.argv[0]}: the caller hung up")
                if "stderr" in kinds:
                    self._drain_stderr()
                    if self._stderr_fd < 0:
                        selector.unregister(next(k.fileobj for k, _ in ready if k.data == "stderr"))
                if "server" not in kinds:
                    continue
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise ConnectionLost(f"{self.argv[0]}: MCP server closed its output")
                self.buffer += chunk
                if len(self.buffer) > MAX_LINE:
                    raise Internal(f"{self.argv[0]}: MCP message over {MAX_LINE} bytes")
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def request(
        self,
        method: str,
        params: dict[str, Any],
        deadline: float | None = None,
        cancel_fd: int | None = None,
    ) -> dict[str, Any]:
        """`deadline` (monotonic) defaults to now + timeout; `cancel_fd` readable (the
        caller's connection closing) abandons the request with Cancelled."""
        ident = self.next_id
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        deadline = time.monotonic() + self.timeout if deadline is None else deadline
        while True:
            line = self._read_line(deadline, cancel_fd)
            if not line.strip():
                continue
            try:
                message = loads_bounded(line.decode("utf-8"), MAX_DEPTH)
            except ValueError as exc:
                raise Internal(f"{self.argv[0]}: MCP server sent invalid JSON") from exc
            if not isinstance(message, dict):
                raise Internal(f"{self.argv[0]}: MCP message is not an object")
            if "method" in message and "id" in message:
                # A server-to-client request we do not offer (sampling, roots, ...).
                error = {"code": -32601, "message": "method not supported by cortexfs"}
                self._send({"jsonrpc": "2.0", "id": message["id"], "error": error})
                continue
            if message.get("id") != ident:
                continue  # notifications and stale replies
            return self._result(method, message)

    def _result(self, method: str, message: dict[str, Any]) -> dict[str, Any]:
        if "error" in message:
            error = message["error"] if isinstance(message["error"], dict) else {}
            text = f"{method}: {error.get('message', 'error')} ({error.get('code')})"
            if error.get("code") == INVALID_PARAMS:
                raise BadInput(text)
            raise Failed(text)
        result = message.get("result")
        if not isinstance(result, dict):
            raise Internal(f"{self.argv[0]}: {method} result is not an object")
        return result

    def initialize(self, deadline: float | None = None) -> dict[str, Any]:
        params = {
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "cortexfs", "version": __version__},
        }
        result = self.request("initialize", params, deadline)
        version = result.get("protocolVersion")
        if version not in SUPPORTED_VERSIONS:
            raise Unavailable(f"{self.argv[0]}: unsupported MCP protocol version {version!r}")
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return result

    def list_tools(self) -> list[dict[str, Any]]:
        tools: list[dict[str, Any]] = []
        cursor: str | None = None
        while True:
            result = self.request("tools/list", {"cursor": cursor} if cursor else {})
            page = result.get("tools")
            if not isinstance(page, list) or not all(isinstance(t, dict) for t in page):
                raise Internal(f"{self.argv[0]}: tools/list result has no tools list")
            tools.extend(page)
            cursor = result.get("nextCursor")
            if not isinstance(cursor, str) or not cursor:
                return tools

    def call_tool(
        self,
        name: str,
        arguments: dict[str, Any],
        deadline: float | None = None,
        cancel_fd: int | None = None,
    ) -> dict[str, Any]:
        params = {"name": name, "arguments": arguments}
        return self.request("tools/call", params, deadline, cancel_fd)
