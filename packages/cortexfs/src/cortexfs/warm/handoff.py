"""The object runner's warm path: hand an MCP tool call to the uid's warm host.

Imported on every call before anything else, so it uses only modules the interpreter
has already loaded (`_socket` and `_signal` rather than `socket` and `signal`, which
import `enum`; no `json`, which imports `re`). The host makes every decision the runner
would (warm/host.py runs `runner.run` with the caller's argv, environment and uid),
so this side only recognises an MCP tool, passes the call on and relays the output.
`call` returns None whenever the call is not one for the host, or no host can be
reached: the runner then runs the call itself, as before.
"""

import _signal  # type: ignore[import-not-found]  # signal without enum
import _socket
import os
import sys
import time

from cortexfs.warm.paths import SOCKET, host_dirs, private_dir, uid_dir
from cortexfs.warm.wire import EXIT_PREFIX, MAGIC_JOB, encode_request

_START_WAIT = 10.0
# The host imports cortexfs from where this runner did (an installed package, a venv or
# a copied tree that a launcher put on sys.path), with this same interpreter.
_LIB = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_HOST_MAIN = (
    "import sys; sys.path.insert(0, sys.argv[1]); from cortexfs.warm.host import main; "
    "raise SystemExit(main(sys.argv[2:]))"
)
_CANCEL_WAIT = 5.0


class _Interrupted(Exception):
    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.name = {_signal.SIGTERM: "SIGTERM", _signal.SIGINT: "SIGINT"}.get(signum, "signal")


def _interrupted(signum: int, _frame: object) -> None:
    raise _Interrupted(signum)


def is_mcp_tool(path: str) -> bool:
    """The object's driver says kind=mcp (unreadable: not ours). The object itself is
    not read here: the host reads it and decides everything, as the runner would."""
    try:
        with open(path + ".d/driver", "rb") as handle:
            return b"kind=mcp" in handle.read(65536).split(b"\n")
    except OSError:
        return False


def _connect(path: str, uid: int) -> _socket.socket | None:
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.connect(path)
        cred = sock.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, 12)
        if int.from_bytes(cred[4:8], sys.byteorder) != uid:
            raise PermissionError(f"{path} is served by another uid")
    except OSError:
        sock.close()
        return None
    return sock


def _start_host(directory: str) -> bool:
    """Start a host (detached: its own session, stdio on /dev/null) and wait until it
    listens; False when it could not (then the runner runs the call itself)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        try:
            os.setsid()
            if os.fork():
                os._exit(0)
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            os.close(read_end)
            os.set_inheritable(write_end, True)
            os.chdir("/")
            host = [sys.executable, "-c", _HOST_MAIN, _LIB, directory, str(write_end)]
            os.execv(sys.executable, host)  # noqa: S606 - an argument list, no shell
        finally:
            os._exit(127)
    os.close(write_end)
    os.waitpid(pid, 0)
    with os.fdopen(read_end, "rb") as handle:
        answer = handle.read(64)
    return answer in (b"ready\n", b"busy\n")


def _host(uid: int, known: str | None) -> _socket.socket | None:
    """The uid's host: the one at `known` (the supervisor started it and says where),
    else the one for this installation, started here if none serves."""
    if known is not None:
        return _connect(known, uid)
    directories = host_dirs(uid)
    for directory in directories:
        sock = _connect(f"{directory}/{SOCKET}", uid)
        if sock is not None:
            return sock
    directory = directories[0]
    path = f"{directory}/{SOCKET}"
    try:
        private_dir(uid_dir(uid), uid)
        private_dir(directory, uid)
    except OSError:
        return None
    if not _start_host(directory):
        return None
    deadline = time.monotonic() + _START_WAIT
    while (sock := _connect(path, uid)) is None and time.monotonic() < deadline:
        time.sleep(0.01)  # another runner's host is still binding
    return sock


def _recv(sock: _socket.socket) -> bytes:
    """A reset (a host that refused the caller, or went away) reads as the end."""
    try:
        return sock.recv(65536)
    except ConnectionError:
        return b""


def _relay(sock: _socket.socket) -> int:
    """Write the host's JSONL to stdout; the exit code is its `#exit N` trailer."""
    pending = b""
    received = False
    while chunk := _recv(sock):
        received = True
        pending += chunk
        lines, _, pending = pending.rpartition(b"\n")
        if not _:
            continue
        out: list[bytes] = []
        for line in lines.split(b"\n"):
            if line.startswith(EXIT_PREFIX):
                code = line[len(EXIT_PREFIX) :]
                if out:
                    os.write(1, b"".join(out))
                return int(code) if code.isdigit() else 70
            out.append(line + b"\n")
        os.write(1, b"".join(out))
    if pending:
        os.write(1, pending + b"\n")
    return -1 if received else -2  # the host went away (-2: before running anything)


def _cancelled(sock: _socket.socket, name: str) -> int:
    """Tell the host (half-close: it stops the server's process group), wait for it to
    finish, then end the stream as the runner always does."""
    try:
        sock.shutdown(_socket.SHUT_WR)
        sock.settimeout(_CANCEL_WAIT)
        while sock.recv(65536):
            pass
    except OSError:
        pass
    message = f"cancelled by {name}; the MCP server's process group was stopped"
    os.write(
        1, b'{"errno": "ECANCELED", "message": "' + message.encode() + b'", "type": "error"}\n'
    )
    os.write(1, b'{"exit_code": 1, "status": "error", "type": "done"}\n')
    return 1


def call(argv: list[str]) -> int | None:
    if not argv or "/" not in argv[0]:
        return None
    path = os.path.abspath(argv[0])
    if not is_mcp_tool(path):
        return None
    return _hand_on(encode_request(os.getcwd(), [path, *argv[1:]], dict(os.environ)))


def call_job(job: str, host: str | None) -> int | None:
    """A call the broker already decided (broker/exec_child.py, as the agent's uid,
    outside the sandbox): the host at `host` runs its driver on a warm server. The
    supervisor started that host (broker/warm_host.py); one started here would live and
    die with this agent, so without one the call runs cold."""
    if host is None:
        return None
    return _hand_on(encode_request(os.getcwd(), [job], dict(os.environ), MAGIC_JOB), host)


def _hand_on(request: bytes, known: str | None = None) -> int | None:
    uid = os.getuid()
    sock = _host(uid, known)
    if sock is None:
        return None
    previous = {sig: _signal.signal(sig, _interrupted) for sig in (_signal.SIGTERM, _signal.SIGINT)}
    try:
        fds = (0).to_bytes(4, sys.byteorder)
        try:
            sent = sock.sendmsg([request], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, fds)])
            if sent < len(request):  # an empty send to a host that already answered and
                sock.sendall(request[sent:])  # closed is EPIPE: the call would run twice
        except OSError:
            return None  # the host has no whole request, so it runs nothing
        code = _relay(sock)
        if code == -2:
            return None  # a host that was stopping: it ran nothing, so the runner does
        if code < 0:
            os.write(
                1,
                b'{"errno": "ECONNRESET", "message": "the warm host closed the call"'
                b', "type": "error"}\n{"exit_code": 70, "status": "error", "type": "done"}\n',
            )
            return 70
        return code
    except _Interrupted as exc:
        return _cancelled(sock, exc.name)
    finally:
        for sig, handler in previous.items():
            _signal.signal(sig, handler)
        sock.close()
