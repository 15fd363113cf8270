"""The operator's side of the agent socket (`ctx agent send/status/cancel/stop`)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

from cortexfs.agent_runtime import procs
from cortexfs.errors import ConnectionLost, CtxError, Denied, Failed, TimedOut, Unavailable
from cortexfs.jsonl_socket import Conn, FrameError, connect, peer_of

_ERRORS: dict[str, type[CtxError]] = {"EACCES": Denied, "ENOENT": Failed}


def socket_of(ctx_host: str, abi_path: str) -> str:
    """The alias in /ctx names the socket; readlink it (the alias is the contract)."""
    alias = f"{ctx_host}{abi_path}.sock"
    try:
        return os.readlink(alias)
    except OSError as exc:
        raise Unavailable(f"{alias}: agent is not running ({os.strerror(exc.errno or 0)})") from exc


CONNECT_TIMEOUT = 5.0


def open_agent(path: str, timeout: float = CONNECT_TIMEOUT) -> Conn:
    """A connection a live supervisor serves. connect() to a Unix socket succeeds while
    the listener's backlog has room, whether or not anything accepts, so the agent must
    also answer a `ping` within `timeout`. A full backlog answers EAGAIN at once: retried
    until `timeout`. Listening but not accepting is a stuck agent."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            conn = _connect(path, timeout)
            break
        except (BlockingIOError, TimeoutError) as exc:
            if time.monotonic() >= deadline:
                message = f"{path}: the agent did not accept within {timeout:g} s"
                raise TimedOut(message) from exc
            time.sleep(0.05)
    try:
        _answers(conn, path, timeout)
    except BaseException:
        conn.close()
        raise
    return conn


def _answers(conn: Conn, path: str, timeout: float) -> None:
    """The supervisor that listens (SO_PEERCRED names it) is alive and answers a ping.
    Its pid is 0 when it is in a pid namespace this process cannot see."""
    pid = peer_of(conn.sock).pid
    gone = f"{path}: agent is not running (its supervisor, pid {pid}, is gone)"
    if pid > 0 and not procs.alive(pid):
        raise Unavailable(gone)
    conn.sock.settimeout(timeout)
    try:
        reply = conn.recv() if conn.send({"op": "ping"}) else None
    except TimeoutError:
        if pid > 0 and not procs.alive(pid):
            raise Unavailable(gone) from None
        raise TimedOut(
            f"{path}: the agent did not accept within {timeout:g} s (its supervisor, pid "
            f"{pid}, is running but does not serve its socket)"
        ) from None
    except OSError:
        reply = None
    except FrameError as exc:
        raise Failed(f"{path}: {exc.message}") from exc
    conn.sock.settimeout(None)
    if reply is None:
        raise ConnectionLost(f"{path}: the agent closed the connection")
    _check(reply)


def _connect(path: str, timeout: float) -> Conn:
    try:
        return connect(path, timeout=timeout)
    except (BlockingIOError, TimeoutError):
        raise
    except PermissionError as exc:
        raise Denied(f"{path}: {os.strerror(exc.errno or 0)}: not this uid's agent") from exc
    except OSError as exc:
        raise Unavailable(f"{path}: agent is not running ({os.strerror(exc.errno or 0)})") from exc


def _check(frame: dict[str, Any]) -> dict[str, Any]:
    if frame.get("type") == "error":
        errno_name = str(frame.get("errno", "EIO"))
        raise _ERRORS.get(errno_name, Failed)(f"{errno_name}: {frame.get('message', '')}")
    return frame


def request(path: str, frame: dict[str, Any]) -> dict[str, Any]:
    conn = open_agent(path)
    try:
        conn.send(frame)
        reply = conn.recv()
    except FrameError as exc:
        raise Failed(f"{path}: {exc.message}") from exc
    finally:
        conn.close()
    if reply is None:
        raise ConnectionLost(f"{path}: the agent closed the connection")
    return _check(reply)


def stream(path: str, frame: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The events of a send/resume, through `done`."""
    conn = open_agent(path)
    try:
        conn.send(frame)
        while (event := conn.recv()) is not None:
            yield _check(event)
            if event.get("type") == "done":
                return
        raise ConnectionLost(f"{path}: the agent went away during the turn")
    except FrameError as exc:
        raise Failed(f"{path}: {exc.message}") from exc
    finally:
        conn.close()
