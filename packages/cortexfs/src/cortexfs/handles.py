"""Open-file state kept by the FUSE adapter between open and release."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field

from cortexfs.layout import Node


@dataclass
class FdHandle:
    """A backing fd (-1 until first needed): reads, and writes of plain and temp files."""

    fd: int
    node: Node
    writable: bool


@dataclass
class BytesHandle:
    """Virtual content (status)."""

    data: bytes


@dataclass
class ControlHandle:
    """A whole-file control write: committed by the offset-0 write, or as empty at flush.

    Every close of every duplicate of the fd is a flush, including a forked child's
    exit, so only a flush from the process that truncated the handle (`truncated_by`)
    commits the empty value: a child that inherited the fd and wrote nothing has said
    nothing. None: that process was not known (outside the daemon's pid namespace), and
    any flush commits.
    """

    node: Node
    truncated: bool
    truncated_by: int | None = None
    committed: bool = False
    registered: bool = False  # counted in HandleTable.pending until settled


@dataclass
class LogHandle:
    """An O_APPEND open of `.d/log`: each write is appended by the daemon."""

    node: Node


Handle = FdHandle | BytesHandle | ControlHandle | LogHandle


@dataclass
class HandleTable:
    handles: dict[int, Handle] = field(default_factory=dict)
    pending: dict[str, int] = field(default_factory=dict)  # created controls not yet committed
    lock: threading.Lock = field(default_factory=threading.Lock)
    next_fh: int = 1

    def add(self, handle: Handle) -> int:
        with self.lock:
            fh = self.next_fh
            self.next_fh += 1
            self.handles[fh] = handle
            if isinstance(handle, ControlHandle) and handle.truncated:
                handle.registered = True
                self.pending[handle.node.path] = self.pending.get(handle.node.path, 0) + 1
            return fh

    def get(self, fh: int) -> Handle | None:
        return self.handles.get(fh)

    def is_pending(self, path: str) -> bool:
        return path in self.pending

    def settle(self, handle: ControlHandle) -> None:
        """The control now exists on disk (or never will): stop presenting it as pending."""
        with self.lock:
            if not handle.registered:
                return
            handle.registered = False
            count = self.pending.get(handle.node.path, 0)
            if count <= 1:
                self.pending.pop(handle.node.path, None)
            else:
                self.pending[handle.node.path] = count - 1

    def pop(self, fh: int) -> Handle | None:
        with self.lock:
            handle = self.handles.pop(fh, None)
        if isinstance(handle, FdHandle) and handle.fd >= 0:
            os.close(handle.fd)
        return handle
