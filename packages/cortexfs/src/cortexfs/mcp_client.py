"""A minimal MCP client over stdio: JSON-RPC 2.0, one message per line (initialize,
tools/list, tools/call). Reused as-is from the protocol, never wrapped in a new one."""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import time
from types import TracebackType
from typing import Any

from cortexfs import __version__
from cortexfs.errors import BadInput, Failed, Internal, Unavailable

PROTOCOL_VERSION = "2025-06-18"
SUPPORTED_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
DEFAULT_TIMEOUT = 30.0
MAX_LINE = 16 * 1024 * 1024
INVALID_PARAMS = -32602


class McpSession:
    """One server process; `with McpSession(argv) as s: s.initialize(); s.list_tools()`."""

    def __init__(self, argv: list[str], timeout: float = DEFAULT_TIMEOUT) -> None:
        if not argv:
            raise BadInput("MCP server command is empty")
        self.argv = argv
        self.timeout = timeout
        self.next_id = 1
        self.buffer = b""
        try:
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
            )
        except OSError as exc:
            raise Unavailable(f"{argv[0]}: cannot start MCP server: {exc.strerror}") from exc

    def __enter__(self) -> McpSession:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()

    def _send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(message).encode() + b"\n")
            self.proc.stdin.flush()
        except BrokenPipeError as exc:
            raise Unavailable(f"{self.argv[0]}: MCP server exited") from exc

    def _read_line(self, deadline: float) -> bytes:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not selector.select(remaining):
                    raise Unavailable(f"{self.argv[0]}: MCP server timed out")
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise Unavailable(f"{self.argv[0]}: MCP server closed its output")
                self.buffer += chunk
                if len(self.buffer) > MAX_LINE:
                    raise Internal(f"{self.argv[0]}: MCP message over {MAX_LINE} bytes")
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        ident = self.next_id
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        deadline = time.monotonic() + self.timeout
        while True:
            line = self._read_line(deadline)
            if not line.strip():
                continue
            try:
                message = json.loads(line)
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

    def initialize(self) -> dict[str, Any]:
        params = {
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "cortexfs", "version": __version__},
        }
        result = self.request("initialize", params)
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

    def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return self.request("tools/call", {"name": name, "arguments": arguments})
