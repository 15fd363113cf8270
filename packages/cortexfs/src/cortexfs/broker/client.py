"""The object runner's side of the broker, used inside a sandbox: send the call with the
caller's stdin as a descriptor, print the events as the runner would, exit as it would."""

from __future__ import annotations

import json
import os
from typing import IO

from cortexfs.broker.protocol import VERSION
from cortexfs.errors import EXIT_BAD_INPUT, EXIT_DENIED, EXIT_INTERNAL, EXIT_UNAVAILABLE
from cortexfs.jsonl_socket import Conn, FrameError, connect

_BY_ERRNO = {"EACCES": EXIT_DENIED, "EINVAL": EXIT_BAD_INPUT, "EMSGSIZE": EXIT_BAD_INPUT}


def _emit(out: IO[str], event: object) -> None:
    out.write(json.dumps(event, ensure_ascii=False, sort_keys=True) + "\n")
    out.flush()


def _fail(out: IO[str], errno_name: str, message: str, code: int) -> int:
    _emit(out, {"type": "error", "errno": errno_name, "message": message})
    _emit(out, {"type": "done", "status": "error", "exit_code": code})
    return code


def _relay(conn: Conn, out: IO[str]) -> int:
    while True:
        frame = conn.recv()
        if frame is None:
            return _fail(out, "ECONNRESET", "the broker closed the call", EXIT_INTERNAL)
        kind = frame.get("type")
        if kind == "event":
            _emit(out, frame.get("event"))
        elif kind == "result":
            code = frame.get("exit_code")
            return code if type(code) is int else EXIT_INTERNAL
        elif kind == "error":
            errno_name = str(frame.get("errno", "EIO"))
            code = _BY_ERRNO.get(errno_name, EXIT_INTERNAL)
            return _fail(out, errno_name, str(frame.get("message", "")), code)


def call(socket_path: str, argv: list[str], out: IO[str], stdin_fd: int = 0) -> int:
    if not argv:
        return _fail(out, "EINVAL", "usage: cortexfs-object-runner OBJECT [ARGS...]", 2)
    try:
        conn = connect(socket_path)
    except OSError as exc:
        message = f"{socket_path}: {os.strerror(exc.errno or 0)}"
        return _fail(out, "ECONNREFUSED", message, EXIT_UNAVAILABLE)
    try:
        request = {"v": VERSION, "op": "call", "id": "1", "object": argv[0], "args": argv[1:]}
        conn.send_with_fds({**request, "stdin": True}, [stdin_fd])
        return _relay(conn, out)
    except FrameError as exc:
        return _fail(out, exc.errno_name, exc.message, EXIT_INTERNAL)
    except OSError as exc:
        return _fail(out, "EIO", f"broker: {os.strerror(exc.errno or 0)}", EXIT_INTERNAL)
    finally:
        conn.close()
