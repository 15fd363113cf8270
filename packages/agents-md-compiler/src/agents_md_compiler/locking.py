"""Distribution-wide advisory lock: an O_EXCL lock file keyed by resolved path.

The file format is the reference's (`{"acquired_at": "held", "pid": N}`, plus the
holder's process start time), so a reference process and ctxkit exclude each
other. A holder killed with SIGKILL leaves its file behind; a waiter breaks it
only when it is provably dead:

- ctxkit holders keep an flock on their lock file for as long as they hold it, so
  a file whose flock can be taken has no living ctxkit holder;
- the recorded pid must also be gone, or now belong to a process that started at
  a different time (pid reuse); a reference holder, which takes no flock, is
  recognised as alive this way;
- a file with no readable pid is broken only once it is older than a few seconds
  (its writer may still be between create and write).

The breaker holds the flock on the very inode it judged while it unlinks it and
re-checks that the path still names that inode, so two waiters can never both
break, or break a lock that was just re-created.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from agents_md_compiler.atomic import ensure_private_dir
from agents_md_compiler.errors import MutationError
from agents_md_compiler.processes import is_alive, process_start

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: pid checks alone
    fcntl = None  # type: ignore[assignment]

ORPHAN_GRACE_SECONDS = 10.0


@dataclass(frozen=True)
class LockTiming:
    poll_seconds: float = 0.05
    timeout_seconds: float = 30.0
    sleep: Callable[[float], None] = time.sleep
    monotonic: Callable[[], float] = time.monotonic


@contextlib.contextmanager
def advisory_lock(lock_path: str, timing: LockTiming = LockTiming()) -> Iterator[None]:
    ensure_private_dir(str(Path(lock_path).parent))
    deadline = timing.monotonic() + timing.timeout_seconds
    payload = {"acquired_at": "held", "pid": os.getpid(), "started": process_start(os.getpid())}
    while True:
        try:
            fd = os.open(lock_path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
            break
        except FileExistsError:
            if break_if_stale(lock_path):
                continue
            if timing.monotonic() >= deadline:
                raise MutationError(
                    "acquiring the advisory lock failed "
                    f"({_holder(lock_path)}; waited {timing.timeout_seconds}s)",
                    lexical=lock_path,
                ) from None
            timing.sleep(timing.poll_seconds)
        except OSError as exc:
            raise MutationError(
                f"acquiring the advisory lock failed ({exc.strerror})", lexical=lock_path
            ) from None
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, json.dumps(payload, sort_keys=True).encode())
        yield
    finally:
        with contextlib.suppress(FileNotFoundError):
            Path(lock_path).unlink()
        os.close(fd)


def break_if_stale(lock_path: str, now: Callable[[], float] = time.time) -> bool:
    """Remove a lock file whose holder is provably dead; True when the caller should retry."""
    try:
        fd = os.open(lock_path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    try:
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return False  # a living ctxkit holder
        opened = os.fstat(fd)
        try:
            if Path(lock_path).stat().st_ino != opened.st_ino:
                return True  # replaced meanwhile: look again
        except FileNotFoundError:
            return True
        pid, started = _read_holder(fd)
        if pid is None:
            stale = now() - opened.st_mtime > ORPHAN_GRACE_SECONDS
        else:
            stale = not is_alive(pid, started)
        if stale:
            Path(lock_path).unlink()
        return stale
    finally:
        os.close(fd)


def _read_holder(fd: int) -> tuple[int | None, str | None]:
    try:
        document = json.loads(os.read(fd, 4096).decode("utf-8"))
    except (OSError, ValueError):
        return None, None
    if not isinstance(document, dict):
        return None, None
    pid, started = document.get("pid"), document.get("started")
    return (
        pid if type(pid) is int else None,
        started if isinstance(started, str) else None,
    )


def _holder(lock_path: str) -> str:
    try:
        document = json.loads(Path(lock_path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "holder unknown"
    if not isinstance(document, dict):
        return "holder unknown"
    pid, since = document.get("pid", "unknown"), document.get("acquired_at", "unknown")
    return f"held by pid {pid} since {since}"
