"""Tell the kernel to forget cached entries a FUSE operation changed as a side effect.

Unlinking `agent/<n>` also removes `<n>.d/` and `<n>.sock`, writing `.d/perm` changes
`<n>`'s mode bits, and a created control whose value was refused never comes to exist;
the kernel only knows about the path it asked for. Invalidation must not run inside the
request (the kernel holds the parent directory lock), so a worker thread sends it right
after the reply.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable


class Invalidator:
    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._send: Callable[[str], None] | None = None
        self._thread: threading.Thread | None = None

    def bind(self, send: Callable[[str], None]) -> None:
        """Start sending notices through `send` (the mounted session's notify)."""
        self._send = send
        self._thread = threading.Thread(target=self._run, name="cortexfs-invalidate", daemon=True)
        self._thread.start()

    def __call__(self, *paths: str) -> None:
        if self._thread is not None:
            for path in paths:
                self._queue.put(path)

    def stop(self) -> None:
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=5)
            self._thread = None

    def _run(self) -> None:
        assert self._send is not None
        while (path := self._queue.get()) is not None:
            # -ENOENT just means the kernel had nothing cached for the path.
            self._send(path)
