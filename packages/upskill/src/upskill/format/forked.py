"""Map a pure function over many inputs in two processes (fork, Linux only).

Large registries spend their cold install parsing items and formatting
bodies, both pure and independent per input. A forked child takes every other
input and sends its results back through a pipe while this process does the
rest, so two cores halve the wait. Results are the same values either way.

Parallelism is only ever an optimisation: below `min_inputs`, with one usable
CPU, with other threads alive (a fork would copy their held locks), without
`fork`, or when the child fails (exit status, short pipe), inputs come back
as None and the caller computes them itself. An input whose call raises also
comes back as None, so the caller raises that error exactly where and how it
always did.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

_In = TypeVar("_In")
_Out = TypeVar("_Out")


def usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - non-Linux
        return os.cpu_count() or 1


def can_fork() -> bool:
    return (
        sys.platform.startswith("linux")
        and hasattr(os, "fork")
        and threading.active_count() == 1
        and usable_cpus() >= 2
    )


def two_process_map(
    func: Callable[[_In], _Out], inputs: Sequence[_In], *, min_inputs: int
) -> list[_Out | None]:
    """`func` over `inputs` in input order; None where the caller must compute."""
    results: list[_Out | None] = [None] * len(inputs)
    if len(inputs) < min_inputs or not can_fork():
        return results
    # The first input runs before the fork: lazy imports and parser set-up
    # happen once, in this process, and the child inherits them.
    results[0] = _call(func, inputs[0])
    read_end, write_end = os.pipe()
    # Ctrl-C must never run this process's Python handlers in the child (they
    # could unwind into the caller's clean-up): SIGINT stays blocked across
    # the fork and the child takes the default action, plain termination.
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pid = os.fork()
    except OSError:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        os.close(read_end)
        os.close(write_end)
        return results
    if pid == 0:  # pragma: no cover - the child's coverage is not collected
        try:
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            _child(func, inputs[1::2], read_end, write_end)
        finally:
            os._exit(1)
    os.close(write_end)
    finished = False
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a pending Ctrl-C lands here
        for index in range(2, len(inputs), 2):
            results[index] = _call(func, inputs[index])
        with os.fdopen(read_end, "rb", closefd=False) as pipe:
            payload = pipe.read()
        finished = True
    finally:
        os.close(read_end)
        if not finished:  # interrupted: the child's work is no longer wanted
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    if status == 0:
        # our own child's bytes, through a pipe only the two processes hold
        results[1::2] = pickle.loads(payload)  # noqa: S301
    return results


def _call(func: Callable[[_In], _Out], value: _In) -> _Out | None:
    try:
        return func(value)
    except Exception:  # the caller computes it again and raises it in order
        return None


def _child(
    func: Callable[[_In], _Out], inputs: Sequence[_In], read_end: int, write_end: int
) -> None:  # pragma: no cover - runs in the forked child
    code = 1
    try:
        os.close(read_end)
        payload = pickle.dumps([_call(func, v) for v in inputs], pickle.HIGHEST_PROTOCOL)
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(payload)
        code = 0
    finally:
        os._exit(code)
