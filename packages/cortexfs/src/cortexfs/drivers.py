"""How a permitted call runs: an exec program, an MCP server's tool, or the echo model."""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import select
import signal
import subprocess
import time
from typing import IO, Any

from cortexfs.errors import BadInput, Failed, Internal, TimedOut, Unavailable
from cortexfs.events import EventWriter
from cortexfs.json_bounds import loads_bounded
from cortexfs.mcp_calls import ColdSessions, McpCall, Sessions, mcp_call, seconds

MAX_INPUT = 1 << 20


def parse_command(driver: dict[str, str], where: str) -> list[str]:
    try:
        command = loads_bounded(driver.get("command", ""))
    except ValueError as exc:
        raise Internal(f"{where}: command= is not a JSON array of strings") from exc
    if not isinstance(command, list) or not command or not all(isinstance(a, str) for a in command):
        raise Internal(f"{where}: command= is not a JSON array of strings")
    return command


def parse_arguments(args: list[str], stdin: IO[bytes] | None) -> dict[str, Any]:
    """Arguments are one JSON object: argv[1] or stdin (empty stdin means {})."""
    if len(args) > 1:
        raise BadInput("expected at most one argument: a JSON object")
    if args:
        raw = args[0].encode()
    elif stdin is None or stdin.isatty():
        raw = b""
    else:
        raw = stdin.read(MAX_INPUT + 1)
    if len(raw) > MAX_INPUT:
        raise BadInput(f"input over {MAX_INPUT} bytes")
    if not raw.strip():
        return {}
    try:
        value = loads_bounded(raw.decode("utf-8"))
    except ValueError as exc:  # UnicodeDecodeError included
        raise BadInput(f"input is not JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise BadInput("input must be a JSON object")
    return value


def _stop_group(proc: subprocess.Popen[bytes], sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, sig)


def run_exec(
    command: list[str], args: list[str], writer: EventWriter, timeout: float | None = None
) -> int:
    """Stream the program's stdout as deltas, then the whole text as one message. The
    program runs in a process group of its own: SIGTERM/SIGINT are passed on to it, and
    past `timeout` seconds the group is killed (ETIMEDOUT)."""
    try:
        proc = subprocess.Popen([*command, *args], stdout=subprocess.PIPE, process_group=0)
    except OSError as exc:
        raise Unavailable(f"{command[0]}: cannot execute: {exc.strerror}") from exc
    previous = {
        sig: signal.signal(sig, lambda s, _f: _stop_group(proc, s))
        for sig in (signal.SIGTERM, signal.SIGINT)
    }
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    parts: list[str] = []
    deadline = None if timeout is None else time.monotonic() + timeout
    try:
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        while True:
            if deadline is not None:
                ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
                if not ready:
                    _stop_group(proc, signal.SIGKILL)
                    proc.wait()
                    raise TimedOut(f"{command[0]}: still running after {timeout:g} s; killed")
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            text = decoder.decode(chunk)
            if text:
                parts.append(text)
                writer.delta(text)
        tail = decoder.decode(b"", final=True)
        if tail:
            parts.append(tail)
            writer.delta(tail)
        status = proc.wait()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    writer.message("".join(parts))
    if status != 0:
        raise Failed(f"{command[0]} exited with status {status}")
    return 0


def check_schema(schema: Any, arguments: dict[str, Any], where: str) -> None:
    """Arguments that break the projected schema never reach the server."""
    if schema is None:
        return
    from cortexfs.schema_check import SchemaMismatch, check_arguments

    try:
        check_arguments(schema, arguments)
    except SchemaMismatch as exc:
        raise BadInput(f"arguments do not match {where}: {exc}") from exc


def run_mcp(call: McpCall, sessions: Sessions, writer: EventWriter) -> int:
    result = sessions.call(call)
    content = result.get("content", [])
    if not isinstance(content, list):
        raise Internal(f"{call.remote}: tools/call content is not a list")
    text = "".join(
        item["text"]
        for item in content
        if isinstance(item, dict) and isinstance(item.get("text"), str)
    )
    extra: dict[str, Any] = {"content": content}
    if "structuredContent" in result:
        extra["structured"] = result["structuredContent"]
    writer.message(text, **extra)
    if result.get("isError") is True:
        raise Failed(f"{call.remote}: the MCP tool reported an error")
    return 0


def run_echo(arguments: dict[str, Any], writer: EventWriter) -> int:
    """The debug model: answers with its input, so calls can be checked end to end."""
    value = arguments.get("input", "")
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
    writer.delta(text)
    writer.message(text)
    return 0


def run_driver(
    driver: dict[str, str],
    where: str,
    args: list[str],
    stdin: IO[bytes] | None,
    writer: EventWriter,
    schema: Any = None,
    sessions: Sessions | None = None,
) -> int:
    """`schema` is the tool's `.d/schema` (None: nothing to check), read by whoever
    authorised the call; `sessions` runs MCP calls (default: a server for this call)."""
    kind = driver.get("kind")
    if kind == "exec":
        timeout = seconds(driver, "timeout", 0.0, where) or None  # exec: no limit by default
        return run_exec(parse_command(driver, where), args, writer, timeout)
    if kind == "mcp":
        arguments = parse_arguments(args, stdin)
        call = mcp_call(driver, where, parse_command(driver, where), arguments)
        check_schema(schema, arguments, where.rsplit("/", 1)[0] + "/schema")
        return run_mcp(call, sessions or ColdSessions(), writer)
    if kind == "echo":
        return run_echo(parse_arguments(args, stdin), writer)
    if kind == "agent.create":
        raise Unavailable(f"{where}: kind=agent.create runs only for an agent, in its broker")
    raise Unavailable(f"{where}: no driver (kind={kind or 'unset'})")
