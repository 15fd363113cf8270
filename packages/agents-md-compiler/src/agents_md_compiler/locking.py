"""Distribution-wide advisory lock: an O_EXCL lock file keyed by resolved path."""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from agents_md_compiler.atomic import ensure_private_dir
from agents_md_compiler.errors import LockUnavailableError


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
    payload = json.dumps({"acquired_at": "held", "pid": os.getpid()}, sort_keys=True).encode()
    while True:
        try:
            fd = os.open(lock_path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
            break
        except FileExistsError:
            if timing.monotonic() >= deadline:
                raise LockUnavailableError(
                    f"LOCK_UNAVAILABLE: advisory lock is held by pid {_holder(lock_path)}",
                    lexical=lock_path,
                ) from None
            timing.sleep(timing.poll_seconds)
    try:
        os.write(fd, payload)
    finally:
        os.close(fd)
    try:
        yield
    finally:
        with contextlib.suppress(FileNotFoundError):
            Path(lock_path).unlink()


def _holder(lock_path: str) -> str:
    try:
        pid = json.loads(Path(lock_path).read_text(encoding="utf-8")).get("pid")
    except (OSError, ValueError, AttributeError):
        return "unknown"
    return str(pid) if type(pid) is int else "unknown"
