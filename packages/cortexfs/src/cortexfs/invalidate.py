"""Tell the kernel to forget cached entries a FUSE operation changed as a side effect.

Unlinking `agent/<n>` also removes `<n>.d/` and `<n>.sock`, and writing `.d/perm` changes
`<n>`'s mode bits; the kernel only knows about the path it asked for. Invalidation must
not run inside the request (the kernel holds the parent directory lock), so a worker
thread sends it right after the reply.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import queue
import threading


class Invalidator:
    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._fuse: int | None = None
        self._lib: ctypes.CDLL | None = None
        self._thread: threading.Thread | None = None

    def bind(self) -> None:
        """Called from the FUSE init callback: there `fuse_get_context()->fuse` (the first
        field of struct fuse_context) is the session the notifications go to."""
        name = ctypes.util.find_library("fuse3")
        if not name:
            return
        self._lib = ctypes.CDLL(name)
        self._lib.fuse_get_context.restype = ctypes.POINTER(ctypes.c_void_p)
        self._lib.fuse_invalidate_path.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        self._lib.fuse_invalidate_path.restype = ctypes.c_int
        context = self._lib.fuse_get_context()
        self._fuse = context[0] if context else None
        if not self._fuse:
            return
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
        assert self._lib is not None
        while (path := self._queue.get()) is not None:
            # -ENOENT just means the kernel had nothing cached for the path.
            self._lib.fuse_invalidate_path(self._fuse, path.encode())
