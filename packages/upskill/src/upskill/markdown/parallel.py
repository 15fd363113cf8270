"""Format many distinct bodies on two cores before they are rendered one by one.

Formatting dominates a large cold install (400 bodies take ~0.3 s on one
core). A forked child formats every other text and sends the results back
through a pipe while this process formats the rest; the renderer then finds
them ready (`formatter.preformatted`). Output cannot differ: both processes
run the same pure function on the same texts, and the child only ever adds
cache entries.

Only the fast path is parallel, never correctness: fewer texts than
`MIN_TEXTS`, one usable CPU, other threads alive (a fork would copy their
locks), no `fork` (Windows, macOS is left out too), or any failure of the child
(exit status, short pipe) make this a no-op or leave the child's share to be
formatted lazily, exactly as without this module. Errors a text would raise are
not raised here: the renderer raises them in its usual order.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import sys
import threading
from collections.abc import Sequence

from upskill.markdown import engine
from upskill.markdown.formatter import Formatted, format_document, format_uncached, preformatted

MIN_TEXTS = 64


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


def format_ahead(texts: Sequence[str], *, min_texts: int | None = None) -> None:
    """Format `texts` now, half in a forked child; `format_document` then hits."""
    distinct = list(dict.fromkeys(texts))
    if len(distinct) < (MIN_TEXTS if min_texts is None else min_texts) or not can_fork():
        return
    engine.parser()  # built before the fork, so the child imports nothing
    mine, theirs = distinct[0::2], distinct[1::2]
    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return
    if pid == 0:  # pragma: no cover - the child's coverage is not collected
        _child(read_end, write_end, theirs)
    os.close(write_end)
    try:
        for text in mine:
            _quietly(text)
        with os.fdopen(read_end, "rb", closefd=False) as pipe:
            payload = pipe.read()
    finally:
        os.close(read_end)  # a child still writing gets EPIPE and exits
        _, status = os.waitpid(pid, 0)
    if status == 0:
        # our own child's bytes, through a pipe only the two processes hold
        results: dict[str, Formatted] = pickle.loads(payload)  # noqa: S301
        preformatted(results)


def _quietly(text: str) -> None:
    with contextlib.suppress(Exception):  # the renderer raises it again, in order
        format_document(text)


def _child(read_end: int, write_end: int, texts: list[str]) -> None:  # pragma: no cover
    code = 1
    try:
        os.close(read_end)
        results: dict[str, Formatted] = {}
        for text in texts:
            try:
                results[text] = format_uncached(text)
            except Exception:  # noqa: S112 - left for the parent to raise in order
                continue
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(pickle.dumps(results, protocol=pickle.HIGHEST_PROTOCOL))
        code = 0
    finally:
        os._exit(code)
