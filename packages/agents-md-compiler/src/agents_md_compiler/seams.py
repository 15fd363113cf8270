"""Injectable side effects: environment, cwd, clock, ids, lock timing, hooks, subprocess."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import subprocess
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from agents_md_compiler.locking import LockTiming


def _noop(path: str) -> None:
    del path


@dataclass(frozen=True)
class MutationHooks:
    """Test seams for the windows the safety rules are about.

    before_recheck runs after a precondition was captured and before it is
    re-checked under the advisory lock; after_replace runs right after install or
    rollback replaced the target and before its receipt is written, so tests can
    inject faults (or a simulated kill) there.
    """

    before_recheck: Callable[[str], None] = _noop
    after_replace: Callable[[str], None] = _noop


@dataclass(frozen=True)
class RunResult:
    returncode: int
    stdout: bytes
    stderr: bytes


class RunTimeout(Exception):
    pass


Runner = Callable[[Sequence[str], str | None, float, Mapping[str, str]], RunResult]


def run_process(
    argv: Sequence[str], cwd: str | None, timeout: float, environ: Mapping[str, str]
) -> RunResult:
    try:
        done = subprocess.run(
            list(argv),
            cwd=cwd,
            env=dict(environ),
            capture_output=True,
            timeout=timeout,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        raise RunTimeout from None
    return RunResult(done.returncode, done.stdout, done.stderr)


def _which(name: str, environ: Mapping[str, str]) -> str | None:
    return shutil.which(name, path=environ.get("PATH", os.defpath))


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass(frozen=True)
class Seams:
    environ: Mapping[str, str] = field(default_factory=lambda: os.environ)
    cwd: Callable[[], str] = os.getcwd
    clock: Callable[[], dt.datetime] = _utcnow
    operation_id: Callable[[], str] = lambda: uuid.uuid4().hex
    lock_timing: LockTiming = field(default_factory=LockTiming)
    hooks: MutationHooks = field(default_factory=MutationHooks)
    runner: Runner = run_process
    which: Callable[[str, Mapping[str, str]], str | None] = _which


def stamp(moment: dt.datetime) -> str:
    """File-name stamp; sorts chronologically."""
    return moment.astimezone(dt.UTC).strftime("%Y%m%dT%H%M%S.%fZ")


def completed_at(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
